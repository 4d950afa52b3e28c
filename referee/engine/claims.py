"""Claims: checking that a claim is well formed, and judging it against the cards.

A claim names, for every card of one set, the teammate said to hold it. A
right claim wins the set for the claimer's team; a wrong one is void or goes
to the other team, as the rule file says (GameSpec.claims). When some card of
the set is not known to the referee (a hidden deal), the claim waits in the
``show`` phase until the players holding the set's cards have shown them.
"""

from __future__ import annotations

import itertools

from referee.engine.facts import OUT, Fact
from referee.engine.flow import after_own_play, moved, reveal
from referee.engine.lookups import Lookups
from referee.engine.moves import Claim, Judgement, Show
from referee.engine.state import PHASE_SHOW, GameState
from referee.errors import Kind, RefereeError
from referee.language.cards import Card
from referee.language.spec import FATE_VOID, GameSpec
from referee.words import counted


def claim_violation(spec: GameSpec, state: GameState, claim: Claim) -> RefereeError | None:
    """Why ``claim`` breaks the rules (whatever the cards), or None."""
    name = state.players
    claimer = name[claim.player]
    if spec.claims is None:
        return RefereeError(Kind.ILLEGAL, f"{spec.title} has no claims")
    if state.decided(claim.set_name):
        return RefereeError(Kind.ILLEGAL, f"{claim.set_name} is already "
                            f"{'void' if claim.set_name in state.void else 'won'}")
    team = state.side(claim.player)
    for seat, _ in claim.holders:
        if state.side(seat) != team:
            return RefereeError(Kind.ILLEGAL, f"{name[seat]} is not on {claimer}'s team; "
                                "a claim names teammates only")
    members = spec.set_named(claim.set_name).cards
    named = [card for _, cards in claim.holders for card in cards]
    stray = [card for card in named if card not in members]
    if stray:
        return RefereeError(Kind.ILLEGAL, f"{stray[0]} is not a card of {claim.set_name}")
    twice = next((card for card in named if named.count(card) > 1), None)
    if twice is not None:
        return RefereeError(Kind.ILLEGAL, f"the claim names {twice} twice")
    if len(named) != len(members):
        missing = " ".join(sorted(members - set(named)))
        return RefereeError(Kind.ILLEGAL, f"{claim.set_name} has {counted(len(members), 'card')}; "
                            f"the claim names {len(named)} (missing {missing})")
    return None


def judge(spec: GameSpec, state: GameState, claim: Claim) -> Judgement:
    """Compare a well-formed claim with the cards and decide who wins the set."""
    assert spec.claims is not None
    holder = {card: seat for seat, hand in enumerate(state.hands) for card in hand}
    team = state.side(claim.player)
    wrong = tuple((card, seat, holder[card]) for card, seat in
                  sorted(claim.named_holder().items()) if holder.get(card, seat) != seat)
    if not wrong:
        return Judgement(team, ())
    opposed = any(state.side(holder[card]) != team for card, _, _ in wrong)
    fate = spec.claims.opposed if opposed else spec.claims.misplaced
    other = next(state.side(s) for s in range(len(state.players)) if state.side(s) != team)
    return Judgement(None if fate is FATE_VOID else other, wrong)


def apply_claim(lk: Lookups, state: GameState, claim: Claim) -> None:
    """Judge the claim now (every card known), or, at a hidden table, once the players
    holding the set's cards have shown them all."""
    state.showing = claim
    state.revealed = {}
    if state.hidden and waiting_for(lk, state):
        state.phase = PHASE_SHOW
    else:
        _resolve(lk, state, claim)


def waiting_for(lk: Lookups, state: GameState) -> list[Card]:
    """The cards of the set claimed that nobody has shown yet."""
    assert state.showing is not None
    members = lk.set_cards[state.showing.set_name]
    return lk.in_deck_order(members.difference(state.revealed, state.centre))


def _resolve(lk: Lookups, state: GameState, claim: Claim) -> None:
    judgement = judge(lk.spec, state, claim)
    cards = lk.set_cards[claim.set_name]
    shown = state.revealed  # at a hidden table, every card was shown to judge the claim
    state.revealed = {card: seat for seat, hand in enumerate(state.hands)
                      for card in hand & cards if card not in shown}
    for seat, hand in enumerate(state.hands):
        if hand & cards:
            moved(state, cards, seat, OUT)
        hand.difference_update(cards)
    state.judged = (claim, judgement)
    state.showing = None
    state.finish(claim.set_name, judgement.winner)
    after_own_play(lk, state, claim.player)


def show_violation(lk: Lookups, state: GameState, show: Show) -> RefereeError | None:
    """Why ``show`` breaks the rules whatever the cards, or None: cards are shown only
    while a claim waits for them, or right after a claim the referee judged from the
    cards it knows (an open deal), each card once."""
    if state.showing is None and not state.revealed:
        return RefereeError(Kind.TURN, "no claim waits for its cards to be shown: cards "
                            "are shown only after a claim")
    twice = next((c for c in show.cards if show.cards.count(c) > 1), None)
    if twice is not None:
        return RefereeError(Kind.ILLEGAL, f"{twice} is shown twice")
    claimed = (state.showing.set_name if state.showing is not None
               else lk.set_name[next(iter(state.revealed))])
    stray = next((c for c in show.cards if c not in lk.set_cards[claimed]), None)
    if stray is not None:
        return RefereeError(Kind.ILLEGAL, f"{stray} is not a card of {claimed}, the set "
                            "claimed")
    if state.showing is not None:
        again = next((c for c in show.cards if c in state.revealed), None)
    else:  # the cards of a claim already judged, not shown yet
        again = next((c for c in show.cards if c not in state.revealed), None)
    if again is not None:
        return RefereeError(Kind.ILLEGAL, f"{again} has been shown already")
    if state.showing is not None:
        return None
    wrong = next((c for c in show.cards if state.revealed[c] != show.player), None)
    if wrong is not None:
        who = state.players[show.player]
        return RefereeError(Kind.CONTRADICTION, f"{wrong} was with "
                            f"{state.players[state.revealed[wrong]]}, not {who}")
    return None


def show_facts(lk: Lookups, state: GameState, show: Show) -> list[Fact]:
    """Showing cards says they are in the player's hand (unless they were just claimed)."""
    if state.showing is None and state.revealed and all(c in state.revealed
                                                        for c in show.cards):
        return []
    who = state.players[show.player]
    cards = frozenset(show.cards)
    seat = show.player
    return [Fact(seat, cards, len(cards), len(cards), f"{who} showed {lk.listed(cards)}",
                 lambda state: RefereeError(Kind.CONTRADICTION, f"{who} does not hold "
                                            f"{lk.listed(cards - state.hands[seat])}"))]


def apply_show(lk: Lookups, state: GameState, show: Show) -> None:
    """The cards shown are known to be in the player's hand; a claim waiting for them
    is judged once its last card is shown."""
    for card in show.cards:
        reveal(state, show.player, card)
    claim = state.showing
    if claim is None:  # the cards of a claim already judged: each is shown once
        for card in show.cards:
            del state.revealed[card]
        return
    state.revealed.update(dict.fromkeys(show.cards, show.player))
    if not waiting_for(lk, state):
        _resolve(lk, state, claim)


def every_claim(lk: Lookups, state: GameState) -> list[Claim]:
    """Every claim the player in turn may make: each open set, with each card placed
    with each teammate."""
    if lk.spec.claims is None:
        return []
    seat = state.turn
    team = [s for s in range(len(state.players)) if state.side(s) == state.side(seat)]
    found: list[Claim] = []
    for chosen in lk.spec.sets:
        if state.decided(chosen.name):
            continue
        cards = lk.in_deck_order(chosen.cards)
        for places in itertools.product(team, repeat=len(cards)):
            holders = tuple((mate, tuple(c for c, p in zip(cards, places, strict=True)
                                         if p == mate)) for mate in team if mate in places)
            found.append(Claim(seat, chosen.name, holders))
    return found

