"""The explicit list of rule systems and a lookup that rejects unknown ids."""

from __future__ import annotations

from collections.abc import Iterable

from listbuilder.engine.system import RuleSystem
from listbuilder.systems.actionhammer import ActionHammer
from listbuilder.systems.hammerwars import HammerWars
from listbuilder.systems.op40k import OnePage40k
from listbuilder.systems.spaceempires import SpaceEmpires
from listbuilder.systems.warstuff import WarStuff


def _unique(systems: Iterable[RuleSystem]) -> tuple[RuleSystem, ...]:
    out: dict[str, RuleSystem] = {}
    for system in systems:
        if system.id in out:
            raise ValueError(f"two rule systems share the id {system.id!r}")
        out[system.id] = system
    return tuple(out.values())


SYSTEMS: tuple[RuleSystem, ...] = _unique([
    HammerWars(),
    OnePage40k(),
    WarStuff(),
    ActionHammer(),
    SpaceEmpires(),
])


def system_ids() -> list[str]:
    return [s.id for s in SYSTEMS]


def get_system(system_id: str) -> RuleSystem:
    for system in SYSTEMS:
        if system.id == system_id.strip().lower():
            return system
    raise ValueError(f"unknown system {system_id!r}; known: {', '.join(system_ids())}")
