"""Rules reminders (engine/reminders.py, systems/<game>/reminders.py): a unit with a rule
gets its reminder on the taps the rule bears on, not on others, and a unit without gets none;
every game's tables name rules its catalog has and event kinds its rules of play know."""

from __future__ import annotations

from pathlib import Path

import pytest

from listbuilder.engine.library import Library
from listbuilder.engine.match import Event, Match, Player, event
from listbuilder.engine.match_file import read_match
from listbuilder.engine.registry import get_system
from listbuilder.engine.reminders import Reminder, Reminding, matching, reminding

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = Library()
GAMES = ("hammerwars", "op40k", "warstuff", "actionhammer", "spaceempires")


def example(game: str) -> Match:
    path = ROOT / "examples" / game / "match.yaml"
    return read_match(path.read_text(encoding="utf-8"), str(path), LIBRARY.read_roster).match


def made(game: str, *rosters: str) -> Match:
    players = []
    for name, text in zip(("Ann", "Ben"), rosters, strict=False):
        loaded = LIBRARY.read_roster(text, name)
        players.append(Player(name, loaded.roster, text, loaded.catalog))
    return Match(game, tuple(players))


def told(match: Match) -> Reminding:
    found = reminding(get_system(match.system), match)
    assert found is not None
    return found


def said(match: Match, ev: Event) -> dict[str, Reminder]:
    return {r.rule: r for r in told(match).of([ev])}


@pytest.mark.parametrize("game", GAMES)
def test_every_reminded_rule_is_in_the_catalog_and_every_kind_in_the_game(game: str) -> None:
    system = get_system(game)
    game_reminders, play = system.reminders(), system.play()
    assert game_reminders is not None and play is not None and game_reminders.bearings
    rules = {r.name for r in LIBRARY.catalog(game).rules}
    for bearing in game_reminders.bearings:
        assert bearing.rule in rules, f"{game}: no rule {bearing.rule!r} in the catalog"
        assert bearing.text and bearing.text == bearing.text.strip()
        for kind in bearing.kinds:
            assert kind in play.kinds, f"{game}: {bearing.rule} bears on unknown {kind!r}"
            assert set(bearing.when) <= set(play.kinds[kind].values)


def test_a_rule_with_a_value_keeps_it() -> None:
    assert matching(("Fast", "Tough(3)"), "Tough") == "Tough(3)"
    assert matching(("Shooter (Long)",), "Shooter (Long)") == "Shooter (Long)"
    assert matching(("Toughness",), "Tough") is None


def test_hammer_wars_a_hit_reminds_of_the_attackers_rules() -> None:
    m = example("hammerwars")  # Ann: Assault Specialist (3), Support Hero (5),
    # Assault Hero (6), Ranged Heavy (7); Ben: Assault Hero (3), Support Heavy (4)
    on_ben = said(m, event("hit", 2, 1, lives=1))
    assert set(on_ben) == {"Chain Attack", "Hit & Run", "Energy Pulse", "Trample Attack"}
    assert on_ben["Hit & Run"].who == "Assault Specialist, Assault Hero"
    assert on_ben["Trample Attack"].who == "Ranged Heavy"
    on_ann = said(m, event("hit", 1, 1, lives=1))
    assert set(on_ann) == {"Trample Attack", "Hit & Run"}  # not Rapid Advance
    assert on_ann["Trample Attack"].who == "Support Heavy"
    assert said(m, event("deploy", 1, 3)) == {}
    # an attacker named by the event narrows the foe's rules to its own
    by = said(m, event("hit", 2, 1, lives=1, by=3))
    assert set(by) == {"Chain Attack", "Hit & Run"}
    assert by["Hit & Run"].who == "Assault Specialist"
    assert said(m, event("hit", 2, 1, lives=1, by=1)) == {}


def test_op40k_morale_assault_and_shots() -> None:
    m = example("op40k")  # Grukk: Ork Boyz, Nobz, Gretchin, Warbikers...; Tyrus: Space
    # Marines, Terminators, Predator, Scouts
    assert set(said(m, event("morale", 2, 1, passed=False))) == {"Fearless"}
    assert set(said(m, event("rally", 2, 2, passed=False))) == {"Fearless"}
    assert set(said(m, event("morale", 1, 1, passed=False))) == {"Mob"}
    assert said(m, event("morale", 1, 3, passed=False)) == {}  # Gretchin: none
    assert set(said(m, event("activate", 1, 1, action="Assault"))) == {"Furious"}
    assert said(m, event("activate", 1, 1, action="Walk")) == {}
    assert set(said(m, event("activate", 1, 4, action="Walk"))) == {"Fast"}
    assault = said(m, event("assault", 1, 1, target=2, lost=0, killed=1))
    assert set(assault) == {"Furious", "Tough"}
    assert assault["Tough"].who == "Terminators" and assault["Furious"].who == ""
    assert said(m, event("assault", 1, 3, target=4, lost=0, killed=1)) == {}
    assert set(said(m, event("shot", 2, 2, models=1))) == {"Tough"}
    sniped = said(m, event("shot", 1, 3, models=1))
    assert set(sniped) == {"Sniper"} and sniped["Sniper"].who == "Scouts"


def test_op40k_orders_are_a_friends() -> None:
    text = (ROOT / "examples" / "op40k" / "imperial_guard.yaml").read_text(encoding="utf-8")
    m = made("op40k", text)  # Guardsmen (1, 2), Command Squad (3, Orders), Veterans (4)...
    ordered = said(m, event("morale", 1, 1, passed=False))
    assert set(ordered) == {"Orders"} and ordered["Orders"].who == "Command Squad"
    assert said(m, event("morale", 1, 3, passed=False)) == {}  # its own test: no friend's


WARSTUFF = ("format: 1\nsystem: warstuff\nname: {name}\npoints_limit: 300\nfactions: [Fantasy]\n"
            "entries:\n{entries}")


def warstuff(name: str, *units: str) -> str:
    return WARSTUFF.format(name=name, entries="".join(
        f"  - unit: {u}\n    count: 1\n" for u in units))


def test_warstuff_activation_wounds_stuns_and_deaths() -> None:
    m = made("warstuff", warstuff("Night", "Ghoul", "Rat Ogre", "Human Warrior"),
             warstuff("Hold", "Dwarf Warrior", "Skeleton", "Wizard"))
    assert set(said(m, event("activate", 1, 1, action="Walk"))) == {"Poison"}
    assert said(m, event("activate", 1, 1, action="Recover")) == {}  # no attack: no Poison
    assert set(said(m, event("activate", 1, 2, action="Run"))) == {"Fast"}
    assert set(said(m, event("activate", 2, 1, action="Hold"))) == {"Slow"}
    assert said(m, event("activate", 1, 3, action="Walk")) == {}
    hurt = said(m, event("wound", 1, 2))
    assert set(hurt) == {"Tough"} and hurt["Tough"].who == ""
    poisoned = said(m, event("wound", 2, 1))
    assert set(poisoned) == {"Poison"} and poisoned["Poison"].who == "Ghoul"
    assert set(said(m, event("stun", 2, 1))) == {"Fearless"}
    assert set(said(m, event("stun", 2, 2))) == {"Undead"}
    assert said(m, event("stun", 1, 3)) == {}
    assert set(said(m, event("heal", 2, 3, target=1))) == {"Healer"}
    assert said(m, event("heal", 1, 3, target=1)) == {}


def test_actionhammer_morale_activation_and_wounds() -> None:
    m = example("actionhammer")  # Ann: Line Troopers, Brigade Captain (Rally Cry), Recon
    # Marshal, Dragoon Riders, Strider Walker (Fearless); Ben: Reaver Mob, Warlord Skarn,
    # Tusk Riders (Frenzy), Carrion Flyers (Stealthy)
    assert set(said(m, event("morale", 1, 2, passed=True))) == {"Rally Cry"}
    assert set(said(m, event("morale", 1, 5, passed=True))) == {"Fearless"}
    assert said(m, event("morale", 1, 3, passed=True)) == {}
    assert set(said(m, event("activate", 2, 3, stance="Attacking", objective=0))) == {"Frenzy"}
    assert said(m, event("activate", 1, 4, stance="Attacking", objective=0)) == {}
    assert set(said(m, event("wound", 2, 4, wounds=1))) == {"Stealthy"}
    charged = said(m, event("wound", 1, 1, wounds=1))
    assert set(charged) == {"Frenzy"}
    assert charged["Frenzy"].who == "mob, Warlord Skarn, Tusk Riders"


def test_space_empires_chits_by_their_kind() -> None:
    m = example("spaceempires")  # Ann: Warboss (a Leader), Gretchin Mob, Ork Warship
    boss = said(m, event("join", 1, chit="Warboss", count=1))
    assert set(boss) == {"Leader Bonus", "Transports"}
    ship = said(m, event("join", 1, chit="Ork Warship", count=1))
    assert set(ship) == {"Bombardment"}
    assert set(said(m, event("lose", 1, chit="Warboss"))) == {"Destroyed and Captured"}
    assert set(said(m, event("lose", 1, chit="Ork Warship"))) == {"Space Casualties",
                                                                   "Bombardment"}
    assert said(m, event("recruit", 1, chit="Warboss", planet="Homeworld")) == {}
    # a chit dealt at setup is no roster entry, and is reminded all the same
    dealt = said(m, event("join", 1, chit="Bad Moonz Ork Boyz", count=1))
    assert set(dealt) == {"Transports"}


def test_a_tap_for_many_events_gives_each_reminder_once() -> None:
    m = example("op40k")
    both = told(m).of([event("morale", 2, 1, passed=True), event("morale", 2, 1, passed=False)])
    assert [r.rule for r in both] == ["Fearless"]
    assert told(m).of([event("round-end")]) == ()


def test_an_attacker_known_from_outside_narrows_the_foes_rules() -> None:
    """Quick-resolve knows its pair: the target's taps name that attacker's rules only."""
    m = example("hammerwars")  # Ben: Assault Hero (3, Hit & Run), Support Heavy (4, Trample)
    hit = [event("hit", 1, 3, lives=1)]
    assert {r.rule for r in told(m).of(hit)} == {"Trample Attack", "Hit & Run"}
    heavy = told(m).facing((2, 4)).of(hit)
    assert [(r.rule, r.who) for r in heavy] == [("Trample Attack", "Support Heavy")]
    assert told(m).facing((2, 1)).of(hit) == ()  # Assault Infantry: no rule
    # a unit of the target's own side attacks nobody: every foe's rules, as before
    assert {r.rule for r in told(m).facing((1, 5)).of(hit)} == {"Trample Attack", "Hit & Run"}
