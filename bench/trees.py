"""What a tree a bench times runs: its modules compiled by mypyc, or their source.

A bench runs each tree with ``PYTHONPATH`` at the tree, so it imports what the tree
holds: a checkout without ``python setup.py build_ext --inplace`` runs every module
from its source, some three times slower, whatever the virtual environment installed.
Every bench that times a ``--tree`` prints this beside it, so that a figure is not read
as the compiled one when it is not.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

CHILD = """
import importlib
try:
    from referee.compiled import COMPILED, is_compiled
except ModuleNotFoundError as error:
    if error.name != "referee.compiled":
        raise
    print("source only, a tree from before its modules could be compiled")
    raise SystemExit
names = ["referee." + path[:-3].replace("/", ".") for path in COMPILED]
done = sum(is_compiled(importlib.import_module(name)) for name in names)
print(f"{done} of {len(names)} modules compiled" if done else
      "source only, no module compiled: python setup.py build_ext --inplace compiles them")
"""


def what_runs(tree: Path) -> str:
    """How many of ``tree``'s compilable modules load compiled, in a process of its own
    that imports ``referee`` from ``tree`` as a bench does."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run([sys.executable, "-c", CHILD], cwd=tree, env=env,
                          capture_output=True, text=True, check=False)
    if done.returncode:
        last = done.stderr.strip().splitlines()[-1:] or ["no output"]
        return f"unknown: {last[0]}"
    return done.stdout.strip()
