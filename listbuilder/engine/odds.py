"""The odds at hand: quick-resolve for one unit of a match against another, as they stand.

The sides are the two roster entries as fielded (`side_from_entry`, each read in its own
player's catalog, as the matchup grid reads them); the game's rules of play say what the state
sets of the situation (`Play.situation`: models left, wounds taken, stance...), and the player's
own settings (cover, range...) come on top. The answer is the resolver's, exact. A pair of
one side, or with a unit gone from the table (destroyed, dead, fled off), has no odds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from listbuilder.engine.fight import ResolveError, Result
from listbuilder.engine.match import Match, Play
from listbuilder.engine.resolve import quick_resolve, side_from_entry
from listbuilder.engine.system import RuleSystem


def state_settings(system: RuleSystem[Any, Any], play: Play[Any], match: Match, state: Any,
                   attacker: tuple[int, int], defender: tuple[int, int]) -> dict[str, object]:
    """The situation the state sets for the pair, as quick-resolve's settings: only the keys
    its resolver offers for these two units (a vehicle has no models to set), and of a pick
    only a value it offers, spelt as it spells it (a unit that Ran this round has no shooting
    action to set: the option keeps its default). ResolveError: a pair with no odds (one side,
    a unit out of range or not in the catalog, a destroyed unit)."""
    mine, theirs = _pair(system, play, match, state, attacker, defender)
    return _from_state(system, play, match, state, attacker, defender, mine, theirs)


def odds(system: RuleSystem[Any, Any], play: Play[Any], match: Match, state: Any,
         attacker: tuple[int, int], defender: tuple[int, int],
         settings: Mapping[str, object] | None = None) -> Result:
    """Quick-resolve of `attacker` (side, unit) against `defender` as the state has them, with
    the player's `settings` over the state's own; ResolveError says what can't be answered
    (a destroyed unit has no odds)."""
    mine, theirs = _pair(system, play, match, state, attacker, defender)
    chosen = {**_from_state(system, play, match, state, attacker, defender, mine, theirs),
              **(settings or {})}
    catalog = match.players[attacker[0] - 1].catalog
    return quick_resolve(system, catalog, mine, theirs, chosen)


def _from_state(system: RuleSystem[Any, Any], play: Play[Any], match: Match, state: Any,
                attacker: tuple[int, int], defender: tuple[int, int], mine: Any,
                theirs: Any) -> dict[str, object]:
    """`Play.situation` for the pair, kept to what the resolver offers `mine` against
    `theirs`."""
    catalog = match.players[attacker[0] - 1].catalog
    resolver = system.resolver()
    if resolver is None:
        raise ResolveError(f"{system.name} has no quick-resolve")
    offered = {option.key: option for option in resolver.options(catalog, mine, theirs)}
    out: dict[str, object] = {}
    for key, value in play.situation(state, attacker, defender).items():
        option = offered.get(key)
        if option is None:
            continue
        if option.kind == "choice":
            spelt = next((c for c in option.choices if c.casefold() == str(value).casefold()),
                         None)
            if spelt is None:
                continue
            value = spelt
        out[key] = value
    return out


def _pair(system: RuleSystem[Any, Any], play: Play[Any], match: Match, state: Any,
          attacker: tuple[int, int], defender: tuple[int, int]) -> tuple[Any, Any]:
    """The two sides, when the pair may have odds: a unit of each side, each in the catalog
    and on the table."""
    if attacker[0] == defender[0]:
        raise ResolveError("pick a unit of the other side as the target")
    sides = _side(system, match, attacker), _side(system, match, defender)
    for at in (attacker, defender):
        _standing(play, match, state, at)
    return sides


def _standing(play: Play[Any], match: Match, state: Any, at: tuple[int, int]) -> None:
    """ResolveError when the tracker's rows (`Play.units`) say the unit is gone: not `alive`
    (destroyed, dead, fled off the table) and none of it `in_pool` to deploy later. A Hammer
    Wars type with no model on the table but some in the pool has its odds as it would be
    deployed: a type is never gone for good there. A unit the rows don't list (a Space
    Empires entry sharing its chit kind's row) is taken as standing."""
    side, unit = at
    rows = [row for row in play.units(state, side) if row.get("unit") == unit]
    if not rows or any(row.get("alive") or row.get("in_pool") for row in rows):
        return
    player = match.players[side - 1]
    entry = player.roster.entries[unit - 1]
    name = f"{player.name}'s {entry.label or entry.unit}"
    status = next((str(row["status"]) for row in rows if row.get("status")), "")
    if status == "destroyed":
        raise ResolveError(f"{name} is destroyed: a destroyed unit has no odds")
    if status:  # fled off the table...
        raise ResolveError(f"{name} is not on the table ({status}), so it has no odds")
    # rows that say no more: dead (WarStuff), destroyed (ActionHammer), lost or disbanded
    # (Space Empires)
    raise ResolveError(f"{name} is no longer in play: a destroyed unit has no odds")


def _side(system: RuleSystem[Any, Any], match: Match, at: tuple[int, int]) -> Any:
    side, unit = at
    if not 1 <= side <= len(match.players):
        raise ResolveError(f"there is no side {side} in this match")
    player = match.players[side - 1]
    if not 1 <= unit <= len(player.roster.entries):
        raise ResolveError(f"{player.name}'s roster has no unit {unit}")
    try:
        return side_from_entry(system, player.catalog, player.roster, unit - 1)
    except (AssertionError, LookupError):
        raise ResolveError(f"{player.name}'s unit {unit} is not in the catalog: it has no "
                           f"odds") from None
