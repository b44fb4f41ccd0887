"""Cards use their space: a face whose text the fit set under the largest size it may take had
enough to say to fill its card, so its text must run most of the way down. Faces at that size
may stop short: the stock's largest (a WarStuff Human Warrior has little to say), or the
largest its weapon columns hold (they print at the card's size, so a card grows no further
than they fit). Faces that run onto a continuation card are full by definition.

Measured where the layout leaves each face (one page per face, before imposition): the lowest
glyph's bottom over the card's usable height (its height less the body's bottom padding).
"""

from __future__ import annotations

import io
from pathlib import Path

import pdfplumber
import pytest

from listbuilder.engine.library import Library
from listbuilder.printing.geometry import PT_PER_MM
from listbuilder.printing.layout import SPARSE, _cap, lay_out, sheet_size
from listbuilder.printing.options import PrintOptions
from listbuilder.printing.render import _context, _stock, unit_faces

ROOT = Path(__file__).resolve().parents[2]
ROSTERS = sorted((ROOT / "examples").glob("*/*.yaml"))
BOTTOM_PAD_MM = 1.2  # .body's bottom padding in print-cards.css


def fills(pdf: bytes, pages: list[list[int]], usable_pt: float) -> list[float | None]:
    """Per face, how far down its card its text ends (None for a face that continues)."""
    out: list[float | None] = []
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        for numbers in pages:
            if len(numbers) != 1:
                out.append(None)
                continue
            chars = doc.pages[numbers[0]].chars
            out.append(max(c["bottom"] for c in chars) / usable_pt)
    return out


@pytest.mark.parametrize("card", ["poker", "tarot"])
def test_a_face_under_the_largest_size_fills_its_card(library: Library, card: str) -> None:
    options = PrintOptions(what="cards", card=card)
    stock = _stock(options)
    usable = (stock.height - BOTTOM_PAD_MM) * PT_PER_MM
    checked, sparse = 0, []
    for path in ROSTERS:
        loaded = library.read_roster(path.read_text(), str(path))
        cards = loaded.system.unit_cards(loaded.catalog, loaded.roster)
        if not cards:
            continue
        faces = [face for face, _ in unit_faces(loaded.system, cards)]
        context = _context(loaded.system, options, loaded.roster.name)
        laid = lay_out(faces, stock, context)
        # the largest size a face may take on this print: the size its cards share, at most
        shared = sheet_size(faces, stock, context)
        for face, size, fill in zip(faces, laid.font_pt, fills(laid.pdf, laid.pages, usable),
                                    strict=True):
            assert fill is None or fill <= 1.0, (path.name, face.title, fill)  # inside the card
            if fill is None or size >= _cap(face, shared) - 0.01:
                continue
            checked += 1
            # the layout grows a face that ends above SPARSE; one that shrank lands below FILL
            if fill < SPARSE:
                sparse.append(f"{path.parent.name}/{path.stem} {face.title} at {size} pt: "
                              f"{fill:.2f}")
    # enough faces under the largest size for the check to mean something (most now share the
    # print's size: layout.sheet_size)
    assert checked >= 3
    assert sparse == []
