"""Server time of the roster page and of one change, per system, through Flask's test client:
this checkout beside an earlier one, measured side by side in one run.

Run: .venv/bin/python benchmarks/web.py [--against REV] [--repeat N] [--rounds R] [--workers]

`--against` (default 1f323c2, the commit before the roster report) is checked out in a
temporary `git worktree`; each round runs the same measurement once with each checkout, each in
a process of its own with PYTHONPATH pointing at its tree (which the process checks it
imported), alternating which goes first, so a change in the machine's speed falls on both.
`--against none` measures this checkout alone.

A measurement, for each system: start a roster, add a unit, load the page, make a few changes
to warm up, then time N page loads and N htmx "add" posts (loading the page after each, as a
player has it), and weigh the answers: an htmx change is answered with only the parts it
changed, a browser without JavaScript gets the whole page. A time is the CPU time the
request took on the thread that serves it (the test client serves on the caller's thread),
which other work on the machine leaves alone; the wall-clock time of the changes is printed
too. Printed: the median of every round's times of each checkout, and how many times quicker
this checkout is.

`--workers`: as a server of several workers answers (nginx spreads the requests): three apps
on one database and instance folder, the page loaded from the first, each change answered by
the second and the third in turn, so no change is answered by the worker that drew the page
or answered the change before. Each of them has drawn a roster page of the game before.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import click

ROOT = Path(__file__).resolve().parents[1]
BEFORE = "1f323c2"  # the commit before the roster report (issue 39)
WARM_UP = 3

CASES = (
    ("warstuff", (), 150, "Human Warrior"),
    ("op40k", ("Orks",), 500, "Ork Boyz"),
    ("hammerwars", ("Lizardmen",), None, "Assault Infantry"),
    ("actionhammer", ("Cobalt Brigade",), 2000, "Line Troopers"),
    ("spaceempires", ("Orks",), None, "Warboss"),
)


def hidden(html: str, name: str) -> str:
    found = re.search(rf'name="{name}" (?:type="hidden" )?value="([^"]+)"', html) or re.search(
        rf'id="{name}" name="{name}" type="hidden" value="([^"]+)"', html)
    if found is None:
        raise SystemExit(f"no {name} on the page: has the form changed?")
    return found[1]


def new_roster(client: Any, system: str, factions: tuple[str, ...], limit: int | None) -> str:
    """A new roster's edit token."""
    page = client.get(f"/new/{system}").get_data(as_text=True)
    form: dict[str, object] = {"csrf_token": hidden(page, "csrf_token"), "name": "Bench",
                               "factions": list(factions)}
    if limit:
        form["points_limit"] = limit
    return str(client.post(f"/new/{system}", data=form).headers["Location"].rsplit("/", 1)[1])


def measure(repeat: int, workers: bool = False) -> dict[str, Any]:
    """One checkout's times: per system, the page loads and the htmx changes (seconds);
    `workers`: the changes answered by other apps than the one the page is loaded from."""
    import listbuilder
    from listbuilder.settings import TestConfig
    from listbuilder.web import create_app

    tmp = Path(tempfile.mkdtemp())
    try:
        config = {k: getattr(TestConfig, k) for k in dir(TestConfig) if k.isupper()}
        config["DATABASE_URL"] = f"sqlite:///{tmp / 'rosters.db'}"
        apps = [create_app(config, instance_path=tmp / "instance")
                for _ in range(3 if workers else 1)]
        out: dict[str, Any] = {"imported": str(Path(listbuilder.__file__).resolve().parent)}
        for system, factions, limit, unit in CASES:
            client = apps[0].test_client()
            token = new_roster(client, system, factions, limit)
            answering = [client]
            if workers:  # the same browser on two other workers, each warmed on a roster
                answering = [a.test_client() for a in apps[1:]]
                cookie = client.get_cookie("session")
                for other in answering:
                    if cookie is not None:
                        other.set_cookie("session", cookie.value)
                    other.get(f"/r/{new_roster(client, system, factions, limit)}")
            html = client.get(f"/r/{token}").get_data(as_text=True)
            gets, posts, walls, sent = [], [], [], []
            for n in range(WARM_UP + repeat):
                body = {"csrf_token": hidden(html, "csrf_token"),
                        "version": hidden(html, "version"), "unit": unit}
                by = answering[n % len(answering)]
                wall, cpu = time.perf_counter(), time.thread_time()
                answer = by.post(f"/r/{token}/add", data=body, headers={"HX-Request": "true"})
                took, walled = time.thread_time() - cpu, time.perf_counter() - wall
                assert answer.status_code == 200, answer.status_code
                cpu = time.thread_time()
                html = client.get(f"/r/{token}").get_data(as_text=True)
                if n >= WARM_UP:
                    posts.append(took)
                    walls.append(walled)
                    gets.append(time.thread_time() - cpu)
                    sent.append(len(answer.get_data()))
            out[system] = {"get": gets, "post": posts, "wall": walls, "sent": sent,
                           "page": len(html)}
        return out
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def run_side(tree: Path, repeat: int, workers: bool) -> dict[str, Any]:
    """`measure` in a process of its own importing the checkout in `tree`."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(tree), *filter(None, [os.environ.get("PYTHONPATH", "")])])}
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--measure",
                           "--repeat", str(repeat), *(["--workers"] if workers else [])],
                          env=env, cwd=tree, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the measurement with {tree} failed:\n{done.stderr}")
    found: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    if Path(found["imported"]) != (tree / "listbuilder").resolve():
        raise SystemExit(f"the process for {tree} imported {found['imported']}: is "
                         f"listbuilder installed other than editable?")
    return found


def worktree(rev: str) -> Path:
    """A checkout of `rev` in a temporary folder (a `git worktree`, detached)."""
    folder = Path(tempfile.mkdtemp(prefix="listbuilder-against-")) / "tree"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet",
                    str(folder), rev], check=True)
    return folder


def ms(values: list[float]) -> float:
    return statistics.median(values) * 1000


@click.command(help=__doc__, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--against", default=BEFORE, show_default=True,
              help="The git revision to measure beside this checkout ('none': this one alone).")
@click.option("--repeat", type=int, default=20, show_default=True,
              help="Page loads and changes timed per system in each round.")
@click.option("--rounds", type=int, default=3, show_default=True,
              help="Rounds, each measuring both checkouts.")
@click.option("--workers", is_flag=True,
              help="Each change answered by another worker than the page's (three apps).")
@click.option("--measure", "measure_only", is_flag=True, hidden=True)
def main(against: str, repeat: int, rounds: int, workers: bool, measure_only: bool) -> None:
    if measure_only:  # inside a side's own process
        print(json.dumps(measure(repeat, workers)))
        return
    sides: dict[str, Path] = {"now": ROOT}
    other = None if against.casefold() == "none" else worktree(against)
    if other is not None:
        sides = {against: other, "now": ROOT}
    try:
        times: dict[str, dict[str, dict[str, list[float]]]] = {
            name: {s: {"get": [], "post": [], "wall": [], "sent": [], "page": []}
                   for s, *_ in CASES}
            for name in sides}
        for n in range(rounds):
            order = list(sides.items()) if n % 2 == 0 else list(sides.items())[::-1]
            for name, tree in order:
                found = run_side(tree, repeat, workers)
                for system, *_ in CASES:
                    for key in ("get", "post", "wall", "sent"):
                        times[name][system][key] += found[system][key]
                    times[name][system]["page"].append(found[system]["page"])
    finally:
        if other is not None:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                            str(other)], check=False)
            shutil.rmtree(other.parent, ignore_errors=True)
    print(f"median of {rounds} rounds x {repeat} per system, Flask test client, SQLite; "
          f"the roster grows by one unit each change"
          + ("; each change answered by another worker" if workers else "")
          + "; CPU ms (a change's wall-clock ms in brackets)")
    names = list(sides)
    for system, *_ in CASES:
        line = f"{system:13}"
        for name in names:
            t = times[name][system]
            line += (f"  {name}: page {ms(t['get']):5.1f}, change {ms(t['post']):5.1f} "
                     f"[{ms(t['wall']):5.1f}] ({statistics.median(t['sent']) / 1024:4.1f} KB)")
        if len(names) == 2:
            was, now = (ms(times[name][system]["post"]) for name in names)
            line += f"  change {was / now:4.2f}x quicker"
        print(line)
    if len(names) == 2:
        was, now = (sum(ms(times[name][s]["post"]) for s, *_ in CASES) for name in names)
        print(f"all five: a change {was:.1f} ms (at {names[0]}) -> {now:.1f} ms (now), "
              f"{was / now:.2f}x quicker")


if __name__ == "__main__":
    main()
