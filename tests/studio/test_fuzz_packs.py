"""Property tests over faction packs of all five games: whatever the text, the studio's check
gives the pack's problems (each naming the pack's file) or what it adds, never another
exception; and a roster carrying the pack reads or names its problems in the roster's file."""

from __future__ import annotations

import random
from pathlib import Path

from fuzzcorpus import pack_text
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from listbuilder.engine.library import Library
from listbuilder.engine.model import PackUse, Roster
from listbuilder.engine.packs import Pack, check_pack
from listbuilder.engine.registry import all_systems, get_system
from listbuilder.engine.roster_file import RosterFileError, dump_roster

LIBRARY = Library(custom_dir=Path(__file__).parent / "no-such-folder")
FUZZ = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SYSTEMS = [s.id for s in all_systems()]


@FUZZ
@given(st.randoms(use_true_random=False), st.sampled_from(SYSTEMS))
def test_any_pack_is_checked_into_problems_or_additions(rng: random.Random,
                                                        system_id: str) -> None:
    system = get_system(system_id)
    text = pack_text(rng, system_id)
    check = check_pack(system, LIBRARY.loaded(system), Pack(system_id, "Fuzz", text))
    if check.ok:
        assert check.loaded is not None
        return
    assert check.errors and all(e.file == "fuzz.yaml" for e in check.errors)
    assert all("Traceback" not in str(e) for e in check.errors)


@FUZZ
@given(st.randoms(use_true_random=False), st.sampled_from(SYSTEMS))
def test_a_roster_carrying_any_pack_reads_or_says_why(rng: random.Random,
                                                      system_id: str) -> None:
    system = get_system(system_id)
    use = PackUse(name="Fuzz", text=pack_text(rng, system_id))
    catalog = LIBRARY.catalog(system)
    text = dump_roster(Roster(system=system_id, name="Fuzz", packs=(use,)), system, catalog)
    try:
        loaded = LIBRARY.read_roster(text, "roster.yaml")
    except RosterFileError as exc:
        assert exc.errors and all(str(e).startswith("roster.yaml") for e in exc.errors)
        return
    written = dump_roster(loaded.roster, loaded.system, loaded.catalog)
    again = LIBRARY.read_roster(written, "written.yaml")
    assert dump_roster(again.roster, again.system, again.catalog) == written
