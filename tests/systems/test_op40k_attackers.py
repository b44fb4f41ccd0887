"""One Page 40k's shots name their shooter (`by`, its number in the enemy roster), and the
rules refuse a shooter whose action this round fires nothing: the seed's Run and Cruise "may
not fire", an Assault charges instead, Overwatch fires only by reacting. Logs written before
`by` leave it out and replay exactly as they did. Readings: docs/rules-notes.md, One Page 40k,
"At the table: who fired"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playtools import LIBRARY, refused_last
from test_op40k_play import (
    BOYZ,
    GRETCHIN,
    MARINES_UNIT,
    PLAY,
    PREDATOR,
    SOLO,
    TRUKK,
    TWO,
    act,
    moves,
    play,
)

from listbuilder.engine.match import Event, Match, MatchError, describe, event, replay
from listbuilder.engine.match_file import read_match

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"


def shot(side: int, number: int, by: int, models: int = 1) -> Event:
    return event("shot", side, number, by=by, models=models)


def damage(side: int, number: int, by: int, roll: int = 1) -> Event:
    return event("vehicle-damage", side, number, by=by, roll=roll)


def refused(*events: Event, match: Match = TWO) -> MatchError:
    return refused_last(PLAY, match, events)


# side 1 goes first; the Boyz (1) act, then the Space Marines (2, unit 1) act
def boyz_then_marines(boyz: str, marines: str = "Hold") -> tuple[Event, ...]:
    return event("first-turn", 1), act(1, BOYZ, boyz), act(2, MARINES_UNIT, marines)


def test_run_and_cruise_may_not_fire_and_the_refusal_says_why() -> None:
    """The seed's actions table: Run "may not fire its weapons", nor may a vehicle that
    Cruises; a shot or a damage roll naming such a unit as its shooter is refused."""
    ran = refused(*boyz_then_marines("Run"), shot(2, MARINES_UNIT, by=BOYZ))
    assert ran.message == "Ork Boyz took Run this round, and a unit that takes Run may not " \
                          "fire its weapons"
    assert "action that fires" in ran.fix
    assert "may not fire" in refused(*boyz_then_marines("Run"),
                                     damage(2, PREDATOR, by=BOYZ)).message
    cruised = (event("first-turn", 1), act(1, TRUKK, "Cruise"))
    assert refused(*cruised, shot(2, MARINES_UNIT, by=TRUKK)).message == (
        "Trukk took Cruise this round, and a unit that takes Cruise may not fire its weapons")
    assert "Cruise" in refused(*cruised, damage(2, PREDATOR, by=TRUKK, roll=6)).message


@pytest.mark.parametrize(("shooter", "action"), [(BOYZ, "Hold"), (BOYZ, "Walk"),
                                                 (TRUKK, "Hold"), (TRUKK, "Move")])
def test_an_action_that_fires_may_name_its_unit_as_the_shooter(shooter: int,
                                                                 action: str) -> None:
    state = play(event("first-turn", 1), act(1, shooter, action),
                 shot(2, MARINES_UNIT, by=shooter, models=2), damage(2, PREDATOR, by=shooter))
    assert state.unit(2, MARINES_UNIT).left == 3 and state.unit(2, PREDATOR).damage == (1,)
    # a shot recorded late, once another unit has acted, is still the shooter's
    late = play(event("first-turn", 1), act(1, shooter, action), act(2, MARINES_UNIT),
                shot(2, MARINES_UNIT, by=shooter))
    assert late.unit(2, MARINES_UNIT).left == 4


def test_an_assault_an_idle_unit_and_a_failed_test_fire_nothing() -> None:
    assaulted = refused(*boyz_then_marines("Assault"), shot(2, MARINES_UNIT, by=BOYZ))
    assert "Assault" in assaulted.message and "assault" in assaulted.fix
    idle = refused(event("first-turn", 2), act(2, MARINES_UNIT), shot(2, MARINES_UNIT,
                                                                       by=GRETCHIN))
    assert idle.message == "Gretchin has not activated in round 1, and a unit fires only " \
                           "as part of its action"
    # the Marines' Predator shakes the Trukk; the Trukk fails its test to activate
    failed = (event("first-turn", 2), act(2, PREDATOR), damage(1, TRUKK, by=PREDATOR),
              event("vehicle-test", 1, TRUKK, passed=False))
    assert "failed test" in refused(*failed, damage(2, PREDATOR, by=TRUKK)).message


def test_overwatch_fires_once_it_has_reacted() -> None:
    """Overwatch fires by reacting to enemy movement (the `react` event): before it, the
    unit on Overwatch is no shooter; after it, it is, and the tracker offers its shot."""
    watching = (event("first-turn", 1), act(1, BOYZ, "Overwatch"), act(2, MARINES_UNIT, "Walk"))
    early = refused(*watching, shot(2, MARINES_UNIT, by=BOYZ))
    assert "fires only when it reacts" in early.message and "reaction" in early.fix
    reacted = play(*watching, event("react", 1, BOYZ))
    assert shot(2, MARINES_UNIT, by=BOYZ) in moves(reacted)
    assert play(*watching, event("react", 1, BOYZ), shot(2, MARINES_UNIT, by=BOYZ, models=5)
                ).unit(2, MARINES_UNIT).status == "destroyed"


def test_the_shooter_must_be_an_enemy_unit_on_the_table() -> None:
    start = boyz_then_marines("Hold")
    assert "units 1 to 3, not 9" in refused(*start, shot(2, MARINES_UNIT, by=9)).message
    assert "units 1 to 2, not 3" in refused(*start, shot(1, GRETCHIN, by=3)).message
    gone = refused(*start, shot(1, BOYZ, by=MARINES_UNIT, models=10),
                   shot(2, MARINES_UNIT, by=BOYZ))
    assert gone.message == "the shooter named, Ork Boyz is destroyed"


def test_the_tracker_offers_shots_by_the_unit_firing_now() -> None:
    """Shots and damage rolls are offered on the enemy of the unit acting, named as their
    shooter; none while it Runs, Cruises or Assaults, and none on its own side."""
    held = play(*boyz_then_marines("Hold")[:2])
    offered = [e for e in moves(held) if e.kind in ("shot", "vehicle-damage")]
    assert offered and all(e.side == 2 and e.get("by") == BOYZ for e in offered)
    assert {(e.kind, e.unit) for e in offered} == {("shot", MARINES_UNIT),
                                                   ("vehicle-damage", PREDATOR)}
    for silent in ("Run", "Assault", "Overwatch"):
        state = play(*boyz_then_marines(silent)[:2])
        assert not [e for e in moves(state) if e.kind in ("shot", "vehicle-damage")], silent
    cruising = play(event("first-turn", 1), act(1, TRUKK, "Cruise"))
    assert not [e for e in moves(cruising) if e.kind == "shot"]


def test_a_solo_game_names_no_shooter() -> None:
    """One roster: the enemy is on paper, so no `by` is offered, and one given is refused."""
    state = play(event("first-turn", 1), act(1, BOYZ), match=SOLO)
    shots = [e for e in moves(state) if e.kind == "shot"]
    assert shots and all(e.get("by") is None for e in shots)
    solo = refused(event("first-turn", 1), act(1, BOYZ), shot(1, GRETCHIN, by=1), match=SOLO)
    assert "solo game" in solo.message and "Leave by out" in solo.fix


def test_the_log_says_who_fired() -> None:
    words = describe(TWO, PLAY, shot(2, MARINES_UNIT, by=BOYZ, models=3))
    assert words == "Marine's Space Marines · Models removed by shooting from Ork Boyz: models 3"
    assert describe(TWO, PLAY, damage(1, TRUKK, by=PREDATOR, roll=4)).endswith(
        "Vehicle damage roll after shooting by Predator: roll 4")


def _read(path: Path) -> Match:
    return read_match(path.read_text(encoding="utf-8"), str(path), LIBRARY.read_roster).match


def test_a_log_written_before_shooters_were_named_replays_as_it_did() -> None:
    """The example as it was (no `by`) replays to the states it had then (kept in
    op40k-match-v1-states.json). Today's example is the same game with its shooters named
    and its first 12 events reordered (so that the two-phone browser test finds two taps
    in a row on one board): from there on it passes through the same states."""
    old = _read(DATA / "op40k-match-v1.yaml")
    new = _read(ROOT / "examples" / "op40k" / "match.yaml")
    assert not any(e.get("by") for e in old.events)
    named = [e for e in new.events if e.kind in ("shot", "vehicle-damage")]
    assert named and all(isinstance(e.get("by"), int) for e in named)

    def unnamed(e: Event) -> Event:
        return Event(e.kind, e.side, e.unit, tuple(v for v in e.values if v[0] != "by"))

    reordered = 12
    assert sorted(map(repr, map(unnamed, new.events[:reordered]))) == \
        sorted(map(repr, old.events[:reordered]))
    assert [unnamed(e) for e in new.events[reordered:]] == list(old.events[reordered:])
    kept = json.loads((DATA / "op40k-match-v1-states.json").read_text(encoding="utf-8"))
    for count, data in kept.items():
        assert PLAY.to_data(replay(PLAY, old, old.events[:int(count)])) == data, count
    for count in range(reordered, len(old.events) + 1):
        assert PLAY.to_data(replay(PLAY, old, old.events[:count])) == \
            PLAY.to_data(replay(PLAY, new, new.events[:count])), count
    # an old log's shot by nobody named is not checked, even right after a Run
    assert play(*boyz_then_marines("Run")[:2], event("shot", 2, MARINES_UNIT, models=1)
                ).unit(2, MARINES_UNIT).left == 4
