"""Chit sheets, print-shop sheets, cut marks and the room between cards, read back from the PDF
as a person holding the print would measure them: how far each letter sits from the cut it
is cut on, how far apart two cards are, which edges the crop marks point at."""

from __future__ import annotations

import io
import re
from collections import Counter
from collections.abc import Iterable

import pdfplumber
import pikepdf
import pytest

from listbuilder.engine.library import Library
from listbuilder.engine.registry import get_system
from listbuilder.printing.geometry import BLEED, CARDS, CHIT, CHIT_SAFE, GUTTER, SAFE, pt
from listbuilder.printing.impose import MARK_WIDTH
from listbuilder.printing.options import PrintOptions
from listbuilder.printing.render import Printed, emblem, print_chits, print_deck

from .pdfcheck import Placed, mm, page_sizes, placements, texts_in_boxes

pytestmark = pytest.mark.print

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
    holds, above or below each column edge, left or right of each row edge (both ends where
    the margins hold a mark), and on no edge of an empty row or column (a player would cut
    air)."""
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
            # a backs page may leave its rows' cuts to the fronts page: its margins at the
            # sides, less the backs' colour run into them, hold no mark 3 mm long
            backs_page = options.duplex != "none" and page.page_number % 2 == 0
            assert set(ys) == edges_y or (backs_page and not ys), (
                page.page_number, sorted(ys), sorted(edges_y))
            # one at each end, or one where the other end's margin has no room for a
            # mark a cutter can line up on (test_every_cut_line_has_a_crop_mark_3mm_long)
            assert set(xs.values()) <= {1, 2} and set(ys.values()) <= {1, 2}


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


def _page_lines(pdf: bytes) -> list[tuple[list[tuple[float, tuple[float, float, float, float]]],
                                           list[tuple[float, float, float, float]]]]:
    """Per page, what the page itself draws besides its cards (not what the cards draw inside
    their forms): the lines it strokes (crop and fold marks), each line's width and its ends,
    and the rectangles it fills (the backs' colour run into the gutters), each as x0, y0, x1,
    y1; in points from the bottom left."""
    out = []
    for page in pikepdf.open(io.BytesIO(pdf)).pages:
        lines, fills, widths, width, start = [], [], [], 1.0, (0.0, 0.0)
        for operands, operator in pikepdf.parse_content_stream(page):
            op = str(operator)
            if op == "q":
                widths.append(width)
            elif op == "Q":
                width = widths.pop()
            elif op == "w":
                width = float(operands[0])
            elif op == "m":
                start = (float(operands[0]), float(operands[1]))
            elif op == "l":
                lines.append((width, (*start, float(operands[0]), float(operands[1]))))
            elif op == "re":
                x, y, w, h = (float(v) for v in operands)
                fills.append((x, y, x + w, y + h))
        out.append((lines, fills))
    return out


def _on(value: float, lines: Iterable[float]) -> bool:
    """Whether `value` (points) is on one of `lines`, rounding in the PDF's numbers aside."""
    return any(abs(value - line) < 0.05 for line in lines)


MARK_MIN_MM = 3.0  # the shortest crop mark a cutter can line up a blade on (issue item 4)
CUT_PRINTS = [
    *[("deck", PrintOptions(card=card, paper=paper, cut_marks=True, duplex="long"))
      for card in CARDS for paper in ("a4", "letter")],
    *[("deck", PrintOptions(card=card, paper=paper, cut_marks=True, gutter_fold=True))
      for card in CARDS for paper in ("a4", "letter")],
    *[("Orks", PrintOptions(paper=paper, cut_marks=True, duplex="short"))
      for paper in ("a4", "letter")],
    *[("Orks", PrintOptions(paper=paper, bleed=True)) for paper in ("a4", "letter")],
    *[("Orks", PrintOptions(paper=paper, cut_marks=True, gutter_fold=True))
      for paper in ("a4", "letter")],
]


def _cut_label(what: str, options: PrintOptions) -> str:
    kind = "chits" if what == "Orks" else options.card
    how = ("bleed" if options.bleed else "fold" if options.gutter_fold
           else f"duplex-{options.duplex}")
    return f"{kind}-{options.paper}-{how}"


@pytest.mark.parametrize(("what", "options"), CUT_PRINTS,
                         ids=[_cut_label(w, o) for w, o in CUT_PRINTS])
def test_every_cut_line_has_a_crop_mark_3mm_long(library: Library, what: str,
                                                 options: PrintOptions) -> None:
    """What a cutter lines a blade up on, read from the PDF's lines: every crop mark is at
    least 3 mm long, lies on the line of a card's cut, outside every card (and its bleed) and
    outside the 5 mm band at the paper's edge; and every cut line of every card on the page
    (each edge's x and y) has a mark at one end at least (on a backs page, whose cuts are its
    fronts page's, where the backs' colour leaves room). A margin too narrow for a 3 mm mark
    gets none: the sheet leaves the room on the other side (docs/printing.md, "Crop
    marks"). Fold marks are 3 mm or more too. No mark is drawn over the backs' colour."""
    printed = (_deck(library, options) if what == "deck"
               else _chits(library, what, options))
    bleed = pt(BLEED if options.bleed else 0.0)
    band, least, gap = pt(SAFE) - 0.01, pt(MARK_MIN_MM) - 0.01, pt(0.9)
    short: list[str] = []
    drawn = _page_lines(printed.pdf)
    for n, (cards, (w, h)) in enumerate(zip(placements(printed.pdf), page_sizes(printed.pdf),
                                            strict=True)):
        where = f"page {n + 1}"
        strokes, fills = drawn[n]
        # each card (with its bleed) and its cut lines, in points from the bottom left; and
        # the backs' colour around the backs, where a mark would not be seen
        printed_boxes = [(b.x, b.y, b.x + b.w, b.y + b.h) for b in cards] + fills
        boxes = [(b.x, b.y, b.x + b.w, b.y + b.h) for b in cards]
        cut_xs = {v for b in boxes for v in (b[0] + bleed, b[2] - bleed)}
        cut_ys = {v for b in boxes for v in (b[1] + bleed, b[3] - bleed)}
        marked_xs: list[float] = []
        marked_ys: list[float] = []
        folds = 0
        for width, (x0, y0, x1, y1) in strokes:
            x0, x1, y0, y1 = min(x0, x1), max(x0, x1), min(y0, y1), max(y0, y1)
            length = max(x1 - x0, y1 - y0)
            kind = "crop" if abs(width - MARK_WIDTH) < 0.01 else "fold"
            if length < least:
                short.append(f"{where}: a {kind} mark {mm(length):.2f} mm long at "
                             f"{mm(x0):.1f}, {mm(h - y1):.1f} mm from the top left")
            assert min(x0, y0, w - x1, h - y1) >= band, (where, "in the band", x0, y0)
            if kind == "fold":
                folds += 1
                continue
            assert all(x1 <= bx0 - gap or x0 >= bx1 + gap or y1 <= by0 - gap
                       or y0 >= by1 + gap for bx0, by0, bx1, by1 in printed_boxes), (
                where, "a mark on a card or the backs' colour", mm(x0), mm(h - y1))
            if x1 - x0 < 0.01:  # vertical: on a column's cut
                marked_xs.append(x0)
            else:
                marked_ys.append(y0)
        backs_page = options.duplex != "none" and n % 2 == 1
        for marked, cuts, axis in ((marked_xs, cut_xs, "x"), (marked_ys, cut_ys, "y")):
            # no mark cuts air: each on a card's cut line
            assert all(_on(v, cuts) for v in marked), (where, axis)
            if backs_page:  # its cuts are the fronts page's, marked there
                continue
            unmarked = sorted(round(mm(v), 1) for v in cuts if not _on(v, marked))
            assert unmarked == [], (where, f"cuts at {axis} (mm) without a mark", unmarked)
        assert folds >= (1 if options.gutter_fold else 0), where
    assert short == []


CHIT_NAME_PT = 7.0  # a chit's name, read across the table (issue item 7)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_chits_name_is_7pt_on_two_lines_70_to_a4_and_63_to_letter(library: Library,
                                                                       paper: str) -> None:
    """Every faction's chits, read from the PDF as a player sees them: each name whole, on
    one line or two parted where a word ends, above the Force, every letter of it 7 pt or more; 70
    chits to an A4 sheet and 63 to a Letter one (25 mm squares); every glyph 3 mm inside
    the cut."""
    system = get_system("spaceempires")
    catalog = library.catalog(system)
    per_sheet = {"a4": 70, "letter": 63}[paper]
    sizes: list[float] = []
    for faction in catalog.factions:
        chits = system.cards().chits(catalog, faction.name)
        if not chits:
            continue
        printed = _chits(library, faction.name, PrintOptions(paper=paper))
        placed = placements(printed.pdf)
        full, rest = divmod(printed.cards, per_sheet)
        assert [len(cards) for cards in placed] == [per_sheet] * full + [rest] * (rest > 0)
        assert printed.cards == sum(chit.copies for chit in chits)
        # each name and where it may part: at a space, or after a hyphen ("Bio-Titan")
        names = {chit.name.replace(" ", ""): re.split(r"\s+|(?<=-)", chit.name)
                 for chit in chits}
        with pdfplumber.open(io.BytesIO(printed.pdf)) as doc:
            for page, cards in zip(doc.pages, placed, strict=True):
                height = float(page.height)
                chars = [c for c in page.chars if c["text"].strip()]
                for box in cards:
                    top, bottom = height - box.y - box.h, height - box.y
                    on = [c for c in chars if box.x <= c["x0"] and c["x1"] <= box.x + box.w
                          and top <= c["top"] and c["bottom"] <= bottom]
                    force_top = min(c["top"] for c in on
                                    if c["size"] == max(d["size"] for d in on))
                    name = [c for c in on if c["bottom"] <= force_top + 0.01]
                    text = "".join(c["text"] for c in name)
                    assert text in names, (faction.name, text)  # whole, above the Force
                    tops = sorted({round(c["top"]) for c in name})
                    lines = ["".join(c["text"] for c in name if round(c["top"]) == t)
                             for t in tops]
                    words = names[text]
                    # one line, or two parted where a word ends: no word broken
                    assert len(lines) == 1 or (len(lines) == 2 and any(
                        lines == ["".join(words[:i]), "".join(words[i:])]
                        for i in range(1, len(words)))), (faction.name, lines)
                    sizes += [c["size"] for c in name]
        clearances = glyph_clearances(printed.pdf)
        closest = min(clearances)
        assert closest[0] >= CHIT_SAFE - EPS_MM, (faction.name, closest)
    assert min(sizes) >= CHIT_NAME_PT - 0.01, f"names at {min(sizes):.2f} pt"
