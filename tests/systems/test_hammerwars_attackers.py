"""Hammer Wars: each model's action (Hold, Walk or Run), Energy Pulse and Chain Attack
recorded, and hits that name their attacker (`by`, `attack`) refused where the seed forbids
them (issue 50, items 7 and 8); logs written before replay as they did."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playtools import LIBRARY, player, refused_last, replayed

from listbuilder.engine.match import Event, Match, MatchError, event, replay
from listbuilder.engine.match_file import read_match
from listbuilder.engine.registry import get_system
from listbuilder.engine.reminders import reminding
from listbuilder.systems.hammerwars.play import (
    ACTIONS,
    CHAINS,
    HammerWarsPlay,
    HammerWarsState,
)

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).parent / "data"
PLAY = HammerWarsPlay(get_system("hammerwars"))

# Ann's entries: an Assault Specialist (Chain Attack, 0"), a Ranged Specialist (12"), a
# Support Hero (Energy Pulse, 8"); Ben's: Assault Infantry (0"), a Ranged Specialist
CHAINER, RANGED, PULSER = 1, 2, 3
B_INFANTRY, B_RANGED = 1, 2
ANN = player("Ann", "format: 1\nsystem: hammerwars\nname: Ann\nfactions: [Lizardmen]\n"
             "choices: {goal: Duty}\nentries:\n"
             "  - {unit: Assault Specialist, count: 3}\n"
             "  - {unit: Ranged Specialist, count: 2}\n"
             "  - {unit: Support Hero, count: 1}\n")
BEN = player("Ben", "format: 1\nsystem: hammerwars\nname: Ben\nfactions: [Orks]\n"
             "choices: {goal: Revenge}\nentries:\n"
             "  - {unit: Assault Infantry, count: 9}\n"
             "  - {unit: Ranged Specialist, count: 5}\n")
TWO = Match("hammerwars", (ANN, BEN))
SOLO = Match("hammerwars", (ANN,))


def deploy(side: int, *units: int) -> tuple[Event, ...]:
    return (*(event("deploy", side, n) for n in units), event("end-deployment", side))


# Ann goes first and deploys 2 pts of Ranged Specialist and 4 of Assault Specialists; Ben
# then deploys six Assault Infantry; round 2 opens with Ann's combat phase (she deploys a
# Support Hero on 3 pts + 1 xp)
SET_UP = (event("roll-off", 1, first=True), *deploy(1, RANGED, CHAINER, CHAINER),
          event("end-turn", 1), *deploy(2, *[B_INFANTRY] * 6), event("end-turn", 2),
          event("round-end"), *deploy(1, PULSER))


def play(*events: Event, match: Match = TWO) -> HammerWarsState:
    return replayed(PLAY, match, (*SET_UP, *events))


def refused(*events: Event, match: Match = TWO) -> MatchError:
    return refused_last(PLAY, match, (*SET_UP, *events))


def act(unit: int, action: str, side: int = 1, **values: Any) -> Event:
    return event("activate", side, unit, action=action, **values)


def hit(by: int, attack: str, unit: int = B_INFANTRY, side: int = 2, **values: Any) -> Event:
    return event("hit", side, unit, by=by, attack=attack, **values)


def acted(state: HammerWarsState, side: int, unit: int) -> list[str]:
    return list(PLAY.units(state, side)[unit - 1]["acted"])


# -- actions -------------------------------------------------------------------------------
def test_each_model_takes_one_action_and_the_next_one_is_picked_by_itself() -> None:
    state = play(act(CHAINER, "Run"))
    assert acted(state, 1, CHAINER) == ["Run", ""]
    state = play(act(CHAINER, "Run"), act(CHAINER, "Hold"))
    assert acted(state, 1, CHAINER) == ["Run", "Hold"]
    assert PLAY.current(state) == (1, CHAINER)
    assert PLAY.to_data(state)["acting"]["model"] == 2
    # both have acted: the type is offered no action any more
    assert not [ev for ev in PLAY.offers(state) if ev.kind == "activate" and ev.unit == CHAINER]
    problem = refused(act(CHAINER, "Run"), act(CHAINER, "Hold"), act(CHAINER, "Walk"))
    assert "already acted" in problem.message


def test_a_model_named_acts_and_may_not_act_twice() -> None:
    state = play(act(CHAINER, "Walk", model=2))
    assert acted(state, 1, CHAINER) == ["", "Walk"]
    assert "one action" in refused(act(CHAINER, "Walk", model=2),
                                   act(CHAINER, "Hold", model=2)).message
    assert "not a model 3" in refused(act(CHAINER, "Walk", model=3)).message


def test_actions_are_hold_walk_or_run_in_the_own_combat_phase_of_a_deployed_model() -> None:
    offered = {ev.get("action") for ev in PLAY.offers(play()) if ev.kind == "activate"}
    assert offered == set(ACTIONS)
    assert "Hold, Walk or Run" in refused(act(CHAINER, "Charge")).message
    # round 1: Ann's Support Hero is still in the pool
    undeployed = refused_last(PLAY, TWO, (*SET_UP[:5], act(PULSER, "Hold")))
    assert "no Support Hero on the table" in undeployed.message
    assert "turn" in refused(act(B_INFANTRY, "Hold", side=2)).message
    early = refused_last(PLAY, TWO, (*SET_UP[:-1], act(CHAINER, "Hold")))
    assert "deployment phase" in early.message


def test_a_new_turn_lets_every_model_act_again() -> None:
    state = play(act(CHAINER, "Run"), event("end-turn", 1))
    assert acted(state, 1, CHAINER) == ["", ""]
    assert state.current is None


# -- who attacks ---------------------------------------------------------------------------
def test_a_run_may_not_shoot() -> None:
    problem = refused(act(RANGED, "Run"), hit(RANGED, "shooting"))
    assert "ran this turn" in problem.message and "may not shoot" in problem.message
    # told nothing of how, a ranged unit's hit is a shot
    assert "may not shoot" in refused(act(RANGED, "Run"),
                                      event("hit", 2, B_INFANTRY, by=RANGED)).message
    for action in ("Hold", "Walk"):
        assert play(act(RANGED, action), hit(RANGED, "shooting")).side(2).lost == 1


def test_a_run_may_end_in_melee() -> None:
    """docs/rules-notes.md, Hammer Wars "Run may not shoot": melee is not shooting."""
    assert play(act(RANGED, "Run"), hit(RANGED, "melee")).side(2).lost == 1
    state = play(act(CHAINER, "Run"))
    ways = {ev.get("attack") for ev in PLAY.offers(state) if ev.kind == "hit" and ev.get("by")}
    assert ways == {"melee"}  # a 0" range fights only in melee
    assert {ev.get("attack") for ev in PLAY.offers(play(act(RANGED, "Run")))
            if ev.kind == "hit" and ev.get("by")} == {"melee"}
    assert {ev.get("attack") for ev in PLAY.offers(play(act(RANGED, "Hold")))
            if ev.kind == "hit" and ev.get("by")} == {"shooting", "melee"}


def test_a_0_inch_range_does_not_shoot() -> None:
    assert "only in melee" in refused(act(CHAINER, "Hold"), hit(CHAINER, "shooting")).message


def test_the_attacker_must_have_acted_in_its_own_combat_phase() -> None:
    assert "has acted" in refused(hit(RANGED, "shooting")).message
    problem = refused(act(CHAINER, "Hold"), event("end-turn", 1),
                      *deploy(2), hit(RANGED, "shooting", side=2))
    assert "its own side's combat phase" in problem.message
    assert "numbered 1 to 3" in refused(act(RANGED, "Hold"), hit(7, "shooting")).message
    assert "not 'ram'" in refused(act(RANGED, "Hold"), hit(RANGED, "ram")).message
    assert "with the attacker" in refused(event("hit", 2, 1, attack="melee")).message


def test_hits_are_offered_by_the_model_acting_now_and_without_one_before() -> None:
    before = [ev for ev in PLAY.offers(play()) if ev.kind == "hit"]
    assert before and all(ev.get("by") is None for ev in before)
    state = play(act(RANGED, "Hold"))
    on_ben = [ev for ev in PLAY.offers(state) if ev.kind == "hit" and ev.side == 2]
    assert on_ben and {ev.get("by") for ev in on_ben} == {RANGED}
    # Ann's own models may still be hit by nobody's attack (dangerous terrain)
    on_ann = [ev for ev in PLAY.offers(state) if ev.kind == "hit" and ev.side == 1]
    assert on_ann and all(ev.get("by") is None for ev in on_ann)
    for ev in on_ben + on_ann:
        PLAY.apply(state, ev)


def test_a_solo_game_names_no_attacker() -> None:
    """docs/rules-notes.md: a solo game has no enemy roster, so no `by`."""
    setup = (event("roll-off", 1, first=True), *deploy(1, RANGED, CHAINER))
    state = replayed(PLAY, SOLO, (*setup, event("end-turn", 1), event("round-end"),
                                  *deploy(1), act(RANGED, "Hold")))
    assert all(ev.get("by") is None for ev in PLAY.offers(state) if ev.kind == "hit")
    problem = refused_last(PLAY, SOLO, (*setup, act(RANGED, "Hold"),
                                        event("hit", 1, CHAINER, by=1)))
    assert "solo game" in problem.message


# -- Energy Pulse --------------------------------------------------------------------------
def test_energy_pulse_once_in_its_activation_then_its_hits() -> None:
    state = play(act(PULSER, "Run"))
    assert event("pulse", 1, PULSER) in PLAY.offers(state)
    state = play(act(PULSER, "Run"), event("pulse", 1, PULSER), hit(PULSER, "pulse"),
                 hit(PULSER, "pulse"))
    assert state.side(2).lost == 2  # a Run may pulse: a pulse is not a shot
    assert event("pulse", 1, PULSER) not in PLAY.offers(state)
    assert "already used" in refused(act(PULSER, "Hold"), event("pulse", 1, PULSER),
                                     event("pulse", 1, PULSER)).message
    assert "no Energy Pulse of" in refused(act(PULSER, "Hold"), hit(PULSER, "pulse")).message
    assert "has no Energy Pulse" in refused(act(RANGED, "Hold"),
                                            event("pulse", 1, RANGED)).message
    assert "no Support Hero is acting" in refused(act(RANGED, "Hold"),
                                                  event("pulse", 1, PULSER)).message


# -- Chain Attack --------------------------------------------------------------------------
def test_chain_attack_follows_a_melee_kill_up_to_3_times() -> None:
    kill = hit(CHAINER, "melee")
    state = play(act(CHAINER, "Walk"), kill)
    assert event("chain", 1, CHAINER) in PLAY.offers(state)
    chains = [ev for _ in range(CHAINS) for ev in (event("chain", 1, CHAINER), kill)]
    state = play(act(CHAINER, "Walk"), kill, *chains[:-1])
    assert state.current is not None and state.current.chains == CHAINS
    state = play(act(CHAINER, "Walk"), kill, *chains)
    assert event("chain", 1, CHAINER) not in PLAY.offers(state)
    problem = refused(act(CHAINER, "Walk"), kill, *chains, event("chain", 1, CHAINER))
    assert f"up to {CHAINS} times" in problem.message


def test_chain_attack_needs_a_melee_kill_by_its_own_unit() -> None:
    assert "none since" in refused(act(CHAINER, "Walk"), event("chain", 1, CHAINER)).message
    # a hit that leaves the enemy standing, or a kill by a shot, allows none
    ben_hero = refused(act(RANGED, "Hold"), hit(RANGED, "shooting"), act(CHAINER, "Walk"),
                       event("chain", 1, CHAINER))
    assert "none since" in ben_hero.message
    assert "has no Chain Attack" in refused(act(RANGED, "Walk"), hit(RANGED, "melee"),
                                            event("chain", 1, RANGED)).message
    # one kill, one chain: the next needs another kill
    assert "none since" in refused(act(CHAINER, "Walk"), hit(CHAINER, "melee"),
                                   event("chain", 1, CHAINER), event("chain", 1, CHAINER)
                                   ).message


def test_a_0_inch_range_s_hit_told_nothing_of_how_is_melee_and_may_chain() -> None:
    state = play(act(CHAINER, "Walk"), event("hit", 2, B_INFANTRY, by=CHAINER))
    assert event("chain", 1, CHAINER) in PLAY.offers(state)


def test_the_new_taps_remind_of_their_own_rules() -> None:
    told = reminding(get_system("hammerwars"), TWO)
    assert told is not None
    assert [r.rule for r in told.of([event("pulse", 1, PULSER)])] == ["Energy Pulse"]
    assert [r.rule for r in told.of([event("chain", 1, CHAINER)])] == ["Chain Attack"]
    assert told.of([act(CHAINER, "Run")]) == ()  # Rapid Advance is a Heavy's, not its
    heavy = player("Cy", "format: 1\nsystem: hammerwars\nname: Cy\nfactions: [Orks]\n"
                   "entries:\n  - {unit: Support Heavy, count: 1}\n")
    solo = reminding(get_system("hammerwars"), Match("hammerwars", (heavy,)))
    assert solo is not None
    assert [r.rule for r in solo.of([act(1, "Run")])] == ["Rapid Advance"]
    assert solo.of([act(1, "Walk")]) == ()
    # the hit names its attacker: only that unit's rules
    assert [r.rule for r in told.of([hit(CHAINER, "melee")])] == ["Chain Attack", "Hit & Run"]
    assert [r.rule for r in told.of([hit(PULSER, "pulse")])] == ["Energy Pulse"]


# -- old logs ------------------------------------------------------------------------------
def loaded(path: Path) -> Match:
    return read_match(path.read_text(encoding="utf-8"), str(path), LIBRARY.read_roster).match


def test_the_example_as_it_was_replays_to_the_same_states() -> None:
    """The example log from before attackers were named (tests/systems/data), replayed now:
    at each end of a turn and of the game, the state is the one it replayed to before
    (hammerwars-match-v1.json, written then), and nothing of the new records is set."""
    old = loaded(DATA / "hammerwars-match-v1.yaml")
    assert not any(ev.get("by") or ev.kind in ("activate", "pulse", "chain")
                   for ev in old.events)
    expected = json.loads((DATA / "hammerwars-match-v1.json").read_text(encoding="utf-8"))
    assert len(expected) == 13
    for count, before in expected.items():
        state = replay(PLAY, Match(old.system, old.players, old.events[:int(count)]))
        now = PLAY.to_data(state)
        assert now.pop("acting") is None
        for side in now["sides"]:
            for unit in side["units"]:
                assert not any(unit.pop("acted"))
        assert now == before, count


def test_the_example_with_attackers_ends_as_the_old_one_did() -> None:
    old, new = loaded(DATA / "hammerwars-match-v1.yaml"), \
        loaded(ROOT / "examples" / "hammerwars" / "match.yaml")
    assert {"activate", "pulse", "chain"} <= {ev.kind for ev in new.events}
    assert all(ev.get("by") for ev in new.events if ev.kind == "hit")
    assert PLAY.to_data(replay(PLAY, new)) == PLAY.to_data(replay(PLAY, old))
