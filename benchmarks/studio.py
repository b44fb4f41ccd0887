"""The faction studio's costs: checking a pack as it is typed (each game's starter pack, a
different text each time, as every keystroke is), and reading a roster that carries a pack
(the first time a process meets the pack, and again).

    .venv/bin/python benchmarks/studio.py [--runs 20]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import click

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from machine import machine_speed  # noqa: E402

from listbuilder.engine import packs  # noqa: E402
from listbuilder.engine.library import Library  # noqa: E402
from listbuilder.engine.model import PackUse, Roster, RosterEntry  # noqa: E402
from listbuilder.engine.packs import Pack, check_pack  # noqa: E402
from listbuilder.engine.registry import all_systems, get_system  # noqa: E402
from listbuilder.engine.roster_file import dump_roster  # noqa: E402


def ms(seconds: list[float]) -> str:
    return f"{statistics.median(seconds) * 1000:6.1f} ms (best {min(seconds) * 1000:.1f})"


@click.command(help=__doc__.split("\n\n")[0])
@click.option("--runs", type=int, default=20)
def main(runs: int) -> None:
    library = Library(custom_dir=ROOT / "benchmarks" / "no-custom-data")
    print("checking a pack as typed (median of runs, each a new text):")
    for system in all_systems():
        base = library.loaded(system)
        starter = system.pack_starter()
        took = []
        for i in range(runs):
            text = f"{starter}\n# keystroke {i}\n"
            start = time.perf_counter()
            check = check_pack(system, base, Pack(system.id, "Bench", text))
            took.append(time.perf_counter() - start)
            assert check.ok, check.errors
        print(f"  {system.name:40} {ms(took)}")
    ah = get_system("actionhammer")
    use = PackUse(name="Bench", text=ah.pack_starter())
    catalog = library.catalog_with_packs(ah, [use])
    text = dump_roster(Roster(system="actionhammer", name="Bench", factions=("My Faction",),
                              entries=(RosterEntry(unit="My Troops", count=5),),
                              packs=(use,)), ah, catalog)
    first, again = [], []
    for _ in range(runs):
        packs._BUILT.clear()
        start = time.perf_counter()
        library.read_roster(text, "bench.yaml")
        first.append(time.perf_counter() - start)
        start = time.perf_counter()
        library.read_roster(text, "bench.yaml")
        again.append(time.perf_counter() - start)
    print("reading an ActionHammer roster that carries a pack:")
    print(f"  {'the pack met for the first time':40} {ms(first)}")
    print(f"  {'again (the pack built once a process)':40} {ms(again)}")
    print(f"this machine's speed: a fixed Python loop took {machine_speed():.0f} ms "
          f"(37-41 ms in its fast spells)")


if __name__ == "__main__":
    main()
