"""The loaded data of every system, read once, and the roster operations built on it."""

from __future__ import annotations

from pathlib import Path

from listbuilder.engine.catalog import Loaded, load_catalog
from listbuilder.engine.model import Catalog
from listbuilder.engine.registry import SYSTEMS, get_system, system_ids
from listbuilder.engine.roster_file import LoadedRoster, read_roster
from listbuilder.engine.system import RuleSystem


class Library:
    """Catalogs loaded on first use from the built-in folder and the player's own folder."""

    def __init__(self, builtin_dir: Path | None = None, custom_dir: Path | None = None) -> None:
        self.builtin_dir = builtin_dir
        self.custom_dir = custom_dir
        self._loaded: dict[str, Loaded] = {}

    @property
    def systems(self) -> tuple[RuleSystem, ...]:
        return SYSTEMS

    def loaded(self, system: RuleSystem | str) -> Loaded:
        system = get_system(system) if isinstance(system, str) else system
        if system.id not in self._loaded:
            self._loaded[system.id] = load_catalog(system, self.builtin_dir, self.custom_dir)
        return self._loaded[system.id]

    def catalog(self, system: RuleSystem | str) -> Catalog:
        return self.loaded(system).catalog

    def read_roster(self, text: str, file: str = "<roster>") -> LoadedRoster:
        return read_roster(text, file, get_system, system_ids(), self.catalog)
