"""The matchup grid: every unit of one roster against every unit of another, before a game.

Each cell is the game's own quick-resolve (`RuleSystem.resolver()`), exact, with the situation
at its defaults: what the attacker's unit is expected to take off the defender's (the main
outcome's mean: wounds, models, hits, as the game counts them) and the chance to destroy it.
A pair quick-resolve can't answer (a unit the catalog lost) is a cell saying why.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from listbuilder.engine.fight import ResolveError, Side
from listbuilder.engine.model import Catalog, Roster
from listbuilder.engine.resolve import quick_resolve, roster_sides
from listbuilder.engine.system import RuleSystem


@dataclass(frozen=True)
class Cell:
    mean: float = 0.0  # the main outcome's expected value
    measure: str = ""  # what it counts ("Wounds", "Models removed")
    destroy: float | None = None  # the chance to destroy the defender; None: no such outcome
    summary: str = ""
    problem: str = ""  # why this pair has no answer

    def to_json(self) -> dict[str, Any]:
        return {"mean": self.mean, "measure": self.measure, "destroy": self.destroy,
                "summary": self.summary, "problem": self.problem}


@dataclass(frozen=True)
class Grid:
    attackers: tuple[str, ...]  # the rows: my units, as their sides are labelled
    defenders: tuple[str, ...]  # the columns: theirs
    cells: tuple[tuple[Cell, ...], ...]  # cells[row][column]

    def to_json(self) -> dict[str, Any]:
        return {"attackers": list(self.attackers), "defenders": list(self.defenders),
                "cells": [[c.to_json() for c in row] for row in self.cells]}


def matchup(system: RuleSystem[Any, Any], mine: tuple[Catalog, Roster],
            theirs: tuple[Catalog, Roster]) -> Grid | None:
    """The grid of `mine` (catalog, roster) attacking `theirs`; None when the game has no
    quick-resolve. Each pair is resolved in the attacker's catalog, where its weapons and
    rules are written (the defender is read from its own side, already looked up)."""
    if system.resolver() is None:
        return None
    rows = roster_sides(system, mine[0], mine[1])
    columns = roster_sides(system, theirs[0], theirs[1])
    # a roster lists the same unit more than once (a pool of copies, two squads alike): each
    # pair of alike sides is resolved once
    answered: dict[tuple[object, object], Cell] = {}

    def cell(attacker: Side[Any] | ResolveError, defender: Side[Any] | ResolveError) -> Cell:
        key = (_key(attacker), _key(defender))
        if key not in answered:
            answered[key] = _cell(system, mine[0], attacker, defender)
        return answered[key]

    cells = tuple(tuple(cell(attacker, defender) for _, defender in columns)
                  for _, attacker in rows)
    return Grid(tuple(_label(entry.unit, side) for entry, side in rows),
                tuple(_label(entry.unit, side) for entry, side in columns), cells)


def _key(side: Side[Any] | ResolveError) -> object:
    return str(side) if isinstance(side, ResolveError) else side


def _label(unit: str, side: Side[Any] | ResolveError) -> str:
    return unit if isinstance(side, ResolveError) else side.label


def _cell(system: RuleSystem[Any, Any], catalog: Catalog, attacker: Side[Any] | ResolveError,
          defender: Side[Any] | ResolveError) -> Cell:
    for side in (attacker, defender):
        if isinstance(side, ResolveError):
            return Cell(problem=str(side))
    assert not isinstance(attacker, ResolveError) and not isinstance(defender, ResolveError)
    try:
        result = quick_resolve(system, catalog, attacker, defender)
    except ResolveError as exc:
        return Cell(problem=str(exc))
    outcome = result.outcome
    kill = outcome.p_kill
    return Cell(float(outcome.mean), outcome.title, None if kill is None else float(kill),
                result.summary)
