"""ActionHammer's army organisation: allowances that grow with the points limit, one copy of
each Character, and Leaders joining a Bodyguard. Every check returns Violations, never raises."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from listbuilder.engine.model import Roster, RosterEntry
from listbuilder.engine.system import Priced, Violation, plural, where_entry
from listbuilder.systems.actionhammer.model import ActionHammerCatalog, Army, Datasheet

MULTI_MODEL = 2  # a Bodyguard is a multi-model unit: two models or more


@dataclass(frozen=True)
class Placed:
    """A roster entry whose datasheet was found (unknown units are the base class's business)."""

    index: int
    entry: RosterEntry
    sheet: Datasheet

    @property
    def where(self) -> str:
        return where_entry(self.index, self.entry)

    @property
    def name(self) -> str:
        return self.sheet.name

    @classmethod
    def each(cls, priced: Iterable[Priced[Datasheet]]) -> list[Placed]:
        """The entries priced, each with its datasheet."""
        return [cls(p.index, p.entry, p.unit) for p in priced]


def check(catalog: ActionHammerCatalog, roster: Roster,
          priced: Sequence[Priced[Datasheet]]) -> list[Violation]:
    """ActionHammer's own limits (`RuleSystem.check`)."""
    placed = Placed.each(priced)
    out: list[Violation] = []
    if roster.points_limit and roster.points_limit > 0:
        out += check_allowances(catalog.army, roster.points_limit, placed)
    out += check_characters(catalog.army, placed)
    out += check_joins(placed, (e.label for e in roster.entries if e.label))
    return out


def army_lines(army: Army, roster: Roster,
               priced: Sequence[Priced[Datasheet]]) -> tuple[tuple[str, str], ...]:
    """The army's Leaders and units, each of what the points limit allows, and its models:
    the lines beside the totals."""
    placed = Placed.each(priced)
    leaders = str(sum(1 for p in placed if p.sheet.is_leader))
    units = str(unit_count(placed))
    limit = roster.points_limit
    if limit and limit > 0:
        leaders += f"/{leader_allowance(army, limit)}"
        units += f"/{unit_allowance(army, limit)}"
    models = str(sum(p.entry.count for p in placed))
    return (("Leaders", leaders), ("Units", units), ("Models", models))


def allowance(limit: int, per: int, at_least: int = 0) -> int:
    """How many the limit allows at one per full `per` points (never fewer than `at_least`)."""
    return max(at_least, limit // per)


# The rules-notes readings behind the allowances: below one full step the rule, read strictly,
# would forbid any army; between steps, only full steps of the points limit count. At a whole
# number of steps the rule decides alone.
SMALL_GAMES = "what-about-games-under-1000-or-500-pts"
FULL_STEPS = "do-the-allowances-count-the-points-limit-or-the-points-spent"


def allowance_reading(limit: int, per: int) -> str | None:
    if limit < per:
        return SMALL_GAMES
    return FULL_STEPS if limit % per else None


def joined_to(placed: Sequence[Placed]) -> dict[int, Placed]:
    """Entry index -> the other placed entry it joins, when that entry exists."""
    by_label = {p.entry.label: p for p in placed if p.entry.label}
    out = {}
    for p in placed:
        target = by_label.get(p.entry.joins) if p.entry.joins else None
        if target is not None and target.index != p.index:
            out[p.index] = target
    return out


def unit_count(placed: Sequence[Placed]) -> int:
    """Units on the table: an entry joined to another counts with it, as one."""
    return len(placed) - len(joined_to(placed))


# -- allowances that grow with the points limit -----------------------------------------------

def check_allowances(army: Army, limit: int, placed: Sequence[Placed]) -> list[Violation]:
    return [*_leaders(army, limit, placed), *_same_datasheet(army, limit, placed),
            *_units(army, limit, placed)]


def leader_allowance(army: Army, limit: int) -> int:
    return allowance(limit, army.leaders_per)


def unit_allowance(army: Army, limit: int) -> int:
    # at least one: below 500 pts the rule would otherwise forbid any army at all
    return allowance(limit, army.units_per, at_least=1)


def _leaders(army: Army, limit: int, placed: Sequence[Placed]) -> list[Violation]:
    n = sum(1 for p in placed if p.sheet.is_leader)
    allowed = leader_allowance(army, limit)
    if n <= allowed:
        return []
    return [Violation(
        "actionhammer.leaders-per-1000", "error", "roster",
        f"{plural(n, 'Leader')}; {limit} pts allows {allowed} (1 per full {army.leaders_per} "
        f"pts): remove {plural(n - allowed, 'Leader')} or raise the points limit to "
        f"{n * army.leaders_per}.", reading=allowance_reading(limit, army.leaders_per))]


def _same_datasheet(army: Army, limit: int, placed: Sequence[Placed]) -> list[Violation]:
    # at least one: below 1000 pts the rule would otherwise forbid every datasheet
    allowed = allowance(limit, army.same_datasheet_per, at_least=1)
    out = []
    for group in _groups(placed):
        if len(group) > allowed:
            n = len(group)
            mixed = len({(p.sheet.faction or "").casefold() for p in group}) > 1
            out.append(Violation(
                "actionhammer.datasheet-per-1000", "error", group[allowed].where,
                f"{plural(n, 'unit')} of {group[0].name}; {limit} pts allows {allowed} "
                f"(1 per full {army.same_datasheet_per} pts): remove {n - allowed}.",
                reading=("same-datasheet-name-across-factions" if mixed else
                         allowance_reading(limit, army.same_datasheet_per))))
    return out


def _units(army: Army, limit: int, placed: Sequence[Placed]) -> list[Violation]:
    n = unit_count(placed)
    allowed = unit_allowance(army, limit)
    if n <= allowed:
        return []
    joined = joined_to(placed)
    loose = [p for p in placed if p.sheet.is_leader and p.index not in joined]
    hint = " or join a Leader to a Bodyguard" if loose else ""
    return [Violation(
        "actionhammer.units-per-500", "error", "roster",
        f"{plural(n, 'unit')} (a Leader with its Bodyguard counts as one); {limit} pts allows "
        f"{allowed} (1 per full {army.units_per} pts): remove {plural(n - allowed, 'unit')}"
        f"{hint}.", reading=allowance_reading(limit, army.units_per))]


def check_characters(army: Army, placed: Sequence[Placed]) -> list[Violation]:
    out = []
    allowed = army.character_copies
    for group in _groups(p for p in placed if p.sheet.is_character):
        n = len(group)
        for extra in group[allowed:]:
            out.append(Violation(
                "actionhammer.character-copies", "error", extra.where,
                f"{extra.name} is a Character and is taken {plural(n, 'time')}; an army brings "
                f"{plural(allowed, 'copy', 'copies')}: remove {n - allowed}."))
    return out


def _groups(placed: Iterable[Placed]) -> list[list[Placed]]:
    """Entries grouped by datasheet name (across factions: the rule counts names)."""
    groups: dict[str, list[Placed]] = {}
    for p in placed:
        groups.setdefault(p.name.casefold(), []).append(p)
    return list(groups.values())


# -- Leaders and Bodyguards -------------------------------------------------------------------

def check_joins(placed: Sequence[Placed], labels: Iterable[str]) -> list[Violation]:
    known = set(labels)
    by_label = {p.entry.label: p for p in placed if p.entry.label}
    out: list[Violation] = []
    guarded: dict[int, tuple[Placed, list[Placed]]] = {}
    for p in placed:
        label = p.entry.joins
        if label is None:
            continue
        if label not in known:
            out.append(Violation(
                "actionhammer.bodyguard-missing", "error", p.where,
                f"{p.name} joins {label!r}, but no entry has that label: add `label: {label}` "
                f"to its Bodyguard or remove `joins`."))
            continue
        target = by_label.get(label)
        if target is None:  # the labelled entry is an unknown unit, reported already
            continue
        problem = _join_problem(p, target)
        if problem is not None:
            out.append(problem)
        elif target.index != p.index:
            guarded.setdefault(target.index, (target, []))[1].append(p)
    for guard, leaders in guarded.values():
        out += _one_leader(guard, leaders)
    return out


def join_reasons(a: Datasheet, b: Datasheet, models: int) -> list[tuple[str, str]]:
    """Why `a` may not join `b` fielding `models` models: (rule id, reason) for each rule
    broken, in the order the rules are checked; [] when it may."""
    out = []
    if not a.is_leader:
        out.append(("actionhammer.only-leaders-join", f"{a.name} is no Leader"))
    if b.is_leader:
        out.append(("actionhammer.leader-not-bodyguard", f"{b.name} is a Leader"))
    if models < MULTI_MODEL:
        always = "" if b.max_models >= MULTI_MODEL else ", always"
        out.append(("actionhammer.bodyguard-size",
                    f"{b.name} is {plural(models, 'model')}{always}"))
    if a.move != b.move:
        out.append(("actionhammer.bodyguard-move",
                    f'{b.name} has Move {b.move}" and {a.name} Move {a.move}"'))
    if (a.faction or "").casefold() != (b.faction or "").casefold():
        out.append(("actionhammer.bodyguard-faction", f"{b.name} is {b.faction}"))
    return out


def join_fix(a: Datasheet, b: Datasheet, models: int, reasons: list[tuple[str, str]]) -> str:
    """What the player can do about `reasons`: only what is in their hands."""
    ids = [rule for rule, _ in reasons]
    if ids == ["actionhammer.bodyguard-size"] and b.max_models >= MULTI_MODEL:
        return (f"give {b.name} {MULTI_MODEL - models} more "
                f"{'model' if MULTI_MODEL - models == 1 else 'models'}, or join another unit")
    return (f"join a {a.faction} unit of {MULTI_MODEL} or more models with Move {a.move}\" and "
            f"no Leader of its own, or leave {a.name} on its own")


def _join_problem(leader: Placed, guard: Placed) -> Violation | None:
    a, b = leader.sheet, guard.sheet
    reasons = join_reasons(a, b, guard.entry.count)
    if not reasons:
        return None
    if not a.is_leader:
        return Violation("actionhammer.only-leaders-join", "error", leader.where,
                         f"{a.name} joins {b.name}, but only Leaders join a Bodyguard: "
                         f"remove `joins: {leader.entry.joins}`.")
    why = "; ".join(text for _, text in reasons)
    fix = join_fix(a, b, guard.entry.count, reasons)
    return Violation(reasons[0][0], "error", leader.where,
                     f"{a.name} can't join {b.name} ({why}): a Leader joins a unit of its "
                     f"faction, of {MULTI_MODEL} or more models, with the same Move and no "
                     f"other Leader. {fix[0].upper()}{fix[1:]}.")


def _one_leader(guard: Placed, leaders: list[Placed]) -> list[Violation]:
    if len(leaders) < 2:
        return []
    keep = leaders[0].name
    return [Violation("actionhammer.bodyguard-one-leader", "error", extra.where,
                      f"{plural(len(leaders), 'Leader')} join {guard.name} "
                      f"({guard.entry.label}); a Bodyguard takes 1, {keep}: move {extra.name} "
                      f"to another unit or leave it on its own.")
            for extra in leaders[1:]]
