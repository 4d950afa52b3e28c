"""The hands of one game or match: each dealt (its state, and a knowledge model for a
hidden deal), the match points banked, and the checks on a ``hand N`` line."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from referee.engine.facts import Fact, stock_place
from referee.errors import Kind, RefereeError
from referee.knowledge.budgets import DEFAULT_BUDGETS, Budgets
from referee.values import frozen

if TYPE_CHECKING:  # the knowledge model (and its solvers) is loaded for hidden deals only
    from referee.engine.core import Engine
    from referee.engine.state import GameState
    from referee.knowledge.model import Given, Knowledge
    from referee.transcript.events import Event
    from referee.transcript.setup import Deal, Game


@frozen
class Dealt:
    """How a hand was dealt, and the index in the record of its first move: enough to
    deal it again and replay its knowledge model."""

    deal: Deal
    dealer: int
    start: int


def deal_hand(game: Game, deal: Deal, dealer: int, budgets: Budgets = DEFAULT_BUDGETS
              ) -> tuple[GameState, Knowledge | None]:
    """The state a hand starts in, and its knowledge model when cards are unseen."""
    state = game.engine.start(game.table.players, dealer, deal.hands, deal.stock,
                              game.teams, deal.centre, hidden=deal.hidden)
    if not state.unplaced:
        return state, None
    face_down = [c for c in game.spec.cards if c not in deal.centre]
    sizes = [state.hand_size(seat) for seat in range(len(state.players))]
    from referee.knowledge.model import Knowledge

    return state, Knowledge(face_down, sizes, len(deal.stock), given_facts(game, deal),
                            budgets)


def given_facts(game: Game, deal: Deal) -> list[Given]:
    """What the header of a hidden deal showed: the hands and stock typed."""
    from referee.knowledge.model import Given

    given = []
    for seat, line in deal.lines:
        if seat < 0:
            for position, card in enumerate(deal.stock):
                if card is not None:
                    given.append(Given(line, _shown(stock_place(position), (card,),
                                                    f"the stock was given with {card}")))
            continue
        hand = deal.hands[seat]
        assert hand is not None
        who = game.table.players[seat]
        given.append(Given(line, _shown(seat, hand, f"{who}'s hand was given as "
                                        f"{' '.join(hand)}")))
    return given


def _shown(place: int, cards: tuple[Any, ...], reason: str) -> Fact:
    def never(state: GameState) -> RefereeError:
        raise AssertionError("a header fact is true of the deal it describes")
    return Fact(place, frozenset(cards), len(cards), len(cards), reason, never)


def match_totals(engine: Engine, state: GameState, banked: list[int],
                 by_hands: bool) -> list[int]:
    """Match points so far, this hand's included: its points, or (a match counting
    hands won, ``by_hands``) a point for each side that won it once it is over."""
    result = engine.outcome(state)
    scores = result.scores
    if by_hands:
        scores = tuple(int(side in result.winners) for side in range(len(scores)))
    return [banked + score for banked, score in zip(banked, scores, strict=True)]


def refuse_new_hand(game: Game, hand: int, hand_over: bool, match_over: bool,
                    event: Event) -> None:
    """Refuse a ``hand N`` line that cannot come now (``hand`` is being played)."""
    if game.target is None:
        raise RefereeError(Kind.ILLEGAL, "this transcript is one hand: a match needs "
                           "'target: N' in the header", event.span)
    if match_over:
        raise RefereeError(Kind.OVER, "the match is over", event.span)
    if not hand_over:
        raise RefereeError(Kind.ILLEGAL, f"hand {hand} is not over yet", event.span)
    if event.count != hand + 1:
        raise RefereeError(Kind.ILLEGAL, f"the next hand is hand {hand + 1}, "
                           f"not {event.count}", event.span)
