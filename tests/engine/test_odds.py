"""The odds at hand (engine/odds.py): quick-resolve of one unit of a match against another,
with what each game's rules of play (`Play.situation`) read off the log: models left, wounds
taken, stances, lives, the battle being fought. Each game's example match is replayed to a
point and the answer checked against `quick_resolve` given the same settings by hand, with
the figures that move as the state does. Readings: docs/rules-notes.md, "At the table: odds
for <game>"."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from listbuilder.engine.fight import ResolveError, Result, SituationError
from listbuilder.engine.library import Library
from listbuilder.engine.match import Event, Match, Play, event, replay
from listbuilder.engine.match_file import read_match
from listbuilder.engine.odds import odds, state_settings
from listbuilder.engine.registry import get_system
from listbuilder.engine.resolve import quick_resolve, side_from_entry
from listbuilder.engine.system import RuleSystem

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = Library()
GAMES = ("hammerwars", "op40k", "warstuff", "actionhammer", "spaceempires")

Pair = tuple[int, int]


@cache
def example(system_id: str) -> Match:
    path = ROOT / "examples" / system_id / "match.yaml"
    return read_match(path.read_text(encoding="utf-8"), str(path), LIBRARY.read_roster).match


def game(system_id: str) -> tuple[RuleSystem[Any, Any], Play[Any], Match]:
    system = get_system(system_id)
    play = system.play()
    assert play is not None
    return system, play, example(system_id)


def after(system_id: str, count: int, extra: Iterable[Event] = ()) -> Any:
    """The state after the example's first `count` events (and `extra` ones)."""
    _, play, match = game(system_id)
    return replay(play, match, (*match.events[:count], *extra))


def by_hand(system_id: str, attacker: Pair, defender: Pair,
            settings: Mapping[str, object]) -> Result:
    """What quick-resolve says of the two roster entries as fielded, `settings` given."""
    system, _, match = game(system_id)
    sides = [side_from_entry(system, match.players[s - 1].catalog,
                             match.players[s - 1].roster, u - 1) for s, u in (attacker, defender)]
    return quick_resolve(system, match.players[attacker[0] - 1].catalog, sides[0], sides[1],
                         settings)


def at_table(system_id: str, state: Any, attacker: Pair, defender: Pair,
             settings: Mapping[str, object] | None = None) -> tuple[dict[str, object], Result]:
    system, play, match = game(system_id)
    return (state_settings(system, play, match, state, attacker, defender),
            odds(system, play, match, state, attacker, defender, settings))


def answer(result: Result) -> tuple[Any, ...]:
    """All a result says, comparable (a Dist compares by identity)."""
    return (result.summary, result.situation, result.chances, result.steps,
            tuple((o.key, o.kill_at, o.labels, tuple(o.dist.items())) for o in result.outcomes))


def kill(result: Result) -> Fraction:
    p = result.outcome.p_kill
    assert isinstance(p, Fraction)
    return p


# -- every game ---------------------------------------------------------------------------------

@pytest.mark.parametrize("system_id", GAMES)
def test_every_pair_at_every_point_of_the_example_has_odds_or_says_why(system_id: str) -> None:
    """What the state sets is always within the options' ranges: no pair, at any point of the
    example match, gets a SituationError; a pair without odds says why (a destroyed unit)."""
    # docs/rules-notes.md#at-the-table-odds-for-any-game
    system, play, match = game(system_id)
    state = play.start(match)
    answered = refused = 0
    for ev in (None, *match.events):
        if ev is not None:
            state = play.apply(state, ev)
        for a in range(1, len(match.players[0].roster.entries) + 1):
            for d in range(1, len(match.players[1].roster.entries) + 1):
                for pair in (((1, a), (2, d)), ((2, d), (1, a))):
                    try:
                        odds(system, play, match, state, *pair)
                        answered += 1
                    except SituationError as exc:
                        raise AssertionError(f"{pair}: the state set {exc}") from None
                    except ResolveError as exc:
                        assert "has no odds" in str(exc)
                        refused += 1
    assert answered > 0
    # Hammer Wars: a type in the pool has its odds as it would be deployed
    assert (refused == 0) == (system_id == "hammerwars")


@pytest.mark.parametrize("system_id", GAMES)
def test_a_pair_of_one_side_is_refused(system_id: str) -> None:
    # docs/rules-notes.md#at-the-table-odds-for-any-game
    system, play, match = game(system_id)
    state = play.start(match)
    for call in (state_settings, odds):
        with pytest.raises(ResolveError, match="pick a unit of the other side"):
            call(system, play, match, state, (1, 1), (1, 2))


def test_the_players_settings_override_the_states() -> None:
    """The Scouts have 2 models left after 19 events; a player who sets 5 gets the odds of
    5, exactly the fresh game's; what the state sets and they don't stays."""
    # docs/rules-notes.md#at-the-table-odds-for-any-game
    state = after("op40k", 20)
    settings, result = at_table("op40k", state, (1, 1), (2, 4), {"defender_models": 5})
    assert settings == {"attacker_models": 16, "defender_models": 2}
    assert answer(result) == answer(by_hand("op40k", (1, 1), (2, 4), {
        "attacker_models": 16, "defender_models": 5}))
    assert ("Scouts: models", "5") in result.situation
    assert ("Ork Boyz: models", "16") in result.situation
    # text, as a form sends it, overrides as well
    as_text = at_table("op40k", state, (1, 1), (2, 4), {"defender_models": "5"})[1]
    assert answer(as_text) == answer(result)


# -- One Page 40k -------------------------------------------------------------------------------

def test_op40k_models_left_on_both_sides_set_the_odds() -> None:
    # docs/rules-notes.md#at-the-table-odds-for-one-page-40k
    fresh = at_table("op40k", after("op40k", 0), (1, 1), (2, 4))
    assert fresh[0] == {"attacker_models": 20, "defender_models": 5}
    assert fresh[1].summary == "49% to wipe out, 15% it flees"
    assert kill(fresh[1]) == Fraction(5153626547, 10460353203)
    # 19 events on: the Boyz lost 4 models to shooting, the Scouts 3
    settings, result = at_table("op40k", after("op40k", 20), (1, 1), (2, 4))
    assert settings == {"attacker_models": 16, "defender_models": 2}
    assert answer(result) == answer(by_hand("op40k", (1, 1), (2, 4), settings))
    assert result.summary == "94% to wipe out, 2% it flees"
    assert kill(result) == Fraction(13529707, 14348907) > kill(fresh[1])


def test_op40k_the_action_taken_this_round_and_a_hold_only_vehicle() -> None:
    # docs/rules-notes.md#at-the-table-odds-for-one-page-40k
    # the Space Marines took Hold this round: the shooting of Hold, at 16 Boyz
    settings, result = at_table("op40k", after("op40k", 12), (2, 1), (1, 1))
    assert settings == {"attacker_models": 10, "action": "Hold", "defender_models": 16}
    assert answer(result) == answer(by_hand("op40k", (2, 1), (1, 1), settings))
    # the Boyz Ran this round: Run shoots nothing, so the shooter's action keeps its default
    assert "action" not in at_table("op40k", after("op40k", 5), (1, 1), (2, 1))[0]
    # ...and an Assault action sets the fight the assault event records
    settings, result = at_table("op40k", after("op40k", 24), (1, 1), (2, 1))
    assert settings == {"attacker_models": 16, "attack": "assault", "defender_models": 10}
    assert ("Attack", "assault") in result.situation
    # the Battlewagon's 4 on the damage table leaves it Hold only, in later rounds too
    for count in (29, 40):
        settings, _ = at_table("op40k", after("op40k", count), (1, 7), (2, 1))
        assert settings["action"] == "Hold" and "attacker_models" not in settings


def test_op40k_a_unit_off_the_table_has_no_odds() -> None:
    state = after("op40k", 20)  # the Trukk destroyed, the Gretchin fled off the table
    with pytest.raises(ResolveError, match="Trukk is destroyed: a destroyed unit has no odds"):
        at_table("op40k", state, (1, 6), (2, 1))
    with pytest.raises(ResolveError, match=r"Gretchin is not on the table \(fled off"):
        at_table("op40k", state, (2, 1), (1, 3))


# -- WarStuff -----------------------------------------------------------------------------------

def test_warstuff_wounds_taken_raise_the_kill_chance() -> None:
    # docs/rules-notes.md#at-the-table-odds-for-warstuff
    before = at_table("warstuff", after("warstuff", 9), (1, 1), (2, 3))
    assert before[0] == {"wounds": 0, "stunned": False}
    assert kill(before[1]) == Fraction(1, 3)
    settings, result = at_table("warstuff", after("warstuff", 10), (1, 1), (2, 3))
    assert settings == {"wounds": 1, "stunned": False}  # the Breacher took a Wound
    assert answer(result) == answer(by_hand("warstuff", (1, 1), (2, 3), settings))
    assert kill(result) == Fraction(5, 12)


def test_warstuff_a_stunned_target_and_which_copy_is_read() -> None:
    # docs/rules-notes.md#at-the-table-odds-for-warstuff
    assert kill(at_table("warstuff", after("warstuff", 4), (2, 3), (1, 1))[1]) == Fraction(1, 3)
    # the Breacher stuns the first of Ann's two Human Warriors: it counts as Quality 0
    settings, result = at_table("warstuff", after("warstuff", 5), (2, 3), (1, 1))
    assert settings == {"wounds": 0, "stunned": True}
    assert answer(result) == answer(by_hand("warstuff", (2, 3), (1, 1), settings))
    assert kill(result) == Fraction(5, 6)
    # the second copy takes a Wound: the copy with the most Wounds is the one read
    wounded = after("warstuff", 5, [event("wound", 1, 1, copy=2)])
    settings, result = at_table("warstuff", wounded, (2, 3), (1, 1))
    assert settings == {"wounds": 1, "stunned": False}
    assert kill(result) == Fraction(5, 12)


def test_warstuff_wounds_beyond_the_resolvers_range_are_capped() -> None:
    _, play, _ = game("warstuff")
    state = after("warstuff", 0)
    unit = state.unit(2, 3)
    state = state.with_unit((2, 3, 1), replace(unit, wounds=11))
    assert play.situation(state, (1, 1), (2, 3)) == {"wounds": 8, "stunned": False}


# -- Hammer Wars --------------------------------------------------------------------------------

def test_hammerwars_lives_left_of_the_target() -> None:
    # docs/rules-notes.md#at-the-table-odds-for-hammer-wars
    # Ben's Assault Hero in the pool, then deployed: its card's 3 lives
    for count in (0, 23):
        settings, result = at_table("hammerwars", after("hammerwars", count), (1, 3), (2, 3))
        assert settings == {"lives": 3}
        assert kill(result) == 0
    # a hit takes 2 of its lives: Ann's Assault Specialist now kills it a third of the time
    settings, result = at_table("hammerwars", after("hammerwars", 24), (1, 3), (2, 3))
    assert settings == {"lives": 1}
    assert answer(result) == answer(by_hand("hammerwars", (1, 3), (2, 3), settings))
    assert kill(result) == Fraction(1, 3)


def test_hammerwars_the_most_hurt_model_on_the_table_is_read() -> None:
    # docs/rules-notes.md#at-the-table-odds-for-hammer-wars
    _, play, _ = game("hammerwars")
    state = after("hammerwars", 24)
    side = state.side(2)
    hero = replace(side.unit(3), on_table=(3, 1, 2))
    state = state.with_side(2, replace(side, units=(*side.units[:2], hero, *side.units[3:])))
    assert play.situation(state, (1, 3), (2, 3)) == {"lives": 1}


# -- ActionHammer -------------------------------------------------------------------------------

def test_actionhammer_stances_models_and_wounds_come_from_the_log() -> None:
    # docs/rules-notes.md#at-the-table-odds-for-actionhammer
    # before any activation every unit stands in the opening stance, Defensive
    fresh = at_table("actionhammer", after("actionhammer", 1), (1, 1), (2, 1))
    assert fresh[0] == {"attacker_stance": "Defensive", "attacker_models": 10,
                        "defender_stance": "Defensive", "defender_models": 12,
                        "defender_start": 12, "wounds_lost": 0}
    # the Line Troopers activate Attacking: +1 to hit, more wounds on the Reaver Mob
    settings, result = at_table("actionhammer", after("actionhammer", 2), (1, 1), (2, 1))
    assert settings == {**fresh[0], "attacker_stance": "Attacking"}
    assert answer(result) == answer(by_hand("actionhammer", (1, 1), (2, 1), settings))
    assert result.outcome.mean > fresh[1].outcome.mean
    assert kill(result) == Fraction(550802795366811318659024653,
                                    29371936242576564113903714304) > kill(fresh[1])
    # 4 wounds on the Mob's 1-Wound models: 8 left of the 12 it started with
    settings, _ = at_table("actionhammer", after("actionhammer", 3), (1, 1), (2, 1))
    assert (settings["defender_models"], settings["defender_start"]) == (8, 12)


def test_actionhammer_a_damaged_model_and_a_stunned_unit() -> None:
    # docs/rules-notes.md#at-the-table-odds-for-actionhammer
    before = at_table("actionhammer", after("actionhammer", 11), (2, 3), (1, 3))
    assert before[0]["wounds_lost"] == 0
    # the Tusk Riders deal the Recon Marshal 3 wounds: its next wounds finish it sooner
    settings, result = at_table("actionhammer", after("actionhammer", 12), (2, 3), (1, 3))
    assert settings["wounds_lost"] == 3 and settings["defender_stance"] == "Regular"
    assert answer(result) == answer(by_hand("actionhammer", (2, 3), (1, 3), settings))
    assert kill(result) == Fraction(3656132502638375, 3656158440062976) > kill(before[1])
    # it fails its morale test: Stunned, and it hits the Riders less often
    state = after("actionhammer", 15)
    settings, stunned = at_table("actionhammer", state, (1, 3), (2, 3))
    assert settings["attacker_stance"] == "Stunned"
    regular = by_hand("actionhammer", (1, 3), (2, 3), {**settings, "attacker_stance": "Regular"})
    wounds = [next(o for o in r.outcomes if o.key == "wounds") for r in (stunned, regular)]
    assert 0 < wounds[0].mean < wounds[1].mean


# -- Space Empires ------------------------------------------------------------------------------

def test_spaceempires_the_battle_being_fought_and_its_cards() -> None:
    # docs/rules-notes.md#at-the-table-odds-for-space-empires
    assert at_table("spaceempires", after("spaceempires", 24), (2, 1), (1, 3))[0] == {}
    assert at_table("spaceempires", after("spaceempires", 29), (2, 1), (1, 3))[0] == {
        "battle": "space"}
    # Ben plays Fighter Escort into the space battle: his side's card, whichever way round
    state = after("spaceempires", 30)
    settings, result = at_table("spaceempires", state, (2, 1), (1, 3))
    assert settings == {"battle": "space", "attacker_fighter_escort": 1}
    assert answer(result) == answer(by_hand("spaceempires", (2, 1), (1, 3), settings))
    assert at_table("spaceempires", state, (1, 3), (2, 1))[0] == {
        "battle": "space", "defender_fighter_escort": 1}


def test_spaceempires_a_defending_planets_ships_do_not_bombard() -> None:
    # docs/rules-notes.md#at-the-table-odds-for-space-empires
    _, play, _ = game("spaceempires")
    state = after("spaceempires", 30)
    ground = replace(state, battle=replace(state.battle, where="ground", cards=()))
    assert play.situation(ground, (2, 1), (1, 3)) == {"battle": "ground"}  # Ben invades
    assert play.situation(ground, (1, 3), (2, 1)) == {"battle": "ground", "bombard": False}
