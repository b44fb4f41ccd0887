"""Cold time to load all five systems' data, in a fresh interpreter each run.

Run: .venv/bin/python benchmarks/load.py [--runs N]
"""

from __future__ import annotations

import statistics
import subprocess
import sys

import click

CODE = """
import time
t0 = time.perf_counter()
from listbuilder.engine.library import Library
from listbuilder.engine.registry import all_systems
t1 = time.perf_counter()
lib = Library()
counts = [len(lib.catalog(s).units) for s in all_systems()]
t2 = time.perf_counter()
print(f"{(t1 - t0) * 1000:.1f} {(t2 - t1) * 1000:.1f} {sum(counts)}")
"""


@click.command(help=__doc__, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--runs", type=int, default=7)
def main(runs: int) -> None:
    imports, loads = [], []
    units = 0
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True,
                             check=True).stdout.split()
        imports.append(float(out[0]))
        loads.append(float(out[1]))
        units = int(out[2])
    total = [a + b for a, b in zip(imports, loads, strict=True)]
    print(f"systems: 5, units loaded: {units}, runs: {runs} (fresh interpreter each)")
    print(f"import engine+systems: median {statistics.median(imports):.1f} ms")
    print(f"load+validate all data: median {statistics.median(loads):.1f} ms")
    print(f"cold total:            median {statistics.median(total):.1f} ms "
          f"(min {min(total):.1f}, max {max(total):.1f}; goal < 300 ms)")


if __name__ == "__main__":
    main()
