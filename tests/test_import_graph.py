"""The modules of ``referee/`` import one another without a cycle: each layer depends
only on the layers beneath it.

The graph has an edge for every module-level import of one module of the package by
another, read from the source (AST), in every module found recursively under
``referee/`` (subpackages included):

- ``import referee.x`` and ``from referee.x import name`` count, and so do relative
  imports; ``from referee.pkg import mod`` is an edge to the module ``referee.pkg.mod``
  when there is one, else to the package ``referee.pkg`` (its ``__init__``).
- Imports under ``if TYPE_CHECKING:`` count too: a type-only edge back up the layers
  is still a module that knows one above it, and it would run at once the day the
  annotation is needed at run time.
- Imports inside a function (or method) do not count: those are the project's
  deliberate lazy imports, run only when the function is called.
- The packages a dotted import passes through (``referee``, ``referee.pkg`` for
  ``referee.pkg.mod``) are not edges: a package's ``__init__`` that names its own
  modules would otherwise always be in a cycle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "referee"


def module_files(package: Path) -> dict[str, Path]:
    """Every module under ``package`` (recursively), by dotted name."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _module_level(tree: ast.Module) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements of ``tree`` outside any function body."""
    stack: list[ast.AST] = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        else:
            stack.extend(ast.iter_child_nodes(node))


def _absolute(name: str, node: ast.ImportFrom, is_package: bool) -> str:
    """The module a (possibly relative) ``from`` import names, as a dotted name."""
    if not node.level:
        return node.module or ""
    base = name.split(".") if is_package else name.split(".")[:-1]
    base = base[:len(base) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def import_graph(package: Path) -> dict[str, set[str]]:
    """Each module's module-level imports of other modules of ``package``."""
    modules = module_files(package)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        targets: set[str] = set()
        for node in _module_level(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names if alias.name in modules)
                continue
            source = _absolute(name, node, is_package)
            for alias in node.names:
                if f"{source}.{alias.name}" in modules:
                    targets.add(f"{source}.{alias.name}")
                elif source in modules:
                    targets.add(source)
        graph[name] = targets - {name}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as the modules along it (the first again at the end), or
    None when it has none."""
    done: set[str] = set()
    path: list[str] = []
    on_path: set[str] = set()

    def visit(module: str) -> list[str] | None:
        path.append(module)
        on_path.add(module)
        for target in sorted(graph.get(module, ())):
            if target in on_path:
                return [*path[path.index(target):], target]
            if target not in done:
                found = visit(target)
                if found is not None:
                    return found
        path.pop()
        on_path.discard(module)
        done.add(module)
        return None

    for module in sorted(graph):
        if module not in done:
            found = visit(module)
            if found is not None:
                return found
    return None


def test_the_package_imports_without_a_cycle() -> None:
    graph = import_graph(PACKAGE)
    assert "referee.engine.core" in graph and "referee.engine.state" in graph["referee.engine.flow"]
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or ())


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root / "pkg"


@pytest.mark.parametrize(("files", "cycle"), [
    ({"pkg/__init__.py": "", "pkg/a.py": "from pkg.b import x\n",
      "pkg/b.py": "import pkg.a\n"}, ["pkg.a", "pkg.b", "pkg.a"]),
    ({"pkg/__init__.py": "", "pkg/core/__init__.py": "", "pkg/core/state.py":
      "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.core import flow\n",
      "pkg/core/flow.py": "from . import state\n"},
     ["pkg.core.flow", "pkg.core.state", "pkg.core.flow"]),
    ({"pkg/__init__.py": "", "pkg/low/__init__.py": "", "pkg/low/x.py":
      "from ..high import Name\n", "pkg/high/__init__.py": "from pkg.low import x\n",
      "pkg/high/y.py": ""}, ["pkg.high", "pkg.low.x", "pkg.high"]),
    ({"pkg/__init__.py": "", "pkg/a.py": "def lazy():\n    from pkg import b\n",
      "pkg/b.py": "from pkg.a import lazy\n"}, None),
    ({"pkg/__init__.py": "from pkg.sub.m import f\n", "pkg/sub/__init__.py": "",
      "pkg/sub/m.py": "import os\nfrom pkg.sub import other\n", "pkg/sub/other.py": ""},
     None),
])
def test_cycles_are_found_in_nested_packages(
    tmp_path: Path, files: dict[str, str], cycle: list[str] | None
) -> None:
    assert find_cycle(import_graph(_write(tmp_path, files))) == cycle
