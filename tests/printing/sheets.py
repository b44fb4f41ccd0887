"""What a print shop counts on a card print, read back from its PDF: the sheets it takes (its
pages), the cards on each, and which of them are quick-reference cards. Used by
test_card_reading.py and benchmarks/sheets.py (which prints the figures)."""

from __future__ import annotations

import io
import itertools
from dataclasses import dataclass

import pdfplumber

from listbuilder.engine.cards import REFERENCE
from listbuilder.printing.geometry import PT_PER_MM
from listbuilder.printing.layout import SAFE_MM

from .pdfcheck import placements
from .reading import card_areas


@dataclass(frozen=True)
class Sheets:
    """Per sheet (a page of the PDF), the words on each card placed on it, in order."""

    cards: tuple[tuple[str, ...], ...]

    @property
    def count(self) -> int:
        return len(self.cards)

    @property
    def card_count(self) -> int:
        return sum(len(sheet) for sheet in self.cards)

    @property
    def references(self) -> list[str]:
        """The quick-reference cards, in order."""
        return [text for sheet in self.cards for text in sheet if is_reference(text)]

    def ends_on_references_alone(self) -> bool:
        """Whether the last sheet holds quick-reference cards and nothing else, after a sheet
        of other cards (a sheet, or a page with bleed, spent on them alone)."""
        return len(self.cards) > 1 and all(is_reference(text) for text in self.cards[-1])


def is_reference(text: str) -> bool:
    return text.startswith(REFERENCE)


def sheets_of(pdf: bytes) -> Sheets:
    """Every card placed on every page of a card print (copies too), as its words."""
    out: list[tuple[str, ...]] = []
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        for page, boxes in zip(doc.pages, placements(pdf), strict=True):
            height = float(page.height)
            words = page.extract_words()
            texts = []
            for box in boxes:
                top, bottom = height - (box.y + box.h), height - box.y
                inside = [w["text"] for w in words
                          if box.x - 1 <= (w["x0"] + w["x1"]) / 2 <= box.x + box.w + 1
                          and top - 1 <= (w["top"] + w["bottom"]) / 2 <= bottom + 1]
                texts.append(" ".join(inside))
            out.append(tuple(texts))
    return Sheets(tuple(out))


@dataclass(frozen=True)
class Rule:
    """A rule as printed on a quick-reference card: its name, and where its lines' glyphs
    start and end, in mm from the card's cut at its top."""

    name: str
    top: float
    bottom: float


@dataclass(frozen=True)
class ReferenceCard:
    height: float  # mm: the card's, cut to cut
    rules: tuple[Rule, ...]


def reference_cards(pdf: bytes) -> list[ReferenceCard]:
    """Each quick-reference card of a plain print (once, copies aside), with its rules: a rule
    starts on a line that starts in bold (its name), below the card's band."""
    out: list[ReferenceCard] = []
    for area, box in card_areas(pdf):
        top = float(area.bbox[1])
        lines = [line for line in area.extract_text_lines(y_tolerance=1, return_chars=True)
                 if line["text"].strip()]
        if not lines or not is_reference(lines[0]["text"]):
            continue
        rules: list[Rule] = []
        for line in lines[2:]:  # after the name and the game's line
            first = next(c for c in line["chars"] if c["text"].strip())
            start = (line["top"] - top) / PT_PER_MM
            end = (line["bottom"] - top) / PT_PER_MM
            if "Bold" in first["fontname"]:
                name = line["text"].split(":")[0].strip()
                rules.append(Rule(name, start, end))
            elif rules:
                rules[-1] = Rule(rules[-1].name, rules[-1].top, end)
        out.append(ReferenceCard(box.h / PT_PER_MM, tuple(rules)))
    return out


RULE_ROOM_MM = 1.5  # a rule's margin, the frame and a line's room under its glyphs: a rule the
# layout found too long for a card may look this much shorter, read from its glyphs


def unfilled(cards: list[ReferenceCard]) -> list[str]:
    """The quick-reference cards that could have held the next card's first rule: each card is
    to take as many rules as fit, in order, before the next starts. Measured from the glyphs:
    the room under a card's last rule (to 3 mm inside the cut) against the next card's first
    rule, with the gap rules have between them on a card."""
    gaps = [b.top - a.bottom for card in cards for a, b in itertools.pairwise(card.rules)]
    gap = min(gaps, default=0.0)
    out = []
    for k, (card, after) in enumerate(itertools.pairwise(cards)):
        free = card.height - SAFE_MM - card.rules[-1].bottom
        first = after.rules[0]
        if gap + first.bottom - first.top <= free - RULE_ROOM_MM:
            out.append(f"card {k + 1} has {free:.1f} mm free, and {first.name} "
                       f"({first.bottom - first.top:.1f} mm) waits for card {k + 2}")
    return out
