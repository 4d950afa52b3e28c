"""The live prompt asks the engine every rule question: what it offers is what the
engine allows (issue 19, "one place for each rule")."""

from __future__ import annotations

import pytest

from referee.authoring.simulate import play_one
from referee.engine.core import Engine
from referee.engine.moves import Ask, LayDown
from referee.engine.state import Phase
from referee.language.loader import load_spec
from referee.language.rulefiles import bundled_rule_names, find_rule_file
from referee.live.choices import Choices
from referee.transcript.notation import read_transcript
from referee.transcript.session import Session
from referee.transcript.setup import set_up


def session_of(text: str) -> Session:
    transcript = read_transcript(text, "game.txt")
    session = Session(set_up(transcript.headers, transcript.headers[0].span, None))
    for event in transcript.events:
        session.play(event)
    return session


def test_a_pair_held_is_offered_to_lay_down_at_once() -> None:
    # a set of part of a rank: two 7s are a whole set, as the engine lays it down
    session = session_of("game: go-fish-pairs\nplayers: Ann Bob Cy\ndeal: hidden\n"
                         "hand Ann: 7S 7H 2C 3D KD 5S 9H\n")
    assert session.state.phase is Phase.LAY
    choices = Choices(session, knowing=True)
    assert choices.whole_sets(0) == ["7"]
    assert "books" in choices.verbs(0)
    assert session.engine.whole_sets(session.state, 0) == ["7"]


@pytest.mark.parametrize("name", bundled_rule_names())
def test_the_prompt_offers_the_asks_and_sets_the_engine_allows(name: str) -> None:
    path = find_rule_file(name)
    assert path is not None
    engine = Engine(load_spec(path))
    players = min(engine.spec.player_counts, key=lambda count: abs(count - 4))
    lines = play_one(engine, players, 7, transcript=True, max_moves=200).lines
    transcript = read_transcript("\n".join(lines), "game.txt")
    session = Session(set_up(transcript.headers, transcript.headers[0].span, None))
    for event in transcript.events:
        state = session.state
        if state.phase is Phase.ASK:
            legal = engine.legal_moves(state)
            choices = Choices(session, knowing=True)
            asked = {m.card or m.rank for m in legal if isinstance(m, Ask)}
            offered = set(choices.ask_items(state.turn)) if choices.whom(state.turn) else set()
            assert offered == asked
            laid = [m.set_name for m in legal if isinstance(m, LayDown)]
            assert choices.whole_sets(state.turn) == laid
        session.play(event)
