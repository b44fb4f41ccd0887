"""What the roster page asks of One Page 40k (`Op40kBuilder`): a new unit starts at the size its
profile prints."""

from __future__ import annotations

from listbuilder.engine.system import Builder
from listbuilder.systems.op40k.model import Datasheet, Op40kCatalog


class Op40kBuilder(Builder[Op40kCatalog, Datasheet]):
    def default_count(self, unit: Datasheet) -> int:
        return unit.size  # the size the profile prints
