"""The attacker the log last named: an event that says which unit made it (`by`, the
attacker's number in its own side's roster, the other side from the event's) lets the odds
page open on that unit without being told."""

from __future__ import annotations

from listbuilder.engine.match import other
from listbuilder.web.table.matches import Table


def attacker_of(table: Table) -> tuple[int, int] | None:
    """(side, unit) of the attacker the newest event naming one (`by`) names; None when no
    event in the log does."""
    for ev in reversed(table.match.events):
        by = ev.get("by")
        if ev.side in (1, 2) and isinstance(by, int) and not isinstance(by, bool):
            return other(ev.side), by
    return None
