"""The rules notes in the browser: docs/rules-notes.md as a read-only page, each heading under
the anchor GitHub gives it, so a violation decided by a reading (`Violation.reading`) links to
the very section that explains it.

Only headings, paragraphs, `code` and link texts are picked out; everything is shown as text
(the template escapes it), so no markdown renderer and no raw HTML is involved.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from flask import Blueprint, render_template

from listbuilder.locations import RULES_NOTES, shared

NOTES = shared(RULES_NOTES)  # docs/rules-notes.md, shipped in the package
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_INLINE = re.compile(r"`([^`]+)`|\[([^\]]+)\]\([^)]*\)")

Segment = tuple[str, bool]  # (text, shown as code)


@dataclass(frozen=True)
class Block:
    """A heading (level 1-6) or a paragraph (level 0) of the notes."""

    level: int
    text: tuple[Segment, ...]
    slug: str = ""
    pinned: bool = False  # a "Pinned by:" paragraph, the tests that hold the reading

    @property
    def plain(self) -> str:
        return "".join(text for text, _ in self.text)


def slugify(title: str, seen: dict[str, int]) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens, and
    -1, -2... after a repeat. `seen` counts the anchors given so far in the document."""
    base = re.sub(r"[^\w\- ]", "", title.strip().lower()).replace(" ", "-")
    n = seen.get(base, 0)
    seen[base] = n + 1
    return base if n == 0 else f"{base}-{n}"


def segments(text: str) -> tuple[Segment, ...]:
    out: list[Segment] = []
    at = 0
    for m in _INLINE.finditer(text):
        if m.start() > at:
            out.append((text[at:m.start()], False))
        out.append((m[1], True) if m[1] is not None else (m[2], False))
        at = m.end()
    if at < len(text):
        out.append((text[at:], False))
    return tuple(out)


def parse(markdown: str) -> tuple[Block, ...]:
    blocks: list[Block] = []
    seen: dict[str, int] = {}
    lines: list[str] = []

    def flush() -> None:
        if lines:
            text = " ".join(lines)
            blocks.append(Block(0, segments(text), pinned=text.startswith("Pinned by:")))
            lines.clear()

    for raw in markdown.splitlines():
        line = raw.strip()
        if (m := _HEADING.match(line)) is not None:
            flush()
            title = m[2]
            blocks.append(Block(len(m[1]), segments(title), slugify(_plain(title), seen)))
        elif not line or line.startswith("Pinned by:"):
            flush()
            if line:
                lines.append(line)
        else:
            lines.append(line)
    flush()
    return tuple(blocks)


def _plain(title: str) -> str:
    """The heading as GitHub slugs it: backticks and link syntax do not count."""
    return "".join(text for text, _ in segments(title))


@lru_cache(maxsize=2)
def _load(path: Path, mtime: float) -> tuple[Block, ...]:
    return parse(path.read_text(encoding="utf-8"))


def blocks(path: Path = NOTES) -> tuple[Block, ...]:
    """The notes, parsed once per change of the file."""
    return _load(path, path.stat().st_mtime)


def anchors(path: Path = NOTES) -> dict[str, str]:
    """Each heading's anchor -> its title."""
    return _anchors(path, path.stat().st_mtime)


@lru_cache(maxsize=2)
def _anchors(path: Path, mtime: float) -> dict[str, str]:
    # every violation a reading decided links to its title: a page can show dozens
    return {b.slug: b.plain for b in _load(path, mtime) if b.level}


bp = Blueprint("notes", __name__)


@bp.get("/rules-notes")
def page() -> str:
    return render_template("site/notes.html", blocks=blocks())


@bp.app_template_global()
def reading_title(slug: str) -> str:
    """The title of the reading a violation names, for its link; the anchor if unknown."""
    return anchors().get(slug, slug)
