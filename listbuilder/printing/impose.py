"""Build the printed sheets from the laid-out faces with pikepdf: every face becomes one Form
XObject, drawn wherever a copy goes, so a sheet of 450 cards holds 18 cards' worth of content.

A Form XObject's box clips what it draws, so no card can spill outside its place; crop marks
and fold marks are drawn around the cards a page holds, never over a card.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from io import BytesIO

import pikepdf

from listbuilder.printing.geometry import (
    BLEED,
    FOLD_GAP,
    MARK_GAP,
    MARK_LENGTH,
    MARK_MIN,
    SAFE,
    Box,
    Duplex,
    FoldSheet,
    Grid,
    pt,
)

Progress = Callable[[str, int, int], None]
MARK_WIDTH = 0.25  # pt: hairline crop marks
FOLD_DASH = "[2 2] 0 d"


@dataclass(frozen=True)
class Slot:
    """One printed card: the page of its front and of its back in the laid-out PDF."""

    front: int
    back: int | None = None


class Sheets:
    """Pages built on top of the laid-out PDF, whose own pages are dropped at the end."""

    def __init__(self, laid_out: bytes, face_h_mm: float) -> None:
        self.pdf = pikepdf.open(BytesIO(laid_out))
        self.source_pages = len(self.pdf.pages)
        self.forms = []
        self.lift: list[float] = []  # how far each form sits above its page's bottom
        face_h = pt(face_h_mm)
        for page in self.pdf.pages:
            form = pikepdf.Page(page).as_form_xobject()
            x0, y0, x1, y1 = (float(v) for v in form.BBox)
            # faces are laid out on tall pages: the card is the top of the page
            bottom = max(y0, y1 - face_h)
            form.BBox = pikepdf.Array([x0, bottom, x1, y1])
            self.forms.append(self.pdf.make_indirect(form))
            self.lift.append(bottom)

    def page(self, width_mm: float, height_mm: float, draws: Sequence[tuple[int, Box]],
             marks: bytes = b"", under: bytes = b"") -> pikepdf.Page:
        """A new page of the given size with face `i` drawn in each box (mm from top left),
        `under` drawn first and `marks` last."""
        page = self.pdf.add_blank_page(page_size=(pt(width_mm), pt(height_mm)))
        used = sorted({i for i, _ in draws})
        page.obj.Resources = pikepdf.Dictionary(
            XObject=pikepdf.Dictionary({f"/C{i}": self.forms[i] for i in used}))
        ops = [b"q 1 0 0 1 %.3f %.3f cm /C%d Do Q"
               % (pt(box.x), pt(height_mm - box.bottom) - self.lift[i], i) for i, box in draws]
        content = b"\n".join([under, *ops, marks]).strip()
        page.obj.Contents = self.pdf.make_stream(content)
        return page

    def finish(self, title: str) -> bytes:
        del self.pdf.pages[: self.source_pages]
        scrub(self.pdf)
        self.pdf.docinfo["/Title"] = title
        self.pdf.docinfo["/Creator"] = "Listbuilder"
        out = BytesIO()
        self.pdf.save(out, compress_streams=True,
                      object_stream_mode=pikepdf.ObjectStreamMode.generate)
        return out.getvalue()


def scrub(pdf: pikepdf.Pdf) -> None:
    """No attachment of any kind leaves: embedded files, associated files, attachment notes."""
    names = pdf.Root.get("/Names")
    if names is not None and "/EmbeddedFiles" in names:
        del names["/EmbeddedFiles"]
    if "/AF" in pdf.Root:
        del pdf.Root["/AF"]
    for page in pdf.pages:
        annots = page.obj.get("/Annots")
        if annots is None:
            continue
        kept = [a for a in annots if a.get("/Subtype") != "/FileAttachment"]
        if len(kept) != len(annots):
            page.obj.Annots = pikepdf.Array(kept)


def _line(x1: float, y1: float, x2: float, y2: float, page_h: float) -> bytes:
    return b"%.3f %.3f m %.3f %.3f l S" % (pt(x1), pt(page_h - y1), pt(x2), pt(page_h - y2))


def _ticks(inner: float, outward: int, limit: float) -> tuple[float, float] | None:
    """A crop mark's ends, from MARK_GAP off the grid edge at `inner` outwards (-1: towards
    0, +1: towards `limit`), MARK_LENGTH long or as long as the margin holds before the safe
    band at the paper's edge; None when that is under MARK_MIN, too short for a cutter to line
    a blade up on (the sheet leaves the room on the other side: `geometry.near_margin`)."""
    start = inner + outward * MARK_GAP
    end = inner + outward * (MARK_GAP + MARK_LENGTH)
    end = max(end, SAFE) if outward < 0 else min(end, limit - SAFE)
    return (start, end) if (end - start) * outward >= MARK_MIN - 1e-6 else None


def crop_marks(boxes: Sequence[Box], page_w: float, page_h: float,
               bleed: float = 0.0, fold_x: float | None = None) -> bytes:
    """Marks in the margins on the line of every edge of `boxes` (the cards on this page, so
    no mark points at a row or column left empty), stopping short of the grid and of the safe
    band at the paper's edge, each at least MARK_MIN long: a margin too narrow for that has
    none, and the cut line it would mark is marked at its other end. `bleed`: how far each
    card's print runs past its cut line; the marks start beyond it. `fold_x`: a gutter-fold
    sheet's fold, whose side margins are the same both sides (the fold stays in the middle):
    where they hold no mark, each row's cut is marked across the fold's gap instead, which
    is cut away with the margins."""
    if not boxes:
        return b""
    left = min(b.x for b in boxes) - bleed
    right = max(b.right for b in boxes) + bleed
    top = min(b.y for b in boxes) - bleed
    bottom = max(b.bottom for b in boxes) + bleed
    xs = sorted({v for b in boxes for v in (b.x, b.right)})
    ys = sorted({v for b in boxes for v in (b.y, b.bottom)})
    ops = [b"q 0 G %.2f w" % MARK_WIDTH]
    for edge, outward in ((top, -1), (bottom, 1)):
        if tick := _ticks(edge, outward, page_h):
            ops += [_line(x, tick[0], x, tick[1], page_h) for x in xs]
    sides = [tick for edge, outward in ((left, -1), (right, 1))
             if (tick := _ticks(edge, outward, page_w))]
    if not sides and fold_x is not None:
        sides = [(fold_x - FOLD_GAP / 2 + MARK_GAP, fold_x + FOLD_GAP / 2 - MARK_GAP)]
    for tick in sides:
        ops += [_line(tick[0], y, tick[1], y, page_h) for y in ys]
    ops.append(b"Q")
    return b"\n".join(ops)


def fold_marks(sheet: FoldSheet, boxes: Sequence[Box]) -> bytes:
    """Dashed ticks above and below the grid where the sheet is folded."""
    top = min(b.y for b in boxes)
    bottom = max(b.bottom for b in boxes)
    x = sheet.fold_x
    ticks = [t for edge, outward in ((top, -1), (bottom, 1))
             if (t := _ticks(edge, outward, sheet.page_h))]
    return b"\n".join([b"q 0.4 G %.2f w %s" % (MARK_WIDTH * 2, FOLD_DASH.encode()),
                       *(_line(x, a, x, b, sheet.page_h) for a, b in ticks), b"Q"])


def _chunks(slots: Sequence[Slot], size: int) -> list[Sequence[Slot]]:
    return [slots[i:i + size] for i in range(0, len(slots), size)]


def back_bleed(boxes: Sequence[Box], grid: Grid, fill: tuple[float, float, float],
               page_h: float) -> bytes:
    """The backs' colour under each back and half the gutter around it: a back printed a
    millimetre off its front (duplex printers slip) shows no white sliver at the card's edge."""
    dx, dy = grid.gutter_x / 2, grid.gutter_y / 2
    ops = [b"q %.3f %.3f %.3f rg" % fill]
    ops += [b"%.3f %.3f %.3f %.3f re f" % (pt(b.x - dx), pt(page_h - b.bottom - dy),
                                           pt(b.w + 2 * dx), pt(b.h + 2 * dy)) for b in boxes]
    ops.append(b"Q")
    return b"\n".join(ops)


def impose_grid(laid_out: bytes, slots: Sequence[Slot], grid: Grid, *, duplex: Duplex,
                cut_marks: bool, title: str, progress: Progress | None = None,
                back_fill: tuple[float, float, float] | None = None,
                bleed: float = 0.0) -> bytes:
    """Fronts sheets, each followed by its backs sheet when printing both sides (`back_fill`:
    the backs' colour, run into the gutters). `bleed`: the faces were laid out with this much
    bleed, and the grid's cells hold them whole (a print shop's sheet of chits): each card's
    cut lies that far inside its cell, where the crop marks point."""
    sheets = Sheets(laid_out, grid.card_h)
    chunks = _chunks(slots, grid.per_page)

    def marks(cells: Sequence[Box], beyond: float = 0.0) -> bytes:
        """Crop marks for the cards in `cells`, starting `beyond` their cut at least (the
        backs' colour runs that far: a mark on it would be lost)."""
        if not cut_marks:
            return b""
        trims = [Box(b.x + bleed, b.y + bleed, b.w - 2 * bleed, b.h - 2 * bleed)
                 for b in cells]
        return crop_marks(trims, grid.page_w, grid.page_h, max(bleed, beyond))

    for n, chunk in enumerate(chunks):
        if progress:
            progress("Imposing sheets", n, len(chunks))
        fronts = [(s.front, grid.cell(i)) for i, s in enumerate(chunk)]
        sheets.page(grid.page_w, grid.page_h, fronts, marks([box for _, box in fronts]))
        if duplex != "none":
            backs = [(s.back, grid.back_cell(i, duplex)) for i, s in enumerate(chunk)
                     if s.back is not None]
            under = back_bleed([box for _, box in backs], grid, back_fill,
                               grid.page_h) if back_fill and backs else b""
            # the backs page's marks: where its own cards are, mirrored like them, beyond the
            # backs' colour; a margin left too narrow by it has none (the fronts page's marks
            # are on the same cut lines)
            cells = [grid.back_cell(i, duplex) for i in range(len(chunk))]
            beyond = max(grid.gutter_x, grid.gutter_y) / 2 if under else 0.0
            sheets.page(grid.page_w, grid.page_h, backs, marks(cells, beyond), under=under)
    return sheets.finish(title)


def impose_fold(laid_out: bytes, slots: Sequence[Slot], sheet: FoldSheet, *, cut_marks: bool,
                title: str, progress: Progress | None = None) -> bytes:
    """Gutter-fold sheets: each front left of the fold, its back mirrored to the right."""
    sheets = Sheets(laid_out, sheet.card_h)
    chunks = _chunks(slots, sheet.per_page)
    for n, chunk in enumerate(chunks):
        if progress:
            progress("Imposing sheets", n, len(chunks))
        draws = [(s.front, sheet.front(i)) for i, s in enumerate(chunk)]
        draws += [(s.back, sheet.back(i)) for i, s in enumerate(chunk) if s.back is not None]
        # marks for the places this page fills (a back left blank is still cut out)
        boxes = [b for i in range(len(chunk)) for b in (sheet.front(i), sheet.back(i))]
        marks = fold_marks(sheet, boxes)
        if cut_marks:
            marks += b"\n" + crop_marks(boxes, sheet.page_w, sheet.page_h,
                                         fold_x=sheet.fold_x)
        sheets.page(sheet.page_w, sheet.page_h, draws, marks)
    return sheets.finish(title)


def impose_bleed(laid_out: bytes, slots: Sequence[Slot], card: tuple[float, float], *,
                 duplex: Duplex, title: str, progress: Progress | None = None) -> bytes:
    """One card per page with its bleed, the trim box marking the cut, for print shops."""
    w, h = card[0] + 2 * BLEED, card[1] + 2 * BLEED
    sheets = Sheets(laid_out, h)
    whole = Box(0.0, 0.0, w, h)
    for n, slot in enumerate(slots):
        if progress and n % 50 == 0:
            progress("Imposing cards", n, len(slots))
        faces = [slot.front] + ([slot.back] if duplex != "none" and slot.back is not None
                                else [])
        for face in faces:
            page = sheets.page(w, h, [(face, whole)])
            page.obj.TrimBox = pikepdf.Array([pt(BLEED), pt(BLEED), pt(w - BLEED),
                                              pt(h - BLEED)])
            page.obj.BleedBox = pikepdf.Array([0, 0, pt(w), pt(h)])
    return sheets.finish(title)


def concatenate(parts: Sequence[bytes], title: str) -> bytes:
    """Several PDFs as one, in order (the roster sheet before the cards)."""
    if len(parts) == 1:
        return parts[0]
    out = pikepdf.open(BytesIO(parts[0]))
    for part in parts[1:]:
        out.pages.extend(pikepdf.open(BytesIO(part)).pages)
    scrub(out)
    out.docinfo["/Title"] = title
    buffer = BytesIO()
    out.save(buffer, compress_streams=True, object_stream_mode=pikepdf.ObjectStreamMode.generate)
    return buffer.getvalue()
