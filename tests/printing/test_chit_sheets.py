"""Chit sheets, print-shop sheets, cut marks and the room between cards, read back from the PDF
as a person holding the print would measure them: how far each letter sits from the cut it
is cut on, how far apart two cards are, which edges the crop marks point at."""

from __future__ import annotations

import io
from collections import Counter

import pdfplumber
import pytest

from listbuilder.engine.library import Library
from listbuilder.engine.registry import get_system
from listbuilder.printing.geometry import BLEED, CHIT, CHIT_SAFE, GUTTER, pt
from listbuilder.printing.impose import MARK_WIDTH
from listbuilder.printing.options import PrintOptions
from listbuilder.printing.render import Printed, emblem, print_chits, print_deck

from .pdfcheck import Placed, mm, page_sizes, placements, texts_in_boxes

EPS_MM = 0.01  # rounding in the PDF's numbers


def _chits(library: Library, faction: str, options: PrintOptions) -> Printed:
    system = get_system("spaceempires")
    return print_chits(library.catalog(system), system, faction, options)


def _deck(library: Library, options: PrintOptions) -> Printed:
    system = get_system("spaceempires")
    return print_deck(library.catalog(system), system, options)


def _trim(box: Placed, bleed_pt: float, page_h: float) -> tuple[float, float, float, float]:
    """A placed card's cut lines as pdfplumber reads positions: x0, top, x1, bottom in points
    from the top left."""
    return (box.x + bleed_pt, page_h - (box.y + box.h) + bleed_pt, box.x + box.w - bleed_pt,
            page_h - box.y - bleed_pt)


def glyph_clearances(pdf: bytes, bleed_mm: float = 0.0) -> list[tuple[float, str, int, int]]:
    """Every glyph drawn on a card: its least distance in mm from the cut of the card it is
    drawn on (each side of its box against each cut line; negative: outside the cut), the
    glyph, the page and the card's place on that page."""
    bleed = pt(bleed_mm)
    out = []
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        for n, (page, cards) in enumerate(zip(doc.pages, placements(pdf), strict=True)):
            height = float(page.height)
            trims = [_trim(box, bleed, height) for box in cards]
            for c in page.chars:
                if not c["text"].strip():
                    continue
                cx, cy = (c["x0"] + c["x1"]) / 2, (c["top"] + c["bottom"]) / 2
                # the card the glyph is drawn on: the one (with its bleed) around its middle
                k = next((k for k, (x0, top, x1, bottom) in enumerate(trims)
                          if x0 - bleed <= cx <= x1 + bleed and top - bleed <= cy
                          <= bottom + bleed), None)
                if k is None:
                    out.append((-99.0, c["text"], n, -1))
                    continue
                x0, top, x1, bottom = trims[k]
                near = min(c["x0"] - x0, c["top"] - top, x1 - c["x1"], bottom - c["bottom"])
                out.append((mm(near), c["text"], n, k))
    return out


def _apart_mm(boxes: list[Placed]) -> float:
    """The least room between two placed cards, in mm."""
    return mm(min(max(b.x - (a.x + a.w), a.x - (b.x + b.w), b.y - (a.y + a.h),
                      a.y - (b.y + b.h))
                  for i, a in enumerate(boxes) for b in boxes[i + 1:]))


CHIT_PRINTS = [
    ("Orks", PrintOptions(duplex="long")),  # notes (BF) and leaders
    ("Imperial", PrintOptions(paper="letter", ink_saver=True)),  # notes (SHT)
    ("Orks", PrintOptions(bleed=True, duplex="short")),
    ("Tyranids", PrintOptions(paper="letter", bleed=True)),
]


@pytest.mark.parametrize(("faction", "options"), CHIT_PRINTS,
                         ids=["orks-a4-duplex", "imperial-letter-ink", "orks-a4-bleed-duplex",
                              "tyranids-letter-bleed"])
def test_every_letter_on_a_chit_is_3mm_inside_its_cut(library: Library, faction: str,
                                                      options: PrintOptions) -> None:
    """A cut a little off never touches a letter: every glyph's box, front and back, keeps
    CHIT_SAFE (3 mm) inside the chit's cut on every side. Each chit carries its faction's mark
    (with bleed too), and chits are a gutter apart: each is cut on its own lines."""
    printed = _chits(library, faction, options)
    bleed = BLEED if options.bleed else 0.0
    measured = glyph_clearances(printed.pdf, bleed)
    assert measured
    closest = min(measured)
    assert closest[0] >= CHIT_SAFE - EPS_MM, (
        f"{closest[1]!r} {closest[0]:.2f} mm from the cut (page {closest[2] + 1})")
    placed = placements(printed.pdf)
    fronts = placed[::2] if options.duplex != "none" else placed
    front_pages = range(0, len(placed), 2) if options.duplex != "none" else range(len(placed))
    mark = emblem(faction)
    for n, cards in zip(front_pages, fronts, strict=True):
        assert {round(mm(b.w), 2) for b in cards} == {CHIT[0] + 2 * bleed}
        cuts = [Placed(b.form, b.x + pt(bleed), b.y + pt(bleed), b.w - pt(2 * bleed),
                       b.h - pt(2 * bleed)) for b in cards]
        assert _apart_mm(cuts) >= (2 * bleed if bleed else GUTTER) - EPS_MM
        texts = texts_in_boxes(printed.pdf, n, cards)
        assert all(mark in text.split() for text in texts), texts


def test_bleed_chits_share_a_sheet_with_crop_marks_on_their_cuts(library: Library) -> None:
    """A print shop gets the Orks' 84 chits on two sheets (not 84 pages), each chit whole with
    its 3 mm of bleed, and crop marks in the margin on every cut line: none on a bleed's edge,
    none pointing at a column or row without a chit."""
    printed = _chits(library, "Orks", PrintOptions(bleed=True))
    placed = placements(printed.pdf)
    assert printed.pages == len(placed) == 2
    assert sum(len(cards) for cards in placed) == printed.cards == 84
    assert [len(cards) for cards in placed] == [54, 30]
    side = pt(CHIT[0] + 2 * BLEED)
    assert all(b.w == pytest.approx(side, abs=0.05) and b.h == pytest.approx(side, abs=0.05)
               for cards in placed for b in cards)
    with pdfplumber.open(io.BytesIO(printed.pdf)) as doc:
        for page, cards in zip(doc.pages, placed, strict=True):
            height = float(page.height)
            trims = [_trim(box, pt(BLEED), height) for box in cards]
            cut_xs = {round(v, 1) for t in trims for v in (t[0], t[2])}
            cut_ys = {round(v, 1) for t in trims for v in (t[1], t[3])}
            marks = _marks(page)
            assert {round(x, 1) for x, _ in marks["x"]} == cut_xs
            assert {round(y, 1) for y, _ in marks["y"]} == cut_ys
            # every mark in the margin, beyond the bleed
            left, right = min(b.x for b in cards), max(b.x + b.w for b in cards)
            top = min(height - b.y - b.h for b in cards)
            bottom = max(height - b.y for b in cards)
            assert all(x1 <= left - pt(0.9) or x0 >= right + pt(0.9)
                       for _, (x0, x1) in marks["y"])
            assert all(y1 <= top - pt(0.9) or y0 >= bottom + pt(0.9)
                       for _, (y0, y1) in marks["x"])


def _marks(page: object) -> dict[str, list[tuple[float, tuple[float, float]]]]:
    """The page's crop marks (hairlines), as pdfplumber reads them: each vertical tick's x and
    its span from the top, each horizontal tick's y and its span from the left."""
    out: dict[str, list[tuple[float, tuple[float, float]]]] = {"x": [], "y": []}
    for line in page.lines:  # type: ignore[attr-defined]
        if abs(line["linewidth"] - MARK_WIDTH) > 0.01:  # a gutter-fold's fold mark
            continue
        if abs(line["x0"] - line["x1"]) < 0.01:
            out["x"].append((line["x0"], (line["top"], line["bottom"])))
        else:
            out["y"].append((line["top"], (line["x0"], line["x1"])))
    return out


@pytest.mark.parametrize("options", [
    PrintOptions(cut_marks=True, duplex="long"),
    PrintOptions(paper="letter", cut_marks=True, gutter_fold=True),
], ids=["a4-duplex", "letter-gutter-fold"])
def test_crop_marks_point_only_at_rows_and_columns_with_cards(library: Library,
                                                             options: PrintOptions) -> None:
    """The deck's last sheet is part empty: its crop marks stand on the edges of the cards it
    holds, top and bottom for each column edge, left and right for each row edge, and on no
    edge of an empty row or column (a player would cut air)."""
    printed = _deck(library, options)
    placed = placements(printed.pdf)
    assert len(placed[-1]) < max(len(cards) for cards in placed)  # the last sheet: part full
    with pdfplumber.open(io.BytesIO(printed.pdf)) as doc:
        for page, cards in zip(doc.pages, placed, strict=True):
            height = float(page.height)
            edges_x = {round(v, 1) for b in cards for v in (b.x, b.x + b.w)}
            edges_y = {round(height - v, 1) for b in cards for v in (b.y, b.y + b.h)}
            marks = _marks(page)
            xs = Counter(round(x, 1) for x, _ in marks["x"])
            ys = Counter(round(y, 1) for y, _ in marks["y"])
            assert set(xs) == edges_x, (page.page_number, sorted(xs), sorted(edges_x))
            assert set(ys) == edges_y, (page.page_number, sorted(ys), sorted(edges_y))
            assert set(xs.values()) == {2} and set(ys.values()) == {2}  # one at each end


def test_poker_cards_on_letter_are_a_gutter_apart(library: Library) -> None:
    """On Letter, poker cards lie across the page, eight to a sheet, every card a 3 mm gutter
    from the next (no shared cut, so a cut a little off never shows the header of the card
    below). The backs, turned over the long edge, stand behind their fronts."""
    printed = _deck(library, PrintOptions(paper="letter", duplex="long"))
    placed = placements(printed.pdf)
    assert all(size == pytest.approx((792, 612), abs=0.5) for size in page_sizes(printed.pdf))
    assert [len(cards) for cards in placed[::2]] == [8] * 6 + [1]
    for cards in placed:
        if len(cards) > 1:
            assert _apart_mm(cards) >= GUTTER - EPS_MM
    page_h = 612.0
    for fronts, backs in zip(placed[::2], placed[1::2], strict=True):
        for front, back in zip(fronts, backs, strict=True):
            # the paper's long edge is the page's top: the rows turn over, the columns stay
            assert back.x == pytest.approx(front.x, abs=0.05)
            assert back.y == pytest.approx(page_h - front.y - front.h, abs=0.05)
