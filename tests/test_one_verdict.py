"""One file, one verdict: a transcript's verdict depends on that file alone, never on
the files checked before it in the same process (issue 18).

Every transcript the suite keeps, and self-played games (open and hidden, of several
rule files), each also written tersely (bench/terse.py) and then changed as a careless
scorer might, is checked alone, each in a process that has checked nothing else, and
then all together in one process in several orders: through ``check_file`` in this
process, and through one ``referee check --json F1 F2 ...`` command line. The verdicts,
their reports and their JSON must be the same every time.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from referee.authoring.simulate import play_one
from referee.cli.output import json_text
from referee.engine.core import Engine
from referee.language.loader import load_spec
from referee.language.rulefiles import find_rule_file
from referee.language.spec import LAY_DOWN_AT_ONCE
from referee.transcript.check import check_file

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from terse import stands_alone, terse

pytestmark = pytest.mark.slow  # about 25 s: run with -m slow, as CI does
TESTS = Path(__file__).parent
TRANSCRIPTS = sorted((TESTS / "transcripts").rglob("*.txt"))
SELF_PLAYED = (  # rule file, players, deal hidden
    ("go-fish", 3, False), ("go-fish", 4, True), ("authors", 4, False),
    ("authors-shared-win", 3, True), ("literature", 6, False), ("literature", 6, True),
    ("diplomat-centre", 4, True), ("chinese-fish", 3, False), ("canadian-fish", 6, True),
    ("go-fish-pairs", 2, True), (str(TESTS / "rules_support" / "tiny-match.rules"), 2, False),
    (str(TESTS / "rules_support" / "hidden" / "tiny-claims.rules"), 4, True),
)
SEEDS = (7, 2026)
BREAK = ("# the table takes a break", "")  # lines that are neither header nor event
ORDERS = ("in order", "reversed", "shuffled 1", "shuffled 2")

# Checks each file named after the first argument in a child forked from a process that
# has imported the referee and checked nothing: each child sees its file alone.
ALONE = """
import json, os, sys, traceback
from pathlib import Path
from referee.transcript.check import check_file
from referee.cli.output import json_text

out = Path(sys.argv[1])
for index, name in enumerate(sys.argv[2:]):
    pid = os.fork()
    if pid == 0:
        try:
            verdict = check_file(Path(name))
            found = [json_text(verdict.to_json()), verdict.report()]
        except BaseException:
            found = ["traceback", traceback.format_exc()]
        (out / f"{index}.json").write_text(json.dumps(found))
        os._exit(0)
    os.waitpid(pid, 0)
"""


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """The transcripts under tests/, self-played games written for this test, then
    each game written tersely, and its terse twin with a change or two (a segment read
    in an earlier file must read, resolve and fail here as it does alone)."""
    folder = tmp_path_factory.mktemp("self-played")
    played, written = [], []
    rng = random.Random(18)
    for rules, players, hidden in SELF_PLAYED:
        path = find_rule_file(rules)
        assert path is not None, rules
        engine = Engine(load_spec(path))
        for seed in SEEDS:
            lines = list(play_one(engine, players, seed, transcript=True,
                                  hidden=hidden).lines)
            deal = "hidden" if hidden else "open"
            stem = f"{Path(rules).stem}-{players}-{deal}-{seed}"
            short = terse(lines, seed, known=not hidden,
                          at_once=engine.spec.lay_down is LAY_DOWN_AT_ONCE)
            for name, text in ((stem, lines), (f"{stem}-terse", short),
                               (f"{stem}-terse-changed", changed(short, rng))):
                game = folder / f"{name}.txt"
                game.write_text("\n".join(decorated(text)) + "\n", encoding="utf-8")
                (played if name == stem else written).append(game)
    return [*TRANSCRIPTS, *played, *written]


@pytest.fixture(scope="module")
def alone(files: list[Path], tmp_path_factory: pytest.TempPathFactory
          ) -> dict[Path, tuple[str, str]]:
    """Each file's ``--json`` text and report, checked in a process of its own."""
    if not hasattr(os, "fork"):
        pytest.skip("checking each file alone forks a process per file")
    out = tmp_path_factory.mktemp("alone")
    env = {**os.environ, "REFEREE_CACHE_DIR": str(out / "cache")}
    subprocess.run([sys.executable, "-c", ALONE, str(out), *map(str, files)], env=env,
                   check=True, timeout=600)
    found = {}
    for index, file in enumerate(files):
        text, report = json.loads((out / f"{index}.json").read_text())
        found[file] = (text, report)
    return found


def decorated(lines: tuple[str, ...]) -> list[str]:
    """A transcript with BREAK inside its header (after ``game:``), and twice among its
    events (in a match, maybe inside a later hand's deal): a line is read as what it is
    where it stands, whatever was read before in this file or another."""
    middle = len(lines) // 2
    return [lines[0], *BREAK, *lines[1:middle], *BREAK, *lines[middle:-1], *BREAK, lines[-1]]


def changed(lines: list[str], rng: random.Random) -> list[str]:
    """A terse transcript with one or two changes to its events: a word put in place
    of another (a name, a card, a rank, as written elsewhere in the game), a segment
    left out, or two event lines swapped."""
    lines = list(lines)
    first = next(index for index, line in enumerate(lines) if not stands_alone(line))
    words = [word for line in lines[first:] for word in line.replace(";", " ").split()]
    for _ in range(rng.randint(1, 2)):
        index = rng.randrange(first, len(lines))
        segments = lines[index].split(";")
        how = rng.randrange(3)
        if how == 0:
            at = rng.randrange(len(segments))
            parts = segments[at].split()
            if parts:
                parts[rng.randrange(len(parts))] = rng.choice(words)
                segments[at] = " " * (at > 0) + " ".join(parts)
            lines[index] = ";".join(segments)
        elif how == 1 and len(segments) > 1:
            del segments[rng.randrange(len(segments))]
            lines[index] = ";".join(segments)
        elif how == 1:
            del lines[index]
        elif index + 1 < len(lines):
            lines[index], lines[index + 1] = lines[index + 1], lines[index]
    return lines


def ordered(files: list[Path], order: str) -> list[Path]:
    """``files`` in one of the ORDERS."""
    if order == "in order":
        return list(files)
    if order == "reversed":
        return files[::-1]
    shuffled = list(files)
    random.Random(int(order.split()[1])).shuffle(shuffled)
    return shuffled


def test_every_file_kept_and_played_is_checked(
        files: list[Path], alone: dict[Path, tuple[str, str]]) -> None:
    assert len(TRANSCRIPTS) > 400
    games = len(SELF_PLAYED) * len(SEEDS)
    played = files[len(TRANSCRIPTS):len(TRANSCRIPTS) + games]
    assert len(files) == len(TRANSCRIPTS) + 3 * games
    assert all(json.loads(alone[game][0])["ok"] for game in played)
    assert not [file for file, (text, _) in alone.items() if text == "traceback"]


@pytest.mark.parametrize("order", ORDERS)
def test_verdicts_together_in_one_process_are_the_verdicts_alone(
        files: list[Path], alone: dict[Path, tuple[str, str]], order: str) -> None:
    differ = []
    for file in ordered(files, order):
        verdict = check_file(file)
        if (json_text(verdict.to_json()), verdict.report()) != alone[file]:
            differ.append(str(file))
    assert not differ, f"checked {order}, these differ from their verdict alone: {differ}"


@pytest.mark.parametrize("order", ORDERS[:3])
def test_one_command_line_of_all_files_says_what_each_alone_does(
        files: list[Path], alone: dict[Path, tuple[str, str]], order: str) -> None:
    chosen = ordered(files, order)
    done = subprocess.run([sys.executable, "-m", "referee", "check", "--json",
                           *map(str, chosen)], capture_output=True, text=True, check=False,
                          timeout=600)
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [record.pop("file") for record in records] == [str(file) for file in chosen]
    differ = [str(file) for file, record in zip(chosen, records, strict=True)
              if record != json.loads(alone[file][0])]
    assert not differ, f"checked {order}, these differ from their verdict alone: {differ}"


AMONG_EVENTS = """game: go-fish
players: Ann Bob
dealer: Bob
deal: hidden
Ann asks Bob for 7
# the table takes a break

Bob says no
Ann draws
"""
IN_HEADER = """game: go-fish
# the table takes a break

players: Ann Bob
dealer: Bob
deal: hidden
Ann asks Bob for 7
"""


def check_command(*files: Path) -> list[str]:
    """What ``referee check FILE...`` prints, a line each file (its summary lines)."""
    done = subprocess.run([sys.executable, "-m", "referee", "check", *map(str, files)],
                          capture_output=True, text=True, check=False, timeout=60)
    return done.stdout.splitlines()


def test_the_same_file_twice_gets_the_same_verdict_twice(tmp_path: Path) -> None:
    game = tmp_path / "e.txt"
    game.write_text(AMONG_EVENTS.replace("players", "# the table takes a break\n\nplayers"))
    assert check_command(game, game) == [f"{game}: legal, 3 events"] * 2 + [
        "2 files: 2 legal, 0 not"]


def test_the_order_of_the_files_changes_no_verdict(tmp_path: Path) -> None:
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_text(AMONG_EVENTS)
    second.write_text(IN_HEADER)
    forward = check_command(first, second)
    backward = check_command(second, first)
    assert forward[:2] == [f"{first}: legal, 3 events", f"{second}: legal, 1 event"]
    assert backward[:2] == forward[1::-1]
