"""Each system's profile (what a card prints and the builder previews) and the cards a roster
yields. Numbers are checked against the catalog, texts against the catalog's rule texts."""

from __future__ import annotations

from collections import Counter

import pytest

from listbuilder.engine.cards import UnitCard
from listbuilder.engine.library import Library
from listbuilder.engine.profile import Profile
from listbuilder.engine.registry import all_systems, get_system

pytestmark = pytest.mark.print


def stats(profile: Profile) -> dict[str, str]:
    return {s.label: s.value for s in profile.stats}


def roster(read, text: str):
    loaded = read(text)
    return loaded.system, loaded.catalog, loaded.roster


@pytest.mark.parametrize("system", all_systems(), ids=lambda s: s.id)
def test_every_unit_has_a_profile_with_a_cost_and_its_rules_texts(library: Library,
                                                                   system) -> None:
    catalog = library.catalog(system)
    for unit in catalog.units:
        profile = system.profile(catalog, unit)
        assert profile.name == unit.name
        assert profile.cost, unit.name
        assert profile.stats, unit.name
        for rule in profile.rules:
            known = catalog.rule(rule.name)
            if known is not None:
                assert rule.text == known.text
        for name in unit.special_rules:
            assert name in {r.name for r in profile.rules}, (unit.name, name)


def test_hammer_wars_profile(library: Library) -> None:
    system = get_system("hammerwars")
    catalog = library.catalog(system)
    hero = system.profile(catalog, catalog.find_unit("Ranged Hero"))
    assert hero.cost == "3 pts + 1 xp"
    assert stats(hero) == {"Move": '4"', "Lives": "3", "Armor": "Light", "Range": '16"'}
    assert hero.tables[0].headers == ("Dice", "Light", "Medium", "Heavy")
    assert hero.tables[0].rows == (("1", "3+", "6+", "6+"), ("1", "3+", "6+", "6+"))
    assert [r.name for r in hero.rules] == ["Ignores Cover"]
    infantry = system.profile(catalog, catalog.find_unit("Assault Infantry"))
    assert infantry.cost == "1 pt"
    assert "Skinks" in infantry.note
    heavy = system.profile(catalog, catalog.find_unit("Support Heavy"))
    assert heavy.cost == "6 pts + 3 xp"
    assert heavy.tables[0].rows[0] == ("1*", "3+", "4+", "5+")
    # what the blast (*) does is the same on every card: the quick-reference card says it
    assert not any(r.name.startswith("*") for r in heavy.rules)
    core = system.cards().core_rules(catalog, (UnitCard(heavy),))
    assert any(r.name.startswith("*") and '2"' in r.text for r in core)
    assert not any(r.name.startswith("*") for r in system.cards().core_rules(
        catalog, (UnitCard(infantry),)))


def test_op40k_profile_and_upgrade_weapons_on_the_card(library: Library, read) -> None:
    system = get_system("op40k")
    catalog = library.catalog(system)
    marines = catalog.find_unit("Space Marines")
    profile = system.profile(catalog, marines)
    assert profile.cost == "15 pts per model"
    assert stats(profile) == {"Size": "5 (5-10)", "Quality": "3+"}
    assert profile.tables[0].rows == (("Boltgun", '24"'), ("Combat Knife", "Melee"))
    _, cat, r = roster(read, """
format: 1
system: op40k
name: Strike
points_limit: 500
factions: [Space Marines]
entries:
  - {unit: Space Marines, count: 6, upgrades: [Missile Launcher]}
""")
    (card,) = system.cards().unit_cards(cat, r)
    assert card.size == "6 models"
    assert stats(card.profile)["Size"] == "6"  # as fielded, not the datasheet's range
    assert card.cost == "105 pts"  # 6 x 15 + 15
    assert [u.name for u in card.upgrades] == ["Missile Launcher (+15 pts)"]
    weapons = [row[0] for row in card.profile.tables[0].rows]
    # as fielded: one Marine's boltgun swapped for the launcher, each row with its carriers
    assert weapons == ["5x Boltgun", "1x Missile Launcher", "6x Combat Knife"]


def test_warstuff_profile_shows_the_formula_and_the_printed_figure(library: Library) -> None:
    system = get_system("warstuff")
    catalog = library.catalog(system)
    rat = system.profile(catalog, catalog.find_unit("Rat Warrior"))
    assert rat.cost == "30 pts"
    assert stats(rat) == {"Quality": "2"}
    assert "25 pts" in rat.note and "30 pts" in rat.note
    warrior = system.profile(catalog, catalog.find_unit("Human Warrior"))
    assert warrior.note == ""


def test_warstuff_designs_print_and_copies_add_up(read) -> None:
    system, cat, r = roster(read, """
format: 1
system: warstuff
name: Band
points_limit: 150
designs:
  - {name: Ranger Captain, quality: 3, rules: [Pathfinder, Shooter (Medium)]}
entries:
  - {unit: Human Warrior, faction: Fantasy, count: 2}
  - {unit: Ranger Captain}
  - {unit: Human Warrior, faction: Fantasy, count: 1}
""")
    cards = system.cards().unit_cards(cat, r)
    assert [(c.profile.name, c.copies) for c in cards] == [("Human Warrior", 3),
                                                            ("Ranger Captain", 1)]
    assert cards[1].profile.subtitle == "Own design"
    assert cards[1].profile.cost == "45 pts"
    apart = system.cards().unit_cards(cat, r, merge=False)
    assert [(c.profile.name, c.copies) for c in apart] == [
        ("Human Warrior", 2), ("Ranger Captain", 1), ("Human Warrior", 1)]


def test_actionhammer_profile(library: Library) -> None:
    system = get_system("actionhammer")
    catalog = library.catalog(system)
    troopers = system.profile(catalog, catalog.find_unit("Line Troopers"))
    assert troopers.cost == "12 pts per model"
    assert stats(troopers) == {"Move": '8"', "Save": "4+", "Wounds": "1", "Morale": "4+",
                               "Control": "1", "Models": "5-10"}
    assert troopers.tables[0].rows[0] == ("Service Rifle", '30"', "1", "4+", "0", "Rapid")
    # a weapon feature is explained once, on the quick-reference card, not on each card
    assert "Rapid" not in {r.name for r in troopers.rules}
    assert "Rapid" in {r.name for r in system.cards().core_rules(catalog, (UnitCard(troopers),))}
    captain = system.profile(catalog, catalog.find_unit("Brigade Captain"))
    assert captain.cost == "80 pts"
    assert "Models" not in stats(captain)
    assert captain.keywords == ("Leader", "Character", "Infantry")


def test_actionhammer_leader_has_his_own_card_after_his_bodyguards(read) -> None:
    """One card for both pushed a Leader and his Bodyguard to the smallest text: each has its
    own, side by side, saying whom it leads or is led by, both with the unit's morale."""
    system, cat, r = roster(read, """
format: 1
system: actionhammer
name: Vanguard
points_limit: 2000
factions: [Cobalt Brigade]
entries:
  - {unit: Line Troopers, count: 10, label: first-line}
  - {unit: Line Troopers, count: 10}
  - {unit: Brigade Captain, upgrades: [Refractor Field], joins: first-line}
  - {unit: Recon Marshal}
""")
    cards = system.cards().unit_cards(cat, r)
    names = [(c.profile.name, c.copies) for c in cards]
    assert names == [("Line Troopers", 1), ("Brigade Captain", 1), ("Line Troopers", 1),
                     ("Recon Marshal", 1)]
    guard, leader, other = cards[:3]
    assert stats(guard.profile)["Models"] == "10"  # as fielded
    assert guard.profile.subtitle.endswith("led by Brigade Captain")
    assert leader.profile.subtitle.endswith("leads Line Troopers")
    assert leader.cost == "95 pts"
    assert [u.name for u in leader.upgrades] == ["Refractor Field (+15 pts)"]
    assert stats(leader.profile)["Save"] == "2+"
    # 11 models together, on the better Morale (the Captain's 3+); his own save
    assert [(m.name, m.text) for m in guard.reminders] == [
        ("Save 4+", "(3+ vs shots in cover)"), ("Morale 3+", "at 5 models or fewer")]
    assert [(m.name, m.text) for m in leader.reminders] == [
        ("Save 2+", "(2+ vs shots in cover)"), ("Morale 3+", "at 5 models or fewer")]
    assert "led by" not in other.profile.subtitle
    sheet = system.cards().roster_sheet(cat, r)
    assert "Rally Cry" in {g.name for g in sheet.glossary}
    assert [line.name for line in sheet.lines] == ["Line Troopers", "Line Troopers",
                                                   "Brigade Captain", "Recon Marshal"]
    assert "joins Line Troopers (first-line)" in sheet.lines[2].detail


def test_identical_entries_share_a_card(read) -> None:
    system, cat, r = roster(read, """
format: 1
system: actionhammer
name: Twins
points_limit: 2000
factions: [Cobalt Brigade]
entries:
  - {unit: Line Troopers, count: 5}
  - {unit: Line Troopers, count: 5}
  - {unit: Line Troopers, count: 6}
""")
    cards = system.cards().unit_cards(cat, r)
    assert [(c.size, c.copies) for c in cards] == [("5 models", 2), ("6 models", 1)]
    assert len(system.cards().unit_cards(cat, r, merge=False)) == 3


def test_space_empires_profile_chits_and_deck(library: Library) -> None:
    system = get_system("spaceempires")
    catalog = library.catalog(system)
    warboss = system.profile(catalog, catalog.find_unit("Warboss", ["Orks"]))
    assert warboss.cost == "Costs 2 (half its Force)"  # a Leader; its Force is a stat
    assert stats(warboss)["Type"] == "L"
    assert "Leader Bonus" in {r.name for r in warboss.rules}
    wagons = system.profile(catalog, catalog.find_unit("Battlewagons", ["Orks"]))
    assert wagons.cost == "Costs 3"  # Force 3: said once, as a stat
    assert (stats(wagons)["Speed"], stats(wagons)["Spaces"]) == ("Fast", "1-3")
    grinda = system.profile(catalog, catalog.find_unit("Giblet Grinda", ["Orks"]))
    assert grinda.note == "BF: Battle Fortress"

    chits = system.cards().chits(catalog, "Orks")
    pile = catalog.pile("Orks")
    assert sum(c.copies for c in chits) == sum(u.pile for u in pile)
    bikes = next(c for c in chits if c.name == "Nobz Warbikes")
    assert (bikes.force, bikes.types, bikes.speed, bikes.leader) == ("2", "VL", "F", True)
    corsair = next(c for c in chits if c.name == "Freeboterz Corsair")
    assert (corsair.copies, corsair.types, corsair.speed) == (10, "SR", "M")

    deck = system.cards().card_set(catalog)
    assert deck is not None
    assert deck.total == 49 and len(deck.cards) == 18
    by_name = {c.name: c for c in deck.cards}
    assert by_name["Tactical Move"].copies == 12
    assert by_name["Operational Move"].headline == "Move 2 stacks"
    assert by_name["Hold Ground"].headline == "+5 Force"
    assert by_name["Hold Ground"].tag == "All Infantry"
    assert by_name["Space Combat"].tag == "One Space"
    assert by_name["Terraform"].headline == "Pay 10"


def test_hammer_wars_set_is_the_eleven_cards(library: Library) -> None:
    system = get_system("hammerwars")
    catalog = library.catalog(system)
    deck = system.cards().card_set(catalog)
    assert deck is not None
    assert [c.profile.name for c in deck.units] == [u.name for u in catalog.units]
    assert deck.total == 11


def test_hammer_wars_pool_card_stands_for_its_models_and_the_goal_is_explained(read) -> None:
    system, cat, r = roster(read, """
format: 1
system: hammerwars
name: Pool
factions: [Lizardmen]
choices: {goal: Duty}
entries:
  - {unit: Assault Infantry, count: 9}
""")
    (card,) = system.cards().unit_cards(cat, r)
    assert isinstance(card, UnitCard)
    assert card.copies == 9
    sheet = system.cards().roster_sheet(cat, r)
    (goal,) = sheet.choices
    assert goal.name.startswith("Goal: Duty")
    assert goal.text == cat.goal("Duty").text
    assert sheet.problems  # the pool is short, and the sheet says so


def test_systems_without_a_deck_or_chits(library: Library) -> None:
    for system_id in ("op40k", "warstuff", "actionhammer"):
        system = get_system(system_id)
        catalog = library.catalog(system)
        assert system.cards().card_set(catalog) is None
        assert system.cards().chits(catalog, "anything") == ()


def test_counts_of_the_ork_pile_follow_the_data(library: Library) -> None:
    system = get_system("spaceempires")
    catalog = library.catalog(system)
    counts = Counter({c.name: c.copies for c in system.cards().chits(catalog, "Orks")})
    assert counts["Freeboterz Corsair"] == 10
    assert counts["Ork Warship"] == 8
    assert counts["Bad Moonz Ork Boyz"] == 2


def test_a_warstuff_card_says_what_its_quality_means_in_play(read) -> None:
    """The card is played without the rules sheet: what it needs to hit each Quality, what
    kills it and what stuns it, all worked out from its own Quality."""
    from listbuilder.systems.warstuff.resolve import to_hit

    system, cat, r = roster(read, """
format: 1
system: warstuff
name: Band
points_limit: 150
entries:
  - {unit: Human Warrior, faction: Fantasy, count: 2}
""")
    (card,) = system.cards().unit_cards(cat, r)
    quality = int(stats(card.profile)["Quality"])
    (table,) = card.profile.tables
    low, high = cat.quality_range
    assert table.headers[1:] == tuple(str(q) for q in range(low, high + 1))
    assert table.rows == (("Hits on", *(f"{to_hit(quality, q)}+"
                                        for q in range(low, high + 1))),)
    rules = {rule.name: rule.text for rule in card.reminders}
    assert rules["Killed on"] == f"{quality + 1}+ (a die + its wounds)"
    assert rules["Stunned on"] == f"{quality + 1}+"
