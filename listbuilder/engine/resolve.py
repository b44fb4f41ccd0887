"""Quick-resolve: what one unit does to another, answered exactly.

The pieces every system shares live here: the two sides (units from the catalog or a roster),
the situation options a system offers (cover, stance, facing...) with their parsing, and the
result a resolver returns. Each system's rules live in `listbuilder/systems/<id>/resolve.py`,
reached through the `RuleSystem` quick-resolve hooks. `quick_resolve` and `resolve_names` tie
it together for the command line and the web app; `listbuilder.engine.chart` draws a result.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from listbuilder.engine.dice import Dist, Prob
from listbuilder.engine.model import BUILTIN, Catalog, Roster, RosterEntry, Unit

if TYPE_CHECKING:
    from listbuilder.engine.system import RuleSystem

OptionValue = bool | int | str
Situation = Mapping[str, OptionValue]
OptionKind = Literal["bool", "int", "choice"]

YES = ("yes", "y", "true", "on", "1")
NO = ("no", "n", "false", "off", "0", "")
MAX_PART_COUNT = 1000


class ResolveError(ValueError):
    """A resolve can't be answered as asked; the message says why and what to change."""


C = TypeVar("C", bound=Catalog)


def catalog_of(catalog: Catalog, kind: type[C]) -> C:
    """The catalog as its system's own class, or a ResolveError if another system's."""
    if not isinstance(catalog, kind):
        raise ResolveError(f"a {kind.__name__} is needed, not a {type(catalog).__name__}")
    return catalog


class SituationError(ResolveError):
    """One or more situation settings are unknown or out of range; `problems` lists each."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(self.problems))


def suggest(name: str, options: Iterable[str]) -> str:
    """' (did you mean X?)' for the closest option, or '' when nothing is near."""
    by_fold = {o.casefold(): o for o in options}
    match = difflib.get_close_matches(name.casefold(), list(by_fold), n=1, cutoff=0.6)
    return f" (did you mean {by_fold[match[0]]!r}?)" if match else ""


# -- the sides ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Member:
    """One unit of a side: `count` is its models (or, for chits, copies in the stack)."""

    unit: Unit
    count: int
    upgrades: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        return self.unit.name if self.count == 1 else f"{self.count}x {self.unit.name}"


@dataclass(frozen=True)
class Side:
    """An attacker or a defender: one unit, or a stack (a Leader with its Bodyguard, a Space
    Empires stack). The first member is the unit that takes hits first."""

    members: tuple[Member, ...]

    @staticmethod
    def of(unit: Unit, count: int = 1, upgrades: Sequence[str] = ()) -> Side:
        return Side((Member(unit, count, tuple(upgrades)),))

    @property
    def unit(self) -> Unit:
        return self.members[0].unit

    @property
    def count(self) -> int:
        return self.members[0].count

    @property
    def label(self) -> str:
        return " + ".join(m.label for m in self.members)


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


def find_side(system: RuleSystem, catalog: Catalog, text: str,
              roster: Roster | None = None) -> Side:
    """The side `text` names: roster entries (by label or unit name) first, then the catalog.

    A roster entry brings its count and upgrades, and the entries that join it (a Leader with
    its Bodyguard). 'N x Name' sets the count; ' + ' joins units into one side.
    """
    members: list[Member] = []
    for count, name in parse_side_text(text):
        found = _from_roster(system, catalog, roster, name) if roster is not None else None
        if found is not None:
            if count is not None:
                found[0] = Member(found[0].unit, count, found[0].upgrades)
            members.extend(found)
            continue
        unit = _from_catalog(system, catalog, roster, name)
        members.append(Member(unit, count if count is not None else system.resolve_models(unit)))
    return Side(tuple(members))


def side_from_entry(system: RuleSystem, catalog: Catalog, roster: Roster, index: int) -> Side:
    """The side a roster entry fields: its unit, count and upgrades, with the entries that join
    it (for a view that lists a roster's entries)."""
    entry = roster.entries[index]
    found = _from_roster(system, catalog, roster, entry.label or entry.unit, entry)
    assert found is not None
    return Side(tuple(found))


def _from_roster(system: RuleSystem, catalog: Catalog, roster: Roster,
                 name: str, match: RosterEntry | None = None) -> list[Member] | None:
    folded = name.casefold()
    entries = roster.entries
    if match is None:
        match = next((e for e in entries if e.label and e.label.casefold() == folded), None)
    if match is None:
        match = next((e for e in entries if e.unit.casefold() == folded), None)
    if match is None:
        return None
    unit = system.unit_of(catalog, roster, match)
    if unit is None:
        raise ResolveError(f"the roster's {match.unit!r} is not in the catalog: fix the roster")
    out = [Member(unit, match.count, match.upgrades)]
    if match.label:
        for entry in entries:
            joined = system.unit_of(catalog, roster, entry)
            if entry.joins == match.label and joined is not None:
                out.append(Member(joined, entry.count, entry.upgrades))
    return out


def _profile(unit: Unit) -> Unit:
    """The unit as a fight sees it: where it is listed (its faction, where its file is, and a
    category that only repeats the faction, as WarStuff's genres do) left out."""
    category = "" if unit.category == unit.faction else unit.category
    return replace(unit, faction=None, category=category, origin=BUILTIN)


def fight_alike(units: Sequence[Unit]) -> bool:
    """Whether units that share a name (listed in several factions) fight the same, so the
    name alone picks one of them."""
    return len({_profile(u) for u in units}) == 1


def _from_catalog(system: RuleSystem, catalog: Catalog, roster: Roster | None,
                  name: str) -> Unit:
    faction: str | None = None
    m = _FACTION.match(name)
    if m and not catalog.units_named(name):
        name, faction = m.group(1), m.group(2)
    if roster is not None:  # a design of the roster, or a unit of the roster's factions
        unit = system.unit_of(catalog, roster, RosterEntry(unit=name, faction=faction))
        if unit is not None:
            return unit
    same = catalog.units_named(name)
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
    raise ResolveError(f"no unit {name!r} {where}{suggest(name, pool)}")


# -- situation options --------------------------------------------------------------------------

@dataclass(frozen=True)
class Option:
    """One situation setting, as data a form or the command line can offer.

    `choices` lists every allowed value as text (bool: yes/no; int: each number), so a view
    can render any option as a select or a checkbox without knowing the system.
    """

    key: str
    label: str
    kind: OptionKind
    default: OptionValue
    help: str
    choices: tuple[str, ...] = ()

    @staticmethod
    def flag(key: str, label: str, help: str, default: bool = False) -> Option:
        return Option(key, label, "bool", default, help, ("yes", "no"))

    @staticmethod
    def number(key: str, label: str, lo: int, hi: int, default: int, help: str) -> Option:
        hi = max(lo, hi)
        default = min(max(default, lo), hi)
        return Option(key, label, "int", default, help, tuple(str(i) for i in range(lo, hi + 1)))

    @staticmethod
    def pick(key: str, label: str, choices: Sequence[str], default: str, help: str) -> Option:
        if default not in choices:
            raise ValueError(f"default {default!r} is not among {list(choices)}")
        return Option(key, label, "choice", default, help, tuple(choices))

    def allowed(self) -> str:
        if self.kind == "bool":
            return "yes or no"
        if self.kind == "int":
            return (f"{self.choices[0]} to {self.choices[-1]}" if len(self.choices) > 1
                    else self.choices[0])
        return ", ".join(self.choices)

    def parse(self, raw: object) -> OptionValue:
        """The value for `raw` (text from a form or --set, or a value already typed)."""
        if self.kind == "bool":
            if isinstance(raw, bool):
                return raw
            text = str(raw).strip().casefold()
            if text in YES:
                return True
            if text in NO:
                return False
        elif self.kind == "int":
            if isinstance(raw, int) and not isinstance(raw, bool):
                number: int | None = raw
            else:
                text = str(raw).strip()
                number = int(text) if re.fullmatch(r"-?\d{1,9}", text) else None
            if number is not None and str(number) in self.choices:
                return number
        else:
            text = str(raw).strip().casefold()
            for choice in self.choices:
                if choice.casefold() == text:
                    return choice
            hint = suggest(str(raw), self.choices)
            raise ResolveError(f"{self.key}: {str(raw)!r} is not allowed{hint}; "
                               f"use {self.allowed()}")
        raise ResolveError(f"{self.key}: {str(raw)!r} is not allowed; use {self.allowed()}")

    def text(self, value: OptionValue) -> str:
        if self.kind == "bool":
            return "yes" if value else "no"
        return str(value)

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "label": self.label, "kind": self.kind,
                "default": self.default, "help": self.help, "choices": list(self.choices)}


def parse_situation(options: Sequence[Option], raw: Mapping[str, object]) -> dict[str, OptionValue]:
    """Every option's value: the raw settings where given, else the default. Unknown keys and
    bad values are all reported at once, each naming the keys or values allowed."""
    by_key = {o.key: o for o in options}
    problems: list[str] = []
    out: dict[str, OptionValue] = {o.key: o.default for o in options}
    for key, value in raw.items():
        option = by_key.get(key.strip())
        if option is None:
            known = ", ".join(by_key) or "none"
            problems.append(f"unknown setting {key!r}{suggest(key, by_key)}; "
                            f"settings here: {known}")
            continue
        try:
            out[option.key] = option.parse(value)
        except ResolveError as exc:
            problems.append(str(exc))
    if problems:
        raise SituationError(problems)
    return out


def parse_settings(pairs: Iterable[str]) -> dict[str, str]:
    """'key=value' strings (the command line's --set) as a mapping."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise SituationError([f"{pair!r}: write a setting as key=value"])
        out[key.strip()] = value.strip()
    return out


# -- results ------------------------------------------------------------------------------------

def percent(p: Prob) -> str:
    """A chance as a player reads it: '61%', '<1%' and '>99%' near the ends, exact 0 and 100."""
    if p <= 0:
        return "0%"
    if p >= 1:
        return "100%"
    value = float(p) * 100
    if value < 1:
        return "<1%"
    if value > 99:
        return ">99%"
    return f"{round(value)}%"


def dice_text(n: int) -> str:
    """'1 die', '3 dice'."""
    return f"{n} {'die' if n == 1 else 'dice'}"


def _number(p: Prob) -> float:
    return float(p)


def _exact(p: Prob) -> str | None:
    return f"{p.numerator}/{p.denominator}" if isinstance(p, Fraction) else None


@dataclass(frozen=True)
class Outcome:
    """One computed distribution and what its values mean.

    `labels[i]` names the value `i` (e.g. "2 wounds", "killed"); `kill_at` is the value from
    which the target counts as killed (destroyed, wiped out), None when no value does.
    """

    key: str
    title: str
    dist: Dist
    labels: tuple[str, ...] = ()
    kill_at: int | None = None
    kill_word: str = "kill"

    def label(self, value: int) -> str:
        return self.labels[value] if 0 <= value < len(self.labels) else str(value)

    def values(self) -> range:
        """0 up to the largest value (or the last label), so every bar has a place."""
        hi = max(self.dist.hi, len(self.labels) - 1)
        return range(min(0, self.dist.lo), hi + 1)

    @property
    def mean(self) -> Prob:
        return self.dist.mean()

    def at_least(self, k: int) -> Prob:
        return self.dist.at_least(k)

    @property
    def p_kill(self) -> Prob | None:
        return None if self.kill_at is None else self.dist.at_least(self.kill_at)

    def to_json(self) -> dict[str, Any]:
        rows = []
        for v in self.values():
            p = self.dist.prob(v)
            rows.append({"value": v, "label": self.label(v), "p": _number(p),
                         "p_exact": _exact(p), "at_least": _number(self.dist.at_least(v))})
        kill = self.p_kill
        return {"key": self.key, "title": self.title, "mean": _number(self.mean),
                "mean_exact": _exact(self.mean), "exact": self.dist.exact,
                "kill_at": self.kill_at, "kill_word": self.kill_word,
                "p_kill": None if kill is None else _number(kill),
                "p_kill_exact": None if kill is None else _exact(kill),
                "values": rows}


@dataclass(frozen=True)
class Chance:
    """A named probability beside the distributions ("Defender flees", "Target stunned")."""

    label: str
    p: Prob

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "p": _number(self.p), "p_exact": _exact(self.p)}


@dataclass(frozen=True)
class Result:
    """Everything a resolve computed, ready to print, chart or serialise.

    `outcome` is the main distribution (the one charted); `summary` the one line a player
    wants ("61% to kill"); `steps` says how the numbers came about ("hits on 4+: cover -1").
    """

    system: str
    attacker: str
    defender: str
    summary: str
    outcome: Outcome
    others: tuple[Outcome, ...] = ()
    chances: tuple[Chance, ...] = ()
    steps: tuple[str, ...] = ()
    # (label, value) of each setting as applied; quick_resolve fills it in
    situation: tuple[tuple[str, str], ...] = field(default=())

    @property
    def outcomes(self) -> tuple[Outcome, ...]:
        return (self.outcome, *self.others)

    def to_json(self) -> dict[str, Any]:
        return {"system": self.system, "attacker": self.attacker, "defender": self.defender,
                "summary": self.summary,
                "situation": [{"label": k, "value": v} for k, v in self.situation],
                "outcome": self.outcome.to_json(),
                "others": [o.to_json() for o in self.others],
                "chances": [c.to_json() for c in self.chances],
                "steps": list(self.steps)}


def kill_summary(outcome: Outcome) -> str:
    """'61% to kill' for outcomes that can kill; else the mean ('1.5 hits on average')."""
    kill = outcome.p_kill
    if kill is not None:
        return f"{percent(kill)} to {outcome.kill_word}"
    return f"{float(outcome.mean):.2f} {outcome.title.lower()} on average"


def applied(options: Sequence[Option], situation: Situation) -> tuple[tuple[str, str], ...]:
    """The situation as (label, value) lines, in the order the options are offered."""
    return tuple((o.label, o.text(situation[o.key])) for o in options if o.key in situation)


# -- entry points for the command line and the web app ------------------------------------------

def situation_options(system: RuleSystem, catalog: Catalog, attacker: Side,
                      defender: Side) -> tuple[Option, ...]:
    """The options a form shows for this pair (each with key, label, kind, choices, default
    and help)."""
    return system.resolve_options(catalog, attacker, defender)


def quick_resolve(system: RuleSystem, catalog: Catalog, attacker: Side, defender: Side,
                  settings: Mapping[str, object] | None = None) -> Result:
    """Resolve with settings given as text or values; raises ResolveError (or its
    SituationError) with a message for the user when something can't be answered."""
    if not system.has_quick_resolve():
        raise ResolveError(f"{system.name} has no quick-resolve")
    options = system.resolve_options(catalog, attacker, defender)
    situation = parse_situation(options, settings or {})
    result = system.resolve(catalog, attacker, defender, situation)
    return replace(result, situation=applied(options, situation))


def resolve_names(system: RuleSystem, catalog: Catalog, attacker: str, defender: str,
                  settings: Mapping[str, object] | None = None,
                  roster: Roster | None = None) -> Result:
    """One call from names: `resolve_names(system, catalog, "Assault Hero", "Support Hero",
    {"cover": "yes"}, roster=None)`. Names are looked up as `find_side` says."""
    return quick_resolve(system, catalog, find_side(system, catalog, attacker, roster),
                         find_side(system, catalog, defender, roster), settings)
