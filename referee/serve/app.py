"""The web application: the HTTP API of docs/serve.md, a WebSocket per token that pushes
its view after every change, and the pages under ``static/``.

Starlette: a small ASGI toolkit with WebSockets built in; the pages are static files
whose script asks the API for everything, so no templating is needed. Every change to
a game runs in a worker thread while the table's lock is held (the hidden-deal
solver may take a while: the event loop keeps serving the other tables), then every
page listening to that table gets its new view.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from referee.serve import actions
from referee.serve.payloads import payload, payloads
from referee.serve.qr import qr_svg
from referee.serve.tables import HOST, SCREEN, Access, Table, TableError, Tables, bundled_names

STATIC = Path(__file__).parent / "static"
MAX_BODY = 300_000  # a request's JSON: an uploaded rule file and a little more
FORBIDDEN = 4403  # a WebSocket closed for a wrong token
TOO_MANY = 4429  # ... for one too many on its table
MAX_LISTENERS = 100  # open WebSockets per table: a few per seat, the screens, the host
T = TypeVar("T")


class Listener:
    """One open WebSocket: the latest view waiting to be sent (older ones are dropped)."""

    def __init__(self, access: Access, token: str) -> None:
        self.access = access
        self.token = token  # a fresh link for the seat ends this socket
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=1)

    def offer(self, view: dict[str, Any]) -> None:
        """Replace whatever waits with ``view``."""
        with contextlib.suppress(asyncio.QueueEmpty):
            self.queue.get_nowait()
        self.queue.put_nowait(view)


def make_app(tables: Tables) -> Starlette:
    """The application serving ``tables``."""
    pushing: set[asyncio.Task[None]] = set()  # the moves on their way (kept from the GC)

    async def locked(table: Table, work: Callable[[], T]) -> T:
        """Run ``work`` on ``table`` in a worker thread, holding its lock; when it changed
        the table, push every page its new view before answering, and the acting seats
        their moves after (the hidden-deal solver may take a while to find them)."""
        async with table.lock:
            version = table.version
            result = await run_in_threadpool(work)
            changed = table.version != version
            if changed:
                await push_views(table)
        if changed:
            task = asyncio.create_task(push_moves(table, table.version))
            pushing.add(task)
            task.add_done_callback(pushing.discard)
        return result

    async def push_views(table: Table) -> None:
        """Every page's new view, without the seats' moves."""
        listeners = list(table.listeners)
        if listeners:
            accesses = {listener.access for listener in listeners}
            views = await run_in_threadpool(lambda: payloads(table, accesses, moves=False))
            for listener in listeners:
                listener.offer(views[listener.access])

    async def push_moves(table: Table, version: int) -> None:
        """The views with their moves to the seats that may act and the host, unless
        the table has changed again since ``version`` (then the next push does it)."""
        async with table.lock:
            if table.version != version:
                return
            movers = {listener.access for listener in table.listeners
                      if listener.access.player is not None or listener.access.role == HOST}
            if not movers:
                return
            views = await run_in_threadpool(payloads, table, movers)
            for listener in list(table.listeners):
                view = views.get(listener.access)
                if view is not None and (view["acting"] or view["role"] == HOST):
                    listener.offer(view)

    async def body(request: Request) -> dict[str, Any]:
        data = b""
        async for chunk in request.stream():  # read no further than the limit
            data += chunk
            if len(data) > MAX_BODY:
                raise TableError(413, "that request is too large")
        found = _json_object(data or b"{}")
        if found is None:
            raise TableError(400, "the body is one JSON object")
        return found

    def authorised(table: Table, token: object) -> Access:
        access = table.access(token)
        if access is None:
            raise TableError(403, "that link is not (or no longer) this table's")
        return access

    def links(request: Request, table: Table) -> dict[str, Any]:
        base = str(request.base_url).rstrip("/")
        return {
            "table": table.id, "host": table.tokens[HOST],
            "host_url": f"{base}/t/{table.id}/host#t={table.tokens[HOST]}",
            "screen": f"{base}/t/{table.id}/screen#t={table.tokens[SCREEN]}",
            "seats": {name: {"token": table.tokens[f"seat {name}"],
                             "url": f"{base}/t/{table.id}/seat/{quote(name, safe='')}"
                                    f"#t={table.tokens[f'seat {name}']}"}
                      for name in table.game.players}}

    async def create_table(request: Request) -> Response:
        asked = await body(request)
        table = await run_in_threadpool(tables.create, asked)
        return JSONResponse(links(request, table), status_code=201)

    bundled: list[dict[str, Any]] = []  # the start page's list, made when first asked

    async def list_rules(request: Request) -> Response:
        def describe() -> list[dict[str, Any]]:
            import referee

            found = []
            for name in bundled_names():
                rules = referee.load_rules(name)
                found.append({"name": name, "title": rules.title,
                              "players": list(rules.players), "options": rules.options})
            return found
        if not bundled:
            bundled.extend(await run_in_threadpool(describe))
        return JSONResponse(bundled)

    async def table_view(request: Request) -> Response:
        table = tables.get(request.path_params["table"])
        access = authorised(table, request.query_params.get("token"))
        return JSONResponse(await locked(table, lambda: payload(table, access)))

    async def table_links(request: Request) -> Response:
        table = tables.get(request.path_params["table"])
        access = authorised(table, request.query_params.get("token"))
        if access.role != HOST:
            raise TableError(403, "only the host page shows the links")
        found = links(request, table)
        found["qr"] = {name: qr_svg(seat["url"]) for name, seat in found["seats"].items()}
        found["qr"][""] = qr_svg(found["screen"])
        return JSONResponse(found)

    def acting(action: Callable[[Table, Access, dict[str, Any]], Any]
               ) -> Callable[[Request], Any]:
        async def endpoint(request: Request) -> Response:
            table = tables.get(request.path_params["table"])
            asked = await body(request)
            access = authorised(table, asked.get("token"))
            return JSONResponse(await locked(table, lambda: action(table, access, asked)))
        return endpoint

    def relinked(table: Table, access: Access, asked: dict[str, Any]) -> dict[str, Any]:
        token = actions.relink(table, access, asked.get("player"))
        return {"player": asked["player"], "token": token}

    async def socket(websocket: WebSocket) -> None:
        await websocket.accept()
        try:
            table = tables.get(websocket.path_params["table"])
            message = await websocket.receive()
            first = _json_object(message.get("text") or message.get("bytes") or b"")
            token = first.get("token") if first is not None else None
            access = authorised(table, token)
        except (TableError, WebSocketDisconnect):
            with contextlib.suppress(Exception):
                await websocket.close(FORBIDDEN)
            return
        if len(table.listeners) >= MAX_LISTENERS:
            await websocket.close(TOO_MANY)
            return
        listener = Listener(access, str(token))
        table.listeners.add(listener)
        try:
            listener.offer(await locked(table, lambda: payload(table, access)))
            async with asyncio.TaskGroup() as group:
                sender = group.create_task(_send(websocket, listener, table, access))
                await _drain(websocket)
                sender.cancel()
        except (WebSocketDisconnect, RuntimeError, ExceptionGroup):
            pass
        finally:
            table.listeners.discard(listener)
            if not table.listeners:
                table.forget_known()  # an idle table keeps only its game

    async def page(request: Request) -> Response:
        name = request.path_params["page"]
        if name not in ("host", "screen"):
            raise TableError(404, "there is no such page")
        return FileResponse(STATIC / f"{name}.html")

    async def start(request: Request) -> Response:
        return FileResponse(STATIC / "start.html")

    async def refused(request: Request, error: Exception) -> Response:
        assert isinstance(error, TableError)
        return JSONResponse({"error": error.message}, status_code=error.status)

    async def http_error(request: Request, error: Exception) -> Response:
        """No such path, or not by that method: the API's error form too."""
        assert isinstance(error, HTTPException)
        return JSONResponse({"error": error.detail.lower()}, status_code=error.status_code,
                            headers=error.headers)

    routes = [
        Route("/", start),
        Route("/t/{table}/seat/{player:path}", lambda r: FileResponse(STATIC / "seat.html")),
        Route("/t/{table}/{page:str}", page),
        Route("/api/rules", list_rules),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{table}", table_view),
        Route("/api/tables/{table}/links", table_links),
        Route("/api/tables/{table}/events", acting(
            lambda t, a, q: actions.play(t, a, q.get("text"))), methods=["POST"]),
        Route("/api/tables/{table}/hand", acting(
            lambda t, a, q: actions.enter_hand(t, a, q.get("cards"))), methods=["POST"]),
        Route("/api/tables/{table}/undo", acting(
            lambda t, a, q: actions.undo(t, a)), methods=["POST"]),
        Route("/api/tables/{table}/accept", acting(
            lambda t, a, q: actions.accept(t, a)), methods=["POST"]),
        Route("/api/tables/{table}/done", acting(
            lambda t, a, q: actions.done(t, a)), methods=["POST"]),
        Route("/api/tables/{table}/next", acting(
            lambda t, a, q: actions.next_hand(t, a)), methods=["POST"]),
        Route("/api/tables/{table}/relink", acting(relinked), methods=["POST"]),
        WebSocketRoute("/ws/{table}", socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, exception_handlers={
        TableError: refused, HTTPException: http_error})


async def _send(websocket: WebSocket, listener: Listener, table: Table,
                access: Access) -> None:
    while True:
        view = await listener.queue.get()
        if table.access(listener.token) != access:
            await websocket.close(FORBIDDEN)
            return
        await websocket.send_json(view)


def _json_object(data: str | bytes) -> dict[str, Any] | None:
    """``data`` read as one JSON object, or None: not JSON, not UTF-8, not an object, or
    nested deeper than Python's parser goes."""
    try:
        found = json.loads(data)
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        return None
    return found if isinstance(found, dict) else None


async def _drain(websocket: WebSocket) -> None:
    """Read (and ignore) what the page sends until it goes."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
