"""``referee check FILE...`` keeps the cyclic garbage collector paused for the whole run
(a pass at each file's end only cost time), and memory stays bounded: once more than
``PILED_UP`` container objects pile up, it collects."""

from __future__ import annotations

import gc
import subprocess
import sys
import weakref
from pathlib import Path

import pytest

from referee.cli import check_command
from referee.transcript import check
from referee.transcript.check import check_file

GAME = Path(__file__).parent / "transcripts" / "go-fish" / "whole-game.txt"


class Node:
    """A member of a reference cycle."""

    def __init__(self) -> None:
        self.other: object = self


def test_the_collector_is_paused_for_the_whole_run_and_restored_after(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    seen: list[bool] = []
    between: list[bool] = []

    def checking(path: Path, **options: bool) -> check.Verdict:
        between.append(gc.isenabled())  # as the previous file's verdict was printed
        verdict = check_file(path, **options)
        seen.append(gc.isenabled())
        return verdict

    monkeypatch.setattr(check_command, "check_file", checking)
    assert gc.isenabled()
    assert check_command.check_transcripts((GAME, GAME, GAME)) == 0
    assert seen == [False] * 3 and between == [False] * 3
    assert gc.isenabled()
    assert "3 files: 3 legal, 0 not" in capsys.readouterr().out


def test_cycles_left_by_a_check_are_collected_once_they_pile_up(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    kept: list[weakref.ref[Node]] = []

    def leaking(path: Path, **options: bool) -> check.Verdict:
        for _ in range(3000):
            kept.append(weakref.ref(Node()))  # garbage only the collector can free
        return check_file(path, **options)

    monkeypatch.setattr(check_command, "check_file", leaking)
    monkeypatch.setattr(check, "PILED_UP", 5000)
    gc.collect()
    check_command.check_transcripts((GAME,) * 8)
    capsys.readouterr()
    assert sum(ref() is not None for ref in kept) < 8000  # not all 24,000 left
    assert kept[0]() is None


def test_the_program_checks_without_the_collector_and_ends_without_its_last_pass() -> None:
    script = ("import gc, sys\n"
              f"sys.argv = ['referee', 'check', {str(GAME)!r}, {str(GAME)!r}]\n"
              "from referee.cli.entry import main\n"
              "try:\n    main()\nexcept SystemExit as done:\n    status = done.code\n"
              "print(status, gc.isenabled(), gc.get_freeze_count() > 0, file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=False, timeout=60)
    assert done.stderr.strip().endswith("0 False True"), done.stderr
    assert done.stdout.endswith("2 files: 2 legal, 0 not\n")
