"""What the referee says of a game: what it waits for and how it ended (in the same
words at a live table and in ``referee check``'s report), what an event did, the last
ask and its answer, and the state of the game as a table.

Everything here reads a :class:`~referee.transcript.session.Session` and changes nothing. rich is
imported only to draw tables: a check's report needs none.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

from referee.engine.moves import (
    Answer,
    Ask,
    Draw,
    EndLaying,
    Give,
    Move,
    NothingLaid,
    Question,
    Refuse,
)
from referee.engine.state import AfterLay, GameState, Phase
from referee.engine.wording import describe_question
from referee.language.spec import Handover
from referee.transcript.session import Session
from referee.transcript.writer import format_move
from referee.words import counted

if TYPE_CHECKING:
    from rich.table import Table


def joined(words: list[str], last: str = "or") -> str:
    """``a``, ``a or b``, ``a, b or c``.

    >>> joined(["claim", "lay down", "ask"])
    'claim, lay down or ask'
    """
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


def awaited(session: Session) -> str:
    """What the game waits for now, as the prompt shows it: ``Ann to ask``, ``Bob to
    answer Ann's ask for 7H``, ``Ann to draw``, ``hand 1 over: ...``."""
    state = session.state
    if not state.over:
        return waiting(session, state)
    if session.match_over():
        return ending(session)
    return f"{ending(session)}: 'hand' deals hand {session.hand + 1}"


def standing(session: Session, described: dict[str, Any] | None = None) -> str:
    """The game's state in one line, as ``referee check`` reports it: what the game
    waits for, in the words of :func:`waiting`, and the scores; or how it ended, in the
    words of :func:`ending`. ``described``: the session's :meth:`~Session.describe`, if
    made already."""
    state = session.state
    game = session.game
    described = described or session.describe()
    if state.over:
        if described["over"] or game.target is None:
            return ending(session, described)
        return f"{ending(session, described)}: the next starts with 'hand {session.hand + 1}'"
    scores = scores_text(session, described)
    if game.target is None:
        return f"game not over: {waiting(session, state)}; scores {scores}"
    return (f"match not over, hand {session.hand}: {waiting(session, state)}; totals {scores} "
            f"(target {game.target})")


def ending(session: Session, described: dict[str, Any] | None = None) -> str:
    """How the game ended (``game over: Ann won; scores ...``), the match, or a hand of
    a match not yet over: every front end words the end with this."""
    described = described or session.describe()
    scores = scores_text(session, described)
    if session.game.target is None:
        return f"game over: {who_won(session, described)}; scores {scores}"
    if described["over"]:
        return (f"match over after hand {session.hand}: {who_won(session, described)}; "
                f"totals {scores}")
    return f"hand {session.hand} over; totals {scores} (target {session.game.target})"


def who_won(session: Session, described: dict[str, Any]) -> str:
    """Who won, as :meth:`Session.describe` says: one winner, a shared win, or a draw
    (every side tied)."""
    return outcome_words([side_name(session, side) for side in described["winners"]],
                         len(described["scores"]))


def outcome_words(winners: list[str], sides: int) -> str:
    """The words for ``winners`` of ``sides`` sides.

    >>> outcome_words(["Ann"], 3), outcome_words(["Ann", "Cy"], 3)
    ('Ann won', 'Ann and Cy tied and share the win')
    >>> outcome_words(["team 1", "team 2"], 2), outcome_words([], 2)
    ('a draw: team 1 and team 2 tied', 'nobody won')
    """
    if not winners:
        return "nobody won"
    if len(winners) == 1:
        return f"{winners[0]} won"
    tied = joined(winners, "and")
    return f"a draw: {tied} tied" if len(winners) == sides else f"{tied} tied and share the win"


def scores_text(session: Session, described: dict[str, Any]) -> str:
    """``Ann 2, Bob 0`` or ``team 1 3, team 2 1``: the scores of ``described`` (match
    totals in a match)."""
    return ", ".join(f"{side_name(session, side)} {score}"
                     for side, score in described["scores"].items())


def side_name(session: Session, side: str) -> str:
    """A side as the referee names it: a player, or ``team 1`` in a team game."""
    return f"team {side}" if session.game.spec.teams else side


def waiting(session: Session, state: GameState) -> str:
    """What the game waits for in ``state`` (a game not over)."""
    engine, names = session.engine, state.players
    who = names[state.turn]
    phase = state.phase
    if phase is Phase.ANSWER:
        if state.questioning is not None:
            question = state.questioning
            return (f"{names[question.target]} to answer {who}'s question: "
                    f"{describe_question(question)}?")
        ask = state.asking
        assert ask is not None
        lay_out = engine.spec.ask.handover is Handover.TO_CENTRE
        what = f"ask to lay out {ask.card or ask.rank}" if lay_out else (
            f"ask for {ask.card or ask.rank}")
        return f"{names[ask.target]} to answer {who}'s {what}"
    if engine.awaits_draw(state):
        return f"{who} to draw"
    if phase is Phase.TURN_UP:
        count = engine.turn_up_due(state)
        return f"{counted(count, 'card')} to turn up to the centre"
    if phase is Phase.PASS:
        return f"{who} to pass the turn to {joined([names[s] for s in engine.pass_targets(state)])}"
    if phase is Phase.SHOW:
        claim = state.showing
        assert claim is not None
        unshown = " ".join(engine.unshown(state))
        return (f"shows due for {names[claim.player]}'s claim of {claim.set_name}: "
                f"{unshown} still to show")
    if phase is Phase.LAY:
        seats = sorted(state.laying) or [state.turn]
        layers = "anyone" if len(seats) == len(names) > 2 else joined([names[s] for s in seats])
        held = "held from the deal" if state.after_lay is AfterLay.DEAL else "just completed"
        noun = set_word(session) + "s"
        after = state.copy()
        engine.apply(after, EndLaying(state.turn))
        then = waiting(session, after) if not after.over else "the hand ends ('done')"
        refill = ""
        if engine.replacements_due(state):
            dealer = names[state.dealer]
            refill = (f"{dealer} may draw the cards that replace {joined(list(state.refill_open))} "
                      "(laid from the deal); ")
        return f"{refill}{layers} may lay down {noun} {held}, or {then}"
    if state.unsure is not None:
        after = state.copy()
        engine.apply(after, NothingLaid(state.unsure))
        then = waiting(session, after) if not after.over else "the hand ends ('done')"
        return f"{who} to lay down a {set_word(session)} if {who} holds one, or {then}"
    return f"{who} to {joined(own_moves(session, state))}"


def own_moves(session: Session, state: GameState) -> list[str]:
    """The kinds of move the player in turn may make: ``claim``, ``lay down``, ``ask``,
    ``question``, ``play`` (lay-downs only when the known cards show a whole set)."""
    engine = session.engine
    spec, seat = engine.spec, state.turn
    moves = []
    if spec.claims is not None:
        moves.append("claim")
    if engine.lay_downs(state):
        moves.append("lay down")
    whom = engine.targets(state, seat) if spec.has_asks else []
    if whom:
        moves.append("ask")
    if whom and spec.questions:
        moves.append("question")
    if spec.plays:
        moves.append("play")
    return moves or ["move"]


def did(session: Session, played_before: int, notes_before: int) -> str:
    """What the event just accepted did: its line, the moves the referee filled in
    before it, what the rules decided (claims), and what follows (``Bob gives 7H; Ann
    asks again``)."""
    record = session.kept
    names = record.players
    played = record.entries(played_before)
    move = played[-1]
    parts = [move if isinstance(move, str) else _line(session, move)]
    filled = [_line(session, m) for m in played[:-1]
              if not isinstance(m, str | EndLaying | NothingLaid)]
    if filled:
        parts[0] += f" (the referee filled in first: {', '.join(filled)})"
    parts += [text for _, text in session.notes[notes_before:]]
    state = session.state
    ask = state.asking
    again = isinstance(move, Give) or (isinstance(move, Draw) and state.drawn is not None)
    after = state
    if again and state.phase is Phase.LAY:
        after = state.copy()
        session.engine.apply(after, EndLaying(state.turn))
    if (again and not after.over and after.phase is Phase.ASK and ask is not None
            and after.turn == ask.player):
        asker = names[ask.player]
        parts.append(f"{asker} lays down any {set_word(session)} just completed, then asks "
                     "again" if after is not state else f"{asker} asks again")
    else:
        parts.append(awaited(session))
    return "; ".join(parts)


def set_word(session: Session) -> str:
    """``book`` where every set is a book, else ``set``."""
    return "book" if all(s.kind == "book" for s in session.engine.spec.sets) else "set"


def _line(session: Session, move: Move) -> str:
    return format_move(move, session.kept.players, lay_out=session.kept.lay_out)


def last_ask(session: Session) -> str:
    """The last ask (or question) of this hand and its answer: in Literature, all the
    table may be told of the asks."""
    played = session.kept.entries()
    for index in range(len(played) - 1, -1, -1):
        entry = played[index]
        if isinstance(entry, str):
            break  # a new hand's lines: no ask in this hand yet
        if isinstance(entry, Ask | Question):
            answer = next((m for m in played[index + 1:]
                           if isinstance(m, Give | Refuse | Answer)), None)
            said = _line(session, answer) if answer is not None else "no answer yet"
            return f"last ask: {_line(session, entry)}; {said}"
    return f"no ask yet in hand {session.hand}" if session.game.target else "no ask yet"


def status_tables(session: Session) -> list[Table]:
    """Hand counts, sets and scores, and whose turn: the public state of the game."""
    from rich.table import Table  # only tables need rich

    from referee.live.display import cell  # rich as well

    described = session.describe()
    state = session.state
    game = session.game
    teams = bool(game.spec.teams)
    players = Table(title=cell(game.spec.title), title_justify="left")
    players.add_column("player", style="bold")
    if teams:
        players.add_column("team")
    players.add_column("cards", justify="right")
    if not teams:
        players.add_column("sets")
        players.add_column("score", justify="right")
    moving = session.engine.current_player(state)  # None once over
    for seat, name in enumerate(state.players):
        row = [name + (" *" if seat == moving else "")]
        if teams:
            row.append(game.team_names[game.teams[seat]])
        row.append(str(described["hands"][name]))
        if not teams:
            row += [" ".join(described["sets"][name]) or "-", str(described["scores"][name])]
        players.add_row(*map(cell, row))
    notes = []
    if "stock" in described or state.stock:
        notes.append(f"stock: {len(state.stock)}")
    if state.centre:
        notes.append(f"centre: {' '.join(state.centre)}")
    if game.target is not None:
        notes.append(f"hand {session.hand}, match to {game.target} (scores are match totals)")
    if described.get("void"):
        notes.append(f"void: {', '.join(described['void'])}")
    if notes:
        players.caption = cell("; ".join(notes))
        players.caption_justify = "left"
    if not teams:
        return [players]
    sides = Table(title="teams", title_justify="left")
    sides.add_column("team", style="bold")
    sides.add_column("players")
    sides.add_column("sets")
    sides.add_column("score", justify="right")
    for index, team in enumerate(game.team_names):
        members = [n for s, n in enumerate(state.players) if game.teams[s] == index]
        sides.add_row(*map(cell, (team, " ".join(members),
                                  ", ".join(described["sets"][team]) or "-",
                                  str(described["scores"][team]))))
    return [players, sides]


def rendered(*tables: Table, width: int = 100) -> str:
    """Tables as plain text, for a terminal or a pipe alike."""
    from rich.console import Console

    buffer = io.StringIO()
    console = Console(file=buffer, width=width, color_system=None, force_terminal=False,
                      soft_wrap=False, markup=False, emoji=False, highlight=False)
    for table in tables:
        console.print(table)
    return "\n".join(line.rstrip() for line in buffer.getvalue().rstrip("\n").split("\n"))
