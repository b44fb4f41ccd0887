"""Swiss pairing for a round (docs/events.md, "Pairing"): players in the order they stand,
each paired with the best-placed player below them they have not met, so that nobody plays
the same opponent twice; with an odd number, the bye goes first to the lowest-placed player
who has not had one. Tables are numbered from the top pairing down.

When the greedy choice leaves players below who can no longer be paired, the search steps
back and takes the next opponent (a depth-first search over the players in order, which
remembers the sets of players it found unpairable). Only when no pairing at all avoids a
rematch is the round refused, in words; the organiser may then end the event or pair by hand."""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass


class PairingError(ValueError):
    """No pairing of these players avoids a rematch (or gives a bye to someone without one)."""


@dataclass(frozen=True)
class Pairing:
    tables: tuple[tuple[str, str], ...]  # table 1 first
    bye: str | None = None


def pair_round(ranked: Sequence[str], met: Mapping[str, Set[str]],
               had_bye: Set[str] = frozenset()) -> Pairing:
    """The round's tables for `ranked` (best first), where `met[p]` holds the players p has
    played and `had_bye` those who have had a bye."""
    players = list(dict.fromkeys(ranked))
    if len(players) < 2:
        raise PairingError("a round needs at least two players present")
    search = _Search(met)
    if len(players) % 2 == 0:
        tables = search.match(tuple(players))
        if tables is None:
            raise PairingError(_NO_PAIRING)
        return Pairing(tuple(tables))
    for candidate in reversed(players):
        if candidate in had_bye:
            continue
        rest = tuple(p for p in players if p != candidate)
        tables = search.match(rest)
        if tables is not None:
            return Pairing(tuple(tables), candidate)
    if all(p in had_bye for p in players):
        raise PairingError("every player present has had a bye already; a bye goes to one "
                           "who has not")
    raise PairingError(_NO_PAIRING)


_NO_PAIRING = ("every way of pairing these players repeats a game already played; pair this "
               "round by hand or end the event")


class _Search:
    def __init__(self, met: Mapping[str, Set[str]]) -> None:
        self.met = met
        self.unpairable: set[frozenset[str]] = set()

    def match(self, players: tuple[str, ...]) -> list[tuple[str, str]] | None:
        """A pairing of `players` (in order) with no rematch, the top player paired with the
        best-placed one left who it may meet; None if there is none."""
        if not players:
            return []
        key = frozenset(players)
        if key in self.unpairable:
            return None
        first, rest = players[0], players[1:]
        met = self.met.get(first, frozenset())
        for index, other in enumerate(rest):
            if other in met or first in self.met.get(other, frozenset()):
                continue
            below = self.match(rest[:index] + rest[index + 1:])
            if below is not None:
                return [(first, other), *below]
        self.unpairable.add(key)
        return None
