"""Unit tests of the engine on a twelve-card game, and of the compiler's layering."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from referee.engine.core import Engine
from referee.engine.moves import Ask, Draw, Give, LayDown, Refuse
from referee.engine.state import Phase
from referee.errors import Kind
from referee.language.cards import Card
from referee.language.loader import load_spec
from referee.language.rulefiles import find_rule_file
from referee.language.spec import FirstSeat, Handover, PassTo, TieRule

TINY = Path(__file__).parent / "rules_support" / "tiny.rules"
NAMES = ("Ann", "Bob", "Cy")


def cards(text: str) -> list[Card]:
    return [Card(c) for c in text.split()]


def tiny_game(options: dict[str, str] | None = None) -> tuple[Engine, object]:
    engine = Engine(load_spec(TINY, options))
    hands = [cards("AS AH 2S 3S"), cards("AD 2H 2D 3H"), cards("AC 2C 3D 3C")]
    return engine, engine.start(NAMES, 2, hands, [])


def test_first_player_is_left_of_the_dealer_and_may_ask_for_cards_of_held_ranks() -> None:
    engine, state = tiny_game()
    assert engine.current_player(state) == 0
    asks = engine.legal_moves(state)
    assert Ask(0, 1, "A", "AD") in asks
    assert not any(isinstance(m, Ask) and m.card in ("AS", "2D") and m.rank != "2" for m in asks)
    assert all(m.card not in ("AS", "AH", "2S", "3S") for m in asks if isinstance(m, Ask))
    assert len(asks) == 2 * 8  # two targets; AD AC, 2H 2D 2C, 3H 3D 3C


def test_violations_say_what_rule_broke() -> None:
    engine, state = tiny_game()
    assert engine.violation(state, Ask(1, 0, "A", "AS")).kind is Kind.TURN
    assert "cannot ask Ann" in engine.violation(state, Ask(0, 0, "A", "AD")).message
    held = engine.violation(state, Ask(0, 1, "A", "AH"))
    assert held.kind is Kind.ILLEGAL and "holds AH already" in held.message
    assert engine.violation(state, Ask(0, 1, "A")).kind is Kind.ILLEGAL
    assert engine.violation(state, Refuse(1)).kind is Kind.TURN
    assert engine.violation(state, Draw(0)).kind is Kind.ILLEGAL


def test_a_yes_moves_the_card_and_lets_the_asker_go_on() -> None:
    engine, state = tiny_game()
    engine.apply(state, Ask(0, 1, "A", "AD"))
    assert state.phase is Phase.ANSWER and engine.current_player(state) == 1
    assert engine.legal_moves(state) == [Give(1, ("AD",))]
    refusal = engine.violation(state, Refuse(1))
    assert refusal.kind is Kind.CONTRADICTION and "holds AD" in refusal.message
    assert engine.violation(state, Give(1, ("2H",))).kind is Kind.CONTRADICTION
    engine.apply(state, Give(1, ("AD",)))
    assert "AD" in state.hands[0] and "AD" not in state.hands[1]
    assert engine.current_player(state) == 0


def test_completing_a_book_lays_it_at_once() -> None:
    engine, state = tiny_game()
    for card, owner in (("AD", 1), ("AC", 2)):
        engine.apply(state, Ask(0, owner, "A", card))
        engine.apply(state, Give(owner, (card,)))
    assert state.phase is Phase.LAY
    assert engine.legal_moves(state) == [LayDown(0, "A")]
    assert engine.violation(state, Ask(0, 1, "2", "2H")).kind is Kind.TURN
    assert engine.violation(state, LayDown(0, "2")).kind is Kind.CONTRADICTION
    engine.apply(state, LayDown(0, "A"))
    assert state.laid[0] == ["A"]
    assert not any(c.startswith("A") for c in state.hands[0])
    assert engine.outcome(state).scores == (1, 0, 0)
    assert state.phase is Phase.ASK and engine.current_player(state) == 0


def test_a_no_passes_the_turn_clockwise() -> None:
    engine, state = tiny_game()
    engine.apply(state, Ask(0, 2, "2", "2H"))
    assert engine.legal_moves(state) == [Refuse(2)]
    engine.apply(state, Refuse(2))
    assert engine.current_player(state) == 1


def test_the_game_ends_when_every_set_is_laid_and_ties_follow_the_rules() -> None:
    engine = Engine(load_spec(TINY))
    hands = [cards("AS AH AD AC"), cards("2S 2H 2D 2C"), cards("3S 3H 3D 3C")]
    state = engine.start(NAMES, 2, hands, [])
    while (move := engine.forced_move(state)) is not None:
        assert isinstance(move, LayDown)
        engine.apply(state, move)
    assert state.over and engine.current_player(state) is None
    result = engine.outcome(state)
    assert result.scores == (1, 1, 1)
    assert engine.spec.ties is TieRule.STAND and result.winners == (0, 1, 2)


def test_options_switch_statements_on() -> None:
    plain = load_spec(TINY)
    generous = load_spec(TINY, {"generous": "yes", "first": "2"})
    assert plain.ask.handover is Handover.THE_CARD
    assert generous.ask.handover is Handover.ALL_OF_RANK
    assert plain.first_seat is FirstSeat.LEFT_OF_DEALER
    assert generous.first_seat is FirstSeat.DEALER
    assert generous.options == {"generous": "yes", "first": "2"}


@pytest.mark.parametrize(("options", "kind"), [({"stingy": "yes"}, Kind.UNKNOWN),
                                               ({"generous": "maybe"}, Kind.HEADER),
                                               ({"first": "two"}, Kind.HEADER)])
def test_bad_option_values_are_refused(options: dict[str, str], kind: Kind) -> None:
    with pytest.raises(Exception) as caught:
        load_spec(TINY, options)
    assert getattr(caught.value, "kind", None) is kind


def test_a_variant_replaces_only_what_it_says() -> None:
    base = load_spec(find_rule_file("authors"))
    variant = load_spec(find_rule_file("authors-turn-to-asked"))
    assert base.on_refused.then.pass_to is PassTo.NEXT
    assert variant.on_refused.then.pass_to is PassTo.ASKED
    assert (variant.ask, variant.sets, variant.ties) == (base.ask, base.sets, base.ties)


def test_deal_all_gives_the_extra_cards_from_the_dealers_left() -> None:
    spec = load_spec(find_rule_file("authors"))
    assert spec.hand_sizes(3, 0) == [17, 18, 17]
    assert spec.hand_sizes(5, 4) == [11, 11, 10, 10, 10]


def test_a_seeded_deal_is_a_repeatable_deal_of_the_whole_deck() -> None:
    engine = Engine(load_spec(find_rule_file("go-fish")))
    hands, stock = engine.shuffled_deal(4, 3, 42)
    assert (hands, stock) == engine.shuffled_deal(4, 3, 42)
    assert [len(h) for h in hands] == [5, 5, 5, 5]
    assert sorted([c for hand in hands for c in hand] + stock) == sorted(engine.spec.cards)


@pytest.mark.parametrize("players, dealer", [(3, 0), (5, 4), (4, 1), (6, 2)])
def test_a_seeded_deal_goes_round_one_card_at_a_time_skipping_full_hands(
        players: int, dealer: int) -> None:
    """The remembered order of dealing agrees with dealing card by card."""
    engine = Engine(load_spec(find_rule_file("authors")))
    sizes = engine.spec.hand_sizes(players, dealer)
    deck = list(engine.spec.cards)
    random.Random(7).shuffle(deck)
    expected: list[list[Card]] = [[] for _ in range(players)]
    seat, position = (dealer + 1) % players, 0
    while position < sum(sizes):
        if len(expected[seat]) < sizes[seat]:
            expected[seat].append(deck[position])
            position += 1
        seat = (seat + 1) % players
    assert engine.shuffled_deal(players, dealer, 7) == (expected, deck[position:])


def test_state_copies_are_independent() -> None:
    engine, state = tiny_game()
    before = state.copy()
    engine.apply(state, Ask(0, 1, "A", "AD"))
    engine.apply(state, Give(1, ("AD",)))
    assert "AD" in before.hands[1] and before.phase is Phase.ASK


PAIRS_REFILLED = """name: Pairs refilled
players: 2
deck: ranks A 2 3 4 5 6, suits S H
deal: 4 each
sets: books of 2 cards of one rank
lay down: at once
sets laid from the deal: replaced from the stock, unless the deal's last card completed it
ask: any other player who holds cards, for a rank
asker must hold: a card of the same rank
asked player gives: every card of the rank
if given: ask again
if not given: turn passes to the next player
end: when all sets are laid
"""


@pytest.mark.parametrize("dealt", ["AS AH 2S 2H", "2S 2H AS AH"])
def test_a_set_the_deals_last_card_completed_stays_unreplaced_whichever_is_laid_first(
        dealt: str, tmp_path: Path) -> None:
    rules = tmp_path / "pairs-refilled.rules"
    rules.write_text(PAIRS_REFILLED, encoding="utf-8")
    engine = Engine(load_spec(rules))
    hands = [cards("3S 4S 5S 6S"), cards(dealt)]  # Bob, the dealer, was dealt AH or 2H last
    state = engine.start(("Ann", "Bob"), 1, hands, cards("3H 4H 5H 6H"))
    while state.phase is Phase.LAY:
        engine.apply(state, engine.forced_move(state))
    assert state.hand_size(1) == 2  # the set that was not last is replaced; the other not
