"""Reading printed PDFs back: where each card was drawn, what text it holds, how the page
looks as pixels."""

from __future__ import annotations

import io
import itertools
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

import numpy as np
import pdfplumber
import pikepdf
import pypdfium2 as pdfium
from pdfplumber.utils.clustering import cluster_objects

from listbuilder.printing.geometry import PT_PER_MM


@dataclass(frozen=True)
class Placed:
    """A card drawn on a page, in PDF points from the bottom-left corner."""

    form: str
    x: float
    y: float
    w: float
    h: float


def page_sizes(pdf_bytes: bytes) -> list[tuple[float, float]]:
    pdf = pikepdf.open(io.BytesIO(pdf_bytes))
    return [(float(p.mediabox[2]) - float(p.mediabox[0]),
             float(p.mediabox[3]) - float(p.mediabox[1])) for p in pdf.pages]


def placements(pdf_bytes: bytes) -> list[list[Placed]]:
    """Per page, every Form XObject drawn and the box it covers."""
    pdf = pikepdf.open(io.BytesIO(pdf_bytes))
    out = []
    for page in pdf.pages:
        forms = page.obj.Resources.get("/XObject", {})
        placed = []
        x = y = 0.0
        for operands, operator in pikepdf.parse_content_stream(page):
            if str(operator) == "cm":
                x, y = float(operands[4]), float(operands[5])
            elif str(operator) == "Do":
                name = str(operands[0])
                box = [float(v) for v in forms[name].BBox]
                placed.append(Placed(name, x + box[0], y + box[1], box[2] - box[0],
                                     box[3] - box[1]))
        out.append(placed)
    return out


def page_strokes(pdf_bytes: bytes) -> list[list[tuple[float, float, float, float]]]:
    """Per page, the lines drawn by the page itself (crop and fold marks), not by cards."""
    pdf = pikepdf.open(io.BytesIO(pdf_bytes))
    out = []
    for page in pdf.pages:
        lines = []
        start = (0.0, 0.0)
        for operands, operator in pikepdf.parse_content_stream(page):
            op = str(operator)
            if op == "m":
                start = (float(operands[0]), float(operands[1]))
            elif op == "l":
                lines.append((*start, float(operands[0]), float(operands[1])))
        out.append(lines)
    return out


def texts_in_boxes(pdf_bytes: bytes, page_index: int, boxes: list[Placed]) -> list[str]:
    """The words inside each box, in reading order, joined by spaces."""
    with pdfplumber.open(io.BytesIO(pdf_bytes)) as doc:
        page = doc.pages[page_index]
        height = float(page.height)
        words = page.extract_words()
        out = []
        for box in boxes:
            top, bottom = height - (box.y + box.h), height - box.y
            inside = [w for w in words if box.x - 1 <= w["x0"] and w["x1"] <= box.x + box.w + 1
                      and top - 1 <= w["top"] and w["bottom"] <= bottom + 1]
            out.append(" ".join(w["text"] for w in inside))
        return out


def all_text(pdf_bytes: bytes) -> str:
    with pdfplumber.open(io.BytesIO(pdf_bytes)) as doc:
        return "\n".join(page.extract_text() or "" for page in doc.pages)


def pixels(pdf_bytes: bytes, page_index: int, dpi: float = 72) -> np.ndarray:
    """The page as a greyscale image, row 0 at the top; one pixel per point at 72 dpi."""
    doc = pdfium.PdfDocument(pdf_bytes)
    try:
        bitmap = doc[page_index].render(scale=dpi / 72, grayscale=True)
        return np.array(bitmap.to_numpy()).reshape(bitmap.height, bitmap.width)
    finally:
        doc.close()


def mm(points: float) -> float:
    return points / PT_PER_MM


# -- the geometry check: what a player holding the print would see -----------------------------

FLOOR_PT = 6.0  # no text smaller than this anywhere
SAFE_MM = 5.0  # home printers print nothing this close to the paper's edge
CONTRAST = 4.5  # WCAG AA for normal text
EPS = 0.6  # pt: rounding and the hairline of a frame


@dataclass(frozen=True)
class Check:
    """What one print promises. `bleed`: a print-shop file, whose pages may run to the edge
    (glyphs must still stay inside the trim). A page of placed cards must hold every glyph
    inside a card; whole pages (roster and rules sheets) have no cards."""

    bleed: bool = False
    floor_pt: float = FLOOR_PT
    safe_mm: float = SAFE_MM


def _luminance(rgb: tuple[float, float, float]) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def _rgb(colour: object) -> tuple[float, float, float] | None:
    """A fill colour as pdfplumber reads it (grey, RGB or CMYK numbers) as RGB, else None."""
    if not isinstance(colour, (tuple, list)) or not all(isinstance(v, (int, float))
                                                          for v in colour):
        return None
    values = [float(v) for v in colour]
    if len(values) == 1:
        return (values[0],) * 3  # type: ignore[return-value]
    if len(values) == 3:
        return values[0], values[1], values[2]
    if len(values) == 4:
        c, m, y, k = values
        return (1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k)
    return None


def _words(page: object) -> list[dict]:
    return page.extract_words(extra_attrs=["size", "non_stroking_color"],  # type: ignore[attr-defined]
                              keep_blank_chars=False)


def _overlaps(chars: list[dict]) -> list[tuple[dict, dict]]:
    """Pairs of glyphs printed over each other. Boxes are trimmed to the glyphs' core (a fifth
    of the size off the top, a tenth off the bottom), so lines set close but apart never count;
    neighbours in a line touch and may kern into each other ("y."), so glyphs next to each
    other in the text are not compared."""
    def core(c: dict) -> tuple[float, float, float, float]:
        size = float(c["size"])
        return (c["x0"], c["top"] + 0.2 * size, c["x1"], c["bottom"] - 0.1 * size)
    boxes = sorted(((core(c), n, c) for n, c in enumerate(chars)), key=lambda t: t[0])
    out = []
    for i, (a, na, ca) in enumerate(boxes):
        for b, nb, cb in boxes[i + 1:]:
            if b[0] >= a[2]:
                break
            cross = min(a[2], b[2]) - b[0]
            if (abs(na - nb) > 1 and b[1] < a[3] and a[1] < b[3]
                    and cross > 0.25 * min(a[2] - a[0], b[2] - b[0])):
                out.append((ca, cb))
    return out


def _background(image: np.ndarray, scale: float, word: dict,
                ink: tuple[float, float, float]) -> tuple[float, float, float] | None:
    """The colour behind a word: the commonest pixel colour in its box that is not the ink's
    own (pdfium applies the clipping of borders and card boxes that pdfplumber ignores)."""
    y0, y1 = int(word["top"] * scale), int(word["bottom"] * scale) + 1
    x0, x1 = int(word["x0"] * scale), int(word["x1"] * scale) + 1
    patch = image[max(0, y0):y1, max(0, x0):x1].reshape(-1, image.shape[-1])[:, :3]
    if not len(patch):
        return None
    ink255 = np.array(ink) * 255
    far = patch[np.abs(patch.astype(float) - ink255).sum(axis=1) > 60]
    if not len(far):
        return None
    # the commonest colour in steps of 8: each pixel's three steps as one number, counted
    # (np.unique over rows cost a tenth of the whole check)
    codes = (far.astype(np.int64) // 8) @ np.array([1024, 32, 1])
    mode = far[codes == np.bincount(codes).argmax()].mean(axis=0)
    return tuple(float(v) / 255 for v in mode)  # type: ignore[return-value]


def geometry_problems(pdf_bytes: bytes, check: Check = Check(), limit: int = 12) -> list[str]:
    """Every way the print fails a player, in words: text under the floor, words printed over
    words, glyphs outside their card, anything in the unprintable band at the paper's edge,
    text too faint for its background. Empty: the print is fit to use."""
    problems: list[str] = []
    boxes_per_page = placements(pdf_bytes)
    trims = trim_boxes(pdf_bytes)
    band = check.safe_mm * PT_PER_MM
    scale = 100 / 72
    doc = pdfium.PdfDocument(pdf_bytes)
    try:
        with pdfplumber.open(io.BytesIO(pdf_bytes)) as plumbed:
            for n, raw in enumerate(plumbed.pages):
                page = _deduped(raw)  # a glyph drawn twice in one place is one glyph
                where = f"page {n + 1}"
                w, h = float(page.width), float(page.height)
                chars = [c for c in page.chars if c["text"].strip()]
                small = [c for c in chars if c["size"] < check.floor_pt - 0.05]
                if small:
                    tiny = min(small, key=lambda c: c["size"])
                    problems.append(f"{where}: {len(small)} glyphs under {check.floor_pt:g} pt, "
                                    f"the smallest {tiny['size']:.2f} pt in "
                                    f"{_word_at(page, tiny)!r}")
                words = _words(page)
                for a, b in _overlaps(chars)[:3]:
                    problems.append(f"{where}: {_word_at(page, a)!r} ({a['size']:.1f} pt) "
                                    f"overlaps {_word_at(page, b)!r} ({b['size']:.1f} pt) at "
                                    f"{mm(a['x0']):.1f}, {mm(a['top']):.1f} mm")
                if check.bleed and (trim := trims[n]) is not None:
                    # a print-shop page: every glyph in the safe zone inside its trim line
                    x0, y0, x1, y1 = trim
                    safe = (x0 + TRIM_SAFE_PT, h - y1 + TRIM_SAFE_PT, x1 - TRIM_SAFE_PT,
                            h - y0 - TRIM_SAFE_PT)
                    cut = [c for c in chars if not (
                        safe[0] - EPS <= c["x0"] and c["x1"] <= safe[2] + EPS
                        and safe[1] - EPS <= c["top"] and c["bottom"] <= safe[3] + EPS)]
                    if cut:
                        near = min(min(c["x0"] - x0, c["top"] - (h - y1), x1 - c["x1"],
                                       (h - y0) - c["bottom"]) for c in cut)
                        problems.append(f"{where}: {len(cut)} glyphs less than "
                                        f"{mm(TRIM_SAFE_PT):g} mm inside the trim, e.g. "
                                        f"{_word_at(page, cut[0])!r} {mm(near):.1f} mm from it")
                if cards := boxes_per_page[n]:
                    inset = BLEED_PT if check.bleed else 0.0
                    rects = [(b.x + inset, h - b.y - b.h + inset, b.x + b.w - inset,
                              h - b.y - inset) for b in cards]
                    out = [c for c in chars if not any(
                        x0 - EPS <= c["x0"] and c["x1"] <= x1 + EPS and top - EPS <= c["top"]
                        and c["bottom"] <= bottom + EPS for x0, top, x1, bottom in rects)]
                    if out:
                        problems.append(f"{where}: {len(out)} glyphs outside every card, "
                                        f"e.g. {_word_at(page, out[0])!r}")
                if not check.bleed:
                    near = [kind for kind, objs in (("text", chars), ("line", page.lines),
                                                    ("rect", page.rects),
                                                    ("curve", page.curves))
                            for o in objs if min(o["x0"], o["top"], w - o["x1"],
                                                 h - o["bottom"]) < band - 0.01]
                    if near:
                        first = min((min(o["x0"], o["top"], w - o["x1"], h - o["bottom"]), k)
                                    for k, objs in (("text", chars), ("line", page.lines),
                                                    ("rect", page.rects),
                                                    ("curve", page.curves)) for o in objs)
                        problems.append(f"{where}: {len(near)} objects inside the "
                                        f"{check.safe_mm:g} mm band at the paper's edge, the "
                                        f"closest a {first[1]} {mm(first[0]):.1f} mm from it")
                image = doc[n].render(scale=scale).to_numpy()
                faint = []
                for word in words:
                    ink = _rgb(word["non_stroking_color"])
                    back = _background(image, scale, word, ink) if ink else None
                    if ink and back and (ratio := contrast(ink, back)) < CONTRAST:
                        faint.append((ratio, word["text"]))
                if faint:
                    ratio, text = min(faint)
                    problems.append(f"{where}: {len(faint)} words under {CONTRAST}:1 contrast, "
                                    f"the faintest {text!r} at {ratio:.1f}:1")
                if len(problems) >= limit:
                    break
    finally:
        doc.close()
    return problems


BLEED_PT = 3.0 * PT_PER_MM
TRIM_SAFE_PT = 3.0 * PT_PER_MM  # a print-shop file's text stays this far inside the trim


def trim_boxes(pdf_bytes: bytes) -> list[tuple[float, float, float, float] | None]:
    """Per page, its TrimBox (x0, y0, x1, y1 in PDF points from the bottom left), if any."""
    pdf = pikepdf.open(io.BytesIO(pdf_bytes))
    out: list[tuple[float, float, float, float] | None] = []
    for page in pdf.pages:
        box = page.obj.get("/TrimBox")
        out.append(None if box is None else (float(box[0]), float(box[1]), float(box[2]),
                                             float(box[3])))
    return out


def _deduped(page: Any) -> Any:
    """The page with each glyph drawn more than once in one place (same text, font and size,
    within 1 pt) kept once, as pdfplumber's `dedupe_chars` does; that one puts the kept glyphs
    back in order with `list.index`, quadratic in the glyphs of a page (70% of the check)."""
    chars = page.chars
    key = itemgetter("upright", "text", "fontname", "size")
    keep: set[int] = set()
    for _, group in itertools.groupby(sorted(chars, key=key), key=key):
        for row in cluster_objects(list(group), itemgetter("doctop"), 1):
            for same in cluster_objects(row, itemgetter("x0"), 1):
                keep.add(id(min(same, key=itemgetter("doctop", "x0"))))
    out = pdfplumber.page.FilteredPage(page, lambda _: True)
    out._objects = {**page.objects, "char": [c for c in chars if id(c) in keep]}
    return out


def _word_at(page: object, char: dict) -> str:
    """The text around a glyph, for a message a person can find on the page."""
    line = [c for c in page.chars  # type: ignore[attr-defined]
            if abs(c["top"] - char["top"]) < 1 and abs(c["x0"] - char["x0"]) < 40]
    return "".join(c["text"] for c in sorted(line, key=lambda c: c["x0"])).strip()
