"""A stored match opened for a request: its game, players, log and the state the log replays
to, found by the link that opened it (a side's private link or the spectators').

A request starts from the state this process last replayed the same log to, or a first part
of it, and applies only what is newer (`_Kept`): a tap, the poll after it and an undo late in
a long match cost what they cost early, not a replay of the whole log.

Each side's link is a password: only its hash is stored. Side 2's link is side 1's, keyed by
the app's secret (HMAC), so that the player who started the match can always show it to their
opponent again, while side 2's link, or a copy of the database, gives nothing of side 1's.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, cast

from blinker import Namespace
from flask import abort, current_app

from listbuilder.engine.match import (
    Event,
    Match,
    MatchError,
    Outcome,
    Play,
    replay,
    resume,
)
from listbuilder.engine.match_file import LoadedMatch, MatchFileError, read_match
from listbuilder.engine.registry import get_system
from listbuilder.engine.system import RuleSystem
from listbuilder.store.matches import WATCHER, MatchStore, StoredMatch
from listbuilder.web import services
from listbuilder.web.recent import Recent

# A match's header read once a process: both phones ask for the board every few seconds, and
# reading two rosters again each time would be most of the answer's work.
_HEADERS: Recent[str, LoadedMatch] = Recent(64)
KEPT_STATES = 8  # a match's latest states kept: an undo this many taps back replays nothing


@dataclass(frozen=True)
class _Kept:
    """States one match's log replayed to in this process: each (n, state) is the state after
    the first n events of `events`, the log last seen, shortest first."""

    events: tuple[Event, ...]
    states: tuple[tuple[int, Any], ...]

    def nearest(self, events: Sequence[Event]) -> tuple[int, Any] | None:
        """The kept state after the longest first part of `events`, by their content: a
        version alone could name another log (a database restored from a backup)."""
        same = _common(self.events, events)
        return next(((n, state) for n, state in reversed(self.states) if n <= same), None)

    def adding(self, events: tuple[Event, ...], state: Any) -> _Kept:
        """These with `state`, the state after all of `events`, the log now seen."""
        same = _common(self.events, events)
        states = [(n, kept) for n, kept in self.states if n <= same and n != len(events)]
        return _Kept(events, (*states, (len(events), state))[-KEPT_STATES:])


# By match (its id and spectators' link, which no other match shares even in another database
# that reuses ids): what a request of another worker or an undo starts from.
_STATES: Recent[tuple[int, str], _Kept] = Recent(64)


def _common(a: Sequence[Event], b: Sequence[Event]) -> int:
    """How many events two logs begin with alike."""
    n = min(len(a), len(b))
    if a[:n] == b[:n]:  # the usual case, in one comparison: a log grown or undone
        return n
    return next(i for i in range(n) if a[i] != b[i])


# Sent (with the app, `match_id` and `outcome`) when a tap ends a match by its game's rules:
# a match started from an event's table reports its result there (web/events), and the
# tracker need not know of events.
match_ended = Namespace().signal("listbuilder.match-ended")


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
        state = _replayed(stored, play, match)
        broken = None
    except MatchError as exc:
        broken = exc
        state = replay(play, match, match.events[:max(exc.position - 1, 0)]) \
            if exc.position > 0 else None
        if state is None:
            abort(422, f"This match can't be replayed: {exc}")
    return Table(stored, side, token, system, play, match, state, play.outcome(state), broken)


def _replayed(stored: StoredMatch, play: Play[Any], match: Match) -> Any:
    """The state after the match's log, from the nearest state kept; kept in turn. A log the
    rules refuse keeps nothing: its table is rebuilt in full each time, as it is rare."""
    key = (stored.id, stored.watch_token)
    kept = _STATES.get(key)
    start = kept.nearest(match.events) if kept is not None else None
    state = replay(play, match) if start is None else resume(play, match, start[1], start[0])
    _keep(key, kept, match.events, state)
    return state


def _keep(key: tuple[int, str], kept: _Kept | None, events: tuple[Event, ...],
          state: Any) -> None:
    _STATES.put(key, kept.adding(events, state) if kept is not None
                else _Kept(events, ((len(events), state),)))


def advanced(table: Table, stored: StoredMatch, match: Match, state: Any) -> Table:
    """The table after a tap: `stored` as the store appended it, with `match` and `state`
    as `push` gave them, so the tap's answer replays nothing. Should the stored log not be
    `match`'s, the stored one is replayed: the database is the truth."""
    if stored.events != match.events:
        return opened(stored, table.side, table.token)
    key = (stored.id, stored.watch_token)
    _keep(key, _STATES.get(key), match.events, state)
    return replace(table, stored=stored, match=match, state=state,
                   outcome=table.play.outcome(state), broken=None)


def open_match(token: str) -> Table:
    found = matches().by_token(token)
    if found is None:
        abort(404, "No match has this link. Check that the whole link was copied.")
    stored, side = found
    return opened(stored, side, token)
