"""The matchup grid (issue 40, item 4): every unit of mine against every unit of theirs, each
cell the game's own exact quick-resolve."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from listbuilder.engine.library import Library
from listbuilder.engine.matchup import matchup
from listbuilder.engine.model import RosterEntry
from listbuilder.engine.resolve import quick_resolve, roster_sides

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = Library()
GAMES = ("hammerwars", "op40k", "warstuff", "actionhammer", "spaceempires")


@pytest.mark.parametrize("system_id", GAMES)
def test_each_cell_is_the_quick_resolve_of_its_pair(system_id: str) -> None:
    mine = LIBRARY.read_roster_file(ROOT / "examples" / system_id / "legal.yaml")
    system, catalog = mine.system, mine.catalog
    theirs = replace(mine.roster, entries=mine.roster.entries[::-1])
    grid = matchup(system, (catalog, mine.roster), (catalog, theirs))
    assert grid is not None
    rows = roster_sides(system, catalog, mine.roster)
    columns = roster_sides(system, catalog, theirs)
    assert len(grid.cells) == len(rows) == len(grid.attackers)
    assert all(len(row) == len(columns) == len(grid.defenders) for row in grid.cells)
    for i, (_, attacker) in enumerate(rows):
        for j, (_, defender) in enumerate(columns):
            assert not isinstance(attacker, Exception) and not isinstance(defender, Exception)
            result = quick_resolve(system, catalog, attacker, defender)
            cell = grid.cells[i][j]
            assert cell.mean == pytest.approx(float(result.outcome.mean))
            assert cell.summary == result.summary and cell.measure == result.outcome.title
            kill = result.outcome.p_kill
            assert cell.destroy == (None if kill is None else pytest.approx(float(kill)))
            assert not cell.problem


def test_a_unit_the_catalog_lacks_is_a_cell_saying_why() -> None:
    mine = LIBRARY.read_roster_file(ROOT / "examples" / "op40k" / "legal.yaml")
    lost = replace(mine.roster, entries=(RosterEntry(unit="Nobody Here", count=1),
                                         *mine.roster.entries))
    grid = matchup(mine.system, (mine.catalog, lost), (mine.catalog, mine.roster))
    assert grid is not None
    assert all("not in the catalog" in cell.problem for cell in grid.cells[0])
    assert not any(cell.problem for cell in grid.cells[1])
    assert grid.to_json()["cells"][0][0]["problem"]
