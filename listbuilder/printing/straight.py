"""Every copy laid out by WeasyPrint in its place on the sheet: the straightforward way, kept
as the reference `benchmarks/print.py` measures the imposition against. Not used to print."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from listbuilder.printing.fetcher import StaticFetcher
from listbuilder.printing.geometry import grid
from listbuilder.printing.layout import CARD_CSS, STYLES, Face, Stock
from listbuilder.printing.templating import render_template


def render_straight(fronts: Sequence[tuple[Face, int]], stock: Stock, paper: str,
                    gutter: float, context: dict[str, Any]) -> bytes:
    layout = grid(paper, (stock.width, stock.height), gutter)
    copies = [face for face, n in fronts for _ in range(n)]
    sheets = [[(face, layout.cell(i)) for i, face in enumerate(copies[at:at + layout.per_page])]
              for at in range(0, len(copies), layout.per_page)]
    html = render_template("print/straight.html", sheets=sheets, grid=layout, stock=stock,
                           font_pt=stock.font_pt, **context)
    with STYLES.borrow() as styles:
        return bytes(styles.document(html, CARD_CSS, StaticFetcher()).write_pdf())
