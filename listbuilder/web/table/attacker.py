"""The attacker the log last named: the odds page starts from it when none is asked for."""

from __future__ import annotations

from listbuilder.engine.match import other
from listbuilder.web.table.matches import Table


def attacker_of(table: Table) -> tuple[int, int] | None:
    """(side, unit) of the attacker named by the newest event with a `by` value: its unit
    number in the roster of the side other than the event's (the target's); None when no
    event names one."""
    for ev in reversed(table.match.events):
        by = ev.get("by")
        if isinstance(by, int) and not isinstance(by, bool) and ev.side in (1, 2):
            return other(ev.side), by
    return None
