"""Tables for people: what is known of every card, by player."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console
from rich.table import Table

PUBLIC_PLACES = ("stock", "centre", "sets", "piles")


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
        table.add_row(place, count, " ".join(known[place]) or "-",
                      " ".join(maybe[place]) or "-")
    return table


def table_text(table: Table) -> str:
    """A table drawn as rich would draw it on standard output (as wide, in colour on a
    terminal, in ASCII where that is all it can show), but returned, not written: the
    caller writes it, as it writes everything else."""
    screen = Console(soft_wrap=False)
    canvas = io.TextIOWrapper(io.BytesIO(), encoding=screen.encoding, errors="replace")
    Console(file=canvas, soft_wrap=False, width=screen.width,
            force_terminal=screen.is_terminal).print(table)
    canvas.flush()
    return canvas.buffer.getvalue().decode(screen.encoding).rstrip("\n")
