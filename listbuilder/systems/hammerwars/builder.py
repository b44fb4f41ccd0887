"""What the roster page asks of Hammer Wars (`HammerWarsBuilder`): a pool lists each unit type
once, so adding one listed already adds a model to it; the goal is one of the two the
roster's faction may pick."""

from __future__ import annotations

from collections.abc import Mapping

from listbuilder.engine.model import Roster
from listbuilder.engine.system import Builder
from listbuilder.systems.hammerwars.model import HammerWarsCatalog, HwUnit


class HammerWarsBuilder(Builder[HammerWarsCatalog, HwUnit]):
    def stacks_entries(self) -> bool:
        return True  # a pool lists each unit type once, with its number of models

    def choice_options(self, catalog: HammerWarsCatalog,
                       roster: Roster) -> Mapping[str, tuple[tuple[str, str], ...]]:
        return {"goal": goal_options(catalog, roster)}


def goal_options(catalog: HammerWarsCatalog, roster: Roster) -> tuple[tuple[str, str], ...]:
    """The faction's two goals with their texts; every goal when no single faction is chosen."""
    faction = catalog.hw_faction(roster.factions[0]) if len(roster.factions) == 1 else None
    names = faction.goals if faction else tuple(g.name for g in catalog.goals)
    out = []
    for name in names:
        goal = catalog.goal(name)
        out.append((name, goal.text if goal else ""))
    return tuple(out)
