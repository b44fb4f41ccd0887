"""Hammer Wars at the table (listbuilder/systems/hammerwars/play.py): each rule of play pinned
to the seed's numbers (morale, the deployment economy, the unit pool, lives, VP and the secret
goals), with the refusals a player meets, the end of the game and the winner."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from playtools import LIBRARY, player, refused_last, replayed

from listbuilder.engine.match import Event, Match, MatchError, Player, event, replay
from listbuilder.engine.match_file import read_match
from listbuilder.engine.model import RosterEntry
from listbuilder.engine.registry import get_system
from listbuilder.systems.hammerwars.model import HammerWarsCatalog
from listbuilder.systems.hammerwars.play import (
    GOAL_VP,
    HEAVY_LOSS,
    HEAVY_VP,
    HERO_LOSS,
    IN_POOL,
    MORALE_START,
    OBJECTIVES,
    ON_TABLE,
    PTS_PER_PHASE,
    ROUND_END_LOSS,
    UNITS_LOSS,
    UNITS_PER_LOSS,
    XP_PER_PHASE,
    ZERO_VP,
    HammerWarsPlay,
    HammerWarsState,
)

ROOT = Path(__file__).resolve().parents[2]

PLAY = HammerWarsPlay(get_system("hammerwars"))


def moves(state: Any) -> list[Event]:
    """What the rules offer now, but the concessions (offered at any time)."""
    return [ev for ev in PLAY.offers(state) if ev.kind != "concede"]


def roster(faction: str, goal: str) -> str:
    # a full pool: 9 Infantry, 5 Specialists, 2 Heroes, 1 Heavy
    return (f"format: 1\nsystem: hammerwars\nname: {faction}\nfactions: [{faction}]\n"
            f"choices: {{goal: {goal}}}\nentries:\n"
            "  - {unit: Assault Infantry, count: 9}\n"
            "  - {unit: Ranged Specialist, count: 5}\n"
            "  - {unit: Assault Hero, count: 1}\n"
            "  - {unit: Support Hero, count: 1}\n"
            "  - {unit: Support Heavy, count: 1}\n")


INFANTRY, SPECIALIST, HERO, HERO_2, HEAVY = 1, 2, 3, 4, 5  # both sides' entries


ANN = player("Ann", roster("Lizardmen", "Duty"))
BEN = player("Ben", roster("Orks", "Revenge"))
TWO = Match("hammerwars", (ANN, BEN))
SOLO = Match("hammerwars", (ANN,))


def game(*players: Player) -> Match:
    return Match("hammerwars", players)


def play(*events: Event, match: Match = TWO) -> HammerWarsState:
    return replayed(PLAY, match, events)


def refused(*events: Event, match: Match = TWO) -> MatchError:
    """The last event is refused (the ones before it are accepted)."""
    return refused_last(PLAY, match, events)


# Ann wins the roll-off and goes first: every round is Ann's turn, then Ben's
ANN_FIRST = (event("roll-off", 1, first=True),)


def turn(side: int, *deploys: int) -> tuple[Event, ...]:
    """A side's whole turn: its deployments, then an empty combat phase."""
    return (*(event("deploy", side, n) for n in deploys), event("end-deployment", side),
            event("end-turn", side))


def rounds(count: int) -> tuple[Event, ...]:
    """`count` rounds in which nobody deploys or fights."""
    return (*ANN_FIRST, *((*turn(1), *turn(2), event("round-end")) * count))


def kill(side: int, unit: int, lives: int = 1, model: int = 1) -> Event:
    return event("hit", side, unit, lives=lives, model=model)


def unit(state: HammerWarsState, side: int, number: int) -> dict[str, object]:
    return dict(PLAY.units(state, side)[number - 1])


# -- the seed's numbers --------------------------------------------------------------------
def test_the_numbers_agree_with_the_catalog() -> None:
    """The rules of play and the catalog (both taken from the seed) say the same: morale from
    10, -1 for going first, -1 at each round's end, -1 per 3 units, Hero and Heavy lost, +1 VP
    for a Heavy and for the enemy's morale at 0, 6 pts and 1 xp a deployment phase, 3
    objective markers, 1 VP a goal."""
    catalog = LIBRARY.catalog("hammerwars")
    assert isinstance(catalog, HammerWarsCatalog)
    assert (MORALE_START, ZERO_VP) == (catalog.morale.start, catalog.morale.zero_vp) == (10, 1)
    losses = {m.name: (m.every, m.morale, m.opponent_vp) for m in catalog.morale.losses}
    assert losses == {"First player": (1, 1, 0), "Round end": (1, ROUND_END_LOSS, 0),
                      "Units lost": (UNITS_PER_LOSS, UNITS_LOSS, 0),
                      "Hero lost": (1, HERO_LOSS, 0), "Heavy lost": (1, HEAVY_LOSS, HEAVY_VP)}
    assert (UNITS_PER_LOSS, HEAVY_VP) == (3, 1)
    d = catalog.deployment
    assert (d.pts_per_round, d.xp_per_round, d.pts_kept, d.xp_kept) == \
        (PTS_PER_PHASE, XP_PER_PHASE, False, True) == (6, 1, False, True)
    assert catalog.objectives.markers == OBJECTIVES == 3
    assert {g.vp for g in catalog.goals} == {GOAL_VP} == {1}


def test_the_system_hands_out_its_rules_of_play() -> None:
    built = get_system("hammerwars").play()
    assert isinstance(built, type(PLAY)) and built.system is get_system("hammerwars")


# -- the start and the roll-off ------------------------------------------------------------
def test_each_side_starts_on_10_morale_with_its_whole_pool_and_its_secret_goal() -> None:
    state = play()
    assert [s.morale for s in state.sides] == [10, 10]
    assert [s.vp for s in state.sides] == [0, 0]
    assert [s.goal for s in state.sides] == ["Duty", "Revenge"]
    rows = PLAY.units(state, 1)
    assert [(r["name"], r["count"], r["in_pool"], r["on_table"]) for r in rows] == [
        ("Assault Infantry", 9, 9, 0), ("Ranged Specialist", 5, 5, 0),
        ("Assault Hero", 1, 1, 0), ("Support Hero", 1, 1, 0), ("Support Heavy", 1, 1, 0)]
    assert not any(r["alive"] for r in rows) and rows[0]["status"] == IN_POOL
    assert moves(state) == [event("roll-off", s, first=f)
                                   for s in (1, 2) for f in (True, False)]


def test_whoever_goes_first_loses_1_morale() -> None:
    """The roll-off's winner picks first or second; the side going first starts 1 down."""
    assert [s.morale for s in play(event("roll-off", 1, first=True)).sides] == [9, 10]
    second = play(event("roll-off", 1, first=False))
    assert [s.morale for s in second.sides] == [10, 9]
    assert second.first == 2 and second.active == 2


def test_nothing_happens_before_the_roll_off_and_it_happens_once() -> None:
    assert "roll-off" in refused(event("deploy", 1, INFANTRY)).fix
    assert "roll-off is done" in refused(*ANN_FIRST, event("roll-off", 2, first=True)).message


# -- the deployment economy ----------------------------------------------------------------
def test_each_deployment_phase_brings_6_pts_and_1_xp_to_the_side_deploying() -> None:
    state = play(*ANN_FIRST)
    assert (state.side(1).pts, state.side(1).xp) == (6, 1)
    assert (state.side(2).pts, state.side(2).xp) == (0, 0)  # Ben's phase has not begun
    state = play(*ANN_FIRST, *turn(1))
    assert (state.side(2).pts, state.side(2).xp) == (6, 1)


def test_pts_left_are_lost_and_xp_is_kept() -> None:
    state = play(*ANN_FIRST, event("deploy", 1, INFANTRY), event("end-deployment", 1))
    assert (state.side(1).pts, state.side(1).xp) == (0, 1)
    state = play(*rounds(2))
    assert (state.side(1).pts, state.side(1).xp) == (6, 3)  # round 3: 1 xp a round saved


def test_deploying_pays_the_card_and_takes_a_model_from_the_pool() -> None:
    """Assault Infantry 1 pt, Ranged Specialist 2 pts, a Hero 3 pts + 1 xp; each model goes
    on the table with its card's lives."""
    state = play(*ANN_FIRST, event("deploy", 1, HERO), event("deploy", 1, SPECIALIST),
                 event("deploy", 1, INFANTRY))
    assert (state.side(1).pts, state.side(1).xp) == (0, 0)
    hero = unit(state, 1, HERO)
    assert (hero["in_pool"], hero["on_table"], hero["lives_left"]) == (0, 1, [3])
    assert hero["alive"] and hero["status"] == ON_TABLE
    assert unit(state, 1, INFANTRY)["in_pool"] == 8


def test_a_heavy_needs_6_pts_and_3_xp_so_round_3_at_the_earliest() -> None:
    message = refused(*rounds(1), event("deploy", 1, HEAVY)).message
    assert "6 pts + 3 xp" in message and "6 pts + 2 xp" in message
    state = play(*rounds(2), event("deploy", 1, HEAVY))
    assert unit(state, 1, HEAVY)["lives_left"] == [5]
    assert (state.side(1).pts, state.side(1).xp) == (0, 0)


def test_deploying_is_refused_without_pts_or_xp_out_of_turn_or_from_an_empty_pool() -> None:
    assert "costs 1 pts" in refused(*ANN_FIRST, *(event("deploy", 1, INFANTRY),) * 7).message
    spent = (*ANN_FIRST, event("deploy", 1, HERO))
    assert "3 pts + 1 xp" in refused(*spent, event("deploy", 1, HERO_2)).message
    assert "side 1's turn" in refused(*ANN_FIRST, event("deploy", 2, INFANTRY)).message
    assert "deployment phase is over" in refused(
        *ANN_FIRST, event("end-deployment", 1), event("deploy", 1, INFANTRY)).message
    assert "no Assault Hero is left" in refused(
        *ANN_FIRST, event("deploy", 1, HERO), *turn(1)[-2:], *turn(2), event("round-end"),
        event("deploy", 1, HERO)).message


def test_a_turn_is_deployment_then_combat_and_a_round_is_both_sides_turns() -> None:
    assert "still deploying" in refused(*ANN_FIRST, event("end-turn", 1)).message
    assert "already over" in refused(*ANN_FIRST, event("end-deployment", 1),
                                     event("end-deployment", 1)).message
    assert "side 2 has not finished" in refused(*ANN_FIRST, *turn(1),
                                                event("round-end")).message
    state = play(*ANN_FIRST, *turn(1), *turn(2))
    assert state.active is None and moves(state)[0] == event("round-end")
    assert {e.kind for e in moves(state)} == {"round-end", "declare"}
    state = play(*ANN_FIRST, *turn(1), *turn(2), event("round-end"))
    assert (state.round, state.active, state.phase) == (2, 1, "deployment")


# -- lives and the pool --------------------------------------------------------------------
def test_hits_take_lives_and_a_killed_model_returns_to_the_pool() -> None:
    ready = (*ANN_FIRST, event("deploy", 1, HERO), event("deploy", 1, INFANTRY),
             event("deploy", 1, INFANTRY))
    state = play(*ready, event("hit", 1, HERO))  # one life when lives is left out
    assert unit(state, 1, HERO)["lives_left"] == [2]
    state = play(*ready, kill(1, HERO, 3))
    hero = unit(state, 1, HERO)
    assert (hero["in_pool"], hero["on_table"], hero["killed"], hero["alive"]) == (1, 0, 1, False)
    state = play(*ready, kill(1, INFANTRY, model=2))
    assert unit(state, 1, INFANTRY)["on_table"] == 1 and unit(state, 1, INFANTRY)["in_pool"] == 8


def test_models_are_counted_in_the_order_they_were_deployed() -> None:
    """`model: 2` is the second of that type on the table; when one is killed, those after it
    move up."""
    mob = game(player("Big Mob", (ROOT / "examples" / "hammerwars" / "single-types.yaml")
                      .read_text(encoding="utf-8")))  # entry 3: 2 Assault Heroes
    two = (*ANN_FIRST, *turn(1, 3), event("round-end"), event("deploy", 1, 3))  # solo
    state = play(*two, kill(1, 3, 1, model=2), match=mob)
    assert unit(state, 1, 3)["lives_left"] == [3, 2]
    state = play(*two, kill(1, 3, 3, model=1), kill(1, 3, 1, model=1), match=mob)
    assert unit(state, 1, 3)["lives_left"] == [2]  # the second moved up
    two = (*ANN_FIRST, event("deploy", 1, INFANTRY), event("deploy", 1, INFANTRY))
    assert "not a model 2" in refused(*two, kill(1, INFANTRY), kill(1, INFANTRY, model=2)).message


def test_a_model_killed_again_counts_again() -> None:
    """The three units lost are losses, not distinct models: one model bought back from the
    pool and killed three times costs 1 morale."""
    again = (*ANN_FIRST, event("deploy", 1, INFANTRY), kill(1, INFANTRY),
             event("deploy", 1, INFANTRY), kill(1, INFANTRY), event("deploy", 1, INFANTRY))
    state = play(*again, kill(1, INFANTRY))
    assert state.side(1).lost == 3 and state.side(1).morale == 9 - 1


def test_hits_beyond_the_last_life_do_nothing_more() -> None:
    state = play(*ANN_FIRST, event("deploy", 1, INFANTRY), kill(1, INFANTRY, 4))
    assert unit(state, 1, INFANTRY)["killed"] == 1 and state.side(1).lost == 1


def test_a_hit_needs_a_model_on_the_table_and_at_least_one_life() -> None:
    assert "no Assault Hero on the table" in refused(*ANN_FIRST, kill(1, HERO)).message
    deployed = (*ANN_FIRST, event("deploy", 1, INFANTRY))
    assert "not a model 2" in refused(*deployed, kill(1, INFANTRY, model=2)).message
    assert "at least 1 life" in refused(*deployed, kill(1, INFANTRY, 0)).message
    # killed is back in the pool: a second hit on it is refused
    assert "no Assault Infantry" in refused(*deployed, kill(1, INFANTRY),
                                            kill(1, INFANTRY)).message


# -- morale ----------------------------------------------------------------------------------
def test_every_round_end_costs_both_sides_1_morale() -> None:
    state = play(*rounds(3))
    assert [s.morale for s in state.sides] == [10 - 1 - 3, 10 - 3]


def test_every_third_unit_lost_costs_1_morale() -> None:
    six = (*ANN_FIRST, *(event("deploy", 1, INFANTRY),) * 6)
    morale = [play(*six, *(kill(1, INFANTRY),) * n).side(1).morale for n in range(7)]
    assert morale == [9, 9, 9, 8, 8, 8, 7]


def test_a_hero_lost_costs_1_morale_and_counts_as_a_unit_lost() -> None:
    ready = (*ANN_FIRST, event("deploy", 1, INFANTRY), event("deploy", 1, INFANTRY),
             event("deploy", 1, HERO))
    state = play(*ready, kill(1, HERO, 3))
    assert state.side(1).morale == 8 and state.side(2).killed_hero
    # as the third unit lost it costs 2: one for the Hero, one for the three
    state = play(*ready, kill(1, INFANTRY), kill(1, INFANTRY), kill(1, HERO, 3))
    assert state.side(1).morale == 9 - 2


def test_a_heavy_lost_costs_1_morale_and_gives_the_enemy_1_vp_at_once() -> None:
    state = play(*rounds(2), event("deploy", 1, HEAVY), kill(1, HEAVY, 5))
    assert (state.side(1).morale, state.side(2).vp) == (9 - 2 - 1, 1)


def test_at_0_morale_the_enemy_gains_1_vp_and_the_game_ends_at_once() -> None:
    # Ann: 9 after going first, 7 after two rounds; 7 Infantry lost = -2 -> 5; ...
    lost = (*rounds(2), event("deploy", 1, HERO), event("deploy", 1, INFANTRY),
            event("deploy", 1, INFANTRY), event("deploy", 1, INFANTRY))
    state = play(*lost, kill(1, HERO, 3), kill(1, INFANTRY), kill(1, INFANTRY))
    assert state.side(1).morale == 7 - 1 - 1 and not state.ended
    # Ann is on 1 in round 9: her third unit lost takes her to 0
    to_zero = (*rounds(8), *(event("deploy", 1, INFANTRY),) * 3, *(kill(1, INFANTRY),) * 3)
    state = play(*to_zero)
    assert state.side(1).morale == 0
    assert state.ended == "Ann's morale fell to 0" and state.side(2).vp == ZERO_VP
    # only the goals are left: Ann's Duty is the players' to judge
    assert moves(state) == [event("goal", 1, met=True), event("goal", 1, met=False)]
    assert "only the goals" in refused(*to_zero, event("end-deployment", 1)).message


def test_without_kills_the_game_ends_after_round_9_and_no_tenth_begins() -> None:
    """No round limit: going first and a point a round, the first side's morale reaches 0 at
    the end of round 9 (the other's would at the end of round 10, which never comes)."""
    state = play(*rounds(9))
    assert state.ended and [s.morale for s in state.sides] == [0, 1]
    assert state.round == 9
    assert "only the goals" in refused(*rounds(9), event("deploy", 1, INFANTRY)).message


def test_both_at_0_together_both_gain_1_vp() -> None:
    # round 9: Ann on 1, Ben on 2 loses three units (1), then the round's end takes both
    state = play(*rounds(8), *turn(1), *(event("deploy", 2, INFANTRY),) * 3,
                 event("end-deployment", 2), *(kill(2, INFANTRY),) * 3, event("end-turn", 2),
                 event("round-end"))
    assert [s.morale for s in state.sides] == [0, 0]
    assert [s.vp for s in state.sides] == [1, 1]
    assert state.ended == "Ann's and Ben's morale fell to 0"


# -- goals ---------------------------------------------------------------------------------
def test_duty_and_deception_declare_a_marker_once_and_reveal_the_goal() -> None:
    assert PLAY.to_data(play(*ANN_FIRST))["sides"][0]["goal"] == "secret"
    state = play(*ANN_FIRST, event("declare", 1, objective=3))
    assert state.side(1).objective == 3
    assert PLAY.to_data(state)["sides"][0]["goal"] == "Duty"
    assert "already declared" in refused(*ANN_FIRST, event("declare", 1, objective=3),
                                         event("declare", 1, objective=1)).message
    assert "1 to 3" in refused(*ANN_FIRST, event("declare", 1, objective=4)).message
    assert "only Deception and Duty" in refused(*ANN_FIRST,
                                                event("declare", 2, objective=1)).message
    tyranids = game(player("Tia", roster("Tyranids", "Deception")), BEN)
    assert play(*ANN_FIRST, event("declare", 1, objective=1), match=tyranids).side(1).objective


def test_goals_are_scored_at_the_end_only_and_once() -> None:
    assert "when the game ends" in refused(*ANN_FIRST, event("goal", 1, met=True)).message
    greed = game(ANN, player("Gus", roster("Orks", "Greed")))
    assert "already scored" in refused(*rounds(9), event("goal", 1, met=False),
                                       event("goal", 1, met=True), match=greed).message
    assert "Revenge" in refused(*rounds(9), event("goal", 2, met=True)).message


def test_revenge_is_judged_by_the_log() -> None:
    """Met when the side killed an enemy Hero, or the enemy deployed none."""
    state = play(*rounds(9))
    assert state.goal_result(2) is True  # Ann never deployed a Hero
    state = play(*ANN_FIRST, event("deploy", 1, HERO), *turn(1)[-2:], *turn(2),
                 event("round-end"), *((*turn(1), *turn(2), event("round-end")) * 8))
    assert state.ended and state.goal_result(2) is False  # a Hero deployed, never killed
    state = play(*ANN_FIRST, event("deploy", 1, HERO), event("end-deployment", 1),
                 kill(1, HERO, 3), event("end-turn", 1), *turn(2), event("round-end"),
                 *((*turn(1), *turn(2), event("round-end")) * 7))  # the Hero cost Ann 1
    assert state.ended and state.goal_result(2) is True


def test_the_side_with_most_vp_wins_goals_included() -> None:
    ended = rounds(9)  # Ann's morale 0: Ben 1 VP; Ben's Revenge met: 2 VP
    outcome = PLAY.outcome(play(*ended))
    assert not outcome.over  # Ann's Duty is still to score
    outcome = PLAY.outcome(play(*ended, event("goal", 1, met=True)))
    assert (outcome.over, outcome.winner) == (True, 2)
    assert outcome.reason == "Ann's morale fell to 0: 2 VP to 1"
    assert dict(outcome.scores) == {"VP": (1, 2), "Morale": (0, 1)}
    assert PLAY.to_data(play(*ended, event("goal", 1, met=True)))["sides"][0]["goal"] == "Duty"


def test_equal_vp_is_a_draw() -> None:
    greed = game(ANN, player("Gus", roster("Orks", "Greed")))
    state = play(*rounds(9), event("goal", 1, met=True), event("goal", 2, met=False),
                 match=greed)
    outcome = PLAY.outcome(state)
    assert outcome.over and outcome.winner is None and "a draw at 1 VP each" in outcome.reason


# -- conceding ------------------------------------------------------------------------------
# docs/rules-notes.md, Hammer Wars, "At the table: conceding"
HEAVY_LOST = (*rounds(2), event("deploy", 1, HEAVY), kill(1, HEAVY, 5))  # Ben: 1 VP


def test_a_concession_ends_the_game_at_once_and_the_other_side_wins() -> None:
    """Any time before the game ends, in either side's turn: the game is over, the other
    side wins whatever the VP say, and no goal is scored."""
    state = play(*HEAVY_LOST, event("concede", 2))  # in Ann's deployment phase
    outcome = PLAY.outcome(state)
    assert (outcome.over, outcome.winner, outcome.reason) == (True, 1, "Ben conceded")
    assert dict(outcome.scores) == {"VP": (0, 1), "Morale": (6, 8)}
    assert state.goal_result(2) is None  # Revenge is not judged: the game did not end
    shown = PLAY.to_data(state)
    assert (shown["conceded"], shown["over"], shown["turn"], shown["ended"]) == (
        2, True, None, None)
    assert moves(state) == [] and PLAY.offers(state) == []
    assert PLAY.outcome(play(event("concede", 1))).winner == 2  # before the roll-off too


def test_nothing_is_recorded_after_a_concession_and_undo_brings_the_game_back() -> None:
    conceded = (*HEAVY_LOST, event("concede", 2))
    assert refused(*conceded, event("end-deployment", 1)).message == "the game is over"
    assert refused(*conceded, event("concede", 1)).message == "the game is over"
    back = play(*conceded[:-1])  # undo: the log without its last event
    assert back == play(*HEAVY_LOST) and not PLAY.outcome(back).over
    assert {event("concede", 1), event("concede", 2)} <= set(PLAY.offers(back))
    assert play(*conceded[:-1], event("end-deployment", 1)).phase == "combat"


def test_no_concession_once_the_game_has_ended_and_goals_are_scored() -> None:
    """At 0 morale the game has ended: VP and goals decide it, a concession changes nothing."""
    assert "only the goals" in refused(*rounds(9), event("concede", 1)).message
    assert event("concede", 1) not in PLAY.offers(play(*rounds(9)))


def test_a_solo_concession_ends_the_game_with_no_winner() -> None:
    outcome = PLAY.outcome(play(*ANN_FIRST, event("concede", 1), match=SOLO))
    assert outcome.over and outcome.winner is None
    assert outcome.reason == "Ann conceded: a solo game has no winner"


# -- a solo game -----------------------------------------------------------------------------
def test_a_solo_game_plays_its_one_side_and_asks_for_every_goal() -> None:
    assert moves(play(match=SOLO)) == [event("roll-off", 1, first=True),
                                              event("roll-off", 1, first=False)]
    state = play(event("roll-off", 1, first=False), match=SOLO)  # the paper enemy goes first
    assert state.side(1).morale == 10 and state.active == 1
    solo = (event("roll-off", 1, first=True), *((*turn(1), event("round-end")) * 9))
    state = play(*solo, match=SOLO)
    assert state.ended and not PLAY.outcome(state).over
    revenge = game(BEN)
    state = play(*solo, match=revenge)
    assert state.goal_pending(1)  # the enemy's Heroes are on paper: the player says
    outcome = PLAY.outcome(play(*solo, event("goal", 1, met=True), match=revenge))
    assert outcome.over and outcome.winner is None and dict(outcome.scores)["VP"] == (1,)


def test_an_entry_naming_no_card_never_deploys() -> None:
    """A roster file naming an unknown card does not read; one built in code may hold it."""
    extra = RosterEntry(unit="Squig Herd", count=2)
    odd_roster = replace(BEN.roster, entries=(*BEN.roster.entries, extra))
    odd = game(Player("Sam", odd_roster, BEN.text, BEN.catalog))
    state = play(match=odd)
    assert unit(state, 1, 6)["known"] is False and unit(state, 1, 6)["in_pool"] == 0
    assert "names no unit in the catalog" in refused(event("roll-off", 1, first=True),
                                           event("deploy", 1, 6), match=odd).message


# -- the example -----------------------------------------------------------------------------
def test_the_example_match_ends_with_bens_win() -> None:
    path = ROOT / "examples" / "hammerwars" / "match.yaml"
    match = read_match(path.read_text(encoding="utf-8"), str(path), LIBRARY.read_roster).match
    assert {e.kind for e in match.events} == set(PLAY.kinds) - {"concede"}
    outcome = PLAY.outcome(replay(PLAY, match))
    assert (outcome.over, outcome.winner) == (True, 2)
    assert dict(outcome.scores) == {"VP": (1, 3), "Morale": (0, 4)}
