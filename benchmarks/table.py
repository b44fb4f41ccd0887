"""The match tracker's server time (issue 40): each game's example log played tap by tap
through the app (a real SQLite file, the CSRF check, the rules replaying the log), then the
match page, the board a phone asks for when the match changed, and the poll that finds
nothing new (204).

Then a tap's cost as a match grows (issue 50): a long Space Empires match (the example's
rosters, events the rules allow picked by a seeded walk) tapped through the app, and the tap
near event 10 against the tap near event 150, in one run, in CPU time (`tap_cost`). A tap
should cost about the same late as early (at most 1.5x): it must not replay the whole log.

Run: .venv/bin/python benchmarks/table.py
A tap is answered with the whole board; both phones poll every 2.5 s, so the 204 is what a
quiet table costs.
"""

from __future__ import annotations

import io
import random
import re
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml
from flask.testing import FlaskClient

from listbuilder.engine.library import Library
from listbuilder.engine.match import Event, Match, push, replay
from listbuilder.engine.match_file import read_match
from listbuilder.engine.registry import get_system
from listbuilder.settings import TestConfig
from listbuilder.web import create_app

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("hammerwars", "op40k", "warstuff", "actionhammer", "spaceempires")
LONG = 160  # events in the long match; taps are compared near EARLY and near LATE
EARLY, LATE, AROUND = 10, 150, 5  # the median of the taps within AROUND of each
RUNS = 3  # matches of that log played, each tap's least time kept


def _csrf(html: str) -> str:
    found = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', html)
    assert found is not None
    return found[1]


def _timed(call: Any, *args: Any, clock: Any = time.perf_counter, **kwargs: Any
           ) -> tuple[Any, float]:
    began = clock()
    out = call(*args, **kwargs)
    return out, float(clock() - began)


def _started(client: FlaskClient, data: dict[str, Any]) -> str:
    """A match of the example's two rosters and options, started through the app: side 1's
    address."""
    edits = []
    for player in data["players"]:
        home = client.get("/").get_data(as_text=True)
        made = client.post("/import", data={
            "csrf_token": _csrf(home),
            "file": (io.BytesIO(player["roster"].encode()), "roster.yaml")},
            content_type="multipart/form-data")
        edits.append(made.headers["Location"])
    page = client.get(edits[1]).get_data(as_text=True)
    share = re.search(r'id="share-link"[^>]*value="([^"]+)"', page)
    assert share is not None
    page = client.get(edits[0] + "/play").get_data(as_text=True)
    options = {f"opt_{k}": v for k, v in (data.get("options") or {}).items()}
    return str(client.post(edits[0] + "/play", data={
        "csrf_token": _csrf(page), "me": "A", "opponent": "B", "source": "link",
        "link": share[1], **options}).headers["Location"]).split("?")[0]


def _tap(client: FlaskClient, match: str, token: str, ev: dict[str, Any],
         clock: Any = time.perf_counter) -> float:
    """One event posted as a phone posts it (`id` too, when given): how long it took."""
    form: dict[str, Any] = {"csrf_token": token, "base": "1", "kind": ev["kind"]}
    for key, value in ev.items():
        if key in ("side", "unit", "id"):
            form[key] = value
        elif key != "kind":
            form[f"v_{key}"] = ("yes" if value else "no") if isinstance(value, bool) \
                else value
    answer, took = _timed(client.post, match + "/event", data=form, headers={"X-Table": "1"},
                          clock=clock)
    assert answer.status_code == 200, answer.get_data(as_text=True)[:300]
    return took


def long_log(data: dict[str, Any], length: int, seed: int = 7) -> list[Event]:
    """A Space Empires log of `length` events the rules allow, from the example's rosters:
    a seeded walk over `Play.choices`, never conceding or taking a planet, so that the game
    goes on (a planet victory ends the example at 56)."""
    header = read_match(yaml.safe_dump({**data, "events": []}), "the example",
                        Library().read_roster).match
    play = get_system(header.system).play()
    assert play is not None
    match = Match(header.system, header.players, (), header.options)
    state = replay(play, match)
    rng = random.Random(seed)
    while len(match.events) < length:
        allowed = [ev for ev in play.offers(state) if ev.kind not in ("concede", "capture")]
        assert allowed and not play.outcome(state).over, len(match.events)
        match, state = push(play, match, state, rng.choice(allowed))
    return list(match.events)


def tap_cost(client: FlaskClient) -> tuple[float, float]:
    """The tap near event EARLY and near event LATE of a long Space Empires match, in
    seconds of this process's CPU (the app, SQLite and the test client all run in it): the
    median over the taps around each of the least each took in RUNS matches of the same log.
    CPU time and the least of a few: what the tap costs, not what else the machine did."""
    data = yaml.safe_load((ROOT / "examples" / "spaceempires" / "match.yaml")
                          .read_text("utf-8"))
    log = long_log(data, LONG)
    runs = []
    for _ in range(RUNS):
        match = _started(client, data)
        token = _csrf(client.get(match).get_data(as_text=True))
        runs.append([_tap(client, match, token, {**ev.to_data(), "id": f"bench-{n}"},
                          clock=time.process_time) for n, ev in enumerate(log, 1)])
    taps = [min(took) for took in zip(*runs, strict=True)]

    def near(at: int) -> float:
        return statistics.median(taps[at - 1 - AROUND:at + AROUND])

    return near(EARLY), near(LATE)


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="table-bench-"))
    config = {k: getattr(TestConfig, k) for k in dir(TestConfig) if k.isupper()}
    app = create_app({**config, "DATABASE_URL": f"sqlite:///{folder}/bench.sqlite3"},
                     instance_path=folder)
    client = app.test_client()
    print(f"{'game':<13} {'taps':>4} {'tap median':>11} {'tap max':>8} {'page':>6} "
          f"{'board':>6} {'poll 204':>9}")
    for game in GAMES:
        data = yaml.safe_load((ROOT / "examples" / game / "match.yaml").read_text("utf-8"))
        match = _started(client, data)
        token = _csrf(client.get(match).get_data(as_text=True))
        taps = [_tap(client, match, token, {k: v for k, v in ev.items() if k != "id"})
                for ev in data["events"]]
        shown, page_time = _timed(client.get, match)
        version = re.search(r'data-version="(\d+)"', shown.get_data(as_text=True))
        assert version is not None
        _, board_time = _timed(client.get, match + "/board?v=0")
        polls = [_timed(client.get, f"{match}/board?v={version[1]}")[1] for _ in range(20)]
        print(f"{game:<13} {len(taps):>4} {statistics.median(taps) * 1000:>8.1f} ms "
              f"{max(taps) * 1000:>5.1f} ms {page_time * 1000:>3.0f} ms "
              f"{board_time * 1000:>3.0f} ms {statistics.median(polls) * 1000:>6.1f} ms")
    early, late = tap_cost(client)
    print(f"\nspaceempires, a match of {LONG} taps ({RUNS} runs): a tap near event {EARLY} "
          f"{early * 1000:.1f} ms, near event {LATE} {late * 1000:.1f} ms (CPU): "
          f"{late / early:.2f}x (goal: at most 1.5x)")


if __name__ == "__main__":
    main()
