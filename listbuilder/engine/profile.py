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
    """Weapons or attack lines: a header row and rows of cells."""

    title: str
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


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
