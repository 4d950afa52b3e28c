"""The knowledge model against every deal.

On tiny decks (tests/rules_support/hidden/), enumerate every deal of the cards
dealt face down, replay a hidden transcript with each deal given (every card
known, so no solver and no witness is involved), and check that the model
agrees: the game is explained to the end exactly when some deal explains it,
and otherwise the first event no deal explains is the event it reports. This
runs on self-played games and on the same games mutated (an answer flipped, a
card or count or name changed, a line deleted or moved).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from itertools import combinations, permutations
from pathlib import Path

import pytest

from referee.authoring.simulate import play_one
from referee.engine.core import Engine
from referee.errors import RefereeError
from referee.knowledge.budgets import DEFAULT_BUDGETS
from referee.language.cards import Card, parse_card, parse_rank
from referee.language.loader import load_spec
from referee.transcript.check import check_text
from referee.transcript.events import Event
from referee.transcript.notation import read_transcript
from referee.transcript.session import Session
from referee.transcript.setup import Deal, Game, set_up
from referee.values import replace

TINY = Path(__file__).parent / "rules_support" / "hidden"
CASES = [("tiny-go-fish", 2), ("tiny-go-fish", 3), ("tiny-authors", 2), ("tiny-claims", 4),
         ("tiny-diplomat", 3), ("tiny-chinese-fish", 2)]
GAMES = 8  # self-played games per case
MUTANTS = 5  # mutations of each


def every_deal(game: Game) -> Iterator[Deal]:
    """Every way to deal the face-down cards: a hand of the right size for each seat,
    the rest as the stock in every order."""
    count = len(game.table.players)
    sizes = game.spec.hand_sizes(count, game.dealer)
    centre = game.deal.centre
    face_down = [c for c in game.spec.cards if c not in centre]

    def split(cards: list[Card], seat: int) -> Iterator[tuple[list[tuple[Card, ...]],
                                                               tuple[Card, ...]]]:
        if seat == count:
            for stock in permutations(cards):
                yield [], stock
            return
        for hand in combinations(cards, sizes[seat]):
            rest = [c for c in cards if c not in hand]
            for hands, stock in split(rest, seat + 1):
                yield [hand, *hands], stock

    for hands, stock in split(face_down, 0):
        yield Deal(tuple(hands), stock, centre, hidden=True)


def oracle(game: Game, events: Sequence[Event]) -> tuple[int, bool, dict[str, set[str]]]:
    """The most events a deal explains, whether one explains the whole game, and then
    where each card may be at the end (over every deal that explains it)."""
    best, places = 0, {}
    for deal in every_deal(game):
        session = Session(replace(game, deal=deal))
        accepted = 0
        try:
            for event in events:
                session.play(event)
                accepted += 1
            session.finish()
        except RefereeError:
            best = max(best, accepted)
            continue
        best = len(events)
        for card, found in session.where_cards().items():
            places.setdefault(card, set()).update(found)
    return best, bool(places), places


def mutate(lines: list[str], first_event: int, rng: random.Random, game: Game) -> list[str]:
    """One change a careless or lying scorer might make to an event line."""
    lines = list(lines)
    index = rng.randrange(first_event, len(lines))
    how = rng.randrange(4)
    if how == 0 and len(lines) - first_event > 1:
        del lines[index]
        return lines
    if how == 1 and index + 1 < len(lines):
        lines[index], lines[index + 1] = lines[index + 1], lines[index]
        return lines
    words = lines[index].split()
    names = list(game.table.players)
    cards = list(game.spec.cards)
    ranks = list(game.spec.ranks)
    if words[1:] == ["says", "no"]:
        words[1:] = ["says", "yes"] if rng.random() < 0.5 else ["gives", "1"]
    elif words[1:2] == ["gives"] or words[1:] == ["says", "yes"]:
        words[1:] = ["says", "no"]
    else:
        position = rng.randrange(len(words))
        word = words[position].rstrip(",:?")
        if parse_card(word) is not None:
            words[position] = rng.choice(cards)
        elif word.isdigit():
            words[position] = str(rng.randrange(4))
        elif parse_rank(word) is not None:
            words[position] = rng.choice(ranks)
        elif word in names:
            words[position] = rng.choice(names)
        elif words[1:2] == ["draws"]:
            words.append(rng.choice(cards))
    lines[index] = " ".join(words)
    return lines


def hidden_games(name: str, players: int) -> Iterator[tuple[str, list[str], int]]:
    """Self-played hidden transcripts of a tiny game, then mutations of each."""
    engine = Engine(load_spec(TINY / f"{name}.rules"))
    rng = random.Random(f"{name}-{players}")
    for number in range(GAMES):
        lines = list(play_one(engine, players, rng.randrange(2**32), transcript=True,
                              hidden=True).lines)
        first_event = next(i for i, line in enumerate(lines) if ":" not in line)
        yield f"game {number}", lines, first_event
        for mutant in range(MUTANTS):
            yield f"game {number} mutant {mutant}", mutate(lines, first_event, rng,
                                                           _game(lines)), first_event


def _game(lines: list[str]) -> Game:
    transcript = read_transcript("\n".join(lines), "tiny.txt")
    return set_up(transcript.headers, transcript.headers[0].span, TINY)


@pytest.mark.parametrize("search", ["witness", "solver only", "cp-sat only"])
@pytest.mark.parametrize(("name", "players"), CASES)
def test_the_model_finds_the_first_event_no_deal_explains(
        name: str, players: int, search: str) -> None:
    budgets = DEFAULT_BUDGETS
    if search != "witness":
        budgets = replace(budgets, repair_steps=0)  # every broken witness goes to a solver
    if search == "cp-sat only":
        budgets = replace(budgets, conflicts=0)  # Minicard gives up at once
    for label, lines, _ in hidden_games(name, players):
        text = "\n".join(lines)
        transcript = read_transcript(text, "tiny.txt")
        verdict = check_text(text, "tiny.txt", TINY, knowledge=True, budgets=budgets)
        if transcript.error is not None or not verdict.state:
            continue  # unreadable or a broken header: nothing for the cards to decide
        events, explained, places = oracle(_game(lines), transcript.events)
        assert (verdict.events, verdict.ok) == (events, explained), (
            f"{name} {label}:\n{text}\n{verdict.report()}")
        if explained:
            assert verdict.knowledge is not None
            assert {card: set(found) for card, found in verdict.knowledge.items()} == places, (
                f"{name} {label}:\n{text}")
