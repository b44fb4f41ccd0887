"""Pieces the games' rules of play share: the unit an event names, refusals written as rules,
offers kept to what the rules accept, a game won on points or given up, and a unit row's
chips. Each game's play.py keeps only what its own rules say."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from listbuilder.engine.match import Event, Outcome, Refused, other

U = TypeVar("U", covariant=True)

Scores = tuple[tuple[str, tuple[int, ...]], ...]
# a rule as a refusal states it: (whether it is broken, what is wrong, what to do instead)
Rule = tuple[object, str, str]


class Numbered(Protocol[U]):
    """A state whose units are found by side and number, as players number them."""

    def unit(self, side: int, number: int) -> U: ...


class Listed(Numbered[U], Protocol[U]):
    """A numbered state whose sides are the lists of their units (all but Hammer Wars, whose
    sides are records holding their units)."""

    @property
    def sides(self) -> Sequence[Sequence[Any]]: ...


def at(state: Numbered[U], ev: Event) -> tuple[int, int, U]:
    """The side, number and state of the unit an event names."""
    side, number = ev.side or 1, ev.unit or 1
    return side, number, state.unit(side, number)


def unit_or_none(state: Listed[U], side: int, number: int) -> U | None:
    """The unit numbered so, or None where the state has no such side or unit (the odds page
    asks about any pair a link names)."""
    if not 1 <= side <= len(state.sides) or not 1 <= number <= len(state.sides[side - 1]):
        return None
    return state.unit(side, number)


def refuse(*rules: Rule) -> None:
    """Refused as the first of `rules` that is broken says, in their order."""
    for broken, message, fix in rules:
        if broken:
            raise Refused(message, fix)


def passing(test: Callable[[Any, Event], object], state: Any,
            candidates: Iterable[Event]) -> list[Event]:
    """The candidates `test` (a Play's `apply`, or one of its checks) does not refuse: how a
    game's offers become exactly what its rules accept."""
    out = []
    for ev in candidates:
        try:
            test(state, ev)
        except Refused:
            continue
        out.append(ev)
    return out


def conceded(names: Sequence[str], side: int, scores: Scores) -> Outcome:
    """`side` gave up: the other side wins; a solo game has no winner."""
    name = names[side - 1]
    if len(names) < 2:
        return Outcome(True, None, f"{name} conceded: a solo game has no winner", scores)
    return Outcome(True, other(side), f"{name} conceded", scores)


def on_points(points: Sequence[int], when: str, unit: str, scores: Scores) -> Outcome:
    """The game is over `when` ("after round 4"): the side with more `unit` (VP, pts) wins,
    equal is a draw; a solo game has no winner."""
    if len(points) < 2:
        return Outcome(True, None, f"{when}: a solo game has no winner", scores)
    one, two = points[0], points[1]
    if one == two:
        return Outcome(True, None, f"{when}: a draw at {one} {unit} each", scores)
    winner = 1 if one > two else 2
    return Outcome(True, winner, f"{when}: {max(one, two)} {unit} to {min(one, two)}", scores)


def flagged(unit: Mapping[str, Any], labels: Iterable[tuple[str, str]]) -> list[str]:
    """The chips of a unit row's yes/no values that are set: (key, words) pairs, in order."""
    return [words for key, words in labels if unit.get(key)]


def activated(unit: Mapping[str, Any], key: str = "action") -> list[str]:
    """The chip of a unit that has activated this round, with the action it took."""
    if not unit.get("activated"):
        return []
    return [f"activated: {unit[key]}" if unit.get(key) else "activated"]
