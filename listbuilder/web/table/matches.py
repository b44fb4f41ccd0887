"""A stored match opened for a request: its game, players, log and the state the log replays
to, found by the link that opened it (a side's private link or the spectators').

Each side's link is a password: only its hash is stored. Side 2's link is side 1's, keyed by
the app's secret (HMAC), so that the player who started the match can always show it to their
opponent again, while side 2's link, or a copy of the database, gives nothing of side 1's.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass
from typing import Any, cast

from flask import abort, current_app

from listbuilder.engine.match import (
    Match,
    MatchError,
    Outcome,
    Play,
    replay,
)
from listbuilder.engine.match_file import LoadedMatch, MatchFileError, read_match
from listbuilder.engine.registry import get_system
from listbuilder.engine.system import RuleSystem
from listbuilder.match_storage import WATCHER, MatchStore, StoredMatch
from listbuilder.web import services
from listbuilder.web.recent import Recent

# A match's header read once a process: both phones ask for the board every few seconds, and
# reading two rosters again each time would be most of the answer's work.
_HEADERS: Recent[str, LoadedMatch] = Recent(64)


def matches() -> MatchStore:
    return cast(MatchStore, current_app.extensions["listbuilder.matches"])


def second_token(first: str) -> str:
    """Side 2's private link, from side 1's and the app's secret."""
    key = str(current_app.config["SECRET_KEY"]).encode("utf-8")
    digest = hmac.new(key, b"listbuilder-match-side-2:" + first.encode("utf-8"),
                      hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")


@dataclass(frozen=True)
class Table:
    """A match as one link sees it: `side` is 1 or 2 for a player's own link, WATCHER for a
    spectator's. `state` is the log replayed; `broken`, the event the rules now refuse (a
    log stored under older rules), with the state before it."""

    stored: StoredMatch
    side: int
    token: str
    system: RuleSystem[Any, Any]
    play: Play[Any]
    match: Match
    state: Any
    outcome: Outcome
    broken: MatchError | None = None

    @property
    def watching(self) -> bool:
        return self.side == WATCHER

    @property
    def solo(self) -> bool:
        return len(self.match.players) == 1

    @property
    def version(self) -> int:
        return self.stored.version


def header_of(stored: StoredMatch) -> LoadedMatch:
    found = _HEADERS.get(stored.header)
    if found is None:
        try:
            found = read_match(stored.header, "the stored match", services.library().read_roster)
        except MatchFileError as exc:  # a roster the reader no longer takes
            abort(422, f"This match's rosters can no longer be read: {exc}")
        _HEADERS.put(stored.header, found)
    return found


def opened(stored: StoredMatch, side: int, token: str) -> Table:
    """The match replayed: the state after its log, or before the first event refused."""
    header = header_of(stored)
    system = get_system(stored.system)
    play = system.play()
    if play is None:
        abort(404, f"{system.name} has no match tracker.")
    base = header.match
    match = Match(base.system, base.players, stored.events, base.options)
    try:
        state = replay(play, match)
        broken = None
    except MatchError as exc:
        broken = exc
        state = replay(play, match, match.events[:max(exc.position - 1, 0)]) \
            if exc.position > 0 else None
        if state is None:
            abort(422, f"This match can't be replayed: {exc}")
    return Table(stored, side, token, system, play, match, state, play.outcome(state), broken)


def open_match(token: str) -> Table:
    found = matches().by_token(token)
    if found is None:
        abort(404, "No match has this link. Check that the whole link was copied.")
    stored, side = found
    return opened(stored, side, token)
