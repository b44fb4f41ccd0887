"""The clock as the tracker draws it (engine/clock.py): both sides' times for the sticky head,
the buttons one phone may tap now, and the times for the summary. Numbers are given in
milliseconds too, so table.js can tick the running clock between redraws; the server's
numbers are the truth on every redraw, and the words alone are right with scripts off.
"""

from __future__ import annotations

from dataclasses import dataclass

from listbuilder.engine.clock import (
    PAUSE,
    RESUME,
    SWITCH,
    clock,
    duration,
    round_times,
)
from listbuilder.engine.match import other
from listbuilder.web.table.matches import Table


@dataclass(frozen=True)
class Face:
    """One side's clock: its time used, in words and in ms, and whether it runs."""

    side: int
    name: str
    used: int
    words: str
    running: bool
    mine: bool


@dataclass(frozen=True)
class ClockButton:
    """A clock tap: the event's kind, the side it names (None: both clocks) and its label."""

    kind: str
    side: int | None
    label: str
    primary: bool = False  # the usual tap: "My move is done"


@dataclass(frozen=True)
class ClockFace:
    started: bool
    paused: bool
    faces: tuple[Face, ...]
    buttons: tuple[ClockButton, ...]
    left: int | None  # ms left of the time limit, None: no limit
    left_words: str
    limit_words: str
    can_start: bool  # the start form is shown: this phone plays, the clock has not started
    status: str  # in words, for a screen reader and for the page with scripts off

    @property
    def ticking(self) -> bool:
        return self.started and not self.paused and any(f.running for f in self.faces)


@dataclass(frozen=True)
class RoundTime:
    label: str
    words: str


def clock_face(table: Table, now: int) -> ClockFace:
    seen = clock(table.match, now)
    names = [p.name for p in table.match.players]
    faces = tuple(Face(n, name, seen.used[n - 1], duration(seen.used[n - 1]),
                       seen.running == n, n == table.side)
                  for n, name in enumerate(names, 1))
    plays = not table.watching and not table.broken
    over = table.outcome.over
    buttons: list[ClockButton] = []
    if plays and seen.started:
        if seen.paused:
            if not over:
                buttons.append(ClockButton(RESUME, None, "Resume clock"))
        elif over:
            buttons.append(ClockButton(PAUSE, None, "Stop clock"))
        else:
            if len(names) > 1 and seen.running == table.side:
                buttons.append(ClockButton(SWITCH, other(table.side), "My move is done",
                                           primary=True))
            elif len(names) > 1 and seen.running is not None:
                buttons.append(ClockButton(SWITCH, table.side, "Start my clock"))
            buttons.append(ClockButton(PAUSE, None, "Pause clock"))
    if not seen.started:
        status = "The clock has not started."
    elif seen.paused:
        status = "The clock is paused."
    else:
        status = f"{names[(seen.running or 1) - 1]}'s clock is running."
    left = seen.left
    return ClockFace(
        seen.started, seen.paused, faces, tuple(buttons), left,
        "" if left is None else duration(left),
        "" if seen.limit is None else duration(seen.limit),
        plays and not seen.started and not over, status)


def round_list(table: Table, now: int) -> tuple[RoundTime, ...]:
    """The clock's time in each round the game counts, for the summary."""
    if table.broken:
        return ()
    return tuple(RoundTime("Before round 1" if number in (None, 0) else f"Round {number}",
                           duration(ms))
                 for number, ms in round_times(table.play, table.match, now))

