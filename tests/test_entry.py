"""The ``referee`` program's quick path: ``referee check FILE...`` runs without click,
and says and exits exactly what click's command does."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.commands import main
from referee.cli.entry import is_quick_check

TRANSCRIPTS = Path(__file__).parent / "transcripts"
LEGAL = str(TRANSCRIPTS / "go-fish" / "whole-game.txt")
ILLEGAL = str(TRANSCRIPTS / "go-fish" / "draw-wrong-card.txt")
MISSING = str(TRANSCRIPTS / "no-such-file.txt")


@pytest.mark.parametrize(("arguments", "quick"), [
    (["check", "game.txt"], True),
    (["check", "a.txt", "b.txt", "--json"], True),
    (["check", "--json", "-"], True),
    (["check"], False),
    (["check", "--json"], False),
    (["check", "--knowledge", "game.txt"], False),
    (["check", "--help"], False),
    (["check", "--", "-odd.txt"], False),
    (["check", "-x", "game.txt"], False),
    (["format", "game.txt"], False),
    (["--version"], False),
    ([], False),
])
def test_only_plain_check_command_lines_take_the_quick_path(arguments: list[str],
                                                            quick: bool) -> None:
    assert is_quick_check(arguments) is quick


@pytest.mark.parametrize("arguments", [
    ["check", LEGAL],
    ["check", ILLEGAL],
    ["check", MISSING],
    ["check", "--json", LEGAL],
    ["check", LEGAL, ILLEGAL, MISSING],
    ["check", LEGAL, "--json", ILLEGAL],
])
def test_the_quick_path_says_and_exits_what_click_does(arguments: list[str]) -> None:
    quick = subprocess.run([sys.executable, "-m", "referee", *arguments], capture_output=True,
                           text=True, check=False, timeout=60)
    clicked = CliRunner().invoke(main, arguments)
    assert (quick.returncode, quick.stdout, quick.stderr) == (
        clicked.exit_code, clicked.stdout, clicked.stderr)


def test_the_quick_path_reads_standard_input() -> None:
    text = Path(LEGAL).read_text()
    quick = subprocess.run([sys.executable, "-m", "referee", "check", "-"], input=text,
                           capture_output=True, text=True, check=False, timeout=60)
    assert quick.returncode == 0 and quick.stdout.startswith("<stdin>: legal, 143 events")


def test_a_quick_check_does_not_import_click() -> None:
    script = ("import sys\n"
              f"sys.argv = ['referee', 'check', {LEGAL!r}]\n"
              "from referee.cli.entry import main\n"
              "try:\n    main()\nexcept SystemExit as done:\n    status = done.code\n"
              "print(status, 'click' in sys.modules, file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=False, timeout=60)
    assert done.stderr.strip().endswith("0 False"), done.stderr
