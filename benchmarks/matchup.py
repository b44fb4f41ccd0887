"""The matchup grid's speed (issue 40, item 4): two rosters of 20 units each, every unit of
one against every unit of the other (400 exact quick-resolves), in each game.

Run: .venv/bin/python benchmarks/matchup.py [--units 20] [--runs 5]
Goal: under 0.5 s for a grid of 20 x 20 on this machine, the first one included.

Each roster takes 20 different units of the catalog (from its start for one side, from its
end for the other), each at the count a new entry starts with on the roster page; the
figures say how many of the 400 pairs were different.
"""

from __future__ import annotations

import statistics
import time
from itertools import cycle, islice

import click

from listbuilder.engine.library import Library
from listbuilder.engine.matchup import matchup
from listbuilder.engine.model import Catalog, Roster, RosterEntry
from listbuilder.engine.registry import get_system
from listbuilder.engine.system import RuleSystem

GAMES = ("hammerwars", "op40k", "warstuff", "actionhammer", "spaceempires")


def roster(system: RuleSystem, catalog: Catalog, units: int, which: int) -> Roster:
    """`units` different units where the catalog has them (side 1 from its start, side 2 from
    its end, each with its faction named), so that no pair is a repeat of another; a catalog
    with fewer units than that is cycled."""
    pool = sorted(catalog.units, key=lambda u: (u.faction or "", u.name))
    if which:
        pool.reverse()
    builder = system.builder()
    entries = tuple(RosterEntry(unit=u.name, count=builder.default_count(u), faction=u.faction)
                    for u in islice(cycle(pool), units))
    factions = tuple(sorted({e.faction for e in entries if e.faction}))
    return Roster(system=system.id, name=f"side {which + 1}", factions=factions,
                  entries=entries)


@click.command()
@click.option("--units", default=20, show_default=True, help="Units in each roster.")
@click.option("--runs", default=5, show_default=True, help="Grids timed after the first.")
def main(units: int, runs: int) -> None:
    library = Library()
    print(f"matchup grid, {units} x {units} units, exact; seconds (goal: under 0.5)")
    for system_id in GAMES:
        system = get_system(system_id)
        catalog = library.catalog(system)
        mine, theirs = roster(system, catalog, units, 0), roster(system, catalog, units, 1)
        start = time.perf_counter()
        grid = matchup(system, (catalog, mine), (catalog, theirs))
        first = time.perf_counter() - start
        if grid is None:
            print(f"{system_id:13} no quick-resolve")
            continue
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            matchup(system, (catalog, mine), (catalog, theirs))
            times.append(time.perf_counter() - start)
        answered = sum(not c.problem for row in grid.cells for c in row)
        pairs = len({(a.unit, d.unit) for a in mine.entries for d in theirs.entries})
        print(f"{system_id:13} first {first:.3f} s, then median {statistics.median(times):.3f} "
              f"s; {answered} of {len(grid.cells) * len(grid.defenders)} pairs answered, "
              f"{pairs} different")


if __name__ == "__main__":
    main()
