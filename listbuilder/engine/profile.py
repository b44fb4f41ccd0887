"""A unit's full profile as display data: what a card prints and the builder previews.

Systems fill it from their own unit models (`RuleSystem.profile`); templates only lay it out,
so no rule or sum ever lives in a template.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Stat:
    label: str  # "Move", "Quality"
    value: str  # '6"', "4+"


@dataclass(frozen=True)
class Table:
    """Weapons or attack lines: a header row and rows of cells.

    A screen shows it as a table; a printed card sets it in aligned columns of the widths
    `widths` gives (percentages of the card's width), so a player scans a column at arm's length.
    """

    title: str
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    # how a card's line introduces each cell ("" for a value that explains itself, like 12");
    # empty: the first cell alone, every other cell after its header
    labels: tuple[str, ...] = ()
    # each column's share of a card's width in percent (see `column_widths`)
    widths: tuple[int, ...] = ()

    def without_empty_columns(self) -> Table:
        """The table less the columns (but the first) no row fills: a heading over nothing
        takes a card's room for nothing (Features, where no weapon has one)."""
        keep = [j for j in range(len(self.headers))
                if j == 0 or any(row[j] for row in self.rows)]
        if len(keep) == len(self.headers):
            return self
        return Table(self.title, tuple(self.headers[j] for j in keep),
                     tuple(tuple(row[j] for j in keep) for row in self.rows),
                     tuple(self.labels[j] for j in keep) if self.labels else (),
                     tuple(self.widths[j] for j in keep) if self.widths else ())

    def column_widths(self) -> tuple[int, ...]:
        """`widths`, or the first column (a name) a third and the rest equal shares; always
        summing to 100."""
        if self.widths:
            return self.widths
        rest = len(self.headers) - 1
        if rest <= 0:
            return (100,)
        share = 66 // rest
        return (100 - share * rest, *(share,) * rest)

    def lines(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """Each row as (its first cell, the other cells with their labels), empty cells left
        out: ("Hand Cannon", ('12"', "Att 1", "Sk 3+", "AP -1"))."""
        labels = self.labels or ("", *self.headers[1:])
        out = []
        for row in self.rows:
            parts = [f"{label} {cell}".strip() for label, cell in zip(labels, row, strict=True)
                     if cell]
            first = parts.pop(0) if row and row[0] else ""
            out.append((first, tuple(parts)))
        return tuple(out)


@dataclass(frozen=True)
class RuleText:
    name: str
    text: str  # our own words, from the catalog


@dataclass(frozen=True)
class Profile:
    name: str
    subtitle: str  # faction, category, genre: whatever places the unit
    cost: str  # as a player reads it: "30 pts", "3 pts + 1 xp", "Force 4"
    stats: tuple[Stat, ...] = ()
    tables: tuple[Table, ...] = ()
    rules: tuple[RuleText, ...] = ()
    keywords: tuple[str, ...] = ()
    note: str = ""  # flavour or a short remark ("custom", example models)

    @property
    def keywords_shown(self) -> tuple[str, ...]:
        """The keywords a card or preview lists under the rules: those the subtitle does not
        name already (One Page 40k's "Vehicle", Space Empires' unit type). A line repeating
        the subtitle once took a mini card of its own."""
        named = {part.strip().casefold() for part in self.subtitle.split("·")}
        return tuple(k for k in self.keywords if k.casefold() not in named)
