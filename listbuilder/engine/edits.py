"""The changes a player makes in the builder, as pure functions from roster to roster.

They only reshape the roster (add, remove, set a count, name a design); whether the result is
legal is the engine's business (`RuleSystem.validate`). An `EditError` is raised only when the
change can't be made at all (the entry it names is gone), and its message says why.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType

from listbuilder.engine.model import Catalog, Roster, RosterEntry, Unit, UnitDesign
from listbuilder.engine.system import RuleSystem


class EditError(ValueError):
    """The change can't be made; the message is for the player."""


def set_settings(roster: Roster, name: str, points_limit: int | None,
                 factions: Sequence[str]) -> Roster:
    return replace(roster, name=name.strip(), points_limit=points_limit,
                   factions=tuple(dict.fromkeys(factions)))


def set_choices(roster: Roster, values: Mapping[str, int | str | None]) -> Roster:
    """Set or clear (None or '') each choice named in `values`; others are kept."""
    choices = dict(roster.choices)
    for key, value in values.items():
        if value is None or value == "":
            choices.pop(key, None)
        else:
            choices[key] = value
    return replace(roster, choices=MappingProxyType(choices))


def entry_at(roster: Roster, index: int, unit: str) -> RosterEntry:
    """The entry at `index`, checked to still be the one the page showed."""
    if not 0 <= index < len(roster.entries) or roster.entries[index].unit != unit:
        raise EditError(f"{unit} is no longer at that place in the list: "
                        f"the page was out of date and now shows the roster as saved.")
    return roster.entries[index]


def _entry_faction(catalog: Catalog, unit: Unit) -> str | None:
    # named only when two factions share the unit's name, as in a roster file
    return unit.faction if len(catalog.units_named(unit.name)) > 1 else None


def add_unit(system: RuleSystem, catalog: Catalog, roster: Roster, unit: Unit) -> Roster:
    """Add one entry of `unit`, or one more to its entry where the system stacks entries."""
    faction = _entry_faction(catalog, unit)
    builder = system.builder()
    if builder.stacks_entries():
        for i, entry in enumerate(roster.entries):
            if entry.unit.casefold() == unit.name.casefold() and entry.faction == faction:
                return _with_entry(roster, i, replace(entry, count=entry.count + 1))
    entry = RosterEntry(unit=unit.name, faction=faction, count=builder.default_count(unit))
    return replace(roster, entries=(*roster.entries, entry))


def add_design_entry(roster: Roster, design: UnitDesign, stacks: bool) -> Roster:
    if stacks:
        for i, entry in enumerate(roster.entries):
            if entry.unit.casefold() == design.name.casefold():
                return _with_entry(roster, i, replace(entry, count=entry.count + 1))
    return replace(roster, entries=(*roster.entries, RosterEntry(unit=design.name)))


def _with_entry(roster: Roster, index: int, entry: RosterEntry) -> Roster:
    entries = list(roster.entries)
    entries[index] = entry
    return replace(roster, entries=tuple(entries))


def update_entry(roster: Roster, index: int, unit: str, count: int,
                 upgrades: Sequence[str]) -> Roster:
    entry = entry_at(roster, index, unit)
    return _with_entry(roster, index, replace(entry, count=count,
                                              upgrades=tuple(dict.fromkeys(upgrades))))


def remove_entry(roster: Roster, index: int, unit: str) -> Roster:
    """Remove the entry; entries that joined it are left on their own."""
    gone = entry_at(roster, index, unit)
    entries = [e for i, e in enumerate(roster.entries) if i != index]
    if gone.label:
        entries = [replace(e, joins=None) if e.joins == gone.label else e for e in entries]
    return replace(roster, entries=tuple(entries))


def duplicate_entry(roster: Roster, index: int, unit: str, stacks: bool) -> Roster:
    """Insert a copy of the entry right after it: the same unit, faction, count and upgrades,
    but no `label` (labels are unique; entries that joined the original stay with it) and no
    `joins` (a Bodyguard takes one Leader: the copy stands on its own). Where the system
    stacks entries (`stacks`: an entry counts copies) there is nothing to copy: the count is
    raised instead."""
    entry = entry_at(roster, index, unit)
    if stacks:
        raise EditError(f"An entry of {unit} counts its copies: raise its count instead of "
                        f"duplicating it.")
    copy = replace(entry, label=None, joins=None, pts=None)
    entries = list(roster.entries)
    entries.insert(index + 1, copy)
    return replace(roster, entries=tuple(entries))


def move_entry(roster: Roster, index: int, unit: str, step: int) -> Roster:
    """Move the entry one place up (-1) or down (1); at either end it stays."""
    entry_at(roster, index, unit)
    target = index + step
    if not 0 <= target < len(roster.entries):
        return roster
    return move_entry_to(roster, index, unit, target)


def move_entry_to(roster: Roster, index: int, unit: str, to: int) -> Roster:
    """Move the entry to place `to` (counted from 0 in the list without it, so the entry ends
    at `to`), in one change. Labels and joins go with their entries, so a Leader stays with its
    Bodyguard wherever either goes."""
    entry = entry_at(roster, index, unit)
    if not 0 <= to < len(roster.entries):
        raise EditError(f"There is no line {to + 1} to move {unit} to: the roster has "
                        f"{len(roster.entries)} lines. Nothing was moved.")
    entries = [e for i, e in enumerate(roster.entries) if i != index]
    entries.insert(to, entry)
    return replace(roster, entries=tuple(entries))


def _slug(name: str) -> str:
    return re.sub(r"[^\w\-]+", "-", name.strip().lower()).strip("-")[:30] or "unit"


def _new_label(roster: Roster, name: str) -> str:
    taken = {e.label for e in roster.entries if e.label}
    base = _slug(name)
    label, n = base, 2
    while label in taken:
        label, n = f"{base}-{n}", n + 1
    return label


def join_entry(roster: Roster, index: int, unit: str, target: int | None,
               target_unit: str | None) -> Roster:
    """Make the entry join the entry at `target` (labelling it if needed), or leave on its own
    when `target` is None."""
    entry = entry_at(roster, index, unit)
    if target is None:
        return _with_entry(roster, index, replace(entry, joins=None))
    if target == index:
        raise EditError(f"{unit} can't join itself: pick another unit.")
    guard = entry_at(roster, target, target_unit or "")
    label = guard.label or _new_label(roster, guard.unit)
    out = _with_entry(roster, target, replace(guard, label=label))
    return _with_entry(out, index, replace(entry, joins=label))


def save_design(roster: Roster, design: UnitDesign, replacing: str | None) -> Roster:
    """Add the design, or replace the one called `replacing` (its entries follow the rename)."""
    designs = list(roster.designs)
    entries = roster.entries
    old = roster.design(replacing) if replacing else None
    clash = roster.design(design.name)
    if clash is not None and clash is not old:
        raise EditError(f"You already designed a unit called {design.name!r}: pick another name "
                        f"or edit that one.")
    if old is None:
        designs.append(design)
    else:
        designs[designs.index(old)] = design
        entries = tuple(replace(e, unit=design.name) if e.unit.casefold() == old.name.casefold()
                        else e for e in entries)
    return replace(roster, designs=tuple(designs), entries=entries)


def remove_design(roster: Roster, name: str) -> Roster:
    """Remove the design and the entries that field it."""
    design = roster.design(name)
    if design is None:
        raise EditError(f"There is no design called {name!r} any more.")
    return replace(
        roster, designs=tuple(d for d in roster.designs if d is not design),
        entries=tuple(e for e in roster.entries if e.unit.casefold() != name.casefold()))

