"""Files the referee writes, and the files it goes on with (issue 18): nothing that
exists is overwritten or written through a link unless ``--force`` says so;
``play --resume`` changes nothing until the file replays, and never drops a last line
without keeping it; every transcript written names its rule file so that it reads back."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from referee.authoring.simulate import play_one
from referee.cli.commands import main
from referee.engine.core import Engine
from referee.errors import RefereeError
from referee.language import cache
from referee.language.loader import load_spec
from referee.live.prompt import default_out
from referee.live.replies import CUT_MARK
from referee.live.start import Seating, resume, start
from referee.live.table import LiveTable
from referee.transcript.check import check_file, check_text
from referee.transcript.notation import read_transcript
from referee.transcript.writer import write_game

RULES = Path(__file__).parent.parent / "rules"
GO_FISH = RULES / "go-fish.rules"
THREE = ("Ann", "Bob", "Cy")
SECRET = "the victim's own text\n"


def run(*args: str, input: str = "") -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.stdout, result.stderr


def seeded_table(folder: Path, name: str = "live.txt") -> LiveTable:
    return start(Seating("go-fish", THREE, deal="seed", seed=4), folder / name)


def victim(folder: Path) -> Path:
    """A file that a planted link leads to, and that nothing may write."""
    path = folder / "victim.txt"
    path.write_text(SECRET)
    return path


def untouched(path: Path) -> bool:
    return path.read_text() == SECRET


# -- save ------------------------------------------------------------------------------


def test_save_never_overwrites_a_file_and_save_force_replaces_it(tmp_path: Path) -> None:
    table = seeded_table(tmp_path)
    copy = tmp_path / "copy.txt"
    copy.write_text(SECRET)
    reply = table.handle(f"save {copy}")
    assert reply.line == (f"refused: {copy} exists already: 'save --force {copy}' "
                          "replaces it")
    assert untouched(copy)
    assert table.handle(f"save --force {copy}").line.startswith(f"saved 4 lines in {copy}")
    assert copy.read_text() == table.journal.path.read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["copy.txt", "live.txt"]


@pytest.mark.parametrize("force", [False, True])
def test_save_never_writes_through_a_link(tmp_path: Path, force: bool) -> None:
    table = seeded_table(tmp_path)
    target = victim(tmp_path)
    link = tmp_path / "copy.txt"
    link.symlink_to(target)
    reply = table.handle(f"save {'--force ' if force else ''}{link}")
    assert untouched(target)
    if force:  # the link itself is replaced: what the user asked
        assert not link.is_symlink() and link.read_text() == table.journal.path.read_text()
    else:
        assert reply.line.startswith(f"refused: {link} exists already (a symbolic link)")
        assert link.is_symlink()


@pytest.mark.parametrize("force", [False, True])
def test_save_makes_no_temporary_file_a_link_can_be_planted_at(tmp_path: Path,
                                                               force: bool) -> None:
    table = seeded_table(tmp_path)
    target = victim(tmp_path)
    (tmp_path / ".copy.txt.saving").symlink_to(target)  # the old predictable name
    assert table.handle(f"save {'--force ' if force else ''}{tmp_path / 'copy.txt'}"
                        ).line.startswith("saved")
    assert untouched(target)
    assert (tmp_path / "copy.txt").read_text() == table.journal.path.read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        ".copy.txt.saving", "copy.txt", "live.txt", "victim.txt"]


@pytest.mark.parametrize("name", ["my game.txt", "game#2.txt", "a; b.txt"])
def test_save_takes_the_rest_of_the_line_as_the_file_name(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch,
                                                           name: str) -> None:
    monkeypatch.chdir(tmp_path)
    table = seeded_table(tmp_path)
    assert table.handle(f"save {name}").line == f"saved 4 lines in {name}"
    assert table.handle(f'save --force "{name}"').line == f"saved 4 lines in {name}"
    assert (tmp_path / name).read_text() == table.journal.path.read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([name, "live.txt"])


# -- play --out ------------------------------------------------------------------------


@pytest.mark.parametrize("planted", ["file", "link", "dangling link"])
def test_play_out_never_overwrites_nor_follows_a_link_without_force(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, planted: str) -> None:
    monkeypatch.chdir(tmp_path)
    target = victim(tmp_path)
    out = tmp_path / "game.txt"
    if planted == "file":
        out.write_text(SECRET)
    else:
        out.symlink_to(target if planted == "link" else tmp_path / "nowhere.txt")
    status, _, err = run("play", "go-fish", "-p", "Ann Bob", "--out", "game.txt")
    assert status == 2 and "game.txt exists already" in err and "--force" in err
    assert untouched(target) and not (tmp_path / "nowhere.txt").exists()
    assert (out.read_text() == SECRET) if planted == "file" else out.is_symlink()
    status, _, err = run("play", "go-fish", "-p", "Ann Bob", "--out", "game.txt", "--force",
                         input="Bob asks Ann for 7\n")
    assert status == 1, err  # Bob is not to ask: refused, the file is the new game's
    assert untouched(target) and not (tmp_path / "nowhere.txt").exists()
    assert not out.is_symlink() and out.read_text().startswith("game: go-fish\n")
    assert check_file(out).ok
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.txt", "victim.txt"]


def test_the_default_file_name_passes_over_a_planted_link(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("time.strftime", lambda _: "20250101-120000")
    Path("go-fish-20250101-120000.txt").symlink_to(tmp_path / "nowhere.txt")
    assert default_out("go-fish") == Path("go-fish-20250101-120000-2.txt")


# -- simulate --out and --plot ---------------------------------------------------------


def test_simulate_refuses_a_folder_holding_an_earlier_run_before_playing(
        tmp_path: Path) -> None:
    out = tmp_path / "games"
    assert run("simulate", "go-fish", "-p", "3", "-g", "3", "-s", "1", "--out", str(out))[0] == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    status, report, err = run("simulate", "go-fish", "-p", "3", "-g", "5", "--out", str(out))
    assert status == 2 and report == ""  # no game was played
    assert err.startswith(f"usage: {out / 'go-fish-0001.txt'} exists already: ")
    assert "--force" in err
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    status, report, _ = run("simulate", "go-fish", "-p", "3", "-g", "5", "--out", str(out),
                            "--force")
    assert status == 0 and report
    assert sorted(p.name for p in out.iterdir()) == [f"go-fish-000{n}.txt" for n in range(1, 6)]
    assert all(check_file(p).ok for p in out.iterdir())


def test_simulate_counts_only_this_runs_files_as_earlier_ones(tmp_path: Path) -> None:
    for name in ("go-fish-0004.txt", "go-fish-1.txt", "authors-0001.txt", "go-fish-0001.md"):
        (tmp_path / name).write_text(SECRET)
    status, _, err = run("simulate", "go-fish", "-p", "3", "-g", "3", "--out", str(tmp_path))
    assert status == 0, err
    assert all(untouched(tmp_path / name) for name in (
        "go-fish-0004.txt", "go-fish-1.txt", "authors-0001.txt", "go-fish-0001.md"))


def test_simulate_never_writes_through_a_link_in_the_folder(tmp_path: Path) -> None:
    target = victim(tmp_path)
    out = tmp_path / "games"
    out.mkdir()
    (out / "go-fish-0002.txt").symlink_to(target)
    status, _, err = run("simulate", "go-fish", "-p", "3", "-g", "3", "--out", str(out))
    assert status == 2 and f"{out / 'go-fish-0002.txt'} exists already (a symbolic link)" in err
    assert untouched(target) and list(out.iterdir()) == [out / "go-fish-0002.txt"]
    assert run("simulate", "go-fish", "-p", "3", "-g", "3", "--out", str(out), "--force")[0] == 0
    assert untouched(target) and not (out / "go-fish-0002.txt").is_symlink()
    assert all(check_file(p).ok for p in out.iterdir())


def test_simulate_into_a_link_that_leads_nowhere_says_so_and_makes_nothing(
        tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.symlink_to(tmp_path / "nowhere")
    status, out, err = run("simulate", "go-fish", "-p", "2", "-g", "1", "--out", str(folder))
    assert status == 2 and out == ""
    assert err == (f"usage: cannot make the folder {folder}: it is a symbolic link that "
                   "leads nowhere; make the folder it names, or name another with --out\n")
    assert not (tmp_path / "nowhere").exists()


@pytest.mark.parametrize("planted", ["file", "link"])
def test_simulate_plot_never_overwrites_nor_follows_a_link(tmp_path: Path,
                                                           planted: str) -> None:
    pytest.importorskip("matplotlib")
    target = victim(tmp_path)
    plot = tmp_path / "plot.svg"
    if planted == "file":
        plot.write_text(SECRET)
    else:
        plot.symlink_to(target)
    status, report, err = run("simulate", "go-fish", "-p", "3", "-g", "3", "--plot", str(plot))
    assert status == 2 and report == "" and f"{plot} exists already" in err
    assert untouched(target) and (plot.is_symlink() or untouched(plot))
    assert run("simulate", "go-fish", "-p", "3", "-g", "3", "--plot", str(plot),
               "--force")[0] == 0
    assert untouched(target) and not plot.is_symlink()
    assert plot.read_text().lstrip().startswith("<?xml")


# -- the compiled-rules cache ----------------------------------------------------------


def test_the_cache_writes_no_temporary_file_through_a_planted_link(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)
    monkeypatch.setenv("REFEREE_CACHE_DIR", str(folder))
    cache.folder.cache_clear()
    try:
        target = victim(tmp_path)
        (folder / f".entry.{os.getpid()}.tmp").symlink_to(target)  # the old predictable name
        cache.store("entry", {"kept": 1})
        assert untouched(target)
        assert cache.load("entry") == {"kept": 1}
        assert sorted(p.name for p in folder.iterdir()) == [f".entry.{os.getpid()}.tmp",
                                                            "entry.pickle"]
    finally:
        cache.folder.cache_clear()


# -- play --resume ---------------------------------------------------------------------


def stamp(path: Path) -> tuple[bytes, int]:
    return path.read_bytes(), path.stat().st_mtime_ns


def resume_warnings(path: Path) -> tuple[LiveTable, list[str]]:
    warnings: list[str] = []
    return resume(path, warnings.append), warnings


@pytest.mark.parametrize(("text", "says"), [
    (b"# Notes\n\nline two\nthe last line", "it is not a transcript"),
    (b"# Notes\nthe last line\n", "it is not a transcript"),
    (b"", "it is not a transcript"),
    (b"game: go-fish\nplayers: Ann Bob\ndeal: seed 3\n\nBob asks Ann for 3\nAnn asks B",
     "it is Ann's turn, not Bob's"),
    (b"game: go-fish\nplayers: Ann Bob\ndeal: se", "the deal is 'seed N', 'given' or"),
])
def test_a_file_that_does_not_replay_is_refused_and_left_as_it_was(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: bytes, says: str) -> None:
    monkeypatch.chdir(tmp_path)
    notes = tmp_path / "notes.md"
    notes.write_bytes(text)
    os.utime(notes, ns=(1_000_000_000, 1_000_000_000))
    before = stamp(notes)
    status, _, err = run("play", "--resume", "notes.md")
    assert status == 1 and says in err and "Traceback" not in err
    assert stamp(notes) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.md"]


def test_resume_refuses_a_link_and_changes_nothing(tmp_path: Path) -> None:
    table = seeded_table(tmp_path)
    table.journal.close()
    with table.journal.path.open("a") as file:
        file.write("Ann asks B")  # a line a resume would otherwise rewrite
    before = stamp(table.journal.path)
    link = tmp_path / "link.txt"
    link.symlink_to(table.journal.path)
    status, _, err = run("play", "--resume", str(link))
    assert status == 2 and "is a symbolic link" in err
    assert stamp(table.journal.path) == before and link.is_symlink()


def played_journal(folder: Path) -> tuple[Path, list[str]]:
    """A live game of a few events, its file closed; the file and its event lines."""
    table = seeded_table(folder)
    events = ["Ann asks Bob for 9", "Bob says no", "Ann draws", "Bob asks Cy for 6",
              "Cy says no"]
    for line in events:
        assert not table.handle(line).refused, line
    table.journal.close()
    return table.journal.path, table.journal.lines


def test_a_line_cut_by_a_kill_is_kept_as_a_comment_and_the_game_goes_on(
        tmp_path: Path) -> None:
    path, lines = played_journal(tmp_path)
    data = path.read_bytes()
    path.write_bytes(data[:-4])  # killed in the middle of writing 'Cy says no'
    path.chmod(0o600)
    table, warnings = resume_warnings(path)
    comment = f"{CUT_MARK} Cy says"
    assert warnings == [
        f"{path}:{len(lines)}: the last line, 'Cy says', has no line break and does not read "
        "(syntax: an answer reads 'Bob says no' or 'Bob says yes'): cut short by a kill, it "
        f"is not played, and is kept as a comment on line {len(lines)}: {comment!r}"]
    assert path.read_bytes() == data[:-11] + comment.encode() + b"\n"
    assert path.stat().st_mode & 0o777 == 0o600
    assert table.prompt() == "Cy to answer Bob's ask for 6"
    assert not table.handle("Cy says no").refused
    table.journal.close()
    assert path.read_text().splitlines()[-2:] == [comment, "Cy says no"]
    again = check_file(path)
    assert again.ok and again.state == check_text("".join(f"{line}\n" for line in lines)).state


def test_a_character_cut_in_two_is_kept_as_far_as_it_reads(tmp_path: Path) -> None:
    path, _ = played_journal(tmp_path)
    data = path.read_bytes()
    path.write_bytes(data + "# Café".encode()[:-1])  # the é cut after its first byte
    table, warnings = resume_warnings(path)
    assert "does not read (syntax: this line is not UTF-8 text)" in warnings[0]
    assert path.read_bytes() == data + f"{CUT_MARK} # Caf\ufffd\n".encode()
    assert table.prompt() == "Bob to draw"


def test_a_last_line_typed_without_a_line_break_is_played_and_given_one(
        tmp_path: Path) -> None:
    path, lines = played_journal(tmp_path)
    data = path.read_bytes()
    path.write_bytes(data + b"Bob draws  # typed by hand")
    table, warnings = resume_warnings(path)
    assert warnings == [
        f"{path}:{len(lines) + 1}: the last line, 'Bob draws  # typed by hand', had no line "
        "break; it reads, so it is taken as typed and given one ('undo' takes its event back "
        "if it was cut short)"]
    assert path.read_bytes() == data + b"Bob draws  # typed by hand\n"
    assert table.prompt() == "Cy to ask"
    assert not table.handle("Cy asks Ann for Q").refused
    assert path.read_text().endswith("# typed by hand\nCy asks Ann for Q\n")


def test_a_note_typed_last_without_a_line_break_is_given_one(tmp_path: Path) -> None:
    path, _ = played_journal(tmp_path)
    data = path.read_bytes()
    path.write_bytes(data + b"# tea break")
    _, warnings = resume_warnings(path)
    assert warnings[0].endswith("it reads, so it is taken as typed and given one")
    assert path.read_bytes() == data + b"# tea break\n"


def test_a_cut_line_that_reads_as_a_shorter_event_is_played_and_can_be_taken_back(
        tmp_path: Path) -> None:
    engine = Engine(load_spec(GO_FISH))
    lines = list(play_one(engine, 2, 1, transcript=True).lines)
    draw = next(n for n, line in enumerate(lines) if line.startswith("Ann draws "))
    assert lines[draw] == "Ann draws 5D"
    path = tmp_path / "game.txt"
    path.write_text("\n".join(lines[:draw + 1]) + "\n")
    whole = check_file(path).state
    path.write_text("\n".join([*lines[:draw], "Ann draws"]))  # ' 5D' lost in a kill
    table, warnings = resume_warnings(path)
    assert "the last line, 'Ann draws', had no line break" in warnings[0]
    assert "'undo' takes its event back" in warnings[0]
    assert table.session.describe() == whole  # an open deal: the same draw
    assert table.handle("undo").line.startswith("took back: Ann draws")
    assert path.read_text() == "\n".join(lines[:draw]) + "\n"


def test_undo_after_resume_cuts_a_file_with_a_byte_order_mark_in_the_right_place(
        tmp_path: Path) -> None:
    path, _ = played_journal(tmp_path)
    data = b"\xef\xbb\xbf" + path.read_bytes()
    path.write_bytes(data)
    table, warnings = resume_warnings(path)
    assert warnings == []
    assert not table.handle("Bob draws").refused
    assert table.handle("undo").line.startswith("took back: Bob draws")
    assert table.handle("undo").line.startswith("took back: Cy says no")
    table.journal.close()
    assert path.read_bytes() == data[:data.rindex(b"Cy says no")]


def test_a_file_with_cr_lf_line_breaks_goes_on_with_them(tmp_path: Path) -> None:
    path, lines = played_journal(tmp_path)
    data = path.read_bytes().replace(b"\n", b"\r\n")
    path.write_bytes(data)
    table, warnings = resume_warnings(path)
    assert warnings == []
    assert table.journal.lines == lines  # no carriage return in what is shown
    assert table.handle("undo").line == "took back: Cy says no; Cy to answer Bob's ask for 6"
    assert table.handle("history").output.splitlines()[-1] == "8  Bob asks Cy for 6"
    assert not table.handle("Cy says no").refused
    assert not table.handle("Bob draws").refused
    table.journal.close()
    written = path.read_bytes()
    assert written.startswith(data) and written[len(data):].startswith(b"Bob draws")
    assert b"\n" not in written.replace(b"\r\n", b"")  # every line ends as the file's did
    assert check_file(path).ok


def test_a_file_with_classic_mac_line_ends_is_checked_but_not_resumed(tmp_path: Path) -> None:
    """``check`` reads ``\\r`` alone as a line end in a file without ``\\n``; a table
    that went on writing it would mix line ends (and the file would then read as one
    line), so ``--resume`` refuses it and leaves it as it was."""
    path, _ = played_journal(tmp_path)
    data = path.read_bytes().replace(b"\n", b"\r")
    path.write_bytes(data)
    assert check_file(path).ok
    with pytest.raises(RefereeError) as refused:
        resume_warnings(path)
    assert "classic Mac OS" in refused.value.message
    assert refused.value.span is not None and refused.value.span.line == 1
    assert path.read_bytes() == data


@pytest.mark.parametrize(("last", "written"), [
    (b"Bob draws", b"Bob draws\r\n"),  # typed by hand in a CR LF file
    (b"Bob draws\r", b"Bob draws\r\n"),  # the line feed alone lost
    (b"Bob dr", b"# cut short, not played: Bob dr\r\n"),
])
def test_a_last_line_of_a_cr_lf_file_ends_as_the_others_do(tmp_path: Path, last: bytes,
                                                           written: bytes) -> None:
    path, _ = played_journal(tmp_path)
    data = path.read_bytes().replace(b"\n", b"\r\n")
    path.write_bytes(data + last)
    table, warnings = resume_warnings(path)
    assert len(warnings) == 1
    assert path.read_bytes() == data + written
    table.journal.close()
    assert check_file(path).ok


def test_a_header_line_typed_last_is_no_event_to_take_back(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    path.write_bytes(b"game: go-fish\nplayers: Ann Bob")
    table, warnings = resume_warnings(path)
    assert warnings == [f"{path}:2: the last line, 'players: Ann Bob', had no line break; "
                        "it reads, so it is taken as typed and given one"]
    assert table.handle("undo").line == "nothing to take back"
    table.journal.close()
    assert path.read_bytes() == b"game: go-fish\nplayers: Ann Bob\n"


def test_a_file_that_replays_is_not_written_on_resume(tmp_path: Path) -> None:
    path, _ = played_journal(tmp_path)
    os.utime(path, ns=(1_000_000_000, 1_000_000_000))
    before = stamp(path)
    table, warnings = resume_warnings(path)
    table.journal.close()
    assert warnings == [] and stamp(path) == before


# -- the rule file a written transcript names -------------------------------------------


@given(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\0")))
def test_any_rule_path_without_a_line_break_reads_back_as_written(name: str) -> None:
    line = write_game(name)
    transcript = read_transcript(f"{line}  # a note\nplayers: Ann Bob\n", "t.txt")
    assert transcript.error is None
    game = transcript.headers[0]
    assert game.key == "game" and [t.text for t in game.values] == [name]


@pytest.mark.parametrize("line", ["game: go-fish", "game:go-fish", "GAME : go-fish  # mine",
                                  "game: ./rules/x.rules", "game: rules\\x.rules"])
def test_every_earlier_game_line_reads_as_before(line: str) -> None:
    transcript = read_transcript(f"{line}\n", "t.txt")
    assert transcript.error is None
    assert [t.text for t in transcript.headers[0].values] == [
        line.split(":", 1)[1].split("#")[0].strip()]


@pytest.mark.parametrize(("line", "column", "says"), [
    ('game: "go fish.rules', 7, "the quoted path has no closing '\"'"),
    ('game: "go\\n.rules"', 10, "only \\\\ and \\\" are escapes"),
    ('game: "a.rules" b', 17, "after the quoted path only a comment may follow"),
    ("game: go-fish#v2.rules", 14, "'#' starts a comment, so this names 'go-fish', not "
     "'go-fish#v2.rules': a path holding '#' is written in quotes"),
])
def test_a_bad_quoted_game_line_is_an_error_at_its_place(line: str, column: int,
                                                         says: str) -> None:
    verdict = check_text(f"{line}\nplayers: Ann Bob\n", "t.txt")
    assert verdict.error is not None and says in verdict.error.message
    assert verdict.error.span is not None
    assert (verdict.error.span.line, verdict.error.span.column) == (1, column)


def test_a_path_cut_by_a_comment_never_falls_back_to_a_bundled_file() -> None:
    for line in ("game: ./go-fish#v2.rules", "game: go-fish#v2.rules"):
        verdict = check_text(f"{line}\nplayers: Ann Bob\ndeal: seed 1\n", "t.txt")
        assert not verdict.ok and verdict.game is None, line


PATHS = ["go fish.rules", "go-fish#v2.rules", "a;b.rules", 'say "hi".rules',
         "back\\slash.rules", "co:lon.rules", "ünï çødé.rules", "sub dir/x,y?.rules"]


@pytest.mark.parametrize("name", PATHS)
def test_every_transcript_written_names_its_rule_file_so_that_it_checks_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    monkeypatch.chdir(tmp_path)
    Path(name).parent.mkdir(exist_ok=True)
    shutil.copy(GO_FISH, name)
    ref = f"./{name}"
    status, _, err = run("simulate", ref, "-p", "3", "-g", "2", "--out", "games")
    assert status == 0, err
    written = sorted(Path("games").iterdir())
    status, _, err = run("play", ref, "-p", "Ann Bob", "--deal", "seed", "2", "--out",
                         "live.txt", input="Ann asks Bob for 2\nBob asks Ann for 2\n")
    assert status == 1, err  # one ask is refused, one accepted
    status, text, err = run("format", str(written[0]))
    assert status == 0, err
    Path("formatted.txt").write_text(text + "\n")
    for path in [*written, Path("live.txt"), Path("formatted.txt")]:
        status, out, err = run("check", str(path))
        assert status == 0 and ": legal, " in out, (path, out, err)
        assert read_transcript(path.read_text(), str(path)).headers[0].values[0].text in (
            name, ref)


def test_a_rule_path_with_a_line_break_is_refused_before_anything_is_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copy(GO_FISH, "two\nlines.rules")
    status, report, err = run("simulate", "two\nlines.rules", "-p", "3", "-g", "2",
                              "--out", "games")
    assert status == 2 and report == "" and "holds a line break" in err
    status, _, err = run("play", "two\nlines.rules", "-p", "Ann Bob", "--out", "g.txt")
    assert status == 2 and "holds a line break" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["two\nlines.rules"]
