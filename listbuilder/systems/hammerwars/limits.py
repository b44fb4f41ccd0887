"""The roster rules: one faction goal, the pool filled exactly, each unit type listed once."""

from __future__ import annotations

from collections.abc import Sequence

from listbuilder.engine.model import Roster, RosterEntry
from listbuilder.engine.system import Violation, plural, where_entry
from listbuilder.systems.hammerwars.model import HammerWarsCatalog, HwUnit

Listed = list[tuple[int, RosterEntry, HwUnit]]  # entries whose unit is known, with their index


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
    for i, entry, unit in listed:
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
    for _, entry, unit in listed:
        slot = catalog.pool_slot(unit.category)
        if slot is not None:
            filled[slot.category] += entry.count
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
    return (sum(unit.pts * entry.count for _, entry, unit in listed),
            sum(unit.xp * entry.count for _, entry, unit in listed))
