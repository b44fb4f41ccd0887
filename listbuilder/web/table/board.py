"""The board a phone shows: the score, each side's units with what they may do next, the
game's own actions and the log, laid out from the rules of play (`Play.offers`, `units`,
`outcome`) so that templates only draw.

The rules hand out every event they allow now (`offers`): "Activate: Hold" and "Activate:
Run", a shot removing 1 model and one removing 13. Taps are grouped by kind, unit and the
values they name: what is the same in every event of a group is fixed, and what varies
becomes the thing to pick: a button each for yes/no or a few words, a list for many words, a
number box (from the least to the most offered) for a count. The first value offered is the
one a box or list shows before the player changes it (a unit's own stance, say).

Beside each tap go the rules reminders the game gives for the events it stands for
(`engine/reminders.py`): the rosters are read once a board, each tap asks for its own events.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from listbuilder.engine.match import (
    BY,
    Event,
    Kind,
    Standing,
    Value,
    attacker_name,
    describe,
    labelled,
    unit_name,
)
from listbuilder.engine.reminders import Reminder, Reminding, reminding
from listbuilder.engine.word_counts import WordCounts, counted_value, counts
from listbuilder.web.table.attacker import attacker_of
from listbuilder.web.table.matches import Table

FEW_WORDS = 4  # up to this many word choices are buttons; more are a list
ENDING = ("concede",)  # kinds that end the game at a side's word: behind a fold of their own


@dataclass(frozen=True)
class Pick:
    """A value the player picks before tapping: a number box, a list, or (`counts`) a number
    box for each word of a list of picks (engine/word_counts.py), `high` of them in all."""

    name: str
    label: str
    kind: str  # "number", "list" or "counts"
    value: Value
    low: int | None = None
    high: int | None = None
    options: tuple[str, ...] = ()
    counts: tuple[tuple[str, int], ...] = ()  # "counts": each word and the most of it
    labels: tuple[str, ...] = ()  # a list's options as the player reads them (unit names)


@dataclass(frozen=True)
class Tap:
    """One button: a form posting an event, with its fixed values and what is left to pick."""

    label: str
    kind: str
    side: int | None
    unit: int | None
    fixed: tuple[tuple[str, str], ...]  # v_<name> -> the value as the form sends it
    picks: tuple[Pick, ...] = ()
    listed: WordCounts | None = None  # a list of picks: the button's words as it grows
    reminders: tuple[Reminder, ...] = ()  # the special rules that bear on it, drawn beside
    # a run of buttons of one kind and unit with the same reminders ("Activate: Hold", ...
    # "Activate: Run" of a Leader) shares one list, drawn once after the run's last button:
    # the run's key (its last button's), and whether this button is the last
    shared: str = ""
    last: bool = False

    @property
    def key(self) -> str:
        """What tells this tap from the others of its unit, for its reminders' id."""
        said = "|".join([self.kind, *(f"{n}={v}" for n, v in self.fixed),
                         *(p.name for p in self.picks)])
        return f"{zlib.crc32(said.encode()):08x}"


@dataclass(frozen=True)
class UnitRow:
    side: int
    unit: int
    name: str
    alive: bool
    taps: tuple[Tap, ...]
    current: bool = False
    copy: int = 0  # which of the entry's copies, for a game that plays them apart (WarStuff)
    standing: Standing = field(default_factory=Standing)  # drawn: tracks, chips, details

    @property
    def key(self) -> str:
        return f"u{self.side}-{self.unit}" + (f"-{self.copy}" if self.copy else "")


@dataclass(frozen=True)
class SideView:
    side: int
    name: str
    mine: bool
    units: tuple[UnitRow, ...]
    taps: tuple[Tap, ...]  # the side's own actions (not one unit's)
    ending: tuple[Tap, ...] = ()  # conceding: folded away, so no stray tap ends the game


@dataclass(frozen=True)
class LogLine:
    position: int
    words: str
    side: int | None
    at: str


@dataclass(frozen=True)
class Board:
    headline: str
    over: bool
    winner: str
    scores: tuple[tuple[str, tuple[tuple[str, int], ...]], ...]
    sides: tuple[SideView, ...]
    game_taps: tuple[Tap, ...]  # the game's own (a round ends)
    log: tuple[LogLine, ...] = field(default_factory=tuple)
    last: str = ""  # the last event, in words: what undo takes back
    broken: str = ""
    next: str = ""  # whose move and what the rules expect ("Ben: activate a unit")
    # the unit the log last named as an attacker (`by`), while it is in play: each enemy
    # row offers its odds against that row's unit
    attacker: UnitRow | None = None

    def targets(self, side: int) -> tuple[UnitRow, ...]:
        """The units of `side` a unit of the other side may be asked odds against: those in
        play, one row an entry (a WarStuff entry's copies are one unit to the odds)."""
        return tuple(row for view in self.sides if view.side == side for row in view.units
                     if row.alive and row.copy <= 1)


def form_value(value: Value) -> str:
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return str(value)


def taps(table: Table, events: Sequence[Event],
         reminded: Reminding | None = None) -> tuple[Tap, ...]:
    """The buttons for `events` (the offers of one side, unit or the game), grouped; each with
    the reminders `reminded` gives for the events it stands for."""
    def said(stands_for: Sequence[Event]) -> tuple[Reminder, ...]:
        return reminded.of(stands_for) if reminded else ()

    # an event that names other values is another button (an assault on a vehicle gives its
    # damage roll, one on a unit the models it killed)
    groups: dict[tuple[str, int | None, int | None, tuple[str, ...]], list[Event]] = {}
    for ev in events:
        named = tuple(name for name, _ in ev.values)
        groups.setdefault((ev.kind, ev.side, ev.unit, named), []).append(ev)
    out: list[Tap] = []
    for (kind, side, unit, named), group in groups.items():
        the_kind = table.play.kinds.get(kind)
        label = the_kind.label if the_kind else kind
        names = list(named)
        seen: dict[str, list[Value]] = {n: [] for n in names}
        for ev in group:
            for name, value in ev.values:
                if value not in seen[name]:
                    seen[name].append(value)
        listed = counted_value(table.play, kind)
        if listed is not None and listed.value in names:
            out.append(replace(_listed_tap(the_kind, label, kind, side, unit, listed, group),
                               reminders=said(group)))
            continue
        varying = [n for n in names if len(seen[n]) > 1]
        fixed = tuple((n, form_value(seen[n][0])) for n in names if n not in varying)
        attacker = attacker_name(table.match, side, seen[BY][0]) \
            if BY in names and BY not in varying else ""
        if attacker:  # one unit may have done it: say which
            label = f"{label} by {attacker}"
        if not varying:
            out.append(Tap(label, kind, side, unit, fixed, reminders=said(group)))
            continue
        one = varying[0] if len(varying) == 1 else None
        values = seen[one] if one else []
        if one and (all(isinstance(v, bool) for v in values)
                    or (all(isinstance(v, str) for v in values) and len(values) <= FEW_WORDS)):
            run = [Tap(labelled(the_kind, kind, [(one, v)]), kind, side, unit,
                       (*fixed, (one, form_value(v))),
                       reminders=said([ev for ev in group if ev.get(one) == v]))
                   for v in values]
            if len(run) > 1 and run[0].reminders and \
                    all(t.reminders == run[0].reminders for t in run):
                run = [replace(t, shared=run[-1].key, last=t is run[-1]) for t in run]
            out += run
            continue
        picks = []
        for name in varying:
            vs = seen[name]
            asked = the_kind.asks.get(name) if the_kind else None
            words = asked or name.replace("_", " ")
            if name == BY and side is not None and all(
                    attacker_name(table.match, side, v) for v in vs):
                # the units that may have acted, by name
                picks.append(Pick(name, words, "list", form_value(vs[0]),
                                  options=tuple(form_value(v) for v in vs),
                                  labels=tuple(attacker_name(table.match, side, v)
                                               for v in vs)))
            elif all(isinstance(v, int) and not isinstance(v, bool) for v in vs):
                # the offers hold each number's least and most, so the box is bounded both
                # ways (ActionHammer's objective box had no most)
                ints = [int(v) for v in vs]
                picks.append(Pick(name, words, "number", ints[0], min(ints), max(ints)))
            else:
                picks.append(Pick(name, words, "list", form_value(vs[0]),
                                  options=tuple(form_value(v) for v in vs)))
        out.append(Tap(label, kind, side, unit, fixed, tuple(picks), reminders=said(group)))
    return tuple(out)


def _listed_tap(the_kind: Kind | None, label: str, kind: str, side: int | None,
                unit: int | None, listed: WordCounts, group: Sequence[Event]) -> Tap:
    """One button for a list of picks: a box a word, up to the most of it any offer holds,
    and no more words in all than the longest offer (the rules offer each word at its most,
    and the most in all). The other values are the first offer's."""
    picked = [counts(str(ev.get(listed.value, ""))) for ev in group]
    most: dict[str, int] = {}
    for one in picked:
        for word, n in one.items():
            most[word] = max(most.get(word, 0), n)
    fixed = tuple((n, form_value(v)) for n, v in group[0].values if n != listed.value)
    asked = the_kind.asks.get(listed.value) if the_kind else None
    pick = Pick(listed.value, asked or listed.value.replace("_", " "), "counts", 0, 0,
                max(sum(one.values()) for one in picked), counts=tuple(most.items()))
    return Tap(listed.none or label, kind, side, unit, fixed, (pick,), listed)
def recorded(table: Table, events: Sequence[Event],
             attacker: tuple[int, int] | None) -> tuple[Tap, ...]:
    """The target's buttons under quick-resolve's answer: its reminders read with the
    attacker known, so that only that unit's rules are named, not every enemy's."""
    reminded = reminding(table.system, table.match) if events else None
    if reminded and attacker:
        reminded = reminded.facing(attacker)
    return taps(table, events, reminded)


def board(table: Table, current: tuple[int, int] | None = None) -> Board:
    play, match, state = table.play, table.match, table.state
    outcome = table.outcome
    choices = [] if table.watching or outcome.over or table.broken else play.offers(state)
    by_unit: dict[tuple[int, int], list[Event]] = {}
    by_side: dict[int, list[Event]] = {}
    game: list[Event] = []
    for ev in choices:
        if ev.side is None:
            game.append(ev)
        elif ev.unit is None:
            by_side.setdefault(ev.side, []).append(ev)
        else:
            by_unit.setdefault((ev.side, ev.unit), []).append(ev)
    current = current or play.current(state)
    reminded = reminding(table.system, match) if choices else None
    sides = []
    order = sorted(range(1, len(match.players) + 1), key=lambda s: s != table.side)
    for side in order:
        player = match.players[side - 1]
        rows = tuple(_row(table, side, unit, by_unit.get((side, unit["unit"]), []), current,
                          reminded)
                     for unit in play.units(state, side))
        own = by_side.get(side, [])
        sides.append(SideView(side, player.name, side == table.side, rows,
                              taps(table, [ev for ev in own if ev.kind not in ENDING], reminded),
                              taps(table, [ev for ev in own if ev.kind in ENDING])))
    names = [p.name for p in match.players]
    scores = tuple((label, tuple(zip(names, values, strict=False)))
                   for label, values in outcome.scores)
    log = tuple(LogLine(i, describe(match, play, logged.event), logged.side,
                        logged.at.strftime("%H:%M"))
                for i, logged in enumerate(table.stored.log, 1))
    winner = names[outcome.winner - 1] if outcome.over and outcome.winner else ""
    broken = str(table.broken) if table.broken else ""
    acting, expected = (None, "") if outcome.over or table.broken else play.acting(state)
    who = names[acting - 1] if acting and 1 <= acting <= len(names) else ""
    next_line = f"{who}: {expected}" if who and expected else expected[:1].upper() + expected[1:]
    named = attacker_of(table)
    attacker = next((replace(row, name=unit_name(match, row.side, row.unit))
                     for view in sides for row in view.units
                     if row.alive and (row.side, row.unit) == named), None)
    return Board(outcome.reason, outcome.over, winner, scores, tuple(sides),
                 taps(table, game), tuple(reversed(log)), log[-1].words if log else "", broken,
                 next_line, attacker)


def _row(table: Table, side: int, unit: Mapping[str, Any], choices: list[Event],
         current: tuple[int, int] | None, reminded: Reminding | None) -> UnitRow:
    number = int(unit["unit"])
    copy = int(unit.get("copy") or 0)
    if copy:  # one row a copy: its own taps
        choices = [ev for ev in choices if ev.get("copy") in (None, copy)]
        unit = {k: v for k, v in unit.items() if k not in ("copy", "copies")} | {
            "name": f"{unit['name']} ({copy} of {unit.get('copies', copy)})"
            if int(unit.get("copies") or 1) > 1 else str(unit["name"])}
    return UnitRow(side, number, str(unit["name"]), bool(unit.get("alive", True)),
                   taps(table, choices, reminded), current == (side, number), copy,
                   table.play.standing(unit))
