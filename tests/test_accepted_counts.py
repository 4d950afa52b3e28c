"""What the table may accept against the cards: only an event that leaves counts some
deal could reach. Driven through the live table's line handler, as a typist would."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.engine.state import GameState
from referee.errors import RefereeError
from referee.knowledge.counts import count_problem
from referee.live.start import Seating, resume, start
from referee.live.table import LiveTable
from referee.transcript.notation import ACCEPTED_MARK

TINY_GO_FISH = Path(__file__).parent / "rules_support" / "hidden" / "tiny-go-fish.rules"
GO_FISH = ("Ann", "Bob", "Cy")
MY_HAND = {"me": "Ann", "hand": "4H 9S QD KH 2C"}


def table(tmp_path: Path, game: str = "go-fish", players: tuple[str, ...] = GO_FISH,
          **seating: object) -> LiveTable:
    return start(Seating(game, players, **seating), tmp_path / "live.txt")  # type: ignore[arg-type]


def typed(live: LiveTable, *lines: str) -> list[str]:
    return [live.handle(line).line for line in lines]


def counts_reachable(state: GameState) -> bool:
    """No hand below no cards, and the cards nobody has seen fill the unseen places."""
    return (min(state.unknown) >= 0 and sum(state.unknown) + state.stock.count(None)
            == len(state.unplaced))


def test_giving_more_cards_than_the_hand_holds_cannot_be_accepted(tmp_path: Path) -> None:
    live = table(tmp_path)
    typed(live, "Ann asks Bob for 7", "Bob says no", "Ann draws", "Bob asks Cy for 5")
    replies = typed(live, "Cy gives 4", "accept")  # a contradiction the counts allow
    assert replies[1].startswith("accepted by the table: Cy gives 4")
    assert live.session.describe()["hands"] == {"Ann": 6, "Bob": 9, "Cy": 1}
    typed(live, "Bob asks Cy for 6")
    before = live.journal.text()
    reply = live.handle("Cy gives 4")  # accepted again, Cy would hold -3 cards
    assert reply.refused
    assert reply.line.endswith("the table cannot accept it: Cy holds 1 card, fewer than the "
                               "4 this needs; nothing changed")
    assert live.handle("accept").line.startswith("nothing to accept")
    assert live.journal.text() == before
    assert live.session.describe()["hands"] == {"Ann": 6, "Bob": 9, "Cy": 1}
    assert counts_reachable(live.session.state)
    assert not live.handle("Cy gives 1").refused  # what the count allows goes on
    assert live.session.describe()["hands"]["Cy"] == 0


def test_repeated_accepts_go_on_until_a_count_would_break(tmp_path: Path) -> None:
    live = table(tmp_path)
    typed(live, "Ann asks Bob for 7", "Bob says no", "Ann draws", "Bob asks Cy for 5")
    for event in ("Cy gives 4", "Bob asks Ann for 7"):  # Bob held a five; then no seven
        assert live.handle(event).line.startswith("contradiction")
        assert live.handle("accept").line.startswith(f"accepted by the table: {event}")
        assert counts_reachable(live.session.state)
    assert not live.handle("Ann gives 3").refused
    typed(live, "Bob asks Cy for 6")
    reply = live.handle("Cy gives 2")
    assert reply.refused and reply.line.startswith(  # not silently, as the model would
        "refused, contradiction: Cy gave 2 sixes; but counting Cy's cards and the cards known "
        "elsewhere, Cy holds at most 1 of those cards; the table cannot accept it: Cy holds 1 "
        "card, fewer than the 2 this needs")
    assert live.session.describe()["hands"] == {"Ann": 3, "Bob": 12, "Cy": 1}
    assert sum(1 for line in live.journal.lines if line.startswith(ACCEPTED_MARK)) == 2


def test_a_card_known_in_another_hand_cannot_be_given(tmp_path: Path) -> None:
    live = table(tmp_path, "go-fish-cards", **MY_HAND)
    typed(live, "Ann asks Bob for 4C", "Bob says no", "Ann draws", "Bob asks Cy for 9S")
    reply = live.handle("Cy gives 9S")  # 9S is in Ann's hand, as she typed it
    assert reply.refused and "the table cannot accept it: 9S would be in Ann's hand and in " \
        "Bob's hand at once" in reply.line
    assert "9S" in live.session.state.hands[0]


def test_more_of_a_rank_than_could_be_in_the_hand_cannot_be_given(tmp_path: Path) -> None:
    live = table(tmp_path, **MY_HAND)
    typed(live, "Ann asks Bob for 9", "Bob says no", "Ann draws", "Bob asks Cy for 4")
    reply = live.handle("Cy gives 4")  # all four fours, but 4H is in Ann's hand
    assert reply.refused and ("the table cannot accept it: Cy gave 4 fours, but at most 3 of "
                              "those cards could be in Cy's hand") in reply.line
    assert live.handle("Cy gives 3").line.startswith("contradiction")  # Bob held a four
    assert live.handle("accept").line.startswith("accepted by the table: Cy gives 3")
    reply = live.handle("Bob books 4")  # the fourth four is Ann's
    assert reply.refused and "4H would be both in Ann's hand and out of play, with 4" \
        in reply.line
    assert live.session.describe()["sets"]["Bob"] == []
    assert counts_reachable(live.session.state)


def test_what_a_player_only_says_may_still_be_accepted(tmp_path: Path) -> None:
    live = table(tmp_path, deal="seed", seed=3)  # an open deal: Bob holds 6H, Cy no 9
    typed(live, "Ann asks Bob for 4", "Bob says no", "Ann draws", "Bob asks Cy for 9")
    reply = live.handle("Cy gives 1")  # every card Cy holds is known
    assert reply.refused and ("the table cannot accept it: every card Cy holds is known, and "
                              "none is one this needs") in reply.line
    typed(live, "Cy says no", "Bob draws", "Cy asks Ann for 3")
    assert live.session.state.turn == 2
    assert not live.handle("Ann says no").refused


def test_a_stock_run_dry_is_a_rule_not_a_count_to_accept(tmp_path: Path) -> None:
    live = table(tmp_path, str(TINY_GO_FISH), ("Ann", "Bob"))
    typed(live, "Ann asks Bob for 2", "Bob says no", "Ann draws", "Bob asks Ann for 3")
    for answer in ("Ann says no", "Bob draws", "Ann asks Bob for 2", "Bob says no"):
        if live.handle(answer).line.startswith("contradiction"):
            assert live.handle("accept").line.startswith("accepted by the table")
    assert live.session.state.stock == [] and counts_reachable(live.session.state)
    reply = live.handle("Ann draws")  # after a no, with the stock empty
    assert reply.line.startswith("refused, illegal: Ann has no reason to draw now")
    assert live.handle("accept").line.startswith("nothing to accept")


def test_a_resumed_file_with_an_impossible_accepted_line_is_refused(tmp_path: Path) -> None:
    live = table(tmp_path)
    typed(live, "Ann asks Bob for 7", "Bob says no", "Ann draws", "Bob asks Cy for 5",
          "Cy gives 4", "accept", "Bob asks Cy for 6")
    live.journal.close()
    path = live.journal.path
    written = path.read_text()
    path.write_text(f"{written}Cy gives 4\n{ACCEPTED_MARK} by hand\n")
    with pytest.raises(RefereeError) as caught:
        resume(path, lambda _: None)
    assert caught.value.message == "Cy holds 1 card, fewer than the 4 this needs"
    assert caught.value.span is not None
    assert caught.value.span.line == written.count("\n") + 1


def test_legal_moves_never_break_the_counts() -> None:
    state = GameState(("Ann", "Bob"), 1, [set(), set()], [2, 2], [None, None], [[], []],
                      unplaced={"2S", "2H", "3S", "3H", "4S", "4H"})
    assert count_problem(state, state.copy(), [], {}) is None
    state.unknown[0] = -1
    assert count_problem(state, state.copy(), [], {}) is not None
