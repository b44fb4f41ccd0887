"""How a printed card reads at arm's length, measured from its PDF: the share of its characters
at a size a player reads across the table, text repeated from card to card, weapon and lookup
tables against rules text, and continuation cards. Used by test_card_reading.py and
benchmarks/card_reading.py (which prints the figures)."""

from __future__ import annotations

import io
import itertools
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pdfplumber

from .pdfcheck import Placed, placements

READABLE_PT = 7.5  # the size a card's text should reach (issue 20: 90% of characters)
REPEATED_ON = 4  # a sentence printed on this many cards or more is a core rule repeated
CONTINUED = re.compile(r"^.{1,80}? \(continued\)")
SENTENCE = re.compile(r"[^.:;]+[.:;]?")


@dataclass
class Card:
    """One card as printed: its lines (text and the size of their characters)."""

    lines: list[tuple[str, list[float]]] = field(default_factory=list)

    @property
    def text(self) -> str:
        return " ".join(t for t, _ in self.lines)

    @property
    def sizes(self) -> list[float]:
        return [s for _, sizes in self.lines for s in sizes]

    def size_after(self, starts: str) -> float | None:
        """The smallest character size of the line after the first that starts with `starts`
        (a table's first row, after its heading)."""
        for (text, _), (_, sizes) in itertools.pairwise(self.lines):
            if text.startswith(starts):
                return min(sizes)
        return None

    def line_size(self, starts: str) -> float | None:
        """The smallest character size of the first line that starts with `starts`."""
        for text, sizes in self.lines:
            if text.startswith(starts):
                return min(sizes)
        return None


@dataclass(frozen=True)
class Reading:
    cards: int
    continued: int  # cards that only carry on another card's text
    chars: int
    readable: float  # share of characters at READABLE_PT or more
    repeated: float  # share of characters in sentences printed on REPEATED_ON cards or more
    smallest: float  # pt

    def line(self) -> str:
        return (f"{self.cards} cards ({self.continued} continued), "
                f"{self.readable:.0%} of {self.chars} characters at {READABLE_PT} pt or more, "
                f"{self.repeated:.0%} repeated on {REPEATED_ON}+ cards, smallest "
                f"{self.smallest:.1f} pt")


def card_areas(pdf: bytes) -> Iterator[tuple[Any, Placed]]:
    """Each distinct card face placed on the sheets (copies of a card are one), cropped from
    its page, with where it was placed."""
    seen: set[str] = set()
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        for page, boxes in zip(doc.pages, placements(pdf), strict=True):
            height = float(page.height)
            for box in boxes:
                if box.form in seen:
                    continue
                seen.add(box.form)
                yield page.crop((box.x, height - box.y - box.h, box.x + box.w,
                                 height - box.y), strict=False), box


def cards_of(pdf: bytes) -> list[Card]:
    """Every card placed on the sheets, once per distinct face (copies of a card are one)."""
    out: list[Card] = []
    for area, _ in card_areas(pdf):
        card = Card()
        for line in area.extract_text_lines(y_tolerance=1, return_chars=True):
            sizes = [round(float(c["size"]), 2) for c in line["chars"] if c["text"].strip()]
            if sizes:
                card.lines.append((line["text"], sizes))
        out.append(card)
    return out


def sentences(text: str) -> list[str]:
    return [s.strip() for s in SENTENCE.findall(text) if len(s.strip()) > 12]


def reading(cards: list[Card]) -> Reading:
    sizes = [s for c in cards for s in c.sizes]
    on_cards: Counter[str] = Counter()
    for card in cards:
        on_cards.update(set(sentences(card.text)))
    repeated = sum(len(s.replace(" ", "")) for card in cards for s in sentences(card.text)
                   if on_cards[s] >= REPEATED_ON)
    return Reading(
        cards=len(cards), continued=sum(bool(CONTINUED.match(c.text)) for c in cards),
        chars=len(sizes),
        readable=sum(s >= READABLE_PT - 0.01 for s in sizes) / max(1, len(sizes)),
        repeated=repeated / max(1, len(sizes)), smallest=min(sizes, default=0.0))
