"""What the roster page asks of Space Empires (`SpaceEmpiresBuilder`): an entry counts chits of
one kind, so recruiting one listed already adds a chit; the seed of the starting draw is
filled in for a new empire and can be drawn again."""

from __future__ import annotations

from listbuilder.engine.system import Builder
from listbuilder.systems.spaceempires.model import Chit, SpaceEmpiresCatalog


class SpaceEmpiresBuilder(Builder[SpaceEmpiresCatalog, Chit]):
    def stacks_entries(self) -> bool:
        return True  # an entry counts chits of one kind recruited this turn

    def random_choices(self) -> tuple[str, ...]:
        return ("seed",)
