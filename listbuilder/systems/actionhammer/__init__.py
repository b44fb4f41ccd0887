"""ActionHammer: battles of 1/18 scale action figures, several factions to an army.

An entry's `count` is the number of models in the unit, within its datasheet's range; it costs
points per model x models plus its upgrades. A Leader entry may join a Bodyguard entry with
`joins: <label>`. The seed's core numbers (stances, dice, distances) live in system.yaml for a
dice resolver; the datasheets are sample content of ours (the seed prints none).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from listbuilder.engine.cards import UnitCard, per_model
from listbuilder.engine.effects import Fielded
from listbuilder.engine.fight import Resolver
from listbuilder.engine.model import Roster, RosterEntry
from listbuilder.engine.profile import Profile, RuleText
from listbuilder.engine.system import RuleSystem, SourceFile, Violation
from listbuilder.systems.actionhammer import cards
from listbuilder.systems.actionhammer.build import build_catalog
from listbuilder.systems.actionhammer.limits import (
    Placed,
    check_allowances,
    check_characters,
    check_joins,
    join_reasons,
    leader_allowance,
    unit_allowance,
    unit_count,
)
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

    def build_catalog(self, files: Sequence[SourceFile], revision: str) -> ActionHammerCatalog:
        return build_catalog(self.id, files, revision)

    # -- rules -----------------------------------------------------------------------------
    def count_bounds(self, unit: Datasheet) -> tuple[int, int | None]:
        return (unit.min_models, unit.max_models)

    def fielded(self, catalog: ActionHammerCatalog, unit: Datasheet,
                entry: RosterEntry) -> Fielded[Datasheet, Weapon]:
        return unit.fielded(entry.count, entry.upgrades)

    def entry_cost(self, catalog: ActionHammerCatalog, roster: Roster, entry: RosterEntry) -> int:
        sheet = self.unit_of(catalog, roster, entry)
        return sheet.cost(entry.count, entry.upgrades) if sheet is not None else 0

    def placed(self, catalog: ActionHammerCatalog, roster: Roster) -> list[Placed]:
        """The entries whose datasheet is known, with their index in the roster."""
        return [Placed(i, entry, sheet) for i, entry in enumerate(roster.entries)
                if (sheet := self.unit_of(catalog, roster, entry)) is not None]

    def check(self, catalog: ActionHammerCatalog, roster: Roster) -> list[Violation]:
        placed = self.placed(catalog, roster)
        out: list[Violation] = []
        if roster.points_limit and roster.points_limit > 0:
            out += check_allowances(catalog.army, roster.points_limit, placed)
        out += check_characters(catalog.army, placed)
        out += check_joins(placed, (e.label for e in roster.entries if e.label))
        return out

    # -- wording ---------------------------------------------------------------------------
    def summary(self, catalog: ActionHammerCatalog,
                roster: Roster) -> tuple[tuple[str, str], ...]:
        placed = self.placed(catalog, roster)
        leaders = str(sum(1 for p in placed if p.sheet.is_leader))
        units = str(unit_count(placed))
        limit = roster.points_limit
        if limit and limit > 0:
            leaders += f"/{leader_allowance(catalog.army, limit)}"
            units += f"/{unit_allowance(catalog.army, limit)}"
        models = str(sum(p.entry.count for p in placed))
        return (("Leaders", leaders), ("Units", units), ("Models", models))

    def profile(self, catalog: ActionHammerCatalog, unit: Datasheet) -> Profile:
        return cards.profile(catalog, unit)

    # -- builder hooks ---------------------------------------------------------------------
    def can_join(self, unit: Datasheet) -> bool:
        return unit.is_leader

    def join_refusal(self, catalog: ActionHammerCatalog, roster: Roster, index: int,
                     target: int) -> str | None:
        leader, guard = roster.entries[index], roster.entries[target]
        a, b = self.unit_of(catalog, roster, leader), self.unit_of(catalog, roster, guard)
        if a is None or b is None:
            return "not in the game's data"
        reasons = [text for _, text in join_reasons(a, b, guard.count)]
        taken = [e.unit for i, e in enumerate(roster.entries) if i != index
                 and guard.label and e.joins == guard.label]
        if taken:
            reasons.append(f"{taken[0]} leads it already")
        return "; ".join(reasons) or None

    # -- printing hooks --------------------------------------------------------------------
    def entry_card(self, catalog: ActionHammerCatalog, roster: Roster,
                   entry: RosterEntry) -> UnitCard | None:
        sheet = self.unit_of(catalog, roster, entry)
        return cards.entry_card(catalog, sheet, entry) if sheet is not None else None

    def entry_cards(self, catalog: ActionHammerCatalog, roster: Roster) -> list[UnitCard]:
        return cards.entry_cards(catalog, self.placed(catalog, roster))

    def sheet_track(self, catalog: ActionHammerCatalog, unit: Datasheet,
                    entry: RosterEntry) -> tuple[tuple[int, ...], str]:
        """A box a wound of each model as fielded (upgrades may change both)."""
        fielded = unit.fielded(entry.count, entry.upgrades)
        return per_model(fielded.models, max(1, fielded.unit.wounds), "wound")

    def core_rules(self, catalog: ActionHammerCatalog,
                   unit_cards: Sequence[UnitCard]) -> tuple[RuleText, ...]:
        return cards.core_rules(catalog, unit_cards)

    # -- quick-resolve hooks ---------------------------------------------------------------
    def resolve_models(self, unit: Datasheet) -> int:
        return unit.min_models

    def resolver(self) -> Resolver[ActionHammerCatalog, Datasheet]:
        from listbuilder.systems.actionhammer import resolve

        return resolve
