"""Self-played games of every bundled rule file, and the check that a game typed
another way (on a phone, in words, at a table) gets its canonical twin's verdict; and
two deals to type events after. Shared by the tests of typed forms
(tests/test_phone_spelling.py, test_said_in_words.py, test_small_s_plurals.py,
test_said_at_the_table.py, test_game_records.py), which load it with ``runpy`` (the
tests are imported one by one, ``--import-mode=importlib``)."""

from __future__ import annotations

import random
import re

from referee.authoring.simulate import play_one
from referee.engine.core import Engine
from referee.language.loader import load_spec
from referee.language.rulefiles import bundled_rule_names, find_rule_file
from referee.language.spec import GameSpec
from referee.transcript.check import check_text

CARD = re.compile(r"\b(10|[2-9JQKA])([SHDC])\b")
# a 6-player Literature deal, header lines only (for events typed after it)
LITERATURE = ("game: literature\nplayers: Ann Bob Cy Dee Eve Fay\ndealer: Fay\n"
              "deal: given\nhand Ann: 5S 3H QD KD 9S 10C 3D 5D\n"
              "hand Bob: 6S AH JS 10D 3C 5C KC AD\nhand Cy: 9H 6H 8H 8S 7S JD KH 4C\n"
              "hand Dee: 9C 8D 5H 4D JH 10S 7C 9D\nhand Eve: 7H JC AC 7D 4S QH 10H 8C\n"
              "hand Fay: 6C QS 3S 4H 6D AS KS QC\n")
# a 2-player Go Fish deal, its stock stacked, header lines only
GO_FISH = ("game: go-fish\nplayers: Ann Bob\ndealer: Bob\ndeal: given\n"
           "hand Ann: 2S 3S 4S 5S 6S 7S 8S\nhand Bob: 2D 2C 3H 4H 5H 6H 7H\n"
           "stock: " + " ".join(f"{r}{s}" for r in ("9", "10", "J", "Q", "K", "A")
                                for s in "SHDC") + " 2H 3D 3C 4D 4C 5D 5C 6D 6C 7D 7C 8H 8D 8C\n")
RANK_ASKED = re.compile(r"^(.* (?:asks \S+ for|books|asks \S+: any)) (10|[2-9JQKA])(\??)$")


def games(seeds: range) -> list[tuple[str, GameSpec, list[str]]]:
    """Every bundled rule file's self-played games of ``seeds`` (odd: open, even:
    hidden), as canonical transcript lines, with their label and rules."""
    played = []
    for name in bundled_rule_names():
        path = find_rule_file(name)
        assert path is not None, name
        engine = Engine(load_spec(path))
        for seed in seeds:
            players = sorted(engine.spec.player_counts)[seed % len(engine.spec.player_counts)]
            game = play_one(engine, players, seed, transcript=True, hidden=seed % 2 == 0)
            played.append((f"{name}, seed {seed}", engine.spec, list(game.lines)))
    return played


def changed(lines: list[str], rng: random.Random) -> list[str]:
    """``lines`` with one card of one event line put in place of another, or (where no
    event names a card) one rank asked for."""
    events = [i for i, line in enumerate(lines) if ": " not in line[:12]
              and not line.startswith(("hand ", "stock", "centre"))]
    cards = [i for i in events if CARD.search(lines[i])]
    if cards:
        at = rng.choice(cards)
        rank, suit = rng.choice(CARD.findall(lines[at]))
        old, new = rank + suit, rank + rng.choice([s for s in "SHDC" if s != suit])
    else:
        at = rng.choice([i for i in events if RANK_ASKED.match(lines[i])])
        old = f" {RANK_ASKED.match(lines[at])[2]}"  # type: ignore[index]
        new = f" {rng.choice([r for r in ('2', '5', '9', 'K') if f' {r}' != old])}"
    return [*lines[:at], lines[at].replace(old, new, 1), *lines[at + 1:]]


def assert_same_verdict(label: str, game: list[str], typed: list[str]) -> None:
    """``typed``, ``game`` typed another way, gets ``game``'s verdict: the same state
    through the same moves, or the same error kind at the same line."""
    expected = check_text("\n".join(game) + "\n", "canonical.txt", record=True)
    found = check_text("\n".join(typed) + "\n", "typed.txt", record=True)
    assert found.ok == expected.ok, f"{label}:\n{found.report()}"
    assert found.events == expected.events, label
    assert found.state == expected.state, label
    if expected.ok:
        assert found.canonical == expected.canonical, label
    else:
        assert found.to_json()["error"]["kind"] == expected.to_json()["error"]["kind"]
        assert found.to_json()["error"]["line"] == expected.to_json()["error"]["line"]
