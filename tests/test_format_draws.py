"""``referee format`` writes every draw out: a draw typed without its card, from a stock
whose order the deal gives, is written with the card it took, and reads back the same;
at a hidden table the card stays unnamed, since nobody knows it."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

import referee
from referee.cli.commands import main

OPEN = """game: go-fish
players: Ann, Bob
deal: seed 3

Ann asks Bob for 10
Bob says no
Ann draws
"""


def _format(tmp_path: Path, text: str) -> str:
    path = tmp_path / "game.txt"
    path.write_text(text)
    result = CliRunner().invoke(main, ["format", str(path)])
    assert result.exit_code == 0, result.output
    return result.output


def test_an_open_deal_draw_is_written_with_its_card(tmp_path: Path) -> None:
    written = _format(tmp_path, OPEN)
    assert written.splitlines()[-1] == "Ann draws 10H"
    before, after = referee.check(OPEN), referee.check(written)
    assert before.ok and after.ok
    assert before.to_json()["state"] == after.to_json()["state"]


def test_a_hidden_deal_draw_stays_unnamed(tmp_path: Path) -> None:
    written = _format(tmp_path, OPEN.replace("deal: seed 3", "deal: hidden"))
    assert written.splitlines()[-1] == "Ann draws"
