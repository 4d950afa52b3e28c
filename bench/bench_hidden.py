"""Print the figures of hidden-deal checking (issue 8): time per event, median and worst,
and events per second over whole games, for self-played games written as a hidden table
sees them.

Usage: python bench/bench_hidden.py [--games 100] [--seed 2026]

Each game is read once, then its events are fed one by one to a Session (the interface
``referee check`` and the live prompt share), timing each call. The first event's time
includes setting up the knowledge model. Whole-game time is setup plus every event.
The cyclic garbage collector is paused, as ``referee check`` pauses it. OR-Tools is
imported first: a process pays that once, at the first question the SAT solver leaves
undecided within its budget, and it would otherwise land on one event of one game. The
witness search and the solvers see sets in hash order, so figures vary a little with
``PYTHONHASHSEED``.
"""

from __future__ import annotations

import argparse
import statistics
import time

from referee.authoring.simulate import play_one, seeds
from referee.engine.core import Engine
from referee.knowledge.budgets import DEFAULT_BUDGETS, Budgets
from referee.language.loader import load_spec
from referee.language.rulefiles import find_rule_file
from referee.transcript.check import gc_paused
from referee.transcript.notation import read_transcript
from referee.transcript.session import Session
from referee.transcript.setup import set_up

CASES = (("go-fish", 4), ("authors", 4), ("literature", 6))


def measure(rules: str, players: int, games: int, seed: int,
            budgets: Budgets = DEFAULT_BUDGETS) -> None:
    """Check ``games`` hidden self-played games of ``rules`` and print the figures."""
    path = find_rule_file(rules)
    if path is None:
        raise SystemExit(f"no rule file named {rules!r}")
    engine = Engine(load_spec(path))
    per_event: list[float] = []
    per_game: list[float] = []
    events = 0
    solves = 0
    for game_seed in seeds(seed, games):
        text = "\n".join(play_one(engine, players, game_seed, transcript=True,
                                  hidden=True).lines)
        transcript = read_transcript(text, "bench.txt")
        game = set_up(transcript.headers, transcript.headers[0].span, None)
        started = time.perf_counter()
        session = Session(game, budgets=budgets)
        setup = time.perf_counter() - started
        for number, event in enumerate(transcript.events):
            before = time.perf_counter()
            session.play(event)
            spent = time.perf_counter() - before
            per_event.append(spent + (setup if number == 0 else 0.0))
        session.finish()
        per_game.append(time.perf_counter() - started)
        events += len(transcript.events)
        if session.knowledge is not None:
            solves += session.knowledge.solves
    total = sum(per_game)
    print(f"{rules}, {players} players, {games} hidden games, {events} events: "
          f"per event median {statistics.median(per_event) * 1000:.3f} ms, "
          f"worst {max(per_event) * 1000:.1f} ms; per game median "
          f"{statistics.median(per_game) * 1000:.1f} ms, worst {max(per_game) * 1000:.1f} ms; "
          f"{events / total:.0f} events/s; solver calls {solves / games:.2f} a game")


def main() -> None:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--search", choices=("witness", "solver"), default="witness",
                        help="solver: every fact the witness deal breaks goes straight to "
                        "the SAT solver, without trying swaps first")
    args = parser.parse_args()
    budgets = Budgets(repair_steps=0) if args.search == "solver" else DEFAULT_BUDGETS
    started = time.perf_counter()
    from ortools.sat.python import cp_model  # noqa: F401  (what the first hard question imports)

    print(f"importing OR-Tools' CP-SAT, once a process, before the first question Minicard "
          f"leaves undecided: {(time.perf_counter() - started) * 1000:.0f} ms (not counted below)")
    for rules, players in CASES:
        with gc_paused():  # as referee check runs
            measure(rules, players, args.games, args.seed, budgets)


if __name__ == "__main__":
    main()
