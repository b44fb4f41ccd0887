"""The odds at hand: quick-resolve for one unit of a match against another, as they stand.

The sides are the two roster entries as fielded (`side_from_entry`, each read in its own
player's catalog, as the matchup grid reads them); the game's rules of play say what the state
sets of the situation (`Play.situation`: models left, wounds taken, stance...), and the player's
own settings (cover, range...) come on top. The answer is the resolver's, exact.
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
    its resolver offers for these two units (a vehicle has no models to set)."""
    mine, theirs = _side(system, match, attacker), _side(system, match, defender)
    catalog = match.players[attacker[0] - 1].catalog
    resolver = system.resolver()
    if resolver is None:
        raise ResolveError(f"{system.name} has no quick-resolve")
    offered = {option.key for option in resolver.options(catalog, mine, theirs)}
    return {key: value for key, value in play.situation(state, attacker, defender).items()
            if key in offered}


def odds(system: RuleSystem[Any, Any], play: Play[Any], match: Match, state: Any,
         attacker: tuple[int, int], defender: tuple[int, int],
         settings: Mapping[str, object] | None = None) -> Result:
    """Quick-resolve of `attacker` (side, unit) against `defender` as the state has them, with
    the player's `settings` over the state's own; ResolveError says what can't be answered."""
    if attacker[0] == defender[0]:
        raise ResolveError("pick a unit of the other side as the target")
    chosen = {**state_settings(system, play, match, state, attacker, defender),
              **(settings or {})}
    catalog = match.players[attacker[0] - 1].catalog
    return quick_resolve(system, catalog, _side(system, match, attacker),
                         _side(system, match, defender), chosen)


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
