"""WarStuff at the table (listbuilder/systems/warstuff/play.py): each rule of play pinned to the
seed (002), refusals included, and the readings of docs/rules-notes.md (WarStuff) pinned."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playtools import LIBRARY, refused_last, replayed

from listbuilder.engine.match import Event, Match, MatchError, Player, event, replay
from listbuilder.engine.match_file import read_match
from listbuilder.engine.registry import get_system
from listbuilder.systems.warstuff.play import (
    COMMANDS,
    WarStuffPlay,
    WarStuffState,
    most_wounds,
)

ROOT = Path(__file__).resolve().parents[2]

PLAY = WarStuffPlay(get_system("warstuff"))


def moves(state: Any) -> list[Event]:
    """What the rules offer now, but the concessions (offered at any time)."""
    return [ev for ev in PLAY.offers(state) if ev.kind != "concede"]


def roster(entries: str, designs: str = "") -> str:
    return (f"format: 1\nsystem: warstuff\nname: Test\npoints_limit: 300\n{designs}"
            f"entries:\n{entries}")


def entries(*units: str | tuple[str, int]) -> str:
    out = ""
    for u in units:
        name, count = (u, 1) if isinstance(u, str) else u
        out += f"  - unit: {name}\n    count: {count}\n"
    return out


# side 1: two Human Warriors (one entry), a Knight; side 2: a Sergeant (Leader), a Medic
# (Healer), two Riflemen
ONE = roster(entries(("Human Warrior", 2), ("Knight", 1)).replace(
    "unit: Knight", "unit: Knight\n    faction: Fantasy"))
TWO = roster(entries("Sergeant", "Medic", ("Rifleman", 2)))


def match(*texts: str) -> Match:
    players = []
    for i, text in enumerate(texts):
        loaded = LIBRARY.read_roster(text, f"player {i + 1}")
        players.append(Player(["Ann", "Ben"][i], loaded.roster, text, loaded.catalog))
    return Match("warstuff", tuple(players))


def play(m: Match, *events: Event) -> WarStuffState:
    return replayed(PLAY, m, events)


def refused(m: Match, *events: Event) -> MatchError:
    return refused_last(PLAY, m, events)


def unit(state: WarStuffState, side: int, number: int, copy: int = 1) -> dict[str, Any]:
    return next(u for u in PLAY.units(state, side)
                if u["unit"] == number and u.get("copy", 1) == copy)


GAME = match(ONE, TWO)
FIRST = event("first-turn", 1)


# -- the units on the table ----------------------------------------------------------------

def test_each_copy_is_a_one_model_unit_with_the_quality_and_points_of_its_profile() -> None:
    """Units: each unit is one model defined by Quality and special rules; an entry's count
    fields that many, each tracked on its own (our reading of `count`)."""
    rows = PLAY.units(PLAY.start(GAME), 1)
    assert [(r["unit"], r["copy"], r["name"], r["quality"], r["points"]) for r in rows] == [
        (1, 1, "Human Warrior", 2, 20), (1, 2, "Human Warrior", 2, 20), (2, 1, "Knight", 2, 30)]
    assert all(r["alive"] and r["wounds"] == 0 and not r["stunned"] for r in rows)
    assert [r["rules"] for r in PLAY.units(PLAY.start(GAME), 2)][:2] == [
        ["Leader", "Shooter (Short)"], ["Healer", "Shooter (Short)"]]


def test_an_event_names_a_copy_and_refuses_one_the_entry_lacks() -> None:
    state = play(GAME, event("wound", 1, 1, copy=2))
    assert unit(state, 1, 1, 1)["wounds"] == 0 and unit(state, 1, 1, 2)["wounds"] == 1
    assert "has 2 copies, so there is no copy 3" in refused(GAME, event("wound", 1, 1, copy=3)
                                                            ).message


@pytest.mark.parametrize(("quality", "rules", "most"), [
    (2, (), 4),  # Quality 2, +1 from cover (or a Small attacker in melee), +1 Poison
    (1, (), 3),
    (5, (), 7),
    (2, ("armored",), 5),  # Armored: +1 Quality when attacked
    (2, ("camouflaged",), 5),  # always in cover at +2
    (2, ("stealthy",), 6),  # +3 in cover
    (2, ("stealthy", "small"), 7),  # and Small's +1 when shot
    (2, ("large",), 5),  # +1 in melee against units without Large, +1 against a Small one
    (2, ("small",), 5),  # +1 cover +1 Small against shooting
    (2, ("undead",), 3),  # immune to Poison
    (2, ("regeneration",), None),  # a kill becomes a Wound on a 4+: no end to them
])
def test_the_most_wounds_a_unit_can_hold(quality: int, rules: tuple[str, ...],
                                         most: int | None) -> None:
    """A hit wounds while a D6 plus the Wounds taken is at most the defender's Quality, so a
    unit holds as many Wounds as its best defending Quality, plus one from Poison. Against an
    enemy not known (a solo game), every bonus an enemy could bring counts."""
    assert most_wounds(quality, rules) == most


@pytest.mark.parametrize(("rules", "foe", "most"), [
    ((), (), 3),  # no Poison over there: Quality 2 +1 in cover, and no more
    ((), ("poison",), 4),
    (("undead",), ("poison",), 3),
    ((), ("small",), 3),  # a Small attacker's +1 in melee ties with cover's +1
    (("large",), (), 3),  # Large's +1 in melee ties with cover's +1
    (("large",), ("small",), 4),  # and +1 more in melee against a Small attacker
    (("large",), ("small", "poison"), 5),
])
def test_poison_and_a_small_attackers_bonus_count_only_when_the_enemy_fields_them(
        rules: tuple[str, ...], foe: tuple[str, ...], most: int) -> None:
    """docs/rules-notes.md, "How many Wounds a unit can hold": a plain Quality-2 unit that
    faces no Poison can't hold a 4th Wound (the seed's wound roll kills it first)."""
    assert most_wounds(2, rules, frozenset(foe)) == most


def test_a_wound_past_the_most_the_dice_allow_is_refused() -> None:
    wounds = [event("wound", 1, 2)] * 3  # the Knight: Quality 2; side 2 fields no Poison
    state = play(GAME, *wounds)
    assert unit(state, 1, 2)["wounds"] == 3 == unit(state, 1, 2)["most_wounds"]
    err = refused(GAME, *wounds, event("wound", 1, 2))
    assert err.message == (
        "Knight has 3 Wounds, the most the dice can leave on it by the wound roll: its best "
        "defending Quality is 3 (Quality 2, +1 when shot at in cover), and a hit kills when a "
        "die plus its Wounds comes to more; the other warband fields no Poison to add one, so "
        "any further hit kills it")
    assert "kill" in err.fix


def test_a_warband_facing_poison_holds_one_wound_more() -> None:
    poisoned = roster(entries("Spider"), "designs:\n  - name: Spider\n    quality: 2\n"
                                         "    rules: [Poison]\n")
    game = match(ONE, poisoned)
    wounds = [event("wound", 1, 2)] * 4
    assert unit(play(game, *wounds), 1, 2)["wounds"] == 4
    err = refused(game, *wounds, event("wound", 1, 2))
    assert "Poison may add one Wound more" in err.message
    # the Spider's own side faces no Poison: it holds 3
    assert unit(play(game), 2, 1)["most_wounds"] == 3
    # a solo game does not know the other side: Poison counts
    assert unit(play(match(ONE), *wounds), 1, 2)["wounds"] == 4


def test_regeneration_has_no_most_wounds() -> None:
    troll = roster(entries("Beast"), "designs:\n  - name: Beast\n    quality: 1\n"
                                     "    rules: [Regeneration]\n")
    state = play(match(troll), *[event("wound", 1, 1)] * 6)
    assert unit(state, 1, 1)["wounds"] == 6 and unit(state, 1, 1)["most_wounds"] is None


# -- activations and rounds ----------------------------------------------------------------

def test_nobody_activates_before_the_deployment_winner_is_recorded() -> None:
    """The player who won deployment goes first in the first round."""
    err = refused(GAME, event("activate", 1, 1, action="Hold"))
    assert "deployment" in err.message and "first-turn" in err.fix
    assert moves(PLAY.start(GAME)) == [event("first-turn", 1), event("first-turn", 2)]
    state = play(GAME, event("first-turn", 2))
    assert state.turn == 2


def test_players_alternate_one_unit_each() -> None:
    """Rounds: players alternate activating a single unit each."""
    state = play(GAME, FIRST, event("activate", 1, 1, action="Walk"))
    assert state.turn == 2 and unit(state, 1, 1)["action"] == "Walk"
    err = refused(GAME, FIRST, event("activate", 1, 1, action="Walk"),
                  event("activate", 1, 2, action="Walk"))
    assert "side 2's turn" in err.message


def test_a_unit_activates_once_a_round_and_takes_one_of_the_four_actions() -> None:
    err = refused(GAME, FIRST, event("activate", 1, 1, action="Fly"))
    assert "Hold, Recover, Walk, Run" in err.fix
    err = refused(GAME, FIRST, event("activate", 1, 1, action="Hold"),
                  event("activate", 2, 3, action="Hold"), event("activate", 1, 1, action="Hold"))
    assert "already activated in round 1" in err.message


def test_when_one_side_runs_out_the_other_activates_the_rest() -> None:
    """...until all units have been activated: side 1 has 3 units, side 2 has 4, so side 2
    activates its last two one after the other."""
    evs = _round_one(1)
    assert [(e.side, e.unit, e.get("copy")) for e in evs[-3:]] == [(1, 2, 1), (2, 3, 1),
                                                                  (2, 3, 2)]
    assert play(GAME, *evs[:-1]).turn == 2
    assert play(GAME, *evs).turn is None


def _round_one(first: int) -> list[Event]:
    """Round 1 with every unit activated; side 1 runs out first (3 units against 4)."""
    one = [(1, 1), (1, 2), (2, 1)]
    two = [(1, 1), (2, 1), (3, 1), (3, 2)]
    evs = [event("first-turn", first)]
    order = (two, one) if first == 2 else (one, two)
    sides = (2, 1) if first == 2 else (1, 2)
    for i in range(4):
        for units, side in zip(order, sides, strict=True):
            if i < len(units):
                n, c = units[i]
                evs.append(event("activate", side, n, action="Hold", copy=c))
    return evs


def test_the_side_that_finished_activating_first_opens_the_next_round() -> None:
    """In each new round the player that finished activating first in the previous round goes
    first: here side 2 won deployment, but side 1 ran out of units first."""
    state = play(GAME, *_round_one(2))
    assert state.turn is None and state.finished == 1
    state = play(GAME, *_round_one(2), event("round-end"))
    assert state.round == 2 and state.first == 1 and state.turn == 1
    assert not any(u["activated"] for s in (1, 2) for u in PLAY.units(state, s))


def test_a_side_whose_unactivated_units_die_has_finished_activating() -> None:
    state = play(GAME, FIRST, event("activate", 1, 1, action="Hold"),
                 event("activate", 2, 1, action="Hold"), event("kill", 2, 2),
                 event("kill", 2, 3), event("kill", 2, 3, copy=2))
    assert state.finished == 2 and state.turn == 1


def test_a_round_ends_only_when_every_unit_has_activated() -> None:
    err = refused(GAME, *_round_one(1)[:-1], event("round-end"))
    assert "have not activated in round 1" in err.message
    err = refused(GAME, *_round_one(1), event("round-end"), event("first-turn", 2))
    assert "from round 2 on" in err.message


def test_dead_units_need_no_activation_and_do_nothing() -> None:
    state = play(GAME, FIRST, event("kill", 2, 1), event("kill", 2, 2),
                 event("kill", 2, 3, copy=1), event("activate", 1, 1, action="Hold"))
    assert state.turn == 2  # the last Rifleman
    err = refused(GAME, FIRST, event("kill", 1, 2), event("activate", 1, 2, action="Hold"))
    assert "is dead" in err.message
    assert "is dead" in refused(GAME, event("kill", 1, 2), event("wound", 1, 2)).message


# -- stunned units ---------------------------------------------------------------------------

def test_a_stunned_unit_counts_as_quality_0_and_must_recover_next() -> None:
    """Stunned units count as Quality 0 and must use Recover as their next action."""
    state = play(GAME, event("stun", 1, 2))
    assert unit(state, 1, 2)["stunned"] and unit(state, 1, 2)["counts_as"] == 0
    err = refused(GAME, event("stun", 1, 2), FIRST, event("activate", 1, 2, action="Run"))
    assert "must be Recover" in err.message
    state = play(GAME, event("stun", 1, 2), FIRST, event("activate", 1, 2, action="Recover"))
    assert not unit(state, 1, 2)["stunned"] and unit(state, 1, 2)["counts_as"] == 2
    assert [e for e in moves(play(GAME, event("stun", 1, 2), FIRST))
            if e.kind == "activate" and e.unit == 2] == [
        event("activate", 1, 2, action="Recover", copy=1)]


def test_a_unit_stunned_after_activating_recovers_next_round() -> None:
    evs = [*_round_one(1), event("stun", 1, 2), event("round-end")]
    assert unit(play(GAME, *evs), 1, 2)["stunned"]
    err = refused(GAME, *evs, event("activate", 1, 2, action="Hold"))
    assert "must be Recover" in err.message


def test_a_stunned_unit_is_not_stunned_twice_and_recover_without_stun_is_allowed() -> None:
    assert "already stunned" in refused(GAME, event("stun", 1, 2), event("stun", 1, 2)).message
    state = play(GAME, FIRST, event("activate", 1, 2, action="Recover"))
    assert unit(state, 1, 2)["action"] == "Recover"


# -- Leader ----------------------------------------------------------------------------------

def test_a_leader_commands_up_to_three_unactivated_friends_out_of_turn() -> None:
    """Leader: when it activates, up to three friendly units not yet activated activate too
    (one for each 4+ of three dice)."""
    game = match(ONE, roster(entries("Sergeant", ("Rifleman", 4))))
    evs = [event("first-turn", 2), event("activate", 2, 1, action="Hold")]
    evs += [event("activate", 2, 2, action="Walk", copy=c, commanded=True)
            for c in range(1, COMMANDS + 1)]
    state = play(game, *evs)
    assert state.turn == 1 and state.commands is None
    assert [unit(state, 2, 2, c)["commanded"] for c in (1, 2, 3, 4)] == [True] * 3 + [False]
    err = refused(game, *evs, event("activate", 2, 2, action="Walk", copy=4, commanded=True))
    assert "no Leader of side 2 has a command left" in err.message


def test_commands_belong_to_the_leaders_activation_only() -> None:
    game = match(ONE, roster(entries("Sergeant", ("Rifleman", 2))))
    err = refused(game, event("first-turn", 2), event("activate", 2, 2, action="Hold",
                                                      commanded=True))
    assert "no Leader" in err.message
    # once the other side has activated, the Leader's moment is gone
    err = refused(game, event("first-turn", 2), event("activate", 2, 1, action="Hold"),
                  event("activate", 1, 1, action="Hold"),
                  event("activate", 2, 2, action="Hold", commanded=True))
    assert "no Leader" in err.message


def test_a_stunned_leader_still_commands_as_it_recovers() -> None:
    """Our reading: commanding comes with the activation, whatever its action."""
    game = match(ONE, roster(entries("Sergeant", "Rifleman")))
    state = play(game, event("stun", 2, 1), event("first-turn", 2),
                 event("activate", 2, 1, action="Recover"),
                 event("activate", 2, 2, action="Hold", commanded=True))
    assert unit(state, 2, 2)["commanded"]


def test_a_commanded_leader_gives_commands_of_its_own() -> None:
    """Our reading: 'whenever this unit is activated' includes a Leader's command."""
    game = match(ONE, roster(entries(("Sergeant", 2), ("Rifleman", 4))))
    evs = [event("first-turn", 2), event("activate", 2, 1, action="Hold"),
           event("activate", 2, 1, action="Hold", copy=2, commanded=True)]
    evs += [event("activate", 2, 2, action="Hold", copy=c, commanded=True) for c in (1, 2, 3, 4)]
    state = play(game, *evs)
    assert state.commands == (2, 1)  # 3 - 1 + 3 - 4


# -- Healer ----------------------------------------------------------------------------------

def _healer_turn() -> list[Event]:
    return [event("wound", 2, 1), event("stun", 2, 1), event("wound", 2, 1),
            event("first-turn", 2), event("activate", 2, 2, action="Walk")]


def test_a_healer_removes_one_wound_and_stands_the_unit_up() -> None:
    """Healer: instead of attacking, heal a friendly unit: one Wound off, and a free Recover."""
    state = play(GAME, *_healer_turn(), event("heal", 2, 2, target=1))
    sergeant = unit(state, 2, 1)
    assert sergeant["wounds"] == 1 and not sergeant["stunned"] and unit(state, 2, 2)["healed"]


def test_healing_is_refused_where_the_rules_give_none() -> None:
    def why(*evs: Event) -> str:
        return refused(GAME, *evs).message

    assert "no Healer rule" in why(*_healer_turn(), event("heal", 2, 1, target=2))
    assert "activated" in why(event("wound", 2, 1), event("heal", 2, 2, target=1))
    recovering = [event("wound", 2, 1), event("first-turn", 2),
                  event("activate", 2, 2, action="Recover"), event("heal", 2, 2, target=1)]
    assert "Recover" in refused(GAME, *recovering).fix
    assert "already healed" in why(*_healer_turn(), event("heal", 2, 2, target=1),
                                   event("heal", 2, 2, target=1))
    assert "itself" in why(event("wound", 2, 2), *_healer_turn()[3:],
                           event("heal", 2, 2, target=2))
    assert "no Wound to remove" in why(*_healer_turn()[3:], event("heal", 2, 2, target=3))


# -- the end of the game ---------------------------------------------------------------------

def test_the_game_goes_on_round_after_round_with_no_limit() -> None:
    evs: list[Event] = []
    for _ in range(12):
        evs += [*_round_one(1)[1 if evs else 0:], event("round-end")]
    state = play(GAME, *evs)
    assert state.round == 13 and not PLAY.outcome(state).over


def test_a_side_whose_units_are_all_dead_has_lost() -> None:
    """Mission: the game goes on until all players but one concede or have no unit alive."""
    kills = [event("kill", 1, 1, copy=1), event("kill", 1, 1, copy=2), event("kill", 1, 2)]
    assert not PLAY.outcome(play(GAME, *kills[:-1])).over
    out = PLAY.outcome(play(GAME, *kills))
    assert out.over and out.winner == 2 and out.reason == "all of Ann's units are dead"
    assert dict(out.scores) == {"Units standing": (0, 4), "Enemy points killed": (0, 70)}
    err = refused(GAME, *kills, FIRST)
    assert "the game is over" in err.message


def test_a_concession_ends_the_game_for_the_other_side() -> None:
    out = PLAY.outcome(play(GAME, FIRST, event("concede", 2)))
    assert out.over and out.winner == 1 and out.reason == "Ben conceded"


def test_a_solo_game_needs_no_roll_off_and_ends_without_a_winner() -> None:
    solo = match(ONE)
    state = PLAY.start(solo)
    assert state.first == 1 and state.turn == 1
    state = play(solo, event("activate", 1, 1, action="Hold"))
    assert state.turn == 1  # nobody to alternate with
    out = PLAY.outcome(play(solo, event("concede", 1)))
    assert out.over and out.winner is None and "solo" in out.reason
    assert "no Death Blow unit" in refused(solo, event("kill", 1, 1, death_blow=True)).message


BLOW = roster(entries("Martyr"), "designs:\n  - name: Martyr\n    quality: 2\n"
                                 "    rules: [Death Blow]\n")


def test_a_death_blow_that_takes_the_last_enemy_with_it_is_a_draw() -> None:
    """Death Blow: when the unit is killed, enemies within 3" receive an attack. The blow's
    kill is recorded with death_blow, then the unit's own death; both fall at once."""
    game = match(BLOW, roster(entries("Knight").replace("unit: Knight",
                                                        "unit: Knight\n    faction: Fantasy")))
    state = play(game, event("kill", 2, 1, death_blow=True))
    assert not PLAY.outcome(state).over and state.blow == 1
    assert moves(state) == [event("kill", 1, 1, copy=1, death_blow=False)]
    err = refused(game, event("kill", 2, 1, death_blow=True), event("concede", 1))
    assert "Death Blow unit first" in err.fix
    out = PLAY.outcome(play(game, event("kill", 2, 1, death_blow=True), event("kill", 1, 1)))
    assert out.over and out.winner is None and "draw" in out.reason


def test_death_blow_needs_a_living_death_blow_unit_on_the_other_side() -> None:
    assert "no Death Blow unit" in refused(GAME, event("kill", 2, 1, death_blow=True)).message


# -- the example -----------------------------------------------------------------------------

def test_the_example_match_uses_every_kind_and_ends_with_a_winner() -> None:
    path = ROOT / "examples" / "warstuff" / "match.yaml"
    loaded = read_match(path.read_text(encoding="utf-8"), str(path), LIBRARY.read_roster)
    kinds = {e.kind for e in loaded.match.events}
    assert kinds == set(PLAY.kinds)
    assert 20 <= len(loaded.match.events) <= 60
    out = PLAY.outcome(replay(PLAY, loaded.match))
    assert out.over and out.winner == 1
