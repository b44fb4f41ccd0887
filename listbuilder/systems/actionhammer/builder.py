"""What the roster page asks of ActionHammer (`ActionHammerBuilder`): a Leader may join a
Bodyguard, and the page says beside each unit it does not offer why not."""

from __future__ import annotations

from listbuilder.engine.model import Roster
from listbuilder.engine.system import Builder, Priced
from listbuilder.systems.actionhammer.limits import join_reasons
from listbuilder.systems.actionhammer.model import ActionHammerCatalog, Datasheet


class ActionHammerBuilder(Builder[ActionHammerCatalog, Datasheet]):
    def can_join(self, unit: Datasheet) -> bool:
        return unit.is_leader

    def join_refusal(self, catalog: ActionHammerCatalog, roster: Roster,
                     leader: Priced[Datasheet], guard: Priced[Datasheet]) -> str | None:
        reasons = [text for _, text in join_reasons(leader.unit, guard.unit, guard.entry.count)]
        label = guard.entry.label
        taken = [e.unit for i, e in enumerate(roster.entries) if i != leader.index
                 and label and e.joins == label]
        if taken:
            reasons.append(f"{taken[0]} leads it already")
        return "; ".join(reasons) or None
