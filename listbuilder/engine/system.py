"""The RuleSystem base: an id, a name and hooks with neutral defaults.

Each system is one subclass (in `listbuilder.systems`) overriding a few hooks, as python-chess
variants do, so the core never names a system. Validation returns every problem at once as
`Violation`s; exceptions are kept for malformed input.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Literal

from pydantic import BaseModel

from listbuilder.engine.model import Catalog, Origin, Roster, RosterEntry, Unit
from listbuilder.engine.profile import Profile, RuleText

Severity = Literal["error", "warning"]


@dataclass(frozen=True)
class Violation:
    rule: str  # stable id, e.g. "actionhammer.leaders-per-1000"
    severity: Severity
    where: str  # "roster" or "entries[2] Assault Hero"
    message: str  # what was counted and how to fix it

    def __str__(self) -> str:
        return f"{self.rule}: {self.message}"


@dataclass(frozen=True)
class Totals:
    points: int
    points_limit: int | None
    lines: tuple[tuple[str, str], ...] = ()  # system-specific summary, e.g. ("Heroes", "2/2")


@dataclass(frozen=True)
class SourceFile:
    """One data file after its schema check, handed to `RuleSystem.build_catalog`."""

    origin: Origin
    data: BaseModel


@dataclass(frozen=True)
class ChoiceSpec:
    """A roster-level choice a system asks for (Hammer Wars' goal, Space Empires' seed)."""

    kind: type[int] | type[str]
    help: str
    required: bool = False


def where_entry(index: int, entry: RosterEntry) -> str:
    return f"entries[{index}] {entry.unit}"


def plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


class RuleSystem:
    """Base class of the five systems. Subclasses set the class attributes and the hooks."""

    id: ClassVar[str]
    name: ClassVar[str]
    blurb: ClassVar[str]  # one line for the home page and `listbuilder systems`
    data_schema: ClassVar[type[BaseModel]]  # the schema every YAML file of the system obeys
    default_points_limit: ClassVar[int | None] = None  # None: the system has no points limit
    min_factions: ClassVar[int] = 1
    max_factions: ClassVar[int | None] = 1  # None: any number
    allows_designs: ClassVar[bool] = False  # players may design units inside the roster
    choices: ClassVar[dict[str, ChoiceSpec]] = {}
    count_label: ClassVar[str] = "count"  # what RosterEntry.count means here, for messages
    cost_unit: ClassVar[str] = "pts"  # what entry costs are paid in

    # -- catalog -------------------------------------------------------------------------
    def build_catalog(self, files: Sequence[SourceFile], revision: str) -> Catalog:
        raise NotImplementedError

    # -- costs ---------------------------------------------------------------------------
    def entry_cost(self, catalog: Catalog, roster: Roster, entry: RosterEntry) -> int:
        raise NotImplementedError

    def roster_points(self, catalog: Catalog, roster: Roster) -> int:
        return sum(
            self.entry_cost(catalog, roster, e)
            for e in roster.entries
            if self.unit_of(catalog, roster, e) is not None
        )

    # -- lookups -------------------------------------------------------------------------
    def unit_of(self, catalog: Catalog, roster: Roster, entry: RosterEntry) -> Unit | None:
        factions = (entry.faction,) if entry.faction else roster.factions
        return catalog.find_unit(entry.unit, factions)

    def count_bounds(self, unit: Unit) -> tuple[int, int | None]:
        """Smallest and largest `count` an entry of this unit may have."""
        return (1, None)

    # -- validation ----------------------------------------------------------------------
    def uses_points(self) -> bool:
        return self.default_points_limit is not None

    def validate(self, catalog: Catalog, roster: Roster) -> list[Violation]:
        problems = self._check_shape(catalog, roster)
        problems += self.check(catalog, roster)
        return problems

    def check(self, catalog: Catalog, roster: Roster) -> list[Violation]:
        """The system's own limits. Called after the shared checks; unresolved entries exist."""
        return []

    def totals(self, catalog: Catalog, roster: Roster) -> Totals:
        limit = roster.points_limit if self.uses_points() else None
        return Totals(self.roster_points(catalog, roster), limit, self.summary(catalog, roster))

    def summary(self, catalog: Catalog, roster: Roster) -> tuple[tuple[str, str], ...]:
        return ()

    def _check_shape(self, catalog: Catalog, roster: Roster) -> list[Violation]:
        out: list[Violation] = []
        n = len(roster.factions)
        if n < self.min_factions:
            out.append(Violation("roster.faction-missing", "error", "roster",
                                 f"No faction chosen; {self.name} needs one: choose a faction."))
        if self.max_factions is not None and n > self.max_factions:
            out.append(Violation(
                "roster.too-many-factions", "error", "roster",
                f"{plural(n, 'faction')} chosen; {self.name} allows {self.max_factions}: "
                f"remove {n - self.max_factions}."))
        for f in roster.factions:
            if catalog.faction(f) is None:
                out.append(Violation("roster.unknown-faction", "error", "roster",
                                     f"Faction {f!r} is not in the {self.name} catalog."))
        for i, entry in enumerate(roster.entries):
            unit = self.unit_of(catalog, roster, entry)
            if unit is None:
                out.append(Violation("roster.unknown-unit", "error", where_entry(i, entry),
                                     f"{entry.unit!r} is not a unit of the chosen faction."))
                continue
            out += self._check_faction(roster, i, entry, unit)
            lo, hi = self.count_bounds(unit)
            if entry.count < lo or (hi is not None and entry.count > hi):
                span = f"{lo} to {hi}" if hi is not None else f"at least {lo}"
                fix = lo if entry.count < lo else hi
                out.append(Violation(
                    "roster.count-bounds", "error", where_entry(i, entry),
                    f"{entry.unit} has {self.count_label} {entry.count}; it must be {span}: "
                    f"set it to {fix}."))
            for name in entry.upgrades:
                if unit.upgrade(name) is None:
                    out.append(Violation("roster.unknown-upgrade", "error", where_entry(i, entry),
                                         f"{entry.unit} has no upgrade {name!r}: remove it."))
            if len(set(entry.upgrades)) != len(entry.upgrades):
                out.append(Violation("roster.repeated-upgrade", "error", where_entry(i, entry),
                                     f"{entry.unit} lists an upgrade twice: keep one."))
        if self.uses_points():
            out += self._check_points(catalog, roster)
        return out

    def _check_faction(self, roster: Roster, i: int, entry: RosterEntry,
                       unit: Unit) -> list[Violation]:
        chosen = {f.casefold() for f in roster.factions}
        if not chosen or unit.faction is None or unit.faction.casefold() in chosen:
            return []
        army = ", ".join(roster.factions)
        fix = f"remove it or pick a unit of {army}"
        if self.max_factions is None or self.max_factions > len(chosen):
            fix += f", or add {unit.faction} to the roster's factions"
        return [Violation("roster.wrong-faction", "error", where_entry(i, entry),
                          f"{unit.name} belongs to {unit.faction}, not {army}: {fix}.")]

    def _check_points(self, catalog: Catalog, roster: Roster) -> list[Violation]:
        limit = roster.points_limit
        if not limit or limit <= 0:
            return [Violation("roster.no-points-limit", "error", "roster",
                              f"The roster has no points limit: set one "
                              f"({self.default_points_limit} is usual for {self.name}).")]
        spent = self.roster_points(catalog, roster)
        if spent > limit:
            return [Violation("roster.points-limit", "error", "roster",
                              f"{spent} pts spent; the limit is {limit}: "
                              f"remove {spent - limit} pts.")]
        return []

    # -- display ---------------------------------------------------------------------------
    def profile(self, catalog: Catalog, unit: Unit) -> Profile:
        """The unit's full profile for cards and previews. Systems override with their stats."""
        rules = tuple(RuleText(r.name, r.text) for name in unit.special_rules
                      if (r := catalog.rule(name)) is not None)
        return Profile(name=unit.name, subtitle=unit.faction or unit.category, cost="",
                       rules=rules, keywords=unit.keywords)

    # -- printing hooks (listbuilder.printing) -----------------------------------------------

    # -- quick-resolve hooks (listbuilder.engine.dice and each system's resolve module) -----
