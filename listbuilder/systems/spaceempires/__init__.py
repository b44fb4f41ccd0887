"""War Hammer Space Empires, a module of the Warp Empires system.

The catalog is each faction's chit pile (a unit's `pile` is how many chits of it there are), the
shared action deck and the empire tables (planets, speeds, phases, constants). A roster is one
empire at one Recruit Phase: its choices give the planets held, the saved treasury and the seed
of the starting draw (`starting_forces`); its entries are the chits recruited this turn, so an
entry's `count` is a number of chits and its cost is Force per chit (Leaders half, rounded up).

`schema` checks the YAML, `model` holds the frozen tables and `build` makes them, `limits`
the starting draw and the roster limits, `builder` what the roster page asks, `cards` and
`resolve` printing and quick-resolve; this module the RuleSystem subclass.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from listbuilder.engine.fight import Resolver
from listbuilder.engine.match import Play
from listbuilder.engine.model import Roster, RosterEntry
from listbuilder.engine.reminders import Reminders
from listbuilder.engine.system import ChoiceSpec, Priced, RuleSystem, Status, Totals, Violation
from listbuilder.systems.spaceempires import build, cards, limits
from listbuilder.systems.spaceempires.builder import SpaceEmpiresBuilder
from listbuilder.systems.spaceempires.cards import SpaceEmpiresCards
from listbuilder.systems.spaceempires.limits import (
    CHOICE_DEFAULTS,
    CHOICE_RANGES,
    Empire,
    brief_lines,
    headline,
    recruits_of,
    summary_lines,
)
from listbuilder.systems.spaceempires.model import Chit, SpaceEmpiresCatalog
from listbuilder.systems.spaceempires.schema import SpaceEmpiresFile


class SpaceEmpires(RuleSystem[SpaceEmpiresCatalog, Chit]):
    id = "spaceempires"
    order = 50
    name = "War Hammer Space Empires (Warp Empires)"
    short_name = "Space Empires"
    blurb = ("Build a Warp Empire in the 40K galaxy: start from a random Homeworld draw, then "
             "recruit each turn within your planets' revenue, limits and upkeep.")
    data_schema = SpaceEmpiresFile
    default_points_limit = None
    min_factions = 1
    max_factions = 1
    count_label = "chits"
    cost_unit = "revenue"  # a chit's price; totals say what is spent of what there is
    empty_text = "no faction, seed or recruits yet"
    readings: ClassVar[Mapping[str, str]] = {
        "roster.count-bounds": "more-chits-than-the-pile-holds",
        "roster.wrong-faction": "recruiting-a-unit-of-another-faction",
        "spaceempires.chit-pile": "more-chits-than-the-pile-holds",
        "spaceempires.upkeep": "what-does-upkeep-count",
        "spaceempires.space-recruit-limit": "where-may-space-units-be-recruited",
    }
    choices: ClassVar[dict[str, ChoiceSpec]] = {
        "seed": ChoiceSpec(int, "the number that fixes your random starting draw", required=True,
                           low=CHOICE_RANGES["seed"][0], high=CHOICE_RANGES["seed"][1]),
        **{key: ChoiceSpec(int, words, default=CHOICE_DEFAULTS[key], low=CHOICE_RANGES[key][0],
                           high=CHOICE_RANGES[key][1])
           for key, words in (("poor_planets", "Poor planets you control"),
                              ("rich_planets", "Rich planets you control"),
                              ("homeworlds", "Homeworlds you control"),
                              ("treasury", "revenue saved from earlier turns"))},
    }

    # the game's own modules' functions are its hooks: build.py, limits.py, cards.py
    build_catalog = build.build_catalog
    check = staticmethod(limits.check)
    sections = staticmethod(limits.sections)
    profile = staticmethod(cards.profile)

    # -- rules -----------------------------------------------------------------------------
    def count_bounds(self, unit: Chit) -> tuple[int, int | None]:
        return (1, unit.pile)

    def entry_cost(self, catalog: SpaceEmpiresCatalog, unit: Chit, entry: RosterEntry) -> int:
        return unit.cost * entry.count

    def status(self, catalog: SpaceEmpiresCatalog, roster: Roster,
               found: Sequence[Violation]) -> Status:
        # an empire holds its starting draw before it recruits anything
        empty = not roster.entries and Empire.of(catalog, roster).draw(catalog) is None
        return Status.of(found, empty, self.empty_text)

    # -- wording ---------------------------------------------------------------------------
    # "3 revenue" alone reads as income: say the figure is paid, as the totals' "spent" does
    def price_text(self, cost: int) -> str:
        return f"{cost} revenue to recruit"

    def spent_text(self, cost: int) -> str:
        return f"{cost} revenue spent"

    def totals(self, catalog: SpaceEmpiresCatalog, roster: Roster,
               priced: Sequence[Priced[Chit]]) -> Totals:
        empire, recruits = Empire.of(catalog, roster), recruits_of(priced)
        return replace(super().totals(catalog, roster, priced),
                       headline=headline(empire, recruits),
                       lines=summary_lines(catalog, empire, recruits),
                       brief=brief_lines(catalog, empire, recruits))

    # -- the builder, printing and quick-resolve -------------------------------------------
    def builder(self) -> SpaceEmpiresBuilder:
        return SpaceEmpiresBuilder(self)

    def cards(self) -> SpaceEmpiresCards:
        return SpaceEmpiresCards(self)

    def resolver(self) -> Resolver[SpaceEmpiresCatalog, Chit]:
        from listbuilder.systems.spaceempires.resolve import RESOLVER

        return RESOLVER

    def play(self) -> Play[Any]:
        from listbuilder.systems.spaceempires.play import SpaceEmpiresPlay

        return SpaceEmpiresPlay(self)

    def reminders(self) -> Reminders:
        from listbuilder.systems.spaceempires.reminders import REMINDERS

        return REMINDERS
