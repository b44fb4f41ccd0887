"""What a quick-resolve is made of: the two sides, the situation options and the result.

Both the engine and each system's `resolve.py` build on these pieces; they live apart from
`listbuilder.engine.resolve` (which finds sides in a catalog or roster and calls a system) so
that `RuleSystem.resolver` and each system's `Resolver` can name them without importing the
code that calls them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar, Generic, Literal

from typing_extensions import TypeVar

from listbuilder.engine.dice import Dist, Prob
from listbuilder.engine.errors import closest
from listbuilder.engine.model import Catalog, Roster, RosterEntry, Unit

OptionValue = bool | int | str
Situation = Mapping[str, OptionValue]
OptionKind = Literal["bool", "int", "choice"]

YES = ("yes", "y", "true", "on", "1")
NO = ("no", "n", "false", "off", "0", "")

# A side of a system's own units: a system's resolver reads their stats without a downcast
UnitT_co = TypeVar("UnitT_co", bound=Unit, covariant=True, default=Unit)
U = TypeVar("U", bound=Unit)


class ResolveError(ValueError):
    """A resolve can't be answered as asked; the message says why and what to change."""


class SituationError(ResolveError):
    """One or more situation settings are unknown or out of range; `problems` lists each."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(self.problems))


# -- the sides ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Member(Generic[UnitT_co]):
    """One unit of a side: `count` is its models (or, for chits, copies in the stack) as its
    roster entry gives them; `models`, when not 0, the models it fields after upgrades that add
    or take some (a Runtherd joining the Gretchin), which is what fights and what it is called."""

    unit: UnitT_co
    count: int
    upgrades: tuple[str, ...] = ()
    models: int = 0

    @property
    def fielded_models(self) -> int:
        return self.models or self.count

    @property
    def label(self) -> str:
        n = self.fielded_models
        return self.unit.name if n == 1 else f"{n}x {self.unit.name}"


@dataclass(frozen=True)
class Side(Generic[UnitT_co]):
    """An attacker or a defender: one unit, or a stack (a Leader with its Bodyguard, a Space
    Empires stack). The first member is the unit that takes hits first."""

    members: tuple[Member[UnitT_co], ...]

    @staticmethod
    def of(unit: U, count: int = 1, upgrades: Sequence[str] = ()) -> Side[U]:
        return Side((Member(unit, count, tuple(upgrades)),))

    @property
    def unit(self) -> UnitT_co:
        return self.members[0].unit

    @property
    def count(self) -> int:
        return self.members[0].count

    @property
    def label(self) -> str:
        return " + ".join(m.label for m in self.members)


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
            hint = closest(str(raw), self.choices)
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
            problems.append(f"unknown setting {key!r}{closest(key, by_key)}; "
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


# -- a system's resolver ------------------------------------------------------------------------

C_contra = TypeVar("C_contra", bound=Catalog, contravariant=True)
U_contra = TypeVar("U_contra", bound=Unit, contravariant=True)


class Resolver(Generic[C_contra, U_contra]):
    """A system's dice maths, handed over by `RuleSystem.resolver`: each system's `resolve.py`
    subclasses it, typed by the system's own catalog and units so it reads their stats
    directly, and overrides `resolve` (and the other hooks where its game differs).

    The base holds the neutral defaults; `listbuilder.engine.resolve` finds the sides and calls
    these hooks.
    """

    # True where a roster entry's count is copies of a one-model unit that each fight on their
    # own (a Hammer Wars pool, WarStuff): a side taken from the roster is one of them.
    copies_fight_alone: ClassVar[bool] = False

    def options(self, catalog: C_contra, attacker: Side[U_contra],
                defender: Side[U_contra]) -> tuple[Option, ...]:
        """The situation settings a resolve of this pair offers (cover, stance, facing...)."""
        return ()

    def resolve(self, catalog: C_contra, attacker: Side[U_contra], defender: Side[U_contra],
                situation: Situation) -> Result:
        """What `attacker` does to `defender`, exactly. `situation` holds a value for every
        option `options` gave (see listbuilder.engine.resolve.quick_resolve)."""
        raise NotImplementedError

    def default_models(self, unit: U_contra) -> int:
        """Models (or chits) a side of this unit has when neither a roster nor 'N x' says."""
        return 1

    def extras(self, catalog: C_contra, roster: Roster) -> tuple[RosterEntry, ...]:
        """Units the roster fields besides its entries (Space Empires' starting draw), which
        quick-resolve offers as if they were listed after them, and the roster sheet prints
        under their own heading."""
        return ()
