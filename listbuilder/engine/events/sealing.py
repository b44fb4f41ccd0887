"""A list sealed for an event (docs/events.md, "Sealed lists"): the roster in its canonical
file form as the event received it, that text's SHA-256, the data revision it was priced
against and the engine's verdict. The seal is what the organiser checks and the verify page
shows; later edits to the player's roster change nothing here.

The hash is of the canonical text (`roster_file.dump_roster`), not of the bytes a player
uploads: two files that differ only in comments, key order or spacing are one list, and
`listbuilder verify ROSTER.yaml` gives any copy of the list the same hash offline."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Protocol

from listbuilder.engine.model import Catalog, Roster
from listbuilder.engine.report import report
from listbuilder.engine.roster_file import dump_roster
from listbuilder.engine.system import RuleSystem, message_line


class Read(Protocol):
    """A roster with its game and catalog: a file read (`roster_file.LoadedRoster`), or a
    roster opened from its edit link (`web.rosters.Opened`)."""

    @property
    def roster(self) -> Roster: ...

    @property
    def system(self) -> RuleSystem: ...

    @property
    def catalog(self) -> Catalog: ...


@dataclass(frozen=True)
class Sealed:
    text: str  # the canonical roster file
    sha256: str  # of `text`, as UTF-8, in hex
    data_revision: str
    state: str  # the report's status: "legal", "illegal" or "empty"
    problems: tuple[str, ...]  # each violation in the builder's words (warnings included)

    @property
    def legal(self) -> bool:
        return self.state == "legal"


def fingerprint(text: str) -> str:
    """The SHA-256 of a canonical roster text, in hex."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def seal(read: Read) -> Sealed:
    """The roster as an event keeps it."""
    roster, system, catalog = read.roster, read.system, read.catalog
    text = dump_roster(roster, system, catalog)
    assessed = report(system, catalog, roster)
    problems = tuple(message_line(v) + (" (warning)" if v.severity == "warning" else "")
                     for v in assessed.violations)
    return Sealed(text, fingerprint(text), catalog.revision, assessed.status.state, problems)
