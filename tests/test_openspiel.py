"""Agreement with a peer engine: random games of OpenSpiel's ``go_fish`` (default
parameters), written as transcripts of ``go-fish-openspiel``, check legal and end
with OpenSpiel's books and winners.

OpenSpiel is an optional test extra (``pip install -e '.[openspiel]'``); without it
these tests are skipped.

OpenSpiel deals and draws by rank; the transcript gives each card dealt or drawn
the next unused suit of its rank, lists each player's first hand (the cards a book
made in the deal was replaced with come first in the stock, as the rule file says),
and then the stock in the order OpenSpiel drew it. Only the asks are written: with
every card known, the referee fills in the answers, draws and books itself, so
every one of them is OpenSpiel's own move checked against the rule file.
"""

from __future__ import annotations

import random

import pytest

from referee.authoring.simulate import PLAYER_NAMES
from referee.language.cards import STANDARD_RANKS, STANDARD_SUITS
from referee.transcript.check import check_text

pyspiel = pytest.importorskip("pyspiel")

GAMES = 30  # per table size


def transcript_of(game_seed: int, players: int) -> tuple[list[str], list[int], list[int]]:
    """A random OpenSpiel go_fish game as transcript lines, with its books and winners."""
    game = pyspiel.load_game("go_fish", {"players": players})
    state = game.new_initial_state()
    rng = random.Random(game_seed)
    initial = 7 if players == 2 else 5
    next_suit = dict.fromkeys(range(len(STANDARD_RANKS)), 0)
    hands: list[list[str]] = [[] for _ in range(players)]
    refills: list[str] = []  # cards dealt after a book made in the deal
    draws: list[str] = []  # the cards drawn in play, in order
    asks: list[str] = []
    names = PLAYER_NAMES[:players]
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            rank = rng.choices(outcomes, weights)[0]
            card = STANDARD_RANKS[rank] + STANDARD_SUITS[next_suit[rank]]
            next_suit[rank] += 1
            if str(state).startswith("Deal"):  # the first player short of a full hand
                receiver = next(seat for seat in range(players)
                                if sum(_counts(str(state), seat)) < initial)
                if len(hands[receiver]) < initial:
                    hands[receiver].append(card)
                else:  # a book made in the deal is replaced
                    refills.append(card)
            else:
                draws.append(card)
            state.apply_action(rank)
            continue
        action = rng.choice(state.legal_actions())
        target, rank = divmod(action, len(STANDARD_RANKS))
        asks.append(f"{names[state.current_player()]} asks {names[target]} for "
                    f"{STANDARD_RANKS[rank]}")
        state.apply_action(action)
    dealt = {c for hand in hands for c in hand} | set(refills) | set(draws)
    rest = [r + s for r in STANDARD_RANKS for s in STANDARD_SUITS if r + s not in dealt]
    lines = ["game: go-fish-openspiel", f"players: {' '.join(names)}",
             f"dealer: {names[-1]}", "deal: given",
             *(f"hand {name}: {' '.join(hand)}" for name, hand in zip(names, hands,
                                                                       strict=True)),
             f"stock: {' '.join([*refills, *draws, *rest])}", "", *asks]
    books = _books(state)
    returns = state.returns()
    best = max(returns)
    winners = [seat for seat, value in enumerate(returns) if value == best]
    return lines, books, winners


def _counts(text: str, seat: int) -> list[int]:
    """A player's rank counts from OpenSpiel's state string (``a2c1:0``)."""
    line = text.split("\n")[2 + seat]
    cards = line.split(":")[0]
    return [int(cards[i + 1]) for i in range(0, len(cards), 2)]


def _books(state: object) -> list[int]:
    lines = str(state).split("\n")
    players = len(lines) - 3
    return [int(lines[2 + seat].split(":")[1]) for seat in range(players)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_openspiel_games_check_legal_with_its_books_and_winners(players: int) -> None:
    for game_seed in range(GAMES):
        lines, books, winners = transcript_of(game_seed * 7919 + players, players)
        verdict = check_text("\n".join(lines))
        assert verdict.ok, "\n".join(lines) + "\n" + verdict.report()
        state = verdict.state
        assert state is not None and state["over"]
        names = PLAYER_NAMES[:players]
        assert [state["scores"][name] for name in names] == books
        assert state["winners"] == [names[seat] for seat in winners]
