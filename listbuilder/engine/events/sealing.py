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

from listbuilder.engine.report import report
from listbuilder.engine.roster_file import LoadedRoster, dump_roster
from listbuilder.engine.system import message_line


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


def seal(loaded: LoadedRoster) -> Sealed:
    """The roster as an event keeps it."""
    text = dump_roster(loaded.roster, loaded.system, loaded.catalog)
    assessed = report(loaded.system, loaded.catalog, loaded.roster)
    problems = tuple(message_line(v) + (" (warning)" if v.severity == "warning" else "")
                     for v in assessed.violations)
    return Sealed(text, fingerprint(text), loaded.catalog.revision, assessed.status.state,
                  problems)
