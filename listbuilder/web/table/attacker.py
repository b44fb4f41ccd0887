"""The attacker the match's log names last, which the odds panel follows when it is asked for
odds against a unit without saying who attacks."""

from __future__ import annotations

from listbuilder.engine.match import other
from listbuilder.web.table.matches import Table


def attacker_of(table: Table) -> tuple[int, int] | None:
    """(side, unit) of the attacker the newest event naming one names: its `by` value, a
    unit's number in the roster of the side other than the event's (an event's side is its
    target's). None while no event names an attacker."""
    for ev in reversed(table.match.events):
        by = ev.get("by")
        if isinstance(by, int) and not isinstance(by, bool) and ev.side in (1, 2):
            return other(ev.side), by
    return None
