"""``referee serve`` over its documented HTTP API and WebSockets (docs/serve.md): tables
and tokens, a seat's own moves and hand, the host's powers, the journal, and that no
message to a seat or the screen holds another seat's cards."""

from __future__ import annotations

import json
import random
import re
import signal
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

import referee

GO_FISH = ["Ann", "Bob", "Cy"]
ANN_HAND = ["2C", "3C", "4C", "5C", "6C"]


def test_a_new_table_gives_every_seat_an_unguessable_link(server: Any) -> None:
    made = server.new_table(game="go-fish", players=GO_FISH, dealer="Cy")
    assert set(made) >= {"table", "host", "screen", "seats"}
    tokens = [made["host"], *(seat["token"] for seat in made["seats"].values())]
    assert len(set(tokens)) == 4
    assert all(len(token) >= 43 for token in tokens)  # 32 random bytes: 256 bits
    assert made["seats"]["Ann"]["url"].endswith("/seat/Ann#t=" + made["seats"]["Ann"]["token"])
    status, view = server.get(f"/api/tables/{made['table']}?token={made['seats']['Ann']['token']}")
    assert status == 200 and view["player"] == "Ann" and view["view"]["turn"] == "Ann"


@pytest.mark.parametrize(("asked", "says"), [
    ({"game": "no-such-game", "players": GO_FISH}, "bundled rule files"),
    ({"game": "go-fish", "players": "Ann Bob"}, "list of names"),
    ({"game": "go-fish", "players": ["Ann"]}, "2 to 6 players"),
    ({"game": "go-fish", "players": ["Ann", "Ann"]}, "Ann"),
    ({"game": "go-fish", "players": GO_FISH, "deal": "open"}, "hidden"),
    ({"game": "go-fish", "players": GO_FISH, "target": "ten"}, "target"),
    ({"players": GO_FISH, "rules_text": "game: broken\n"}, "broken"),
])
def test_a_table_asked_wrongly_is_refused_with_a_reason(server: Any, asked: dict[str, Any],
                                                        says: str) -> None:
    status, answer = server.post("/api/tables", asked)
    assert status == 400
    assert says in answer["error"]


def test_a_wrong_token_gets_403_everywhere(server: Any) -> None:
    made = server.new_table(game="go-fish", players=GO_FISH)
    table = made["table"]
    assert server.get(f"/api/tables/{table}?token=wrong")[0] == 403
    assert server.get(f"/api/tables/{table}")[0] == 403
    assert server.get(f"/api/tables/{table}/links?token={made['seats']['Ann']['token']}")[0] == 403
    for path, body in [("events", {"text": "Ann asks Bob for 2"}), ("hand", {"cards": ANN_HAND}),
                       ("undo", {}), ("accept", {})]:
        assert server.post(f"/api/tables/{table}/{path}", {"token": "x" * 43, **body})[0] == 403
    assert server.get(f"/api/tables/{'0' * 16}?token={made['host']}")[0] == 404
    with server.socket(table, "wrong") as ws, pytest.raises(ConnectionClosed) as closed:
        ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403


def test_a_seat_plays_only_its_own_moves_and_the_host_any(server: Any) -> None:
    made = server.new_table(game="go-fish", players=GO_FISH)
    table, seats = made["table"], made["seats"]
    status, answer = server.post(f"/api/tables/{table}/events",
                                 {"token": seats["Bob"]["token"], "text": "Ann asks Bob for 2"})
    assert status == 403 and "Bob's own moves" in answer["error"]
    status, _ = server.post(f"/api/tables/{table}/events", {
        "token": seats["Ann"]["token"], "text": "Ann asks Bob for 2; Bob says no"})
    assert status == 403
    screen = made["screen"].split("#t=")[1]
    assert server.post(f"/api/tables/{table}/events", {"token": screen,
                                                       "text": "Ann asks Bob for 2"})[0] == 403
    assert server.play(table, seats["Ann"]["token"], "Ann asks Bob for 2")["accepted"]
    assert server.play(table, made["host"], "Bob says no")["accepted"]
    refused = server.play(table, seats["Bob"]["token"], "Bob asks Ann for 3")
    assert (refused["accepted"], refused["kind"]) == (False, "turn")


@pytest.mark.parametrize(("typed", "ask"), [
    ("asks Bob for 2", "Ann asks Bob for 2"), ("> Bob 2", "Ann asks Bob for 2"),
    ("Bob, 2?", "Ann asks Bob for 2"), ("ann asks Bob for 2", "Ann asks Bob for 2")])
def test_a_seat_may_leave_its_own_name_out(server: Any, typed: str, ask: str) -> None:
    made = server.new_table(game="go-fish", players=GO_FISH)
    table, seats = made["table"], made["seats"]
    assert server.play(table, seats["Ann"]["token"], typed)["accepted"]
    assert server.play(table, seats["Bob"]["token"], "says no; draws")["accepted"] is False
    assert server.play(table, seats["Bob"]["token"], "says no")["accepted"]
    text = (Path(server.data) / f"{table}.txt").read_text()
    assert f"\n{ask}\nBob says no\n" in text
    status, answer = server.post(f"/api/tables/{table}/events",
                                 {"token": seats["Bob"]["token"], "text": "Ann draws"})
    assert status == 403 and "Bob's own moves" in answer["error"]


def test_a_hand_is_entered_privately_and_checked_at_once(server: Any) -> None:
    made = server.new_table(game="go-fish", players=GO_FISH)
    table, seats = made["table"], made["seats"]
    ann, bob = seats["Ann"]["token"], seats["Bob"]["token"]
    status, answer = server.post(f"/api/tables/{table}/hand", {"token": ann, "cards": ANN_HAND})
    assert status == 200 and answer["accepted"], answer
    status, twice = server.post(f"/api/tables/{table}/hand",
                                {"token": bob, "cards": ["2C", "3H", "4H", "5H", "6H"]})
    assert not twice["accepted"] and "2C is dealt twice" in twice["message"]
    assert "line" not in twice["message"]  # not whose hand holds it
    status, short = server.post(f"/api/tables/{table}/hand", {"token": bob, "cards": ["3H"]})
    assert not short["accepted"] and "not 1" in short["message"]
    server.play(table, seats["Ann"]["token"], "Ann asks Bob for 3")
    server.play(table, bob, "Bob says no")
    late = server.post(f"/api/tables/{table}/hand",  # Bob said he held no 3
                       {"token": bob, "cards": ["3H", "4H", "5H", "6H", "7H"]})[1]
    assert (late["accepted"], late["kind"], late["because"]) == (False, "contradiction", [])
    assert "contradict" in late["message"] and "line" not in late["message"]
    server.post(f"/api/tables/{table}/undo", {"token": made["host"]})
    server.post(f"/api/tables/{table}/undo", {"token": made["host"]})
    assert server.post(f"/api/tables/{table}/hand", {"token": made["host"],
                                                     "cards": ANN_HAND})[0] == 403
    assert server.get(f"/api/tables/{table}?token={ann}")[1]["view"]["hand"] == ANN_HAND
    bob_view = server.get(f"/api/tables/{table}?token={bob}")[1]
    assert bob_view["view"]["hand"] == [] and bob_view["entered"] == ["Ann"]
    assert not set(ANN_HAND) & _dynamic_cards(bob_view, set(referee.load_rules("go-fish").cards))


def test_every_change_is_pushed_to_every_page(server: Any) -> None:
    made = server.new_table(game="go-fish", players=GO_FISH)
    table, seats = made["table"], made["seats"]
    screen = made["screen"].split("#t=")[1]
    with server.socket(table, seats["Bob"]["token"]) as bob, server.socket(table, screen) as tv:
        assert json.loads(bob.recv(timeout=10))["version"] == 0
        assert json.loads(tv.recv(timeout=10))["role"] == "screen"
        server.play(table, seats["Ann"]["token"], "Ann asks Bob for 2")
        first = json.loads(bob.recv(timeout=10))  # the view at once, then Bob's moves
        assert first["awaiting"]["players"] == ["Bob"] and first["version"] == 1
        seen = first if first["legal_ready"] else json.loads(bob.recv(timeout=10))
        assert seen["legal_ready"] and "Bob says no" in seen["legal"]
        shown = json.loads(tv.recv(timeout=10))
        assert shown["view"]["last"] == "Ann asks Bob for 2; no answer yet"
        assert shown["legal"] == [] and "hand" not in shown["view"]
        server.play(table, seats["Bob"]["token"], "Bob asks Ann for 2")  # out of turn
        notice = json.loads(tv.recv(timeout=10))["notices"][-1]
        assert notice == {"id": notice["id"], "kind": "refused",
                          "text": "an event from Bob was out of turn"}


def test_a_contradiction_waits_for_the_host_and_names_no_hand(server: Any) -> None:
    made = server.new_table(game="go-fish", players=GO_FISH)
    table, seats, host = made["table"], made["seats"], made["host"]
    server.post(f"/api/tables/{table}/hand", {"token": seats["Bob"]["token"],
                                              "cards": ["2H", "3H", "4H", "5H", "6H"]})
    server.play(table, seats["Ann"]["token"], "Ann asks Bob for 2")
    said = server.play(table, seats["Bob"]["token"], "Bob says no")
    assert (said["accepted"], said["kind"]) == (False, "contradiction")
    assert "2H" not in json.dumps(said)
    assert said["because"] == [{"line": 4, "reason": "a hand entered privately"}]
    screen = made["screen"].split("#t=")[1]
    shown = server.get(f"/api/tables/{table}?token={screen}")[1]
    assert shown["awaiting"]["phase"] == "contradiction"
    assert shown["notices"][-1]["kind"] == "contradiction"
    assert server.post(f"/api/tables/{table}/accept", {"token": seats["Ann"]["token"]})[0] == 403
    status, accepted = server.post(f"/api/tables/{table}/accept", {"token": host})
    assert status == 200 and accepted["accepted"]
    text = (Path(server.data) / f"{table}.txt").read_text()
    assert "Bob says no\n# accepted by the table:" in text
    assert referee.Game.from_transcript(text).awaiting.words == "Ann to draw"


def test_a_contradiction_waiting_outlives_a_killed_server(tmp_path: Path,
                                                          start_process: Any) -> None:
    with start_process(tmp_path) as (first, process):
        made = first.new_table(game="go-fish", players=GO_FISH)
        table, seats, host = made["table"], made["seats"], made["host"]
        first.post(f"/api/tables/{table}/hand", {"token": seats["Bob"]["token"],
                                                 "cards": ["2H", "3H", "4H", "5H", "6H"]})
        first.play(table, seats["Ann"]["token"], "Ann asks Bob for 2")
        said = first.play(table, seats["Bob"]["token"], "Bob says no")
        assert said["kind"] == "contradiction"
        process.send_signal(signal.SIGKILL)
        process.wait(10)
    path = tmp_path / f"{table}.txt"
    assert path.read_text().endswith("Ann asks Bob for 2\n"
                                     "# contradicted, for the host to decide: Bob says no\n")
    assert referee.check_file(path).ok  # the comment is read past
    with start_process(tmp_path) as (second, _):
        shown = second.get(f"/api/tables/{table}?token={host}")[1]
        assert shown["awaiting"]["phase"] == "contradiction"
        assert second.post(f"/api/tables/{table}/accept", {"token": host})[1]["accepted"]
        text = path.read_text()
        assert "Bob says no\n# accepted by the table:" in text and "contradicted" not in text
    with start_process(tmp_path) as (third, _):
        shown = third.get(f"/api/tables/{table}?token={host}")[1]
        assert shown["awaiting"]["words"] == "Ann to draw"


def test_a_contradiction_dropped_leaves_no_line(server: Any) -> None:
    made = server.new_table(game="go-fish", players=GO_FISH)
    table, seats, host = made["table"], made["seats"], made["host"]
    server.post(f"/api/tables/{table}/hand", {"token": seats["Bob"]["token"],
                                              "cards": ["2H", "3H", "4H", "5H", "6H"]})
    server.play(table, seats["Ann"]["token"], "Ann asks Bob for 2")
    server.play(table, seats["Bob"]["token"], "Bob says no")
    path = Path(server.data) / f"{table}.txt"
    assert "contradicted" in path.read_text()
    assert server.post(f"/api/tables/{table}/undo", {"token": host})[1]["accepted"]
    assert path.read_text().endswith("Ann asks Bob for 2\n")


def test_the_journal_is_a_transcript_that_check_reads(server: Any) -> None:
    made = server.new_table(game="go-fish", players=GO_FISH, target=5)
    table, seats = made["table"], made["seats"]
    path = Path(server.data) / f"{table}.txt"
    server.play(table, seats["Ann"]["token"], "Ann asks Bob for 2")
    server.play(table, seats["Bob"]["token"], "Bob says no")
    assert path.read_text().endswith("Ann asks Bob for 2\nBob says no\n")
    server.post(f"/api/tables/{table}/hand", {"token": seats["Cy"]["token"],
                                              "cards": ["2S", "2D", "9H", "9S", "9D"]})
    text = path.read_text()
    assert "target: 5\n" in text and "hand Cy: 2S 2D 9H 9S 9D\n" in text
    assert text.index("hand Cy") < text.index("Ann asks Bob")
    assert referee.check(text).ok
    server.post(f"/api/tables/{table}/undo", {"token": made["host"]})
    assert path.read_text() == text.removesuffix("Bob says no\n")
    metadata = (Path(server.data) / f"{table}.json").stat()
    assert metadata.st_mode & 0o077 == 0


def test_a_fresh_link_for_a_lost_phone_ends_the_old_one(server: Any) -> None:
    made = server.new_table(game="go-fish", players=GO_FISH)
    table, old = made["table"], made["seats"]["Bob"]["token"]
    assert server.post(f"/api/tables/{table}/relink", {"token": old, "player": "Bob"})[0] == 403
    with server.socket(table, old) as phone:
        json.loads(phone.recv(timeout=10))
        status, fresh = server.post(f"/api/tables/{table}/relink",
                                    {"token": made["host"], "player": "Bob"})
        assert status == 200 and fresh["token"] != old
        with pytest.raises(ConnectionClosed):
            phone.recv(timeout=10)
    assert server.get(f"/api/tables/{table}?token={old}")[0] == 403
    assert server.get(f"/api/tables/{table}?token={fresh['token']}")[1]["player"] == "Bob"


def test_a_server_stopped_serves_every_table_again(tmp_path: Path, start_server: Any) -> None:
    with start_server(tmp_path) as first:
        made = first.new_table(game="go-fish", players=GO_FISH)
        table, ann = made["table"], made["seats"]["Ann"]["token"]
        first.post(f"/api/tables/{table}/hand", {"token": ann, "cards": ANN_HAND})
        first.play(table, ann, "Ann asks Bob for 2")
        before = first.get(f"/api/tables/{table}?token={ann}")[1]
    with start_server(tmp_path) as second:
        after = second.get(f"/api/tables/{table}?token={ann}")[1]
        assert after["view"] == before["view"] and after["legal"] == before["legal"]
        assert second.play(table, made["seats"]["Bob"]["token"], "Bob says no")["accepted"]


def test_a_server_killed_serves_every_table_where_it_was(tmp_path: Path,
                                                         start_process: Any) -> None:
    with start_process(tmp_path) as (first, process):
        made = first.new_table(game="literature", players=["A", "B", "C", "D", "E", "F"])
        table, a = made["table"], made["seats"]["A"]["token"]
        first.play(table, a, "A asks B for 3S")
        first.play(table, made["host"], "B says no")
        before = first.get(f"/api/tables/{table}?token={a}")[1]
        process.send_signal(signal.SIGKILL)
        process.wait(10)
    with start_process(tmp_path) as (second, _):
        after = second.get(f"/api/tables/{table}?token={a}")[1]
        assert after["view"] == before["view"]
        assert second.play(table, made["seats"]["B"]["token"], "B asks A for 4H")["accepted"]


@pytest.mark.parametrize(("rules", "players", "seed", "events"), [
    ("go-fish", GO_FISH, 5, 40),
    ("literature", ["A", "B", "C", "D", "E", "F"], 11, 16),
])
def test_no_message_holds_another_seats_cards(server: Any, rules: str, players: list[str],
                                              seed: int, events: int) -> None:
    """Three tables play the same game: every hand entered, one hand entered, none. No
    message to a seat holds another hand's cards, and a seat's moves are the same
    whatever the others entered: what they entered never shapes what a seat is shown."""
    truth = referee.Game.new(rules, players, deal=referee.Deal.seed(seed))
    dealt = {name: list(truth.view(name).hand or ()) for name in players}
    every, one, none = (server.new_table(game=rules, players=players) for _ in range(3))
    me = players[0]
    for name in players:
        _enter(server, every, name, dealt[name])
    _enter(server, one, me, dealt[me])
    screens = {made["table"]: made["screen"].split("#t=")[1] for made in (every, one, none)}
    rng = random.Random(seed)
    deck = set(referee.load_rules(rules).cards)
    sockets = [(made, name) for made in (every, one, none) for name in players]
    from contextlib import ExitStack

    with ExitStack() as stack:
        phones = {(made["table"], name): stack.enter_context(
            server.socket(made["table"], made["seats"][name]["token"]))
            for made, name in sockets}
        tvs = {table: stack.enter_context(server.socket(table, token))
               for table, token in screens.items()}
        full = referee.Game.from_transcript((Path(server.data) / f"{every['table']}.txt")
                                            .read_text())
        for _ in range(events):
            awaiting = full.awaiting
            if not awaiting.players:
                break
            name = awaiting.players[0]
            moves = [m for m in full.legal_moves(name, claims=False)]
            if not moves:
                break
            move = rng.choice(moves)
            assert full.play(move).accepted
            hands = {p: set(full.view(p).hand or ()) for p in players}
            for made in (every, one, none):
                answer = server.play(made["table"], made["seats"][name]["token"], move)
                assert answer["accepted"], (made is every, move, answer)
            versions = {made["table"]: server.version(made["table"], made["host"])
                        for made in (every, one, none)}
            views = {key: _last(ws, versions[key[0]]) for key, ws in phones.items()}
            for (_, seat), view in views.items():
                others = set().union(*(hands[p] for p in players if p != seat))
                assert not others & set(view["view"]["hand"]), (seat, view["view"]["hand"])
                assert not others & _dynamic_cards(view, deck), seat
            screens = []
            for table, ws in tvs.items():
                shown = _last(ws, versions[table])
                assert "hand" not in shown["view"] and shown["legal"] == []
                assert not set().union(*hands.values()) & _dynamic_cards(shown, deck)
                screens.append((shown["view"], shown["awaiting"], shown["notices"]))
            assert screens[0] == screens[1] == screens[2]  # the hands entered shape nothing
            for seat in players:
                seen = [{k: v for k, v in views[(made["table"], seat)]["view"].items()
                         if k not in ("hand", "unknown")} for made in (every, one, none)]
                assert seen[0] == seen[1] == seen[2], seat
            for seat in players:
                with_all = views[(every["table"], seat)]["legal"]
                with_one = views[(one["table"], seat)]["legal"]
                with_none = views[(none["table"], seat)]["legal"]
                if seat == me:
                    assert with_all == with_one, seat
                else:
                    assert with_one == with_none, seat


def _enter(server: Any, made: dict[str, Any], name: str, cards: list[str]) -> None:
    status, answer = server.post(f"/api/tables/{made['table']}/hand",
                                 {"token": made["seats"][name]["token"], "cards": cards})
    assert status == 200 and answer["accepted"], answer


def _last(ws: Any, version: int) -> dict[str, Any]:
    """The view a socket has for the table's change ``version``, with the seat's moves
    when it may act (they follow the view in a second message)."""
    while True:
        view: dict[str, Any] = json.loads(ws.recv(timeout=30))
        if view["version"] >= version and (view["legal_ready"] or not view["acting"]):
            return view


def _dynamic_cards(message: dict[str, Any], deck: set[str]) -> set[str]:
    """The card names in a message outside its deck (``cards``, ``sets``), its own hand,
    its moves, and the asks the table heard (the last, and what is awaited: an answer to
    an ask for 7H names 7H): what could only come from a hand."""
    kept = {k: v for k, v in message.items()
            if k not in ("cards", "sets", "legal", "claims", "awaiting")}
    view = {k: v for k, v in kept.get("view", {}).items()
            if k not in ("hand", "last", "asks", "awaiting")}
    words = json.dumps({**kept, "view": view, "notices": [n["text"] for n in
                                                          kept.get("notices", [])]})
    return {word for word in words.replace('"', " ").replace(",", " ").split() if word in deck}


def test_the_host_deals_a_match_its_next_hand(server: Any) -> None:
    quick = (Path(__file__).parent / "quick-fish.rules").read_text()
    made = server.new_table(rules_text=quick, players=["Ann", "Bob"], deal={"seed": 2},
                            target=50)
    table, host = made["table"], made["host"]
    too_soon = server.post(f"/api/tables/{table}/next", {"token": host})[1]
    assert not too_soon["accepted"] and "not over" in too_soon["message"]
    assert server.get(f"/api/tables/{table}?token={host}")[1]["view"]["match_hand"] == 1
    for _ in range(100):
        seen = server.get(f"/api/tables/{table}?token={host}")[1]
        if seen["next_hand"]:
            break
        seat = seen["awaiting"]["players"][0]
        legal = [move for name in seen["awaiting"]["players"] for move in server.get(
            f"/api/tables/{table}?token={made['seats'][name]['token']}")[1]["legal"]]
        assert server.play(table, made["seats"][seat]["token"] if legal[0].startswith(seat)
                           else host, legal[0])["accepted"]
    assert server.post(f"/api/tables/{table}/next", {"token": made["seats"]["Ann"]["token"]}
                       )[0] == 403
    status, dealt = server.post(f"/api/tables/{table}/next", {"token": host})
    assert status == 200 and dealt["accepted"], dealt
    seen = server.get(f"/api/tables/{table}?token={made['seats']['Ann']['token']}")[1]
    assert seen["view"]["match_hand"] == 2 and len(seen["view"]["hand"]) == 4
    one_hand = server.new_table(game="go-fish", players=GO_FISH)
    assert server.post(f"/api/tables/{one_hand['table']}/next",
                       {"token": one_hand["host"]})[0] == 409


def test_the_host_is_not_told_what_a_refusal_says_of_an_entered_hand(server: Any) -> None:
    made = server.new_table(game="go-fish", players=GO_FISH)
    table, host = made["table"], made["host"]
    server.post(f"/api/tables/{table}/hand", {"token": made["seats"]["Ann"]["token"],
                                              "cards": ANN_HAND})
    refused = server.play(table, host, "Ann asks Bob for 9")  # Ann holds no 9
    assert refused["kind"] == "contradiction"
    assert not set(ANN_HAND) & set(json.dumps(refused).replace('"', " ").split())
    assert refused["because"] == [{"line": 4, "reason": "a hand entered privately"}]
    assert server.post(f"/api/tables/{table}/undo", {"token": host})[1]["accepted"]
    plain = server.play(table, host, "Bob asks Cy for 9")
    assert plain["kind"] == "turn" and "Ann's turn" in plain["message"]


def test_only_a_hidden_deals_hands_are_entered_ones() -> None:
    from referee.serve.tables import without_hands

    text = ("game: go-fish\nplayers: Ann Bob\ntarget: 5\ndeal: hidden\nhand Ann: 2C\n\n"
            "Ann asks Bob for 2\nhand 2\ndeal: given\nhand Ann: 3C\nhand Bob: 4C\n"
            "Bob asks Ann for 4\nhand 3\ndeal: hidden\nhand Bob: 5C\n")
    assert without_hands(text) == text.replace("hand Ann: 2C\n", "").replace(
        "hand Bob: 5C\n", "")


def test_a_table_that_cannot_be_read_again_is_named_and_the_others_served(
        tmp_path: Path, start_server: Any) -> None:
    from referee.serve.tables import Tables

    with start_server(tmp_path) as first:
        kept = first.new_table(game="go-fish", players=GO_FISH)
        broken = first.new_table(game="go-fish", players=GO_FISH)
    with (tmp_path / f"{broken['table']}.txt").open("a") as handle:
        handle.write("Bob asks Ann for 2\n")  # out of turn
    tables = Tables(tmp_path)
    problems = tables.restore()
    assert list(tables.tables) == [kept["table"]]
    assert problems == [f"table {broken['table']} is not served: it is Ann's turn, not Bob's"]


@pytest.mark.parametrize(("arguments", "says"), [
    (["--port", "70000"], "--port takes a whole number from 1 to 65535"),
    (["--data", "{file}"], "is a file"),
    (["--data", "{file}/tables"], "cannot use"),
])
def test_serve_refuses_bad_usage_with_a_clean_message(tmp_path: Path, arguments: list[str],
                                                      says: str) -> None:
    import subprocess
    import sys

    afile = tmp_path / "a-file"
    afile.write_text("")
    done = subprocess.run([sys.executable, "-m", "referee", "serve",
                           *(a.replace("{file}", str(afile)) for a in arguments)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert says in done.stderr and "Traceback" not in done.stderr


def test_serve_on_a_port_in_use_is_a_usage_error(tmp_path: Path) -> None:
    import socket
    import subprocess
    import sys

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "referee", "serve", "--port", str(port),
                               "--data", str(tmp_path / "tables")],
                              capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert f"cannot serve at 127.0.0.1:{port}: Address already in use" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_seat_claims_a_set_card_by_card(server: Any) -> None:
    players = ["A", "B", "C", "D", "E", "F"]
    made = server.new_table(game="literature", players=players)
    a = made["seats"]["A"]["token"]
    seen = server.get(f"/api/tables/{made['table']}?token={a}")[1]
    assert seen["claims"]["teammates"] == ["A", "C", "E"]
    assert "low spades" in seen["claims"]["sets"] and not any(
        " claims " in move for move in seen["legal"])
    assert server.get(f"/api/tables/{made['table']}?token="
                      f"{made['seats']['B']['token']}")[1].get("claims") == {}
    claim = "A claims low spades: A 3S 4S, C 5S 6S, E 7S 8S"  # as the page builds it
    assert server.play(made["table"], a, claim)["accepted"]


def test_a_body_too_large_is_refused_unread(server: Any) -> None:
    status, answer = server.post("/api/tables", {"game": "go-fish", "players": GO_FISH,
                                                 "rules_text": "#" * 400_000})
    assert status == 413 and "too large" in answer["error"]


def test_a_seat_named_in_any_script_has_its_link(server: Any) -> None:
    made = server.new_table(game="go-fish", players=["Zoë", "Łukasz", "李"])
    url = made["seats"]["李"]["url"]
    assert "/seat/%E6%9D%8E#t=" in url
    import urllib.request

    with urllib.request.urlopen(url.split("#")[0], timeout=30) as page:
        assert page.status == 200 and b"seat.js" in page.read()


def test_a_hidden_match_takes_each_hands_entered_hands(server: Any) -> None:
    quick = (Path(__file__).parent / "quick-fish.rules").read_text()
    made = server.new_table(rules_text=quick, players=["Ann", "Bob"], target=50)
    table, host, seats = made["table"], made["host"], made["seats"]
    ann, bob = seats["Ann"]["token"], seats["Bob"]["token"]
    for token, cards in [(ann, ["9S", "9H", "9D", "9C"]), (bob, ["10S", "10H", "10D", "10C"])]:
        assert server.post(f"/api/tables/{table}/hand", {"token": token, "cards": cards}
                           )[1]["accepted"]
    assert server.play(table, ann, "Ann books 9")["accepted"]
    assert server.play(table, bob, "Bob books 10")["accepted"]  # Ann has no card: over
    assert server.get(f"/api/tables/{table}?token={host}")[1]["next_hand"]
    assert server.post(f"/api/tables/{table}/next", {"token": host})[1]["accepted"]
    seen = server.get(f"/api/tables/{table}?token={ann}")[1]
    assert (seen["view"]["match_hand"], seen["entered"], seen["hidden"]) == (2, [], True)
    assert server.post(f"/api/tables/{table}/hand", {"token": ann,
                                                     "cards": ["JS", "JH", "QS", "QH"]}
                       )[1]["accepted"]
    seen = server.get(f"/api/tables/{table}?token={bob}")[1]
    assert seen["entered"] == ["Ann"] and seen["view"]["hand"] == []
    text = (Path(server.data) / f"{table}.txt").read_text()
    assert text.endswith("hand 2\ndeal: hidden\nhand Ann: JS JH QS QH\n")
    assert referee.check_file(Path(server.data) / f"{table}.txt").ok


def test_a_game_at_work_blocks_neither_the_server_nor_other_tables(
        server: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """An event whose refereeing takes long (the hidden-deal solver) runs off the event
    loop: while it works, every other table answers."""
    import threading

    slow = server.new_table(game="go-fish", players=GO_FISH)
    other = server.new_table(game="go-fish", players=GO_FISH)
    working, release = threading.Event(), threading.Event()
    play = referee.Game.play

    def held(game: referee.Game, text: str) -> referee.Result:
        if "Cy" in text:
            working.set()
            release.wait(30)
        return play(game, text)

    monkeypatch.setattr(referee.Game, "play", held)
    done: list[dict[str, Any]] = []
    sender = threading.Thread(target=lambda: done.append(server.play(
        slow["table"], slow["seats"]["Ann"]["token"], "Ann asks Cy for 2")))
    sender.start()
    assert working.wait(30)
    try:
        status, seen = server.get(f"/api/tables/{other['table']}?token={other['host']}")
        assert status == 200 and seen["awaiting"]["players"]
        assert server.play(other["table"], other["seats"]["Ann"]["token"],
                           "Ann asks Bob for 2")["accepted"]
        assert not done
    finally:
        release.set()
        sender.join(30)
    assert done and done[0]["accepted"]


@pytest.mark.parametrize("data", [b"{not json", b"[1, 2]", b"\xff\xfe", b"null", b"1e999999",
                                  b'{"x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"])
def test_a_body_that_is_no_json_object_gets_400(server: Any, data: bytes) -> None:
    made = server.new_table(game="go-fish", players=GO_FISH)
    for path in ["/api/tables", f"/api/tables/{made['table']}/events"]:
        status, answer = server.send("POST", path, data)
        assert status == 400 and "one JSON object" in answer["error"], (path, data[:20])


@pytest.mark.parametrize("first", ["not json", b"\x00\x01", "[1]", '{"token": 5}',
                                   "[" * 100_000 + "]" * 100_000])
def test_a_websocket_whose_first_message_is_no_token_is_closed_with_4403(
        server: Any, first: str | bytes) -> None:
    made = server.new_table(game="go-fish", players=GO_FISH)
    with connect(server.base.replace("http", "ws", 1) + f"/ws/{made['table']}") as ws, \
            pytest.raises(ConnectionClosed) as closed:
        ws.send(first)
        ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
    assert server.get(f"/api/tables/{made['table']}?token={made['host']}")[0] == 200


def test_no_such_path_or_method_is_an_api_error_too(server: Any) -> None:
    assert server.get("/api/nothing") == (404, {"error": "not found"})
    assert server.get("/static/../referee/serve/app.py")[0] == 404
    assert server.send("PUT", "/api/tables", b"{}") == (405, {"error": "method not allowed"})


def test_a_contradiction_the_table_cannot_take_leaves_the_host_nothing_to_decide(
        server: Any) -> None:
    made = server.new_table(game="go-fish", players=GO_FISH)
    table, seats, host = made["table"], made["seats"], made["host"]
    hands = {"Ann": ["4D", "4C", "5H", "6C", "AC"], "Bob": ["6H", "7D", "9S", "9H", "10S"],
             "Cy": ["2C", "3D", "8D", "10H", "JS"]}
    for name, cards in hands.items():
        assert server.post(f"/api/tables/{table}/hand", {"token": seats[name]["token"],
                                                         "cards": cards})[1]["accepted"]
    server.play(table, seats["Ann"]["token"], "Ann asks Bob for 4")
    server.play(table, seats["Bob"]["token"], "Bob says no")
    before = server.version(table, host)
    drew = server.play(table, seats["Ann"]["token"], "Ann draws 2C")  # Cy holds 2C
    assert (drew["accepted"], drew["kind"]) == (False, "contradiction")
    assert "host" not in drew["message"] and "Cy" not in json.dumps(drew)
    screen = made["screen"].split("#t=")[1]
    shown = server.get(f"/api/tables/{table}?token={screen}")[1]
    assert shown["version"] > before
    assert shown["awaiting"]["phase"] == "draw"
    assert shown["notices"][-1]["kind"] == "refused"
    assert "host decides" not in shown["notices"][-1]["text"]
    assert server.post(f"/api/tables/{table}/accept", {"token": host})[0] == 409
    assert "contradicted" not in (Path(server.data) / f"{table}.txt").read_text()
    assert server.play(table, seats["Ann"]["token"], "Ann draws")["accepted"]


def test_the_host_learns_no_hand_the_referee_dealt(server: Any) -> None:
    """Of a hand the referee dealt (a seed), which moves are legal and why one is not
    tell what the mover holds: the host page is offered none and told no reason."""
    made = server.new_table(game="go-fish", players=GO_FISH, deal={"seed": 5})
    table, host = made["table"], made["host"]
    game = referee.Game.new("go-fish", GO_FISH, deal=referee.Deal.seed(5))
    hands = {name: set(game.view(name).hand or ()) for name in GO_FISH}
    asker = game.awaiting.players[0]
    seen = server.get(f"/api/tables/{table}?token={host}")[1]
    assert seen["legal"] == [] and not seen["hidden"]
    held = {card[:-1] for card in hands[asker]}
    missing = next(rank for rank in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q",
                                     "K", "A") if rank not in held)
    other = next(name for name in GO_FISH if name != asker)
    refused = server.play(table, host, f"{asker} asks {other} for {missing}")
    assert not refused["accepted"] and "only " + asker + "'s page shows" in refused["message"]
    told = json.dumps([refused, server.get(f"/api/tables/{table}?token={host}")[1]])
    assert not set().union(*hands.values()) & set(re.findall(r"\b[0-9AJQK]+[CDHS]\b", told))
    own = made["seats"][asker]["token"]
    assert server.get(f"/api/tables/{table}?token={own}")[1]["legal"]
