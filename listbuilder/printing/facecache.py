"""Laid-out card faces kept by what they show, so printing again after one change lays out
only the faces that changed.

A player prints, changes one unit and prints again: every other card is the same as before,
and laying a card out costs WeasyPrint some 30 to 100 ms. A face is known by its HTML (what
its template draws from its data), the card stock and the page's look (ink saver, system): the
same key always lays out the same way, since stylesheets and fonts do not change while a
process runs. A hit is the face's pages in the PDF they were laid out in (its "sheet"), with
the size the fit chose. Entries are kept in use order and the least recently used go first
once their sheets pass `MAX_BYTES`; a sheet is held while any of its faces is.
"""

from __future__ import annotations

import hashlib
import io
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

import pikepdf

MAX_BYTES = 32 * 1024 * 1024  # a sheet of 20 faces is some 70 KB: hundreds of prints


@dataclass(frozen=True)
class Sheet:
    """One layout's PDF, shared by the faces laid out in it."""

    pdf: bytes
    refused: tuple[str, ...]  # URLs its fetcher turned down, reported again on a hit


@dataclass(frozen=True)
class Kept:
    sheet: Sheet
    pages: tuple[int, ...]  # the face's pages in `sheet.pdf` (more than one: continued)
    font_pt: float


def face_key(html: str, *look: object) -> str:
    """The key of a face drawn as `html` on a card of the given look (stock, ink saver...)."""
    digest = hashlib.sha256(html.encode())
    digest.update(repr(look).encode())
    return digest.hexdigest()


class FaceCache:
    def __init__(self, max_bytes: int = MAX_BYTES) -> None:
        self.max_bytes = max_bytes
        self._kept: OrderedDict[str, Kept] = OrderedDict()
        self._lock = threading.Lock()

    def find(self, keys: Sequence[str]) -> dict[int, Kept]:
        """The kept faces among `keys`, by their index."""
        found = {}
        with self._lock:
            for i, key in enumerate(keys):
                if (kept := self._kept.get(key)) is not None:
                    self._kept.move_to_end(key)
                    found[i] = kept
        return found

    def keep(self, keys: Sequence[str], pdf: bytes, pages: Sequence[Sequence[int]],
             font_pt: Sequence[float], refused: Sequence[str] = ()) -> None:
        """Keep faces freshly laid out together in `pdf` (`pages[i]`: face i's pages)."""
        if len(pdf) > self.max_bytes:
            return
        sheet = Sheet(pdf, tuple(refused))
        with self._lock:
            for key, numbers, size in zip(keys, pages, font_pt, strict=True):
                self._kept[key] = Kept(sheet, tuple(numbers), size)
                self._kept.move_to_end(key)
            self._trim()

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()

    def __len__(self) -> int:
        return len(self._kept)

    def held_bytes(self) -> int:
        with self._lock:
            return self._held()

    def _held(self) -> int:
        return sum(len(s.pdf) for s in {id(k.sheet): k.sheet for k in self._kept.values()}
                   .values())

    def _trim(self) -> None:
        held = self._held()
        while held > self.max_bytes and self._kept:
            _, oldest = self._kept.popitem(last=False)
            if all(k.sheet is not oldest.sheet for k in self._kept.values()):
                held -= len(oldest.sheet.pdf)


FACES = FaceCache()


def assemble(faces: Sequence[Kept]) -> tuple[bytes, list[list[int]]]:
    """One PDF holding each face's pages, in order, and each face's page numbers in it: each
    sheet is opened once and only the pages needed are copied from it."""
    sheets = list({id(k.sheet): k.sheet for k in faces}.values())
    numbers: list[list[int]] = []
    at = 0
    for kept in faces:
        numbers.append(list(range(at, at + len(kept.pages))))
        at += len(kept.pages)
    opened = {id(s): pikepdf.open(io.BytesIO(s.pdf)) for s in sheets}
    try:
        out = pikepdf.new()
        for kept in faces:
            source = opened[id(kept.sheet)]
            for page in kept.pages:
                out.pages.append(source.pages[page])
        buffer = io.BytesIO()
        out.save(buffer)
        return buffer.getvalue(), numbers
    finally:
        for pdf in opened.values():
            pdf.close()
