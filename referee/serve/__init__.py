"""``referee serve``: the table on its phones. A shared screen, a private page per seat
and a host page, over HTTP and WebSockets, built on the public API (``import referee``).

``tables.py`` keeps the tables (tokens, one game and one journal each, restored from
``--data`` at start); ``views.py`` words what each token may see; ``app.py`` is the
Starlette application; ``static/`` holds the pages, shipped in the package.
"""
