"""QR codes of the join links, made here (segno: pure Python, SVG out): a table is
often offline, and a link holding a seat's token must not go to an outside service."""

from __future__ import annotations

import io


def qr_svg(text: str) -> str:
    """An SVG image of a QR code of ``text``."""
    import segno

    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", border=2, xmldecl=False, svgns=True,
                                      omitsize=True, nl=False)  # a viewBox: CSS sizes it
    return out.getvalue().decode()
