"""Undo and redo on the roster page, worked out from the roster's last saves.

Every save is kept in the roster's history (storage: `roster_history`, the last
`HISTORY_KEPT`) with what it changed in words and its kind: an edit, an undo or a redo. The
undo and redo stacks are not stored: they are what replaying that history gives. An edit
pushes onto the undo stack and empties the redo stack; an undo moves the top of the undo stack
to the redo stack, a redo moves it back. An undo or a redo is itself a save (a new version),
so another tab or device meets it as it meets any change, and a stale page is refused the
same way.

The history is the roster's, not a page's: undo undoes the roster's last change, whichever
device made it (docs/builder.md, "Undo and redo").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from listbuilder.engine.model import Roster, RosterEntry

HISTORY_KEPT = 30  # a roster's last saves kept for undo and redo (roster_history)


@dataclass(frozen=True)
class HistoryStep:
    """One of a roster's last saves, without its text: what undo and redo replay."""

    version: int
    label: str  # the change, in words ("Add Trukk"); for an undo or redo, the change undone
    kind: str  # edit, undo or redo


# How far back undo surely reaches: each undo is a save too, and takes a place in the history
# kept, so undoing one change after another reaches back over half of it.
UNDO_REACH = HISTORY_KEPT // 2


@dataclass(frozen=True)
class Undoable:
    """A change that can be undone or redone: its words, and the versions whose texts the
    roster had before it and after it."""

    label: str
    before: int
    after: int


@dataclass(frozen=True)
class Stacks:
    undo: tuple[Undoable, ...] = ()
    redo: tuple[Undoable, ...] = ()

    @property
    def next_undo(self) -> Undoable | None:
        return self.undo[-1] if self.undo else None

    @property
    def next_redo(self) -> Undoable | None:
        return self.redo[-1] if self.redo else None


def replay(steps: Iterable[HistoryStep], current: int) -> Stacks:
    """The undo and redo stacks at version `current`, from the history kept (in any order).

    The history starts at its oldest row kept: that row's own change is not known any more,
    so it cannot be undone. An undo or redo whose change was pushed before that row still
    carries the change's words, and the rows on either side of it are its texts: it is
    replayed as if its change were there. A version missing in the middle (a row lost) starts
    the history afresh from the row after it, and a history that does not reach `current`
    gives nothing to undo."""
    undo: list[Undoable] = []
    redo: list[Undoable] = []
    previous: int | None = None
    for step in sorted(steps, key=lambda s: s.version):
        if previous is None or step.version != previous + 1:
            undo, redo = [], []
        elif step.kind == "undo":
            redo.append(undo.pop() if undo else Undoable(step.label, step.version, previous))
        elif step.kind == "redo":
            undo.append(redo.pop() if redo else Undoable(step.label, previous, step.version))
        else:
            undo.append(Undoable(step.label, previous, step.version))
            redo = []
        previous = step.version
    if previous != current:
        return Stacks()
    return Stacks(tuple(undo), tuple(redo))


def replay_until(steps: Sequence[HistoryStep], version: int) -> Stacks:
    """The stacks as they were at an older version (what a stale page's buttons named)."""
    return replay([s for s in steps if s.version <= version], version)


# -- what a change is called in the history ---------------------------------------------------

def unit_name(key: str) -> str:
    """The unit's name from a form's unit key ("Ork Boyz|Orks")."""
    return key.split("|")[0] or "a unit"


def entry_label(before: Roster, after: Roster, index: int, count_label: str) -> str:
    """A change to one entry's size or upgrades: "Size of Ork Boyz: 10", "Ork Boyz: add Boss
    Nob", or "Change Ork Boyz" when it changed several things at once."""
    if not (0 <= index < len(before.entries) and index < len(after.entries)):
        return "Change a unit"
    old, new = before.entries[index], after.entries[index]
    what = _entry_changes(old, new, count_label)
    return what[0] if len(what) == 1 else f"Change {new.unit}"


def _entry_changes(old: RosterEntry, new: RosterEntry, count_label: str) -> list[str]:
    out = []
    if new.count != old.count:
        out.append(f"{count_label[:1].upper()}{count_label[1:]} of {new.unit}: {new.count}")
    added = [u for u in new.upgrades if u not in old.upgrades]
    dropped = [u for u in old.upgrades if u not in new.upgrades]
    if added:
        out.append(f"{new.unit}: add {', '.join(added)}")
    if dropped:
        out.append(f"{new.unit}: drop {', '.join(dropped)}")
    return out


def settings_label(before: Roster, after: Roster) -> str:
    """A change of the roster's name, factions or points limit, in that order."""
    out = []
    if after.name != before.name:
        out.append(f"Rename to {after.name}")
    if after.factions != before.factions:
        out.append(f"Factions: {', '.join(after.factions) or 'none'}")
    if after.points_limit != before.points_limit:
        out.append(f"Points limit: {after.points_limit}" if after.points_limit
                   else "No points limit")
    return "; ".join(out) or "Settings"
