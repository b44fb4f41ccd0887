"""One Page 40k (1st edition) at the table (listbuilder/systems/op40k/play.py): each rule of
play pinned to the seed's numbers, with the refusals a player meets and the end of the game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playtools import LIBRARY, player, refused_last, replayed

from listbuilder.engine.match import Event, Match, MatchError, event, replay
from listbuilder.engine.match_file import read_match
from listbuilder.engine.registry import get_system
from listbuilder.systems.op40k.model import Op40kCatalog
from listbuilder.systems.op40k.play import (
    DESTROYED_EFFECT,
    DIE,
    FLED_OFF,
    FLEEING,
    HOLD_ONLY_EFFECT,
    HOLD_ONLY_FROM,
    RALLIED,
    ROUNDS,
    SCORE,
    SHAKEN_EFFECT,
    STEADY,
    Op40kPlay,
    Op40kState,
    UnitState,
)

ROOT = Path(__file__).resolve().parents[2]

PLAY = Op40kPlay(get_system("op40k"))


def moves(state: Any) -> list[Event]:
    """What the rules offer now, but the concessions (offered at any time)."""
    return [ev for ev in PLAY.offers(state) if ev.kind != "concede"]

ORKS = """format: 1
system: op40k
name: Small Mob
points_limit: 500
factions: [Orks]
entries:
  - unit: Ork Boyz
    count: 10
  - unit: Gretchin
    count: 10
  - unit: Trukk
    count: 1
"""
MARINES = """format: 1
system: op40k
name: Small Squad
points_limit: 500
factions: [Space Marines]
entries:
  - unit: Space Marines
    count: 5
  - unit: Predator
    count: 1
"""
# side 1: 1 Ork Boyz (10 models, 50 pts), 2 Gretchin (10, 30 pts), 3 Trukk (40 pts)
# side 2: 1 Space Marines (5 models, 75 pts), 2 Predator (120 pts)
BOYZ, GRETCHIN, TRUKK = 1, 2, 3
MARINES_UNIT, PREDATOR = 1, 2


TWO = Match("op40k", (player("Ork", ORKS), player("Marine", MARINES)))
SOLO = Match("op40k", (player("Ork", ORKS),))


def play(*events: Event, match: Match = TWO) -> Op40kState:
    return replayed(PLAY, match, events)


def refused(*events: Event, match: Match = TWO) -> MatchError:
    """The last event is refused (the ones before it are accepted)."""
    return refused_last(PLAY, match, events)


def unit(state: Op40kState, side: int, number: int) -> UnitState:
    return state.unit(side, number)


def act(side: int, number: int, action: str = "Hold") -> Event:
    return event("activate", side, number, action=action)


# a whole round with nobody hurt: side 1 first, then turns alternate; side 2 runs out first
QUIET_ROUND = (event("first-turn", 1), act(1, BOYZ), act(2, MARINES_UNIT), act(1, GRETCHIN),
               act(2, PREDATOR), act(1, TRUKK), event("round-end"))


def test_the_game_is_registered_and_starts_from_the_rosters() -> None:
    """Each entry is a unit of its size in models (a vehicle one), its Quality, and the
    entry's cost from the roster, which is what the enemy scores for it."""
    built = get_system("op40k").play()
    assert isinstance(built, type(PLAY)) and built.system is get_system("op40k")
    state = PLAY.start(TWO)
    boyz, trukk = unit(state, 1, BOYZ), unit(state, 1, TRUKK)
    assert (boyz.size, boyz.left, boyz.quality, boyz.points, boyz.vehicle) == (10, 10, 5, 50,
                                                                               False)
    assert (trukk.size, trukk.points, trukk.vehicle) == (1, 40, True)
    assert unit(state, 2, MARINES_UNIT).quality == 3
    assert boyz.actions == ("Hold", "Overwatch", "Walk", "Run", "Assault")
    assert trukk.actions == ("Hold", "Move", "Cruise")
    rows = PLAY.units(state, 1)
    assert rows[0] == {"unit": 1, "name": "Ork Boyz", "alive": True, "status": STEADY,
                       "points": 50, "activated": False, "action": "", "reacted": False,
                       "must_test": False, "tests": [], "models": 10, "size": 10}
    assert rows[2]["vehicle"] is True and rows[2]["damage"] == []


def test_four_rounds_then_the_game_is_over() -> None:
    """The game lasts 4 rounds: the fourth round's end ends it, and nothing comes after."""
    assert ROUNDS == 4 == PLAY.rounds
    state = play(*QUIET_ROUND * 3)
    assert state.round == 4 and not PLAY.outcome(state).over
    assert PLAY.outcome(state).reason == "round 4 of 4"
    state = play(*QUIET_ROUND * 4)
    assert state.over and PLAY.outcome(state).over
    assert moves(state) == []
    assert refused(*QUIET_ROUND * 4, event("first-turn", 1)).message == "the game is over"


def test_each_round_starts_with_the_roll_off() -> None:
    """Before each round the players roll off for the first turn: no activation before it,
    and one winner a round."""
    assert "roll-off" in refused(act(1, BOYZ)).message
    assert "already won" in refused(event("first-turn", 2), event("first-turn", 1)).message
    assert "roll-off" in refused(*QUIET_ROUND, act(1, BOYZ)).message
    state = play(event("first-turn", 2))
    assert (state.first, state.turn) == (2, 2)
    assert [e.kind for e in moves(PLAY.start(TWO))] == ["first-turn", "first-turn"]


def test_players_alternate_one_unit_each_until_all_have_activated() -> None:
    """Turns alternate, a unit at a time, each unit once a round; when one side has no unit
    left to activate, the other activates the rest of its own."""
    assert "side 2's turn" in refused(event("first-turn", 1), act(1, BOYZ),
                                      act(1, GRETCHIN)).message
    assert "already activated" in refused(event("first-turn", 1), act(1, BOYZ),
                                          act(2, MARINES_UNIT), act(1, BOYZ)).message
    state = play(*QUIET_ROUND[:5])  # side 2 is done; side 1 still has its Trukk
    assert state.turn == 1
    state = play(*QUIET_ROUND[:6])
    assert state.turn is None
    assert moves(state)[0].kind == "round-end"


def test_the_round_ends_only_when_every_unit_has_activated() -> None:
    error = refused(event("first-turn", 1), act(1, BOYZ), event("round-end"))
    assert "4 unit(s) have not activated in round 1" in error.message
    state = play(*QUIET_ROUND)
    assert state.round == 2 and state.first is None
    assert not any(u.activated for units in state.sides for u in units)


def test_actions_are_the_units_or_the_vehicles() -> None:
    """Units Hold, Overwatch, Walk, Run or Assault; vehicles Hold, Move or Cruise."""
    start = (event("first-turn", 1),)
    assert play(*start, act(1, BOYZ, "run")).unit(1, BOYZ).action == "Run"
    assert "Take one of: Hold, Move, Cruise" in refused(
        *start, act(1, TRUKK, "Assault")).fix
    assert "Take one of: Hold, Overwatch" in refused(*start, act(1, BOYZ, "Cruise")).fix


# -- shooting and morale -----------------------------------------------------------------------

def test_an_attack_that_halves_a_unit_calls_for_a_morale_test() -> None:
    """A unit brought down to half its size before the attack, or fewer, tests; one left
    above half does not; a unit wiped out has nobody to test."""
    start = (event("first-turn", 2), act(2, MARINES_UNIT))
    assert unit(play(*start, event("shot", 1, BOYZ, models=5)), 1, BOYZ).must_test  # 10 -> 5
    assert not unit(play(*start, event("shot", 1, BOYZ, models=4)), 1, BOYZ).must_test
    # half the size before *this* attack: 10 -> 7 -> 4 halves no attack's 'before'; 7 -> 3 does
    two_shots = play(*start, event("shot", 1, BOYZ, models=3), event("shot", 1, BOYZ, models=3))
    assert not unit(two_shots, 1, BOYZ).must_test and unit(two_shots, 1, BOYZ).left == 4
    assert unit(play(*start, event("shot", 1, BOYZ, models=3),
                     event("shot", 1, BOYZ, models=4)), 1, BOYZ).must_test
    wiped = unit(play(*start, event("shot", 1, BOYZ, models=10)), 1, BOYZ)
    assert (wiped.left, wiped.status, wiped.must_test) == (0, "destroyed", False)


def test_shots_are_refused_when_they_cannot_happen() -> None:
    start = (event("first-turn", 2), act(2, MARINES_UNIT))
    assert "no unit has activated" in refused(event("first-turn", 1),
                                              event("shot", 1, BOYZ, models=1)).message
    assert "1 to 10" in refused(*start, event("shot", 1, BOYZ, models=11)).message
    assert "1 to 10" in refused(*start, event("shot", 1, BOYZ, models=0)).message
    assert "vehicle-damage" in refused(*start, event("shot", 1, TRUKK, models=1)).fix
    gone = (*start, event("shot", 1, BOYZ, models=10))
    assert "destroyed" in refused(*gone, event("shot", 1, BOYZ, models=1)).message


def test_a_failed_morale_test_flees_and_a_test_is_taken_before_anything_else() -> None:
    """The test's result is recorded: passed, nothing happens; failed, the unit flees. The
    game waits for it: no activation and no round end while a test is due."""
    halved = (event("first-turn", 2), act(2, MARINES_UNIT), event("shot", 1, BOYZ, models=6))
    assert "must take its morale test" in refused(*halved, act(1, BOYZ)).message
    assert [e.kind for e in moves(play(*halved))] == ["morale", "morale"]
    held = unit(play(*halved, event("morale", 1, BOYZ, passed=True)), 1, BOYZ)
    assert (held.status, held.tests, held.must_test) == (STEADY, ("passed",), False)
    fled = unit(play(*halved, event("morale", 1, BOYZ, passed=False)), 1, BOYZ)
    assert (fled.status, fled.tests) == (FLEEING, ("failed",))
    assert "no morale test" in refused(*halved, event("morale", 1, BOYZ, passed=True),
                                       event("morale", 1, BOYZ, passed=True)).message


FLED = (event("first-turn", 2), act(2, MARINES_UNIT), event("shot", 1, BOYZ, models=6),
        event("morale", 1, BOYZ, passed=False))


def test_a_fleeing_unit_must_pass_a_morale_test_to_activate() -> None:
    """A fleeing unit tests when its turn comes: passed, it has rallied and activates at
    once; failed, it flees again and that was its activation."""
    assert "must pass a morale test" in refused(*FLED, act(1, BOYZ)).message
    rallied = play(*FLED, event("rally", 1, BOYZ, passed=True))
    assert unit(rallied, 1, BOYZ).status == RALLIED and rallied.ready == (1, BOYZ)
    assert "activates now" in refused(*FLED, event("rally", 1, BOYZ, passed=True),
                                      act(1, GRETCHIN)).message
    assert [e.kind for e in moves(rallied)] == ["activate"] * 5
    after = play(*FLED, event("rally", 1, BOYZ, passed=True), act(1, BOYZ, "Walk"))
    assert unit(after, 1, BOYZ).activated and after.turn == 2
    again = play(*FLED, event("rally", 1, BOYZ, passed=False))
    boyz = unit(again, 1, BOYZ)
    assert (boyz.status, boyz.activated, boyz.tests) == (FLEEING, True, ("failed", "failed"))
    assert again.turn == 2
    assert "not fleeing" in refused(*FLED, event("rally", 1, GRETCHIN, passed=True)).message


def test_a_fleeing_unit_that_fails_again_stays_fleeing_and_may_leave_the_table() -> None:
    """A fleeing unit that fails another test flees again; a flee move off the table removes
    the whole unit as a casualty. Only a fleeing unit makes a flee move."""
    state = play(*FLED, event("shot", 1, BOYZ, models=2), event("morale", 1, BOYZ, passed=True))
    assert unit(state, 1, BOYZ).status == FLEEING  # passing changes nothing
    off = unit(play(*FLED, event("off-table", 1, BOYZ)), 1, BOYZ)
    assert (off.status, off.left, off.killed) == (FLED_OFF, 0, True)
    assert "not fleeing" in refused(*FLED, event("off-table", 1, GRETCHIN)).message
    assert FLED_OFF in refused(*FLED, event("off-table", 1, BOYZ), act(1, BOYZ)).message


# -- assaults ------------------------------------------------------------------------------------

CHARGE = (event("first-turn", 1), act(1, BOYZ, "Assault"))


def test_the_side_that_loses_more_models_in_an_assault_tests() -> None:
    """Both units lose their models at once; the one that lost more tests morale, and a tie
    tests nobody (unless a unit was halved)."""
    state = play(*CHARGE, event("assault", 1, BOYZ, target=MARINES_UNIT, lost=3, killed=1))
    assert unit(state, 1, BOYZ).must_test and unit(state, 1, BOYZ).left == 7
    assert not unit(state, 2, MARINES_UNIT).must_test and unit(state, 2, MARINES_UNIT).left == 4
    tie = play(*CHARGE, event("assault", 1, BOYZ, target=MARINES_UNIT, lost=1, killed=1))
    assert tie.pending_tests == ()


def test_a_unit_halved_in_an_assault_tests_even_if_it_won() -> None:
    """An assault is an attack: Space Marines 5 -> 2 have been halved, though the Boyz lost
    more; both test (once each)."""
    state = play(*CHARGE, event("assault", 1, BOYZ, target=MARINES_UNIT, lost=4, killed=3))
    assert state.pending_tests == ((1, BOYZ), (2, MARINES_UNIT))


def test_an_assault_follows_its_units_assault_action_once() -> None:
    walk = (event("first-turn", 1), act(1, BOYZ, "Walk"))
    fight = event("assault", 1, BOYZ, target=MARINES_UNIT, lost=0, killed=0)
    assert "Assault action" in refused(*walk, fight).message
    assert "already fought" in refused(*CHARGE, fight, fight).message
    assert "units 1 to 2" in refused(*CHARGE, event("assault", 1, BOYZ, target=3, lost=0,
                                                    killed=0)).message
    shot_down = (*CHARGE, event("shot", 1, BOYZ, models=5), event("morale", 1, BOYZ,
                                                                  passed=False))
    assert "fled before" in refused(*shot_down, fight).message
    assert "'killed'" in refused(*CHARGE, event("assault", 1, BOYZ, target=MARINES_UNIT,
                                                lost=0)).message
    assert "0 to 5" in refused(*CHARGE, event("assault", 1, BOYZ, target=MARINES_UNIT,
                                              lost=0, killed=6)).message


def test_an_assaulted_vehicle_rolls_for_damage_and_never_tests_morale() -> None:
    """A vehicle loses no models: its damage roll is given instead; destroyed, it counts as
    the one model it lost when the losers are compared."""
    state = play(*CHARGE, event("assault", 1, BOYZ, target=PREDATOR, lost=1, damage=6))
    assert unit(state, 2, PREDATOR).status == "destroyed"
    assert state.pending_tests == ()  # 1 lost each: a tie
    state = play(*CHARGE, event("assault", 1, BOYZ, target=PREDATOR, lost=1))
    assert unit(state, 1, BOYZ).must_test and unit(state, 2, PREDATOR).damage == ()
    assert "loses no models" in refused(*CHARGE, event("assault", 1, BOYZ, target=PREDATOR,
                                                       lost=0, killed=1)).message


# -- vehicles ------------------------------------------------------------------------------------

def test_the_damage_table_is_the_seeds() -> None:
    """1-3: a Quality test to activate; 4-5: Hold only for the rest of the game; 6: destroyed.
    The catalog's table (data/system.yaml) says the same."""
    catalog = LIBRARY.catalog("op40k")
    assert isinstance(catalog, Op40kCatalog)
    expected = {1: SHAKEN_EFFECT, 2: SHAKEN_EFFECT, 3: SHAKEN_EFFECT, 4: HOLD_ONLY_EFFECT,
                5: HOLD_ONLY_EFFECT, 6: DESTROYED_EFFECT}
    assert DIE == 6 and HOLD_ONLY_FROM == 4
    for roll, effect in expected.items():
        found = catalog.damage(roll)
        assert found is not None and found.effect == effect
    start = (event("first-turn", 1), act(1, BOYZ))
    for roll, effect in expected.items():
        predator = unit(play(*start, event("vehicle-damage", 2, PREDATOR, roll=roll)), 2,
                        PREDATOR)
        assert predator.damage == (roll,)
        assert predator.shaken == (effect == SHAKEN_EFFECT)
        assert predator.hold_only == (effect == HOLD_ONLY_EFFECT)
        assert predator.killed == (effect == DESTROYED_EFFECT)
    assert "1 to 6" in refused(*start, event("vehicle-damage", 2, PREDATOR, roll=7)).message
    assert "not a vehicle" in refused(*start, event("vehicle-damage", 2, 1, roll=3)).message


SHAKEN = (event("first-turn", 1), act(1, BOYZ), event("vehicle-damage", 2, PREDATOR, roll=2),
          act(2, MARINES_UNIT), act(1, GRETCHIN))


def test_a_shaken_vehicle_tests_once_before_its_next_activation() -> None:
    """A 1-3 result asks a Quality test before the vehicle next activates: passed, it
    activates; failed, it loses that activation. Either way the result is spent."""
    assert "must pass a Quality test" in refused(*SHAKEN, act(2, PREDATOR)).message
    passed = play(*SHAKEN, event("vehicle-test", 2, PREDATOR, passed=True), act(2, PREDATOR))
    assert unit(passed, 2, PREDATOR).action == "Hold" and not unit(passed, 2, PREDATOR).shaken
    failed = play(*SHAKEN, event("vehicle-test", 2, PREDATOR, passed=False))
    predator = unit(failed, 2, PREDATOR)
    assert (predator.activated, predator.shaken, predator.tests) == (True, False, ("failed",))
    # next round it activates without a test
    nxt = play(*SHAKEN, event("vehicle-test", 2, PREDATOR, passed=False), act(1, TRUKK),
               event("round-end"), event("first-turn", 2), act(2, PREDATOR, "Move"))
    assert unit(nxt, 2, PREDATOR).action == "Move"
    assert "not shaken" in refused(event("first-turn", 1),
                                   event("vehicle-test", 1, TRUKK, passed=True)).message


def test_a_vehicle_on_4_or_5_may_only_hold_for_the_rest_of_the_game() -> None:
    hit = (event("first-turn", 2), act(2, MARINES_UNIT), event("vehicle-damage", 1, TRUKK, roll=5))
    assert "Hold only" in refused(*hit, act(1, TRUKK, "Move")).message
    rest = (act(1, BOYZ), act(2, PREDATOR), act(1, GRETCHIN), act(1, TRUKK), event("round-end"))
    later = (event("first-turn", 1), act(1, TRUKK, "Cruise"))
    assert "Take one of: Hold." in refused(*hit, *rest, *later).fix
    assert play(*hit, *rest, event("first-turn", 1), act(1, TRUKK)).unit(1, TRUKK).hold_only


def test_a_destroyed_unit_no_longer_activates_and_the_turn_passes_on() -> None:
    """Units killed before they activate drop out of the round: a side left with none hands
    the rest of the round to the other."""
    state = play(event("first-turn", 1), act(1, BOYZ), event("vehicle-damage", 2, PREDATOR,
                                                              roll=6))
    assert state.turn == 2
    assert "destroyed" in refused(event("first-turn", 1), act(1, BOYZ),
                                  event("vehicle-damage", 2, PREDATOR, roll=6),
                                  act(2, PREDATOR)).message
    state = play(event("first-turn", 1), act(1, BOYZ), event("vehicle-damage", 2, PREDATOR,
                                                              roll=6),
                 event("shot", 2, MARINES_UNIT, models=5))
    assert state.turn == 1  # side 2 has nobody left: side 1 goes on


# -- the end -------------------------------------------------------------------------------------

def _four_rounds(*first_round: Event) -> Op40kState:
    return play(*first_round, *QUIET_ROUND * 3)


def test_the_winner_has_more_points_of_enemy_units_killed_or_fleeing() -> None:
    """After round 4 each side counts the points of enemy units killed (wiped out, destroyed,
    fled off the table) or fleeing; more points wins."""
    first = (event("first-turn", 1), act(1, BOYZ), event("vehicle-damage", 2, PREDATOR, roll=6),
             event("shot", 1, GRETCHIN, models=5), event("morale", 1, GRETCHIN, passed=False),
             act(2, MARINES_UNIT), event("rally", 1, GRETCHIN, passed=False), act(1, TRUKK),
             event("round-end"))
    state = play(*first)
    assert state.score(1) == 120 and state.score(2) == 30  # Predator; fleeing Gretchin
    rounds = (event("first-turn", 2), act(2, MARINES_UNIT), act(1, BOYZ),
              event("rally", 1, GRETCHIN, passed=False), act(1, TRUKK), event("round-end"))
    end = play(*first, *rounds * 3)
    outcome = PLAY.outcome(end)
    assert outcome.over and outcome.winner == 1
    assert outcome.reason == "after round 4: 120 pts to 30"
    assert dict(outcome.scores)[SCORE] == (120, 30)


def test_a_rallied_unit_is_not_fleeing_at_the_end() -> None:
    first = (event("first-turn", 1), act(1, BOYZ), event("shot", 1, GRETCHIN, models=5),
             event("morale", 1, GRETCHIN, passed=False), act(2, MARINES_UNIT),
             event("rally", 1, GRETCHIN, passed=True), act(1, GRETCHIN), act(2, PREDATOR),
             act(1, TRUKK), event("round-end"))
    end = _four_rounds(*first)
    assert unit(end, 1, GRETCHIN).status == RALLIED
    outcome = PLAY.outcome(end)
    assert outcome.winner is None and outcome.reason == "after round 4: a draw at 0 pts each"


def test_a_solo_game_plays_alone_and_names_no_winner() -> None:
    """One player: the enemy is kept on paper, so an assault gives only its losses."""
    rnd = (event("first-turn", 1), act(1, BOYZ, "Assault"),
           event("assault", 1, BOYZ, target=4, lost=2, killed=1), event("morale", 1, BOYZ,
                                                                        passed=True),
           act(1, GRETCHIN), act(1, TRUKK), event("round-end"))
    state = play(*rnd, match=SOLO)
    assert unit(state, 1, BOYZ).left == 8 and unit(state, 1, BOYZ).tests == ("passed",)
    rest = (event("first-turn", 1), act(1, BOYZ), act(1, GRETCHIN), act(1, TRUKK),
            event("round-end"))
    end = play(*rnd, *rest * 3, match=SOLO)
    outcome = PLAY.outcome(end)
    assert outcome.over and outcome.winner is None
    assert dict(outcome.scores)[SCORE] == (0,)
    assert "needs a side, 1, not 2" in refused(event("first-turn", 2), match=SOLO).message


# docs/rules-notes.md, One Page 40k, "At the table: conceding"
# Ork's Predator kill is worth 120 pts; the halved Gretchin's morale test is due
TEST_DUE = (event("first-turn", 1), act(1, BOYZ), event("vehicle-damage", 2, PREDATOR, roll=6),
            event("shot", 1, GRETCHIN, models=5))


def test_a_concession_ends_the_game_at_once_and_the_other_side_wins() -> None:
    """Any round, anyone's turn, a morale test due or not: the other side wins whatever the
    points say, and nothing more is recorded."""
    state = play(*TEST_DUE, event("concede", 1))
    outcome = PLAY.outcome(state)
    assert (outcome.over, outcome.winner, outcome.reason) == (True, 2, "Ork conceded")
    assert dict(outcome.scores)[SCORE] == (120, 0)
    shown = PLAY.to_data(state)
    assert (shown["conceded"], shown["over"], shown["turn"]) == (1, True, None)
    assert moves(state) == [] and PLAY.offers(state) == []
    assert refused(*TEST_DUE, event("concede", 1),
                   event("morale", 1, GRETCHIN, passed=True)).message == "the game is over"
    assert PLAY.outcome(play(event("concede", 2))).winner == 1  # before the first roll-off


def test_undoing_a_concession_brings_the_game_back() -> None:
    back = play(*TEST_DUE)  # the log without the concession
    assert not PLAY.outcome(back).over and back.pending_tests == ((1, GRETCHIN),)
    assert {event("concede", 1), event("concede", 2)} <= set(PLAY.offers(back))
    assert play(*TEST_DUE, event("morale", 1, GRETCHIN, passed=False)).unit(
        1, GRETCHIN).status == FLEEING


def test_a_solo_concession_ends_the_game_with_no_winner() -> None:
    outcome = PLAY.outcome(play(*QUIET_ROUND[:2], event("concede", 1), match=SOLO))
    assert outcome.over and outcome.winner is None
    assert outcome.reason == "Ork conceded: a solo game has no winner"


def test_the_example_match_is_won_by_the_space_marines_last_round_rally() -> None:
    path = ROOT / "examples" / "op40k" / "match.yaml"
    match = read_match(path.read_text(encoding="utf-8"), str(path), LIBRARY.read_roster).match
    state = replay(PLAY, match)
    outcome = PLAY.outcome(state)
    assert (outcome.over, outcome.winner) == (True, 2)
    assert outcome.reason == "after round 4: 225 pts to 175"
    assert {e.kind for e in match.events} == set(PLAY.kinds) - {"concede"}
    assert 20 <= len(match.events) <= 60


def test_an_overwatch_unit_reacts_once_a_round_during_an_enemy_activation() -> None:
    """The seed's Overwatch "may react once per round by firing at enemy movement": the
    reaction is its own event (its models removed are a shot on the target), refused a second
    time in the round, on the unit's own side's activation, or for a unit not on Overwatch.
    Reading: docs/rules-notes.md#at-the-table-overwatch-reacts-once-a-round"""
    watching = (event("first-turn", 1), act(1, BOYZ, "Overwatch"), act(2, MARINES_UNIT, "Walk"))
    reacted = play(*watching, event("react", 1, BOYZ), event("shot", 2, MARINES_UNIT, models=2))
    assert unit(reacted, 1, BOYZ).reacted and unit(reacted, 2, MARINES_UNIT).left == 3
    assert event("react", 1, BOYZ) not in moves(reacted)
    again = refused_last(PLAY, TWO, (*watching, event("react", 1, BOYZ),
                                     event("react", 1, BOYZ)))
    assert "already reacted this round" in again.message
    own = refused_last(PLAY, TWO, (event("first-turn", 1), act(1, BOYZ, "Overwatch"),
                                   event("react", 1, BOYZ)))
    assert "its own side's" in own.message
    not_on = refused_last(PLAY, TWO, (event("first-turn", 1), act(1, BOYZ, "Walk"),
                                      act(2, MARINES_UNIT, "Walk"), event("react", 1, BOYZ)))
    assert "not on Overwatch" in not_on.message
    # the round's end clears it with the action: a new round, a new reaction
    round_one = (*watching, event("react", 1, BOYZ), act(1, GRETCHIN), act(2, PREDATOR),
                 act(1, TRUKK), event("round-end"))
    assert not unit(play(*round_one), 1, BOYZ).reacted
    assert unit(play(*round_one, *watching[:1], act(1, BOYZ, "Overwatch"),
                     act(2, MARINES_UNIT, "Walk"), event("react", 1, BOYZ)), 1, BOYZ).reacted
