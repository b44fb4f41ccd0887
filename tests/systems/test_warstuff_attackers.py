"""WarStuff's wounds, stuns and kills naming their attacker (issue 50 item 7): `by` and
`by_copy` name a copy of the other side's roster, `attack` says shot or melee, and the rules
refuse what the activation table and the Shooter rules forbid. Logs naming no attacker still
replay as before."""

from __future__ import annotations

import json
from pathlib import Path

from playtools import LIBRARY, refused_last, replayed

from listbuilder.engine.match import Event, Match, Player, describe, event, replay
from listbuilder.engine.match_file import read_match
from listbuilder.engine.registry import get_system
from listbuilder.systems.warstuff.play import WarStuffPlay, WarStuffState

DATA = Path(__file__).resolve().parent / "data"
PLAY = WarStuffPlay(get_system("warstuff"))


def roster(entries: str, designs: str = "") -> str:
    return (f"format: 1\nsystem: warstuff\nname: Test\npoints_limit: 300\n{designs}"
            f"entries:\n{entries}")


def match(*texts: str) -> Match:
    players = []
    for i, text in enumerate(texts):
        loaded = LIBRARY.read_roster(text, f"player {i + 1}")
        players.append(Player(["Ann", "Ben"][i], loaded.roster, text, loaded.catalog))
    return Match("warstuff", tuple(players))


# side 1: two Human Warriors (one entry, no rules), a Knight (Fast)
ONE = roster("  - unit: Human Warrior\n    count: 2\n"
             "  - unit: Knight\n    faction: Fantasy\n    count: 1\n")
# side 2: a Rifleman (Shooter), a Brute (Elite, no Shooter), a Netter (Entangle), a Martyr
# (Death Blow)
TWO = roster("  - unit: Rifleman\n    count: 1\n  - unit: Brute\n    count: 1\n"
             "  - unit: Netter\n    count: 1\n  - unit: Martyr\n    count: 1\n",
             "designs:\n  - name: Brute\n    quality: 3\n    rules: [Elite]\n"
             "  - name: Netter\n    quality: 2\n    rules: [Entangle]\n"
             "  - name: Martyr\n    quality: 2\n    rules: [Death Blow]\n")
GAME = match(ONE, TWO)
RIFLEMAN, BRUTE, NETTER, MARTYR = 1, 2, 3, 4
# side 2 goes first: its unit acts, then the hit lands on side 1's Knight (unit 2)
FIRST = event("first-turn", 2)


def acts(unit: int, action: str) -> Event:
    return event("activate", 2, unit, action=action)


def hit(kind: str, attack: str, by: int, **values: int | bool) -> Event:
    return event(kind, 1, 2, attack=attack, by=by, by_copy=1, **values)


def play(*events: Event) -> WarStuffState:
    return replayed(PLAY, GAME, events)


def refused(*events: Event) -> tuple[str, str]:
    err = refused_last(PLAY, GAME, events)
    return err.message, err.fix


# -- shots -------------------------------------------------------------------------------------

def test_a_shooter_shoots_after_hold_or_walk() -> None:
    for action in ("Hold", "Walk"):
        state = play(FIRST, acts(RIFLEMAN, action), hit("wound", "shot", RIFLEMAN))
        assert state.unit(1, 2).wounds == 1


def test_recover_may_not_shoot() -> None:
    message, fix = refused(FIRST, acts(RIFLEMAN, "Recover"), hit("wound", "shot", RIFLEMAN))
    assert "Recovers may not shoot" in message and "Rifleman" in message
    assert "Name the unit that shot" in fix


def test_only_shooters_shoot() -> None:
    message, fix = refused(FIRST, acts(BRUTE, "Hold"), hit("kill", "shot", BRUTE))
    assert "Brute" in message and "only Shooters shoot" in message
    assert "melee" in fix


def test_a_run_attacks_in_melee_and_does_not_shoot() -> None:
    message, _ = refused(FIRST, acts(RIFLEMAN, "Run"), hit("wound", "shot", RIFLEMAN))
    assert "Run may attack in melee, not shoot" in message
    assert not play(FIRST, acts(RIFLEMAN, "Run"), hit("kill", "melee", RIFLEMAN)).unit(1, 2).alive


def test_a_unit_shoots_in_its_own_activation() -> None:
    message, _ = refused(FIRST, hit("wound", "shot", RIFLEMAN))
    assert "has not activated in round 1" in message


def test_entangles_shot_stuns_and_never_wounds_or_kills() -> None:
    assert play(FIRST, acts(NETTER, "Hold"), hit("stun", "shot", NETTER)).unit(1, 2).stunned
    message, fix = refused(FIRST, acts(NETTER, "Hold"), hit("wound", "shot", NETTER))
    assert "Entangle" in message and "stun" in fix


# -- melee -------------------------------------------------------------------------------------

def test_only_a_run_attacks_in_melee() -> None:
    """Reading: the action table gives melee to Run alone (Hold and Walk shoot, Recover
    does nothing), docs/rules-notes.md "At the table: who attacked, and how"."""
    message, _ = refused(FIRST, acts(RIFLEMAN, "Hold"), hit("wound", "melee", RIFLEMAN))
    assert "took Hold in round 1" in message and "only a Run" in message


def test_elite_and_death_blow_strike_outside_their_activation() -> None:
    """An Elite unit attacked in melee makes its attacker test morale; a dying Death Blow
    unit attacks the enemies near it: neither waits for its own activation."""
    state = play(FIRST, hit("stun", "melee", BRUTE))
    assert state.unit(1, 2).stunned
    state = play(FIRST, event("kill", 2, MARTYR), hit("wound", "melee", MARTYR))
    assert state.unit(1, 2).wounds == 1  # its blow, recorded after its death


def test_a_death_blow_strikes_from_the_death_blow_unit_in_melee() -> None:
    blow = event("kill", 1, 2, death_blow=True)
    message, fix = refused(FIRST, acts(RIFLEMAN, "Hold"),
                           event("kill", 1, 2, death_blow=True, attack="shot", by=RIFLEMAN,
                                 by_copy=1))
    assert "has no Death Blow" in message and "Death Blow unit" in fix
    message, _ = refused(FIRST, event("kill", 1, 2, death_blow=True, attack="shot",
                                      by=MARTYR, by_copy=1))
    assert "not a shot" in message
    state = play(FIRST, event("kill", 1, 2, death_blow=True, attack="melee", by=MARTYR,
                              by_copy=1))
    assert state.blow == 2 and not state.unit(1, 2).alive
    # while it dies, only its blows: another enemy's is refused
    message, _ = refused(FIRST, blow, event("wound", 1, 1, attack="melee", by=BRUTE, by_copy=1))
    assert "has no Death Blow" in message


def test_the_dead_make_no_attacks() -> None:
    message, fix = refused(FIRST, acts(RIFLEMAN, "Hold"), event("kill", 2, RIFLEMAN),
                           hit("wound", "shot", RIFLEMAN))
    assert "is dead" in message and "still on the table" in fix


# -- how the attacker is named -------------------------------------------------------------

def test_an_attacker_is_named_with_by_and_attack_together_and_within_the_roster() -> None:
    assert "both 'by'" in refused(FIRST, event("wound", 1, 2, by=RIFLEMAN))[0]
    assert "both 'by'" in refused(FIRST, event("wound", 1, 2, attack="shot"))[0]
    assert "no attack 'volley'" in refused(
        FIRST, event("wound", 1, 2, attack="volley", by=RIFLEMAN))[0]
    message, fix = refused(FIRST, event("wound", 1, 2, attack="shot", by=9))
    assert "side 2 has no unit 9" in message and "1 to 4" in fix
    message, fix = refused(FIRST, event("wound", 2, 1, attack="melee", by=1, by_copy=3))
    assert "no copy 3" in message and "by_copy from 1 to 2" in fix


def test_a_solo_game_names_no_attacker() -> None:
    """Reading: a solo game has no enemy roster, so `by` names nothing: refused, and the
    offers name no attacker."""
    solo = match(ONE)
    err = refused_last(PLAY, solo, [event("activate", 1, 2, action="Hold"),
                                    event("wound", 1, 1, attack="melee", by=2, by_copy=1)])
    assert "solo game" in err.message
    offered = PLAY.offers(replay(PLAY, solo))
    assert offered and not any(ev.get("by") for ev in offered)


def test_a_loss_naming_no_attacker_is_still_taken_and_offered() -> None:
    """A hit of dangerous terrain has no attacker (a wound or a kill); old logs name none
    either. A stun always comes from an enemy's rule, so it is offered with its attacker
    only, though a log naming none still replays."""
    state = play(FIRST, event("wound", 1, 2), event("stun", 1, 2))
    assert state.unit(1, 2).wounds == 1 and state.unit(1, 2).stunned
    offered = PLAY.offers(play(FIRST))
    assert event("wound", 1, 2, copy=1) in offered
    assert event("kill", 1, 2, copy=1, death_blow=False) in offered
    assert event("stun", 1, 2, copy=1) not in offered
    assert any(ev.kind == "stun" and ev.unit == 2 and ev.get("by") for ev in offered)


def test_the_offers_name_every_enemy_that_could_have_struck_and_no_other() -> None:
    state = play(FIRST, acts(NETTER, "Hold"), event("activate", 1, 1, action="Run"),
                 acts(RIFLEMAN, "Hold"))
    named = {(ev.kind, ev.get("by"), ev.get("attack")) for ev in PLAY.offers(state)
             if (ev.side, ev.unit) == (1, 2) and ev.get("by")}
    assert named == {
        (kind, RIFLEMAN, "shot") for kind in ("wound", "stun", "kill")} | {
        (kind, who, "melee") for kind in ("wound", "stun", "kill") for who in (BRUTE, MARTYR)
    } | {("stun", NETTER, "shot")}
    # the unit that activated last comes first: the box shows it before a player changes it
    first = next(ev for ev in PLAY.offers(state) if ev.kind == "wound" and ev.get("by"))
    assert first.get("by") == RIFLEMAN
    for ev in PLAY.offers(state):  # every offer is taken
        replayed(PLAY, GAME, [FIRST, acts(NETTER, "Hold"), event("activate", 1, 1, action="Run"),
                              acts(RIFLEMAN, "Hold"), ev])


def test_the_log_says_how_and_by_whom() -> None:
    ev = event("wound", 1, 2, attack="shot", by=RIFLEMAN, by_copy=1)
    assert describe(GAME, PLAY, ev) == \
        "Ann's Knight · Took a Wound from a shot by Rifleman (copy 1)"


# -- old logs ----------------------------------------------------------------------------------

def test_a_log_written_before_attackers_were_named_replays_to_the_same_state() -> None:
    """The example as it stood before (version 1, no `by`) gives the state it gave then."""
    path = DATA / "warstuff-match-v1.yaml"
    loaded = read_match(path.read_text(encoding="utf-8"), str(path), LIBRARY.read_roster)
    assert not any(ev.get("by") for ev in loaded.match.events)
    expected = json.loads((DATA / "warstuff-match-v1.state.json").read_text(encoding="utf-8"))
    assert PLAY.to_data(replay(PLAY, loaded.match)) == expected


def test_the_example_names_the_attacker_of_every_wound_stun_and_kill() -> None:
    path = Path(__file__).resolve().parents[2] / "examples" / "warstuff" / "match.yaml"
    loaded = read_match(path.read_text(encoding="utf-8"), str(path), LIBRARY.read_roster)
    losses = [ev for ev in loaded.match.events if ev.kind in ("wound", "stun", "kill")]
    assert losses and all(ev.get("by") and ev.get("attack") for ev in losses)
    assert {ev.get("attack") for ev in losses} == {"shot", "melee"}
    # the same game as before, but for who struck
    old = read_match((DATA / "warstuff-match-v1.yaml").read_text(encoding="utf-8"), "old",
                     LIBRARY.read_roster)
    assert PLAY.to_data(replay(PLAY, loaded.match)) == PLAY.to_data(replay(PLAY, old.match))
