"""Events the game does not wait for: a show with no claim waiting, a lay-out where cards
are handed over. ``check`` refuses them (golden transcripts under tests/transcripts/,
``unawaited-*.txt``), ``play`` refuses them and writes nothing, and self-play never
writes them."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.authoring.simulate import play_one
from referee.cli.commands import main
from referee.engine.core import Engine
from referee.language.loader import load_spec
from referee.transcript.check import check_text

RULES = Path(__file__).parent.parent / "rules"


@pytest.mark.parametrize(("game", "players", "events", "refused"), [
    ("literature", "Ann Bob Cy Dee", ["Ann asks Bob for 9H", "Bob says no"],
     "Dee shows 3S 5S"),
    ("go-fish", "Ann Bob Cy", ["Ann asks Bob for 4"], "Bob shows 4S"),
    ("go-fish", "Ann Bob Cy", ["Ann asks Bob for 4"], "Bob lays out 4S"),
])
def test_play_refuses_an_event_nobody_waits_for(tmp_path: Path, game: str, players: str,
                                                 events: list[str], refused: str) -> None:
    out = tmp_path / "game.txt"
    typed = "\n".join([*events, refused]) + "\n"
    result = CliRunner().invoke(main, ["play", game, "-p", players, "--out", str(out)],
                                input=typed)
    assert result.exit_code == 1, result.output
    verdict = result.stdout.splitlines()[len(events)]
    assert verdict.startswith(("refused, turn: ", "refused, illegal: ")), verdict
    assert verdict.endswith("nothing changed")
    assert refused not in out.read_text(encoding="utf-8")


@pytest.mark.parametrize("rules", ["literature", "canadian-fish", "literature-jokers"])
def test_self_play_shows_cards_only_right_after_a_claim(rules: str) -> None:
    engine = Engine(load_spec(RULES / f"{rules}.rules"))
    claims = 0
    for seed in range(12):
        lines = play_one(engine, 6, seed, transcript=True, hidden=True).lines
        for before, line in itertools.pairwise(lines):
            if " shows " in line:
                assert " claims " in before or " shows " in before, (seed, before, line)
        claims += sum(" claims " in line for line in lines)
        verdict = check_text("\n".join(lines) + "\n", f"{rules}-{seed}.txt")
        assert verdict.ok, verdict.report()
    assert claims  # the games did claim, so shows were written
