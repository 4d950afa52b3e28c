"""No cache or memo that outlives one file changes a verdict: a rule file is compiled
again whenever what it reads (its text, its bases' texts, which file each ``extends``
finds) is not what the remembered spec was compiled from (issue 18)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from referee.language import loader
from referee.transcript.check import check_file

TWO_PLAYERS = "game: mine\nplayers: Ann Bob\ndeal: hidden\n"


def refused_for_two(verdict_message: str) -> bool:
    return "2 players" in verdict_message or "3 to 6" in verdict_message


def test_a_rule_file_rewritten_with_the_same_size_inode_and_time_is_read_again(
        tmp_path: Path) -> None:
    rules = tmp_path / "mine.rules"
    rules.write_text("extends: go-fish\nplayers: 2 to 6\n")
    game = tmp_path / "game.txt"
    game.write_text(TWO_PLAYERS)
    assert check_file(game).ok
    before = rules.stat()
    rules.write_text("extends: go-fish\nplayers: 3 to 6\n")  # as a coarse clock would see it
    os.utime(rules, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = rules.stat()
    assert (after.st_ino, after.st_size, after.st_mtime_ns) == (
        before.st_ino, before.st_size, before.st_mtime_ns)
    verdict = check_file(game)
    assert not verdict.ok and verdict.error is not None
    assert refused_for_two(verdict.error.message), verdict.report()


def test_a_base_that_appears_beside_the_rule_file_is_the_one_extended(tmp_path: Path) -> None:
    (tmp_path / "mine.rules").write_text("extends: go-fish\n")
    game = tmp_path / "game.txt"
    game.write_text(TWO_PLAYERS)
    assert check_file(game).ok  # the bundled go-fish: 2 to 6 players
    (tmp_path / "go-fish.rules").write_text("extends: authors\n")  # 3 to 6 players
    verdict = check_file(game)
    assert not verdict.ok and verdict.error is not None
    assert refused_for_two(verdict.error.message), verdict.report()


def test_the_disk_cache_follows_a_base_that_appears_beside_the_rule_file(
        tmp_path: Path) -> None:
    (tmp_path / "mine.rules").write_text("extends: go-fish\n")
    game = tmp_path / "game.txt"
    game.write_text(TWO_PLAYERS)
    env = {**os.environ, "REFEREE_CACHE_DIR": str(tmp_path / "cache")}

    def verdict() -> dict[str, object]:
        done = subprocess.run([sys.executable, "-m", "referee", "check", "--json", str(game)],
                              capture_output=True, text=True, env=env, check=False, timeout=60)
        return dict(json.loads(done.stdout))

    assert verdict()["ok"] is True
    assert any((tmp_path / "cache").iterdir())  # the spec was remembered on disk
    (tmp_path / "go-fish.rules").write_text("extends: authors\n")
    again = verdict()
    assert again["ok"] is False
    error = again["error"]
    assert isinstance(error, dict) and refused_for_two(str(error["message"])), again


def test_a_rule_file_changed_lately_is_read_again_though_its_stamp_is_the_same(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    unchanged = (1, 2, 3, 4, time.time_ns() + 60 * 10**9)  # two writes in one tick of a
    monkeypatch.setattr(loader, "_stamp", lambda file: unchanged)  # coarse clock: one stamp
    rules = tmp_path / "mine.rules"
    rules.write_text("extends: go-fish\nplayers: 2 to 6\n")
    game = tmp_path / "game.txt"
    game.write_text(TWO_PLAYERS)
    assert check_file(game).ok
    rules.write_text("extends: go-fish\nplayers: 3 to 6\n")
    verdict = check_file(game)
    assert not verdict.ok and verdict.error is not None
    assert refused_for_two(verdict.error.message), verdict.report()
