"""A picture of a print before it is downloaded: the first page of the very PDF the download
gives, rendered by pdfium (pypdfium2) as a PNG."""

from __future__ import annotations

import io

PREVIEW_WIDTH = 480  # px: readable as a thumbnail beside the print form, small to send


def first_page_png(pdf: bytes, width_px: int = PREVIEW_WIDTH) -> bytes:
    """The PDF's first page as a PNG `width_px` wide (white behind the page, as on paper)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    try:
        page = document[0]
        image = page.render(scale=width_px / page.get_width()).to_pil()
    finally:
        document.close()
    out = io.BytesIO()
    image.convert("RGB").save(out, format="PNG", optimize=True)
    return out.getvalue()
