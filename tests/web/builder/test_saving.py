"""What a change saves (`rosters.canonical`): always a file the roster reader takes back, so a
change whose file it would refuse is refused instead, saying why and what to do."""

from __future__ import annotations

import pytest

from listbuilder.engine.library import Library
from listbuilder.engine.model import Roster, RosterEntry
from listbuilder.engine.registry import get_system
from listbuilder.engine.roster_file import MAX_ROSTER_BYTES
from listbuilder.web import rosters


def test_a_roster_whose_file_would_be_too_big_to_import_is_refused() -> None:
    system = get_system("op40k")
    catalog = Library().catalog(system)
    entry = RosterEntry(unit="Ork Boyz", count=10,
                        upgrades=tuple(f"An upgrade with a long name {n}" for n in range(50)))
    roster = Roster(system="op40k", name="Big", factions=("Orks",), entries=(entry,) * 500)
    with pytest.raises(rosters.RosterShapeError) as refused:
        rosters.canonical(roster, system, catalog)
    assert str(refused.value) == (
        f"the roster's file would be larger than {MAX_ROSTER_BYTES // 1024} KB, the most a "
        f"roster file may be: remove some units or upgrades")
    # the same roster with fewer entries is only refused for what is wrong in it
    with pytest.raises(rosters.RosterShapeError, match="Ork Boyz has no upgrade"):
        rosters.canonical(Roster(system="op40k", name="Big", factions=("Orks",),
                                 entries=(entry,) * 5), system, catalog)
