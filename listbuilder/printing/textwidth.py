"""How wide a word prints in the cards' font, from the font's own metrics, and what that means
for a card's weapon columns: each column as wide as its longest word (the names taking the
rest), and the largest text at which they all fit the card, so that tables print as large as
the rest of the card and never run into the next column."""

from __future__ import annotations

import math
import re
from array import array
from functools import cache

from fontTools.ttLib import TTFont

from listbuilder.engine.profile import Table
from listbuilder.printing.fetcher import STATIC

FONTS = {False: "DejaVuSansCondensed.ttf", True: "DejaVuSansCondensed-Bold.ttf"}
PT_PER_MM = 72 / 25.4
FRAME_MM = 0.45  # a card's frame, both sides (print-cards.css .frame: 0.6 pt each)
CELL_PAD_MM = 1.2  # between columns (print-cards.css: .crow .c, border-box; not the last)
BMP = 0x10000  # the Basic Multilingual Plane: characters below this
HEAD_SCALE = 0.86  # a column's heading, in capitals, at this share of the size (faces.html)
# a count or a multiple before a word: how many models carry a weapon ("3x Autocannon"), how
# far an action moves ("2x Move")
COUNT = re.compile(r"(?<![\w.])(\d+x) ")
NBSP = "\u00a0"


def keep_count(text: str) -> str:
    """`text` with each count ("3x Autocannon", "2x Move") joined to the word after it by a
    no-break space, so a line never ends in "3x" with what it counts on the next."""
    return COUNT.sub(lambda m: m[1] + NBSP, text)


def keep_together(text: str) -> str:
    """Rules text as a card sets it: its counts kept to their words (`keep_count`), and a
    list's " · " kept to the item before it, so no line starts with the dot."""
    return keep_count(text).replace(" · ", NBSP + "· ")


@cache
def _advances(bold: bool) -> tuple[array[int], dict[int, int], int, float]:
    """Each character's advance in font units (the Basic Multilingual Plane in an array,
    any other character the font has in a dict), the advance of a character the font lacks,
    and the units per em. An array of 65,536 advances takes 128 kB; a dict of the font's
    5,000-odd characters took 0.8 MB in every process that prints."""
    font = TTFont(STATIC / "fonts" / FONTS[bold], lazy=True)
    metrics = font["hmtx"].metrics
    missing = metrics[".notdef"][0]
    plane = array("H", [missing]) * BMP
    beyond = {}
    for code, glyph in font.getBestCmap().items():
        if code < BMP:
            plane[code] = metrics[glyph][0]
        else:
            beyond[code] = metrics[glyph][0]
    per_em = float(font["head"].unitsPerEm)
    font.close()
    return plane, beyond, missing, per_em


def em_width(text: str, bold: bool = False) -> float:
    """The width of `text` in ems (multiply by the size in pt for points)."""
    plane, beyond, missing, per_em = _advances(bold)
    return sum(plane[o] if (o := ord(c)) < BMP else beyond.get(o, missing)
               for c in text) / per_em


def _two_lines(name: str) -> float:
    """The width in ems of a name set on at most two lines, broken at its best space (never
    the one after its count: `keep_count`)."""
    words = keep_count(name).split(" ")
    whole = em_width(name, True)
    if len(words) < 2:
        return whole
    return min(max(em_width(" ".join(words[:i]), True), em_width(" ".join(words[i:]), True))
               for i in range(1, len(words)))


def _needs(table: Table) -> list[tuple[float, float]]:
    """Each column's widest cell and heading word, in ems: the first column (the names, in
    bold) set on two lines at most, the others a word a line at most."""
    out = []
    for j, heading in enumerate(table.headers):
        if j == 0:
            cells = [_two_lines(row[0]) for row in table.rows]
        else:  # a list of features may wrap between them
            cells = [em_width(w) for row in table.rows for w in row[j].split()]
        heads = [em_width(w.upper()) for w in heading.split()]
        out.append((max(cells, default=0.0), max(heads, default=0.0)))
    return out


def _widths_mm(needs: list[tuple[float, float]], font_pt: float, floor_pt: float) -> list[float]:
    """Each column's width at `font_pt`, its heading at HEAD_SCALE of that, never under the
    floor (faces.html), with the gap before the next column (the last has none: the card's
    own padding follows it)."""
    head_pt = max(floor_pt, font_pt * HEAD_SCALE)
    return [max(cell * font_pt, head * head_pt) / PT_PER_MM
            + (CELL_PAD_MM if j < len(needs) - 1 else 0.0)
            for j, (cell, head) in enumerate(needs)]


def largest_pt(table: Table, width_mm: float, floor_pt: float, most_pt: float) -> float:
    """The largest size up to `most_pt` at which every column holds its longest word, on a
    card whose text is `width_mm` wide (each share rounded up to a whole per cent: one each
    spared); `floor_pt` when even that is too large."""
    needs = _needs(table)
    room = width_mm * (1 - len(needs) / 100)
    low, high = floor_pt, most_pt
    if sum(_widths_mm(needs, high, floor_pt)) <= room:
        return most_pt
    for _ in range(20):  # the widths grow with the size: halve the gap to the largest fit
        middle = (low + high) / 2
        low, high = (middle, high) if sum(_widths_mm(needs, middle, floor_pt)) <= room else \
            (low, middle)
    return low


def columns_fit(table: Table, width_mm: float, floor_pt: float,
                font_pt: float | None = None) -> bool:
    """Whether the table's columns hold their words at `font_pt` (the smallest size, if not
    given; headings never under `floor_pt`) on a card whose text is `width_mm` wide: else
    (six weapon columns on a mini card) each row prints as a line."""
    needs = _needs(table)
    size = floor_pt if font_pt is None else font_pt
    return sum(_widths_mm(needs, size, floor_pt)) <= width_mm * (1 - len(needs) / 100)


def column_shares(table: Table, font_pt: float, width_mm: float, floor_pt: float) -> list[int]:
    """Each column's share of the card's width in whole per cent at `font_pt`: the others as
    wide as their longest word, the names the rest."""
    widths = _widths_mm(_needs(table), font_pt, floor_pt)
    rest = [min(95, math.ceil(w / width_mm * 100)) for w in widths[1:]]
    return [max(5, 100 - sum(rest)), *rest]


def card_text_width(card_width_mm: float, safe_mm: float) -> float:
    """The width of a card's text in mm: the card (its trim) less the safe zone its text keeps
    inside each cut (`layout.Stock.inset`, less the bleed) and its frame."""
    return card_width_mm - 2 * safe_mm - FRAME_MM
