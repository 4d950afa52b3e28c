"""What a session played, in canonical notation, and the user's text written back.

``referee format`` prints a transcript in canonical notation, every answer, draw
and book the referee filled in written out; but it keeps the user's own text:
comments stay where they were, and from the first error on, every line is kept
as typed.
"""

from __future__ import annotations

from referee.engine.moves import EndLaying, Move, NothingLaid
from referee.reading import lines_of
from referee.transcript.writer import format_move
from referee.values import factory, mutable


@mutable
class Record:
    """The header in canonical form, then each move (or a line as is, like ``hand 2``)
    with the transcript line it was played for."""

    header: list[str]
    players: tuple[str, ...]
    lay_out: bool  # asks and gives put cards in the centre
    played: list[tuple[int, Move | str]] = factory(list)

    def entries(self, start: int = 0) -> list[Move | str]:
        """The moves (and lines as is) played, from the ``start``-th on."""
        return [entry for _, entry in self.played[start:]]

    def add(self, line: int, entry: Move | str) -> None:
        """Note a move (or a line) played for transcript line ``line``."""
        self.played.append((line, entry))

    def lines(self) -> list[str]:
        """The canonical transcript: the header, then each move."""
        return [*self.header, *(text for _, text in self._written())]

    def _written(self) -> list[tuple[int, str]]:
        written = []
        for line, entry in self.played:
            if isinstance(entry, str):
                written.append((line, entry))
            elif not isinstance(entry, EndLaying | NothingLaid):
                written.append((line, format_move(entry, self.players, lay_out=self.lay_out)))
        return written

    def merged(self, text: str, events_from: int, error_line: int | None) -> list[str]:
        """``text`` with its header (the lines before ``events_from``) and the events
        accepted written canonically, its comments and blank lines kept, and every line
        from ``error_line`` on as typed."""
        original = lines_of(text.removeprefix("\ufeff"))
        by_line: dict[int, list[str]] = {}
        for line, canonical in self._written():
            by_line.setdefault(line, []).append(canonical)
        stop = len(original) + 1 if error_line is None else error_line
        out: list[str] = []
        header = list(self.header)
        for number, typed in enumerate(original, start=1):
            if number >= stop:
                out.append(typed)
                continue
            body, hash_mark, comment = typed.partition("#")
            if not body.strip():
                out.append(typed)  # blank or a comment: kept as is
                continue
            if number < events_from:  # the first header line stands for the whole header
                written, header = header, []
            else:
                written = by_line.pop(number, [])
            if hash_mark and written:
                written[-1] += f"  #{comment}"
            elif hash_mark:
                out.append(f"#{comment}")
            out += written
        for line in sorted(by_line):  # moves filled in after the last line
            if line < stop:
                out += by_line[line]
        return out
