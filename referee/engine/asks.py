"""Asks and their answers: who may ask whom for what, what a yes or a no says of
the hands, and where the cards given go."""

from __future__ import annotations

from collections.abc import Set as AbstractSet

from referee.engine.facts import OUT, UNBOUNDED, Fact, count_range
from referee.engine.flow import continue_after, moved, put, take, targets
from referee.engine.laying import open_laying_of
from referee.engine.lookups import Lookups
from referee.engine.moves import Ask, Give, Move, Refuse
from referee.engine.state import AFTER_GIVE, PHASE_ANSWER, PHASE_DRAW, GameState
from referee.errors import Kind, RefereeError
from referee.language.cards import Card, Rank, rank_plural
from referee.language.spec import (
    ASK_FOR_CARD,
    ASK_FOR_RANK,
    HANDOVER_ONE_OF_RANK,
    HANDOVER_TO_CENTRE,
    HOLDING_SAME_RANK,
    HOLDING_SAME_SET,
    TARGET_OPPONENT,
)


def unlaid(state: GameState, lk: Lookups, cards: frozenset[Card] | list[Card]) -> list[Card]:
    """The cards of ``cards`` whose sets are still in play."""
    out, set_name = state.finished, lk.set_name
    return [c for c in cards if set_name[c] not in out]


def _any_unlaid(state: GameState, lk: Lookups, cards: frozenset[Card]) -> bool:
    """Whether a card of ``cards`` has its set still in play (:func:`unlaid`, without
    listing them)."""
    out, set_name = state.finished, lk.set_name
    for card in cards:  # noqa: SIM110 - a loop, not any(): no generator on every ask
        if set_name[card] not in out:
            return True
    return False


def ask_violation(lk: Lookups, state: GameState, ask: Ask) -> RefereeError | None:
    """Why ``ask`` breaks the rules whatever the cards, or None (turn aside)."""
    spec, name = lk.spec, state.players
    if not lk.has_asks:
        return RefereeError(Kind.ILLEGAL, f"in {spec.title} nobody asks; a turn plays a card")
    asker, target = name[ask.player], name[ask.target]
    if ask.target == ask.player:
        return RefereeError(Kind.ILLEGAL, f"{asker} cannot ask {asker}")
    if (lk.target_rule is TARGET_OPPONENT
            and state.teams[ask.target] == state.teams[ask.player]):
        return RefereeError(Kind.ILLEGAL, f"{target} is on {asker}'s team; "
                            "asks go to opponents only")
    if lk.target_needs_cards and state.hand_size(ask.target) == 0:
        return RefereeError(
            Kind.ILLEGAL, f"{target} holds no cards, so {asker} cannot ask {target}")
    if lk.ask_item is ASK_FOR_CARD and ask.card is None:
        return RefereeError(Kind.ILLEGAL, f"in {spec.title} a player asks for a card "
                            "with its suit, not a rank")
    if lk.ask_item is ASK_FOR_RANK and ask.card is not None:
        return RefereeError(Kind.ILLEGAL, f"in {spec.title} a player asks for a rank, "
                            f"not a card: ask for {ask.rank}")
    if ask.card is not None:
        if ask.card in state.centre:
            return RefereeError(Kind.ILLEGAL, f"{ask.card} lies face up in the centre "
                                "already")
        owner = spec.set_of_card[ask.card]
        if state.decided(owner.name):
            return RefereeError(Kind.ILLEGAL, f"{ask.card} is in the set {owner.name}, "
                                "which is out of play")
    elif not _any_unlaid(state, lk, lk.cards_of_rank.get(ask.rank, frozenset())):
        return RefereeError(Kind.ILLEGAL, f"every {ask.rank} is laid down already")
    return None


def ask_facts(lk: Lookups, state: GameState, ask: Ask) -> list[Fact]:
    """What the asker must (and must not) have held to make ``ask``."""
    asker = state.players[ask.player]
    wanted = ask.card or ask.rank
    facts = []
    card = ask.card
    if card is not None and not lk.may_hold_card:
        facts.append(Fact(ask.player, frozenset((card,)), 0, 0,
                          f"{asker} asked for {card}, so {asker} did not hold it",
                          lambda state: RefereeError(Kind.ILLEGAL, f"{asker} holds {card} "
                                                     "already and so cannot ask for it")))
    if lk.must_hold is HOLDING_SAME_RANK:
        rank = ask.rank
        pool = lk.cards_of_rank[rank] - {card} if card else lk.cards_of_rank[rank]
        facts.append(Fact(ask.player, pool, 1, UNBOUNDED,
                          f"{asker} asked for {wanted}, so {asker} held a {rank}",
                          lambda state: RefereeError(Kind.ILLEGAL, f"{asker} holds no {rank} "
                                                     f"and so cannot ask for {wanted}")))
    elif lk.must_hold is HOLDING_SAME_SET and card is not None:
        set_name = lk.set_name[card]
        facts.append(Fact(ask.player, lk.set_cards[set_name], 1, UNBOUNDED,
                          f"{asker} asked for {card}, so {asker} held a card of {set_name}",
                          lambda state: RefereeError(Kind.ILLEGAL, f"{asker} holds no card of "
                                                     f"the set {set_name} and so cannot ask for "
                                                     f"{wanted}")))
    return facts


def apply_ask(state: GameState, ask: Ask) -> None:
    """The asked player now owes an answer."""
    state.asking, state.questioning = ask, None
    state.completed = []
    state.drawn = None
    state.phase = PHASE_ANSWER


# -- answers ----------------------------------------------------------------------------


def asked_cards(lk: Lookups, ask: Ask) -> frozenset[Card]:
    """The cards an ask is for: the card named, or every card of the rank."""
    return frozenset((ask.card,)) if ask.card is not None else lk.cards_of_rank[ask.rank]


def cards_due(lk: Lookups, state: GameState, ask: Ask) -> tuple[Card, ...]:
    """The cards of the asked hand that the ask is for, as far as they are known (in
    the order of the deck)."""
    hand = state.hands[ask.target]
    if ask.card is not None:
        return (ask.card,) if ask.card in hand else ()
    return tuple([c for c in lk.rank_in_order[ask.rank] if c in hand])


def forced_answer(lk: Lookups, state: GameState) -> Give | Refuse | None:
    """The answer the cards dictate, when the asked hand is known and the table is
    not a hidden one (where every answer is written)."""
    ask = state.asking
    assert ask is not None
    if state.hidden or state.unknown[ask.target]:
        return None
    due = cards_due(lk, state, ask)
    if lk.handover is HANDOVER_ONE_OF_RANK:
        due = due[:1]  # the giver's choice: the first in the deck's order
    return Give(ask.target, due) if due else Refuse(ask.target)


def give_violation(lk: Lookups, state: GameState, give: Give) -> RefereeError | None:
    """Why ``give`` cannot answer the ask whatever the cards, or None."""
    ask = state.asking
    assert ask is not None
    who = state.players[give.player]
    if ask.card is not None:
        if give.count is not None and give.count != 1:
            return RefereeError(Kind.CONTRADICTION, f"{who} was asked for one card, "
                                f"{ask.card}, so gives 1, not {give.count}")
        if give.cards and give.cards != (ask.card,):
            if count_range(state, ask.target, frozenset((ask.card,)))[1] == 0:
                return RefereeError(Kind.CONTRADICTION, f"{who} holds no {ask.card}, so "
                                    f"{who} has nothing to give")
            return RefereeError(Kind.CONTRADICTION, f"{who} must give {ask.card}, not "
                                f"{' '.join(give.cards)}")
        return None
    stray = [c for c in give.cards if lk.rank[c] != ask.rank]
    if stray:
        return RefereeError(Kind.CONTRADICTION, f"{who} was asked for {rank_plural(ask.rank)}; "
                            f"{stray[0]} is not one")
    if len(set(give.cards)) != len(give.cards):
        return RefereeError(Kind.ILLEGAL, "a card is given twice")
    if lk.handover is HANDOVER_ONE_OF_RANK:
        if len(give.cards) > 1 or (give.count or 1) != 1:
            return RefereeError(Kind.ILLEGAL, f"{who} gives one card of the rank asked for")
        if give.count and state.hidden:
            return RefereeError(Kind.ILLEGAL, f"{who} chooses which {ask.rank} to give: name "
                                f"it ('{who} gives {ask.rank}S')")
    if give.count == 0:
        return RefereeError(Kind.ILLEGAL, f"{who} gives no cards: that is 'no'")
    if not give.cards and give.count is None:
        if not state.hidden:  # the referee filled in what the hand holds: nothing
            return RefereeError(Kind.CONTRADICTION, f"{who} holds no {ask.rank}, so {who} "
                                "has nothing to give")
        return RefereeError(Kind.ILLEGAL, f"{who} gives {rank_plural(ask.rank)}: name them or "
                            f"say how many ('{who} gives 2')")
    return None


def answer_facts(lk: Lookups, state: GameState, move: Give | Refuse) -> list[Fact]:
    """What a yes (the cards given) or a no says of the asked hand."""
    ask = state.asking
    assert ask is not None
    who = state.players[move.player]
    wanted = ask.card or ask.rank
    pool = asked_cards(lk, ask)

    def due(state: GameState) -> str:
        return " ".join(cards_due(lk, state, ask))

    if isinstance(move, Refuse):
        return [Fact(move.player, pool, 0, 0,
                     f"{who} said no to an ask for {wanted}, so {who} held no {wanted}",
                     lambda state: RefereeError(Kind.CONTRADICTION, f"{who} holds {due(state)}, "
                                                f"so {who} cannot say no to an ask for "
                                                f"{wanted}"))]
    nothing = f"{who} holds no {wanted}, so {who} has nothing to give"
    if ask.card is not None:
        verb = "laid out" if lk.handover is HANDOVER_TO_CENTRE else "gave"
        return [Fact(move.player, pool, 1, 1, f"{who} {verb} {ask.card}",
                     lambda state: RefereeError(Kind.CONTRADICTION, nothing))]
    if give_count := move.count:
        def wrong_count(state: GameState) -> RefereeError:
            held = due(state)
            if not held:
                return RefereeError(Kind.CONTRADICTION, nothing)
            cards = "such card" if len(held.split()) == 1 else "such cards"
            return RefereeError(Kind.CONTRADICTION, f"{who} holds {len(held.split())} {cards} "
                                f"({held}), not {give_count}")
        given = (f"{give_count} {rank_plural(ask.rank)}" if give_count > 1
                 else f"one {ask.rank}")
        return [Fact(move.player, pool, give_count, give_count, f"{who} gave {given}",
                     wrong_count)]
    named = frozenset(move.cards)

    def wrong_cards(state: GameState) -> RefereeError:
        held = due(state)
        if not held:
            return RefereeError(Kind.CONTRADICTION, nothing)
        return RefereeError(Kind.CONTRADICTION, f"{who} must give {held}, not "
                            f"{' '.join(move.cards)}")

    gave = Fact(move.player, named, len(named), len(named), f"{who} gave {lk.listed(named)}",
                wrong_cards)
    if lk.handover is HANDOVER_ONE_OF_RANK:
        return [gave]
    return [gave, Fact(move.player, pool, len(named), len(named),
                       f"{who} gave every {ask.rank} {who} held", wrong_cards)]


def apply_give(lk: Lookups, state: GameState, give: Give) -> None:
    """The cards go to the asker (or face up to the centre); the asker may lay sets
    down, then goes on as a yes says."""
    ask = state.asking
    assert ask is not None
    source, asker = give.player, ask.player
    to_centre = lk.handover is HANDOVER_TO_CENTRE
    pool = asked_cards(lk, ask)
    if give.count is not None and not give.cards and ask.card is None:
        known = [c for c in pool if c in state.hands[source]]
        for card in known:
            state.hands[source].remove(card)
            state.hands[asker].add(card)
        unseen = give.count - len(known)
        state.unknown[source] -= unseen
        state.unknown[asker] += unseen
        moved(state, pool, source, asker)
    else:
        cards = give.cards or ((ask.card,) if ask.card else ())
        for card in cards:
            take(state, source, card)
            if to_centre:
                state.centre.append(card)
            else:
                put(state, asker, card)
        if state.hidden:
            moved(state, frozenset(cards), source, OUT if to_centre else asker)
    if not to_centre and lk.lay_at_once:
        open_laying_of(lk, state, asker, lk.sets_touched(pool), AFTER_GIVE)
    else:
        continue_after(lk, state, lk.given_then)


def apply_refuse(lk: Lookups, state: GameState, refuse: Refuse) -> None:
    """A no: the asker draws, or the turn goes on as a no says."""
    if lk.refused_draw and state.stock:
        state.phase = PHASE_DRAW
    else:
        continue_after(lk, state, lk.refused_then)


# -- what may be asked ------------------------------------------------------------------


def ask_options(
    lk: Lookups, state: GameState
) -> tuple[list[tuple[Rank, Card | None]], list[int]]:
    """What the player in turn may ask for, and whom, as far as their known cards show:
    every pair is a legal ask."""
    if not lk.has_asks:
        return [], []
    seat = state.turn
    hand = state.hands[seat]
    return askable(lk, state, hand, hand), targets(lk, state, seat)


def askable(lk: Lookups, state: GameState, held: AbstractSet[Card], sure: AbstractSet[Card]
            ) -> list[tuple[Rank, Card | None]]:
    """What a player may ask for who may hold the cards ``held``, of which they surely
    hold ``sure`` (at the referee's own table both are their known hand): the asker
    must hold a card of the rank or set asked for, as the rules say, and may not ask for
    a card they hold unless the rules allow it. Ranks sorted, cards in deck order."""
    if not lk.has_asks:
        return []
    hold = lk.must_hold
    if lk.ask_item is ASK_FOR_RANK and hold is HOLDING_SAME_RANK:
        out, set_name, rank = state.finished, lk.set_name, lk.rank
        if out and not out.isdisjoint(map(set_name.__getitem__, held)):
            return [(r, None) for r in sorted({rank[c] for c in held if set_name[c] not in out})]
        return [(r, None) for r in sorted(set(map(rank.__getitem__, held)))]  # every set open
    if hold is HOLDING_SAME_RANK:
        pool = [c for r in {lk.rank[c] for c in held} for c in lk.cards_of_rank[r]]
    elif hold is HOLDING_SAME_SET:
        pool = [c for name in {lk.set_name[c] for c in held if c in lk.set_name}
                for c in lk.set_cards[name]]
    else:
        pool = list(lk.spec.cards)
    pool = unlaid(state, lk, pool)
    if lk.ask_item is ASK_FOR_RANK:
        return [(rank, None) for rank in sorted({lk.rank[c] for c in pool})]
    items: list[tuple[Rank, Card | None]] = []
    may_hold_card, centre, rank = lk.may_hold_card, state.centre, lk.rank
    for card in lk.in_deck_order(pool):
        if (card in sure and not may_hold_card) or card in centre:
            continue
        if card in held and (hold is HOLDING_SAME_RANK or (
                hold is HOLDING_SAME_SET and not may_hold_card)) and not _holds_another(
                lk, held, card, hold is HOLDING_SAME_RANK):
            continue  # held only if it is the card asked for: no card left to ask with
        items.append((rank[card], card))
    return items


def _holds_another(lk: Lookups, held: AbstractSet[Card], card: Card, same_rank: bool) -> bool:
    """Whether ``held`` has a card other than ``card`` of its rank (or else its set)."""
    family = lk.cards_of_rank[lk.rank[card]] if same_rank else lk.set_cards[lk.set_name[card]]
    return any(c in held for c in family if c != card)


def legal_asks(lk: Lookups, state: GameState) -> list[Move]:
    """Every ask the player in turn may make."""
    items, whom = ask_options(lk, state)
    return [Ask(state.turn, t, rank, card) for rank, card in items for t in whom]

