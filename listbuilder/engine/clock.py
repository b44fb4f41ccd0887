"""The clock at the table: a chess clock per side and a time limit for the match, kept in the
match's log like any tap, so that it replays, exports and undoes with the rest.

The clock belongs to no game. Its four event kinds are accepted in every game's log, checked
here and never handed to a game's rules (`match._step` calls `check`): a game's state is the
same with or without them. Each carries `at`, the time of the tap in whole milliseconds since
1970 (UTC), so the clock's state is a pure function of the log and a time "now" (`clock`):

- `clock-start` (a side: whose clock runs first; `minutes`, optional: the match's time limit)
- `clock-switch` (a side: whose clock runs from now; the usual tap is "my move is done")
- `clock-pause` and `clock-resume` (no side: both clocks stop, and the one stopped runs again)

After the game is over only a pause is taken, so the clock can be stopped at the end.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from listbuilder.engine.match import (
    SHARED,
    Event,
    Kind,
    Match,
    MatchError,
    Play,
    Refused,
    check_shape,
    resume,
)

START, SWITCH, PAUSE, RESUME = "clock-start", "clock-switch", "clock-pause", "clock-resume"
KINDS: Mapping[str, Kind] = {
    # `at` reads as nothing: the log shows each tap's time on its own
    START: Kind("Clock started", unit=False, values={"at": int, "minutes": int},
                optional=("minutes",), words={"at": "", "minutes": "with {} minutes to play"}),
    SWITCH: Kind("Clock runs", unit=False, values={"at": int}, words={"at": ""}),
    PAUSE: Kind("Clock paused", side=False, unit=False, values={"at": int}, words={"at": ""}),
    RESUME: Kind("Clock resumed", side=False, unit=False, values={"at": int},
                 words={"at": ""}),
}
# a time outside these is a typing slip, not a game: 2020-01-01 and 2200-01-01, UTC
EARLIEST_MS = 1_577_836_800_000
LATEST_MS = 7_258_118_400_000
MAX_MINUTES = 24 * 60
# A phone's time ahead of the server's by more than this is a wrong clock, not a late tap;
# within it, the tap is taken at the server's time (a phone a few seconds fast).
AHEAD_MS = 10 * 60 * 1000


class _ClockKinds(Play[None]):
    """The clock's kinds as a game's, so `check_shape` refuses a malformed one in its words."""

    kinds = KINDS


_SHAPE = _ClockKinds(None)  # no game: only its kinds are read


@dataclass(frozen=True)
class Span:
    """A stretch of time one side's clock ran: from `start` to `end` (None: it runs still),
    opened by the clock event at `position` in the log (1-based)."""

    side: int
    start: int
    end: int | None
    position: int

    def length(self, now: int) -> int:
        return (now if self.end is None else self.end) - self.start


@dataclass(frozen=True)
class Clock:
    """The clock as of `now`: each side's time used, whose clock runs (None when paused or
    not started), the match's time limit and what is left of it, all in milliseconds."""

    started: bool
    used: tuple[int, ...]
    running: int | None
    paused: bool
    limit: int | None
    now: int
    spans: tuple[Span, ...] = ()
    last: int = 0  # the time of the last clock tap

    @property
    def elapsed(self) -> int:
        """How long the clock has run in all: the match's time, pauses left out."""
        return sum(self.used)

    @property
    def left(self) -> int | None:
        """What is left of the time limit (below 0: over it by that much); None: no limit."""
        return None if self.limit is None else self.limit - self.elapsed


@dataclass(frozen=True)
class _Machine:
    """What the clock's checks need of the taps before one: started, whose clock runs (or
    ran before the pause), paused, and the last tap's time."""

    started: bool = False
    side: int | None = None
    paused: bool = False
    last: int = 0


def is_clock(kind: str) -> bool:
    return kind in KINDS


def _clock_events(events: Sequence[Event]) -> Iterator[tuple[int, Event]]:
    """The log's clock events with their places (1-based), a tap sent twice kept once, as
    `replay` keeps it."""
    seen: set[str] = set()
    for position, ev in enumerate(events, 1):
        if ev.id:
            if ev.id in seen:
                continue
            seen.add(ev.id)
        if ev.kind in KINDS:
            yield position, ev


class _Fold:
    """The clock's taps among the first `upto` events of one log, folded into a `_Machine`,
    each tap sent twice kept once, as `replay` keeps it."""

    def __init__(self, events: Sequence[Event]) -> None:
        self.events = events
        self.upto = 0
        self.seen: set[str] = set()
        self.state = _Machine()

    def to(self, upto: int) -> _Machine:
        for i in range(self.upto, upto):
            ev = self.events[i]
            if ev.id:
                if ev.id in self.seen:
                    continue
                self.seen.add(ev.id)
            if ev.kind in KINDS:
                self.state = _after(self.state, ev)
        self.upto = upto
        return self.state


# A replay checks each clock tap against the taps before it in the same log: folding that
# log from its start each time made a log of 2,000 clock taps take 15 s to replay. So the
# last log folded (the very tuple, held, so never mistaken for another) is carried on from
# where it stopped; one a thread, as each request replays on its own.
_FOLDS = threading.local()


def _machine(events: Sequence[Event], upto: int | None = None) -> _Machine:
    """The clock after the first `upto` events of `events` (all of them by default)."""
    upto = len(events) if upto is None else upto
    fold: _Fold | None = getattr(_FOLDS, "fold", None)
    if fold is None or fold.events is not events or fold.upto > upto:
        fold = _Fold(events)
        _FOLDS.fold = fold
    return fold.to(upto)


def _after(state: _Machine, ev: Event) -> _Machine:
    at = int(ev.get("at"))
    if ev.kind in (START, SWITCH):
        return _Machine(True, ev.side, False, at)
    return _Machine(True, state.side, ev.kind == PAUSE, at)


def check(match: Match, ev: Event, position: int, over: bool) -> None:
    """Refused, in a player's words, when the clock event `ev` at `position` makes no sense
    after the taps before it; `over`: the game has ended by its rules."""
    check_shape(_SHAPE, match, ev)
    at = int(ev.get("at"))
    if not EARLIEST_MS <= at < LATEST_MS:
        raise Refused(f"{at} is not a time this clock takes",
                      "Give 'at' in milliseconds since 1970 (UTC), as a phone's clock "
                      "counts, or leave it to the server.")
    minutes = ev.get("minutes")
    if minutes is not None and not 1 <= minutes <= MAX_MINUTES:
        raise Refused(f"a time limit of {minutes} minutes is not one a match can have",
                      f"Give 1 to {MAX_MINUTES} minutes, or none for no limit.")
    before = _machine(match.events, position - 1)
    if over and not (ev.kind == PAUSE and before.started and not before.paused):
        raise Refused("the game is over: its clock can only be stopped",
                      "Pause the clock if it still runs; Undo the game's end to go on.")
    if before.started and at < before.last:
        raise Refused(f"this tap's time, {clock_time(at)}, is before the clock's last tap, "
                      f"at {clock_time(before.last)}",
                      "Times go forward: give a time at or after the last tap's.")
    if ev.kind == START:
        if before.started:
            raise Refused("the clock has started already",
                          "Switch, pause or resume it; Undo takes the start back.")
        return
    if not before.started:
        raise Refused("the clock has not started", "Start the clock first.")
    if ev.kind == SWITCH:
        if before.paused:
            raise Refused("the clock is paused", "Resume it first.")
        if ev.side == before.side:
            name = match.players[ev.side - 1].name if ev.side else ""
            raise Refused(f"{name}'s clock is running already",
                          "Switch to the other side's clock.")
    elif ev.kind == PAUSE and before.paused:
        raise Refused("the clock is paused already", "Resume it to go on.")
    elif ev.kind == RESUME and not before.paused:
        raise Refused("the clock is not paused", "Pause it first, or switch it.")


def clock(match: Match, now: int) -> Clock:
    """The clock as of `now` (milliseconds since 1970): a pure function of the log. A `now`
    before the last tap (a phone's clock a little behind) is taken as that tap's time."""
    used = [0] * len(match.players)
    spans: list[Span] = []
    state = _Machine()
    limit: int | None = None
    for position, ev in _clock_events(match.events):
        at = int(ev.get("at"))
        if spans and spans[-1].end is None:  # the running clock stops at every tap
            spans[-1] = Span(spans[-1].side, spans[-1].start, at, spans[-1].position)
        if ev.kind == START and ev.get("minutes"):
            limit = int(ev.get("minutes")) * 60_000
        state = _after(state, ev)
        if not state.paused and state.side is not None:
            spans.append(Span(state.side, at, None, position))
    now = max(now, state.last)
    for span in spans:
        if 1 <= span.side <= len(used):
            used[span.side - 1] += span.length(now)
    running = state.side if state.started and not state.paused else None
    return Clock(state.started, tuple(used), running, state.paused, limit, now,
                 tuple(spans), state.last)


def stamp(match: Match, sent: int | None, now: int) -> int:
    """The time a tap is recorded at. The phone's own time of the tap (`sent`) is the truer
    one for a tap queued offline and sent late, so it is taken, but never before the clock's
    last tap (the other phone's, recorded meanwhile) nor after the server's `now`; no time
    from the phone: `now`. Refused when the phone's time is far ahead: its clock is wrong."""
    if sent is None:
        return max(now, _machine(match.events).last)
    if sent > now + AHEAD_MS:
        raise Refused(f"this phone's clock says {clock_time(sent)}, "
                      f"{(sent - now) // 60_000} minutes ahead of the server's",
                      "Set the phone's time right (automatic), then tap again.")
    last = _machine(match.events).last
    return max(min(sent, now), last)


def round_times(play: Play[Any], match: Match, now: int) -> tuple[tuple[int | None, int], ...]:
    """The clock's time in each game round, as (round, milliseconds), in the order played: a
    span the clock ran counts in the round the game was in when it began (each switch of
    the clock is a tap, game events carry no time). Round: the game's `Play.round_of`; None
    where the game counts none yet."""
    spans = clock(match, now).spans
    rounds: dict[int, int | None] = {}
    state = play.start(match)
    done = 0
    for position in sorted({s.position for s in spans}):
        try:
            state = resume(play, Match(match.system, match.players, match.events[:position],
                                       match.options), state, done)
        except MatchError:  # a log the rules refuse partway: no rounds past it
            break
        done = position
        rounds[position] = play.round_of(state)
    out: dict[int | None, int] = {}
    for span in spans:
        key = rounds.get(span.position)
        out[key] = out.get(key, 0) + span.length(now if span.end is None else span.end)
    return tuple(out.items())


def clock_time(ms: int) -> str:
    """A tap's time of day, UTC: 18:04:09."""
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%H:%M:%S")


def duration(ms: int) -> str:
    """A length of time as a clock shows it: 4:05, 1:02:09; below 0, with a minus."""
    sign = "-" if ms < 0 else ""
    seconds = abs(ms) // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{sign}{hours}:{minutes:02}:{secs:02}" if hours else f"{sign}{minutes}:{secs:02}"


class _Clock:
    """The clock as the engine's shared kinds (`listbuilder.engine.match.SHARED`)."""

    kinds = KINDS

    def check(self, match: Match, ev: Event, position: int, over: bool) -> None:
        check(match, ev, position, over)


SHARED.append(_Clock())
