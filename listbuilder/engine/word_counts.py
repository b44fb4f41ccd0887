"""A word value that lists several picks at once, each word as often as it was picked
("Recon, Recon, Barrage"): one event for what a player does several of in one go, such as
drawing a hand of cards, where one event a pick cost a tap each.

An event's values are whole numbers, words or yes/no (`engine/match.Value`), so the list is one
word value with its picks joined by `SEPARATOR`; the words themselves never hold it (a game
checks that where its words are defined). A game says which of its kinds take such a list in
the kind's `Kind.counts` (a `WordCounts`): the tracker then draws a number box a word and one
button, instead of a list to pick from.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

SEPARATOR = ", "


@dataclass(frozen=True)
class WordCounts:
    """A kind's value that lists picks (`value`), and its button's words: `none` before
    anything is picked (and on a page without scripts, where the count can't follow the
    boxes), `one` and `many` with the count in `{}` ("Draw {} cards")."""

    value: str
    none: str
    one: str
    many: str

    def button(self, picked: int) -> str:
        if picked <= 0:
            return self.none
        return (self.one if picked == 1 else self.many).format(picked)


def split_words(text: str) -> list[str]:
    """The picks a list names, in its order, each word stripped; empty ones dropped."""
    return [word.strip() for word in text.split(SEPARATOR.strip()) if word.strip()]


def joined(picks: Iterable[tuple[str, int]]) -> str:
    """The list for `picks` (word, how many): each word as often as picked, in order."""
    return SEPARATOR.join(word for word, n in picks for _ in range(max(0, n)))


def counts(text: str) -> Counter[str]:
    """How many times each word of a list is picked."""
    return Counter(split_words(text))


def counted_value(play: Any, kind: str) -> WordCounts | None:
    """The list value of `kind` in `play`'s game, if its kind takes one."""
    found = play.kinds.get(kind)
    counted: WordCounts | None = getattr(found, "counts", None)
    return counted
