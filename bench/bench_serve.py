"""Print the figures of ``referee serve`` (issue 20): many tables of six phones and a
shared screen on one server, over loopback WebSockets; the time from an event sent to
every page of its table holding the new view, median and 99th percentile, at table pace
and at full speed; and the server's memory per table.

Usage: python bench/bench_serve.py [--tables 50] [--events 40] [--pace 3.0] [--seed 2026]
                                   [--hands all|none]

The server runs in its own process (``referee serve`` on a free loopback port, its
tables in a temporary folder). Each table is a hidden six-player Literature game whose
events are a self-played game's (``play_one(..., hidden=True)``); with ``--hands all``
each seat first enters its dealt hand, so every answer is checked against the cards.
Each event is sent by its own seat (``POST /api/tables/ID/events``); its time runs from
the request to the moment the last of the table's seven WebSockets (six seats and the
screen) has received the view that follows it; and to the moment the seats that may act
have their moves too (the server sends them in a second message, as the hidden-deal
solver may take a while to find them). At table pace every table sends an
event every ``--pace`` seconds (started at random offsets); at full speed each table
sends its next event as soon as the last one has reached every page. Memory is the
server's resident set growth from one table to ``--tables + 1``, over ``--tables``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from referee.authoring.simulate import PLAYER_NAMES, play_one, seeds
from referee.engine.core import Engine
from referee.language.loader import load_spec
from referee.language.rulefiles import find_rule_file

RULES = "literature"
PLAYERS = 6


@dataclass
class Table:
    """One table as the bench drives it: its tokens, events, and what its pages hold."""

    made: dict[str, Any]
    events: list[str]
    hands: dict[str, str]
    seen: list[int] = field(default_factory=list)  # each page's newest version
    ready: list[int] = field(default_factory=list)  # ... with its moves (legal_ready)
    acting: list[bool] = field(default_factory=list)  # whether the page's seat may act
    expected: int = 0
    reached: asyncio.Event = field(default_factory=asyncio.Event)
    viewed_at: float = 0.0  # when every page had the view of the version expected
    times: list[float] = field(default_factory=list)  # to every page's view
    move_times: list[float] = field(default_factory=list)  # ... and the acting seats' moves
    refused: int = 0

    def viewed(self) -> bool:
        return min(self.seen) >= self.expected

    def moves_ready(self) -> bool:
        return self.viewed() and all(
            ready >= self.expected for ready, acts in zip(self.ready, self.acting, strict=True)
            if acts)


async def request(port: int, method: str, path: str, body: dict[str, Any] | None = None
                  ) -> tuple[int, Any]:
    """One HTTP/1.1 request to the server; its status and JSON body."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    data = json.dumps(body).encode() if body is not None else b""
    writer.write(f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                 f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n"
                 .encode() + data)
    await writer.drain()
    raw = await reader.read()
    writer.close()
    head, _, payload = raw.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(payload or b"{}")


def games(count: int, seed: int) -> list[tuple[list[str], dict[str, str]]]:
    """``count`` self-played hidden games: their events, and the hands dealt."""
    path = find_rule_file(RULES)
    assert path is not None
    engine = Engine(load_spec(path))
    found = []
    for game_seed in seeds(seed, count):
        hidden = play_one(engine, PLAYERS, game_seed, transcript=True, hidden=True).lines
        given = play_one(engine, PLAYERS, game_seed, transcript=True, hidden=False).lines
        hands = {line.split()[1].rstrip(":"): line.split(":", 1)[1].strip()
                 for line in given if line.startswith("hand ")}
        found.append((list(hidden[hidden.index("deal: hidden") + 1:]), hands))
    return found


def _figures(times: list[float]) -> str:
    return (f"median {statistics.median(times) * 1000:.1f} ms, 99th percentile "
            f"{times[int(len(times) * 0.99)] * 1000:.1f} ms, worst {times[-1] * 1000:.0f} ms")


def resident_kb(pid: int) -> int:
    """The process's resident set, in kB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def listen(socket_: ClientConnection, table: Table, index: int) -> None:
    async for message in socket_:
        view = json.loads(message)
        version = int(view["version"])
        table.seen[index] = max(table.seen[index], version)
        table.acting[index] = bool(view["acting"])
        if view["legal_ready"]:
            table.ready[index] = max(table.ready[index], version)
        if table.viewed() and not table.viewed_at:
            table.viewed_at = time.perf_counter()
        if table.moves_ready():
            table.reached.set()


async def play(port: int, table: Table, events: int, pace: float | None,
               rng: random.Random) -> None:
    """Send the table's events, timing each until every page has its view."""
    if pace is not None:
        await asyncio.sleep(rng.uniform(0, pace))
    identifier = table.made["table"]
    for line in table.events[:events]:
        seat = line.split()[0]
        token = table.made["seats"][seat]["token"] if seat in table.made["seats"] else (
            table.made["host"])
        table.viewed_at = 0.0
        table.expected += 1  # before the request: the views may come before its answer
        began = time.perf_counter()
        status, answer = await request(port, "POST", f"/api/tables/{identifier}/events",
                                       {"token": token, "text": line})
        if status != 200 or not answer.get("accepted"):
            table.refused += 1
            table.expected -= 1
            continue
        while not table.moves_ready():
            table.reached.clear()
            await table.reached.wait()
        table.times.append(table.viewed_at - began)
        table.move_times.append(time.perf_counter() - began)
        if pace is not None:
            await asyncio.sleep(max(0.0, pace - (time.perf_counter() - began)))


async def run(port: int, pid: int, count: int, events: int, pace: float, seed: int,
              enter: bool) -> None:
    rng = random.Random(seed)
    played = games(count * 2, seed)
    names = list(PLAYER_NAMES[:PLAYERS])
    body = {"game": RULES, "players": names, "dealer": names[-1]}
    await request(port, "POST", "/api/tables", body)  # the rules compiled, a table warm
    before = resident_kb(pid)
    rounds: dict[str, list[Table]] = {"table pace": [], "full speed": []}
    grown = 0
    for number, (lines, hands) in enumerate(played):
        status, made = await request(port, "POST", "/api/tables", body)
        assert status == 201, made
        table = Table(made, lines, hands)
        if enter:
            for name, cards in hands.items():
                status, answer = await request(
                    port, "POST", f"/api/tables/{made['table']}/hand",
                    {"token": made["seats"][name]["token"], "cards": cards.split()})
                assert answer.get("accepted"), answer
            table.expected = len(hands)
        rounds["table pace" if number < count else "full speed"].append(table)
        if number == count - 1:
            grown = resident_kb(pid) - before
    for label, tables in rounds.items():
        sockets: list[ClientConnection] = []
        listeners = []
        for table in tables:
            screen = table.made["screen"].split("#t=")[1]
            tokens = [seat["token"] for seat in table.made["seats"].values()] + [screen]
            table.seen = [-1] * len(tokens)
            table.ready = [-1] * len(tokens)
            table.acting = [False] * len(tokens)
            for index, token in enumerate(tokens):
                ws = await connect(f"ws://127.0.0.1:{port}/ws/{table.made['table']}",
                                   max_size=2**24)
                await ws.send(json.dumps({"token": token}))
                sockets.append(ws)
                listeners.append(asyncio.create_task(listen(ws, table, index)))
        while not all(t.moves_ready() for t in tables):
            await asyncio.sleep(0.05)
        began = time.perf_counter()
        await asyncio.gather(*(play(port, t, events, pace if label == "table pace" else None,
                                    rng) for t in tables))
        took = time.perf_counter() - began
        times = sorted(x for t in tables for x in t.times)
        move_times = sorted(x for t in tables for x in t.move_times)
        refused = sum(t.refused for t in tables)
        print(f"{label}: {len(tables)} tables x {PLAYERS} seats + a screen, {len(times)} "
              f"events ({refused} refused) in {took:.1f} s ({len(times) / took:.0f}/s): "
              f"event to every page's view {_figures(times)}; to the acting seats' "
              f"moves too {_figures(move_times)}")
        for ws in sockets:
            await ws.close()
        for task in listeners:
            task.cancel()
    played_kb = resident_kb(pid) - before
    print(f"memory: {grown / count:.0f} kB resident per table ({count} hidden tables of "
          f"{PLAYERS}{', every hand entered' if enter else ''}, before play); "
          f"{played_kb / (2 * count):.0f} kB per table once {2 * count} tables have played "
          f"{events} events each")


def main() -> None:
    """Start a server, measure, print the figures."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--events", type=int, default=40)
    parser.add_argument("--pace", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--hands", choices=("all", "none"), default="all")
    args = parser.parse_args()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    with tempfile.TemporaryDirectory() as folder:
        server = subprocess.Popen([sys.executable, "-m", "referee", "serve", "--port",
                                   str(port), "--data", folder], env={**os.environ})
        try:
            for _ in range(200):
                try:
                    socket.create_connection(("127.0.0.1", port), 0.2).close()
                    break
                except OSError:
                    time.sleep(0.05)
            asyncio.run(run(port, server.pid, args.tables, args.events, args.pace,
                            args.seed, args.hands == "all"))
        finally:
            server.terminate()
            server.wait(10)


if __name__ == "__main__":
    main()
