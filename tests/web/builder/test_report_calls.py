"""One change on the roster page asks its game a bounded number of questions: the roster before
the change and after it are each assessed whole (`engine.report`), every entry's unit looked
up once, whatever the parts of the page that read them. A count of work asked, not a time
(benchmarks/calls.py prints the same count; before the report an Add asked 79-734)."""

from __future__ import annotations

import pytest
from callcount import CASES, calls_of_an_add
from flask import Flask

MOST_CALLS = 60  # calls to the game's methods (and its builder's, cards' and resolver's)
MOST_LOOKUPS = 6  # `find_units`: the roster saved, read back, and each report's entries


@pytest.mark.parametrize(("system_id", "factions", "limit", "unit"), CASES,
                         ids=[case[0] for case in CASES])
def test_an_add_asks_the_game_a_bounded_number_of_questions(
        app: Flask, system_id: str, factions: tuple[str, ...], limit: int | None,
        unit: str) -> None:
    calls = calls_of_an_add(app, system_id, factions, limit, unit)
    assert sum(calls.values()) <= MOST_CALLS, calls.most_common()
    assert calls["find_units"] <= MOST_LOOKUPS, calls.most_common()
    assert "unit_of" not in calls  # no hook looks one entry's unit up on its own
