"""Unit tests of team play: claims and their three outcomes, lay-downs by choice,
passing an empty hand's turn, the endgame, and team scores with weights."""

from __future__ import annotations

from pathlib import Path

from referee.engine.claims import judge
from referee.engine.core import Engine
from referee.engine.moves import Ask, Claim, LayDown, Pass
from referee.engine.state import GameState, Phase
from referee.engine.wording import describe_judgement
from referee.errors import Kind
from referee.language.cards import Card
from referee.language.loader import load_spec

TINY_TEAMS = Path(__file__).parent / "rules_support" / "tiny-teams.rules"
NAMES = ("Ann", "Bob", "Cy", "Dee")  # teams: Ann and Cy, Bob and Dee


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card(c) for c in text.split())


def game(hands: list[str], options: dict[str, str] | None = None) -> tuple[Engine, GameState]:
    engine = Engine(load_spec(TINY_TEAMS, options))
    return engine, engine.start(NAMES, 3, [cards(h) for h in hands], [])


DEAL = ["AS 2S 3S", "AH 4S 5S", "2H 3H 6S", "4H 5H 6H"]


def claim(player: int, name: str, *holders: tuple[int, str]) -> Claim:
    return Claim(player, name, tuple((seat, cards(text)) for seat, text in holders))


def test_a_right_claim_wins_the_set_for_the_claimers_team() -> None:
    engine, state = game(DEAL)
    move = claim(0, "low hearts", (2, "2H 3H"), (0, "AH"))
    assert judge(engine.spec, state, move).winner == 1  # Bob holds AH: the other team
    right = claim(0, "low spades", (0, "AS 2S 3S"))
    assert judge(engine.spec, state, right).right
    engine.apply(state, right)
    assert state.laid == [["low spades"], []]
    assert state.phase is Phase.PASS and state.turn == 0  # Ann's hand is empty


def test_a_misplaced_claim_is_void_or_lost_as_the_rules_say() -> None:
    move = claim(0, "low spades", (0, "AS 2S"), (2, "3S"))
    engine, state = game(DEAL)
    judgement = judge(engine.spec, state, move)
    assert judgement.winner is None and judgement.misplaced == (("3S", 2, 0),)
    assert "3S is with Ann, not Cy; the set is void" in describe_judgement(
        state, move, judgement, ("1", "2"))
    engine.apply(state, move)
    assert state.void == ["low spades"]
    strict, strict_state = game(DEAL, {"strict": "yes"})
    assert judge(strict.spec, strict_state, move).winner == 1


def test_a_card_held_by_the_other_team_gives_them_the_set() -> None:
    engine, state = game(DEAL)
    move = claim(2, "high spades", (2, "4S 5S 6S"))
    state.turn = 2
    judgement = judge(engine.spec, state, move)
    assert judgement.winner == 1 and {c for c, _, _ in judgement.misplaced} == {"4S", "5S"}
    engine.apply(state, move)
    assert state.laid == [[], ["high spades"]]
    assert engine.outcome(state).scores == (0, 2)  # a high set scores 2


def test_bad_claims_say_what_is_wrong() -> None:
    engine, state = game(DEAL)
    problems = {
        "names 2": claim(0, "low spades", (0, "AS 2S")),
        "not a card of low spades": claim(0, "low spades", (0, "AS 2S 4S")),
        "not on Ann's team": claim(0, "low spades", (1, "AS 2S 3S")),
        "names AS twice": claim(0, "low spades", (0, "AS 2S AS")),
    }
    for words, move in problems.items():
        problem = engine.violation(state, move)
        assert problem is not None and problem.kind is Kind.ILLEGAL and words in problem.message
    out_of_turn = engine.violation(state, claim(1, "low spades", (1, "AS 2S 3S")))
    assert out_of_turn is not None and out_of_turn.kind is Kind.TURN
    engine.apply(state, LayDown(0, "low spades"))
    engine.apply(state, Pass(0, 2))
    again = engine.violation(state, claim(2, "low spades", (2, "AS 2S 3S")))
    assert again is not None and "already won" in again.message


def test_an_empty_hand_passes_to_a_teammate_then_to_an_opponent() -> None:
    engine, state = game(DEAL)
    engine.apply(state, LayDown(0, "low spades"))
    assert engine.legal_moves(state) == [Pass(0, 2)]
    assert engine.forced_move(state) == Pass(0, 2)
    wrong = engine.violation(state, Pass(0, 1))
    assert wrong is not None and "not on Ann's team" in wrong.message
    assert engine.violation(state, Ask(0, 1, "4", "4S")) is not None
    engine.apply(state, Pass(0, 2))
    assert state.turn == 2 and state.phase is Phase.ASK
    early = engine.violation(state, Pass(2, 0))
    assert early is not None and "still has a move" in early.message
    engine.apply(state, claim(2, "high spades", (2, "4S 5S 6S")))  # 4S 5S are Bob's
    # Cy claims his team's last cards: the team is out, so Cy names an opponent.
    engine.apply(state, claim(2, "low hearts", (2, "2H 3H"), (0, "AH")))
    assert state.phase is Phase.PASS and state.hand_size(2) == 0
    assert engine.legal_moves(state) == [Pass(2, 3)]  # Bob's cards went in the claims
    engine.apply(state, Pass(2, 3))
    # Dee can ask nobody: her moves are claims (and lay-downs) only.
    moves = engine.legal_moves(state)
    assert LayDown(3, "high hearts") in moves
    assert not any(isinstance(m, Ask) for m in moves)
    assert len([m for m in moves if isinstance(m, Claim)]) == 2**3
    engine.apply(state, LayDown(3, "high hearts"))
    result = engine.outcome(state)
    assert result.over and result.scores == (1, 5) and result.winners == (1,)


def test_a_level_game_is_a_draw_with_weighted_sets() -> None:
    engine, state = game(DEAL)
    engine.apply(state, LayDown(0, "low spades"))
    engine.apply(state, Pass(0, 2))
    for card in ("4S", "5S"):
        engine.apply(state, Ask(2, 1, "4", card))
        engine.apply(state, engine.forced_move(state))
    engine.apply(state, LayDown(2, "high spades"))
    engine.apply(state, claim(2, "low hearts", (2, "2H 3H"), (0, "AH")))  # AH is Bob's
    engine.apply(state, Pass(2, 3))
    engine.apply(state, LayDown(3, "high hearts"))
    result = engine.outcome(state)
    assert state.laid == [["low spades", "high spades"], ["low hearts", "high hearts"]]
    assert result.over and result.scores == (3, 3) and result.winners == (0, 1)
