"""ActionHammer at the table (listbuilder/systems/actionhammer/play.py): each rule of play
pinned to the seed's core rules (003), the refusals a player meets, the end of the game and
the winner, and the readings of docs/rules-notes.md (ActionHammer, "At the table")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playtools import LIBRARY, player, refused_last, replayed

from listbuilder.engine.match import Event, Match, MatchError, event, replay
from listbuilder.engine.match_file import read_match
from listbuilder.engine.registry import get_system
from listbuilder.systems.actionhammer.model import ActionHammerCatalog
from listbuilder.systems.actionhammer.play import (
    ATTACKING,
    DEFAULT_OBJECTIVES,
    DEFENSIVE,
    MORALE_DIVISOR,
    OBJECTIVES_MAX,
    OBJECTIVES_MIN,
    OPENING,
    OPENING_FALLBACK,
    REGULAR,
    ROUNDS,
    SCORING_FROM_ROUND,
    STUNNED,
    VP,
    VP_PER_OBJECTIVE,
    VP_PER_TURN_MAX,
    ActionHammerPlay,
    ActionHammerState,
    UnitState,
)

ROOT = Path(__file__).resolve().parents[2]
COBALT = (ROOT / "examples" / "actionhammer" / "legal.yaml").read_text(encoding="utf-8")
HORDE = """format: 1
system: actionhammer
name: Ashen Horde raiders
points_limit: 2000
factions: [Ashen Horde]
entries:
  - unit: Reaver Mob
    count: 12
    upgrades: [War Paint, Banner of Skulls]
    label: mob
  - unit: Warlord Skarn
    joins: mob
  - unit: Tusk Riders
    count: 5
  - unit: Carrion Flyers
    count: 6
"""
# side 1: 1 Line Troopers (10 models, W1, Control 1), 2 Brigade Captain (W5, Control 2) joined
# to them, 3 Recon Marshal (W4, Morale 3, Control 2), 4 Dragoon Riders (Mounted, 4 models, W3,
# Control 2 with the Standard), 5 Strider Walker (Fearless, W12, Control 3)
TROOPERS, CAPTAIN, MARSHAL, DRAGOONS, WALKER = 1, 2, 3, 4, 5
# side 2: 1 Reaver Mob (12 models, W1, Morale 4, Control 2 with its upgrades), 2 Warlord Skarn
# (W6, Control 2) joined to it, 3 Tusk Riders (Mounted, 5 models, W3), 4 Carrion Flyers
# (Flying, 6 models, W1, Control 1)
MOB, SKARN, TUSKS, FLYERS = 1, 2, 3, 4

PLAY = ActionHammerPlay(get_system("actionhammer"))


def moves(state: Any) -> list[Event]:
    """What the rules offer now, but the concessions (offered at any time)."""
    return [ev for ev in PLAY.offers(state) if ev.kind != "concede"]

PLAYERS = (player("Ann", COBALT), player("Ben", HORDE))
TWO = Match("actionhammer", PLAYERS, (), (("objectives", 3),))
SOLO = Match("actionhammer", PLAYERS[:1], (), (("objectives", 3),))


def play(*events: Event, match: Match = TWO) -> ActionHammerState:
    return replayed(PLAY, match, events)


def refused(*events: Event, match: Match = TWO) -> MatchError:
    """The last event is refused (the ones before it are accepted)."""
    return refused_last(PLAY, match, events)


def with_options(**options: int | str) -> Match:
    return Match("actionhammer", PLAYERS, (), tuple(sorted(options.items())))


def act(side: int, number: int, stance: str | None = None,
        objective: int | None = None) -> Event:
    values: dict[str, str | int] = {}
    if stance is not None:
        values["stance"] = stance
    if objective is not None:
        values["objective"] = objective
    return event("activate", side, number, **values)


def wound(side: int, number: int, wounds: int) -> Event:
    return event("wound", side, number, wounds=wounds)


def end(side: int) -> Event:
    return event("end-turn", side)


def unit(state: ActionHammerState, side: int, number: int) -> UnitState:
    return state.unit(side, number)


# a turn of each side in which every unit just activates (and stays where it was)
ANN_TURN = (act(1, TROOPERS), act(1, MARSHAL), act(1, DRAGOONS), act(1, WALKER), end(1))
BEN_TURN = (act(2, MOB), act(2, TUSKS), act(2, FLYERS), end(2))
QUIET_ROUND = (*ANN_TURN, *BEN_TURN)
START = (event("first-turn", 1),)


# -- the start -----------------------------------------------------------------------------------

def test_the_game_is_registered_and_starts_from_the_rosters() -> None:
    """Each entry is a unit of its models with its datasheet's Wounds, Morale and Control
    after upgrades (the Dragoons' Standard: Control 2; War Paint: Morale 4)."""
    built = get_system("actionhammer").play()
    assert isinstance(built, type(PLAY)) and built.system is get_system("actionhammer")
    state = PLAY.start(TWO)
    troopers, dragoons = unit(state, 1, TROOPERS), unit(state, 1, DRAGOONS)
    assert (troopers.size, troopers.left, troopers.wounds, troopers.control) == (10, 10, 1, 1)
    assert (dragoons.size, dragoons.wounds, dragoons.control) == (4, 3, 2)
    mob = unit(state, 2, MOB)
    assert (mob.size, mob.morale, mob.control) == (12, 4, 2)
    assert unit(state, 1, WALKER).fearless and unit(state, 2, FLYERS).flying
    rows = PLAY.units(state, 1)
    assert rows[MARSHAL - 1] == {
        "unit": 3, "name": "Recon Marshal", "alive": True, "label": "", "models": 1,
        "size": 1, "wounds_each": 4, "wounds_taken": 0, "hurt": 0, "stance": DEFENSIVE,
        "stunned": False, "grounded": False, "joined_to": 0, "activated": False,
        "objective": 0, "morale": "3+", "morale_due": False, "tests": [], "move": "",
        "struck_back": 0}
    assert rows[TROOPERS - 1]["joined_to"] == CAPTAIN
    assert rows[CAPTAIN - 1]["joined_to"] == TROOPERS


def test_units_start_defensive_unless_they_may_not_take_it() -> None:
    """Before its first activation a unit is in the Defensive stance; a unit that can't take
    it (Mounted) is in the Regular stance. A Flyer in Defensive has landed."""
    assert (OPENING, OPENING_FALLBACK) == (DEFENSIVE, REGULAR)
    state = PLAY.start(TWO)
    assert unit(state, 1, TROOPERS).stance == DEFENSIVE
    assert unit(state, 1, DRAGOONS).stance == REGULAR
    assert unit(state, 2, TUSKS).stance == REGULAR
    assert PLAY.units(state, 2)[FLYERS - 1]["grounded"] is True
    assert DEFENSIVE not in unit(state, 1, DRAGOONS).stances


def test_the_numbers_are_the_seeds() -> None:
    """The same numbers as the game's core table (data/system.yaml), read from the seed."""
    catalog = PLAYERS[0].catalog
    assert isinstance(catalog, ActionHammerCatalog)
    game = catalog.game
    assert ROUNDS == game.rounds == PLAY.rounds == 4
    assert (OBJECTIVES_MIN, OBJECTIVES_MAX) == (game.objectives_min, game.objectives_max) \
        == (3, 5)
    assert SCORING_FROM_ROUND == game.scoring_from_round == 2
    assert VP_PER_OBJECTIVE == game.vp_per_objective == 1
    assert VP_PER_TURN_MAX == game.vp_per_turn_max == 3
    assert MORALE_DIVISOR == game.morale_divisor == 2
    assert (game.opening_stance, game.opening_fallback) == (OPENING, OPENING_FALLBACK)


# -- objectives: the match option ------------------------------------------------------------

def test_three_to_five_objectives_are_a_match_option() -> None:
    """The mission places 3-5 (or D3+2) objective markers: `objectives` says how many; a
    match that does not say has 3 (our reading). Any other number refuses the match itself."""
    assert DEFAULT_OBJECTIVES == 3
    assert PLAY.start(Match("actionhammer", PLAYERS)).objectives == 3
    for n in (3, 4, 5):
        assert PLAY.start(with_options(objectives=n)).objectives == n
    for bad in (2, 6, "four"):
        with pytest.raises(MatchError) as raised:
            replay(PLAY, with_options(objectives=bad))
        assert raised.value.position == 0 and "3 to 5" in raised.value.message
    with pytest.raises(MatchError) as raised:
        replay(PLAY, with_options(objective=4))
    assert "no option 'objective'" in raised.value.message


# -- turns and rounds --------------------------------------------------------------------------

def test_the_roll_off_winner_takes_the_first_turn_of_every_round() -> None:
    """Nothing happens before the first turn; the deployment roll-off is won once; turns
    then alternate, the winner first in every round."""
    assert "first turn" in refused(act(1, TROOPERS)).message
    assert "first turn" in refused(wound(1, TROOPERS, 1)).message
    assert "already won the roll-off and goes first" in refused(
        *START, event("first-turn", 2)).message
    assert [e.kind for e in moves(PLAY.start(TWO))] == ["first-turn", "first-turn"]
    state = play(event("first-turn", 2))
    assert (state.first, state.turn) == (2, 2)
    state = play(*START, *ANN_TURN)
    assert (state.round, state.turn) == (1, 2)
    state = play(*START, *QUIET_ROUND)
    assert (state.round, state.turn) == (2, 1)


def test_a_player_activates_each_unit_once_in_their_own_turn() -> None:
    """During their turn a player activates all their units one by one; the turn ends only
    when each has activated."""
    assert "side 1's turn" in refused(*START, act(2, MOB)).message
    assert "already activated" in refused(*START, act(1, MARSHAL), act(1, MARSHAL)).message
    error = refused(*START, act(1, MARSHAL), end(1))
    assert "3 unit(s) of side 1 have not activated" in error.message
    assert "side 1's turn, not side 2's" in refused(*START, end(2)).message
    state = play(*START, *ANN_TURN)
    assert not any(u.activated for u in state.sides[0])  # ready for the next turn


def test_a_leader_and_its_bodyguard_are_one_unit() -> None:
    """A Leader deployed with its Bodyguard activates with it, once, in one stance, by
    either entry's number."""
    state = play(*START, act(1, CAPTAIN, ATTACKING, 1))
    for number in (TROOPERS, CAPTAIN):
        u = unit(state, 1, number)
        assert (u.activated, u.stance, u.objective) == (True, ATTACKING, 1)
    assert "already activated" in refused(*START, act(1, CAPTAIN), act(1, TROOPERS)).message
    assert play(*START, act(1, TROOPERS), act(1, MARSHAL), act(1, DRAGOONS), act(1, WALKER),
                end(1)).turn == 2


def test_four_rounds_then_the_game_is_over() -> None:
    """The battle ends once the fourth round has ended; nothing comes after it."""
    state = play(*START, *QUIET_ROUND * 3)
    assert state.round == 4 and not PLAY.outcome(state).over
    assert PLAY.outcome(state).reason == "round 4 of 4"
    state = play(*START, *QUIET_ROUND * 4)
    assert state.over and PLAY.outcome(state).over
    assert moves(state) == []
    assert refused(*START, *QUIET_ROUND * 4, act(1, MARSHAL)).message == "the game is over"
    outcome = PLAY.outcome(state)
    assert (outcome.winner, outcome.reason) == (None, "after round 4: a draw at 0 VP each")


# -- stances -----------------------------------------------------------------------------------

def test_the_stance_changes_only_at_activation_and_stays_until_the_next() -> None:
    """A player picks Regular, Attacking or Defensive as the unit activates (or keeps the one
    it has); Mounted units can't take Defensive; Stunned is never picked."""
    state = play(*START, act(1, MARSHAL, "attacking"))
    assert unit(state, 1, MARSHAL).stance == ATTACKING
    state = play(*START, act(1, MARSHAL, ATTACKING), *ANN_TURN[:1], *ANN_TURN[2:], *BEN_TURN,
                 act(1, MARSHAL))
    assert unit(state, 1, MARSHAL).stance == ATTACKING  # kept: no stance given
    error = refused(*START, act(1, DRAGOONS, DEFENSIVE))
    assert "cannot take the stance 'Defensive'" in error.message
    assert error.fix == "Take one of: Regular, Attacking."
    assert "cannot take the stance 'Stunned'" in refused(*START, act(1, MARSHAL,
                                                                     STUNNED)).message


# -- wounds and models ---------------------------------------------------------------------------

def test_wounds_fill_the_damaged_model_first_and_take_models() -> None:
    """Each unsaved hit is a wound; a model whose Wounds reach 0 is destroyed. Wounds go to
    the model already hurt (our reading), so 4 wounds on the W3 Dragoons take one model and
    hurt a second."""
    state = play(*START, wound(1, DRAGOONS, 4))
    d = unit(state, 1, DRAGOONS)
    assert (d.left, d.hurt, d.taken, d.wounds_left) == (3, 1, 4, 8)
    d = unit(play(*START, wound(1, DRAGOONS, 4), wound(1, DRAGOONS, 2)), 1, DRAGOONS)
    assert (d.left, d.hurt) == (2, 0)
    assert "1 to 12, not 13" in refused(*START, wound(1, DRAGOONS, 13)).message
    assert "not 0" in refused(*START, wound(1, DRAGOONS, 0)).message
    gone = (*START, wound(1, MARSHAL, 4))
    assert not unit(play(*gone), 1, MARSHAL).alive
    assert "destroyed" in refused(*gone, wound(1, MARSHAL, 1)).message
    assert "destroyed" in refused(*gone, act(1, MARSHAL)).message


def test_models_removed_outright() -> None:
    """A model that can't stay in coherency is destroyed: `remove` takes whole models."""
    state = play(*START, event("remove", 2, MOB, models=2))
    assert unit(state, 2, MOB).left == 10 and unit(state, 2, MOB).taken == 0
    assert "1 to 12" in refused(*START, event("remove", 2, MOB, models=13)).message


def test_the_bodyguard_takes_hits_first() -> None:
    """While the Bodyguard stands, wounds go to it, not to its Leader; wounds beyond the
    Bodyguard's are then the Leader's."""
    error = refused(*START, wound(1, CAPTAIN, 1))
    assert "takes the hits first" in error.message and "unit 1" in error.fix
    error = refused(*START, wound(1, TROOPERS, 11))
    assert "on its Leader, unit 2" in error.fix
    state = play(*START, wound(1, TROOPERS, 10), wound(1, CAPTAIN, 2))
    assert unit(state, 1, CAPTAIN).wounds_left == 3


def test_a_leader_whose_bodyguard_falls_is_a_unit_of_its_own() -> None:
    """The Leader becomes a separate unit when its Bodyguard is destroyed (and the Bodyguard
    one when its Leader is): it activates alone, and tests morale against its own start."""
    state = play(*START, wound(1, TROOPERS, 10))
    assert state.members(1, CAPTAIN) == (CAPTAIN,)
    assert state.table_units(1) == [CAPTAIN, MARSHAL, DRAGOONS, WALKER]
    assert PLAY.units(state, 1)[CAPTAIN - 1]["joined_to"] == 0
    assert not state.morale_due(1, CAPTAIN)  # 5 Wounds of 5: its own start
    assert play(*START, wound(1, TROOPERS, 10), wound(1, CAPTAIN, 3)).morale_due(1, CAPTAIN)
    # the other way round: the Leader falls, the Bodyguard goes on with its own 12 models
    state = play(*START, event("remove", 2, SKARN, models=1))
    assert state.members(2, MOB) == (MOB,)
    assert play(*START, event("remove", 2, SKARN, models=1),
                wound(2, MOB, 6)).morale_due(2, MOB)


# -- morale and Stunned ------------------------------------------------------------------------

def test_a_unit_at_half_strength_tests_as_its_activation_begins() -> None:
    """Half or less of its starting models (a single model: of its starting Wounds) calls for
    a test at the start of each activation. A joined pair counts the models of both."""
    state = play(*START, wound(1, DRAGOONS, 5))  # 4 -> 3 models (one hurt): above half
    assert not state.morale_due(1, DRAGOONS)
    assert play(*START, wound(1, DRAGOONS, 6)).morale_due(1, DRAGOONS)  # 2 of 4
    assert not play(*START, wound(1, MARSHAL, 1)).morale_due(1, MARSHAL)  # 3 of 4 Wounds
    assert play(*START, wound(1, MARSHAL, 2)).morale_due(1, MARSHAL)  # 2 of 4
    # Troopers + Captain start at 11 models: 5 Troopers + the Captain are 6, above half
    assert not play(*START, wound(1, TROOPERS, 5)).morale_due(1, TROOPERS)
    assert play(*START, wound(1, TROOPERS, 6)).morale_due(1, CAPTAIN)
    due = (*START, wound(1, DRAGOONS, 6))
    error = refused(*due, act(1, DRAGOONS))
    assert "takes a morale test" in error.message and "morale test" in error.fix
    offered = moves(play(*due, act(1, TROOPERS), act(1, MARSHAL)))
    assert [(e.kind, e.unit) for e in offered[:2]] == [("morale", DRAGOONS)] * 2
    assert PLAY.units(play(*due), 1)[DRAGOONS - 1]["morale_due"] is True
    assert "takes no morale test" in refused(*START, event("morale", 1, MARSHAL,
                                                           passed=True)).message


def test_a_fearless_unit_never_tests() -> None:
    """The sample Fearless ability: the unit takes no morale test (as quick-resolve reads it)."""
    state = play(*START, wound(1, WALKER, 10))
    assert not state.morale_due(1, WALKER)
    assert "Fearless" in refused(*START, wound(1, WALKER, 10),
                                 event("morale", 1, WALKER, passed=False)).message


def test_a_failed_test_stuns_the_unit_until_its_next_activation() -> None:
    """Failed: the unit is Stunned (its stance imposed, Control 0) until its next activation
    begins; the activation itself follows the test at once."""
    due = (*START, wound(1, MARSHAL, 2))
    failed = (*due, event("morale", 1, MARSHAL, passed=False))
    assert "activates now" in refused(*failed, act(1, DRAGOONS)).message
    assert "activates now" in refused(*failed, wound(2, MOB, 1)).message
    assert "may not pick a stance" in refused(*failed, act(1, MARSHAL, ATTACKING)).message
    state = play(*failed, act(1, MARSHAL, objective=2))
    m = unit(state, 1, MARSHAL)
    assert (m.stance, m.stunned, m.tests) == (STUNNED, True, ("failed",))
    assert state.control_at(1, 2) == 0
    # its next activation: the test comes again (still at half), and a pass ends the stun
    rest = (act(1, TROOPERS), act(1, DRAGOONS), act(1, WALKER), end(1), *BEN_TURN)
    again = (*failed, act(1, MARSHAL, objective=2), *rest,
             event("morale", 1, MARSHAL, passed=True))
    error = refused(*again, act(1, MARSHAL))
    assert "no longer Stunned" in error.message and "Regular, Attacking, Defensive" in error.fix
    state = play(*again, act(1, MARSHAL, REGULAR))
    m = unit(state, 1, MARSHAL)
    assert (m.stance, m.stunned, m.tests) == (REGULAR, False, ("failed", "passed"))
    assert state.control_at(1, 2) == 2


# -- objectives: Control and VP -----------------------------------------------------------------

def test_the_side_with_the_most_control_holds_an_objective() -> None:
    """Each unit counts its models times their Control at the objective it ended its
    activation at; the highest total holds it, a tie holds it for nobody."""
    state = play(*START, act(1, DRAGOONS, objective=1))  # 4 models x Control 2
    assert (state.control_at(1, 1), state.control[0]) == (8, 1)
    state = play(*START, act(1, DRAGOONS, objective=1), wound(1, DRAGOONS, 3))
    assert state.control_at(1, 1) == 6
    turn = (act(1, TROOPERS), act(1, MARSHAL), act(1, DRAGOONS, objective=1), act(1, WALKER),
            end(1))
    # Reavers 12 x 2 + Skarn 2 = 26 against 8: Ben takes it
    assert play(*START, *turn, act(2, MOB, objective=1)).control[0] == 2
    # Flyers 6 x 1 against the Marshal's 2: Ben; with 4 Flyers shot down, 2 against 2: nobody
    turn = (act(1, TROOPERS), act(1, MARSHAL, objective=2), act(1, DRAGOONS), act(1, WALKER),
            end(1))
    assert play(*START, *turn, act(2, FLYERS, objective=2)).control[1] == 2
    assert play(*START, *turn, act(2, FLYERS, objective=2),
                wound(2, FLYERS, 4)).control[1] == 0
    assert "objectives 1 to 3, not 4" in refused(*START, act(1, MARSHAL, objective=4)).message


def test_an_objective_stays_held_after_its_holder_leaves() -> None:
    """A marker stays under a player's control after their models have left it, until the
    opponent has Control there; a unit destroyed on it leaves it as well."""
    state = play(*START, act(1, MARSHAL, objective=2), act(1, TROOPERS),
                 act(1, DRAGOONS), act(1, WALKER), end(1), act(2, MOB), act(2, TUSKS),
                 act(2, FLYERS), end(2), act(1, MARSHAL, objective=0))
    assert (state.control_at(1, 2), state.control[1]) == (0, 1)
    state = play(*START, act(1, MARSHAL, objective=2), wound(1, MARSHAL, 4))
    assert state.control[1] == 1  # nobody else has Control there


def test_objectives_score_from_the_second_round_at_most_three_a_turn() -> None:
    """From round 2, at the end of each player's own turn, that player scores 1 VP for each
    objective they hold, at most 3 a turn."""
    ann = (act(1, TROOPERS, objective=1), act(1, MARSHAL, objective=2),
           act(1, DRAGOONS, objective=3), act(1, WALKER, objective=4), end(1))
    five = with_options(objectives=5)
    state = play(*START, *ann, *BEN_TURN, match=five)
    assert state.held(1) == 4 and state.vp == (0, 0)  # round 1 scores nothing
    state = play(*START, *ann, *BEN_TURN, *ANN_TURN, match=five)
    assert state.vp == (3, 0)  # 4 held, 3 scored
    assert state.scored == ((2, 1, 3),)
    state = play(*START, *ann, *BEN_TURN, *ANN_TURN, *BEN_TURN, match=five)
    assert state.vp == (3, 0)  # Ben holds none
    held_two = (act(1, TROOPERS, objective=1), act(1, MARSHAL, objective=2), act(1, DRAGOONS),
                act(1, WALKER), end(1))
    state = play(*START, *held_two, *BEN_TURN, *ANN_TURN)
    assert state.vp == (2, 0) and dict(PLAY.outcome(state).scores)[VP] == (2, 0)


def test_the_most_vp_after_round_four_wins() -> None:
    """Once the fourth round has ended, the player with the most VP wins (equal VP: a draw,
    pinned in test_four_rounds_then_the_game_is_over)."""
    ann = (act(1, TROOPERS), act(1, MARSHAL, objective=2), act(1, DRAGOONS), act(1, WALKER),
           end(1))
    state = play(*START, *ann, *BEN_TURN, *QUIET_ROUND * 3)
    outcome = PLAY.outcome(state)
    assert (outcome.over, outcome.winner) == (True, 1)
    assert outcome.reason == "after round 4: 3 VP to 0"  # 1 VP in each of rounds 2, 3, 4


# -- the end -----------------------------------------------------------------------------------

def test_an_army_destroyed_ends_the_battle_at_once() -> None:
    """All of a player's models destroyed: the battle ends and the opponent wins, whatever
    the VP."""
    kills = (wound(2, MOB, 12), wound(2, SKARN, 6), wound(2, TUSKS, 15))
    state = play(*START, *kills)
    assert not PLAY.outcome(state).over
    state = play(*START, *kills, wound(2, FLYERS, 6))
    outcome = PLAY.outcome(state)
    assert (outcome.over, outcome.winner) == (True, 1)
    assert outcome.reason == "Ben's army was destroyed"
    assert moves(state) == []
    assert refused(*START, *kills, wound(2, FLYERS, 6), end(1)).message == "the game is over"


def test_a_solo_game_has_one_turn_a_round_and_no_winner() -> None:
    """One player: the other army is kept on paper, so each round is that player's turn."""
    state = play(*START, *ANN_TURN, match=SOLO)
    assert (state.round, state.turn) == (2, 1)
    end_state = play(*START, *ANN_TURN * 4, match=SOLO)
    outcome = PLAY.outcome(end_state)
    assert outcome.over and outcome.winner is None
    assert dict(outcome.scores)[VP] == (0,)
    assert "needs a side, 1, not 2" in refused(event("first-turn", 2), match=SOLO).message
    gone = play(*START, wound(1, TROOPERS, 10), wound(1, CAPTAIN, 5), wound(1, MARSHAL, 4),
                wound(1, DRAGOONS, 12), wound(1, WALKER, 12), match=SOLO)
    assert PLAY.outcome(gone).over and PLAY.outcome(gone).winner is None


# docs/rules-notes.md, ActionHammer, "At the table: conceding"
# round 2: Ann's Marshal ends at objective 1 and her turn scores it; Ben's turn begins
ANN_AHEAD = (*START, *QUIET_ROUND, act(1, TROOPERS), act(1, MARSHAL, objective=1),
             act(1, DRAGOONS), act(1, WALKER), end(1))


def test_a_concession_ends_the_battle_at_once_and_the_other_side_wins() -> None:
    """Any time, in either side's turn: the other side wins whatever the VP, and nothing
    more is recorded."""
    state = play(*ANN_AHEAD, event("concede", 1))  # in Ben's turn, Ann 1 VP up
    outcome = PLAY.outcome(state)
    assert (outcome.over, outcome.winner, outcome.reason) == (True, 2, "Ann conceded")
    assert dict(outcome.scores)[VP] == (1, 0)
    shown = PLAY.to_data(state)
    assert (shown["conceded"], shown["over"], shown["turn"]) == (1, True, None)
    assert moves(state) == [] and PLAY.offers(state) == []
    assert refused(*ANN_AHEAD, event("concede", 1), act(2, MOB)).message == "the game is over"
    assert PLAY.outcome(play(event("concede", 2))).winner == 1  # before the first turn too
    # between a morale test and the activation it opens
    tested = (*START, wound(1, DRAGOONS, 6), event("morale", 1, DRAGOONS, passed=False))
    assert event("concede", 2) in PLAY.offers(play(*tested))
    assert PLAY.outcome(play(*tested, event("concede", 2))).winner == 1


def test_undoing_a_concession_brings_the_battle_back() -> None:
    back = play(*ANN_AHEAD)  # the log without the concession
    assert not PLAY.outcome(back).over and (back.turn, back.vp) == (2, (1, 0))
    assert {event("concede", 1), event("concede", 2)} <= set(PLAY.offers(back))
    assert unit(play(*ANN_AHEAD, act(2, MOB)), 2, MOB).activated


def test_a_solo_concession_ends_the_battle_with_no_winner() -> None:
    outcome = PLAY.outcome(play(*START, event("concede", 1), match=SOLO))
    assert outcome.over and outcome.winner is None
    assert outcome.reason == "Ann conceded: a solo game has no winner"


def test_the_example_match_is_won_by_ann_on_vp() -> None:
    """The example replays to the end of round 4, uses every kind of event but a
    concession (which would end it early), and is short."""
    path = ROOT / "examples" / "actionhammer" / "match.yaml"
    match = read_match(path.read_text(encoding="utf-8"), str(path), LIBRARY.read_roster).match
    state = replay(PLAY, match)
    outcome = PLAY.outcome(state)
    assert (outcome.over, outcome.winner) == (True, 1)
    assert outcome.reason == "after round 4: 6 VP to 4"
    assert {e.kind for e in match.events} == set(PLAY.kinds) - {"concede"}
    assert 20 <= len(match.events) <= 60
