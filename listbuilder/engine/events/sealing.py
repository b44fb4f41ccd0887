"""A list sealed for an event (docs/events.md, "Sealed lists"): the roster in its canonical
file form as the event received it, that text's SHA-256, the data revision it was priced
against and the engine's verdict. The seal is what the organiser checks and the verify page
shows; later edits to the player's roster change nothing here.

The hash is of the canonical text (`roster_file.dump_roster`), not of the bytes a player
uploads: two files that differ only in comments, key order or spacing are one list, and
`listbuilder verify ROSTER.yaml` gives any copy of the list the same hash offline."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Collection
from dataclasses import dataclass, field
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
    # what the event's own terms find (`Terms`): over its limit, a pack it does not allow
    flags: tuple[str, ...] = field(default=())

    @property
    def legal(self) -> bool:
        return self.state == "legal"


@dataclass(frozen=True)
class Terms:
    """What an event asks of a list beyond its game's rules: a points limit of its own (the
    roster may carry another), the studio packs it allows (by their share links' tokens) and
    the data revision it is played on."""

    points_limit: int | None = None
    packs: Collection[str] = ()
    data_revision: str = ""


# A studio pack's share link as a roster carries it (`PackUse.link`): its token is the pack's
# name for an event, whatever host the link was copied from.
_PACK_TOKEN = re.compile(r"/studio/s/([A-Za-z0-9_-]{8,100})")


def pack_token(link: str) -> str:
    """The share token in a pack's link ('' for a pack that came from a file, not a studio)."""
    found = _PACK_TOKEN.search(link)
    return found.group(1) if found else ""


def fingerprint(text: str) -> str:
    """The SHA-256 of a canonical roster text, in hex."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def seal(read: Read, terms: Terms | None = None, base_revision: str = "") -> Sealed:
    """The roster as an event keeps it, flagged where it breaks the event's `terms`.
    `base_revision`: the game's data revision without packs (`catalog.revision` counts the
    packs in), compared with the event's."""
    roster, system, catalog = read.roster, read.system, read.catalog
    text = dump_roster(roster, system, catalog)
    assessed = report(system, catalog, roster)
    problems = tuple(message_line(v) + (" (warning)" if v.severity == "warning" else "")
                     for v in assessed.violations)
    flags = _flags(roster, assessed.totals.points, terms, base_revision) if terms else ()
    return Sealed(text, fingerprint(text), catalog.revision, assessed.status.state, problems,
                  flags)


def _flags(roster: Roster, points: int, terms: Terms, base: str) -> tuple[str, ...]:
    out = []
    if terms.points_limit is not None and points > terms.points_limit:
        out.append(f"{points} pts: over the event's limit of {terms.points_limit} pts")
    for pack in roster.packs:
        if pack_token(pack.link) not in terms.packs:
            origin = "from a file" if not pack_token(pack.link) else "from another studio link"
            out.append(f"builds with the pack {pack.name!r} ({origin}), which the event "
                       "does not allow")
    if terms.data_revision and base and base != terms.data_revision:
        out.append(f"priced on data revision {base}; the event is played on "
                   f"{terms.data_revision}")
    return tuple(out)
