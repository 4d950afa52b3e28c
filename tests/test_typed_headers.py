"""Header lines as people type them: a bundled game named as people name it (``game:
Go Fish``), and names listed with ``and`` before the last (``players: Ann, Bob and
Cy``). What they mean is what the canonical header means; anything else is refused
as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.language.rulefiles import bundled_alias, bundled_rule_names
from referee.transcript.check import check_text

HANDS = ("dealer: Cy\ndeal: given\nhand Ann: 4C 4H 5C 3H JH\nhand Bob: 2D 8H 6D 9H 2C\n"
         "hand Cy: JD 6C AH 7D 4S\nstock: 10S KC AD 7C QC JC 7H 5S 8D 10H 7S AC KS 10C 4D "
         "10D QS 5D 6H KH 2S 8C QD 2H KD 3D 5H 8S QH 9D 9S 9C 3C 6S 3S AS JS\n"
         "Ann asks Bob for 4\n")


def verdict(game: str, players: str = "players: Ann Bob Cy", near: Path | None = None
            ) -> dict[str, object]:
    found = check_text(f"{game}\n{players}\n{HANDS}", "t.txt", near)
    report: dict[str, object] = found.to_json()
    return report


CANONICAL = verdict("game: go-fish")


@pytest.mark.parametrize("game", ["game: Go Fish", "game: go fish", "game: GO-FISH",
                                  "game: Go-Fish", "game: go_fish", "Game: Go  Fish"])
def test_a_bundled_game_may_be_named_as_people_name_it(game: str) -> None:
    assert verdict(game) == CANONICAL


@pytest.mark.parametrize(("game", "kind"), [
    ("game: gofish", "unknown"), ("game: Go Fish Deluxe", "header"),
    ("game: Go Fish.rules", "header"), ("game: ./Go-Fish.rules", "unknown"),
])
def test_a_name_of_no_bundled_game_is_still_refused(game: str, kind: str) -> None:
    error = verdict(game)["error"]
    assert isinstance(error, dict) and error["kind"] == kind, error


def test_a_rule_file_of_the_name_as_written_comes_first(tmp_path: Path) -> None:
    bundled = Path(__file__).parent.parent / "rules" / "go-fish-to-the-end.rules"
    (tmp_path / "Go-Fish.rules").write_text(bundled.read_text())
    found = verdict("game: Go-Fish", near=tmp_path)
    assert found["ok"] and found["game"] != CANONICAL["game"], found


def test_every_bundled_name_is_its_own_alias_and_so_is_its_title_case() -> None:
    for name in bundled_rule_names():
        assert bundled_alias(name) == name
        assert bundled_alias(name.replace("-", " ").title()) == name
    assert bundled_alias("rules/go-fish.rules") is None


@pytest.mark.parametrize("players", ["players: Ann, Bob and Cy", "players: Ann Bob & Cy",
                                     "players: Ann, Bob, and Cy"])
def test_players_may_be_listed_with_and(players: str) -> None:
    assert verdict("game: go-fish", players) == CANONICAL


def test_a_player_named_And_is_still_a_player() -> None:
    found = check_text("game: go-fish\nplayers: Ann And Bob\ndeal: seed 1\nAnn asks And for 4\n",
                       "t.txt")
    assert found.state is not None and list(found.to_json()["state"]["hands"]) == [
        "Ann", "And", "Bob"]


def test_teams_may_be_listed_with_and() -> None:
    header = "game: literature\nplayers: Ann Bob Cy Dee\ndeal: seed 3\n"
    plain, said = (check_text(header + teams + "Ann asks Bob for 3S\n", "t.txt").to_json()
                   for teams in ("team 1: Ann Cy\nteam 2: Bob Dee\n",
                                 "team 1: Ann and Cy\nteam 2: Bob & Dee\n"))
    assert said == plain
