"""Faction packs: a player's own factions, units, chits or goals for one game, as one YAML file.

A pack is exactly a data file of its game (the format of the files in the system's `data/`
folder), so a host can drop an exported pack into `LISTBUILDER_DATA/<system>/` unchanged and
a file written by hand is a pack. It is checked as the loader checks a player's own files
(the same limits, schema and catalog build, so the same words: file, line, key and fix) and
built on top of the built-in data, never in place of it.

Plain Python: the web studio, the roster reader and the command line all use this.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from listbuilder.engine.catalog import Loaded, read_source, with_file
from listbuilder.engine.errors import DataError, DataLoadError
from listbuilder.engine.model import BUILTIN, Catalog, Faction, Roster, Unit
from listbuilder.engine.system import RuleSystem
from listbuilder.engine.yaml_limits import PACK, PACK_BYTES

# the longest pack name, as a roster's
NAME_MAX = 80
# the largest pack: a faction of sixty datasheets takes about a third of it
MAX_PACK_BYTES = PACK_BYTES  # the PACK limits are sized from it
# packs one roster may build with: each is carried whole in the roster's file
MAX_PACKS = 3


def pack_revision(text: str) -> str:
    """A short digest of a pack's text: what a roster records to say which pack it used."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def pack_file_name(name: str) -> str:
    """The file a pack is exported to, and the name its errors give: `House Orks` ->
    `house-orks.yaml`."""
    slug = re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-")[:60] or "pack"
    return f"{slug}.yaml"


@dataclass(frozen=True)
class Pack:
    """One pack's text as kept, for one system."""

    system: str
    name: str
    text: str
    revision: str = field(default="")

    def __post_init__(self) -> None:
        if not self.revision:
            object.__setattr__(self, "revision", pack_revision(self.text))

    @property
    def file(self) -> str:
        return pack_file_name(self.name)


@dataclass(frozen=True)
class PackCheck:
    """A pack read against its game's built-in data: its problems, or what it adds."""

    errors: tuple[DataError, ...]
    loaded: Loaded | None = None

    @property
    def ok(self) -> bool:
        return not self.errors and self.loaded is not None

    def units(self, file: str) -> tuple[Unit, ...]:
        """The units the pack itself defines (not the built-in ones beside them)."""
        if self.loaded is None:
            return ()
        return tuple(u for u in self.loaded.catalog.units if u.origin.file == file)

    def factions(self, file: str) -> tuple[Faction, ...]:
        if self.loaded is None:
            return ()
        return tuple(f for f in self.loaded.catalog.factions if f.origin.file == file)


def check_pack(system: RuleSystem, base: Loaded, pack: Pack) -> PackCheck:
    """Every problem of `pack` in the loader's words, or the catalog with it built in."""
    raw = pack.text.encode("utf-8")
    try:
        source = read_source(system, pack.text, pack.file, custom=True, limits=PACK)
        loaded = with_file(system, base, source, pack.text, "pack/" + pack.file, raw)
    except DataLoadError as exc:
        return PackCheck(tuple(exc.errors))
    adds = [u.name for u in loaded.catalog.units if u.origin.file == pack.file]
    adds += [f.name for f in loaded.catalog.factions if f.origin.file == pack.file]
    if not adds and not _adds_anything(base.catalog, loaded.catalog):
        return PackCheck((DataError(pack.file, (), "the pack adds nothing yet: add a faction "
                                                    "and a unit"),))
    return PackCheck((), loaded)


def _adds_anything(before: Catalog, after: Catalog) -> bool:
    """Packs of games whose additions are not units or factions (decks, goals, rules)."""
    return (len(after.rules), len(after.decks)) != (len(before.rules), len(before.decks))


def with_packs(system: RuleSystem, base: Loaded, packs: Sequence[Pack]) -> Loaded:
    """The catalog with every pack built in, in order; raises DataLoadError naming the pack's
    file and line when one does not fit (the same checks as `check_pack`)."""
    if not packs:
        return base
    key = (system.id, base.catalog.revision, tuple((p.file, p.revision) for p in packs))
    if key not in _BUILT:
        loaded = base
        for pack in packs:
            source = read_source(system, pack.text, pack.file, custom=True, limits=PACK)
            loaded = with_file(system, loaded, source, pack.text, "pack/" + pack.file,
                               pack.text.encode("utf-8"))
        if len(_BUILT) >= _BUILT_KEPT:  # packs come from strangers: the memory is bounded
            _BUILT.pop(next(iter(_BUILT)))
        _BUILT[key] = loaded
    return _BUILT[key]


# a roster's page is drawn many times with the same packs: each set is built once a process
_BUILT: dict[tuple[str, str, tuple[tuple[str, str], ...]], Loaded] = {}
_BUILT_KEPT = 64


def pack_changes(system: RuleSystem, roster: Roster, before: Catalog,
                 after: Catalog) -> list[str]:
    """What a new version of a roster's pack changes for the roster's units, in the words of
    `data_changes`: a unit gone, a cost changed, a profile changed. Empty: nothing it uses."""
    out = []
    was_priced = {p.index: p for p in system.priced(before, roster)}
    now_priced = {p.index: p for p in system.priced(after, roster)}
    for i, entry in enumerate(roster.entries):
        if i not in was_priced:
            continue  # not a unit the roster can use today: its own problem
        if i not in now_priced:
            out.append(f"{entry.unit}: no longer in the pack")
            continue
        old, new = was_priced[i].unit, now_priced[i].unit
        was, now = was_priced[i].cost, now_priced[i].cost
        if was != now:
            out.append(f"{entry.unit}: {system.price_text(was)} -> {system.price_text(now)}")
        elif replace(old, origin=BUILTIN) != replace(new, origin=BUILTIN):
            out.append(f"{entry.unit}: its profile changed")
    return list(dict.fromkeys(out))
