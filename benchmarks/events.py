"""How fast an event's rules run (issue 52, item 10): pairing a round of 256 players (goal: 0.5 s
or less), and standings of 256 players after 8 rounds, worked out from the games.

Each round is paired from the standings after random results (a fixed seed), so later rounds
pair players who have met many others. Printed beside the machine's speed now
(benchmarks/machine.py), whose spells move the figures 2-3x.

Run: .venv/bin/python benchmarks/events.py [--players N] [--rounds N]
"""

from __future__ import annotations

import random
import statistics
import time
from collections import defaultdict

import click
from machine import machine_speed

from listbuilder.engine.events.pairing import pair_round
from listbuilder.engine.events.standings import Game, ranked, standings


@click.command(help=__doc__, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--players", type=int, default=256)
@click.option("--rounds", type=int, default=8)
def main(players: int, rounds: int) -> None:
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


if __name__ == "__main__":
    main()
