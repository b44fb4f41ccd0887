"""War Hammer Space Empires, a module of the Warp Empires system.

The catalog is each faction's chit pile (a unit's `pile` is how many chits of it there are), the
shared action deck and the empire tables (planets, speeds, phases, constants). A roster is one
empire at one Recruit Phase: its choices give the planets held, the saved treasury and the seed
of the starting draw (`starting_forces`); its entries are the chits recruited this turn, so an
entry's `count` is a number of chits and its cost is Force per chit (Leaders half, rounded up).

`schema` checks the YAML, `catalog` builds the frozen tables, `empire` holds the starting draw
and the roster limits, `system` the RuleSystem hooks.
"""

from listbuilder.systems.spaceempires.catalog import (
    ActionCard,
    Chit,
    Constants,
    PlanetKind,
    SpaceEmpiresCatalog,
    half_up,
)
from listbuilder.systems.spaceempires.empire import Empire, StartingForces, starting_forces
from listbuilder.systems.spaceempires.system import SpaceEmpires

__all__ = [
    "ActionCard",
    "Chit",
    "Constants",
    "Empire",
    "PlanetKind",
    "SpaceEmpires",
    "SpaceEmpiresCatalog",
    "StartingForces",
    "half_up",
    "starting_forces",
]
