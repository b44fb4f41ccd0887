"""How many calls one change on the roster page makes to its game's methods, per game: one
htmx "Add" through Flask's test client on a roster holding one entry (the page loaded first),
counting every call to a method of the game's `RuleSystem` object and of the objects it hands
out (`builder()`, `cards()`, `resolver()`). A count of work asked, not a time: the same on any
machine. tests/web/builder/test_report_calls.py holds it under its bound.

Run: .venv/bin/python benchmarks/calls.py [--each] [--against REV] [--worker]

--each      the count of each method too
--against   count with an earlier checkout as well (a temporary `git worktree` of REV, counted
            in a process of its own with PYTHONPATH pointing at it), printed beside this one
--worker    the Add answered by another worker than the one that drew the page (a second app
            on the same database and instance folder), as a server of several workers often
            answers: nothing that worker kept of the page helps it
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

import click

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "tools"))

from callcount import CASES  # noqa: E402


def count(worker: bool = False) -> dict[str, dict[str, int]]:
    """Each game's calls, by method, with the checkout on sys.path; `worker`: the Add
    answered by a second app."""
    from callcount import calls_of_an_add

    from listbuilder.settings import TestConfig
    from listbuilder.web import create_app

    tmp = Path(tempfile.mkdtemp())
    try:
        config = {k: getattr(TestConfig, k) for k in dir(TestConfig) if k.isupper()}
        config["DATABASE_URL"] = f"sqlite:///{tmp / 'rosters.db'}"
        app = create_app(config, instance_path=tmp / "instance")
        other = create_app(config, instance_path=tmp / "instance") if worker else None
        return {system: dict(calls_of_an_add(app, system, factions, limit, unit, other))
                for system, factions, limit, unit in CASES}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def count_at(rev: str, worker: bool) -> dict[str, dict[str, int]]:
    """`count` with the checkout of `rev`, in a process of its own."""
    folder = Path(tempfile.mkdtemp(prefix="listbuilder-calls-")) / "tree"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet",
                    str(folder), rev], check=True)
    try:
        env = {**os.environ, "PYTHONPATH": str(folder)}
        done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--count",
                               *(["--worker"] if worker else [])],
                              env=env, cwd=folder, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise SystemExit(f"counting with {rev} failed:\n{done.stderr}")
        found: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
        if Path(str(found.pop("imported"))) != (folder / "listbuilder").resolve():
            raise SystemExit(f"the process for {rev} did not import its checkout")
        return found  # type: ignore[return-value]
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(folder)],
                       check=False)
        shutil.rmtree(folder.parent, ignore_errors=True)


def lookups(calls: dict[str, int]) -> int:
    return calls.get("unit_of", 0) + calls.get("find_units", 0)


@click.command(help=__doc__, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--each", is_flag=True, help="List the calls of each method too.")
@click.option("--against", default="", help="Count with this git revision as well.")
@click.option("--worker", is_flag=True, help="The Add answered by another worker.")
@click.option("--count", "count_only", is_flag=True, hidden=True)
def main(each: bool, against: str, worker: bool, count_only: bool) -> None:
    if count_only:  # inside the process of an earlier checkout
        import listbuilder

        print(json.dumps({"imported": str(Path(listbuilder.__file__).resolve().parent),
                          **count(worker)}))
        return
    now = count(worker)
    was = count_at(against, worker) if against else None
    print("game-method calls of one htmx Add (a roster of one entry, the page loaded first"
          + (" by another worker)" if worker else ")"))
    for system, *_ in CASES:
        calls = now[system]
        line = f"{system:13} {sum(calls.values()):4} calls, {lookups(calls):3} unit lookups"
        if was is not None:
            old = was[system]
            line = (f"{system:13} {against}: {sum(old.values()):4} calls, {lookups(old):3} unit "
                    f"lookups   now: {sum(calls.values()):4} calls, {lookups(calls):3} unit "
                    f"lookups")
        print(line)
        if each:
            for name, n in Counter(calls).most_common():
                print(f"{'':15}{n:4} {name}")


if __name__ == "__main__":
    main()
