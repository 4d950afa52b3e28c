"""API additions for front ends such as ``referee serve``: a seat's hand entered
privately into a hidden deal (``Game.enter_hand``), legal moves without claims, each
team's players, and the deck and sets of a rule file."""

from __future__ import annotations

from pathlib import Path

import referee

TRANSCRIPTS = Path(__file__).parent / "transcripts"

GO_FISH = ["Ann", "Bob", "Cy"]


def test_an_entered_hand_is_known_to_its_seat_only() -> None:
    game = referee.Game.new("go-fish", GO_FISH)
    result = game.enter_hand("Ann", "2C 3C 4C 5C 6C")
    assert result.accepted, result.message
    assert game.view("Ann").hand == ("2C", "3C", "4C", "5C", "6C")
    assert game.view("Bob").hand == ()
    assert "hand Ann: 2C 3C 4C 5C 6C" in game.transcript().splitlines()
    assert referee.check(game.transcript()).ok


def test_entered_hands_are_checked_at_once() -> None:
    game = referee.Game.new("go-fish", GO_FISH)
    assert game.enter_hand("Ann", ["2C", "3C", "4C", "5C", "6C"]).accepted
    twice = game.enter_hand("Bob", "2C 3H 4H 5H 6H")
    assert (twice.accepted, twice.kind) == (False, "header")
    assert "2C is dealt twice" in twice.message
    short = game.enter_hand("Bob", "2H 3H")
    assert (short.accepted, short.kind) == (False, "header")
    assert "not 2" in short.message
    unknown = game.enter_hand("Bob", "2H 3H 4H 5H ZZ")
    assert not unknown.accepted
    assert "hand Bob" not in game.transcript()


def test_a_hand_entered_late_is_checked_against_the_events_so_far() -> None:
    game = referee.Game.new("go-fish", GO_FISH)
    assert game.play("Ann asks Bob for 2").accepted
    assert game.play("Bob says no").accepted
    refused = game.enter_hand("Bob", "2H 3H 4H 5H 6H")  # but he said he held no 2
    assert (refused.accepted, refused.kind) == (False, "contradiction")
    assert "hand Bob" not in game.transcript()
    assert game.enter_hand("Bob", "3H 4H 5H 6H 7H").accepted
    lines = game.transcript().splitlines()
    assert lines.index("hand Bob: 3H 4H 5H 6H 7H") < lines.index("Ann asks Bob for 2")
    assert game.undo() and game.transcript().splitlines()[-1] == "Ann asks Bob for 2"


def test_a_hand_entered_again_replaces_the_first() -> None:
    game = referee.Game.new("go-fish", GO_FISH)
    assert game.enter_hand("Cy", "2S 3S 4S 5S 6S").accepted
    assert game.enter_hand("Cy", "2S 3S 4S 5S 7S").accepted
    assert [line for line in game.transcript().splitlines() if line.startswith("hand")] == [
        "hand Cy: 2S 3S 4S 5S 7S"]


def test_a_known_deal_takes_no_hand() -> None:
    game = referee.Game.new("go-fish", GO_FISH, deal=referee.Deal.seed(1))
    result = game.enter_hand("Ann", "2C 3C 4C 5C 6C")
    assert (result.accepted, result.kind) == (False, "usage")


def test_every_hand_entered_makes_every_answer_checked() -> None:
    game = referee.Game.new("go-fish", ["Ann", "Bob"])
    ann = "2C 3C 4C 5C 6C 7C 8C"
    bob = "2H 3H 4H 5H 6H 7H 8H"
    assert game.enter_hand("Ann", ann).accepted and game.enter_hand("Bob", bob).accepted
    assert game.legal_moves("Ann")  # asks only for ranks Ann holds
    assert all(move.split()[-1][0] in "2345678" for move in game.legal_moves("Ann"))
    assert game.play("Ann asks Bob for 2").accepted
    assert game.legal_moves("Bob") == ["Bob gives 2H", "Bob gives 1"]
    assert game.play("Bob says no").kind == "contradiction"


def test_a_match_hand_takes_entered_hands_after_its_hand_line() -> None:
    lines = (TRANSCRIPTS / "matches" / "hidden-match.txt").read_text().splitlines()
    second = lines.index("hand 2")
    game = referee.Game.from_transcript("\n".join(lines[:second + 2]) + "\n")
    assert game.enter_hand("Ann", "2C 3C 4C 5C 6C").accepted
    written = game.transcript().splitlines()
    assert written[written.index("hand 2") + 2] == "hand Ann: 2C 3C 4C 5C 6C"
    assert written.count("hand Ann: 2C 3C 4C 5C 6C") == 1
    assert game.view("Ann").hand == ("2C", "3C", "4C", "5C", "6C")
    assert referee.check(game.transcript()).ok


def test_legal_moves_without_claims_and_teams() -> None:
    game = referee.Game.new("literature", ["A", "B", "C", "D", "E", "F"],
                            deal=referee.Deal.seed(3))
    every = game.legal_moves("A")
    asks = game.legal_moves("A", claims=False)
    assert asks == [move for move in every if " claims " not in move]
    assert any(" claims " in move for move in every)
    assert game.teams == {"1": ("A", "C", "E"), "2": ("B", "D", "F")}
    assert referee.Game.new("go-fish", GO_FISH).teams == {}


def test_rules_cards_and_sets() -> None:
    rules = referee.load_rules("literature")
    assert len(rules.cards) == 48 and rules.cards[0] == "3S"
    assert rules.sets["low spades"] == ("3S", "4S", "5S", "6S", "7S", "8S")
    assert sum(len(cards) for cards in rules.sets.values()) == 48


def test_a_hand_is_entered_into_a_game_whose_rule_file_is_near_its_transcript(
        tmp_path: Path) -> None:
    (tmp_path / "mine.rules").write_text((Path(__file__).parent.parent / "rules" /
                                          "go-fish.rules").read_text())
    path = tmp_path / "game.txt"
    game = referee.Game.from_transcript("game: mine.rules\nplayers: Ann Bob Cy\n"
                                        "deal: hidden\n", source=str(path))
    result = game.enter_hand("Ann", "2C 3C 4C 5C 6C")
    assert result.accepted, result.message
