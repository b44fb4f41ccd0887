"""Which unit the odds page starts from: the attacker the log last named.

An event that names its attacker carries `by`, the attacker's number in its own roster; the
event's `side` is the target's, so the attacker is on the other side. The same for every
game: a game that names no attackers gives None, and the page asks as before.
"""

from __future__ import annotations

from listbuilder.engine.match import other
from listbuilder.web.table.matches import Table


def attacker_of(table: Table) -> tuple[int, int] | None:
    """(side, unit) of the attacker named by the newest event of `table`'s match that names
    one (`by`); None when no event does."""
    for ev in reversed(table.match.events):
        by = ev.get("by")
        if isinstance(by, int) and not isinstance(by, bool) and ev.side in (1, 2):
            return other(ev.side), by
    return None
