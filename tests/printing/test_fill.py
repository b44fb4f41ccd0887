"""Cards use their space: a print's cards share one text size (layout.lay_out), the largest
at which its longest card fits, so that card's text runs most of the way down it, unless the
size is already the largest the stock allows (or a to-hit row's columns hold no larger).
The shorter cards of the print may stop short. Faces that run onto a continuation card are
full by definition.

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
from listbuilder.printing.layout import SPARSE, _cap, lay_out
from listbuilder.printing.options import PrintOptions
from listbuilder.printing.render import BRIEF, _context, _stock, unit_faces

from .conftest import CARD_SIZES, EXAMPLES, ExamplePrint, example_id
from .sheets import reference_cards, unfilled

pytestmark = pytest.mark.print

ROOT = Path(__file__).resolve().parents[2]
ROSTERS = sorted(p for p in (ROOT / "examples").glob("*/*.yaml") if p.name != "match.yaml")
BOTTOM_PAD_MM = 3.0  # .body's bottom padding: the safe zone (faces.html)


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


@pytest.mark.parametrize("card", ["poker", "mini", "tarot"])
def test_the_longest_card_of_a_print_fills_it(library: Library, card: str) -> None:
    options = PrintOptions(what="cards", card=card)
    stock = _stock(options)
    usable = (stock.height - BOTTOM_PAD_MM) * PT_PER_MM
    checked, sparse = 0, []
    for path in ROSTERS:
        loaded = library.read_roster(path.read_text(), str(path))
        cards = loaded.system.cards().unit_cards(loaded.catalog, loaded.roster)
        if not cards:
            continue
        faces = [face for face, _ in unit_faces(loaded.system, cards)]
        context = _context(loaded.system, options, loaded.roster.name,
                           brief=card in BRIEF)
        laid = lay_out(faces, stock, context)
        sizes = set(laid.font_pt)
        assert len(sizes) == 1, (path.name, sizes)  # one size for every card
        (size,) = sizes
        filled = fills(laid.pdf, laid.pages, usable)
        assert all(fill is None or fill <= 1.0 for fill in filled), (path.name, filled)
        if size >= min(_cap(face, stock) for face in faces) - 0.01 or None in filled:
            continue  # as large as it may be, or its longest card continues
        checked += 1
        fullest = max(f for f in filled if f is not None)
        # the size is the one its longest card fitted at: that card ends below SPARSE
        if fullest < SPARSE:
            sparse.append(f"{path.parent.name}/{path.stem} at {size} pt: {fullest:.2f}")
    # enough prints under the largest size for the check to mean something
    assert checked >= 3
    assert sparse == []


SIZES = [pytest.param(path, card, id=f"{example_id(path)}-{card}")
         for path in EXAMPLES for card in CARD_SIZES]


@pytest.mark.parametrize(("path", "card"), SIZES)
def test_each_quick_reference_card_is_filled_before_the_next_starts(
        example_print: ExamplePrint, path: Path, card: str) -> None:
    """No quick-reference card leaves room for the next card's first rule (op40k's mini card
    "5 of 6" had 21 mm free, and Ramshackle, 11 mm, waited for card 6)."""
    assert unfilled(reference_cards(example_print(path, card))) == []
