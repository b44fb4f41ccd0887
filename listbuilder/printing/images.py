"""Card prints as images, for print shops and digital tables: every card side as a PNG at
300 dpi (`png`), or Tabletop Simulator deck sheets with their backs (`tts`), each a zip.

Both are drawn from the laid-out faces (`layout.lay_out`), the very pages the PDF imposes, by
pdfium, so an image and the printed card are one drawing; Pillow composes the deck sheets.
Each card is drawn once and dropped before the next, and a deck sheet is written before the
next is begun, so memory stays at one sheet whatever the number of cards.
"""

from __future__ import annotations

import csv
import io
import math
import textwrap
import zipfile
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from PIL import Image

from listbuilder.printing.commands import slug
from listbuilder.printing.geometry import BLEED_SAFE, CARDS
from listbuilder.printing.preview import PDFIUM

DPI = 300
MM_PER_INCH = 25.4
PT_PER_INCH = 72
# Tabletop Simulator: a custom deck is one image of at most 10 x 7 cards, at least 2 x 2. The
# last place of a full sheet is its hidden card (shown for a card in another player's hand),
# so a sheet holds 69 cards at most. Sheets stay within 4096 px each way, the size every
# graphics card takes as one texture.
TTS_COLS, TTS_ROWS, TTS_MIN = 10, 7, 2
TTS_PER_SHEET = TTS_COLS * TTS_ROWS - 1
TTS_MAX_PX = 4096
README_WIDTH = 78
CELL_CACHE = 8  # cards drawn at a sheet's cell size, kept for the next copies and sheet


@dataclass(frozen=True)
class Card:
    """One distinct front as laid out: its pages in the laid-out PDF (more than one: it runs
    onto continuation cards, each a card of its own), how many times it is printed, and the
    page of its back (None: no back)."""

    title: str
    pages: tuple[int, ...]
    copies: int
    back: int | None = None


@dataclass(frozen=True)
class Made:
    """A zip of images and how many images it holds."""

    data: bytes
    images: int


def px(mm: float, dpi: int = DPI) -> int:
    return round(mm * dpi / MM_PER_INCH)


# -- drawing faces ----------------------------------------------------------------------------

class Faces:
    """The laid-out PDF open in pdfium: each page drawn as the card it holds, `face_mm` (the
    card with its bleed) from the page's top left. Every pdfium call holds `PDFIUM` (see
    preview): a server thread may be drawing a preview meanwhile."""

    def __init__(self, document: Any, face_mm: tuple[float, float]) -> None:
        self.document = document
        self.size = (px(face_mm[0]), px(face_mm[1]))

    def draw(self, index: int) -> Image.Image:
        """Page `index`'s card at DPI, exactly `self.size` pixels."""
        scale = DPI / PT_PER_INCH
        w, h = self.size
        with PDFIUM:
            page = self.document[index]
            try:
                # faces are laid out on pages taller than the card (layout.TALL): the rest
                # below it is empty and not drawn; pdfium rounds sizes up, so keep two pixels
                # more than the card and cut it exactly below
                below = page.get_height() - (h + 2) / scale
                bitmap = page.render(scale=scale, crop=(0, max(0.0, below), 0, 0))
                try:
                    # a copy: the bitmap's memory is freed here
                    image: Image.Image = bitmap.to_pil().convert("RGB")
                finally:
                    bitmap.close()
            finally:
                page.close()
        return image.crop((0, 0, w, h))


@contextmanager
def opened(pdf: bytes, face_mm: tuple[float, float]) -> Iterator[Faces]:
    import pypdfium2 as pdfium

    with PDFIUM:
        document = pdfium.PdfDocument(pdf)
    try:
        yield Faces(document, face_mm)
    finally:
        with PDFIUM:
            document.close()


def png_bytes(image: Image.Image, dpi: int | None = DPI) -> bytes:
    out = io.BytesIO()
    if dpi:
        image.save(out, format="PNG", dpi=(dpi, dpi))
    else:
        image.save(out, format="PNG")
    return out.getvalue()


def _write_png(archive: zipfile.ZipFile, name: str, image: Image.Image,
               dpi: int | None = DPI) -> None:
    # a PNG is compressed already: deflating it again costs time and saves nothing
    archive.writestr(name, png_bytes(image, dpi), compress_type=zipfile.ZIP_STORED)


def _zip() -> tuple[io.BytesIO, zipfile.ZipFile]:
    buffer = io.BytesIO()
    return buffer, zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED)


# -- PNG for print shops ------------------------------------------------------------------------

@dataclass(frozen=True)
class Named:
    """A card's image files: one per page of its front, and its back's."""

    card: Card
    fronts: tuple[str, ...]
    back: str | None


def file_names(cards: Sequence[Card]) -> list[Named]:
    """Files in print order, numbered so they sort as printed: `001-line-troopers.png`; a
    face run onto continuation cards `007-strider-walker-1of2.png`, `-2of2`; the back
    `back.png` when all cards share one, else each back after the first card that shows it
    (`001-line-troopers-back.png`), so a front and its back sort side by side."""
    digits = max(3, len(str(len(cards))))
    backs = {c.back for c in cards if c.back is not None}
    back_names: dict[int, str] = {}
    out = []
    for n, card in enumerate(cards, 1):
        base = f"{n:0{digits}d}-{slug(card.title)}"
        count = len(card.pages)
        fronts = tuple(f"{base}.png" if count == 1 else f"{base}-{k}of{count}.png"
                       for k in range(1, count + 1))
        if card.back is not None and card.back not in back_names:
            back_names[card.back] = "back.png" if len(backs) == 1 else f"{base}-back.png"
        out.append(Named(card, fronts, back_names.get(card.back) if card.back is not None
                         else None))
    return out


def png_zip(pdf: bytes, cards: Sequence[Card], face_mm: tuple[float, float], bleed: float,
            title: str, noun: str) -> Made:
    """Every distinct card side once as a PNG at DPI (with its bleed, if laid out with one),
    `cards.csv` saying how many copies of each front to print and which back goes behind
    it, and a README."""
    named = file_names(cards)
    buffer, archive = _zip()
    written: set[str] = set()
    with archive, opened(pdf, face_mm) as faces:
        for entry in named:
            for page, name in zip(entry.card.pages, entry.fronts, strict=True):
                _write_png(archive, name, faces.draw(page))
                written.add(name)
            if entry.back is not None and entry.back not in written:
                assert entry.card.back is not None
                _write_png(archive, entry.back, faces.draw(entry.card.back))
                written.add(entry.back)
        archive.writestr("cards.csv", _manifest(named))
        archive.writestr("README.txt", _png_readme(named, faces.size, face_mm, bleed, title,
                                                   noun))
    return Made(buffer.getvalue(), len(written))


def _manifest(named: Sequence[Named]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["copies", "front", "back", "card"])
    for entry in named:
        for front in entry.fronts:
            writer.writerow([entry.card.copies, front, entry.back or "", entry.card.title])
    return out.getvalue()


def _png_readme(named: Sequence[Named], size_px: tuple[int, int], face_mm: tuple[float, float],
                bleed: float, title: str, noun: str) -> str:
    printed = sum(e.card.copies * len(e.fronts) for e in named)
    fronts = sum(len(e.fronts) for e in named)
    trim = (face_mm[0] - 2 * bleed, face_mm[1] - 2 * bleed)
    if bleed:
        size = (f"{_mm(face_mm)}, with {bleed:g} mm of bleed all round: the card is cut to "
                f"{_mm(trim)}, and its text stays at least {BLEED_SAFE:g} mm inside the cut")
    else:
        size = (f"{_mm(face_mm)}, the card's own size (no bleed: print with bleed for a print "
                f"shop that asks for it)")
    paragraphs = [
        f"{title}: {printed} {noun}, {fronts} different fronts, as PNG images made by "
        f"Listbuilder.",
        f"Each image is one side of one card at {DPI} dpi, {size_px[0]} x {size_px[1]} px: "
        f"{size}.",
        "cards.csv lists every front in print order, how many copies of it to print, and the "
        "back printed behind it.",
    ]
    if any(len(e.fronts) > 1 for e in named):
        paragraphs.append("A card too long for one card runs onto the next: '-1of2' and "
                          "'-2of2' are two cards, each printed as many times as the list says.")
    return _text(paragraphs)


def _text(paragraphs: Sequence[str]) -> str:
    """Plain text for a README, each paragraph wrapped, a blank line between them (a line
    starting with spaces is kept as it is: a list)."""
    out = []
    for paragraph in paragraphs:
        out.append(paragraph if paragraph.startswith(" ") else
                   textwrap.fill(paragraph, README_WIDTH))
    return "\n\n".join(out) + "\n"


def _mm(size: tuple[float, float]) -> str:
    return f"{size[0]:g} x {size[1]:g} mm"


# -- Tabletop Simulator -----------------------------------------------------------------------

@dataclass(frozen=True)
class Grid:
    """One deck sheet: its columns and rows, and the size of each card on it in pixels."""

    cols: int
    rows: int
    cell: tuple[int, int]

    @property
    def size(self) -> tuple[int, int]:
        return self.cols * self.cell[0], self.rows * self.cell[1]


def tts_grid(cards: int, trim_mm: tuple[float, float], most_px: tuple[int, int]) -> Grid:
    """The sheet for `cards` cards (at most TTS_PER_SHEET): as few rows as hold them, the
    columns then as few as hold them, and each card as large as the sheet's 4096 px allow,
    but no larger than its DPI image (`most_px`): a small deck is sharper on the table."""
    rows = max(TTS_MIN, math.ceil(cards / TTS_COLS))
    cols = max(TTS_MIN, math.ceil(cards / rows))
    w, h = trim_mm
    width = min(most_px[0], TTS_MAX_PX // cols, math.floor(TTS_MAX_PX // rows * w / h))
    height = min(round(width * h / w), TTS_MAX_PX // rows, most_px[1])
    return Grid(cols, rows, (width, height))


def split_sheets(count: int) -> list[range]:
    """The cards of each sheet: as few sheets as hold them, shared out evenly (70 cards are
    two sheets of 35, not one of 69 and one of 1)."""
    sheets = math.ceil(count / TTS_PER_SHEET)
    per = math.ceil(count / sheets) if sheets else 0
    return [range(at, min(at + per, count)) for at in range(0, count, per)] if per else []


class Cells:
    """Cards drawn at a cell's size: the card within its bleed, scaled down from DPI. The
    last few are kept, as copies of a card follow each other."""

    def __init__(self, faces: Faces, bleed: float) -> None:
        self.faces = faces
        margin = px(bleed)
        w, h = faces.size
        self.trim = (margin, margin, w - margin, h - margin)
        self.kept: OrderedDict[tuple[int | None, tuple[int, int]], Image.Image] = OrderedDict()

    def full(self, page: int) -> Image.Image:
        """The card at DPI, its bleed cut off: a card on a digital table has no cut to miss."""
        return self.faces.draw(page).crop(self.trim)

    def get(self, page: int | None, size: tuple[int, int]) -> Image.Image:
        key = (page, size)
        if key not in self.kept:
            image = (Image.new("RGB", size, "white") if page is None else
                     self.full(page).resize(size, Image.Resampling.LANCZOS))
            self.kept[key] = image
            if len(self.kept) > CELL_CACHE:
                self.kept.popitem(last=False)
        self.kept.move_to_end(key)
        return self.kept[key]


def compose(pages: Sequence[int | None], grid: Grid, cells: Cells) -> Image.Image:
    """A sheet with the cards of `pages` in reading order; places left over stay white."""
    sheet = Image.new("RGB", grid.size, "white")
    w, h = grid.cell
    for i, page in enumerate(pages):
        row, col = divmod(i, grid.cols)
        sheet.paste(cells.get(page, grid.cell), (col * w, row * h))
    return sheet


@dataclass(frozen=True)
class Sheet:
    """A deck sheet as written: its file, grid, cards (titles, in order) and back."""

    name: str
    grid: Grid
    titles: tuple[str, ...]
    back: str
    unique_backs: bool


def tts_zip(pdf: bytes, cards: Sequence[Card], face_mm: tuple[float, float], bleed: float,
            title: str, noun: str) -> Made:
    """Deck sheets for Tabletop Simulator: every copy a place of its own (the game deals each
    place as one card), in print order, with the back they share (`back.png`), or, when
    cards have backs of their own (unit cards name their unit), a sheet of backs laid out
    like the fronts, for the game's "unique backs". A README says how to import them."""
    slots = [(card.title, page, card.back) for card in cards for _ in range(card.copies)
             for page in card.pages]
    if not slots:
        raise ValueError("a deck of no cards")  # the printers never ask: every print has one
    backs = {back for _, _, back in slots}
    shared = len(backs) == 1
    trim_mm = (face_mm[0] - 2 * bleed, face_mm[1] - 2 * bleed)
    buffer, archive = _zip()
    sheets: list[Sheet] = []
    with archive, opened(pdf, face_mm) as faces:
        cells = Cells(faces, bleed)
        most = (px(trim_mm[0]), px(trim_mm[1]))
        for n, chunk in enumerate(split_sheets(len(slots)), 1):
            grid = tts_grid(len(chunk), trim_mm, most)
            name = f"deck-{n}.png"
            _write_png(archive, name, compose([slots[i][1] for i in chunk], grid, cells), None)
            back = "back.png" if shared else f"deck-{n}-backs.png"
            if not shared:
                _write_png(archive, back, compose([slots[i][2] for i in chunk], grid, cells),
                           None)
            sheets.append(Sheet(name, grid, tuple(slots[i][0] for i in chunk), back,
                                not shared))
        if shared:
            (back_page,) = backs
            _write_png(archive, "back.png", cells.get(back_page, most))
        archive.writestr("README.txt", _tts_readme(sheets, title, noun, trim_mm))
    return Made(buffer.getvalue(), len(sheets) + (1 if shared else len(sheets)))


def _tts_readme(sheets: Sequence[Sheet], title: str, noun: str,
                trim_mm: tuple[float, float]) -> str:
    total = sum(len(s.titles) for s in sheets)
    shape = "Square" if trim_mm[0] == trim_mm[1] else "Rectangle"
    listed = []
    for sheet in sheets:
        backs = (f"backs: {sheet.back} (Unique backs: each card's back in its place)"
                 if sheet.unique_backs else f"back: {sheet.back}")
        listed.append(f"  {sheet.name}: {len(sheet.titles)} {noun}, {sheet.grid.cols} across "
                      f"and {sheet.grid.rows} down\n      {backs}")
    steps = "\n".join([
        "  1. Objects > Components > Custom > Deck, then click the table to place it.",
        "  2. Face: the sheet (deck-1.png). Choose the file with the folder button beside",
        "     the box; upload it to the Steam Cloud when asked, so other players see it.",
        "  3. Back: back.png, Unique backs off. For a sheet that has a sheet of backs",
        "     (deck-1-backs.png): tick Unique backs and choose that sheet as the Back.",
        "  4. Width, Height and Number: its columns, rows and cards, as listed above.",
        f"  5. Type: {shape}. Tick Back is hidden (a card in a hand shows others its",
        "     back), then Import.",
    ])
    places = []
    for sheet in sheets:
        places.append(f"  {sheet.name}\n" + "\n".join(
            f"  {place:>4}. {name}" for place, name in enumerate(sheet.titles, 1)))
    return _text([
        f"{title}: {total} {noun} for Tabletop Simulator, made by Listbuilder.",
        "\n".join(listed),
        "Each sheet becomes one deck. In Tabletop Simulator:",
        steps,
        "With several sheets, import each, then drop one deck onto another to make them one. "
        f"A sheet holds at most {TTS_PER_SHEET} cards: the game keeps the last place of a full "
        f"{TTS_COLS} x {TTS_ROWS} sheet for its hidden card.",
        *_shape_note(trim_mm),
        "The cards on each sheet, left to right and top to bottom:",
        *places,
    ])


def _shape_note(trim_mm: tuple[float, float]) -> list[str]:
    """The game draws every card of a deck at one shape, its Type's, whatever the image's:
    a square, or a playing card's. Cards of another shape are stretched to it."""
    if trim_mm[0] == trim_mm[1] or trim_mm == CARDS["poker"]:
        return []
    return [f"The game draws every card at a playing card's shape, so these {_mm(trim_mm)} "
            f"cards come out a little wider or narrower than printed: poker cards "
            f"({_mm(CARDS['poker'])}) keep theirs."]


# -- either -------------------------------------------------------------------------------------

def card_images(kind: str, pdf: bytes, cards: Sequence[Card], face_mm: tuple[float, float],
                bleed: float, title: str, noun: str = "cards") -> Made:
    """The zip of a card print as images: `png` or `tts` (see the module's docstring)."""
    make = {"png": png_zip, "tts": tts_zip}[kind]
    return make(pdf, cards, face_mm, bleed, title, noun)
