"""What the browser builder asks of Hammer Wars: the goals a roster's faction may pick."""

from __future__ import annotations

from listbuilder.engine.model import Roster
from listbuilder.systems.hammerwars.model import HammerWarsCatalog


def goal_options(catalog: HammerWarsCatalog, roster: Roster) -> tuple[tuple[str, str], ...]:
    """The faction's two goals with their texts; every goal when no single faction is chosen."""
    faction = catalog.hw_faction(roster.factions[0]) if len(roster.factions) == 1 else None
    names = faction.goals if faction else tuple(g.name for g in catalog.goals)
    out = []
    for name in names:
        goal = catalog.goal(name)
        out.append((name, goal.text if goal else ""))
    return tuple(out)
