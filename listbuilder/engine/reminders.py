"""Rules reminders: beside a tap the tracker offers, the special rules that bear on it.

Which rule bears on which event is game knowledge, so each game writes it down as data in its
own reminders.py (`Reminders`, handed out by `RuleSystem.reminders()`): a `Bearing` says that
a rule, in the catalog's own name, bears on some event kinds, whose rule it must be for that
(the unit the event names, the enemy unit attacking it, the unit it attacks, a friend) and
what to remember, in a sentence of ours. This module only reads the rosters: a unit's rules
come from its roster entry looked up in its player's catalog (upgrades applied where a game
fields them), so it works from outside each game's rules of play and never reads a state.

A rule carried with a value ("Tough(3)") matches its plain name and keeps the value in the
reminder. A unit's rule that no bearing names is simply not reminded.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Protocol

from listbuilder.engine.match import Event, Match, Value, other
from listbuilder.engine.model import Roster, RosterEntry, Unit

# whose rule a bearing reads
SELF = "self"  # the unit the event names (the one that acts, or that the event befalls)
FOE = "foe"  # the enemy unit attacking it: the one the event names by `ATTACKER_VALUES`,
# or, while the event names none, every enemy unit that has the rule
TARGET = "target"  # the enemy unit the event names by its value `target`
FRIENDS = "friends"  # the other units of the event's side
WHOSE = (SELF, FOE, TARGET, FRIENDS)
# the values that name the unit an event's attacker is (its number in the other side's
# roster); an event that carries one narrows FOE to that unit
ATTACKER_VALUES = ("by", "attacker")

_VALUED = re.compile(r"^(?P<name>.+?)\s*\((?P<value>[^()]*)\)$")


@dataclass(frozen=True)
class Bearing:
    """A rule (the catalog's name for it) that bears on events of `kinds`, with what to
    remember, in our words; `when`: only on events whose values are among these (an attack
    rule on Walk, not on Recover); `whose`: whose rule it must be (`WHOSE`)."""

    rule: str
    text: str
    kinds: tuple[str, ...]
    whose: str = SELF
    when: Mapping[str, tuple[Value, ...]] = field(default_factory=dict)

    def bears_on(self, ev: Event) -> bool:
        if ev.kind not in self.kinds:
            return False
        return all(ev.get(name) in values for name, values in self.when.items())


@dataclass(frozen=True)
class Reminder:
    """One reminder beside a tap: the rule as the unit carries it ("Tough(3)"), what to
    remember, and whose it is when not the tapped unit's own ("Ghoul, Skink Warrior")."""

    rule: str
    text: str
    who: str = ""


class Reminders:
    """A game's reminders. A game subclasses it in its reminders.py, sets `bearings`, and
    overrides `rules` where its units carry their abilities otherwise than as special rules,
    or `names` where an event names a unit otherwise than by its number."""

    bearings: tuple[Bearing, ...] = ()
    # whether an event may name a unit of the player's catalog that is no roster entry (a
    # Space Empires chit dealt at setup): then every catalog unit is found by its name too
    by_catalog_name: bool = False

    def rules(self, sheet: Unit) -> tuple[str, ...]:
        """The rules a fielded unit carries, as the bearings name them."""
        return tuple(sheet.special_rules)

    def names(self, ev: Event) -> int | str | None:
        """The unit an event names on its side: its number in the roster by default."""
        return ev.unit

    def rule_names(self) -> frozenset[str]:
        return frozenset(b.rule for b in self.bearings)

    @cached_property
    def by_kind(self) -> Mapping[str, tuple[Bearing, ...]]:
        """The bearings on each event kind, in their order: a board asks for every tap."""
        found: dict[str, list[Bearing]] = {}
        for bearing in self.bearings:
            for kind in bearing.kinds:
                found.setdefault(kind, []).append(bearing)
        return {kind: tuple(found[kind]) for kind in found}


class Fielding(Protocol):
    """What reading the rosters asks of a game's `RuleSystem` (named so, not imported: the
    system module hands out its game's `Reminders`, so it imports this one)."""

    def priced(self, catalog: Any, roster: Roster,
               entries: Sequence[RosterEntry] | None = None) -> Sequence[Any]: ...

    def fielded(self, catalog: Any, unit: Any, entry: RosterEntry) -> Any: ...

    def reminders(self) -> Reminders | None: ...


@dataclass(frozen=True)
class RosterRules:
    """Every unit's rules in a match, looked up once: by side, then by entry number and by
    name (a chit is named, not numbered), with the name each is shown by."""

    by_side: tuple[Mapping[int | str, tuple[str, tuple[str, ...]]], ...]

    def of(self, side: int, unit: int | str | None) -> tuple[str, tuple[str, ...]] | None:
        if unit is None or not 1 <= side <= len(self.by_side):
            return None
        return self.by_side[side - 1].get(unit)

    def numbered(self, side: int) -> Iterable[tuple[int, str, tuple[str, ...]]]:
        if not 1 <= side <= len(self.by_side):
            return ()
        return ((key, name, rules) for key, (name, rules) in self.by_side[side - 1].items()
                if isinstance(key, int))


def roster_rules(system: Fielding, match: Match, game: Reminders) -> RosterRules:
    """Each player's units' rules, from their rosters and catalogs; an entry its catalog
    does not know has none."""
    sides = []
    for player in match.players:
        found: dict[int | str, tuple[str, tuple[str, ...]]] = {}
        for p in system.priced(player.catalog, player.roster):
            fielded = system.fielded(player.catalog, p.unit, p.entry)
            sheet = fielded.unit if fielded is not None else p.unit
            name = p.entry.label or p.unit.name
            shown = (name, game.rules(sheet))
            found[p.index + 1] = shown
            found.setdefault(p.unit.name, shown)
            found.setdefault(name, shown)
        if game.by_catalog_name:
            for unit in player.catalog.units:
                found.setdefault(unit.name, (unit.name, game.rules(unit)))
        sides.append(found)
    return RosterRules(tuple(sides))


def matching(carried: Sequence[str], rule: str) -> str | None:
    """The rule as a unit carries it ("Tough(3)", "tough") when it is `rule`, or None."""
    for said in carried:
        plain = _VALUED.match(said)
        if said.casefold() == rule.casefold() or (
                plain and plain.group("name").casefold() == rule.casefold()):
            return said
    return None


def reminders(game: Reminders, rules: RosterRules, events: Iterable[Event],
              attacker: tuple[int, int] | None = None) -> tuple[Reminder, ...]:
    """The reminders for a tap standing for `events` (a button with a box or a list stands
    for several): each bearing rule once, in the game's order. `attacker` (side, unit): the
    enemy unit known to attack, as an event's `by` would name it (quick-resolve's pair)."""
    out: list[Reminder] = []
    seen: set[tuple[str, str]] = set()
    for ev in events:
        if ev.side is None:
            continue
        for bearing in game.by_kind.get(ev.kind, ()):
            if not bearing.bears_on(ev):
                continue
            for said, who in _holders(game, rules, bearing, ev, attacker):
                if (said.casefold(), who) not in seen:
                    seen.add((said.casefold(), who))
                    out.append(Reminder(said, bearing.text, who))
    return tuple(out)


def _holders(game: Reminders, rules: RosterRules, bearing: Bearing, ev: Event,
             attacker: tuple[int, int] | None = None) -> list[tuple[str, str]]:
    """Who holds `bearing`'s rule, for `ev`: (the rule as carried, whose name to show)."""
    side = ev.side or 1
    if bearing.whose == SELF:
        own = rules.of(side, game.names(ev))
        said = matching(own[1], bearing.rule) if own else None
        return [(said, "")] if said else []
    if bearing.whose == TARGET:
        target = ev.get("target")
        found = rules.of(other(side), target) if isinstance(target, int) else None
        said = matching(found[1], bearing.rule) if found else None
        return [(said, found[0])] if said and found else []
    if bearing.whose == FOE:
        named = next((ev.get(v) for v in ATTACKER_VALUES if isinstance(ev.get(v), int)), None)
        if named is None and attacker is not None and attacker[0] == other(side):
            named = attacker[1]
        if named is not None:
            found = rules.of(other(side), named)
            said = matching(found[1], bearing.rule) if found else None
            return [(said, found[0])] if said and found else []
        return _among(rules.numbered(other(side)), bearing.rule, skip=None)
    assert bearing.whose == FRIENDS, bearing.whose
    mine = game.names(ev)
    return _among(rules.numbered(side), bearing.rule, skip=mine)


def _among(units: Iterable[tuple[int, str, tuple[str, ...]]], rule: str,
           skip: int | str | None) -> list[tuple[str, str]]:
    """The rule once, naming every one of `units` that carries it (but `skip`)."""
    names, said = [], None
    for number, name, carried in units:
        here = matching(carried, rule) if number != skip else None
        if here:
            said = said or here
            if name not in names:
                names.append(name)
    return [(said, ", ".join(names))] if said else []


@dataclass(frozen=True)
class Reminding:
    """A game's reminders with a match's rosters read: what the tracker asks, tap by tap."""

    game: Reminders
    rules: RosterRules
    attacker: tuple[int, int] | None = None  # the enemy unit known to attack (`reminders`)

    def of(self, events: Iterable[Event]) -> tuple[Reminder, ...]:
        return reminders(self.game, self.rules, events, self.attacker)

    def facing(self, attacker: tuple[int, int]) -> Reminding:
        """These reminders with the attacker known: its rules alone, not every enemy's."""
        return replace(self, attacker=attacker)


def reminding(system: Fielding, match: Match) -> Reminding | None:
    """The match's reminders, or None when its game has none: the rosters are read here once,
    for every tap of a board."""
    game = system.reminders()
    if game is None or not game.bearings:
        return None
    return Reminding(game, roster_rules(system, match, game))
