"""How fast an event's rules run (issue 52, item 10): pairing a round of 256 players (goal: 0.5 s
or less), and standings of 256 players after 8 rounds, worked out from the games; then the
standings page of such an event (goal: 50 ms or less of server time), its lists sealed,
paired and reported through the store on an SQLite file, asked for through Flask's test
client (the server's whole answer, no network), beside the home page asked for the same way.

Each round is paired from the standings after random results (a fixed seed), so later rounds
pair players who have met many others. Printed beside the machine's speed now
(benchmarks/machine.py), whose spells move the figures 2-3x.

Run: .venv/bin/python benchmarks/events.py [--players N] [--rounds N]
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import click
from machine import machine_speed

from listbuilder.engine.events.pairing import pair_round
from listbuilder.engine.events.standings import Game, ranked, standings


@click.command(help=__doc__, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--players", type=int, default=256)
@click.option("--rounds", type=int, default=8)
@click.option("--profile", is_flag=True, help="Profile the standings page after timing it.")
def main(players: int, rounds: int, profile: bool) -> None:
    rng = random.Random(52)
    names = [f"Player {n:03}" for n in range(players)]
    met: dict[str, set[str]] = defaultdict(set)
    byes: set[str] = set()
    games: list[Game] = []
    order = rng.sample(names, len(names))
    pairing_times, standing_times = [], []
    for _ in range(rounds):
        began = time.perf_counter()
        pairing = pair_round(order, met, byes)
        pairing_times.append(time.perf_counter() - began)
        for a, b in pairing.tables:
            met[a].add(b)
            met[b].add(a)
            games.append(Game(a, b, rng.choice([1, 2, None]), (rng.randint(0, 20),
                                                                rng.randint(0, 20))))
        if pairing.bye:
            byes.add(pairing.bye)
            games.append(Game(pairing.bye, None, 1))
        began = time.perf_counter()
        order = ranked(standings(names, games))
        standing_times.append(time.perf_counter() - began)
    print(f"machine speed now: {machine_speed():.0f} ms (37-41 ms in fast spells)")
    print(f"{players} players, {rounds} rounds, {len(games)} games")
    slowest = max(pairing_times)
    print(f"pairing a round: median {statistics.median(pairing_times) * 1000:.1f} ms, slowest "
          f"{slowest * 1000:.1f} ms (round {pairing_times.index(slowest) + 1}; goal 500 ms)")
    print(f"standings from the games: median {statistics.median(standing_times) * 1000:.1f} "
          f"ms, after round {rounds} {standing_times[-1] * 1000:.1f} ms")
    pages(players, rounds, profile=profile)


def pages(players: int, rounds: int, runs: int = 30, profile: bool = False) -> None:
    from listbuilder.engine.events.sealing import seal
    from listbuilder.engine.library import Library
    from listbuilder.settings import TestConfig
    from listbuilder.store.database import sqlite_url
    from listbuilder.web import create_app

    folder = Path(tempfile.mkdtemp(prefix="events-bench-"))
    (folder / "no-data").mkdir()
    config = {k: getattr(TestConfig, k) for k in dir(TestConfig) if k.isupper()}
    config.update(DATABASE_URL=sqlite_url(folder / "events.sqlite3"), UPGRADE_DATABASE=True,
                  LISTBUILDER_DATA=str(folder / "no-data"))
    app = create_app(config, instance_path=folder / "instance")
    store = app.extensions["listbuilder.events"]
    root = Path(__file__).resolve().parents[1]
    sealed = seal(Library().read_roster_file(root / "examples" / "op40k" / "legal.yaml"))
    event, organiser = store.create("op40k", "Benchmark Cup", points_limit=None, packs={},
                                    data_revision="", rounds=rounds,
                                    deadline=datetime.now(UTC) + timedelta(days=1))
    for number in range(players):
        store.submit(event, number + 1, f"Player {number:03}", sealed)
    rng = random.Random(52)
    began = time.perf_counter()
    for _ in range(rounds):
        for game in store.pair(store.event(event.id)):
            if not game.bye:
                store.report(store.event(event.id), game.id, rng.choice([1, 2, None]),
                             (rng.randint(0, 20), rng.randint(0, 20)))
    print(f"an event of {players} lists paired and reported through the store, {rounds} "
          f"rounds: {time.perf_counter() - began:.1f} s")
    client = app.test_client()

    def timed(url: str) -> Callable[[], float]:
        def once() -> float:
            start = time.perf_counter()
            response = client.get(url)
            assert response.status_code == 200, response.status_code
            return time.perf_counter() - start
        return once

    asked = {"the home page (reference)": timed("/"),
             "standings page (public link)": timed(f"/e/{event.share_token}"),
             "standings.json": timed(f"/e/{event.share_token}/standings.json"),
             "organiser's page": timed(f"/e/{organiser}")}
    for ask in asked.values():
        ask()  # warm: templates compiled, catalogs read
    medians = {}
    for name, ask in asked.items():
        medians[name] = statistics.median(ask() for _ in range(runs))
    reference = medians["the home page (reference)"]
    for name, median in medians.items():
        print(f"{name}: median {median * 1000:.1f} ms of {runs} "
              f"({median / reference:.1f}x the home page)"
              + ("; goal 50 ms" if name.startswith("standings page") else ""))
    if profile:
        import cProfile
        import pstats
        with cProfile.Profile() as prof:
            for _ in range(5):
                asked["standings page (public link)"]()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(25)
    app.extensions["listbuilder.store"].close()


if __name__ == "__main__":
    main()
