"""The public API (docs/api.md): every bundled rule file's self-played games played
through ``Game.play`` one event at a time agree with ``check``; refusals change
nothing; contradictions wait for ``accept`` or ``undo``; the transcript reads back;
errors are ``RefereeError``s, ``ValueError``s with a kind and a place."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

import referee
from referee.authoring.simulate import play_match_record, play_one
from referee.language.loader import load_spec
from referee.transcript.notation import TranscriptReader
from referee.transcript.setup import engine_for

ROOT = Path(__file__).resolve().parent.parent
RULES = sorted((ROOT / "rules").glob("*.rules"))
SEEDS = (0, 1, 2)
DEAL_KEYS = ("deal:", "hand ", "stock:", "centre:", "center:")
HIDDEN_GO_FISH = "game: go-fish\nplayers: Ann Bob Cy\ndealer: Cy\ndeal: hidden\n"


def header_and_events(lines: tuple[str, ...]) -> tuple[str, list[str]]:
    """A transcript's header text, and its events one to a chunk (a new hand of a match
    with its deal lines)."""
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


@pytest.mark.parametrize("hidden", [False, True], ids=["open", "hidden"])
@pytest.mark.parametrize("path", RULES, ids=[p.stem for p in RULES])
def test_self_played_games_play_through_the_api_as_check_decides(path: Path,
                                                                  hidden: bool) -> None:
    for seed in SEEDS:
        lines = self_played(path, seed, hidden=hidden)
        verdict = referee.check("\n".join(lines) + "\n")
        assert verdict.ok, verdict.report()
        header, events = header_and_events(lines)
        game = referee.Game.from_transcript(header)
        for event in events:
            result = game.play(event)
            assert result.accepted, (event, result)
        outcome = game.outcome
        assert (outcome and outcome.to_json()) == (verdict.outcome and verdict.outcome.to_json())
        assert outcome is not None or not verdict.to_json()["state"]["over"]
        back = referee.check(game.transcript())
        assert back.ok, back.report()
        assert back.to_json()["state"] == verdict.to_json()["state"]
        again = referee.Game.from_transcript(game.transcript())
        assert again.transcript() == game.transcript()


def test_a_game_played_by_its_legal_moves_ends_as_check_decides() -> None:
    for name in ("go-fish", "literature", "chinese-fish", "diplomat"):
        rules = referee.load_rules(name)
        players = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"][:max(3, min(rules.players))]
        if len(players) not in rules.players:
            players = players[:min(rules.players)]
        game = referee.Game.new(rules, players, deal=referee.Deal.seed(5))
        rng = random.Random(5)
        for _ in range(5000):
            if game.outcome is not None:
                break
            moves = game.legal_moves()
            assert moves, game.awaiting
            result = game.play(rng.choice(moves))
            assert result.accepted, result
        assert game.outcome is not None
        verdict = referee.check(game.transcript())
        assert verdict.ok and verdict.outcome == game.outcome


def test_hidden_legal_moves_are_the_ones_the_referee_accepts() -> None:
    game = referee.Game.from_transcript(HIDDEN_GO_FISH + "Ann asks Bob for 7\n")
    moves = game.legal_moves()
    assert "Bob says no" in moves and "Bob gives 3" in moves and "Bob gives 4" not in moves
    assert game.legal_moves("Ann") == []
    before = game.transcript()
    for move in moves:
        assert game.play(move).accepted
        assert game.undo()
        assert game.transcript() == before


def state_of(game: referee.Game) -> tuple[object, ...]:
    return (game.transcript(), [game.view(p).to_json() for p in game.players],
            game.public_view().to_json(), game.knowledge(), game.awaiting, game.outcome)


@pytest.mark.parametrize("text,kind", [
    ("Bob asks Ann for 7", "turn"),
    ("Ann asks Zed for 7", "unknown"),
    ("Ann asks Bob for", "syntax"),
    ("Ann asks Bob for 7; Cy says no", "turn"),  # the first is taken back too
    ("Ann asks Ann for 7", "illegal"),
    ("Ann asks Bob for 7\nBob gives 5", "contradiction"),  # no deal at all: not acceptable
])
def test_a_refused_play_changes_nothing(text: str, kind: str) -> None:
    game = referee.Game.from_transcript(HIDDEN_GO_FISH)
    before = state_of(game)
    result = game.play(text)
    assert not result.accepted and result.kind == kind, result
    assert result.line is None or result.line >= 5
    assert state_of(game) == before


def contradicted() -> tuple[referee.Game, referee.Result]:
    game = referee.Game.from_transcript(HIDDEN_GO_FISH)
    for line in ("Ann asks Bob for 7", "Bob gives 2", "Ann asks Cy for 7"):
        assert game.play(line).accepted
    return game, game.play("Cy gives 2")


def test_a_contradiction_waits_and_undo_drops_it() -> None:
    game, result = contradicted()
    assert not result.accepted and result.kind == "contradiction"
    assert [line for line, _ in result.because] == [5, 6]  # the lines of the transcript
    lines = game.transcript().splitlines()
    assert lines[4] == "Ann asks Bob for 7" and lines[5] == "Bob gives 2"
    assert game.awaiting.phase == "contradiction" and game.legal_moves() == []
    assert "contradiction" in game.view("Ann").awaiting
    before = game.transcript()
    assert game.undo()
    assert game.transcript() == before and game.awaiting.players == ("Cy",)
    assert game.play("Cy says no").accepted


def test_a_contradiction_accepted_is_kept_with_its_mark_and_reads_back() -> None:
    game, _ = contradicted()
    accepted = game.accept()
    assert accepted.accepted
    text = game.transcript()
    assert text.splitlines()[-2:] == ["Cy gives 2", text.splitlines()[-1]]
    assert text.splitlines()[-1].startswith("# accepted by the table:")
    again = referee.Game.from_transcript(text)
    assert again.transcript() == text
    assert again.view("Ann").to_json() == game.view("Ann").to_json()
    verdict = referee.check(text)  # check holds the table to the cards
    assert verdict.error is not None and verdict.error.kind == "contradiction"
    assert game.undo() and game.transcript() == "\n".join(text.splitlines()[:-2]) + "\n"
    with pytest.raises(referee.RefereeError):
        game.accept()


def test_a_new_event_drops_the_contradiction() -> None:
    game, _ = contradicted()
    result = game.play("Cy says no")
    assert result.accepted and result.message.startswith("dropped the contradiction")
    assert game.transcript().splitlines()[-1] == "Cy says no"


def test_play_keeps_the_events_before_a_contradiction() -> None:
    game = referee.Game.from_transcript(HIDDEN_GO_FISH)
    result = game.play("Ann asks Bob for 7; Bob gives 2; Ann asks Cy for 7; Cy gives 2")
    assert result.kind == "contradiction" and result.line == 8
    assert game.transcript().splitlines()[-1] == "Ann asks Cy for 7"


@pytest.mark.parametrize("call", [
    lambda: referee.load_rules("gofish"),
    lambda: referee.load_rules("go-fish", {"nonsense": "yes"}),
    lambda: referee.Game.new("go-fish", ["Ann"]),
    lambda: referee.Game.new("go-fish", ["Ann", "Ann"]),
    lambda: referee.Game.new("go-fish", ["Ann", "Bob Cy"]),
    lambda: referee.Game.new("go-fish", ["Ann", "Bob"], dealer="Zed"),
    lambda: referee.Game.new("go-fish", ["Ann", "Bob"], deal="open"),
    lambda: referee.Game.new("go-fish", ["Ann", "Bob"],
                             deal=referee.Deal.given(hands={"Ann": ["7H"]})),
    lambda: referee.Deal.seed(-1),
    lambda: referee.Game.from_transcript("game: go-fish\nplayers: Ann Bob\n\nBob asks Ann for 7\n"),
    lambda: referee.Game.new("go-fish", ["Ann", "Bob"]).view("Zed"),
])
def test_errors_are_referee_errors_and_value_errors(call: object) -> None:
    with pytest.raises(ValueError) as caught:
        call()  # type: ignore[operator]
    error = caught.value
    assert isinstance(error, referee.RefereeError)
    assert error.kind.value in ("usage", "header", "unknown", "turn", "rules")
    assert error.message and str(error) == error.message
    assert error.span is None or error.span.line >= 1


def test_a_transcript_error_has_its_place() -> None:
    with pytest.raises(referee.RefereeError) as caught:
        referee.Game.from_transcript(HIDDEN_GO_FISH + "\nBob asks Ann for 7\n")
    assert caught.value.kind.value == "turn" and caught.value.span is not None
    assert (caught.value.span.line, caught.value.span.column) == (6, 1)


def test_check_decides_as_referee_check(tmp_path: Path) -> None:
    example = ROOT / "tests" / "transcripts" / "go-fish" / "whole-game.txt"
    verdict = referee.check_file(example)
    shown = subprocess.run([sys.executable, "-m", "referee", "check", "--json", str(example)],
                           capture_output=True, text=True, check=False)
    assert json.loads(shown.stdout) == verdict.to_json() and shown.returncode == 0
    assert verdict.ok and verdict.error is None and verdict.outcome is not None
    assert verdict.outcome.winners == ("Bob",) and verdict.outcome.by == "player"
    bad = referee.check(HIDDEN_GO_FISH + "Bob asks Ann for 7\n")
    assert not bad.ok and bad.error is not None and bad.outcome is None
    assert (bad.error.kind, bad.error.line, bad.error.column) == ("turn", 5, 1)


def test_rules_say_what_they_are() -> None:
    rules = referee.load_rules("go-fish")
    assert (rules.name, rules.title, rules.players) == ("go-fish", "Go Fish", (2, 3, 4, 5, 6))
    assert rules.sheet().startswith("# Go Fish")
    assert "<h1>" in rules.sheet("html")
    assert referee.load_rules(ROOT / "rules" / "authors.rules").title == "Authors"
    with pytest.raises(referee.RefereeError):
        rules.sheet("pdf")


def test_import_referee_loads_nothing_else() -> None:
    code = ("import sys, referee; print(sorted(m for m in sys.modules if m.startswith("
            "('referee', 'typing', 'click', 'lark'))))")
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True)
    assert shown.stdout.strip() == "['referee']"


def test_every_public_name_is_there_and_typed() -> None:
    for name in referee.__all__:
        assert getattr(referee, name).__doc__, name
    assert set(referee.__all__) <= set(dir(referee))
    with pytest.raises(AttributeError):
        referee.nothing  # type: ignore[attr-defined]  # noqa: B018
    assert (ROOT / "referee" / "py.typed").is_file()


@pytest.mark.parametrize("hidden", [False, True], ids=["open", "hidden"])
def test_a_match_plays_through_the_api_hand_by_hand(hidden: bool) -> None:
    spec = load_spec(ROOT / "rules" / "go-fish.rules")
    match = play_match_record(engine_for(spec), 3, 4, 8, hidden=hidden)
    verdict = referee.check("\n".join(match.lines) + "\n")
    assert match.hands > 1 and verdict.ok and verdict.outcome is not None
    assert verdict.outcome.hands == match.hands
    header, events = header_and_events(match.lines)
    game = referee.Game.from_transcript(header)
    for event in events:
        assert game.play(event).accepted, event
    assert game.outcome == verdict.outcome
    assert referee.check(game.transcript()).to_json() == verdict.to_json()
    while game.undo():  # back through every hand to the first deal
        pass
    assert game.transcript() == header


def test_done_ends_the_laying_and_reads_back() -> None:
    game = referee.Game.from_transcript(HIDDEN_GO_FISH)
    assert game.awaiting.phase == "lay"
    assert game.done().accepted and game.awaiting.phase == "ask"
    assert game.transcript().splitlines()[-1] == "# done"
    assert referee.Game.from_transcript(game.transcript()).awaiting == game.awaiting
    assert game.undo() and game.awaiting.phase == "lay"


def test_options_of_the_rules_and_of_the_game() -> None:
    rules = referee.load_rules("literature", {"history": "yes"})
    assert rules.options["history"] == "yes"
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
    assert referee.Game.new(rules, names).public_view().shown == "every event"
    game = referee.Game.new("literature", names, options={"history": "yes"})
    assert game.public_view().shown == "every event"
    assert "option history: yes" in game.transcript()
    assert referee.Game.new("literature", names).public_view().shown == (
        "the last ask and its answer")


@pytest.mark.parametrize("text,kind,line", [
    (HIDDEN_GO_FISH + "Bob asks Ann for 7\nAnn ???\n", "turn", 5),  # the first error first
    (HIDDEN_GO_FISH + "Ann asks Bob for 7\nAnn ???\n", "syntax", 6),
    ("game: go-fish\nplayers: Ann\n", "header", 2),
    ("Ann asks Bob for 7\n", "header", 1),
    ("", "header", 1),
])
def test_a_transcript_that_does_not_read_back_says_where(text: str, kind: str,
                                                         line: int) -> None:
    with pytest.raises(referee.RefereeError) as caught:
        referee.Game.from_transcript(text)
    assert caught.value.kind.value == kind and caught.value.span is not None
    assert caught.value.span.line == line
    assert referee.check(text).error == referee.check(text).error  # check agrees on kind
    assert referee.check(text).error.kind == kind  # type: ignore[union-attr]


def test_a_transcript_read_is_kept_as_typed_and_taken_back_event_by_event() -> None:
    typed = ("# a game at the club\n" + HIDDEN_GO_FISH + "\nAnn asks Bob for 7; Bob gives 2  "
             "# two sevens\nAnn asks Cy for 7\n# to be continued\n")
    game = referee.Game.from_transcript(typed)
    assert game.transcript() == typed
    result = game.play("Cy gives 2")  # line 10 of the transcript; the proof cites its lines
    assert result.line == 10 and [line for line, _ in result.because] == [7, 7]
    assert game.undo() and game.undo()
    assert game.transcript() == typed[:typed.index("Ann asks Cy")]  # its note kept
    assert game.undo()
    assert game.transcript() == typed[:typed.index(";")] + "\n"
    assert game.play("Bob says no").accepted
    assert game.transcript().endswith("\nAnn asks Bob for 7\nBob says no\n")
    with pytest.raises(referee.RefereeError) as caught:
        referee.Game.from_transcript(typed + "\nBob asks Ann for 7\n")
    assert caught.value.span is not None and caught.value.span.line == 11


def test_an_accepted_contradiction_resumes_at_the_live_table(tmp_path: Path) -> None:
    from referee.live.start import resume

    game, _ = contradicted()
    assert game.accept().accepted
    path = tmp_path / "game.txt"
    path.write_text(game.transcript(), encoding="utf-8")
    table = resume(path, warn=lambda message: None)
    try:
        assert table.session.describe()["hands"] == game.public_view().hands
        assert table.prompt() == game.awaiting.words
        assert game.awaiting.words.endswith("Ann to ask")
    finally:
        table.journal.close()


def test_a_refused_event_leaves_the_contradiction_waiting() -> None:
    game, _ = contradicted()
    before = game.transcript()
    assert game.play("Bob asks Cy for 7").kind == "turn"
    assert game.awaiting.phase == "contradiction" and game.transcript() == before
    assert game.accept().accepted


GAME = "go-fish", ["Ann", "Bob"]


@pytest.mark.parametrize("call", [
    lambda: referee.load_rules(None),
    lambda: referee.load_rules(5),
    lambda: referee.load_rules("literature", ["history"]),
    lambda: referee.load_rules("literature", "history=yes"),
    lambda: referee.load_rules("literature", {5: "yes"}),
    lambda: referee.load_rules("literature", {"history": None}),
    lambda: referee.check(None),
    lambda: referee.check(b"game: go-fish\nplayers: Ann Bob\n"),
    lambda: referee.check("game: go-fish\nplayers: Ann Bob\n", source=None),
    lambda: referee.check_file(None),
    lambda: referee.check_file(3),
    lambda: referee.Game.new(None, GAME[1]),
    lambda: referee.Game.new(*GAME, options=["history"]),
    lambda: referee.Game.new("go-fish", 3),
    lambda: referee.Game.new("go-fish", {"Ann": 1, "Bob": 2}),
    lambda: referee.Game.new("go-fish", [None, "Bob"]),
    lambda: referee.Game.new(*GAME, deal=None),
    lambda: referee.Game.new(*GAME, deal=3),
    lambda: referee.Game.new(*GAME, deal=referee.Deal.seed),
    lambda: referee.Deal.given(hands=None),
    lambda: referee.Deal.given(hands=[("Ann", ["2C"])]),
    lambda: referee.Deal.given(hands={"Ann": None}),
    lambda: referee.Deal.given(hands={"Ann": 5}),
    lambda: referee.Deal.given(hands={"Ann": [7]}),
    lambda: referee.Deal.given(hands={"Ann": ["2C"]}, stock=5),
    lambda: referee.Deal.given(hands={"Ann": ["2C"]}, centre=[None]),
    lambda: referee.Deal.hidden(hands={"Ann": 5}),
    lambda: referee.Game.from_transcript(None),
    lambda: referee.Game.from_transcript(b"game: go-fish\nplayers: Ann Bob\n"),
    lambda: referee.Game.new(*GAME).view(None),
    lambda: referee.Game.new(*GAME).view(0),
    lambda: referee.Game.new(*GAME).legal_moves(1),
    lambda: referee.Game.new(*GAME).enter_hand("Ann", 5),
    lambda: referee.Game.new(*GAME).enter_hand("Ann", None),
])
def test_arguments_of_the_wrong_type_are_referee_errors(call: object) -> None:
    with pytest.raises(referee.RefereeError) as caught:
        call()  # type: ignore[operator]
    assert caught.value.message and "\n" not in caught.value.message


def test_the_api_takes_paths_tuples_and_option_values_as_the_rule_file_reads_them() -> None:
    game = referee.Game.new(ROOT / "rules" / "go-fish.rules", ("Ann", "Bob"),
                            deal=referee.Deal.seed(1))
    assert game.players == ("Ann", "Bob")
    rules = referee.load_rules("literature", {"history": True, "bluff-asks": False})
    assert (rules.options["history"], rules.options["bluff-asks"]) == ("yes", "no")
    assert referee.check_file(ROOT / "tests" / "transcripts" / "go-fish" / "whole-game.txt").ok


def test_an_errors_kind_is_its_word_as_a_verdicts_and_a_results_are() -> None:
    with pytest.raises(referee.RefereeError) as caught:
        referee.Game.new("go-fish", ["Ann"])
    error = caught.value
    assert error.kind == "header" and error.kind.value == "header" and str(error.kind) == "header"
    assert json.dumps({"kind": error.kind}) == '{"kind": "header"}'
    assert error.message == str(error)


def test_the_public_signatures_resolve_for_typing_get_type_hints() -> None:
    import typing

    for function in (referee.load_rules, referee.check, referee.check_file, referee.Game.new,
                     referee.Game.from_transcript, referee.Game.play, referee.Game.view,
                     referee.Game.legal_moves, referee.Deal.given, referee.Deal.seed):
        assert typing.get_type_hints(function), function
