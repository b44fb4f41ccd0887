"""Reading printed PDFs back: where each card was drawn, what text it holds, how the page
looks as pixels."""

from __future__ import annotations

import io
from dataclasses import dataclass

import numpy as np
import pdfplumber
import pikepdf
import pypdfium2 as pdfium

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
