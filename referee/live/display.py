"""Tables for people: what is known of every card, by player; every cell is data."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from referee.sanitize import printable

PUBLIC_PLACES = ("stock", "centre", "sets", "piles")


def cell(text: str) -> Text:
    """``text`` (a name, a card, a rule file's title) as rich should show it: data,
    never markup (``[b]Bob`` stays ``[b]Bob``), and printable before it is drawn, so
    that a drawn table needs no sanitising that would take rich's colours too."""
    return Text(printable(text))


def knowledge_table(knowledge: dict[str, list[str]], state: dict[str, Any] | None) -> Table:
    """One row per player (then the stock and the public places): the cards known to be
    there, and the cards that may be there."""
    hands = state["hands"] if state else {}
    places = [*hands, *PUBLIC_PLACES]
    known: dict[str, list[str]] = {place: [] for place in places}
    maybe: dict[str, list[str]] = {place: [] for place in places}
    for card, where in knowledge.items():
        for place in where:
            (known if len(where) == 1 else maybe).setdefault(place, []).append(card)
    table = Table(title="What is known of every card", show_lines=True)
    table.add_column("place", style="bold")
    table.add_column("cards", justify="right")
    table.add_column("known to hold")
    table.add_column("may hold")
    for place in places:
        if not known.get(place) and not maybe.get(place) and place not in hands:
            continue
        if place in hands:
            count = str(hands[place])
        elif place == "stock":
            count = str(state.get("stock", 0) if state else 0)
        else:
            count = str(len(known[place]))
        table.add_row(cell(place), count, cell(" ".join(known[place]) or "-"),
                      cell(" ".join(maybe[place]) or "-"))
    return table


def table_text(table: Table) -> str:
    """A table drawn as rich would draw it on standard output (as wide, in colour on a
    terminal, in ASCII where that is all it can show), but returned, not written: the
    caller writes it as drawn (referee.cli.output.echo_drawn), its cells made printable."""
    screen = Console(soft_wrap=False)
    canvas = io.TextIOWrapper(io.BytesIO(), encoding=screen.encoding, errors="replace")
    Console(file=canvas, soft_wrap=False, width=screen.width, markup=False, emoji=False,
            highlight=False, force_terminal=screen.is_terminal).print(table)
    canvas.flush()
    return canvas.buffer.getvalue().decode(screen.encoding).rstrip("\n")
