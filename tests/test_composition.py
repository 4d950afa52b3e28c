"""Every statement works with every other, or is refused at its line.

Random rule files are written from the statements of the rules language (each
heading with one of its phrases, some left out). Every file that compiles must
self-play to its end or to a reported move limit; its transcript must check legal
with the same scores (written in the open, and written as a hidden table sees
it); and every move self-play chooses must be one that ``legal_moves`` offers and
``is_legal`` accepts. A file that does not compile must say where it is wrong.
Rule files that once broke one of these promises are kept in
tests/rules_support/composition/ and run on every test run, with seeds 0 to 9 and
those a ``# seeds:`` line names.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.authoring.selfplay import random_move
from referee.authoring.simulate import PLAYER_NAMES, play_one
from referee.engine.core import Engine
from referee.engine.state import Phase
from referee.errors import Kind, RefereeError
from referee.language.loader import load_spec
from referee.language.spec import GameSpec
from referee.transcript.check import check_text

KEPT = Path(__file__).parent / "rules_support" / "composition"
MOVE_LIMIT = 600
CHOICES: dict[str, list[str]] = {
    "players": ["2 to 4", "3 to 5", "2", "4", "4 or 6", "2 or more"],
    "teams": ["2, seated alternately", "3, seated alternately"],
    "deck": ["standard 52 cards", "ranks A 2 3 4, suits S H D C", "ranks 2 3 4 5 6, suits S H",
             "standard 52 cards without twos", "ranks 2 3 4, suits S H D C with jokers RJ BJ"],
    "deal": ["all cards", "all cards evenly, the rest face up to the centre", "3 each",
             "5 each with 2 players, 3 each with 3 to 16 players",
             "4 each, then 2 face up to the centre", "2 each"],
    "sets": ["books of 4 cards of one rank", "books of 2 cards of one rank",
             "in each suit, low 2 to 4, high 5 to A", "books of 3 cards of one rank"],
    "lay down": ["at once", "in turn, by choice", "in turn, by choice, with cards of the centre"],
    "sets laid from the deal": ["replaced from the stock",
                                "replaced from the stock, unless the deal's last card "
                                "completed it"],
    "ask": ["any other player who holds cards, for a card", "any other player, for a rank",
            "an opponent who holds cards, for a card", "any other player who holds cards, "
            "for a rank"],
    "asker must hold": ["a card of the same rank", "a card of the same set", "nothing"],
    "asker must not hold": ["the card", "nothing"],
    "asked player gives": ["the card", "every card of the rank", "one card of the rank",
                           "the card, face up to the centre"],
    "if given": ["ask again", "turn passes to the next player",
                 "ask again if the set asked for was completed, otherwise turn passes to the "
                 "next player"],
    "if not given": ["turn passes to the next player", "turn passes to the player asked",
                     "draw from the stock, then turn passes to the player asked",
                     "draw from the stock, then ask again if the card drawn is of the rank "
                     "asked for, otherwise turn passes to the next player",
                     "draw from the stock, then ask again if the card drawn is the card asked "
                     "for, otherwise turn passes to the player asked"],
    "a player who cannot ask": ["sits out", "draws from the stock, then turn passes to the "
                                "next player", "draws from the stock and goes on"],
    "a player whose hand empties in turn": [
        "turn passes to the next player who holds cards",
        "the player passes the turn to a teammate who holds cards, or else to an opponent "
        "who holds cards"],
    "claims": ["a whole set in turn, naming the teammate who holds each card"],
    "if claimed cards are misplaced": ["the set is void", "the other team wins the set"],
    "questions": ["any card of a rank, a suit or a colour", "any card of a suit"],
    "after a question": ["turn passes to the next player", "turn passes to the player asked"],
    "centre": ["refilled to 2 from the stock before each turn"],
    "play": ["one card from the hand, capturing groups of centre cards that sum to its value, "
             "otherwise to the centre"],
    "after a play": ["draw from the stock"],
    "card values": ["A 1, 2 2, 3 3, 4 4, 5 5, 6 6, 7 7, 8 8, 9 9, 10 10, J 11, Q 12, K 13"],
    "card points": ["A 3, 2 1, 3 1, 4 1, 5 1, 6 1, 7 1, 8 1, 9 1, 10 1, J 2, Q 2, K 2"],
    "first player": ["left of the dealer", "right of the dealer", "the dealer"],
    "end": ["when all sets are laid", "when a player has no cards, or when the stock is empty",
            "when the stock and every hand are empty", "when all sets are won or void"],
    "score": ["1 point per set", "2 points per set of aces, 1 point per set",
              "2 points per high set, 1 point per set"],
    "ties": ["all tied players win", "the first to lay down a set wins",
             "the first in turn order from the dealer's left wins"],
    "match": ["first to 3 points", "first to 2 hands won"],
}


DECKS = {  # a deck; the sets that fit it; its ranks, for value tables
    "standard 52 cards": (["books of 4 cards of one rank", "books of 2 cards of one rank",
                           "in each suit, low 2 to 7, high 8 to A"],
                          "2 3 4 5 6 7 8 9 10 J Q K A"),
    "ranks A 2 3 4, suits S H D C": (["books of 4 cards of one rank",
                                      "books of 2 cards of one rank",
                                      "in each suit, low A to 2, high 3 to 4"], "A 2 3 4"),
    "ranks 2 3 4 5 6, suits S H": (["books of 2 cards of one rank",
                                    "in each suit, low 2 to 3, high 4 to 6"], "2 3 4 5 6"),
}


def table(ranks: str, first: int) -> str:
    """A value for every rank: ``A 1, 2 2, ...``."""
    return ", ".join(f"{rank} {first + index}" for index, rank in enumerate(ranks.split()))


@st.composite
def rule_files(draw: st.DrawFn) -> str:
    """A rule file built around a game that asks, or plays, or both, each statement
    with one of its phrases; now and then with one statement more, taken at random."""
    pick = lambda heading: draw(st.sampled_from(CHOICES[heading]))  # noqa: E731
    lines = ["name: Composed", f"players: {pick('players')}"]
    teams = draw(st.booleans()) and draw(st.booleans())
    if teams:
        lines[-1] = "players: 4"
        lines.append("teams: 2, seated alternately")
    deck = draw(st.sampled_from(sorted(DECKS)))
    lines.append(f"deck: {deck}")
    asks, plays = draw(st.sampled_from([(True, False), (True, False), (False, True),
                                        (True, True)]))
    lines.append(f"deal: {pick('deal')}")
    if asks or draw(st.booleans()):
        lines.append(f"sets: {draw(st.sampled_from(DECKS[deck][0]))}")
        lines.append(f"lay down: {pick('lay down')}")
        if draw(st.booleans()):
            lines.append(f"sets laid from the deal: {pick('sets laid from the deal')}")
    if asks:
        for_card = draw(st.booleans())
        whom = "an opponent who holds cards" if teams and draw(st.booleans()) else draw(
            st.sampled_from(["any other player who holds cards", "any other player"]))
        lines.append(f"ask: {whom}, for {'a card' if for_card else 'a rank'}")
        lines.append(f"asker must hold: {pick('asker must hold')}")
        if for_card:
            lines.append(f"asker must not hold: {pick('asker must not hold')}")
            gives = draw(st.sampled_from(["the card", "the card, face up to the centre"]))
        else:
            gives = draw(st.sampled_from(["every card of the rank", "one card of the rank"]))
        lines.append(f"asked player gives: {gives}")
        lines.append(f"if given: {pick('if given')}")
        lines.append(f"if not given: {pick('if not given')}")
        lines.append(f"a player who cannot ask: {pick('a player who cannot ask')}")
        if draw(st.booleans()):
            lines.append(f"questions: {pick('questions')}")
            lines.append(f"after a question: {pick('after a question')}")
    if plays:
        lines += [f"play: {pick('play')}", f"card values: {table(DECKS[deck][1], 1)}"]
        if draw(st.booleans()):
            lines.append(f"after a play: {pick('after a play')}")
        if draw(st.booleans()):
            lines.append(f"centre: {pick('centre')}")
        if draw(st.booleans()):
            lines.append(f"card points: {table(DECKS[deck][1], 0)}")
    if teams and draw(st.booleans()):
        lines += [f"claims: {pick('claims')}",
                  f"if claimed cards are misplaced: {pick('if claimed cards are misplaced')}",
                  f"a player whose hand empties in turn: "
                  f"{pick('a player whose hand empties in turn')}"]
    for heading in ("first player", "end", "score", "ties", "match"):
        if heading == "end" or draw(st.booleans()):
            lines.append(f"{heading}: {pick(heading)}")
    extra = random.Random(draw(st.integers(0, 2**32)))  # unbiased by Hypothesis's choices
    if extra.random() < 0.15:  # one statement more, whatever it may clash with
        heading = extra.choice(sorted(CHOICES))
        lines.append(f"{heading}: {extra.choice(CHOICES[heading])}")
    return "\n".join(lines) + "\n"


def check_composed(text: str, folder: Path, seed: int) -> None:
    """The promises above, for one rule file."""
    path = folder / "composed.rules"
    path.write_text(text, encoding="utf-8")
    try:
        spec = load_spec(path)
    except RefereeError as error:
        assert error.kind is Kind.RULES and error.span is not None, error.report()
        return
    rng = random.Random(seed)
    players = rng.choice(sorted(spec.player_counts)[:4])
    engine = Engine(spec)
    legal_moves_agree(engine, players, seed)
    for hidden in (False, True):
        played = play_one(engine, players, seed, transcript=True, hidden=hidden,
                          max_moves=MOVE_LIMIT)
        verdict = check_text("\n".join(played.lines), "composed.txt", folder)
        assert verdict.ok, f"{text}\n" + "\n".join(played.lines) + "\n" + verdict.report()
        assert verdict.state is not None
        if played.result.over:
            assert verdict.state["over"], verdict.report()
            assert tuple(verdict.state["scores"].values()) == played.result.scores


def legal_moves_agree(engine: Engine, players: int, seed: int) -> None:
    """Every move self-play makes is offered by ``legal_moves`` (where the list is
    small enough to make) and accepted by ``is_legal``."""
    spec: GameSpec = engine.spec
    rng = random.Random(seed)
    hands, rest = engine.shuffled_deal(players, players - 1, seed)
    stock, centre = engine.split_rest(players, rest)
    state = engine.start(PLAYER_NAMES[:players], players - 1, hands, stock, centre=centre)
    for _ in range(MOVE_LIMIT):
        if state.over:
            return
        move = random_move(engine, state, rng)
        if move is None:
            return
        assert engine.is_legal(state, move), (move, engine.violation(state, move))
        if spec.claims is None and state.phase is not Phase.OVER:
            assert move in engine.legal_moves(state), move
        engine.apply(state, move)


@pytest.mark.parametrize("examples", [200, pytest.param(2000, marks=pytest.mark.slow)])
def test_every_composed_rule_file_compiles_or_says_where_and_plays(
        examples: int, tmp_path: Path) -> None:
    @settings(max_examples=examples, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(text=rule_files(), seed=st.integers(0, 2**32))
    def composed(text: str, seed: int) -> None:
        check_composed(text, tmp_path, seed)

    composed()


def kept_seeds(text: str) -> list[int]:
    """The seeds a kept rule file is played with: 0 to 9, and those it names on a
    ``# seeds:`` line (the seeds it once failed with)."""
    named = [int(word) for line in text.splitlines() if line.startswith("# seeds:")
             for word in line.removeprefix("# seeds:").split()]
    return [*range(10), *named]


@pytest.mark.parametrize("path", sorted(KEPT.glob("*.rules")), ids=lambda p: p.stem)
def test_composed_rule_files_that_once_failed(path: Path, tmp_path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    for seed in kept_seeds(text):
        check_composed(text, tmp_path, seed)
