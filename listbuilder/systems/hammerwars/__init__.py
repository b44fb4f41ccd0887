"""Hammer Wars: each player fills a fixed pool of 17 one-model units and buys them onto the
table round by round (6 pts and 1 xp a round), playing for one of its faction's two goals.

A roster is the unit pool: one entry per unit type, `count` = how many models of that type the
pool holds. The pool has no points limit; the pts and xp shown are what deploying all of it
costs over the game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from listbuilder.engine.fight import Resolver
from listbuilder.engine.match import Play
from listbuilder.engine.model import Roster, RosterEntry
from listbuilder.engine.reminders import Reminders
from listbuilder.engine.system import ChoiceSpec, Priced, RuleSystem, Totals
from listbuilder.systems.hammerwars import build, cards, limits
from listbuilder.systems.hammerwars.builder import HammerWarsBuilder
from listbuilder.systems.hammerwars.cards import HammerWarsCards
from listbuilder.systems.hammerwars.model import HammerWarsCatalog, HwUnit
from listbuilder.systems.hammerwars.schema import HammerWarsFile

__all__ = ["HammerWars", "HammerWarsCatalog", "HwUnit"]


class HammerWars(RuleSystem[HammerWarsCatalog, HwUnit]):
    id = "hammerwars"
    order = 10
    name = "Hammer Wars"
    blurb = ("A fixed pool of 17 single-model units bought onto the table round by round, "
             "fighting for one of two faction goals.")
    data_schema = HammerWarsFile
    # the studio's form: a pack may bring goals of its own for its factions to pick
    pack_sections = ("factions", "units", "goals")
    default_points_limit = None
    min_factions = 1
    max_factions = 1
    choices: ClassVar[dict[str, ChoiceSpec]] = {
        "goal": ChoiceSpec(str, "one of your faction's two goals", required=True),
    }
    count_label = "models in the pool"
    readings: ClassVar[Mapping[str, str]] = {
        "hammerwars.pool-short": "must-the-pool-be-filled-exactly",
        "hammerwars.pool-over": "must-the-pool-be-filled-exactly",
        "hammerwars.repeated-unit": "the-same-type-listed-twice",
        "hammerwars.goal-missing": "the-secret-goal",
    }

    # the game's own modules' functions are its hooks: build.py, limits.py, cards.py
    build_catalog = build.build_catalog
    check = staticmethod(limits.check)
    profile = staticmethod(cards.profile)

    # -- rules -----------------------------------------------------------------------------
    def entry_cost(self, catalog: HammerWarsCatalog, unit: HwUnit, entry: RosterEntry) -> int:
        return unit.pts * entry.count

    def totals(self, catalog: HammerWarsCatalog, roster: Roster,
               priced: Sequence[Priced[HwUnit]]) -> Totals:
        lines, brief = limits.pool_lines(catalog, priced)
        return replace(super().totals(catalog, roster, priced), lines=lines, brief=brief)

    # -- the builder, printing and quick-resolve -------------------------------------------
    def builder(self) -> HammerWarsBuilder:
        return HammerWarsBuilder(self)

    def cards(self) -> HammerWarsCards:
        return HammerWarsCards(self)

    def resolver(self) -> Resolver[HammerWarsCatalog, HwUnit]:
        from listbuilder.systems.hammerwars.resolve import RESOLVER

        return RESOLVER

    def play(self) -> Play[Any]:
        from listbuilder.systems.hammerwars.play import HammerWarsPlay

        return HammerWarsPlay(self)

    def reminders(self) -> Reminders:
        from listbuilder.systems.hammerwars.reminders import REMINDERS

        return REMINDERS
