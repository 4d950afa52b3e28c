"""Self-play: legal games through the engine, each seat choosing by its policy (random
by default, referee/authoring/policies.py), optionally as transcripts."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator, Sequence
from pathlib import Path

from referee import files
from referee.authoring.policies import RANDOM, make_policies
from referee.authoring.selfplay import random_move
from referee.engine.core import Engine, Result
from referee.engine.moves import Play
from referee.engine.state import PHASE_OVER, GameState
from referee.errors import Kind, RefereeError
from referee.files import exists_message
from referee.language.rulefiles import rule_reference
from referee.language.spec import HANDOVER_TO_CENTRE
from referee.reading import is_digits
from referee.transcript.writer import format_move, write_deal, write_table
from referee.values import frozen

DEFAULT_MAX_MOVES = 20_000
PLAYER_NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo",
                "Kit", "Lu", "Max", "Ned", "Olga", "Pip")


@frozen
class PlayedGame:
    """One self-played game: its result, how many moves, and its transcript lines; how
    many sets were won and made void; whether it stopped with no legal move while not
    over, and whether it ended only because nobody could move (no ``end:`` held)."""

    result: Result
    moves: int
    lines: tuple[str, ...]
    sets: int = 0
    void: int = 0
    stopped: bool = False
    stalled: bool = False
    lead: Lead | None = None


@frozen
class Lead:
    """How close a game was: how often the lead passed from one side to another, and
    the side leading alone half-way through its moves (None: nobody led alone)."""

    changes: int
    halfway: int | None


@frozen
class PlayedMatch:
    """One self-played match: each side's total, the hands and moves it took, whether a
    side reached the target, the sets won and made void over all hands, and its
    transcript lines."""

    totals: tuple[int, ...]
    hands: int
    moves: int
    over: bool
    sets: int
    void: int
    stopped: bool
    stalled: bool
    lines: tuple[str, ...]


def play_one(
    engine: Engine, players: int, seed: int, *, transcript: bool = False,
    max_moves: int = DEFAULT_MAX_MOVES, hidden: bool = False,
    policies: Sequence[str] = (),
) -> PlayedGame:
    """Play one game, the deal shuffled with ``seed`` (a whole match, when the rule file
    names a target), each seat choosing by its policy (``policies``, by seat; random
    when empty); with ``hidden``, its transcript shows only what the table saw
    (``deal: hidden``)."""
    if engine.spec.match_target is not None:
        match = play_match_record(engine, players, seed, engine.spec.match_target,
                                  hidden=hidden, transcript=transcript, max_moves=max_moves,
                                  in_header=False, policies=policies)
        best = max(match.totals)
        winners = (tuple(side for side, total in enumerate(match.totals) if total == best)
                   if match.over else ())
        return PlayedGame(Result(match.over, match.totals, winners), match.moves, match.lines,
                          sets=match.sets, void=match.void, stopped=match.stopped,
                          stalled=match.stalled)
    rng = random.Random(seed)
    names = PLAYER_NAMES[:players]
    dealer = players - 1
    lines = (write_table(rule_reference(engine.spec), names, dealer,
                         tuple(engine.spec.options_set.items())) if transcript else None)
    hand = _play_hand(engine, names, dealer, rng, max_moves, lines, hidden, policies)
    state = hand.state
    return PlayedGame(engine.outcome(state), hand.moves, tuple(lines or ()),
                      sets=sum(map(len, state.laid)), void=len(state.void),
                      stopped=hand.stopped, stalled=engine.stalled(state), lead=hand.lead)


def play_match(engine: Engine, players: int, seed: int, target: int,
               max_hands: int = 100, *, hidden: bool = False) -> tuple[list[int], tuple[str, ...]]:
    """Play hands of random legal moves until a side reaches ``target`` points, the
    deal passing one seat left each hand; the match totals and its transcript."""
    match = play_match_record(engine, players, seed, target, max_hands, hidden=hidden)
    return list(match.totals), match.lines


def play_match_record(
    engine: Engine, players: int, seed: int, target: int, max_hands: int = 100, *,
    hidden: bool = False, transcript: bool = True, max_moves: int = DEFAULT_MAX_MOVES,
    in_header: bool = True, policies: Sequence[str] = (),
) -> PlayedMatch:
    """:func:`play_match` with every figure of the match: the same hands for the same
    seed, with or without the ``transcript`` (``in_header``: the transcript names the
    target, which the rule file's ``match:`` may already name). A rule file that counts
    hands won adds one to each winner of a hand."""
    rng = random.Random(seed)
    names = PLAYER_NAMES[:players]
    totals = [0] * engine.sides(players)
    lines = (write_table(rule_reference(engine.spec), names, players - 1,
                         tuple(engine.spec.options_set.items()),
                         target=target if in_header else None)
             if transcript else None)
    hands = moves = sets = void = 0
    stopped = stalled = over = False
    for number in range(1, max_hands + 1):
        if number > 1 and lines is not None:
            lines.append(f"hand {number}")
        dealer = (players - 1 + number - 1) % players
        hand = _play_hand(engine, names, dealer, rng, max_moves, lines, hidden, policies)
        state, hand_moves, stopped = hand.state, hand.moves, hand.stopped
        hands, moves = hands + 1, moves + hand_moves
        sets, void = sets + sum(map(len, state.laid)), void + len(state.void)
        stalled = stalled or engine.stalled(state)
        result = engine.outcome(state)
        scores = (tuple(int(side in result.winners) for side in range(len(totals)))
                  if engine.spec.match_by_hands else result.scores)
        totals = [t + s for t, s in zip(totals, scores, strict=True)]
        over = state.over and max(totals) >= target
        if not state.over or over:
            break
    return PlayedMatch(tuple(totals), hands, moves, over, sets, void,
                       stopped, stalled, tuple(lines or ()))


@frozen
class _Hand:
    """One hand played: the state reached, its moves, whether it stopped with no legal
    move while not over, and how close it was."""

    state: GameState
    moves: int
    stopped: bool
    lead: Lead


def _play_hand(
    engine: Engine, names: tuple[str, ...], dealer: int, rng: random.Random,
    max_moves: int, lines: list[str] | None, hidden: bool = False,
    policies: Sequence[str] = (),
) -> _Hand:
    """Deal and play one hand, each seat by its policy (random ones without
    ``policies``); with ``lines``, write the deal and the moves there (as the table saw
    them, with ``hidden``)."""
    players = len(names)
    hands, rest = engine.shuffled_deal(players, dealer, rng.randrange(2**32))
    stock, centre = engine.split_rest(players, rest)
    state = engine.start(names, dealer, hands, stock, centre=centre)
    lay_out = engine.spec.ask.handover is HANDOVER_TO_CENTRE
    if lines is not None:
        lines += (write_deal(names, [None] * players, [None] * len(stock), centre, hidden=True)
                  if hidden else write_deal(names, hands, stock, centre))
    players_of = (make_policies(engine, policies)
                  if any(name != RANDOM for name in policies) else None)
    watchers = [p for p in players_of if p.tracks] if players_of is not None else []
    for watcher in watchers:  # a player that plays from the whole deal's history
        dealt = getattr(watcher, "dealt", None)
        if dealt is not None:
            dealt(dealer, hands, stock, centre)
    lead = _LeadWatch(engine, engine.sides(players))
    laid_order, follow_plays = state.laid_order, lead.piles_score  # read on every move
    moves = 0
    stopped = False
    while state.phase is not PHASE_OVER and moves < max_moves:
        move = (random_move(engine, state, rng) if players_of is None
                else players_of[state.turn].choose(engine, state, rng))
        if move is None:
            stopped = True  # nobody can move, yet the rules do not end the game
            break
        replaced = hidden and engine.replaced_in_the_open(state, move)
        taken = state.stock_taken
        if watchers or hidden:
            seen = engine.as_seen(state, move)
            for watcher in watchers:
                watcher.observe(engine, state, move, seen)
        if lines is not None:
            lines += [format_move(event, names, lay_out=lay_out)
                      for event in (seen if hidden else (move,))]
        engine.apply(state, move)
        if replaced and lines is not None:
            lines += [f"{names[move.player]} draws"] * (state.stock_taken - taken)
        moves += 1
        if len(laid_order) != lead.marker or (
                follow_plays and type(move) is Play and move.groups):  # only captures pile
            lead.after(state, moves)
    return _Hand(state, moves, stopped, lead.result(moves))


class _LeadWatch:
    """Who leads alone after each move that wins sets or points, and when it changed;
    the scores are counted as the engine's outcome counts them, a set or a captured
    card at a time (in self-play sets and piles only grow)."""

    def __init__(self, engine: Engine, sides: int) -> None:
        lk = engine.lookups
        self.set_points = lk.points
        self.piles_score = bool(engine.spec.card_points)  # captured cards earn points
        self.card_points = ({card: engine.spec.card_points.get(rank, 0)
                             for card, rank in lk.rank.items()} if self.piles_score else {})
        self.marker = 0  # sets counted
        self.piled = [0] * sides  # cards counted of each side's pile
        self.scores = [0] * sides
        self.leader: int | None = None  # the side leading alone now
        self.last: int | None = None  # the last side that led alone
        self.changes = 0
        self.timeline: list[tuple[int, int | None]] = [(0, None)]  # (after move, leader)

    def after(self, state: GameState, moves: int) -> None:
        """Count what move number ``moves`` won, and note a new leader."""
        scores, piled = self.scores, self.piled
        changed = len(state.laid_order) != self.marker
        for side, name in state.laid_order[self.marker:]:
            scores[side] += self.set_points[name]
        self.marker = len(state.laid_order)
        if self.piles_score:
            for side, pile in enumerate(state.piles):
                if len(pile) != piled[side]:
                    gained = sum(self.card_points[card] for card in pile[piled[side]:])
                    changed = changed or gained != 0  # cards worth nothing move no lead
                    scores[side] += gained
                    piled[side] = len(pile)
        if not changed:
            return
        best = max(scores)
        leaders = [side for side, score in enumerate(scores) if score == best]
        leader = leaders[0] if len(leaders) == 1 else None
        if leader == self.leader:
            return
        self.leader = leader
        self.timeline.append((moves, leader))
        if leader is not None:
            self.changes += self.last is not None and leader != self.last
            self.last = leader

    def result(self, moves: int) -> Lead:
        """The lead changes, and who led alone after half the ``moves``."""
        halfway = None
        for after, leader in self.timeline:
            if after > moves // 2:
                break
            halfway = leader
        return Lead(self.changes, halfway)


def seeds(seed: int, games: int) -> Iterator[int]:
    """The per-game seeds of a run of ``games`` games started from ``seed``."""
    rng = random.Random(seed)
    for _ in range(games):
        yield rng.randrange(2**63)


def transcript_name(name: str, number: int) -> str:
    """The file name of game (or match) ``number`` of a run of the rules ``name``."""
    return f"{name}-{number:04d}.txt"


def refuse_earlier_run(folder: Path, name: str, games: int) -> None:
    """A usage error naming the first file of a run of ``games`` games that ``folder``
    holds already (from an earlier run); one look at the folder, however many games."""
    prefix = f"{name}-"
    taken = []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                number = entry.name.removeprefix(prefix).removesuffix(".txt")
                if (entry.name.startswith(prefix) and entry.name.endswith(".txt")
                        and is_digits(number) and len(number) <= 20
                        and 0 < int(number) <= games
                        and entry.name == transcript_name(name, int(number))):
                    taken.append(int(number))
    except OSError as exc:
        raise RefereeError(Kind.USAGE, f"cannot read the folder {folder}: "
                           f"{exc.strerror or exc}") from None
    if taken:
        first = folder / transcript_name(name, min(taken))
        raise RefereeError(Kind.USAGE, exists_message(
            first, f"{folder} holds {len(taken)} of this run's files from an earlier run; "
            "add --force to replace them, or name another folder"))


def write_transcript(path: Path, lines: tuple[str, ...], *, force: bool = False) -> None:
    """Write one game's transcript as a new file (with ``force``, in place of what is
    there); a failure is a usage error naming the file."""
    files.write_file(path, ("\n".join(lines) + "\n").encode(), force=force,
                     hint="add --force to replace it")
