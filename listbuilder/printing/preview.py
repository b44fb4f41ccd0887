"""A picture of a print before it is downloaded: the first page of the very PDF the download
gives, rendered by pdfium (pypdfium2) as a PNG."""

from __future__ import annotations

import io
import threading

PREVIEW_WIDTH = 480  # px: readable as a thumbnail beside the print form, small to send

# PDFium is not thread-safe, not even for two different documents: two server threads
# rendering previews at once crashed the whole process (a segfault). Every pdfium call of the
# process goes through this lock, and every pdfium object is closed inside it, so no finalizer
# runs pdfium code later from another thread.
PDFIUM = threading.Lock()


def first_page_png(pdf: bytes, width_px: int = PREVIEW_WIDTH) -> bytes:
    """The PDF's first page as a PNG `width_px` wide (white behind the page, as on paper)."""
    import pypdfium2 as pdfium

    with PDFIUM:
        document = pdfium.PdfDocument(pdf)
        try:
            page = document[0]
            try:
                bitmap = page.render(scale=width_px / page.get_width())
                try:
                    # convert() copies: the PIL image made from the bitmap shares its memory
                    image = bitmap.to_pil().convert("RGB")
                finally:
                    bitmap.close()
            finally:
                page.close()
        finally:
            document.close()
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
