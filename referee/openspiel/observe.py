"""What one seat of an OpenSpiel game may know, as a string and as a tensor.

The strings hold what the API's ``view`` holds and nothing else: the seat's own hand,
every hand's size, the sets laid, the scores, whose move it is, and each move as the
table saw it (``Engine.as_seen``: a rank's cards given by their count, a draw's card
only when the rules show it), with the seat's own moves and the cards it received in
full. The information state is the whole hand's story from the seat's chair (perfect
recall); the observation is the view now with the last move.

The observation tensor is the view now: the seat's own hand, every hand's size and
each set's side. The information-state tensor adds what the seat remembers, in a size
fixed by the rule file and the table: the hand it was dealt, and how often each
player asked each other player for each rank, card or question topic, and how often
such an ask was answered no and yes (asks and their answers are public: every seat
saw them). It is a summary, not the story: the order of the asks is not in it (the
information-state string has it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from referee.engine.moves import Answer, Ask, Give, Question
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


def story(state: RefereeState, seat: int) -> str:
    """Every move so far as ``seat`` saw it, a line each: the part written before is
    kept by the state, and only the moves since are added."""
    p = state.p
    counted, text = p.story[seat]
    if counted < len(p.seen):
        text += "".join(f"{line}\n" for each in p.seen[counted:] for line in each[seat])
        p.story[seat] = (len(p.seen), text)
    return text


def information_state(state: RefereeState, seat: int) -> str:
    """The hand's story from ``seat``'s chair (kept by the state until it changes)."""
    p = state.p
    found = p.infostates.get(seat)
    if found is not None:
        return found
    if p.state is None:
        found = f"{p.game.names[seat]}: dealing, {len(p.deck)} cards dealt"
    else:
        dealt = " ".join(p.game.engine.lookups.in_deck_order(p.dealt[0][seat]))
        found = f"dealt {dealt}\n{story(state, seat)}{view_line(state, seat)}"
    p.infostates[seat] = found
    return found


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


def item_count(game: RefereeGame) -> int:
    """The things one may ask for: ranks, cards and question topics."""
    vocab = game.vocabulary
    return len(vocab.ranks) + len(vocab.cards) + len(vocab.topics)


def info_tensor_size(game: RefereeGame) -> int:
    """The observation's tensor, then the hand dealt (a bit per card), then for each
    asker, player asked, item and answer (no, yes) how many such asks there were."""
    players = len(game.names)
    return tensor_size(game) + len(game.spec.cards) + players * players * item_count(game) * 2


def encode_recall(state: RefereeState, seat: int) -> np.ndarray[Any, Any]:
    """The seat's information-state tensor (see :func:`info_tensor_size`)."""
    game = state.referee_game
    out = np.zeros(info_tensor_size(game), dtype=np.float32)
    base = tensor_size(game)
    out[:base] = encode(state, seat)
    if state.p.state is None:
        return out
    cards = game.spec.cards
    dealt = set(state.p.dealt[0][seat])
    for index, card in enumerate(cards):
        if card in dealt:
            out[base + index] = 1.0
    base += len(cards)
    vocab, players, items = game.vocabulary, len(game.names), item_count(game)
    moves = state.p.moves
    for number, move in enumerate(moves):
        if isinstance(move, Ask | Question):
            item = (vocab.ask_item(move) if isinstance(move, Ask) else
                    len(vocab.ranks) + len(vocab.cards) + vocab.topic_index(move))
            following = moves[number + 1] if number + 1 < len(moves) else None
            if following is None and state.p.state.asking is not None:
                continue  # not answered yet
            answer = _answered_yes(move, following)
            cell = ((move.player * players + move.target) * items + item) * 2 + answer
            out[base + cell] += 1.0
    return out


def _answered_yes(ask: Ask | Question, following: object) -> int:
    """1 when the ask was answered with cards, or the question with yes; else 0."""
    if isinstance(following, Give) and following.player == ask.target:
        return 1
    return int(isinstance(following, Answer) and following.yes)


def encode(state: RefereeState, seat: int) -> np.ndarray[Any, Any]:
    """The seat's observation tensor (see :func:`tensor_size`)."""
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
        size = info_tensor_size(game) if perfect_recall else tensor_size(game)
        self.tensor = np.zeros(size, dtype=np.float32)
        self.dict = {"view": self.tensor}

    def set_from(self, state: RefereeState, player: int) -> None:
        """Fill the tensor for ``player``."""
        self.tensor[:] = (encode_recall(state, player) if self.perfect_recall
                          else encode(state, player))

    def string_from(self, state: RefereeState, player: int) -> str:
        """The information state or the observation of ``player``."""
        return (information_state(state, player) if self.perfect_recall
                else observation(state, player))
