"""What the live prompt says while the table must decide: a contradiction waiting for
``accept`` or ``undo`` is named, and an event that drops it says so (a line refused
whole, a note or a command that changes nothing leaves it waiting); while shows are
due, the prompt says whose claim they answer and which cards are still to show."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from referee.cli.commands import main
from referee.live.start import Seating, start
from referee.live.table import LiveTable
from referee.transcript.check import check_file

WAITING = "accept or undo the contradiction on Bob asks Cy for 7 (a new event drops it)"


def contradicted(tmp_path: Path) -> LiveTable:
    """A hidden game of Go Fish where Bob's ask for 7 contradicts his earlier no."""
    table = start(Seating("go-fish", ("Ann", "Bob", "Cy")), tmp_path / "live.txt")
    for line in ("Ann asks Bob for 7", "Bob says no", "Ann draws"):
        assert not table.handle(line).refused
    reply = table.handle("Bob asks Cy for 7")
    assert reply.line.startswith("contradiction: ")
    assert reply.line.endswith("'accept' records it and goes on, 'undo' drops it, as does "
                               "a new event")
    assert table.prompt() == WAITING
    return table


def test_a_new_event_drops_the_contradiction_and_says_so(tmp_path: Path) -> None:
    table = contradicted(tmp_path)
    reply = table.handle("Bob asks Cy for 5")
    assert reply.line == ("dropped the contradiction on Bob asks Cy for 7 (never recorded); "
                          "accepted: Bob asks Cy for 5; Cy to answer Bob's ask for 5")
    assert table.prompt() == "Cy to answer Bob's ask for 5"
    assert table.journal.lines[-1] == "Bob asks Cy for 5"
    assert "Bob asks Cy for 7" not in table.journal.lines
    assert table.handle("accept").line.startswith("nothing to accept")


def test_a_line_refused_whole_leaves_the_contradiction_waiting(tmp_path: Path) -> None:
    table = contradicted(tmp_path)
    for typed in ("Bob asks Dan for 5", "Cy asks Bob for 5", "Bob asks Cy for"):
        reply = table.handle(typed)
        assert reply.refused and reply.line.endswith("nothing changed"), reply.line
        assert "dropped" not in reply.line
        assert table.prompt() == WAITING
    assert table.handle("accept").line.startswith("accepted by the table: Bob asks Cy for 7")


def test_a_note_or_a_command_leaves_the_contradiction_waiting(tmp_path: Path) -> None:
    table = contradicted(tmp_path)
    assert table.handle("# Bob says he misheard").line == "noted"
    for command in ("status", "legal", "last", "history", "help", "save"):
        table.handle(command)
        assert table.prompt() == WAITING, command
    assert table.handle("accept").line.startswith("accepted by the table: Bob asks Cy for 7")
    lines = table.journal.lines
    assert lines[-3:-1] == ["# Bob says he misheard", "Bob asks Cy for 7"]
    verdict = check_file(table.journal.path)  # the file says what the table decided
    error = verdict.error
    assert error is not None and error.kind.value == "contradiction"
    assert error.span is not None and error.span.line == len(lines) - 1


def test_done_that_fills_something_in_drops_the_contradiction_and_says_so(
        tmp_path: Path) -> None:
    table = contradicted(tmp_path)
    reply = table.handle("done")  # Bob had no book to lay: the referee fills that in
    assert reply.line.startswith("dropped the contradiction on Bob asks Cy for 7 (never "
                                 "recorded); done: ")
    assert table.prompt() == "Bob to ask"


def test_a_new_contradiction_drops_the_one_waiting(tmp_path: Path) -> None:
    table = contradicted(tmp_path)
    reply = table.handle("Bob asks Ann for 7")
    assert reply.line.startswith("dropped the contradiction on Bob asks Cy for 7 (never "
                                 "recorded); contradiction: ")
    assert table.prompt().startswith("accept or undo the contradiction on Bob asks Ann for 7")


def test_a_script_hears_that_the_contradiction_was_dropped(tmp_path: Path) -> None:
    out = tmp_path / "game.txt"
    typed = "Ann asks Bob for 7\nBob says no\nAnn draws\nBob asks Cy for 7\nBob asks Cy for 5\n"
    result = CliRunner().invoke(main, ["play", "go-fish", "-p", "Ann Bob Cy", "--out",
                                       str(out)], input=typed)
    assert result.exit_code == 1  # the contradicted ask is not in the file
    assert result.stdout.splitlines()[4].startswith(
        "dropped the contradiction on Bob asks Cy for 7 (never recorded); accepted: ")


def test_shows_due_name_the_claim_and_the_cards_still_to_show(tmp_path: Path) -> None:
    table = start(Seating("literature", ("Ann", "Bob", "Cy", "Dee")), tmp_path / "live.txt")
    reply = table.handle("Ann claims low spades: Ann 3S 4S, Cy 5S 6S 7S 8S")
    due = "shows due for Ann's claim of low spades: "
    assert reply.line.endswith(due + "3S 4S 5S 6S 7S 8S still to show")
    table.handle("Ann shows 3S 4S")
    table.handle("Cy shows 5S 7S 8S")
    assert table.prompt() == due + "6S still to show"
    assert table.handle("Dee shows 6S").line.endswith("team 2 wins the set; Ann to claim or ask")
