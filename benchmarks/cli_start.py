"""How long a `listbuilder` command takes to start: `listbuilder db --help` in a fresh
interpreter each run, beside a bare `python -c pass` and an import of the print queue's worker
(what the command line left out: Huey, Redis, psycopg, SQLAlchemy and the printing), as the
references to read it against on this machine, whose speed moves between spells.

Run: .venv/bin/python benchmarks/cli_start.py [--runs N]
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

import click

CASES = {
    "python -c pass": "pass",
    "listbuilder db --help": "import sys; sys.argv = ['listbuilder', 'db', '--help']\n"
                             "from listbuilder.commands.cli import main\n"
                             "try:\n    main()\nexcept SystemExit:\n    pass",
    "import listbuilder.jobs.printer": "import listbuilder.jobs.printer",
}


def once(code: str) -> float:
    began = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - began


@click.command(help=__doc__, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--runs", type=int, default=7)
def main(runs: int) -> None:
    times: dict[str, list[float]] = {name: [] for name in CASES}
    for _ in range(runs):  # interleaved, so that a slow spell falls on every case alike
        for name, code in CASES.items():
            times[name].append(once(code))
    bare = statistics.median(times["python -c pass"])
    print(f"runs: {runs} each, interleaved, a fresh interpreter each run")
    for name, taken in times.items():
        median = statistics.median(taken)
        print(f"{name:34} median {median * 1000:6.0f} ms  ({median / bare:.1f}x python -c pass)")


if __name__ == "__main__":
    main()
