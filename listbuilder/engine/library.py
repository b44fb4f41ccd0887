"""The loaded data of every system, read once, and the roster operations built on it."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from listbuilder.engine.catalog import Loaded, load_catalog
from listbuilder.engine.model import Catalog, PackUse
from listbuilder.engine.packs import Pack, with_packs
from listbuilder.engine.registry import all_systems, get_system, system_ids
from listbuilder.engine.system import RuleSystem

if TYPE_CHECKING:
    from listbuilder.engine.roster_file import LoadedRoster


class Library:
    """Catalogs loaded on first use from the built-in folder and the player's own folder."""

    def __init__(self, builtin_dir: Path | None = None, custom_dir: Path | None = None) -> None:
        self.builtin_dir = builtin_dir
        self.custom_dir = custom_dir
        self._loaded: dict[str, Loaded] = {}

    @property
    def systems(self) -> tuple[RuleSystem, ...]:
        return all_systems()

    def loaded(self, system: RuleSystem | str) -> Loaded:
        system = get_system(system) if isinstance(system, str) else system
        if system.id not in self._loaded:
            self._loaded[system.id] = load_catalog(system, self.builtin_dir, self.custom_dir)
        return self._loaded[system.id]

    def catalog(self, system: RuleSystem | str) -> Catalog:
        return self.loaded(system).catalog

    def catalog_with_packs(self, system: RuleSystem | str, packs: Sequence[PackUse]) -> Catalog:
        """The system's catalog with a roster's faction packs built in (each set once a
        process); DataLoadError, naming the pack's file and line, when one does not load."""
        system = get_system(system) if isinstance(system, str) else system
        return with_packs(system, self.loaded(system),
                          [Pack(system.id, p.name, p.text) for p in packs]).catalog

    def read_roster(self, text: str, file: str = "<roster>") -> LoadedRoster:
        # Imported here: loading catalogs alone (the web app's start, benchmarks) skips the
        # roster schema.
        from listbuilder.engine.roster_file import read_roster

        return read_roster(text, file, get_system, system_ids(), self.catalog,
                           self.catalog_with_packs)

    def read_roster_file(self, path: Path) -> LoadedRoster:
        """Read a roster file from disk; every way it can't be read is a RosterFileError."""
        from listbuilder.engine.roster_file import read_roster_bytes, roster_text

        return self.read_roster(roster_text(read_roster_bytes(path), str(path)), str(path))
