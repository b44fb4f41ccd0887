"""The roster rules: one faction goal, the pool filled exactly, each unit type listed once; and
what the pool holds and costs, for its totals."""

from __future__ import annotations

from collections.abc import Sequence

from listbuilder.engine.model import Roster
from listbuilder.engine.system import Priced, Violation, plural, where_entry
from listbuilder.systems.hammerwars.model import HammerWarsCatalog, HwUnit

Listed = Sequence[Priced[HwUnit]]  # the entries whose unit is known


def check(catalog: HammerWarsCatalog, roster: Roster, listed: Listed) -> list[Violation]:
    """Hammer Wars' own limits (`RuleSystem.check`)."""
    return check_goal(catalog, roster) + check_repeats(listed) + check_pool(catalog, listed)


def _either(names: Sequence[str]) -> str:
    return " or ".join(names)


def check_goal(catalog: HammerWarsCatalog, roster: Roster) -> list[Violation]:
    goal = str(roster.choices.get("goal") or "").strip()
    faction = catalog.hw_faction(roster.factions[0]) if len(roster.factions) == 1 else None
    if not goal:
        fix = (f"choose {_either(faction.goals)}, the goals {faction.name} may pick" if faction
               else "choose one of your faction's two goals")
        return [Violation("hammerwars.goal-missing", "error", "roster",
                          f"No secret goal chosen: {fix}.")]
    if faction is None or goal.casefold() in (g.casefold() for g in faction.goals):
        return []  # without one known faction the base class has already said what is wrong
    if catalog.goal(goal) is None:
        what = f"{goal!r} is not a Hammer Wars goal; {faction.name} may pick"
    else:
        what = f"Goal {goal!r} is not open to {faction.name}, which may pick"
    return [Violation("hammerwars.goal-not-available", "error", "roster",
                      f"{what} {_either(faction.goals)}: choose one of those.")]


def check_repeats(listed: Listed) -> list[Violation]:
    out = []
    first: dict[str, int] = {}
    for p in listed:
        i, entry, unit = p.index, p.entry, p.unit
        j = first.setdefault(unit.name, i)
        if j != i:
            out.append(Violation(
                "hammerwars.repeated-unit", "error", where_entry(i, entry),
                f"{unit.name} is listed twice (entries {j + 1} and {i + 1}): remove entry "
                f"{i + 1} and add its {entry.count} to entry {j + 1}."))
    return out


def pool_fill(catalog: HammerWarsCatalog, listed: Listed) -> dict[str, int]:
    """Models listed per pool category."""
    filled = {slot.category: 0 for slot in catalog.pool}
    for p in listed:
        slot = catalog.pool_slot(p.unit.category)
        if slot is not None:
            filled[slot.category] += p.entry.count
    return filled


def check_pool(catalog: HammerWarsCatalog, listed: Listed) -> list[Violation]:
    out = []
    filled = pool_fill(catalog, listed)
    for slot in catalog.pool:
        n = filled[slot.category]
        have = f"{plural(n, slot.category, slot.plural)}; the pool holds {slot.models}"
        if n < slot.models:
            out.append(Violation(
                "hammerwars.pool-short", "error", "roster",
                f"{have}: add {plural(slot.models - n, slot.category, slot.plural)} "
                f"(of one or more {slot.category} types)."))
        elif n > slot.models:
            out.append(Violation(
                "hammerwars.pool-over", "error", "roster",
                f"{have}: remove {plural(n - slot.models, slot.category, slot.plural)}."))
    return out


def pool_cost(listed: Listed) -> tuple[int, int]:
    """Pts and xp it takes to deploy every model listed."""
    return (sum(p.unit.pts * p.entry.count for p in listed),
            sum(p.unit.xp * p.entry.count for p in listed))


def pool_lines(catalog: HammerWarsCatalog,
               listed: Listed) -> tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]:
    """The pool's lines beside the totals, and the same in short for the builder's strip:
    each category filled of what it holds, and what deploying all of it costs."""
    filled = pool_fill(catalog, listed)
    slots = tuple((slot.category, f"{filled[slot.category]}/{slot.models}")
                  for slot in catalog.pool)
    pts, xp = pool_cost(listed)
    return ((*slots, ("Pts to deploy all", str(pts)), ("XP to deploy all", str(xp))),
            (*slots, ("Deploy all", f"{pts} pts · {xp} XP")))
