"""Quick-resolve: what one unit does to another, answered exactly.

Here the two sides are found (units from the catalog or a roster) and a system is asked: each
system's rules live in `listbuilder/systems/<id>/resolve.py`, a `Resolver` that
`RuleSystem.resolver` hands out. `quick_resolve` and `resolve_names` tie it together for the
command line and the web app; `listbuilder.engine.chart` draws a result. The pieces every
system shares (sides, situation options and their parsing, results, the `Resolver` base) are
in `listbuilder.engine.fight` and are named here too, where the command line, the web app and
the systems import them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TypeVar, cast

from listbuilder.engine.errors import closest
from listbuilder.engine.fight import (
    NO,
    YES,
    Chance,
    Member,
    Option,
    OptionKind,
    OptionValue,
    Outcome,
    ResolveError,
    Resolver,
    Result,
    Side,
    Situation,
    SituationError,
    applied,
    dice_text,
    kill_summary,
    parse_settings,
    parse_situation,
    percent,
)
from listbuilder.engine.model import BUILTIN, Catalog, Roster, RosterEntry, Unit
from listbuilder.engine.system import Priced, RuleSystem

__all__ = [
    "NO", "YES", "Chance", "Member", "Option", "OptionKind", "OptionValue", "Outcome",
    "ResolveError", "Resolver", "Result", "Side", "Situation", "SituationError", "applied",
    "attacker_picks", "dice_text", "fight_alike", "find_side", "kill_summary",
    "parse_settings", "parse_side_text", "parse_situation", "percent", "quick_resolve",
    "resolve_names", "roster_sides", "side_from_entry", "situation_options", "suggest",
]

# The resolve API's name for `errors.closest`: ' (did you mean X?)' for the nearest name, or ''
suggest = closest

C = TypeVar("C", bound=Catalog)
U = TypeVar("U", bound=Unit)

MAX_PART_COUNT = 1000


def _resolver(system: RuleSystem[C, U]) -> Resolver[C, U]:
    """The system's resolver; for a system without quick-resolve, the base one, whose neutral
    defaults still find sides in a roster or the catalog."""
    return system.resolver() or Resolver()


def _answering(system: RuleSystem[C, U]) -> Resolver[C, U]:
    """The system's resolver, which must answer: ResolveError when it has none."""
    resolver = system.resolver()
    if resolver is None:
        raise ResolveError(f"{system.name} has no quick-resolve")
    return resolver


# counts of at most six digits: a longer run of digits is part of a name, never a count to read
# DOTALL: a name typed or pasted with a line break in it is still one (unknown) name
_PART = re.compile(r"^\s*(?:(\d{1,6})\s*[x×*]\s+|(\d{1,6})\s+(?=\D))?(.+?)\s*$",
                   re.IGNORECASE | re.DOTALL)
_FACTION = re.compile(r"^(.*\S)\s*\(([^()]+)\)$")


def parse_side_text(text: str) -> list[tuple[int | None, str]]:
    """'2x Goffs Ork Boyz + Warboss' -> [(2, 'Goffs Ork Boyz'), (None, 'Warboss')]."""
    parts = []
    for raw in text.split("+"):
        if not raw.strip():
            raise ResolveError(f"{text!r} has an empty part: write names joined by ' + '")
        m = _PART.match(raw)
        assert m is not None  # the pattern matches any non-blank text
        number = m.group(1) or m.group(2)
        count = int(number) if number else None
        if count is not None and not 1 <= count <= MAX_PART_COUNT:
            raise ResolveError(f"{raw.strip()!r}: a count is 1 to {MAX_PART_COUNT}")
        parts.append((count, m.group(3)))
    return parts


def find_side(system: RuleSystem[C, U], catalog: C, text: str,
              roster: Roster | None = None) -> Side[U]:
    """The side `text` names: roster entries (by label or unit name) first, then the catalog.

    A roster entry brings its count and upgrades, and the entries that join it (a Leader with
    its Bodyguard). 'N x Name' sets the count; ' + ' joins units into one side.
    """
    members: list[Member[U]] = []
    for count, name in parse_side_text(text):
        found = _from_roster(system, catalog, roster, name) if roster is not None else None
        if found is not None:
            if count is not None:
                found[0] = Member(found[0].unit, count, found[0].upgrades)
            members.extend(found)
            continue
        unit = _from_catalog(system, catalog, roster, name)
        members.append(Member(unit, count if count is not None
                              else _resolver(system).default_models(unit)))
    return Side(tuple(members))


def fielded_entries(system: RuleSystem[C, U], catalog: C,
                    roster: Roster) -> tuple[RosterEntry, ...]:
    """What quick-resolve may pick from a roster: its entries, then what it fields besides
    them (`Resolver.extras`: Space Empires' starting draw)."""
    return (*roster.entries, *_resolver(system).extras(catalog, roster))


def side_from_entry(system: RuleSystem[C, U], catalog: C, roster: Roster, index: int) -> Side[U]:
    """The side entry `index` of `fielded_entries` fields: its unit, count and upgrades, with
    the entries that join it (for a view that lists a roster's entries)."""
    entry = fielded_entries(system, catalog, roster)[index]
    found = _from_roster(system, catalog, roster, entry.label or entry.unit, entry)
    assert found is not None
    return Side(tuple(found))


def roster_sides(system: RuleSystem[C, U], catalog: C, roster: Roster,
                 priced: Sequence[Priced[U]] | None = None,
                 resolver: Resolver[C, U] | None = None
                 ) -> list[tuple[RosterEntry, Side[U] | ResolveError]]:
    """Every side quick-resolve may pick from a roster (`fielded_entries`), in order, as
    `side_from_entry` finds each: the entry's unit, count and upgrades with the entries that
    join it, or the ResolveError that says why it can't be used. One pass, each unit looked
    up once: `priced` holds the roster's entries as `RuleSystem.priced` gave them, when the
    caller has them already; `resolver`, the system's (its `resolver()`), likewise."""
    resolver = resolver or _resolver(system)
    extras = resolver.extras(catalog, roster)
    entries = (*roster.entries, *extras)
    units: list[U | None]
    if priced is None:
        units = list(system.find_units(catalog, roster, entries))
    else:
        units = [None] * len(roster.entries)
        for p in priced:
            units[p.index] = p.unit
        units += system.find_units(catalog, roster, extras) if extras else ()
    joining: dict[str, list[int]] = {}
    for i, entry in enumerate(entries):
        if entry.joins:
            joining.setdefault(entry.joins, []).append(i)
    alone = resolver.copies_fight_alone

    def member(unit: U, entry: RosterEntry, count: int) -> Member[U]:
        return Member(unit, count, entry.upgrades, _models(system, catalog, unit, entry, alone))

    out: list[tuple[RosterEntry, Side[U] | ResolveError]] = []
    for entry, unit in zip(entries, units, strict=True):
        if unit is None:
            out.append((entry, ResolveError(
                f"the roster's {entry.unit!r} is not in the catalog: fix the roster")))
            continue
        members = [member(unit, entry, 1 if alone else entry.count)]
        for j in joining.get(entry.label, ()) if entry.label else ():
            joined = units[j]
            if joined is not None:
                members.append(member(joined, entries[j], entries[j].count))
        out.append((entry, Side(tuple(members))))
    return out


def attacker_picks(system: RuleSystem[C, U], catalog: C, roster: Roster,
                   priced: Sequence[Priced[U]] | None = None
                   ) -> tuple[tuple[str, str, bool], ...] | None:
    """What a roster offers quick-resolve as attackers, as (value, label, disabled): each
    side of `roster_sides`, valued 'index:unit'; one that can't be used says why, and what
    the roster fields besides its entries (a starting draw) says so. None: the system has no
    quick-resolve."""
    resolver = system.resolver()
    if resolver is None:
        return None
    picks = []
    for i, (entry, side) in enumerate(roster_sides(system, catalog, roster, priced, resolver)):
        value = f"{i}:{entry.unit}"
        if isinstance(side, ResolveError):
            picks.append((value, f"{entry.unit} (can't be used: {side})", True))
            continue
        besides = " (fielded besides the list)" if i >= len(roster.entries) else ""
        picks.append((value, side.label + besides, False))
    return tuple(picks)


def _from_roster(system: RuleSystem[C, U], catalog: C, roster: Roster,
                 name: str, match: RosterEntry | None = None) -> list[Member[U]] | None:
    folded = name.casefold()
    entries = fielded_entries(system, catalog, roster)
    if match is None:
        match = next((e for e in entries if e.label and e.label.casefold() == folded), None)
    if match is None:
        match = next((e for e in entries if e.unit.casefold() == folded), None)
    if match is None:
        return None
    (unit,) = system.find_units(catalog, roster, (match,))
    if unit is None:
        raise ResolveError(f"the roster's {match.unit!r} is not in the catalog: fix the roster")
    alone = _resolver(system).copies_fight_alone
    out = [Member(unit, 1 if alone else match.count, match.upgrades,
                  _models(system, catalog, unit, match, alone))]
    if match.label:
        joining = [e for e in entries if e.joins == match.label]
        for entry, joined in zip(joining, system.find_units(catalog, roster, joining),
                                 strict=True):
            if joined is not None:
                out.append(Member(joined, entry.count, entry.upgrades,
                                  _models(system, catalog, joined, entry, alone)))
    return out


def _models(system: RuleSystem[C, U], catalog: C, unit: U, entry: RosterEntry,
            alone: bool) -> int:
    """The models the entry fields when its upgrades add or take some; else 0 (its count, or
    where copies fight `alone`, one)."""
    if alone or not entry.upgrades:
        return 0
    fielded = system.fielded(catalog, unit, entry)
    return fielded.models if fielded is not None and fielded.models != entry.count else 0


def _profile(unit: Unit) -> Unit:
    """The unit as a fight sees it: where it is listed (its faction, where its file is, and a
    category that only repeats the faction, as WarStuff's genres do) left out."""
    category = "" if unit.category == unit.faction else unit.category
    return replace(unit, faction=None, category=category, origin=BUILTIN)


def fight_alike(units: Sequence[Unit]) -> bool:
    """Whether units that share a name (listed in several factions) fight the same, so the
    name alone picks one of them."""
    return len({_profile(u) for u in units}) == 1


def _from_catalog(system: RuleSystem[C, U], catalog: C, roster: Roster | None,
                  name: str) -> U:
    faction: str | None = None
    m = _FACTION.match(name)
    if m and not catalog.units_named(name):
        name, faction = m.group(1), m.group(2)
    if roster is not None:  # a design of the roster, or a unit of the roster's factions
        (unit,) = system.find_units(catalog, roster, (RosterEntry(unit=name, faction=faction),))
        if unit is not None:
            return unit
    # the catalog is the one `system` built, so its units are the system's own
    same = cast(tuple[U, ...], catalog.units_named(name))
    if faction is not None:
        same = tuple(u for u in same if (u.faction or "").casefold() == faction.casefold())
    if same and fight_alike(same):
        return same[0]  # several factions with one profile: whichever is taken fights the same
    if len(same) > 1:
        homes = sorted({u.faction or "?" for u in same})
        spelled = " or ".join(f"'{same[0].name} ({home})'" for home in homes)
        raise ResolveError(f"{name!r} is in {' and '.join(homes)} with different profiles: "
                           f"write {spelled}")
    pool = [u.name for u in catalog.units]
    if roster is not None:
        pool += [e.unit for e in roster.entries] + [e.label for e in roster.entries if e.label]
        pool += [d.name for d in roster.designs]
    where = "in the roster or the catalog" if roster is not None else f"in {system.name}"
    raise ResolveError(f"no unit {name!r} {where}{closest(name, pool)}")


# -- entry points for the command line and the web app ------------------------------------------

def situation_options(system: RuleSystem[C, U], catalog: C, attacker: Side[U],
                      defender: Side[U]) -> tuple[Option, ...]:
    """The options a form shows for this pair (each with key, label, kind, choices, default
    and help)."""
    return _resolver(system).options(catalog, attacker, defender)


def quick_resolve(system: RuleSystem[C, U], catalog: C, attacker: Side[U], defender: Side[U],
                  settings: Mapping[str, object] | None = None) -> Result:
    """Resolve with settings given as text or values; raises ResolveError (or its
    SituationError) with a message for the user when something can't be answered."""
    resolver = _answering(system)
    options = resolver.options(catalog, attacker, defender)
    situation = parse_situation(options, settings or {})
    result = resolver.resolve(catalog, attacker, defender, situation)
    return replace(result, situation=applied(options, situation),
                   attacker=_as_set(attacker, situation, "attacker_models", result.attacker),
                   defender=_as_set(defender, situation, "defender_models", result.defender))


def _as_set(side: Side[U], situation: Situation, key: str, label: str) -> str:
    """The side's name with the models the situation sets (`defender_models=10` is "10x Line
    Troopers" however many its roster entry has); `label` when the situation sets none."""
    models = situation.get(key)
    first = side.members[0]
    if not isinstance(models, int) or isinstance(models, bool) or \
            models == first.fielded_models or label != side.label:
        return label
    return Side((replace(first, count=models, models=0), *side.members[1:])).label


def resolve_names(system: RuleSystem[C, U], catalog: C, attacker: str, defender: str,
                  settings: Mapping[str, object] | None = None,
                  roster: Roster | None = None) -> Result:
    """One call from names: `resolve_names(system, catalog, "Assault Hero", "Support Hero",
    {"cover": "yes"}, roster=None)`. Names are looked up as `find_side` says."""
    return quick_resolve(system, catalog, find_side(system, catalog, attacker, roster),
                         find_side(system, catalog, defender, roster), settings)
