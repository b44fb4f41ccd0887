"""What the roster page shows, worked out by the engine and laid out here for the templates:
each entry with its cost and the violations that concern it, totals, the unit browser's rows.

Pure (no Flask), so templates only display and every figure comes from a system hook.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from listbuilder.engine.model import Catalog, Roster, RosterEntry, Unit, UnitDesign, Upgrade
from listbuilder.engine.profile import Profile, Stat
from listbuilder.engine.roster_file import data_changes
from listbuilder.engine.schema import MAX_COUNT
from listbuilder.engine.system import RuleSystem, Section, Status, Totals, Violation
from listbuilder.engine.text import roster_text

_ENTRY = re.compile(r"^entries\[(\d+)\]")
_DESIGN = re.compile(r"^designs\[(\d+)\]")


@dataclass(frozen=True)
class ChoiceView:
    key: str
    label: str
    help: str
    required: bool
    is_number: bool
    value: int | str | None
    options: tuple[tuple[str, str], ...]  # (value, text); () for a free value
    random: bool  # a seed the builder can re-draw
    default: int | str | None = None  # what counts while it is unset, shown in its box
    low: int | None = None  # a number's range (ChoiceSpec's), said under its box
    high: int | None = None


@dataclass
class EntryView:
    index: int
    entry: RosterEntry
    unit: Unit | None
    cost: int
    lo: int
    hi: int | None
    upgrades: tuple[Upgrade, ...]
    violations: list[Violation] = field(default_factory=list)
    can_join: bool = False
    joins_index: int | None = None
    join_targets: list[tuple[int, str]] = field(default_factory=list)
    join_refused: list[tuple[str, str]] = field(default_factory=list)  # (entry, why not)
    joined_by: list[str] = field(default_factory=list)
    joins_name: str | None = None  # the Bodyguard's unit, when this entry joined one
    price_note: str = ""  # its cost beside a different printed figure (WarStuff quickplay)
    cost_text: str = ""  # the cost in the system's words ("35 pts", "3 revenue spent")
    carries: str = ""  # with upgrades: each weapon and how many models carry it

    @property
    def has_error(self) -> bool:
        return any(v.severity == "error" for v in self.violations)

    def size_text(self, count_label: str) -> str:
        """The entry's size for its one-line summary: "10 models", "size 15"; nothing for a
        unit that is always one model."""
        if self.fixed_count and self.entry.count == 1:
            return ""
        count = self.entry.count
        if count_label == "size":
            return f"size {count}"
        if count == 1:  # "1 model in the pool", "1 copy": the label's first word is a plural
            first, _, rest = count_label.partition(" ")
            first = first[:-3] + "y" if first.endswith("ies") else first.removesuffix("s")
            count_label = f"{first} {rest}".strip()
        return f"{count} {count_label}"

    def count_rule(self, count_label: str) -> str:
        """What the entry's count box takes, in words: "Size: 10 to 30 models for Ork Boyz"
        (a unit with no largest size: up to the most a roster file holds)."""
        span = f"{self.lo} to {self.hi if self.hi is not None else MAX_COUNT}"
        if count_label == "size":  # a size counts models
            return f"Size: {span} models for {self.entry.unit}"
        return f"{count_label[:1].upper()}{count_label[1:]}: {span} for {self.entry.unit}"

    def count_refused(self, count_label: str) -> str:
        """Beside the count box when what was typed there is no count at all (0, -3, 2.5,
        empty, past MAX_COUNT), by the page's script or by the server: the same words."""
        kept = self.size_text(count_label) or f"{count_label} {self.entry.count}"
        return f"{self.count_rule(count_label)}. Not saved: the roster keeps {kept}."

    @property
    def fixed_count(self) -> bool:
        """The unit comes in one size only, so the builder shows no count box."""
        return self.hi is not None and self.lo == self.hi


@dataclass
class DesignView:
    index: int
    design: UnitDesign
    cost: int
    violations: list[Violation] = field(default_factory=list)


@dataclass
class RosterView:
    system: RuleSystem
    catalog: Catalog
    roster: Roster
    totals: Totals
    entries: list[EntryView]
    designs: list[DesignView]
    general: list[Violation]  # about the roster as a whole
    violations: list[Violation]
    choices: list[ChoiceView]
    changes: list[str]
    text: str
    order: list[EntryView] = field(default_factory=list)  # as shown: Leaders after their guard
    status: Status = field(default_factory=lambda: Status("legal", 0, 0))  # the engine's word
    sections: tuple[Section, ...] = ()  # shown beside the totals (a starting draw)
    design_qualities: tuple[int, ...] = ()  # a designed unit's Quality choices (WarStuff)

    @property
    def errors(self) -> int:
        return sum(1 for v in self.violations if v.severity == "error")

    @property
    def warnings(self) -> int:
        return sum(1 for v in self.violations if v.severity == "warning")

    @property
    def legal(self) -> bool:
        return self.status.state == "legal"


def _label(key: str) -> str:
    return key.replace("_", " ").capitalize()


def choice_views(system: RuleSystem, catalog: Catalog, roster: Roster) -> list[ChoiceView]:
    return [ChoiceView(key=key, label=_label(key), help=spec.help, required=spec.required,
                       is_number=spec.kind is int, value=roster.choices.get(key),
                       options=system.choice_options(catalog, roster, key),
                       random=key in system.random_choices(), default=spec.default,
                       low=spec.low, high=spec.high)
            for key, spec in system.choices.items()]


def roster_view(system: RuleSystem, catalog: Catalog, roster: Roster) -> RosterView:
    found = system.validate(catalog, roster)
    entries = []
    labels = {e.label: i for i, e in enumerate(roster.entries) if e.label}
    for i, entry in enumerate(roster.entries):
        unit = system.unit_of(catalog, roster, entry)
        lo, hi = system.count_bounds(unit) if unit is not None else (1, None)
        cost = system.entry_cost(catalog, roster, entry) if unit else 0
        fielded = system.fielded(catalog, unit, entry) if unit and entry.upgrades else None
        view = EntryView(index=i, entry=entry, unit=unit, cost=cost,
                         cost_text=system.spent_text(cost),
                         carries=fielded.weapons_text if fielded is not None else "",
                         lo=lo, hi=hi, upgrades=unit.upgrades if unit else (),
                         price_note=price_note(system, catalog, replace(roster, entries=(entry,))))
        if unit is not None and system.can_join(unit):
            view.can_join = True
            view.joins_index = labels.get(entry.joins) if entry.joins else None
            # the rules decide what is offered; why the others are not is shown beside it
            for j, other in enumerate(roster.entries):
                if j == i:
                    continue
                why = system.join_refusal(catalog, roster, i, j)
                if why is None or j == view.joins_index:
                    view.join_targets.append((j, _entry_name(system, other, j)))
                else:
                    view.join_refused.append((_entry_name(system, other, j), why))
        entries.append(view)
    for view in entries:
        if view.joins_index is not None and view.joins_index < len(entries):
            entries[view.joins_index].joined_by.append(view.entry.unit)
            view.joins_name = entries[view.joins_index].entry.unit
    designs = [DesignView(i, d, _design_cost(system, catalog, roster, d))
               for i, d in enumerate(roster.designs)]
    general = []
    for v in found:
        if (m := _ENTRY.match(v.where)) and int(m[1]) < len(entries):
            entries[int(m[1])].violations.append(v)
        elif (m := _DESIGN.match(v.where)) and int(m[1]) < len(designs):
            designs[int(m[1])].violations.append(v)
        else:
            general.append(v)
    return RosterView(system=system, catalog=catalog, roster=roster,
                      totals=system.totals(catalog, roster), entries=entries, designs=designs,
                      general=general, violations=found,
                      choices=choice_views(system, catalog, roster),
                      changes=data_changes(roster, system, catalog),
                      text=roster_text(system, catalog, roster), order=shown_order(entries),
                      status=system.status(catalog, roster, found),
                      sections=system.sections(catalog, roster),
                      design_qualities=system.design_qualities(catalog))


def price_note(system: RuleSystem, catalog: Catalog, roster: Roster) -> str:
    """The printed-price notes of a roster of one entry: that entry's, or ""."""
    return "; ".join(dict.fromkeys(p.text for p in system.printed_prices(catalog, roster)))


def shown_order(entries: list[EntryView]) -> list[EntryView]:
    """The roster's entries in list order, except that an entry which joined another is shown
    right after the one it joined."""
    joined: dict[int, list[EntryView]] = {}
    for view in entries:
        if view.joins_index is not None and view.joins_index != view.index \
                and view.joins_index < len(entries):
            joined.setdefault(view.joins_index, []).append(view)
    out: list[EntryView] = []
    placed: set[int] = set()

    def place(view: EntryView) -> None:
        if view.index in placed:
            return
        placed.add(view.index)
        out.append(view)
        for follower in joined.get(view.index, ()):
            place(follower)

    for view in entries:
        if view.joins_index is None or view.joins_index == view.index \
                or view.joins_index >= len(entries):
            place(view)
    for view in entries:  # a loop of joins: shown where it stands
        place(view)
    return out


def _entry_name(system: RuleSystem, entry: RosterEntry, index: int) -> str:
    # no size here: a size change would change every Leader's list of Bodyguards
    return f"{entry.unit} (line {index + 1})"


def _design_cost(system: RuleSystem, catalog: Catalog, roster: Roster, design: UnitDesign) -> int:
    return design_preview(system, catalog, roster, design)[0]


def design_preview(system: RuleSystem, catalog: Catalog, roster: Roster,
                   design: UnitDesign) -> tuple[int, tuple[Violation, ...]]:
    """What one copy of the design costs, and what is wrong with it, by the system's rules
    (violations, so a problem a reading decided links to it as the roster's do): the
    design's own, and what one copy of it in the roster would be told (WarStuff's advice on
    a unit's cost), so the creator says it as the cost changes, before saving."""
    trial = replace(roster, designs=(design,), entries=(RosterEntry(unit=design.name),))
    cost = system.entry_cost(catalog, trial, trial.entries[0])
    problems = tuple(v for v in system.validate(catalog, trial)
                     if v.where.startswith(("designs[0]", "entries[0]")))
    return cost, problems


# -- the unit browser -------------------------------------------------------------------------

@dataclass(frozen=True)
class UnitRow:
    unit: Unit
    cost: int  # of a new entry of this unit (default count)
    count: int  # the default count that cost is for
    listed: int  # entries of this unit already in the roster
    key: str  # identifies the unit in links: name, or "name|faction" when the name is shared
    stats: tuple[Stat, ...] = ()  # the profile's first few figures, for the list
    fits: bool = True  # within the points left under the limit (always, without a limit)
    place: str = ""  # category, faction, "custom": what places the unit
    price_note: str = ""  # its cost beside a different printed figure (WarStuff quickplay)
    price_text: str = ""  # the cost in the system's words ("35 pts", "3 revenue")

    @property
    def dom_id(self) -> str:
        return "u-" + (re.sub(r"[^a-z0-9]+", "-", self.key.casefold()).strip("-") or "x")


KEY_STATS = 4
_STATS: dict[int, tuple[Catalog, dict[tuple[str, str | None], tuple[Stat, ...]]]] = {}


def key_stats(system: RuleSystem, catalog: Catalog, unit: Unit) -> tuple[Stat, ...]:
    """The first figures of the unit's profile (the system's hook), kept per catalog: the
    list shows them on every change, and a catalog never changes once loaded."""
    held = _STATS.get(id(catalog))
    if held is None or held[0] is not catalog:
        if len(_STATS) > 32:
            _STATS.clear()
        held = _STATS[id(catalog)] = (catalog, {})
    key = (unit.name, unit.faction)
    if key not in held[1]:
        held[1][key] = tuple(s for s in system.profile(catalog, unit).stats
                             if s.value)[:KEY_STATS]
    return held[1][key]


def _place(unit: Unit) -> str:
    parts = [unit.category] if unit.category and unit.category.casefold() != "unit" else []
    if unit.faction and unit.faction != unit.category:
        parts.append(unit.faction)
    if unit.origin.custom:
        parts.append("custom")
    return " · ".join(parts)


def unit_key(catalog: Catalog, unit: Unit) -> str:
    if len(catalog.units_named(unit.name)) > 1 and unit.faction:
        return f"{unit.name}|{unit.faction}"
    return unit.name


def find_by_key(catalog: Catalog, key: str) -> Unit | None:
    name, _, faction = key.partition("|")
    if faction:
        return next((u for u in catalog.units_named(name)
                     if (u.faction or "").casefold() == faction.casefold()), None)
    found = catalog.units_named(name)
    return found[0] if len(found) == 1 else None


def open_units(catalog: Catalog, roster: Roster) -> list[Unit]:
    """The units the roster's factions may take (all of them when none is chosen)."""
    chosen = {f.casefold() for f in roster.factions}
    return [u for u in catalog.units
            if not chosen or u.faction is None or u.faction.casefold() in chosen]


def categories(catalog: Catalog, roster: Roster) -> list[str]:
    return sorted({u.category for u in open_units(catalog, roster) if u.category})


def unit_rows(system: RuleSystem, catalog: Catalog, roster: Roster, query: str = "",
              category: str = "", max_cost: int | None = None,
              points_left: int | None = None) -> list[UnitRow]:
    """The browser's rows: open units matching the search words (name, category, keywords,
    special rules, faction), the category and the cost ceiling; each says whether it fits in
    `points_left` (None: no limit)."""
    words = query.casefold().split()
    rows = []
    for base in _row_bases(system, catalog, roster):
        unit = base.unit
        if category and unit.category.casefold() != category.casefold():
            continue
        if any(w not in base.haystack for w in words):
            continue
        if max_cost is not None and base.cost > max_cost:
            continue
        listed = sum(1 for e in roster.entries if e.unit.casefold() == unit.name.casefold()
                     and (e.faction is None or e.faction == unit.faction))
        rows.append(UnitRow(unit, base.cost, base.count, listed, base.key, stats=base.stats,
                            fits=points_left is None or base.cost <= points_left,
                            place=base.place, price_note=base.price_note,
                            price_text=base.price_text))
    return rows


@dataclass(frozen=True)
class _RowBase:
    """What a unit's row shows that the roster's entries do not change."""

    unit: Unit
    haystack: str  # what the search words are looked for in
    cost: int
    count: int
    key: str
    stats: tuple[Stat, ...]
    place: str
    price_note: str
    price_text: str


ROW_BASES_KEPT = 32  # like _STATS: each holds its catalog (a pack's may be large)
_ROW_BASES: dict[tuple[int, int, str], tuple[Catalog, list[_RowBase]]] = {}


def _row_bases(system: RuleSystem, catalog: Catalog, roster: Roster) -> list[_RowBase]:
    """The open units' rows before the roster's entries count: every change to a roster
    lists every unit again, and a unit's cost is worked out on a roster of that unit alone,
    so it depends only on the roster's settings (limit, factions, choices), kept as the key.
    Per process, for at most ROW_BASES_KEPT settings; a catalog never changes once loaded."""
    settings = repr(replace(roster, name="", entries=(), designs=()))
    key = (id(system), id(catalog), settings)
    held = _ROW_BASES.get(key)
    if held is not None and held[0] is catalog:
        return held[1]
    bases = []
    for unit in open_units(catalog, roster):
        count = system.default_count(unit)
        entry = RosterEntry(unit=unit.name, faction=unit.faction, count=count)
        probe = replace(roster, name="", entries=(entry,), designs=())
        cost = system.entry_cost(catalog, probe, entry)
        bases.append(_RowBase(
            unit, " ".join((unit.name, unit.category, unit.faction or "", *unit.keywords,
                            *unit.special_rules)).casefold(),
            cost, count, unit_key(catalog, unit), key_stats(system, catalog, unit),
            _place(unit), price_note(system, catalog, probe), system.price_text(cost)))
    if len(_ROW_BASES) >= ROW_BASES_KEPT:
        _ROW_BASES.clear()
    _ROW_BASES[key] = (catalog, bases)
    return bases


def profile_of(system: RuleSystem, catalog: Catalog, unit: Unit) -> Profile:
    return system.profile(catalog, unit)
