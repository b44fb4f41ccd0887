"""Between the store and the engine: stored YAML in, a Roster to edit, canonical YAML out.

Stored rosters are read by shape only (the roster schema), not resolved against the catalog:
a roster whose unit left the data, or that is still missing a choice, opens and shows what is
wrong as violations instead of refusing to open. Uploaded files get the full reader, with its
line-numbered errors.
"""

from __future__ import annotations

from dataclasses import dataclass

import yaml
from pydantic import ValidationError

from listbuilder.engine.catalog import describe_pydantic_error
from listbuilder.engine.errors import format_loc
from listbuilder.engine.library import Library
from listbuilder.engine.model import Catalog, Roster
from listbuilder.engine.registry import get_system
from listbuilder.engine.roster_file import RosterModel, dump_roster, roster_to_data, to_roster
from listbuilder.engine.system import RuleSystem
from listbuilder.storage import Stored


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


def parse_stored(text: str) -> Roster:
    try:
        data = yaml.safe_load(text)
        return to_roster(RosterModel.model_validate(data))
    except (yaml.YAMLError, ValidationError) as exc:
        raise StoredRosterError(str(exc)) from exc


def open_stored(library: Library, stored: Stored) -> Opened:
    roster = parse_stored(stored.text)
    try:
        system = get_system(roster.system)
    except ValueError as exc:
        raise StoredRosterError(str(exc)) from exc
    return Opened(stored, roster, system, library.catalog(system))


def canonical(roster: Roster, system: RuleSystem, catalog: Catalog) -> str:
    """The roster file text to store; refuses a roster the file format could not hold."""
    try:
        RosterModel.model_validate(roster_to_data(roster, system, catalog))
    except ValidationError as exc:
        err = exc.errors()[0]
        raise RosterShapeError(f"{format_loc(tuple(err['loc']))}: "
                               f"{describe_pydantic_error(err)}") from exc
    return dump_roster(roster, system, catalog)


def file_name(roster: Roster, suffix: str) -> str:
    safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in roster.name).strip("-")
    return f"{safe[:60] or 'roster'}{suffix}"
