"""Start the server: restore every table kept under ``--data``, then serve HTTP and
WebSockets with uvicorn until Ctrl-C (or a kill: every accepted event is on the disk)."""

from __future__ import annotations

import os
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
    warn(f"referee serve: {len(tables.tables)} tables from {data}; "
         f"open http://{shown}:{port}/ to start one (Ctrl-C stops)")
    uvicorn.run(make_app(tables), host=host, port=port, access_log=False,
                log_level="warning", ws="websockets-sansio", lifespan="off")
    return 0
