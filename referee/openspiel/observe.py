"""What one seat of an OpenSpiel game may know, as a string and as a tensor.

The strings hold what the API's ``view`` holds and nothing else: the seat's own hand,
every hand's size, the sets laid, the scores, whose move it is, and each move as the
table saw it (``Engine.as_seen``: a rank's cards given by their count, a draw's card
only when the rules show it), with the seat's own moves and the cards it received in
full. The information state is the whole hand's story from the seat's chair (perfect
recall); the observation is the view now with the last move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from referee.engine.state import GameState

if TYPE_CHECKING:
    from referee.openspiel.game import RefereeGame, RefereeState


def seen_by(state: RefereeState, seat: int) -> list[str]:
    """Every move so far as ``seat`` saw it, in notation."""
    return [line for each in state.p.seen for line in each[seat]]


def replay_start(state: RefereeState) -> GameState:
    """The engine's state right after the deal."""
    game = state.referee_game
    hands, stock, centre = state.p.dealt
    return game.engine.start(game.names, game.dealer, hands, stock, centre=centre)


def view_line(state: RefereeState, seat: int) -> str:
    """The seat's view now: own hand, hand sizes, sets, whose move."""
    game = state.referee_game
    now = state.p.state
    assert now is not None
    hand = " ".join(game.engine.lookups.in_deck_order(now.hands[seat]))
    sizes = ", ".join(f"{name} {now.hand_size(s)}" for s, name in enumerate(game.names))
    sets = "; ".join(f"{side}: {' '.join(names)}" for side, names in enumerate(now.laid)
                     if names)
    chosen = " ".join(game.vocabulary.word(t) for t in state.p.prefix)
    return (f"{game.names[seat]} holds {hand or 'nothing'} | hands {sizes} | sets {sets or '-'}"
            f" | centre {' '.join(now.centre) or '-'} | stock {len(now.stock)}"
            f" | turn {game.names[now.turn]} | choosing {chosen or '-'}")


def information_state(state: RefereeState, seat: int) -> str:
    """The hand's story from ``seat``'s chair."""
    if state.p.state is None:
        return f"{state.referee_game.names[seat]}: dealing, {len(state.p.deck)} cards dealt"
    hands, _, _ = state.p.dealt
    dealt = " ".join(state.referee_game.engine.lookups.in_deck_order(hands[seat]))
    return "\n".join([f"dealt {dealt}", *seen_by(state, seat), view_line(state, seat)])


def observation(state: RefereeState, seat: int) -> str:
    """The seat's view now, with the last move as the table saw it."""
    if state.p.state is None:
        return f"{state.referee_game.names[seat]}: dealing, {len(state.p.deck)} cards dealt"
    seen = seen_by(state, seat)
    return "\n".join([*seen[-1:], view_line(state, seat)])


def tensor_size(game: RefereeGame) -> int:
    """Own hand (a bit per card), each hand's size (a fraction of the deck), each set's
    side (one-hot, with a column for a set still in play or void)."""
    return len(game.spec.cards) + len(game.names) + len(game.spec.sets) * (game.sides + 1)


def encode(state: RefereeState, seat: int) -> np.ndarray[Any, Any]:
    """The seat's tensor (see :func:`tensor_size`)."""
    game = state.referee_game
    out = np.zeros(tensor_size(game), dtype=np.float32)
    now = state.p.state
    if now is None:
        return out
    cards = game.spec.cards
    for index, card in enumerate(cards):
        if card in now.hands[seat]:
            out[index] = 1.0
    base = len(cards)
    for s in range(len(game.names)):
        out[base + s] = now.hand_size(s) / len(cards)
    base += len(game.names)
    won = {name: side for side, names in enumerate(now.laid) for name in names}
    for index, chosen in enumerate(game.spec.sets):
        column = won.get(chosen.name, game.sides)
        out[base + index * (game.sides + 1) + column] = 1.0
    return out


class SeatObserver:
    """OpenSpiel's observer: ``tensor`` and ``dict`` set from a state and a seat, and
    the string of either kind."""

    def __init__(self, game: RefereeGame, *, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(tensor_size(game), dtype=np.float32)
        self.dict = {"view": self.tensor}

    def set_from(self, state: RefereeState, player: int) -> None:
        """Fill the tensor for ``player``."""
        self.tensor[:] = encode(state, player)

    def string_from(self, state: RefereeState, player: int) -> str:
        """The information state or the observation of ``player``."""
        return (information_state(state, player) if self.perfect_recall
                else observation(state, player))
