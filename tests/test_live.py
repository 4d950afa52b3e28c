"""``referee play``: the referee at the table, driven through its per-line handler,
prompt_toolkit's pipe input, a real pseudo-terminal, and standard input in a process
killed mid-game."""

from __future__ import annotations

import fcntl
import os
import pty
import random
import select
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest
from click.testing import CliRunner
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from referee.authoring.simulate import PLAYER_NAMES, play_match, play_one
from referee.cli.commands import main
from referee.engine.core import Engine
from referee.language.loader import load_spec
from referee.language.spec import Shown
from referee.live.completion import candidates
from referee.live.prompt import prompt_session, run_prompt
from referee.live.start import Seating, resume, start
from referee.live.table import LiveTable
from referee.transcript.check import check_file, check_text
from referee.transcript.notation import ACCEPTED_MARK, read_events

RULES = Path(__file__).parent.parent / "rules"
THREE = ("Ann", "Bob", "Cy")
SIX = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")


def hidden_game(rules: str, players: int, seed: int) -> tuple[list[str], list[str]]:
    """A self-played game as a hidden table sees it: its header and its event lines."""
    engine = Engine(load_spec(RULES / f"{rules}.rules"))
    lines = list(play_one(engine, players, seed, transcript=True, hidden=True).lines)
    cut = lines.index("deal: hidden") + 1
    return lines[:cut], lines[cut:]


def table_for(tmp_path: Path, game: str = "go-fish", players: tuple[str, ...] = THREE,
              **seating: object) -> LiveTable:
    return start(Seating(game, players, **seating), tmp_path / "live.txt")  # type: ignore[arg-type]


def snapshot(table: LiveTable) -> tuple[object, ...]:
    session = table.session
    return (session.describe(), tuple(session.record.lines()), tuple(table.journal.lines),
            (table.journal.path.read_text()), len(table.journal.entries))


def prompt_through_pipe(table: LiveTable, *pieces: str) -> list[str]:
    """Type ``pieces`` at the prompt (prompt_toolkit's pipe input, no terminal); what the
    referee shows."""
    shown: list[str] = []
    with create_pipe_input() as typed:
        for piece in pieces:
            typed.send_text(piece)
        typed.close()
        run_prompt(table, prompt_session(typed, DummyOutput()), shown.append)
    return shown


# -- reading typed lines ---------------------------------------------------------------


def test_typed_lines_are_read_at_the_line_they_will_have_in_the_file() -> None:
    events, error = read_events("Ann > Bob 7; yes", "live.txt", 12)
    assert error is None and [e.span.line for e in events] == [12, 12]
    events, error = read_events("hand 2\ndeal: hidden\nhand Ann: 7S", "live.txt", 30)
    assert error is None and len(events) == 1
    assert [h.span.line for h in events[0].headers] == [31, 32]
    events, error = read_events("Ann > Bob 7; deal: hidden", "live.txt", 5)
    assert len(events) == 1 and error is not None and error.span is not None
    assert error.kind.value == "syntax" and error.span.line == 5
    events, error = read_events("deal: hidden", "live.txt", 5)
    assert not events and error is not None and error.kind.value == "header"


# -- the rules language --------------------------------------------------------------


@pytest.mark.parametrize("path", sorted(RULES.glob("*.rules")), ids=lambda p: p.stem)
def test_what_the_table_is_shown_comes_from_the_rule_file(path: Path) -> None:
    spec = load_spec(path)
    literature = "history" in spec.options
    assert spec.shown is (Shown.LAST_ASK if literature else Shown.EVERY_EVENT)
    if literature:
        assert load_spec(path, {"history": "yes"}).shown is Shown.EVERY_EVENT


@pytest.mark.parametrize("path", sorted(RULES.glob("*.rules")), ids=lambda p: p.stem)
def test_every_game_can_be_played_live_to_its_end(tmp_path: Path, path: Path) -> None:
    spec = load_spec(path)
    players = 6 if 6 in spec.player_counts else min(spec.player_counts)
    lines = list(play_one(Engine(spec), players, 3, transcript=True, hidden=True).lines)
    start_at = lines.index("deal: hidden") + 1
    centre = next((line.split(":", 1)[1].strip() for line in lines[start_at:]
                   if line.startswith("centre:")), None)
    events = [line for line in lines[start_at:] if not line.startswith("centre:")]
    table = start(Seating(path.stem, PLAYER_NAMES[:players], centre=centre),
                  tmp_path / "live.txt")
    for number, line in enumerate(events):
        reply = table.handle(line)
        assert reply.line.startswith("accepted: "), (line, reply.line)
        assert table.prompt()
        if number % 25 == 0:  # what completion and 'legal' offer is well formed everywhere
            for first in candidates(table, "")[1][:2]:
                for second in candidates(table, first + " ")[1][:2]:
                    candidates(table, f"{first} {second} ")
            assert table.handle("legal").output
    if table.session.engine.forced_move(table.session.state) is not None:
        assert table.handle("done").line.startswith("done: ")
    assert table.session.state.over and "over" in table.prompt()
    verdict = check_file(table.journal.path)
    assert verdict.ok and verdict.state == table.session.describe()


# -- the prompt, through prompt_toolkit's pipe input --------------------------------


def test_a_whole_hidden_game_through_the_prompt(tmp_path: Path) -> None:
    header, events = hidden_game("go-fish", 3, 2)
    table = table_for(tmp_path)
    shown = prompt_through_pipe(table, "".join(line + "\r" for line in events), "done\r")
    accepted = [line for line in shown if line.startswith("accepted: ")]
    assert len(accepted) == len(events)
    assert accepted[-1].endswith("may lay down books just completed, or the hand ends ('done')")
    assert shown[-2].startswith("done: no more sets laid; game over: ")
    assert not table.refused
    verdict = check_file(table.journal.path)
    assert verdict.ok and verdict.events == len(events)
    original = check_text("\n".join([*header, *events]), "selfplay.txt")
    assert verdict.state == original.state == table.session.describe()


def test_a_refused_move_changes_nothing(tmp_path: Path) -> None:
    table = table_for(tmp_path)
    assert not table.handle("Ann asks Bob for 7").refused
    before = snapshot(table)
    for line in ("Cy asks Bob for 7", "Bob gives 7S 7S", "Ann asks Dan for 7", "Bob flies",
                 "hand 2", "Bob gives 8S", "Bob says maybe"):
        reply = table.handle(line)
        assert reply.refused and reply.line.endswith("; nothing changed"), reply.line
        assert snapshot(table) == before
    assert table.handle("accept").line == "nothing to accept: 'accept' follows a contradiction"
    assert snapshot(table) == before
    assert table.handle("Cy asks Bob for 7").line == (
        "refused, turn: Bob must answer Ann first; nothing changed")
    reply = table.handle("Bob gives 7S; Ann asks Ann for 9; Ann asks Cy for 7")
    assert reply.line == ("accepted: Bob gives 7S; Ann lays down any book just completed, "
                          "then asks again; refused, illegal: Ann "
                          "cannot ask Ann (the rest of the line was not played); nothing changed")
    assert table.journal.lines[-2:] == ["Ann asks Bob for 7", "Bob gives 7S"]
    shown = prompt_through_pipe(table, "Ann asks Bob for 3S\r")
    assert shown[0] == ("refused, illegal: in Go Fish a player asks for a rank, not a card: "
                        "ask for 3; nothing changed")
    assert shown[1] == "  Ann asks Bob for 3S\n  ^^^^^^^^^^^^^^^^^^^"
    assert table.journal.lines[-1] == "Bob gives 7S"


def test_a_contradiction_is_reported_with_its_lines_then_undone(tmp_path: Path) -> None:
    table = table_for(tmp_path)
    shown = prompt_through_pipe(
        table, "Ann asks Bob for 7\rBob says no\rAnn draws\r", "Bob asks Cy for 7\r", "undo\r",
        "Bob asks Cy for 5\r")
    assert shown[3].startswith("contradiction: Bob asked for 7, so Bob held a 7")
    assert "line 6: Bob said no to an ask for 7" in shown[3]
    assert "'accept' records it" in shown[3]
    proof = shown[4].splitlines()
    assert "  Bob asks Cy for 7" in proof[0]  # the typed line, with a caret
    assert "  line 6: Bob says no   (Bob said no to an ask for 7, so Bob held no 7)" in proof
    assert shown[5].startswith("dropped: Bob asks Cy for 7 (it was never recorded)")
    assert shown[6].startswith("accepted: Bob asks Cy for 5")
    lines = table.journal.lines
    assert lines[4:] == ["Ann asks Bob for 7", "Bob says no", "Ann draws", "Bob asks Cy for 5"]
    assert check_file(table.journal.path).ok


def test_an_accepted_contradiction_is_a_comment_and_the_referee_goes_on(tmp_path: Path) -> None:
    table = table_for(tmp_path)
    for line in ("Ann asks Bob for 7", "Bob says no", "Ann draws"):
        table.handle(line)
    assert table.handle("Bob asks Cy for 7").line.startswith("contradiction")
    assert table.prompt() == ("accept or undo the contradiction on Bob asks Cy for 7 "
                              "(a new event drops it)")
    assert table.handle("accept").line.startswith(
        "accepted by the table: Bob asks Cy for 7; Cy to answer Bob's ask for 7")
    assert table.handle("Cy says yes").line.startswith("refused")  # a rank: say how many
    assert not table.handle("Cy gives 1").refused
    assert table.journal.lines[7:] == [
        "Bob asks Cy for 7",
        "# accepted by the table: Bob asked for 7, so Bob held a 7; but no deal of the cards "
        "explains that together with the earlier events: line 6: Bob said no to an ask for 7, "
        "so Bob held no 7",
        "Cy gives 1"]
    verdict = check_file(table.journal.path)  # check still finds the contradiction
    assert not verdict.ok and verdict.error is not None
    assert verdict.error.kind.value == "contradiction" and verdict.error.span.line == 8
    table.journal.close()
    path = str(table.journal.path)
    again = CliRunner().invoke(main, ["play", "--resume", path], input="undo\nCy gives 2\n")
    assert again.exit_code == 0, again.output
    assert "took back: Cy gives 1; Cy to answer Bob's ask for 7" in again.stdout
    assert "accepted: Cy gives 2; " in again.stdout
    again = CliRunner().invoke(main, ["play", "--resume", path], input="undo\nundo\n")
    assert "took back: Bob asks Cy for 7" in again.stdout.splitlines()[1]
    assert table.journal.path.read_text().endswith("\nAnn draws\n")


def test_save_writes_the_transcript_so_far(tmp_path: Path) -> None:
    table = table_for(tmp_path)
    table.handle("Ann asks Bob for 7; Bob says no")
    copy = tmp_path / "copy.txt"
    assert table.handle(f"save {copy}").line == f"saved 6 lines in {copy}"
    assert copy.read_text() == table.journal.path.read_text()
    assert "saved already" in table.handle(f"save {table.journal.path}").line
    assert table.handle(f"save {tmp_path / 'no' / 'x.txt'}").line.startswith(
        "refused: cannot save")


# -- completion -----------------------------------------------------------------------


def test_completion_fits_the_moment(tmp_path: Path) -> None:
    table = table_for(tmp_path, me="Ann", hand="7S 7H 9D QC KD")
    # Bob and Cy may hold books from the deal (Ann's hand is known), and Ann asks first
    assert candidates(table, "") == ("", ["Ann", "Bob", "Cy", "status", "legal", "known",
                                          "last", "history", "save", "done", "help", "quit"])
    assert candidates(table, "Ann ") == ("", ["asks", ">", ":"])
    assert candidates(table, "Bob ") == ("", ["books"])
    assert candidates(table, "Ann asks ") == ("", ["Bob", "Cy"])
    assert candidates(table, "Ann asks B") == ("B", ["Bob"])
    assert candidates(table, "Ann asks Bob for ") == ("", ["7", "9", "Q", "K"])  # Ann's ranks
    assert candidates(table, "Ann > Cy q") == ("q", ["Q"])
    for line in ("Ann asks Bob for 7", "Bob says no", "Ann draws"):
        assert not table.handle(line).refused
    # Bob said no to sevens and drew nothing since: he may hold any rank but 7
    assert candidates(table, "Bob asks Ann for ")[1] == [
        "2", "3", "4", "5", "6", "8", "9", "10", "J", "Q", "K", "A"]
    assert candidates(table, "") == ("", ["Bob", "status", "legal", "known", "last",
                                          "history", "undo", "save", "help", "quit"])


def test_completion_of_sets_and_claims(tmp_path: Path) -> None:
    table = table_for(tmp_path, "literature", SIX)
    assert candidates(table, "Ann asks ") == ("", ["Bob", "Dee", "Fay"])  # opponents only
    assert candidates(table, "Ann claims high d") == ("high d", ["high diamonds"])
    assert candidates(table, "Ann claims high diamonds: ") == ("", ["Ann", "Cy", "Eve"])
    assert candidates(table, "Ann claims high diamonds: Cy 9D 10D JD QD ") == (
        "", ["KD", "AD", ","])
    assert candidates(table, "") == ("", ["Ann", "status", "legal", "last", "save", "help",
                                          "quit"])  # no history, no known


def test_tab_completes_at_the_prompt(tmp_path: Path) -> None:
    table = table_for(tmp_path, me="Ann", hand="7S 7H 9D QC KD")
    shown: list[str] = []
    steps = [("A\t", "Ann "), ("as\t", "Ann asks "), ("C\t", "Ann asks Cy "),
             ("for\t", "Ann asks Cy for "), ("Q\t", "Ann asks Cy for Q ")]
    with create_pipe_input() as typed:
        prompt = prompt_session(typed, DummyOutput())

        def feed() -> None:
            for keys, completed in steps:  # each Tab's completion lands before the next key
                typed.send_text(keys)
                ends = time.monotonic() + 20
                while prompt.default_buffer.text != completed and time.monotonic() < ends:
                    time.sleep(0.01)
            typed.send_text("\r")
            typed.close()

        feeder = threading.Thread(target=feed)
        feeder.start()
        run_prompt(table, prompt, shown.append)
        feeder.join()
    assert shown[0] == "accepted: Ann asks Cy for Q; Cy to answer Ann's ask for Q"


# -- Literature: the last ask only ------------------------------------------------


def test_literature_tells_the_table_the_last_ask_only(tmp_path: Path) -> None:
    _, events = hidden_game("literature", 6, 3)
    table = table_for(tmp_path, "literature", SIX)
    assert table.handle("last").line == "no ask yet"
    played = next(n for n in range(20, len(events)) if " asks " in events[n - 2])
    for line in events[:played]:
        assert not table.handle(line).refused, line
    asks = [i for i, line in enumerate(events[:played]) if " asks " in line]
    ask, answer = events[asks[-1]], events[asks[-1] + 1]
    assert table.handle("last").line == f"last ask: {ask}; {answer}"
    for command in ("history", "known"):
        reply = table.handle(command)
        assert reply.line.startswith("refused: in Literature the table is shown the last ask")
        assert "--option history=yes" in reply.line and not reply.output
    status = table.handle("status").output
    assert "cards" in status and "team" in status and ask not in status
    open_table = start(Seating("literature", SIX, options=(("history", "yes"),)),
                       tmp_path / "open.txt")
    for line in events[:played]:
        open_table.handle(line)
    history = open_table.handle("history").output
    assert f"{asks[0] + 6:>2}  {events[asks[0]]}" in history.splitlines()
    assert "may hold" in open_table.handle("known").output


# -- matches, open deals, notes ---------------------------------------------------


def test_a_hidden_match_hand_by_hand(tmp_path: Path) -> None:
    engine = Engine(load_spec(RULES / "go-fish.rules"))
    totals, lines = play_match(engine, 2, 0, 8, hidden=True)
    events = list(lines[lines.index("deal: hidden") + 1:])
    table = start(Seating("go-fish", PLAYER_NAMES[:2], target=8), tmp_path / "match.txt")
    reply = None
    for line in events:
        if line == "deal: hidden":
            continue
        reply = table.handle("hand" if line.startswith("hand ") else line)
        assert not reply.refused, (line, reply.line)
        if line == "hand 2":
            assert reply.line.startswith("accepted: hand 2 / deal: hidden; ")
    assert reply is not None and "match over after hand 2" in reply.line
    assert table.handle("hand").refused
    verdict = check_file(table.journal.path)
    assert verdict.ok and verdict.state is not None
    assert list(verdict.state["scores"].values()) == totals


def test_an_open_deal_fills_in_what_the_cards_decide(tmp_path: Path) -> None:
    table = table_for(tmp_path, deal="seed", seed=7)
    reply = table.handle("Bob asks Cy for 9")
    assert reply.refused
    first = table.prompt().split()[0]
    assert first == "Ann"
    reply = table.handle("Ann asks Bob for 2  # a hunch")
    assert table.journal.lines[-1] == "Ann asks Bob for 2  # a hunch"
    reply = table.handle("# a note for the file")
    assert reply.line == "noted" and table.journal.lines[-1] == "# a note for the file"
    verdict = check_file(table.journal.path)
    assert verdict.ok


def test_a_given_deal_from_a_file(tmp_path: Path) -> None:
    deal = tmp_path / "deal.txt"
    deal.write_text("hand Ann: 4C 4H 5C 3H JH\nhand Bob: 2D 8H 6D 9H 2C\n"
                    "hand Cy: JD 6C AH 7D 4S\nstock: 10S KC AD 7C QC JC 7H 5S 8D 10H 7S AC "
                    "KS 10C 4D 10D QS 5D 6H KH 2S 8C QD 2H KD 3D 5H 8S QH 9D 9S 9C 3C 6S 3S "
                    "AS JS\n")
    table = table_for(tmp_path, deal="given", given=deal, dealer="Cy")
    reply = table.handle("Ann asks Cy for 4; Ann asks Bob for J")
    assert reply.line == ("accepted: Ann asks Cy for 4; Cy to answer Ann's ask for 4 / Ann asks "
                          "Bob for J (the referee filled in first: Cy gives 4S); Bob to answer "
                          "Ann's ask for J")
    assert check_file(table.journal.path).ok


def _typed_line(table: LiveTable, rng: random.Random) -> str:
    """A line a hurried typist might enter: mostly what completion offers, word by word,
    now and then an undo, an accept, a 'done' or a false answer."""
    roll = rng.random()
    if roll < 0.06:
        return rng.choice(["undo", "accept", "done", "status", "legal", "last"])
    first = [w for w in candidates(table, "")[1] if w[0].isupper() or w in ("yes", "no")]
    if not first:
        return "done"
    line = rng.choice(first)
    for _ in range(12):
        next_words = candidates(table, line + " ")[1]
        if not next_words:
            break
        line += " " + rng.choice(next_words)
    return line.replace(" says no", " says yes") if roll > 0.95 else line


@pytest.mark.parametrize("game", ["go-fish", "authors", "literature", "diplomat"])
def test_whatever_is_typed_the_file_replays_to_the_same_game(tmp_path: Path, game: str) -> None:
    rng = random.Random(game)
    players = SIX[:4] if game == "literature" else THREE
    for run in range(3):
        path = tmp_path / f"{run}.txt"
        table = start(Seating(game, players, target=None if run else 3), path)
        for _ in range(120):
            table.handle(_typed_line(table, rng))
        state = table.session.describe()
        table.journal.close()
        again = resume(path, pytest.fail)
        assert again.session.describe() == state
        again.journal.close()
        verdict = check_file(path)
        assert verdict.ok or ACCEPTED_MARK in path.read_text(), verdict.error


# -- the command line: a pseudo-terminal, standard input, a kill -------------------


@contextmanager
def pty_play(args: list[str], cwd: Path) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    """``referee play`` in a pseudo-terminal: its master end, and the process."""
    master, slave = pty.openpty()
    env = dict(os.environ, TERM="xterm", PROMPT_TOOLKIT_NO_CPR="1", COLUMNS="120",
               LINES="40")
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 200, 0, 0))
    process = subprocess.Popen([sys.executable, "-m", "referee", "play", *args],
                               stdin=slave, stdout=slave, stderr=slave, env=env, cwd=cwd)
    os.close(slave)
    try:
        yield master, process
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        with suppress(OSError):  # closed already: the terminal was closed
            os.close(master)


class Screen:
    """What a program in a pseudo-terminal has written so far."""

    def __init__(self, master: int) -> None:
        self.master = master
        self.seen = b""

    def wait_for(self, token: bytes, count: int = 1, timeout: float = 20.0) -> None:
        ends = time.monotonic() + timeout
        while self.seen.count(token) < count:
            assert time.monotonic() < ends, self.seen[-600:].decode(errors="replace")
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if ready:
                try:
                    self.seen += os.read(self.master, 65536)
                except OSError:  # the program has ended
                    break
        assert self.seen.count(token) >= count, self.seen[-600:].decode(errors="replace")


def test_a_whole_hidden_game_in_a_pseudo_terminal(tmp_path: Path) -> None:
    _, events = hidden_game("go-fish", 6, 7)
    names = " ".join(PLAYER_NAMES[:6])
    with pty_play(["go-fish", "--players", names, "--out", "game.txt"],
                  tmp_path) as (master, process):
        screen = Screen(master)
        screen.wait_for(b"or Ann to ask>")
        os.write(master, b"Bob asks Ann for 7\r")
        screen.wait_for(b"refused, turn: it is Ann's turn, not Bob's")
        os.write(master, b"Ann as\t")
        screen.wait_for(b"Ann asks")
        os.write(master, b"\x15")  # Ctrl-U: clear the line
        for number, line in enumerate(events, start=1):
            os.write(master, line.encode() + b"\r")
            screen.wait_for(b"accepted: ", number)
        os.write(master, b"done\r")
        screen.wait_for(b"done: no more sets laid; game over: ")
        os.write(master, b"quit\r")
        assert process.wait(20) == 1  # one line was refused
    verdict = check_file(tmp_path / "game.txt")
    assert verdict.ok and verdict.events == len(events) and verdict.state is not None
    assert verdict.state["over"]


def test_ctrl_c_at_the_prompt_ends_with_130_and_loses_nothing(tmp_path: Path) -> None:
    with pty_play(["go-fish", "--players", "Ann Bob Cy", "--out", "game.txt"],
                  tmp_path) as (master, process):
        screen = Screen(master)
        screen.wait_for(b"or Ann to ask>")
        os.write(master, b"Ann asks Bob for 7\r")
        screen.wait_for(b"Bob to answer Ann's ask for 7>")
        os.write(master, b"\x03")
        assert process.wait(20) == 130
        screen.wait_for(b"--resume game.txt")
    assert (tmp_path / "game.txt").read_text().endswith("\nAnn asks Bob for 7\n")


def test_a_closed_terminal_loses_nothing(tmp_path: Path) -> None:
    with pty_play(["go-fish", "--players", "Ann Bob Cy", "--out", "game.txt"],
                  tmp_path) as (master, process):
        screen = Screen(master)
        screen.wait_for(b"or Ann to ask>")
        os.write(master, b"Ann asks Bob for 7\rBob says no\r")
        screen.wait_for(b"Ann to draw>")
        os.close(master)
        process.wait(20)  # the prompt finds its terminal gone and stops
    assert (tmp_path / "game.txt").read_text().endswith("\nAnn asks Bob for 7\nBob says no\n")


def test_killed_mid_game_then_resumed_loses_no_event(tmp_path: Path) -> None:
    header, events = hidden_game("go-fish", 3, 5)
    game = tmp_path / "game.txt"
    with subprocess.Popen(
            [sys.executable, "-m", "referee", "play", "go-fish", "--players", " ".join(THREE),
             "--out", str(game)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL) as process:
        assert process.stdin is not None and process.stdout is not None
        half = len(events) // 2
        for line in events[:half]:
            process.stdin.write(line.encode() + b"\n")
            process.stdin.flush()
            assert process.stdout.readline().startswith(b"accepted: ")
        process.send_signal(signal.SIGKILL)
        process.wait()
    with game.open("a") as file:
        file.write(events[half][:5])  # as if killed in the middle of a write
    done = subprocess.run(
        [sys.executable, "-m", "referee", "play", "--resume", str(game)],
        input="\n".join(events[half:]) + "\n", capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    cut = f"# cut short, not played: {events[half][:5]}"
    number = game.read_text().splitlines().index(cut) + 1
    assert f"is kept as a comment on line {number}: {cut!r}" in done.stderr
    assert done.stdout.count("accepted: ") == len(events) - half
    kept = game.read_text().split("\n\n", 1)[1].splitlines()
    assert kept == [*events[:half], cut, *events[half:]]
    verdict = check_file(game)
    assert verdict.ok and verdict.state == check_text("\n".join([*header, *events])).state


@pytest.mark.parametrize(("args", "says"), [
    ([], "name the game"),
    (["go-fish"], "name the players"),
    (["go-fish", "-p", "Ann Ann"], "two players are named 'Ann'"),
    (["go-fish", "-p", "Ann Bob", "--deal", "seed"], "--deal is 'hidden', 'seed N'"),
    (["go-fish", "-p", "Ann Bob", "--deal", "given", "nowhere.txt"], "nowhere.txt"),
    (["go-fish", "-p", "Ann Bob", "--me", "Ann"], "--me NAME and --hand CARDS go together"),
    (["go-fish", "-p", "Ann Bob", "--me", "Ann", "--hand", "ZZ"], "'ZZ' is not a card"),
    (["go-fish", "-p", "Ann Bob", "--deal", "seed", "3", "--centre", "7S"],
     "--me, --hand and --centre type what is known of a hidden deal"),
    (["chinese-fish", "-p", "Ann Bob"], "(face up: --centre CARDS)"),
    (["go-fish", "-p", "Ann Bob", "--dealer", "Ann\ndeal: seed 3"],
     "cannot hold a line break or '#'"),
    (["old-maid", "-p", "Ann Bob"], "no rule file named 'old-maid'"),
    (["go-fish", "-p", "Ann Bob", "-o", "fast"], "NAME=VALUE"),
    (["go-fish", "-p", "Ann Bob", "--resume", "x.txt"], "drop GAME, --players"),
    (["--resume", "missing.txt"], "missing.txt"),
])
def test_bad_usage_exits_2_with_one_clean_message(tmp_path: Path, args: list[str], says: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    out = ["--out", "out.txt"] if args[:1] != ["--resume"] and args else []
    result = CliRunner().invoke(main, ["play", *args, *out], input="")
    assert isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 2 and says in result.stderr, result.stderr
    assert not (tmp_path / "out.txt").exists()


def test_no_traceback_reaches_the_table(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "referee", "play", "go-fish", "-p", "Ann Ann"],
                          input="", capture_output=True, text=True, cwd=tmp_path, check=False)
    assert done.returncode == 2
    assert done.stderr == "usage: two players are named 'Ann' (in 'players: Ann Ann')\n"


def test_an_existing_file_is_never_overwritten(tmp_path: Path) -> None:
    game = tmp_path / "game.txt"
    game.write_text("mine\n")
    result = CliRunner().invoke(main, ["play", "go-fish", "-p", "Ann Bob", "--out", str(game)],
                                input="")
    assert result.exit_code == 2 and "--resume" in result.stderr
    assert game.read_text() == "mine\n"


def test_standard_input_refuses_a_line_that_is_not_utf8(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "referee", "play", "go-fish", "-p", "Ann Bob",
                           "--deal", "seed", "3", "--out", "g.txt"],
                          input=b"Ann asks Bob for \xff\nquit\n", capture_output=True,
                          cwd=tmp_path, check=False)
    assert done.returncode == 1
    assert done.stdout.startswith(b"refused, syntax: this line is not UTF-8 text")
    assert b"Traceback" not in done.stderr
