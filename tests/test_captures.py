"""Unit tests of sum captures, on the values of the chinese-fish rule file."""

from __future__ import annotations

import random
import time

from referee.authoring.selfplay import random_play
from referee.engine.captures import (
    MAX_CAPTURE_CHOICES,
    MAX_GROUPS,
    capture_choices,
    play_violation,
    summing_groups,
)
from referee.engine.moves import Play
from referee.engine.state import GameState
from referee.errors import Kind
from referee.language.cards import STANDARD_RANKS, STANDARD_SUITS, Card, Rank, make_card
from referee.language.loader import load_spec
from referee.language.rulefiles import find_rule_file

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


FORTY = [make_card(r, s) for r in STANDARD_RANKS[:10] for s in STANDARD_SUITS]


def ones(king: int) -> dict[Rank, int]:
    """Every rank worth 1 but the king."""
    return {**dict.fromkeys(STANDARD_RANKS, 1), Rank("K"): king}


def test_a_centre_of_forty_ones_is_not_searched_subset_by_subset() -> None:
    started = time.perf_counter()
    choices = list(capture_choices(ones(13), FORTY, Card("KS")))  # C(40, 13) groups
    groups = summing_groups(ones(13), FORTY, 13)
    assert time.perf_counter() - started < 2
    assert len(groups) == MAX_GROUPS and all(len(g) == 13 for g in groups)
    assert choices[0] == () and 1 < len(choices) <= MAX_CAPTURE_CHOICES


def test_self_play_captures_legally_from_a_centre_of_forty() -> None:
    rng = random.Random(5)
    for king in (1, 2, 13, 20, 40, 41):
        state = table("KS", " ".join(FORTY))
        started = time.perf_counter()
        plays = [random_play(ones(king), state, rng) for _ in range(5)]
        assert time.perf_counter() - started < 2
        for play in plays:
            assert play_violation(ones(king), state, play) is None
        # forty ones cannot make 41; otherwise groups are taken nine times in ten
        assert any(play.groups for play in plays) == (king <= 40)


def test_zero_valued_cards_make_groups_of_their_own() -> None:
    values = {**dict.fromkeys(STANDARD_RANKS, 0), Rank("2"): 2}
    groups = summing_groups(values, cards("3S 4S 2S"), 0)
    assert set(map(frozenset, groups)) == {frozenset({"3S"}), frozenset({"4S"}),
                                           frozenset({"3S", "4S"})}
    state = table("5S", "3S 4S 2S")
    play = random_play(values, state, random.Random(1))
    assert play_violation(values, state, play) is None
