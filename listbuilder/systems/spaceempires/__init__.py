"""War Hammer Space Empires, a module of the Warp Empires system.

The catalog is each faction's chit pile (a unit's `pile` is how many chits of it there are), the
shared action deck and the empire tables (planets, speeds, phases, constants). A roster is one
empire at one Recruit Phase: its choices give the planets held, the saved treasury and the seed
of the starting draw (`starting_forces`); its entries are the chits recruited this turn, so an
entry's `count` is a number of chits and its cost is Force per chit (Leaders half, rounded up).

`schema` checks the YAML, `model` holds the frozen tables and `build` makes them, `limits`
the starting draw and the roster limits; this module the RuleSystem hooks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import ClassVar

from listbuilder.engine.cards import CardSet, ChitFace, UnitCard
from listbuilder.engine.fight import Resolver
from listbuilder.engine.model import Roster, RosterEntry
from listbuilder.engine.profile import Profile, RuleText
from listbuilder.engine.system import (
    ChoiceSpec,
    RuleSystem,
    Section,
    SourceFile,
    Totals,
    Violation,
)
from listbuilder.systems.spaceempires import cards
from listbuilder.systems.spaceempires.build import build_catalog
from listbuilder.systems.spaceempires.limits import (
    CHOICE_DEFAULTS,
    CHOICE_RANGES,
    Empire,
    Recruit,
    brief_lines,
    check_empire,
    draw_section,
    headline,
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
    sheet_headings = ("Recruited this turn", "Starting draw")
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

    def build_catalog(self, files: Sequence[SourceFile], revision: str) -> SpaceEmpiresCatalog:
        return build_catalog(self.id, files, revision)

    # -- rules -----------------------------------------------------------------------------
    def count_bounds(self, unit: Chit) -> tuple[int, int | None]:
        return (1, unit.pile)

    def entry_cost(self, catalog: SpaceEmpiresCatalog, roster: Roster, entry: RosterEntry) -> int:
        unit = self.unit_of(catalog, roster, entry)
        return unit.cost * entry.count if unit is not None else 0

    def recruits(self, catalog: SpaceEmpiresCatalog, roster: Roster) -> list[Recruit]:
        """The entries that name a unit of the pile, with their index; unknown ones are left to
        the base class to report."""
        return [(i, entry, unit) for i, entry in enumerate(roster.entries)
                if (unit := self.unit_of(catalog, roster, entry)) is not None]

    def check(self, catalog: SpaceEmpiresCatalog, roster: Roster) -> list[Violation]:
        return check_empire(catalog, Empire.of(catalog, roster), roster,
                            self.recruits(catalog, roster))

    def is_empty(self, catalog: SpaceEmpiresCatalog, roster: Roster) -> bool:
        # an empire holds its starting draw before it recruits anything
        return not roster.entries and Empire.of(catalog, roster).draw(catalog) is None

    # -- wording ---------------------------------------------------------------------------
    # "3 revenue" alone reads as income: say the figure is paid, as the totals' "spent" does
    def price_text(self, cost: int) -> str:
        return f"{cost} revenue to recruit"

    def spent_text(self, cost: int) -> str:
        return f"{cost} revenue spent"

    def totals(self, catalog: SpaceEmpiresCatalog, roster: Roster) -> Totals:
        found = super().totals(catalog, roster)
        return replace(found, headline=headline(Empire.of(catalog, roster),
                                                self.recruits(catalog, roster)))

    def summary(self, catalog: SpaceEmpiresCatalog,
                roster: Roster) -> tuple[tuple[str, str], ...]:
        return summary_lines(catalog, Empire.of(catalog, roster), self.recruits(catalog, roster))

    def brief(self, catalog: SpaceEmpiresCatalog, roster: Roster) -> tuple[tuple[str, str], ...]:
        return brief_lines(catalog, Empire.of(catalog, roster), self.recruits(catalog, roster))

    def sections(self, catalog: SpaceEmpiresCatalog, roster: Roster) -> tuple[Section, ...]:
        return (draw_section(catalog, Empire.of(catalog, roster)),)

    def profile(self, catalog: SpaceEmpiresCatalog, unit: Chit) -> Profile:
        return cards.profile(catalog, unit)

    # -- builder hooks ---------------------------------------------------------------------
    def stacks_entries(self) -> bool:
        return True  # an entry counts chits of one kind recruited this turn

    def random_choices(self) -> tuple[str, ...]:
        return ("seed",)

    # -- printing hooks --------------------------------------------------------------------
    def entry_card(self, catalog: SpaceEmpiresCatalog, roster: Roster,
                   entry: RosterEntry) -> UnitCard | None:
        unit = self.unit_of(catalog, roster, entry)
        return cards.entry_card(catalog, unit, entry) if unit is not None else None

    def card_set(self, catalog: SpaceEmpiresCatalog) -> CardSet | None:
        return cards.card_set(catalog)

    def sheet_track(self, catalog: SpaceEmpiresCatalog, unit: Chit,
                    entry: RosterEntry) -> tuple[tuple[int, ...], str]:
        """A box a chit: a chit is lost whole."""
        return (1,) * entry.count, "lost"

    def core_rules(self, catalog: SpaceEmpiresCatalog,
                   unit_cards: Sequence[UnitCard]) -> tuple[RuleText, ...]:
        return cards.core_rules(catalog, unit_cards)

    def chits(self, catalog: SpaceEmpiresCatalog, faction: str) -> tuple[ChitFace, ...]:
        return cards.chits(catalog, faction)

    def sheet_choices(self, catalog: SpaceEmpiresCatalog, roster: Roster) -> tuple[RuleText, ...]:
        return cards.sheet_choices(catalog, roster)

    # -- quick-resolve hooks ---------------------------------------------------------------
    def resolve_extras(self, catalog: SpaceEmpiresCatalog,
                       roster: Roster) -> tuple[RosterEntry, ...]:
        """The starting draw's chits, a stack of each kind, labelled as drawn."""
        draw = Empire.of(catalog, roster).draw(catalog)
        if draw is None:
            return ()
        kinds = Counter((*draw.space, *draw.ground))
        return tuple(RosterEntry(unit=name, count=n, label=f"drawn: {name}")
                     for name, n in kinds.items())

    def resolver(self) -> Resolver[SpaceEmpiresCatalog, Chit]:
        from listbuilder.systems.spaceempires import resolve

        return resolve
