"""Between the store and the engine: stored YAML in, a Roster to edit, canonical YAML out.

Stored rosters are read by shape only (the roster schema), not resolved against the catalog:
a roster whose unit left the data, or that is still missing a choice, opens and shows what is
wrong as violations instead of refusing to open. Uploaded files get the full reader, with its
line-numbered errors.
"""

from __future__ import annotations

import re
import secrets
import unicodedata
from dataclasses import dataclass
from urllib.parse import quote

from pydantic import ValidationError

from listbuilder.engine.catalog import parse_yaml
from listbuilder.engine.errors import DataLoadError, format_loc
from listbuilder.engine.library import Library
from listbuilder.engine.model import Catalog, Roster
from listbuilder.engine.registry import get_system
from listbuilder.engine.roster_file import (
    MAX_ROSTER_BYTES,
    RosterFileError,
    RosterModel,
    dump_roster_data,
    read_roster_data,
    roster_to_data,
    to_roster,
)
from listbuilder.engine.system import RuleSystem
from listbuilder.engine.yaml_limits import ROSTER
from listbuilder.store.rosters import Stored
from listbuilder.web.recent import Recent


class StoredRosterError(ValueError):
    """A stored text no longer reads as a roster (the format changed under it)."""


class RosterShapeError(ValueError):
    """The roster would not make a valid roster file (a bound exceeded); for the player."""


@dataclass(frozen=True)
class Opened:
    stored: Stored
    roster: Roster
    system: RuleSystem
    catalog: Catalog


def parsed_rosters(chars: int = 4_000_000) -> Recent[str, Roster]:
    """Rosters read from stored texts, by the text (per process, the latest used, up to
    `chars` of text: a roster object takes a few times its text). A roster is immutable and
    is all its text reads as, so a text read once, or written by this process's last save,
    is not parsed again when the next change opens it."""
    return Recent(chars, weigh=len)


_PARSED = parsed_rosters()


def parse_stored(text: str) -> Roster:
    if (known := _PARSED.get(text)) is not None:
        return known
    try:
        data = parse_yaml(text, "stored roster", ROSTER)
        roster = to_roster(RosterModel.model_validate(data))
    except (DataLoadError, ValidationError) as exc:
        raise StoredRosterError(str(exc)) from exc
    _PARSED.put(text, roster)
    return roster


def open_stored(library: Library, stored: Stored) -> Opened:
    roster = parse_stored(stored.text)
    try:
        system = get_system(roster.system)
    except ValueError as exc:
        raise StoredRosterError(str(exc)) from exc
    if not roster.packs:
        return Opened(stored, roster, system, library.catalog(system))
    try:
        catalog = library.catalog_with_packs(system, roster.packs)
    except DataLoadError as exc:  # a pack that loaded when it was added, and no longer does
        raise StoredRosterError(str(exc)) from exc
    return Opened(stored, roster, system, catalog)


def canonical(roster: Roster, system: RuleSystem, catalog: Catalog,
              before: Roster | None = None) -> str:
    """The roster file text to store. What is stored is always a file the reader accepts, so
    every saved roster exports to a file that imports back: a change that would make the
    reader refuse it (a hand-made post naming an upgrade the unit lacks, say) is refused.
    Problems the roster `before` the change already had (a unit that left the data) don't
    block other changes."""
    text, new = _written(roster, system, catalog)
    if new and before is not None:
        had = set(_written(before, system, catalog)[1])
        new = [p for p in new if p not in had]
    if new:
        raise RosterShapeError("; ".join(new))
    return text


def _written(roster: Roster, system: RuleSystem, catalog: Catalog) -> tuple[str, list[str]]:
    """The roster's file, and what the roster file reader would say of it, without lines
    (they move). The reader checks the data the file is written from (`read_roster_data`:
    the file reads as that data), as it checks a file's after parsing it. A file it accepts
    is kept as read, so the next change to the saved text need not parse it."""

    def only(system_id: str) -> RuleSystem:
        if system_id != system.id:
            raise ValueError(system_id)
        return system

    data = roster_to_data(roster, system, catalog)
    text = dump_roster_data(data, system)
    if len(text.encode("utf-8")) > MAX_ROSTER_BYTES:  # it would not import back
        return text, [f"the roster's file would be larger than {MAX_ROSTER_BYTES // 1024} KB, "
                      f"the most a roster file may be: remove some units or upgrades"]
    try:
        loaded = read_roster_data(data, text, "roster", only, [system.id], lambda _: catalog)
    except RosterFileError as exc:
        return text, [f"{format_loc(e.loc)}: {e.message}" for e in exc.errors]
    _PARSED.put(text, loaded.roster)
    return text, []


def file_name(roster: Roster, suffix: str) -> str:
    safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in roster.name).strip("-")
    return f"{safe[:60] or 'roster'}{suffix}"


def disposition(kind: str, name: str) -> str:
    """A Content-Disposition value keeping a name in any script: headers carry Latin-1 only
    (gunicorn refuses anything else), so the plain `filename` is an ASCII fallback and
    `filename*` (RFC 6266) carries the name itself, which browsers prefer."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    plain = re.sub(r"[^A-Za-z0-9._-]+", "-", plain).strip("-.") or "roster"
    return f"{kind}; filename=\"{plain}\"; filename*=UTF-8''{quote(name, safe='')}"


SEED_RANGE = 1_000_000  # a random draw's seed is a number below this


def fresh_seeds(system: RuleSystem) -> dict[str, int]:
    """A new roster's seeds: one for each random draw its game makes (WarStuff's table)."""
    return {key: secrets.randbelow(SEED_RANGE) for key in system.builder().random_choices()}
