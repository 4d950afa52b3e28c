"""``referee check``'s report (issue 18): the verdict on standard output, one line a file
with several, the state in the live table's words, a draw called a draw, and a claim's
note at the claim's line."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.commands import main
from referee.live.start import resume
from referee.transcript.check import check_file
from referee.transcript.notation import read_transcript
from referee.transcript.session import Session
from referee.transcript.setup import set_up

TRANSCRIPTS = Path(__file__).parent / "transcripts"
LEGAL = TRANSCRIPTS / "go-fish" / "whole-game.txt"
ILLEGAL = TRANSCRIPTS / "go-fish" / "draw-wrong-card.txt"
UNKNOWN_GAME = TRANSCRIPTS / "bad-input" / "unknown-game.txt"
HIDDEN_CLAIM = TRANSCRIPTS / "literature" / "hidden-claim-judged-by-shows.txt"
OPEN_CLAIM = TRANSCRIPTS / "literature" / "drawn-game.txt"
WAITING = TRANSCRIPTS / "authors" / "hidden-waits-for-an-answer.txt"


def check(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "referee", "check", *arguments],
                          capture_output=True, text=True, check=False, timeout=60)


# -- the verdict is the output --------------------------------------------------------

@pytest.fixture
def broken_rules(tmp_path: Path) -> Path:
    """A transcript whose rule file does not compile."""
    (tmp_path / "mine.rules").write_text("extends: authors\nplayers: 3 too 6\n")
    game = tmp_path / "game.txt"
    game.write_text("game: mine\nplayers: Ann Bob Cy\ndeal: seed 1\n")
    return game


@pytest.mark.parametrize(("game", "status"), [
    (LEGAL, 0), (ILLEGAL, 1), (UNKNOWN_GAME, 1), (None, 2),
    (TRANSCRIPTS / "no-such-file.txt", 2)], ids=["legal", "illegal", "header", "rules", "usage"])
def test_one_file_s_verdict_goes_to_standard_output_legal_or_not(
        game: Path | None, status: int, broken_rules: Path) -> None:
    game = game or broken_rules
    done = check(str(game))
    assert (done.returncode, done.stderr) == (status, "")
    assert done.stdout == check_file(game).report() + "\n"


def test_an_illegal_transcript_s_report_can_be_kept_in_a_file(tmp_path: Path) -> None:
    out = tmp_path / "out"
    with out.open("w") as kept:
        done = subprocess.run([sys.executable, "-m", "referee", "check", str(ILLEGAL)],
                              stdout=kept, stderr=subprocess.PIPE, text=True, check=False,
                              timeout=60)
    assert done.returncode == 1 and done.stderr == ""
    assert "contradiction: the top card of the stock is 8D, not 7C" in out.read_text()


# -- several files: a line each --------------------------------------------------------

def test_a_legal_game_with_claim_notes_gives_its_verdict_line_among_several() -> None:
    done = check(str(HIDDEN_CLAIM), str(LEGAL))
    assert done.stdout.splitlines() == [
        f"{HIDDEN_CLAIM}: legal, 4 events", f"{LEGAL}: legal, 143 events",
        "2 files: 2 legal, 0 not"]


def test_each_file_s_line_among_several_is_the_first_line_of_its_verdict_alone(
        broken_rules: Path) -> None:
    files = [HIDDEN_CLAIM, LEGAL, ILLEGAL, UNKNOWN_GAME, OPEN_CLAIM]
    lines = check(*map(str, files)).stdout.splitlines()
    for file, line in zip(files, lines, strict=False):
        verdict = check_file(file)
        report = verdict.report().splitlines()
        assert line == report[len(verdict.notes)], file  # the notes come first alone
    rules = check(str(broken_rules), str(LEGAL)).stdout.splitlines()[0]
    assert rules == f"{broken_rules}: {check_file(broken_rules).report().splitlines()[0]}"


# -- what the game waits for, in the live table's words --------------------------------

def test_the_report_says_what_the_game_waits_for() -> None:
    report = check_file(WAITING).report().splitlines()
    assert report[-1] == ("game not over: Bob to answer Ann's ask for QH; "
                          "scores Ann 0, Bob 0, Cy 0, Dee 0")
    assert check_file(WAITING).to_json()["state"]["turn"] == "Ann"  # the player in turn


@pytest.mark.parametrize("game", [
    WAITING, HIDDEN_CLAIM, OPEN_CLAIM, LEGAL,
    TRANSCRIPTS / "go-fish" / "shared-win.txt", TRANSCRIPTS / "go-fish" / "drawn-game.txt",
    TRANSCRIPTS / "go-fish" / "hidden-whole-game.txt",
    TRANSCRIPTS / "literature" / "hidden-whole-game.txt",
    TRANSCRIPTS / "chinese-fish" / "hidden-whole-game.txt",
    TRANSCRIPTS / "diplomat" / "hidden-whole-game.txt",
    TRANSCRIPTS / "matches" / "hidden-match.txt",
], ids=lambda p: str(p.relative_to(TRANSCRIPTS)))
def test_check_and_the_live_table_word_the_state_alike(game: Path, tmp_path: Path) -> None:
    """A transcript resumed at a live table: the same state, said in the same words."""
    copy = tmp_path / game.name
    shutil.copyfile(game, copy)
    said = resume(copy, lambda warning: None).prompt()
    last = check_file(copy).report().splitlines()[-1]
    if last.startswith("game not over: "):
        assert last.startswith(f"game not over: {said}; scores ")
    else:
        assert last == said


def test_a_hand_over_in_a_match_names_the_next_hand(tmp_path: Path) -> None:
    lines = (TRANSCRIPTS / "matches" / "go-fish-match.txt").read_text().splitlines()
    game = tmp_path / "match.txt"
    game.write_text("\n".join(lines[:lines.index("hand 2")]) + "\n")
    assert check_file(game).report().splitlines()[-1] == (
        "hand 1 over; totals Ann 7, Bob 2 (target 10): the next starts with 'hand 2'")


# -- how a game ends -------------------------------------------------------------------

@pytest.mark.parametrize(("game", "end"), [
    (OPEN_CLAIM, "game over: a draw: team 1 and team 2 tied; scores team 1 4, team 2 4"),
    (TRANSCRIPTS / "go-fish" / "drawn-game.txt",
     "game over: a draw: Ann and Bob tied; scores Ann 4, Bob 4"),
    (TRANSCRIPTS / "go-fish" / "shared-win.txt",
     "game over: Bob and Cy tied and share the win; scores Ann 1, Bob 3, Cy 3"),
    (LEGAL, "game over: Bob won; scores Ann 3, Bob 5, Cy 2"),
], ids=["team-draw", "draw", "shared-win", "one-winner"])
def test_the_end_says_who_won_a_shared_win_or_a_draw(game: Path, end: str) -> None:
    assert check_file(game).report().splitlines()[-1] == end
    assert CliRunner().invoke(main, ["check", str(game)]).stdout.splitlines()[-1] == end


# -- a claim's note cites the claim ----------------------------------------------------

def test_a_claim_judged_by_shows_is_noted_at_the_claim_s_line() -> None:
    verdict = check_file(HIDDEN_CLAIM)
    claim = HIDDEN_CLAIM.read_text().splitlines().index(
        "Ann claims low spades: Ann 3S 4S, Cy 5S 6S 7S 8S") + 1
    assert [line for line, _ in verdict.notes] == [claim]
    assert verdict.report().splitlines()[0].startswith(
        f"{HIDDEN_CLAIM}:{claim}: Ann's claim of low spades is wrong: 6S is with Dee")
    assert verdict.to_json()["notes"][0]["line"] == claim


def test_claims_at_an_open_table_are_noted_at_their_lines() -> None:
    verdict = check_file(OPEN_CLAIM)
    lines = OPEN_CLAIM.read_text().splitlines()
    claims = [number for number, text in enumerate(lines, start=1) if " claims " in text]
    assert [line for line, _ in verdict.notes] == claims


def test_undoing_back_into_a_claim_s_shows_keeps_that_claim_s_line() -> None:
    text = HIDDEN_CLAIM.read_text() + "Ann claims high spades: Ann 9S 10S JS, Cy QS KS AS\n"
    transcript = read_transcript(text, "live.txt")
    session = Session(set_up(transcript.headers, transcript.headers[0].span, None))
    events = list(transcript.events)
    for event in events:
        assert session.attempt(event) is None
    assert session.state.showing is not None  # the second claim waits for its shows
    assert session.undo() and session.undo()  # the second claim, then Dee's show
    assert session.notes == []
    assert session.attempt(events[3]) is None  # Dee shows again: the first claim is judged
    assert [line for line, _ in session.notes] == [events[0].span.line]
