"""Property tests over roster files of all five systems: whatever the text, reading it gives
a roster or a list of problems that each name the file, never another exception; and every
roster that reads writes out to a file that reads back to the same bytes."""

from __future__ import annotations

import random
from pathlib import Path

from fuzzcorpus import catalog_names, mutate, roster_data, roster_text
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from listbuilder.engine.library import Library
from listbuilder.engine.report import report
from listbuilder.engine.roster_file import RosterFileError, dump_roster

LIBRARY = Library(custom_dir=Path(__file__).parent / "no-such-folder")
NAMES = catalog_names(LIBRARY)
FUZZ = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])


def read_or_problems(text: str) -> None:
    try:
        loaded = LIBRARY.read_roster(text, "fuzz.yaml")
    except RosterFileError as exc:
        assert exc.errors, "a refusal names at least one problem"
        assert all(str(e).startswith("fuzz.yaml") for e in exc.errors)
        assert all("Traceback" not in str(e) for e in exc.errors)
        return
    system, catalog, roster = loaded.system, loaded.catalog, loaded.roster
    report(system, catalog, roster)
    written = dump_roster(roster, system, catalog)
    again = LIBRARY.read_roster(written, "written.yaml")
    assert dump_roster(again.roster, again.system, again.catalog) == written


@FUZZ
@given(st.randoms(use_true_random=False))
def test_generated_rosters_read_or_say_why(rng: random.Random) -> None:
    read_or_problems(roster_text(rng, NAMES))


@FUZZ
@given(st.randoms(use_true_random=False), st.sampled_from([n.system for n in NAMES]))
def test_sensible_rosters_of_every_system_read_and_round_trip(rng: random.Random,
                                                              system_id: str) -> None:
    import yaml

    names = next(n for n in NAMES if n.system == system_id)
    text = yaml.safe_dump(roster_data(rng, names, odd_rate=0.0), sort_keys=False)
    read_or_problems(text)


@FUZZ
@given(st.text(max_size=400))
def test_any_unicode_text_reads_or_says_why(text: str) -> None:
    read_or_problems(text)


@FUZZ
@given(st.randoms(use_true_random=False))
def test_mutated_examples_read_or_say_why(rng: random.Random) -> None:
    examples = sorted((Path(__file__).resolve().parents[2] / "examples").rglob("*.yaml"))
    text = rng.choice(examples).read_text(encoding="utf-8")
    read_or_problems(mutate(rng, text, rng.randint(1, 6)))
