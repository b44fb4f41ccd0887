"""Skirmish Test at the table, a toy tracker on the engine's framework: rounds of alternating
activations (`Alternating`), models removed by shooting, three rounds, and the side with
more models left wins. Sample rules we wrote to show how a game adds its tracker."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from listbuilder.engine.alternating import Alternating
from listbuilder.engine.match import (
    Event,
    Kind,
    Match,
    Outcome,
    Refused,
    Standing,
    Track,
    concessions,
    event,
    gone,
    not_in_catalog,
    with_side,
)

ROUNDS = 3


@dataclass(frozen=True)
class UnitState:
    name: str
    size: int  # models fielded; 0: the entry names no unit of the catalog
    left: int
    activated: bool = False


@dataclass(frozen=True)
class SkirmishState:
    names: tuple[str, ...]
    sides: tuple[tuple[UnitState, ...], ...]
    round: int = 1
    first: int | None = None
    turn: int | None = None
    conceded: int | None = None

    def unit(self, side: int, number: int) -> UnitState:
        return self.sides[side - 1][number - 1]

    def with_unit(self, side: int, number: int, unit: UnitState) -> SkirmishState:
        return replace(self, sides=with_side(self.sides, side,
                                             with_side(self.sides[side - 1], number, unit)))

    def waiting(self, side: int) -> list[tuple[int, str]]:
        return [(n, u.name) for n, u in enumerate(self.sides[side - 1], 1)
                if u.left and not u.activated]

    @property
    def over(self) -> bool:
        return self.conceded is not None or self.round > ROUNDS


class SkirmishPlay(Alternating[SkirmishState]):
    rounds: ClassVar[int | None] = ROUNDS
    kinds: ClassVar[Mapping[str, Kind]] = {
        "first-turn": Kind("Won the roll-off: goes first", unit=False),
        "activate": Kind("Activate", checks=("rolled", "fresh")),
        "shot": Kind("Models removed by shooting", values={"models": int},
                     asks={"models": "Models removed"}, checks=("rolled",)),
        "round-end": Kind("End the round", side=False, unit=False,
                          checks=("rolled", "all_activated")),
        "concede": Kind("Concede the game", unit=False),
    }

    def start(self, match: Match) -> SkirmishState:
        sides = []
        for player in match.players:
            units = [UnitState(e.unit, 0, 0) for e in player.roster.entries]
            for p in self.system.priced(player.catalog, player.roster):
                units[p.index] = UnitState(p.unit.name, p.entry.count, p.entry.count)
            sides.append(tuple(units))
        return SkirmishState(tuple(p.name for p in match.players), tuple(sides))

    def absent(self, state: SkirmishState, side: int, unit: int) -> Refused | None:
        found = state.unit(side, unit)
        if not found.size:
            return not_in_catalog(found.name)
        return None if found.left else gone(found.name, "wiped out")

    def _activate(self, state: SkirmishState, ev: Event) -> SkirmishState:
        side, number = ev.side or 1, ev.unit or 1
        state = state.with_unit(side, number,
                                replace(state.unit(side, number), activated=True))
        return self.passed(state, side)

    def _shot(self, state: SkirmishState, ev: Event) -> SkirmishState:
        unit = state.unit(ev.side or 1, ev.unit or 1)
        models = int(ev.get("models"))
        if not 1 <= models <= unit.left:
            raise Refused(f"{unit.name} has {unit.left} models left, not {models}",
                          f"Remove 1 to {unit.left}.")
        return state.with_unit(ev.side or 1, ev.unit or 1,
                               replace(unit, left=unit.left - models))

    def _round_end(self, state: SkirmishState, ev: Event) -> SkirmishState:
        sides = tuple(tuple(replace(u, activated=False) for u in units)
                      for units in state.sides)
        state = replace(state, sides=sides, round=state.round + 1)
        return replace(state, turn=self.next_turn(state, state.first or 1))

    def offers(self, state: SkirmishState) -> list[Event]:
        if state.over:
            return []
        sides = range(1, len(state.sides) + 1)
        if state.first is None:
            return [event("first-turn", s) for s in sides] + concessions(len(sides))
        out = [event("activate", state.turn, n) for n, _ in state.waiting(state.turn)
               ] if state.turn else [event("round-end")]
        out += [event("shot", s, n, models=m) for s in sides
                for n, u in enumerate(state.sides[s - 1], 1) if u.left
                for m in sorted({1, u.left})]
        return out + concessions(len(sides))

    def outcome(self, state: SkirmishState) -> Outcome:
        left = tuple(sum(u.left for u in units) for units in state.sides)
        scores = (("Models left", left),)
        if not state.over:
            return Outcome(False, reason=f"round {state.round} of {ROUNDS}", scores=scores)
        if state.conceded is not None:  # the other side wins (a solo game: nobody)
            winner = 3 - state.conceded if len(left) > 1 else None
            return Outcome(True, winner, f"{state.names[state.conceded - 1]} conceded", scores)
        winner = left.index(max(left)) + 1 if len(set(left)) > 1 else None
        return Outcome(True, winner, f"after round {ROUNDS}: most models left", scores)

    def units(self, state: SkirmishState, side: int) -> list[dict[str, Any]]:
        return [{"unit": n, "name": u.name, "alive": bool(u.left), "models": u.left,
                 "size": u.size, "activated": u.activated}
                for n, u in enumerate(state.sides[side - 1], 1)]

    def to_data(self, state: SkirmishState) -> dict[str, Any]:
        return {"round": state.round, "turn": state.turn, "sides": [
            self.units(state, s) for s in range(1, len(state.sides) + 1)]}

    def standing(self, unit: Mapping[str, Any]) -> Standing:
        return Standing((Track("models", unit["models"], unit["size"]),),
                        ("activated",) if unit["activated"] else ())
