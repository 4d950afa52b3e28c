"""What the public API shows: no ``view(p)`` holds a card of another player's hand
that the table has not seen named, and a public view no hand at all, at every step of
self-played games of every rule file, dealt hidden or given; views and outcomes are
valid against their JSON Schemas."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import referee
from referee.authoring.simulate import play_one
from referee.language.loader import load_spec
from referee.transcript.notation import TranscriptReader
from referee.transcript.setup import engine_for

PACKAGE = Path(referee.__file__).resolve().parent
ROOT = Path(__file__).resolve().parent.parent
RULES = sorted((ROOT / "rules").glob("*.rules"))
DEAL_KEYS = ("deal:", "hand ", "stock:", "centre:", "center:")
VIEW_SCHEMA = json.loads((PACKAGE / "view.schema.json").read_text(encoding="utf-8"))
VIEWS = jsonschema.Draft202012Validator(VIEW_SCHEMA)  # built once: checking a schema is slow
OUTCOME_SCHEMA = json.loads((PACKAGE / "outcome.schema.json").read_text(encoding="utf-8"))
VERDICT_SCHEMA = json.loads((PACKAGE / "verdict.schema.json").read_text(encoding="utf-8"))
WORD = re.compile(r"[0-9A-Za-z]+")


def header_and_events(lines: tuple[str, ...]) -> tuple[str, list[str]]:
    """A transcript's header text, and its events one to a chunk (a new hand of a match
    with its deal lines), as tests/test_api.py reads them."""
    start = TranscriptReader("\n".join(lines) + "\n", "x").events_from - 1
    chunks: list[str] = []
    for line in lines[start:]:
        if not line.strip():
            continue
        if chunks and chunks[-1].startswith("hand ") and line.lower().startswith(DEAL_KEYS):
            chunks[-1] += "\n" + line
        else:
            chunks.append(line)
    return "\n".join(lines[:start]) + "\n", chunks


def self_played(path: Path, seed: int, *, hidden: bool) -> tuple[str, ...]:
    spec = load_spec(path)
    return play_one(engine_for(spec), min(spec.player_counts), seed, transcript=True,
                    hidden=hidden).lines


def cards_in(value: Any, deck: frozenset[str]) -> set[str]:
    """Every card named anywhere in ``value`` (its strings, keys included)."""
    if isinstance(value, str):
        return {word for word in WORD.findall(value) if word in deck}
    if isinstance(value, dict):
        return set().union(*(cards_in(k, deck) | cards_in(v, deck) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return set().union(*(cards_in(item, deck) for item in value))
    return set()


def held(game: referee.Game) -> dict[str, set[str]]:
    """Where every card is, by player, in a game whose every card is known."""
    hands: dict[str, set[str]] = {name: set() for name in game.players}
    for card, places in game.knowledge().items():
        assert len(places) == 1, (card, places)
        if places[0] in hands:
            hands[places[0]].add(card)
    return hands


def check_views(game: referee.Game, truth: dict[str, set[str]], seen: set[str],
                deck: frozenset[str], *, validate: bool = True) -> None:
    """No view shows a card of another hand that the table has not seen named; with
    ``validate``, each is valid against the schema (slow: not at every step)."""
    everyone = set().union(*truth.values())
    public = game.public_view().to_json()
    if validate:
        VIEWS.validate(public)
    assert "hand" not in public and public["player"] is None
    assert not (cards_in(public, deck) & everyone) - seen
    for player in game.players:
        view = game.view(player).to_json()
        if validate:
            VIEWS.validate(view)
        assert set(view["hand"]) <= truth[player] | seen  # a claim's shows: ahead at one table
        others = everyone - truth[player]
        assert not (cards_in(view, deck) & others) - seen, (player, view)


def deal_chunks(lines: tuple[str, ...]) -> dict[str, str]:
    """A match's ``hand N`` events with their deal lines, by their first line."""
    _, events = header_and_events(lines)
    return {event.split("\n")[0]: event for event in events if event.startswith("hand ")}


@pytest.mark.parametrize("path", RULES, ids=[p.stem for p in RULES])
def test_no_view_holds_another_hand(path: Path) -> None:
    """The table's own lines (a hidden self-played game) played at two tables at once:
    one dealt hidden, one given the same deal; at every step, every seat's view of
    either holds no card of another hand the table's lines have not named."""
    deck = frozenset(load_spec(path).cards)
    for seed in (0,):
        hidden_lines = self_played(path, seed, hidden=True)
        open_lines = self_played(path, seed, hidden=False)
        hidden_header, events = header_and_events(hidden_lines)
        open_header, _ = header_and_events(open_lines)
        open_deals = deal_chunks(open_lines)
        hidden_game = referee.Game.from_transcript(hidden_header)
        given_game = referee.Game.from_transcript(open_header)
        seen: set[str] = set()
        for step, event in enumerate(events):
            truth = held(given_game)
            check_views(given_game, truth, seen, deck, validate=step % 20 == 0)
            check_views(hidden_game, truth, seen, deck, validate=step % 20 == 10)
            assert hidden_game.play(event).accepted
            first = event.split("\n")[0]
            assert given_game.play(open_deals.get(first, event)).accepted
            seen |= cards_in(event, deck)
        check_views(given_game, held(given_game), seen, deck)
        outcome = given_game.outcome
        assert outcome is not None and outcome == hidden_game.outcome
        jsonschema.validate(outcome.to_json(), OUTCOME_SCHEMA)


def test_a_given_deal_shows_each_seat_its_own_hand_only() -> None:
    hands = {"Ann": "2C 2D 2H 3C 3D 3H 4C", "Bob": ["5C", "5D", "5H", "6C", "6D", "6H", "7C"]}
    with pytest.raises(referee.RefereeError):  # the stock is missing
        referee.Game.new("go-fish", ["Ann", "Bob"], deal=referee.Deal.given(hands=hands))
    rest = [c for c in load_spec(ROOT / "rules" / "go-fish.rules").cards
            if c not in {*hands["Ann"].split(), *hands["Bob"]}]
    game = referee.Game.new("go-fish", ["Ann", "Bob"], dealer="Bob",
                            deal=referee.Deal.given(hands=hands, stock=rest))
    ann, bob, public = game.view("Ann"), game.view("Bob"), game.public_view()
    assert set(ann.hand or ()) == set(hands["Ann"].split()) and ann.unknown == 0
    assert set(bob.hand or ()) == set(hands["Bob"])
    assert ann.hands == {"Ann": 7, "Bob": 7} and public.hand is None
    assert ann.turn == "Ann" and ann.shown == "every event" and ann.stock == len(rest)
    assert game.play("Ann asks Bob for 5").kind == "illegal"  # Ann holds no 5
    assert game.play("Ann asks Bob for 2").accepted
    assert game.view("Bob").last == "Ann asks Bob for 2; no answer yet"
    assert game.legal_moves() == ["Bob says no"]  # the cards decide: the answer is due
    assert game.play("Bob says no").accepted
    assert game.view("Bob").last == "Ann asks Bob for 2; Bob says no"


def test_a_hidden_deal_shows_the_hand_typed_to_its_seat_only() -> None:
    game = referee.Game.new("go-fish", ["Ann", "Bob", "Cy"], dealer="Cy",
                            deal=referee.Deal.hidden(hands={"Ann": "4C 4H 9S QD KH"}))
    assert set(game.view("Ann").hand or ()) == {"4C", "4H", "9S", "QD", "KH"}
    assert game.view("Bob").hand == () and game.view("Bob").unknown == 5
    assert game.play("Ann asks Bob for 4").accepted and game.play("Bob gives 4S").accepted
    assert "4S" in (game.view("Ann").hand or ())
    assert game.view("Cy").last == "Ann asks Bob for 4; Bob gives 1"
    assert game.play("Ann asks Bob for 7").kind == "contradiction"  # Ann holds no 7
    assert game.undo() and game.awaiting.players == ("Ann",)
    for view in (game.view("Bob"), game.view("Cy"), game.public_view()):
        assert not {"4C", "4H", "9S", "QD", "KH"} & cards_in(view.to_json(), frozenset(
            load_spec(ROOT / "rules" / "go-fish.rules").cards))


def test_literature_views_show_the_last_ask_only() -> None:
    game = referee.Game.new("literature", ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"],
                            deal=referee.Deal.seed(3))
    assert game.public_view().shown == "the last ask and its answer"
    ann = game.awaiting.players[0] if game.awaiting.players else "Ann"
    asked = [m for m in game.legal_moves(ann) if " asks " in m]
    assert asked
    assert game.play(asked[0]).accepted
    answers = game.legal_moves()
    assert game.play(answers[-1]).accepted
    if game.outcome is None and game.awaiting.phase == "ask":
        again = [m for m in game.legal_moves() if " asks " in m]
        assert game.play(again[0]).accepted
    view = game.view("Cy").to_json()
    assert len(view["asks"]) == 1 and view["asks"][0] == view["last"]
    jsonschema.validate(view, VIEW_SCHEMA)


def test_verdicts_and_outcomes_are_valid_json() -> None:
    verdict = referee.check_file(ROOT / "tests" / "transcripts" / "go-fish" /
                                 "whole-game.txt", knowledge=True)
    jsonschema.validate(verdict.to_json(), VERDICT_SCHEMA)
    assert verdict.outcome is not None
    jsonschema.validate(verdict.outcome.to_json(), OUTCOME_SCHEMA)
    literature = referee.check_file(ROOT / "tests" / "transcripts" / "literature"
                                    / "whole-game.txt")
    assert literature.outcome is None or literature.outcome.by == "team"
