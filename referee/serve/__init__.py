"""``referee serve``: the table on its phones. A shared screen, a private page per seat
and a host page, over HTTP and WebSockets, built on the public API (``import referee``).

``tables.py`` keeps the tables (tokens, one game each, restored from ``--data`` at
start) and ``storage.py`` their files; ``actions.py`` is what a token may do and
``payloads.py`` what it may see; ``app.py`` is the Starlette application, ``run.py``
starts it with uvicorn; ``static/`` holds the pages, shipped in the package.
"""
