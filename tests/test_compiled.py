"""The modules compiled with mypyc (referee/compiled.py) give what their source gives:
the same JSON verdict (legal or not, each error's kind, words, line and column) for
self-played games of every bundled rule file, open and hidden, their terse twins, and
the same games mutated. The source is the reference.

The compiled build is made here, from a copy of this checkout (an editable install is
pure Python), so the test needs mypyc and a C compiler, and is slow.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from referee.authoring.simulate import play_one
from referee.compiled import COMPILED
from referee.engine.core import Engine
from referee.language.loader import load_spec
from referee.language.rulefiles import bundled_rule_names, find_rule_file

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from fuzz_mutations import mutate  # noqa: E402
from terse import write_corpora  # noqa: E402
from trees import what_runs  # noqa: E402

GAMES = 2  # self-played games of each rule file, open and hidden
MUTANTS = 3  # mutated copies of each game
BUILD_FILES = ("pyproject.toml", "README.md", "setup.py", "MANIFEST.in")
BUILD_FOLDERS = ("referee", "grammar", "rules", "build_support")
CHILD = """
import json, sys
from pathlib import Path
import referee.engine.core
from referee.compiled import is_compiled
from referee.transcript.check import check_file
corpus = Path(sys.argv[1])
verdicts = {str(file.relative_to(corpus)): check_file(file).to_json()
            for file in sorted(corpus.rglob("*.txt"))}
print(json.dumps({"compiled": is_compiled(referee.engine.core), "verdicts": verdicts}))
"""


def _can_compile() -> bool:
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    try:
        import mypyc  # noqa: F401
    except ImportError:
        return False
    return headers.is_file() and shutil.which(compiler) is not None


def _compiled_tree(folder: Path) -> Path:
    """A copy of this checkout with the modules compiled in place."""
    folder.mkdir()
    for name in BUILD_FILES:
        shutil.copy2(ROOT / name, folder / name)
    for name in BUILD_FOLDERS:
        shutil.copytree(ROOT / name, folder / name,
                        ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    built = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"],
                           cwd=folder, capture_output=True, text=True, check=False)
    assert built.returncode == 0, built.stderr[-3000:]
    return folder


def _corpus(folder: Path) -> None:
    """Self-played games of every bundled rule file, terse twins, and mutants."""
    rng = random.Random(2026)
    for name in bundled_rule_names():
        engine = Engine(load_spec(find_rule_file(name)))
        counts = sorted(engine.spec.player_counts)
        for seed in range(GAMES):
            for hidden in (False, True):
                played = play_one(engine, counts[seed % len(counts)], seed, transcript=True,
                                  hidden=hidden)
                text = "\n".join(played.lines) + "\n"
                stem = f"{name}-{seed}-{'hidden' if hidden else 'open'}"
                (folder / f"{stem}.txt").write_text(text, encoding="utf-8")
                for mutant in range(MUTANTS):
                    (folder / f"{stem}-mutant{mutant}.txt").write_text(
                        mutate(text, rng), encoding="utf-8")
    write_corpora(folder / "terse", GAMES, 2026)


def _verdicts(tree: Path, corpus: Path, pure: bool) -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    env.pop("REFEREE_PURE_PYTHON", None)
    if pure:
        env["REFEREE_PURE_PYTHON"] = "1"
    done = subprocess.run([sys.executable, "-c", CHILD, str(corpus)], cwd=tree, env=env,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    found: dict[str, object] = json.loads(done.stdout)
    return found


@pytest.fixture(scope="module")
def compiled_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One compiled copy of this checkout for every test here."""
    return _compiled_tree(tmp_path_factory.mktemp("compiled") / "tree")


@pytest.mark.slow
@pytest.mark.skipif(not _can_compile(), reason="no mypyc or no C compiler")
def test_compiled_modules_give_the_verdicts_of_their_source(compiled_tree: Path,
                                                            tmp_path: Path) -> None:
    tree = compiled_tree
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    _corpus(corpus)
    compiled = _verdicts(tree, corpus, pure=False)
    source = _verdicts(tree, corpus, pure=True)
    assert compiled["compiled"] is True
    assert source["compiled"] is False
    assert compiled["verdicts"] == source["verdicts"]


@pytest.mark.slow
@pytest.mark.skipif(not _can_compile(), reason="no mypyc or no C compiler")
def test_a_bench_says_a_compiled_tree_runs_compiled(compiled_tree: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REFEREE_PURE_PYTHON", raising=False)
    assert what_runs(compiled_tree) == f"{len(COMPILED)} of {len(COMPILED)} modules compiled"
    monkeypatch.setenv("REFEREE_PURE_PYTHON", "1")
    assert what_runs(compiled_tree).startswith("source only")


SELF_PLAY = (
    ("go-fish", "4", "counting"), ("literature", "6", "counting,random"),
    ("authors", "4", "random"), ("chinese-fish", "3", "counting"),
    ("diplomat", "4", "counting"),
)


def _balance(tree: Path, args: tuple[str, str, str], pure: bool) -> str:
    name, players, policy = args
    env = {**os.environ, "PYTHONPATH": str(tree)}
    env.pop("REFEREE_PURE_PYTHON", None)
    if pure:
        env["REFEREE_PURE_PYTHON"] = "1"
    done = subprocess.run([sys.executable, "-m", "referee", "simulate", name, "-p", players,
                           "-g", "12", "-s", "7", "--policy", policy, "--json"], cwd=tree,
                          env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


@pytest.mark.slow
@pytest.mark.skipif(not _can_compile(), reason="no mypyc or no C compiler")
@pytest.mark.parametrize("args", SELF_PLAY, ids=lambda args: "-".join(args))
def test_compiled_self_play_plays_the_games_of_its_source(compiled_tree: Path,
                                                          args: tuple[str, str, str]) -> None:
    """The compiled players (random and counting) choose the moves their source does:
    the same seeds give the same balance report, game for game."""
    assert _balance(compiled_tree, args, pure=False) == _balance(compiled_tree, args, pure=True)
