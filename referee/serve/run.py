"""Start the server: restore every table kept under ``--data``, then serve HTTP and
WebSockets with uvicorn until Ctrl-C (or a kill: every accepted event is on the disk)."""

from __future__ import annotations

import os
import socket
from pathlib import Path

from referee.errors import Kind, RefereeError
from referee.serve.tables import Tables, warn


def serve(host: str, port: int, data: Path) -> int:
    """Serve the tables under ``data`` at ``host``:``port``; the exit status."""
    import uvicorn

    from referee.serve.app import make_app

    try:
        data.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise RefereeError(Kind.USAGE, f"cannot use {data} for the tables: "
                           f"{exc.strerror or exc}") from None
    if data.is_symlink() or not data.is_dir() or not os.access(data, os.W_OK):
        raise RefereeError(Kind.USAGE, f"{data} is not a folder the server may write")
    tables = Tables(data)
    for problem in tables.restore():
        warn(problem)
    shown = f"[{host}]" if ":" in host else host
    listening = _bound(host, port, shown)
    warn(f"referee serve: {len(tables.tables)} tables from {data}; "
         f"open http://{shown}:{port}/ to start one (Ctrl-C stops)")
    config = uvicorn.Config(make_app(tables), access_log=False, log_level="warning",
                            ws="websockets-sansio", lifespan="off")
    uvicorn.Server(config).run(sockets=[listening])
    return 0


def _bound(host: str, port: int, shown: str) -> socket.socket:
    """A socket bound to ``host``:``port`` for uvicorn to listen on; an address that
    cannot be had (in use, not this machine's) is a usage error, not uvicorn's exit 3."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    except (OSError, UnicodeError) as exc:
        raise RefereeError(Kind.USAGE, f"cannot serve at {shown}:{port}: "
                           f"{getattr(exc, 'strerror', None) or exc}") from None
    listening = socket.socket(family, kind, proto)
    try:
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind(address)
    except OSError as exc:
        listening.close()
        raise RefereeError(Kind.USAGE, f"cannot serve at {shown}:{port}: "
                           f"{exc.strerror or exc}") from None
    return listening
