"""A roster assessed whole, in one pass: `report(system, catalog, roster)`.

Each entry's unit is looked up once, at the top (`RuleSystem.priced`), and what was found is
handed down to every hook that needs it (checks, totals, the builder's joins, quick-resolve's
sides), so no part of the assessment asks the game for the same unit twice. The report holds
what everything else shows: each entry with its unit, cost, count bounds, fielded weapons and
problems; the totals, status and sections; and what the builder page shows besides (join
targets and refusals, choices, designs, the plain text, data changes, the quick-resolve
attackers). Frozen: two reports (a page before a change and after it) are compared to find what
changed. The unit browser's rows come from `unit_rows`, which reads the catalog and the roster
alone.

Pure (no Flask): templates only display what is here, and every figure comes from a hook.
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

from listbuilder.engine.model import Catalog, Roster, RosterEntry, Unit, UnitDesign, Upgrade
from listbuilder.engine.profile import Stat
from listbuilder.engine.resolve import attacker_picks
from listbuilder.engine.roster_file import data_changes
from listbuilder.engine.schema import MAX_COUNT
from listbuilder.engine.system import (
    Builder,
    Priced,
    RuleSystem,
    Section,
    Status,
    Totals,
    Violation,
    message_line,
)

_ENTRY = re.compile(r"^entries\[(\d+)\]")
_DESIGN = re.compile(r"^designs\[(\d+)\]")
NOT_IN_DATA = "not in the game's data"  # why an entry whose unit is unknown can't be joined


@dataclass(frozen=True)
class ChoiceReport:
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


@dataclass(frozen=True)
class EntryReport:
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


@dataclass(frozen=True)
class DesignReport:
    index: int
    design: UnitDesign
    cost: int
    violations: list[Violation] = field(default_factory=list)


@dataclass(frozen=True)
class RosterReport:
    """A roster assessed whole (`report`): what the roster page, the plain text, the command
    line and the share page show of it."""

    system: RuleSystem
    catalog: Catalog
    roster: Roster
    totals: Totals
    entries: list[EntryReport]
    designs: list[DesignReport]
    general: list[Violation]  # about the roster as a whole
    violations: list[Violation]
    choices: list[ChoiceReport]
    changes: list[str]
    order: list[EntryReport]  # as shown: Leaders after their Bodyguard
    status: Status
    # the entries whose unit is known, each with its unit and cost (`RuleSystem.priced`)
    priced: tuple[Priced, ...] = ()
    sections: tuple[Section, ...] = ()  # shown beside the totals (a starting draw)
    design_qualities: tuple[int, ...] = ()  # a designed unit's Quality choices (WarStuff)
    stacks: bool = False  # adding a unit listed already raises its entry's count
    # the quick-resolve panel's attacker picks, as (value, label, disabled); None: the game
    # has no quick-resolve, so no panel is offered
    attackers: tuple[tuple[str, str, bool], ...] | None = None
    text: str = ""  # the roster as plain text (for chats and forums)

    @property
    def errors(self) -> int:
        return sum(1 for v in self.violations if v.severity == "error")

    @property
    def warnings(self) -> int:
        return sum(1 for v in self.violations if v.severity == "warning")

    @property
    def legal(self) -> bool:
        return self.status.state == "legal"

    @property
    def points_left(self) -> int | None:
        """Points still to spend under the limit; None without one."""
        limit = self.totals.points_limit
        return limit - self.totals.points if limit else None


def _label(key: str) -> str:
    return key.replace("_", " ").capitalize()


def report(system: RuleSystem, catalog: Catalog, roster: Roster) -> RosterReport:
    """The roster assessed whole. Each entry's unit is looked up once and handed to every
    hook that reads it."""
    priced = system.priced(catalog, roster)
    known = {p.index: p for p in priced}
    found = system.validate(catalog, roster, priced)
    totals = system.totals(catalog, roster, priced)
    printed = system.printed_prices(catalog, priced)
    builder = system.builder()
    labels = {e.label: i for i, e in enumerate(roster.entries) if e.label}
    fields: list[dict[str, Any]] = []
    for i, entry in enumerate(roster.entries):
        p = known.get(i)
        unit = p.unit if p is not None else None
        fielded = system.fielded(catalog, unit, entry) if p is not None and entry.upgrades \
            else None
        lo, hi = p.bounds if p is not None else (1, None)
        cost = p.cost if p is not None else 0
        view: dict[str, Any] = {
            "index": i, "entry": entry, "unit": unit, "cost": cost, "lo": lo, "hi": hi,
            "upgrades": unit.upgrades if unit is not None else (),
            "violations": [], "cost_text": system.spent_text(cost),
            "carries": fielded.weapons_text if fielded is not None else "",
            "price_note": printed[i].text if i in printed else ""}
        if p is not None and builder.can_join(p.unit):
            joins_index = labels.get(entry.joins) if entry.joins else None
            targets, refused = [], []
            # the rules decide what is offered; why the others are not is shown beside it
            for j, other in enumerate(roster.entries):
                if j == i:
                    continue
                guard = known.get(j)
                why = builder.join_refusal(catalog, roster, p, guard) if guard is not None \
                    else NOT_IN_DATA
                if why is None or j == joins_index:
                    targets.append((j, _entry_name(other, j)))
                else:
                    refused.append((_entry_name(other, j), why))
            view.update(can_join=True, joins_index=joins_index, join_targets=targets,
                        join_refused=refused)
        fields.append(view)
    joined_by: dict[int, list[str]] = {}
    for view in fields:
        target = view.get("joins_index")
        if target is not None and target < len(fields):
            joined_by.setdefault(target, []).append(view["entry"].unit)
            view["joins_name"] = fields[target]["entry"].unit
    designs = _designs(system, catalog, roster)
    general = []
    for v in found:
        if (m := _ENTRY.match(v.where)) and int(m[1]) < len(fields):
            fields[int(m[1])]["violations"].append(v)
        elif (m := _DESIGN.match(v.where)) and int(m[1]) < len(designs):
            designs[int(m[1])].violations.append(v)
        else:
            general.append(v)
    entries = [EntryReport(**view, joined_by=joined_by.get(view["index"], []))
               for view in fields]
    status = system.status(catalog, roster, found)
    sections = system.sections(catalog, roster)
    choices = _choices(system, builder, catalog, roster)
    done = RosterReport(
        system=system, catalog=catalog, roster=roster, totals=totals, entries=entries,
        designs=designs, general=general, violations=found, choices=choices,
        changes=data_changes(roster, system, catalog, priced), order=shown_order(entries),
        status=status, priced=priced, sections=sections,
        design_qualities=builder.design_qualities(catalog) if system.allows_designs else (),
        stacks=builder.stacks_entries(),
        attackers=attacker_picks(system, catalog, roster, priced))
    return replace(done, text=_text(done))


def _choices(system: RuleSystem, builder: Builder, catalog: Catalog,
             roster: Roster) -> list[ChoiceReport]:
    if not system.choices:
        return []
    options = builder.choice_options(catalog, roster)
    seeds = builder.random_choices()
    return [ChoiceReport(key=key, label=_label(key), help=spec.help, required=spec.required,
                         is_number=spec.kind is int, value=roster.choices.get(key),
                         options=tuple(options.get(key, ())), random=key in seeds,
                         default=spec.default, low=spec.low, high=spec.high)
            for key, spec in system.choices.items()]


def _designs(system: RuleSystem, catalog: Catalog, roster: Roster) -> list[DesignReport]:
    """Each design with what one copy of it costs: the designs looked up together (each
    with a roster of its own where two share a name, which validation reports)."""
    if not roster.designs:
        return []
    names = [d.name.casefold() for d in roster.designs]
    if len(set(names)) == len(names):
        trial = tuple(RosterEntry(unit=d.name) for d in roster.designs)
        costs = {p.index: p.cost for p in system.priced(catalog, roster, trial)}
    else:
        costs = {i: design_preview(system, catalog, roster, d)[0]
                 for i, d in enumerate(roster.designs)}
    return [DesignReport(i, d, costs.get(i, 0)) for i, d in enumerate(roster.designs)]


def shown_order(entries: list[EntryReport]) -> list[EntryReport]:
    """The roster's entries in list order, except that an entry which joined another is shown
    right after the one it joined."""
    joined: dict[int, list[EntryReport]] = {}
    for view in entries:
        if view.joins_index is not None and view.joins_index != view.index \
                and view.joins_index < len(entries):
            joined.setdefault(view.joins_index, []).append(view)
    out: list[EntryReport] = []
    placed: set[int] = set()

    def place(view: EntryReport) -> None:
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


def _entry_name(entry: RosterEntry, index: int) -> str:
    # no size here: a size change would change every Leader's list of Bodyguards
    return f"{entry.unit} (line {index + 1})"


def design_preview(system: RuleSystem, catalog: Catalog, roster: Roster,
                   design: UnitDesign) -> tuple[int, tuple[Violation, ...]]:
    """What one copy of the design costs, and what is wrong with it, by the system's rules
    (violations, so a problem a reading decided links to it as the roster's do): the
    design's own, and what one copy of it in the roster would be told (WarStuff's advice on
    a unit's cost), so the creator says it as the cost changes, before saving."""
    trial = replace(roster, designs=(design,), entries=(RosterEntry(unit=design.name),))
    priced = system.priced(catalog, trial)
    cost = priced[0].cost if priced else 0
    problems = tuple(v for v in system.validate(catalog, trial, priced)
                     if v.where.startswith(("designs[0]", "entries[0]")))
    return cost, problems


# -- the roster as plain text -----------------------------------------------------------------

def _text(done: RosterReport) -> str:
    """The roster as lines of plain text for chats and forums, ending with a newline: units,
    options, costs, totals and whether it is legal, as the builder and `listbuilder validate`
    report them."""
    system, roster, totals = done.system, done.roster, done.totals
    lines = [f"{roster.name} ({system.name})"]
    header = []
    if roster.factions:
        header.append(", ".join(roster.factions))
    if system.uses_points and roster.points_limit:
        header.append(f"{roster.points_limit} {system.cost_unit} game")
    for key, value in roster.choices.items():
        header.append(f"{key.replace('_', ' ')}: {value}")
    if header:
        lines.append(" | ".join(header))

    if roster.designs:
        lines += ["", "Designed units:"]
        for design in roster.designs:
            rules = ", ".join(design.rules) or "no special rules"
            lines.append(f"- {design.name}: Quality {design.quality}; {rules}")

    lines.append("")
    labels = {e.label: e for e in roster.entries if e.label}
    for view in done.entries:
        lines += _entry_lines(system, view, labels)
    if not roster.entries:
        lines.append("(no units yet)")

    lines += ["", f"Total: {totals.headline}"]
    lines += [f"{label}: {value}" for label, value in totals.lines]
    lines += [f"Note: {note}" for note in totals.notes]
    for section in done.sections:
        lines += ["", f"{section.title}:"]
        lines += [f"{label}: {value}" for label, value in section.lines]

    errors = [v for v in done.violations if v.severity == "error"]
    warnings = [v for v in done.violations if v.severity == "warning"]
    lines += ["", done.status.text]
    lines += [f"- {message_line(v)}" for v in errors + warnings]
    return "\n".join(lines) + "\n"


def _entry_lines(system: RuleSystem, view: EntryReport,
                 labels: dict[str, RosterEntry]) -> list[str]:
    entry = view.entry
    cost = view.cost_text if view.unit is not None else "not in the catalog"
    name = f"{entry.unit} [{entry.faction}]" if entry.faction else entry.unit
    out = [f"- {name} ({system.count_label} {entry.count}): {cost}"]
    if entry.upgrades:
        out.append(f"  with {', '.join(entry.upgrades)}")
        if view.carries:  # what the upgrades leave them carrying
            out.append(f"  carrying {view.carries}")
    if entry.joins:
        target = labels.get(entry.joins)
        out.append(f"  joins {target.unit if target else entry.joins}")
    return out


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
    dom_id: str = ""  # the row's element id: "u-" and the key in letters, digits and dashes


KEY_STATS = 4


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


def _is_open(unit: Unit, chosen: set[str]) -> bool:
    return not chosen or unit.faction is None or unit.faction.casefold() in chosen


def open_units(catalog: Catalog, roster: Roster) -> list[Unit]:
    """The units the roster's factions may take (all of them when none is chosen)."""
    chosen = {f.casefold() for f in roster.factions}
    return [u for u in catalog.units if _is_open(u, chosen)]


def categories(catalog: Catalog, roster: Roster) -> list[str]:
    return sorted({u.category for u in open_units(catalog, roster) if u.category})


def unit_rows(system: RuleSystem, catalog: Catalog, roster: Roster, query: str = "",
              category: str = "", max_cost: int | None = None,
              points_left: int | None = None) -> list[UnitRow]:
    """The browser's rows: open units matching the search words (name, category, keywords,
    special rules, faction), the category and the cost ceiling; each says whether it fits in
    `points_left` (None: no limit)."""
    words = query.casefold().split()
    chosen = {f.casefold() for f in roster.factions}
    wanted = category.casefold()
    # entries by unit name, then by the faction each names (None: any unit of the name)
    listed: dict[str, Counter[str | None]] = {}
    for e in roster.entries:
        listed.setdefault(e.unit.casefold(), Counter())[e.faction] += 1
    rows = []
    for base in _row_bases(system, catalog):
        if chosen and base.faction is not None and base.faction not in chosen:
            continue
        if category and base.category != wanted:
            continue
        if words and any(w not in base.haystack for w in words):
            continue
        row = base.row
        if max_cost is not None and row.cost > max_cost:
            continue
        if points_left is not None and row.cost > points_left:
            row = base.over
        named = listed.get(base.folded)
        if named is not None:
            # an entry naming no faction counts for every unit of the name
            times = named[None] + (named[row.unit.faction] if row.unit.faction is not None
                                   else 0)
            row = replace(row, listed=times) if times else row
        rows.append(row)
    return rows


@dataclass(frozen=True)
class _RowBase:
    """A unit's row as the catalog alone makes it: a new entry's cost, the key figures and
    words; `unit_rows` adds how often the roster lists it and whether it fits."""

    folded: str  # the name, casefolded, as entries are matched
    faction: str | None  # casefolded, as the roster's factions are matched
    category: str  # casefolded, as the browser's category is matched
    haystack: str  # what the search words are looked for in
    row: UnitRow  # listed 0, fits
    over: UnitRow  # listed 0, over the points left


def _row_bases(system: RuleSystem, catalog: Catalog) -> list[_RowBase]:
    """Every unit's row before a roster is read: worked out once a catalog and system.

    Kept because it pays: a roster page lists every unit of its factions (some two hundred
    in WarStuff), and each row asks the game five things (a new entry's count, its cost, a
    printed price, the words for it, the profile's figures). A unit's new entry costs the
    same in every roster (`RuleSystem.entry_cost` reads the unit and the entry alone) and a
    catalog never changes once loaded, so the rows are kept with the catalog they were made
    from, for the few catalogs in use (a pack's are large)."""
    key = (id(system), id(catalog))
    with _ROWS_LOCK:
        held = _ROWS.get(key)
    if held is not None and held[0] is catalog:
        return held[1]
    builder = system.builder()
    priced = []
    for i, unit in enumerate(catalog.units):
        entry = RosterEntry(unit=unit.name, faction=unit.faction,
                            count=builder.default_count(unit))
        priced.append(Priced(i, entry, unit, system.entry_cost(catalog, unit, entry), (1, None)))
    printed = system.printed_prices(catalog, priced)
    bases = []
    for p in priced:
        unit, cost = p.unit, p.cost
        key_name = unit_key(catalog, unit)
        row = UnitRow(unit, cost, p.entry.count, 0, key_name, place=_place(unit),
                      stats=tuple(s for s in system.profile(catalog, unit).stats
                                  if s.value)[:KEY_STATS],
                      price_note=printed[p.index].text if p.index in printed else "",
                      price_text=system.price_text(cost),
                      dom_id="u-" + (re.sub(r"[^a-z0-9]+", "-", key_name.casefold()).strip("-")
                                     or "x"))
        words = (unit.name, unit.category, unit.faction or "", *unit.keywords,
                 *unit.special_rules)
        bases.append(_RowBase(
            unit.name.casefold(), unit.faction.casefold() if unit.faction is not None else None,
            unit.category.casefold(), " ".join(words).casefold(), row, replace(row, fits=False)))
    with _ROWS_LOCK:
        if len(_ROWS) >= ROWS_KEPT:
            _ROWS.pop(next(iter(_ROWS)))
        _ROWS[key] = (catalog, bases)
    return bases


ROWS_KEPT = 16  # catalogs whose rows are kept: the five games' and a few with packs
_ROWS: dict[tuple[int, int], tuple[Catalog, list[_RowBase]]] = {}
_ROWS_LOCK = threading.Lock()
