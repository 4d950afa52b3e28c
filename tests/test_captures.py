"""Unit tests of sum captures, on the values of the chinese-fish rule file."""

from __future__ import annotations

from referee.captures import capture_choices, play_violation, summing_groups
from referee.cards import Card
from referee.compile import find_rule_file, load_spec
from referee.errors import Kind
from referee.moves import Play
from referee.state import GameState

RULES = find_rule_file("chinese-fish")
assert RULES is not None
VALUES = load_spec(RULES).card_values


def cards(text: str) -> list[Card]:
    return [Card(c) for c in text.split()]


def table(hand: str, centre: str) -> GameState:
    return GameState(players=("Ann", "Bob"), dealer=1, hands=[set(cards(hand)), set()],
                     unknown=[0, 0], stock=[], laid=[[], []], centre=cards(centre),
                     piles=[[], []])


def test_groups_are_single_cards_or_several_that_sum() -> None:
    groups = summing_groups(VALUES, cards("7C 3H 4D 2S 5S AH"), 7)
    assert set(map(frozenset, groups)) == {
        frozenset({"7C"}), frozenset({"3H", "4D"}), frozenset({"2S", "5S"}),
        frozenset({"AH", "2S", "4D"})}


def test_choices_are_every_set_of_disjoint_groups() -> None:
    choices = list(capture_choices(VALUES, cards("7C 3H 4D 2S 5S"), Card("7S")))
    assert choices[0] == ()
    as_sets = {frozenset(frozenset(g) for g in choice) for choice in choices}
    assert frozenset({frozenset({"7C"}), frozenset({"3H", "4D"}),
                      frozenset({"2S", "5S"})}) in as_sets
    assert len(as_sets) == 2**3  # three disjoint groups, each taken or not


def test_bad_captures_say_what_is_wrong() -> None:
    state = table("7S KD", "7C 3H 4D 2S")
    assert play_violation(VALUES, state, Play(0, Card("7S"), (("3H", "4D"), ("7C",)))) is None
    wrong_sum = play_violation(VALUES, state, Play(0, Card("7S"), (("3H", "2S"),)))
    assert wrong_sum is not None and wrong_sum.kind is Kind.ILLEGAL
    assert "makes 5, not 7" in wrong_sum.message
    overlap = play_violation(VALUES, state, Play(0, Card("7S"), (("3H", "4D"), ("4D", "3H"))))
    assert overlap is not None and "twice" in overlap.message
    absent = play_violation(VALUES, state, Play(0, Card("7S"), (("5S", "2S"),)))
    assert absent is not None and absent.kind is Kind.CONTRADICTION
    not_held = play_violation(VALUES, state, Play(0, Card("QS")))
    assert not_held is not None and "does not hold QS" in not_held.message
