"""A ``referee serve`` on a free loopback port, in a thread (or a process, to be
killed), and small clients for its HTTP API and WebSockets."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="referee serve's web parts are not installed")
uvicorn = pytest.importorskip("uvicorn")
from websockets.sync.client import ClientConnection, connect  # noqa: E402

from referee.serve.app import make_app  # noqa: E402
from referee.serve.tables import Tables  # noqa: E402


class Client:
    """Requests to one server at ``base``."""

    def __init__(self, base: str, data: Path) -> None:
        self.base = base
        self.data = data

    def request(self, method: str, path: str, body: dict[str, Any] | None = None
                ) -> tuple[int, Any]:
        return self.send(method, path, None if body is None else json.dumps(body).encode())

    def send(self, method: str, path: str, data: bytes | None) -> tuple[int, Any]:
        """``data`` as the body, as it is."""
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")

    def post(self, path: str, body: dict[str, Any]) -> tuple[int, Any]:
        return self.request("POST", path, body)

    def get(self, path: str) -> tuple[int, Any]:
        return self.request("GET", path)

    def new_table(self, **asked: Any) -> dict[str, Any]:
        status, made = self.post("/api/tables", asked)
        assert status == 201, made
        return dict(made)

    def play(self, table: str, token: str, text: str) -> dict[str, Any]:
        status, answer = self.post(f"/api/tables/{table}/events", {"token": token, "text": text})
        assert status == 200, answer
        return dict(answer)

    def version(self, table: str, token: str) -> int:
        """The table's change count now."""
        return int(self.get(f"/api/tables/{table}?token={token}")[1]["version"])

    @contextmanager
    def socket(self, table: str, token: str) -> Iterator[ClientConnection]:
        with connect(self.base.replace("http", "ws", 1) + f"/ws/{table}") as ws:
            ws.send(json.dumps({"token": token}))
            yield ws


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def threaded_server(data: Path) -> Iterator[Client]:
    tables = Tables(data)
    tables.restore()
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(make_app(tables), host="127.0.0.1", port=port,
                                           log_level="warning", ws="websockets-sansio",
                                           lifespan="off", access_log=False))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        if not thread.is_alive():
            raise RuntimeError("the server did not start")
        time.sleep(0.02)
    try:
        yield Client(f"http://127.0.0.1:{port}", data)
    finally:
        server.should_exit = True
        thread.join(10)


@contextmanager
def process_server(data: Path, port: int | None = None
                   ) -> Iterator[tuple[Client, subprocess.Popen[bytes]]]:
    """``referee serve`` in its own process (to be killed with SIGKILL)."""
    port = port or free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "referee", "serve", "--port", str(port), "--data", str(data)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env={**os.environ})
    client = Client(f"http://127.0.0.1:{port}", data)
    try:
        for _ in range(300):
            try:
                client.get("/api/rules")
                break
            except OSError:
                if process.poll() is not None:
                    raise RuntimeError(process.stderr.read().decode()  # type: ignore[union-attr]
                                       ) from None
                time.sleep(0.05)
        yield client, process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(10)
        if process.stderr is not None:
            process.stderr.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Client]:
    with threaded_server(tmp_path) as client:
        yield client


@pytest.fixture
def start_server() -> Any:
    """Start a server in a thread on a folder: a context manager giving its client."""
    return threaded_server


@pytest.fixture
def start_process() -> Any:
    """Start ``referee serve`` in a process: a context manager giving (client, process)."""
    return process_server
