"""The rule systems, found through the entry-point group `listbuilder.systems`, and a lookup
that rejects unknown ids.

The five built-in games declare themselves in pyproject.toml exactly as an outside package
declares its own (`[project.entry-points."listbuilder.systems"]`, `<id> = "package:Class"`), so
this module names no game and a sixth is an installable package. They are listed by each
system's `order`. A system whose entry point fails to load is left out and its problem kept
(`problems()`, shown by `listbuilder systems`): one broken add-on never stops the others.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from functools import cache
from importlib.metadata import entry_points

from listbuilder.engine.system import RuleSystem

GROUP = "listbuilder.systems"
log = logging.getLogger(__name__)


def _unique(systems: Iterable[RuleSystem]) -> tuple[RuleSystem, ...]:
    out: dict[str, RuleSystem] = {}
    for system in systems:
        if system.id in out:
            raise ValueError(f"two rule systems share the id {system.id!r}: "
                             f"{type(out[system.id]).__module__} and {type(system).__module__}")
        out[system.id] = system
    return tuple(out.values())


@cache
def _found() -> tuple[tuple[RuleSystem, ...], tuple[str, ...]]:
    systems: list[RuleSystem] = []
    problems: list[str] = []
    for point in entry_points(group=GROUP):
        where = f"entry point {point.name} = {point.value!r} ({GROUP})"
        try:
            loaded = point.load()
        except Exception as error:  # an add-on's import error: name it, keep the others
            problems.append(f"{where} could not be loaded: {error}")
            continue
        if not (isinstance(loaded, type) and issubclass(loaded, RuleSystem)):
            problems.append(f"{where} is not a RuleSystem subclass")
            continue
        if loaded.id != point.name:
            problems.append(f"{where} names a system whose id is {loaded.id!r}: give the entry "
                            f"point the system's id")
            continue
        systems.append(loaded())
    for problem in problems:
        log.warning("%s", problem)
    return _unique(sorted(systems, key=lambda s: (s.order, s.id))), tuple(problems)


def all_systems() -> tuple[RuleSystem, ...]:
    """Every installed system, in their order."""
    return _found()[0]


def problems() -> tuple[str, ...]:
    """Why systems declared by installed packages were left out."""
    return _found()[1]


def system_ids() -> list[str]:
    return [s.id for s in all_systems()]


def get_system(system_id: str) -> RuleSystem:
    for system in all_systems():
        if system.id == system_id.strip().lower():
            return system
    raise ValueError(f"unknown system {system_id!r}; known: {', '.join(system_ids())}")
