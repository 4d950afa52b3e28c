"""Transcripts as people and programs type them: the terse twin of a canonical game.

``terse(lines, seed)`` rewrites a canonical transcript (one event a line, every
answer, draw and book written out) the ways NOTATION.md allows, a mix chosen by a
seeded random generator, so the same game and seed give the same text:

- asks as ``Ann asks Bob for X``, ``Ann: Bob, X?`` or ``Cy > Ann X``;
- ranks in the plural (``sevens``) or as written, ``T`` for ten, in lower case;
  cards in lower case, with suit symbols (``7♠``), ``T`` for ten;
- answers, draws and books left for the referee to fill in, or written short
  (``yes``, ``no``, ``go fish``, ``Bob: no``, ``Bob gives``, ``Ann draws``);
- two events on a line, joined by ``;``.

Header lines are kept as they are, each on a line of its own; claims, passes and
lay-downs are kept, their cards written the terse ways. Every terse game checks legal
and reaches the state of its canonical twin (tests/test_terse_corpus.py).

Usage: python bench/terse.py [--games 300] [--seed 2026] OUT_DIR
writes ``OUT_DIR/GAME/game-NNNN.txt`` and its twin ``OUT_DIR/GAME-terse/game-NNNN.txt``
for 4-player Go Fish and 6-player Literature.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
GAMES = (("go-fish", 4), ("literature", 6))
HEADER_KEYS = ("game", "option", "players", "dealer", "team", "deal", "hand", "stock",
               "centre", "center", "target")
PLURALS = {"2": "twos", "3": "threes", "4": "fours", "5": "fives", "6": "sixes",
           "7": "sevens", "8": "eights", "9": "nines", "10": "tens", "J": "jacks",
           "Q": "queens", "K": "kings", "A": "aces"}
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def terse_rank(rank: str, rng: random.Random) -> str:
    """A rank as people write it: plural, ``T`` for ten, lower case, or as it is."""
    choice = rng.random()
    if choice < 0.4:
        return PLURALS[rank]
    if rank == "10" and choice < 0.7:
        return "T"
    return rank.lower() if choice < 0.85 else rank


def terse_card(card: str, rng: random.Random) -> str:
    """A card as people write it: lower case, a suit symbol, ``T`` for ten."""
    rank, suit = card[:-1], card[-1]
    if rank == "10" and rng.random() < 0.5:
        rank = "T"
    choice = rng.random()
    if choice < 0.35:
        return f"{rank}{SUITS[suit]}"
    if choice < 0.8:
        return f"{rank}{suit}".lower()
    return f"{rank}{suit}"


def terse_item(item: str, rng: random.Random) -> str:
    """A rank or a card, written the terse ways (anything else, a set's name, as it is)."""
    if item in PLURALS:
        return terse_rank(item, rng)
    if item[:-1] in PLURALS and item[-1] in SUITS:
        return terse_card(item, rng)
    return item


def terse_event(line: str, rng: random.Random, known: bool = True,
                at_once: bool = True) -> str | None:
    """One canonical event line written tersely, or None to leave it to the referee.
    Unless the cards are ``known`` (an open deal), nothing is left out, a give names its
    cards or their number and a draw the card it shows: only the cards can fill them in.
    Books are left out only where the rules lay them ``at_once`` (elsewhere laying one
    is the player's choice)."""
    words = line.split()
    if len(words) < 2 or "#" in line or ";" in line:
        return line
    player, verb, rest = words[0], words[1], words[2:]
    left_out = None if known else line
    choice = rng.random()
    if verb == "asks" and len(rest) == 3 and rest[1] == "for":
        target, item = rest[0], terse_item(rest[2], rng)
        if choice < 0.25:
            return f"{player} asks {target} for {item}"
        if choice < 0.6:
            return f"{player}: {target}, {item}?"
        return f"{player} > {target} {item}"
    if verb == "gives" and rest:
        if choice < 0.5:
            return left_out
        if choice < 0.7 and known:
            return "yes"
        if choice < 0.8 and known:
            return f"{player} gives"
        return f"{player} gives {' '.join(c if c.isdigit() else terse_item(c, rng) for c in rest)}"
    if verb == "says" and rest == ["no"]:
        if choice < 0.5:
            return left_out
        return ("no", "go fish", f"{player}: no", line)[int((choice - 0.5) * 8)]
    if verb == "draws":
        if choice < 0.6:
            return left_out
        if (choice < 0.85 and known) or not rest:  # a hidden draw named is shown
            return f"{player} draws"
        return f"{player} draws {terse_item(rest[0], rng)}"
    if verb == "books" and rest:
        if choice < 0.7:
            return left_out if at_once else line
        return f"{player} books {' '.join(terse_item(word, rng) for word in rest)}"
    if verb == "claims":
        return " ".join(terse_item(word.rstrip(","), rng) + ("," if word.endswith(",") else "")
                        for word in words)
    return line


def terse(lines: list[str], seed: int, *, known: bool = True, at_once: bool = True
          ) -> list[str]:
    """The terse twin of a canonical transcript (``lines``), the same for the same seed.
    Unless its cards are ``known`` (a hidden deal), what only the cards could fill in is
    written, and books too unless its rules lay them ``at_once`` (:func:`terse_event`).
    Header lines and ``hand N`` (a match's next hand, its deal after it) stand on lines
    of their own."""
    rng = random.Random(seed)
    out: list[str] = []
    events: list[str] = []  # events since the last line that stands alone
    for line in lines:
        if stands_alone(line):
            out += _joined(events, rng)
            events = []
            out.append(line)
            continue
        written = terse_event(line, rng, known, at_once)
        if written is not None:
            events.append(written)
    return out + _joined(events, rng)


def stands_alone(line: str) -> bool:
    """Whether ``line`` is a header line or a ``hand N`` line."""
    words = line.split(":", 1)[0].split()
    return bool(words) and words[0] in HEADER_KEYS and (
        ":" in line or (words[0] == "hand" and len(words) == 2 and words[1].isdigit()))


def _joined(events: list[str], rng: random.Random) -> list[str]:
    """``events`` as lines, about one pair in three joined by ``;``."""
    out = []
    index = 0
    while index < len(events):
        if index + 1 < len(events) and rng.random() < 0.3:
            out.append(f"{events[index]}; {events[index + 1]}")
            index += 2
        else:
            out.append(events[index])
            index += 1
    return out


def sets_in_any_order(state: dict[str, object] | None) -> dict[str, object]:
    """A verdict's state with each side's sets in name order, to compare a game written
    with events left out with its canonical twin: sets completed together, which the
    referee lays when it fills them in, may be laid in another order."""
    assert state is not None
    sets = state["sets"]
    assert isinstance(sets, dict)
    return {**state, "sets": {side: sorted(names) for side, names in sets.items()}}


def write_corpora(folder: Path, games: int, seed: int) -> None:
    """Self-played open games of each of :data:`GAMES`, canonical in ``folder/GAME`` and
    terse in ``folder/GAME-terse`` (the same file names)."""
    sys.path.insert(0, str(HERE))
    from referee.authoring.simulate import play_one, seeds
    from referee.engine.core import Engine
    from referee.language.loader import load_spec
    from referee.language.rulefiles import find_rule_file

    for name, players in GAMES:
        path = find_rule_file(name)
        assert path is not None, name
        engine = Engine(load_spec(path))
        canonical, short = folder / name, folder / f"{name}-terse"
        canonical.mkdir(parents=True)
        short.mkdir()
        for number, game_seed in enumerate(seeds(seed, games)):
            lines = list(play_one(engine, players, game_seed, transcript=True).lines)
            file = f"game-{number:04d}.txt"
            (canonical / file).write_text("\n".join(lines) + "\n", encoding="utf-8")
            (short / file).write_text("\n".join(terse(lines, game_seed)) + "\n",
                                      encoding="utf-8")


def main() -> None:
    """Write the canonical and terse corpora."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("out", type=Path)
    args = parser.parse_args()
    write_corpora(args.out, args.games, args.seed)


if __name__ == "__main__":
    main()
