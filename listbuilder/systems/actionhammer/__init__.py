"""ActionHammer: battles of 1/18 scale action figures, several factions to an army.

An entry's `count` is the number of models in the unit, within its datasheet's range; it costs
points per model x models plus its upgrades. A Leader entry may join a Bodyguard entry with
`joins: <label>`. The seed's core numbers (stances, dice, distances) live in system.yaml for a
dice resolver; the datasheets are sample content of ours (the seed prints none).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from listbuilder.engine.effects import Fielded
from listbuilder.engine.fight import Resolver
from listbuilder.engine.match import Play
from listbuilder.engine.model import Roster, RosterEntry
from listbuilder.engine.reminders import Reminders
from listbuilder.engine.system import Priced, RuleSystem, Totals
from listbuilder.systems.actionhammer import build, cards, limits
from listbuilder.systems.actionhammer.builder import ActionHammerBuilder
from listbuilder.systems.actionhammer.cards import ActionHammerCards
from listbuilder.systems.actionhammer.model import ActionHammerCatalog, Datasheet, Stance, Weapon
from listbuilder.systems.actionhammer.schema import ActionHammerFile

__all__ = ["ActionHammer", "ActionHammerCatalog", "Datasheet", "Stance", "Weapon"]


class ActionHammer(RuleSystem[ActionHammerCatalog, Datasheet]):
    id = "actionhammer"
    order = 40
    name = "ActionHammer"
    blurb = ("Action-figure battles at 1/18 scale: datasheets priced per model, Leaders with "
             "Bodyguards, and stances that trade accuracy for safety.")
    data_schema = ActionHammerFile
    default_points_limit = 2000
    min_factions = 1
    max_factions = None
    count_label = "models"
    readings: ClassVar[Mapping[str, str]] = {
        "actionhammer.character-copies": "one-copy-of-a-character",
        "actionhammer.bodyguard-size": "what-makes-a-bodyguard-multi-model",
        "actionhammer.leader-not-bodyguard": "may-a-leader-join-another-leader-or-itself",
    }

    # the game's own modules' functions are its hooks: build.py, limits.py, cards.py
    build_catalog = build.build_catalog
    check = staticmethod(limits.check)
    profile = staticmethod(cards.profile)

    # -- rules -----------------------------------------------------------------------------
    def count_bounds(self, unit: Datasheet) -> tuple[int, int | None]:
        return (unit.min_models, unit.max_models)

    def fielded(self, catalog: ActionHammerCatalog, unit: Datasheet,
                entry: RosterEntry) -> Fielded[Datasheet, Weapon]:
        return unit.fielded(entry.count, entry.upgrades)

    def entry_cost(self, catalog: ActionHammerCatalog, unit: Datasheet,
                   entry: RosterEntry) -> int:
        return unit.cost(entry.count, entry.upgrades)

    # -- wording ---------------------------------------------------------------------------
    def totals(self, catalog: ActionHammerCatalog, roster: Roster,
               priced: Sequence[Priced[Datasheet]]) -> Totals:
        return replace(super().totals(catalog, roster, priced),
                       lines=limits.army_lines(catalog.army, roster, priced))

    # -- the builder, printing and quick-resolve -------------------------------------------
    def builder(self) -> ActionHammerBuilder:
        return ActionHammerBuilder(self)

    def cards(self) -> ActionHammerCards:
        return ActionHammerCards(self)

    def resolver(self) -> Resolver[ActionHammerCatalog, Datasheet]:
        from listbuilder.systems.actionhammer.resolve import RESOLVER

        return RESOLVER

    def play(self) -> Play[Any]:
        from listbuilder.systems.actionhammer.play import ActionHammerPlay

        return ActionHammerPlay(self)

    def reminders(self) -> Reminders:
        from listbuilder.systems.actionhammer.reminders import REMINDERS

        return REMINDERS
