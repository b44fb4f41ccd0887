"""ActionHammer's attackers and movement (issue 50 items 7 and 8): an activation records its
movement, a wound names the enemy unit that dealt it (`by`) and how (`attack`), and the rules
refuse what the seed (003) forbids: a unit that Advances may not shoot, and no unit charges
or strikes back twice in a turn. Logs written before (no `by`, no `move`) replay as they did.
Readings: docs/rules-notes.md, ActionHammer, "Who attacks"."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playtools import LIBRARY, refused_last, replayed
from test_actionhammer_play import (
    CAPTAIN,
    DRAGOONS,
    FLYERS,
    MARSHAL,
    MOB,
    PLAY,
    SKARN,
    SOLO,
    START,
    TROOPERS,
    TUSKS,
    TWO,
    WALKER,
    end,
    moves,
)

from listbuilder.engine.match import Event, Match, describe, event, replay
from listbuilder.engine.match_file import read_match
from listbuilder.systems.actionhammer.play import (
    ADVANCE,
    ATTACKING,
    CHARGE,
    DEFENSIVE,
    MELEE,
    MOVES,
    NORMAL,
    REMAIN,
    SHOOTING,
    ActionHammerState,
)

DATA = Path(__file__).parent / "data"
OLD_LOG = DATA / "actionhammer-v1-example.yaml"
OLD_STATE = DATA / "actionhammer-v1-example.state.json"  # to_data before attackers were named
NEW_KEYS = ("move", "struck_back")  # each unit's values that came with them


def moved(side: int, number: int, move: str, stance: str | None = None) -> Event:
    values: dict[str, Any] = {"move": move}
    if stance is not None:
        values["stance"] = stance
    return event("activate", side, number, **values)


def hit(side: int, number: int, by: int, attack: str, wounds: int = 1) -> Event:
    return event("wound", side, number, wounds=wounds, by=by, attack=attack)


def play(*events: Event, match: Match = TWO) -> ActionHammerState:
    return replayed(PLAY, match, events)


def refused(*events: Event, match: Match = TWO) -> str:
    """The refusal's words of the last event; the ones before it are accepted."""
    return refused_last(PLAY, match, events).message


def wound_offers(state: ActionHammerState, side: int, number: int) -> set[tuple[Any, Any]]:
    return {(ev.get("by"), ev.get("attack")) for ev in moves(state)
            if (ev.kind, ev.side, ev.unit) == ("wound", side, number)}


# -- item 8: the movement of an activation --------------------------------------------------

def test_an_activation_records_its_movement_until_the_turn_ends() -> None:
    state = play(*START, moved(1, TROOPERS, ADVANCE), moved(1, MARSHAL, "remain stationary"))
    assert state.unit(1, TROOPERS).move == ADVANCE
    assert state.unit(1, CAPTAIN).move == ADVANCE  # its Leader moves with it
    assert state.unit(1, MARSHAL).move == REMAIN  # spelled as the seed spells it
    rows = PLAY.units(state, 1)
    assert "advanced" in PLAY.standing(rows[TROOPERS - 1]).chips
    after = play(*START, moved(1, TROOPERS, ADVANCE), moved(1, MARSHAL, NORMAL),
                 moved(1, DRAGOONS, NORMAL), moved(1, WALKER, NORMAL), end(1))
    assert {u.move for side in after.sides for u in side} == {""}


def test_every_movement_is_offered_and_no_other_is_taken() -> None:
    offered = {ev.get("move") for ev in moves(play(*START))
               if ev.kind == "activate" and ev.unit == TROOPERS}
    assert offered == set(MOVES)
    said = refused(*START, moved(1, TROOPERS, "Run"))
    assert "cannot make the movement 'Run'" in said


# -- item 7: who attacks -------------------------------------------------------------------------

def test_a_unit_that_advances_may_not_shoot() -> None:
    said = refused(*START, moved(1, TROOPERS, ADVANCE), hit(2, MOB, TROOPERS, SHOOTING))
    assert "Advance" in said and "may not shoot" in said
    play(*START, moved(1, TROOPERS, NORMAL), hit(2, MOB, TROOPERS, SHOOTING))
    play(*START, moved(1, TROOPERS, REMAIN), hit(2, MOB, TROOPERS, SHOOTING))
    state = play(*START, moved(1, TROOPERS, ADVANCE))
    assert (TROOPERS, SHOOTING) not in wound_offers(state, 2, MOB)


def test_a_charging_unit_shoots_its_target_only_from_regular_or_attacking() -> None:
    said = refused(*START, moved(1, TROOPERS, CHARGE, DEFENSIVE),
                   hit(2, MOB, TROOPERS, SHOOTING))
    assert "Defensive stance" in said
    state = play(*START, moved(1, TROOPERS, CHARGE, ATTACKING),
                 hit(2, MOB, TROOPERS, SHOOTING), hit(2, MOB, TROOPERS, MELEE))
    assert state.unit(2, MOB).taken == 2
    assert wound_offers(state, 2, MOB) >= {(TROOPERS, SHOOTING), (TROOPERS, MELEE),
                                           (CAPTAIN, MELEE)}


def test_melee_comes_only_with_a_charge() -> None:
    said = refused(*START, moved(1, TROOPERS, NORMAL), hit(2, MOB, TROOPERS, MELEE))
    assert "did not charge" in said


def test_a_unit_attacks_in_its_own_activation() -> None:
    said = refused(*START, moved(1, TROOPERS, NORMAL), hit(2, MOB, MARSHAL, SHOOTING))
    assert "has not activated this turn" in said
    # the other side shoots only in its own turn
    said = refused(*START, moved(1, TROOPERS, NORMAL), hit(1, TROOPERS, MOB, SHOOTING))
    assert "shoots only in its own activation" in said
    assert wound_offers(play(*START), 2, MOB) == set()


def test_no_unit_strikes_back_twice_in_a_turn() -> None:
    charged = (*START, moved(1, DRAGOONS, CHARGE), hit(2, MOB, DRAGOONS, MELEE),
               hit(1, DRAGOONS, MOB, MELEE))
    state = play(*charged, hit(1, DRAGOONS, MOB, MELEE))  # the same strike back, told twice
    assert state.unit(2, MOB).struck_back == DRAGOONS
    assert state.unit(2, SKARN).struck_back == DRAGOONS  # the pair is one unit
    assert "struck back" in PLAY.standing(PLAY.units(state, 2)[MOB - 1]).chips
    said = refused(*charged, moved(1, WALKER, CHARGE), hit(1, WALKER, SKARN, MELEE))
    assert "already struck back this turn" in said and "twice" in said
    again = play(*charged, moved(1, WALKER, CHARGE), hit(1, WALKER, TUSKS, MELEE))
    assert (MOB, MELEE) not in wound_offers(again, 1, WALKER)
    assert (TUSKS, MELEE) in wound_offers(again, 1, WALKER)
    # the next turn, it may strike back again
    turn = (moved(1, TROOPERS, REMAIN), moved(1, MARSHAL, REMAIN), moved(1, WALKER, REMAIN),
            end(1), moved(2, TUSKS, CHARGE), hit(1, MARSHAL, TUSKS, MELEE),
            moved(2, FLYERS, REMAIN), moved(2, MOB, REMAIN), end(2),
            moved(1, DRAGOONS, CHARGE))
    play(*charged, *turn, hit(1, DRAGOONS, MOB, MELEE))


def test_a_strike_back_answers_a_charge() -> None:
    said = refused(*START, moved(1, DRAGOONS, NORMAL), hit(1, DRAGOONS, MOB, MELEE))
    assert "has not charged this turn" in said


def test_the_attacker_is_an_enemy_unit_on_the_table() -> None:
    assert "side 1 has units 1 to 5, not 9" in refused(*START, moved(1, TROOPERS, NORMAL),
                                            hit(2, MOB, 9, SHOOTING))
    assert "both" in refused(*START, moved(1, TROOPERS, NORMAL),
                             event("wound", 2, MOB, wounds=1, by=TROOPERS))
    assert "no way to attack" in refused(*START, moved(1, TROOPERS, NORMAL),
                                         hit(2, MOB, TROOPERS, "psychic"))
    gone = (*START, moved(1, MARSHAL, NORMAL), moved(1, TROOPERS, NORMAL),
            moved(1, DRAGOONS, NORMAL), moved(1, WALKER, NORMAL), end(1),
            moved(2, TUSKS, CHARGE), hit(1, MARSHAL, TUSKS, MELEE, wounds=4))
    assert "destroyed and makes no more attacks" in refused(*gone, hit(2, TUSKS, MARSHAL,
                                                                       MELEE))


def test_a_solo_game_names_no_attacker() -> None:
    """One roster: no enemy unit to name, so none is offered and one given is refused."""
    state = play(*START, moved(1, TROOPERS, NORMAL), match=SOLO)
    wounds = [ev for ev in moves(state) if ev.kind == "wound"]
    assert wounds and all(ev.get("by") is None for ev in wounds)
    said = refused(*START, moved(1, TROOPERS, NORMAL), hit(1, MARSHAL, 1, SHOOTING),
                   match=SOLO)
    assert "solo game" in said


def test_wounds_nobody_dealt_come_from_dangerous_terrain() -> None:
    state = play(*START, moved(1, MARSHAL, ADVANCE),
                 event("hazard", 1, MARSHAL, wounds=1))
    assert state.unit(1, MARSHAL).taken == 1
    assert any(ev.kind == "hazard" and ev.unit == MARSHAL for ev in moves(state))


def test_the_log_says_who_attacked() -> None:
    match = Match("actionhammer", TWO.players, (), TWO.options)
    words = describe(match, PLAY, hit(2, MOB, TROOPERS, SHOOTING, wounds=4))
    assert words == "Ben's mob · Wounds suffered from shooting by first-line: wounds 4"
    assert "Activate to Charge" in describe(match, PLAY, moved(1, TROOPERS, CHARGE))


# -- item 10: old logs ----------------------------------------------------------------------------

def test_a_log_written_before_attackers_were_named_replays_as_it_did() -> None:
    match = read_match(OLD_LOG.read_text(encoding="utf-8"), str(OLD_LOG),
                       LIBRARY.read_roster).match
    assert not any(ev.get(k) is not None for ev in match.events for k in ("by", "move"))
    data = PLAY.to_data(replay(PLAY, match))
    for side in data["sides"]:
        for row in side["units"]:
            assert all(not row.pop(key, None) for key in NEW_KEYS), row
    assert data == json.loads(OLD_STATE.read_text(encoding="utf-8"))
