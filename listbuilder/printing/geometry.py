"""Paper, card and chit sizes, and where each card goes on a sheet. All lengths in mm, with
the origin at the top-left corner of the page; `pt` converts for PDF."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

PT_PER_MM = 72 / 25.4

PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
CARDS: dict[str, tuple[float, float]] = {
    "poker": (63.0, 88.0), "mini": (44.0, 68.0), "tarot": (70.0, 120.0)}
# a chit: its name on two lines, the Force large, the letters in the corners, all of it
# CHIT_SAFE inside its cut; the largest square that keeps 7 columns on A4 (70 a sheet, 63 on
# Letter: a pile of 84 or 85 takes two)
CHIT = (25.0, 25.0)
GUTTER = 3.0  # between cards: each card is cut on its own lines, so a slip never eats a card
CHIT_GUTTER = GUTTER  # chits too: a slip of the blade shows no strip of the next chit's colour
SAFE = 5.0  # home printers print nothing this close to the paper's edge: nothing goes there
# a row of cards fits a sheet where it leaves 2 x MARGIN of the paper: the safe band on one side,
# and on the other the band, MARK_GAP and a crop mark MARK_MIN long (MARK_ROOM, 9 mm)
MARGIN = 7.0
# between a front and its back on a gutter-fold sheet: the fold runs down it, 3.5 mm from
# each card (7, not 8: four poker cards on Letter, two each side, with gutters between them)
FOLD_GAP = 7.0
BLEED = 3.0
# mm: a print-shop file keeps its text this far inside the trim, where a cut a little off
# still leaves it whole (the usual safe zone)
BLEED_SAFE = 3.0
CHIT_SAFE = 3.0  # mm: a chit's text keeps this far inside its cut (the same safe zone)
MARK_GAP = 1.0  # crop marks start this far from the grid
MARK_LENGTH = 5.0  # where the margin has room; else as long as it holds...
MARK_MIN = 3.0  # ...down to this, the shortest mark a cutter lines a blade up on; none shorter
MARK_ROOM = SAFE + MARK_GAP + MARK_MIN  # the least margin that holds a crop mark: 9 mm

Duplex = Literal["none", "long", "short"]


def pt(mm: float) -> float:
    return mm * PT_PER_MM


def near_margin(slack: float) -> float:
    """Where a block of cards starts (its left or top margin) when `slack` mm of the paper is
    left around it: half of it, the block centred, where each half holds a crop mark
    (MARK_ROOM); else MARK_ROOM, so that this side's marks are 3 mm long and the far side
    keeps the rest, at least the safe band, with no marks (A4: poker cards 9 mm from the left
    edge and 6 mm from the right, mini cards 9 mm from the top and 7 mm from the bottom,
    chits 9 and 8 mm). Every cut line across the sheet keeps a mark at one end at least."""
    half = slack / 2
    if half >= MARK_ROOM - 1e-9 or slack - MARK_ROOM < SAFE - 1e-9:
        return half
    return MARK_ROOM


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h


@dataclass(frozen=True)
class Grid:
    """Cards in rows and columns, the block centred on the page where its margins hold crop
    marks on both sides, else moved towards the top or left until that side holds them
    (`near_margin`)."""

    page_w: float
    page_h: float
    card_w: float
    card_h: float
    cols: int
    rows: int
    gutter_x: float  # between columns
    gutter_y: float  # between rows

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def width(self) -> float:
        return self.cols * self.card_w + (self.cols - 1) * self.gutter_x

    @property
    def height(self) -> float:
        return self.rows * self.card_h + (self.rows - 1) * self.gutter_y

    @property
    def left(self) -> float:
        return near_margin(self.page_w - self.width)

    @property
    def top(self) -> float:
        return near_margin(self.page_h - self.height)

    def at(self, row: int, col: int) -> Box:
        return Box(self.left + col * (self.card_w + self.gutter_x),
                   self.top + row * (self.card_h + self.gutter_y), self.card_w, self.card_h)

    def cell(self, index: int) -> Box:
        """The index-th place, row by row from the top left."""
        return self.at(*divmod(index, self.cols))

    @property
    def landscape(self) -> bool:
        return self.page_w > self.page_h

    def back_cell(self, index: int, duplex: Duplex) -> Box:
        """Where the back of the index-th card goes on the backs page. The sheet turns over
        about the paper's long edge (`long`) or its short one: on a portrait page the long
        edge is upright, so the columns mirror for a long-edge flip and the rows for a
        short-edge one; on a landscape page it is the other way round. The place is the
        front's mirrored across the page, so a block off the centre (`near_margin`) lands
        exactly behind its front too."""
        front = self.cell(index)
        if (duplex == "short") != self.landscape:
            return Box(front.x, self.page_h - front.bottom, front.w, front.h)
        return Box(self.page_w - front.right, front.y, front.w, front.h)

    def edges(self) -> tuple[list[float], list[float]]:
        """The x of every column edge and the y of every row edge: where the cuts go."""
        xs = sorted({x for c in range(self.cols)
                     for x in (self.at(0, c).x, self.at(0, c).right)})
        ys = sorted({y for r in range(self.rows)
                     for y in (self.at(r, 0).y, self.at(r, 0).bottom)})
        return xs, ys


def fit(length: float, item: float, gutter: float, margin: float = MARGIN) -> int:
    """How many items of `length` fit in a row with gutters between them."""
    return max(0, int((length - 2 * margin + gutter + 1e-9) // (item + gutter)))


def grid(paper: str, item: tuple[float, float], gutter: float = GUTTER) -> Grid:
    """The grid for cards (or chits) of `item` size on the paper: portrait, or landscape where
    that holds more (poker cards on Letter: 8 instead of 6). Cards never share a cut line:
    a cut a little off would show a strip of the next card's header, so the gutter stays
    whatever the paper (nine poker cards on Letter would reach into the safe band)."""
    best: Grid | None = None
    w, h = item
    for page_w, page_h in (PAPERS[paper], PAPERS[paper][::-1]):
        cols, rows = fit(page_w, w, gutter), fit(page_h, h, gutter)
        if best is None or cols * rows > best.per_page:
            best = Grid(page_w, page_h, w, h, cols, rows, gutter, gutter)
    if best is None or best.per_page < 1:
        raise ValueError(f"a {w:g}x{h:g} mm card does not fit on {paper} paper")
    return best


@dataclass(frozen=True)
class FoldSheet:
    """A gutter-fold sheet: fronts left of the fold, their backs mirrored on the right, so a
    folded sheet holds both sides of each card back to back."""

    page_w: float
    page_h: float
    card_w: float
    card_h: float
    pairs: int  # card columns on each side of the fold
    rows: int
    gutter_x: float
    gutter_y: float

    @property
    def per_page(self) -> int:
        return self.pairs * self.rows

    @property
    def fold_x(self) -> float:
        return self.page_w / 2

    @property
    def top(self) -> float:
        """Centred, or towards the top where the margins can't both hold a crop mark (the
        fold stays in the middle of the page, whatever the side margins)."""
        return near_margin(self.page_h - (self.rows * self.card_h
                                          + (self.rows - 1) * self.gutter_y))

    def _y(self, row: int) -> float:
        return self.top + row * (self.card_h + self.gutter_y)

    def front(self, index: int) -> Box:
        row, k = divmod(index, self.pairs)
        right = self.fold_x - FOLD_GAP / 2 - k * (self.card_w + self.gutter_x)
        return Box(right - self.card_w, self._y(row), self.card_w, self.card_h)

    def back(self, index: int) -> Box:
        row, k = divmod(index, self.pairs)
        left = self.fold_x + FOLD_GAP / 2 + k * (self.card_w + self.gutter_x)
        return Box(left, self._y(row), self.card_w, self.card_h)

    def boxes(self) -> list[Box]:
        return [b for i in range(self.per_page) for b in (self.front(i), self.back(i))]


def fold_sheet(paper: str, card: tuple[float, float], gutter: float = GUTTER) -> FoldSheet:
    """Portrait or landscape, whichever holds more cards."""
    best: FoldSheet | None = None
    w, h = card
    for page_w, page_h in (PAPERS[paper], PAPERS[paper][::-1]):
        # one side of the fold: half the page less half the fold gap, with the whole margin at
        # its outer edge (`fit` takes half of it at each end)
        half = page_w / 2 - FOLD_GAP / 2
        pairs, rows = fit(half, w, gutter, margin=MARGIN / 2), fit(page_h, h, gutter)
        sheet = FoldSheet(page_w, page_h, w, h, pairs, rows, gutter, gutter)
        if sheet.per_page and (best is None or sheet.per_page > best.per_page):
            best = sheet
    if best is None:
        raise ValueError(f"a {w:g}x{h:g} mm card does not fit a gutter-fold {paper} sheet")
    return best
