"""Hammer Wars: the seed's tables, the unit pool, goals and every roster rule."""

from __future__ import annotations

import dataclasses
import json
import shutil
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from listbuilder.engine.catalog import load_catalog
from listbuilder.engine.errors import DataLoadError
from listbuilder.engine.library import Library
from listbuilder.engine.model import Roster, RosterEntry
from listbuilder.engine.registry import get_system
from listbuilder.engine.report import report
from listbuilder.engine.system import Violation
from listbuilder.systems.hammerwars import HammerWars, HammerWarsCatalog, HwUnit

SYSTEM = HammerWars()
POOL = {"Infantry": 9, "Specialist": 5, "Hero": 2, "Heavy": 1}
GOAL_PAIRS = {
    ("Duty", "Revenge"): 6,
    ("Deception", "Oppression"): 5,
    ("Greed", "Revenge"): 5,
    ("Duty", "Oppression"): 6,
    ("Greed", "Deception"): 4,
}
FULL_POOL = """\
  - {unit: Assault Infantry, count: 5}
  - {unit: Ranged Infantry, count: 4}
  - {unit: Assault Specialist, count: 2}
  - {unit: Support Specialist, count: 3}
  - {unit: Assault Hero, count: 1}
  - {unit: Support Hero, count: 1}
  - {unit: Ranged Heavy, count: 1}
"""


def cat(library: Library) -> HammerWarsCatalog:
    catalog = library.catalog("hammerwars")
    assert isinstance(catalog, HammerWarsCatalog)
    return catalog


def unit(library: Library, name: str) -> HwUnit:
    found = cat(library).find_unit(name)
    assert isinstance(found, HwUnit)
    return found


def roster(entries: str = FULL_POOL, *, faction: str = "Lizardmen", goal: str = "Duty") -> str:
    return (f"format: 1\nsystem: hammerwars\nname: Test\nfactions: [{faction}]\n"
            f"choices: {{goal: {goal}}}\nentries:\n{entries}")


def rule_ids(found: list[Violation]) -> list[str]:
    return sorted(v.rule for v in found)


# -- the seed's tables --------------------------------------------------------------------------

def test_registered_under_its_id() -> None:
    system = get_system("hammerwars")
    assert isinstance(system, HammerWars)
    assert (system.name, system.default_points_limit, system.max_factions) == (
        "Hammer Wars", None, 1)


def test_eleven_unit_cards_by_category_and_role(library: Library) -> None:
    units = cat(library).units
    assert len(units) == 11
    assert Counter(u.category for u in units) == {
        "Infantry": 3, "Specialist": 3, "Hero": 3, "Heavy": 2}
    assert Counter(u.role for u in units if isinstance(u, HwUnit)) == {
        "Assault": 3, "Ranged": 4, "Support": 4}
    assert all(u.name == f"{u.role} {u.category}" for u in units if isinstance(u, HwUnit))


def test_unit_rows_are_exact(library: Library) -> None:
    heavy = unit(library, "Support Heavy")
    assert (heavy.pts, heavy.xp, heavy.move, heavy.lives, heavy.armor, heavy.range) == (
        6, 3, 6, 5, "Heavy", 8)
    assert [(a.dice, a.blast, a.light, a.medium, a.heavy) for a in heavy.attacks] == [
        (1, True, 3, 4, 5), (1, False, 4, 4, 4)]
    assert heavy.special_rules == ("Rapid Advance", "Trample Attack")
    assert heavy.examples == ("Daemon Prince", "Dreadnought", "Giant", "XV8 Battlesuit")

    support = unit(library, "Support Infantry")
    assert (support.pts, support.xp, support.move, support.armor, support.range) == (
        1, 0, 4, "Light", 8)
    assert [(a.light, a.medium, a.heavy) for a in support.attacks] == [(5, 3, 4)]
    assert support.attacks[0].to_hit("Medium") == 3

    sniper = unit(library, "Ranged Specialist")
    assert (sniper.pts, sniper.armor, sniper.range, sniper.attacks[0].dice) == (
        2, "Medium", 12, 3)
    assert unit(library, "Support Specialist").attacks[0].blast
    assert unit(library, "Assault Specialist").special_rules == ("Chain Attack", "Hit & Run")
    hero = unit(library, "Assault Hero")
    assert (hero.pts, hero.xp, hero.move, hero.lives, hero.range) == (3, 1, 8, 3, 0)
    tank = unit(library, "Ranged Heavy")
    assert [(a.dice, a.light, a.medium, a.heavy) for a in tank.attacks] == [(3, 3, 3, 3)]
    assert unit(library, "Support Hero").examples[2] == "Slann Mage-Priest"


def test_cards_without_xp_cost_zero_xp(library: Library) -> None:
    xp = {u.name: u.xp for u in cat(library).units if isinstance(u, HwUnit)}
    assert {n for n, v in xp.items() if v == 0} == {
        "Assault Infantry", "Ranged Infantry", "Support Infantry",
        "Assault Specialist", "Ranged Specialist", "Support Specialist"}
    assert sum(xp.values()) == 3 * 1 + 2 * 3


def test_ranged_hero_keeps_two_attack_lines(library: Library) -> None:
    hero = unit(library, "Ranged Hero")
    assert len(hero.attacks) == 2
    assert hero.attacks[0] == hero.attacks[1]
    assert (hero.attacks[0].dice, hero.attacks[0].light, hero.range) == (1, 3, 16)
    assert sum(len(u.attacks) for u in cat(library).units if isinstance(u, HwUnit)) == 13


def test_unit_pool_holds_17_models(library: Library) -> None:
    pool = cat(library).pool
    assert {s.category: s.models for s in pool} == POOL
    assert sum(s.models for s in pool) == 17


def test_26_factions_in_five_goal_pairs(library: Library) -> None:
    factions = cat(library).factions
    assert len(factions) == 26
    pairs = Counter(getattr(f, "goals", ()) for f in factions)
    assert pairs == GOAL_PAIRS
    goals = {f.name: getattr(f, "goals", ()) for f in factions}
    assert goals["Orcs & Goblins"] == ("Greed", "Revenge")
    assert goals["Sisters of Battle"] == ("Deception", "Oppression")
    assert goals["Tau"] == ("Duty", "Oppression")
    assert goals["Skaven"] == ("Greed", "Deception")


def test_five_goals_and_six_special_rules(library: Library) -> None:
    c = cat(library)
    assert [g.name for g in c.goals] == ["Deception", "Duty", "Greed", "Oppression", "Revenge"]
    assert all(g.vp == 1 for g in c.goals)
    deception = c.goal("Deception")
    assert deception is not None and deception.attack is not None
    assert (deception.attack.dice, deception.attack.hits_on) == (1, 4)
    assert [r.name for r in c.rules] == ["Chain Attack", "Energy Pulse", "Hit & Run",
                                         "Ignores Cover", "Rapid Advance", "Trample Attack"]
    attacks = {r.name: getattr(r, "attack", None) for r in c.rules}
    pulse, trample = attacks["Energy Pulse"], attacks["Trample Attack"]
    assert pulse is not None and (pulse.dice, pulse.blast, pulse.hits_on) == (1, False, 5)
    assert trample is not None and (trample.dice, trample.blast, trample.hits_on) == (1, True, 4)


def test_texts_are_short_enough_for_a_card(library: Library) -> None:
    c = cat(library)
    texts = ([g.text for g in c.goals] + [r.text for r in c.rules] + [a.text for a in c.actions]
             + [t.text for t in c.terrain] + [m.text for m in c.morale.losses])
    assert len(texts) == 5 + 6 + 3 + 3 + 5
    assert all(0 < len(t) <= 320 for t in texts)


def test_deployment_economy(library: Library) -> None:
    d = cat(library).deployment
    assert (d.pts_per_round, d.xp_per_round, d.pts_kept, d.xp_kept) == (6, 1, False, True)
    assert (d.zone, d.enemy_gap) == (4, 1)


def test_morale_table(library: Library) -> None:
    morale = cat(library).morale
    assert (morale.start, morale.zero_vp) == (10, 1)
    assert [(m.name, m.every, m.morale, m.opponent_vp) for m in morale.losses] == [
        ("First player", 1, 1, 0),
        ("Round end", 1, 1, 0),
        ("Units lost", 3, 1, 0),
        ("Hero lost", 1, 1, 0),
        ("Heavy lost", 1, 1, 1),
    ]


def test_actions_terrain_and_combat_tables(library: Library) -> None:
    c = cat(library)
    assert [(a.name, a.move, a.shoot) for a in c.actions] == [
        ("Hold", 0, True), ("Walk", 1, True), ("Run", 2, False)]
    terrain = {t.name: t for t in c.terrain}
    assert list(terrain) == ["Cover", "Difficult Terrain", "Dangerous Terrain"]
    assert terrain["Cover"].hit_modifier == -1
    assert terrain["Difficult Terrain"].forbids == ("Run",)
    danger = terrain["Dangerous Terrain"].attack
    assert danger is not None and (danger.dice, danger.hits_on) == (1, 6)
    assert (c.combat.natural_hit, c.combat.blast_range, c.combat.blast_dice) == (6, 2, 1)
    assert (c.objectives.markers, c.objectives.seize_range, c.objectives.edge_gap) == (3, 2, 4)


def test_catalog_dump_holds_every_table(library: Library) -> None:
    dumped = dataclasses.asdict(cat(library))
    json.dumps(dumped)
    counts = {k: len(v) for k, v in dumped.items() if isinstance(v, list | tuple)}
    assert counts == {"factions": 26, "units": 11, "rules": 6, "decks": 0, "pool": 4,
                      "goals": 5, "actions": 3, "terrain": 3}
    assert len(dumped["morale"]["losses"]) == 5
    assert dumped["units"][9]["attacks"][0] == {
        "dice": 1, "blast": True, "light": 3, "medium": 4, "heavy": 5}
    assert dumped["factions"][0]["goals"] == ("Duty", "Revenge")


def test_no_data_file_is_sample(library: Library) -> None:
    c = cat(library)
    assert not any(item.origin.sample or item.origin.custom
                   for item in (*c.units, *c.factions, *c.goals, *c.rules, *c.pool))


# -- roster rules -------------------------------------------------------------------------------

def test_full_pool_is_legal_and_totals_what_deploying_it_costs(read) -> None:
    loaded = read(roster())
    assert report(loaded.system, loaded.catalog, loaded.roster).violations == []
    totals = report(loaded.system, loaded.catalog, loaded.roster).totals
    # 9 x 1 + 5 x 2 + 2 x 3 + 1 x 6 pts; 2 x 1 + 1 x 3 xp
    assert (totals.points, totals.points_limit) == (31, None)
    assert totals.lines == (("Infantry", "9/9"), ("Specialist", "5/5"), ("Hero", "2/2"),
                            ("Heavy", "1/1"), ("Pts to deploy all", "31"),
                            ("XP to deploy all", "5"))


def test_no_points_limit_is_asked_for(violations) -> None:
    text = roster().replace("name: Test\n", "name: Test\npoints_limit: 10\n")
    assert violations(text) == []
    assert violations(roster()) == []


def test_count_is_models_of_that_type_in_the_pool(read) -> None:
    loaded = read(roster())
    costs = [loaded.system.priced(loaded.catalog, loaded.roster, [e])[0].cost
             for e in loaded.roster.entries]
    assert costs == [5, 4, 4, 6, 3, 3, 6]


def test_one_type_may_fill_a_whole_category(violations) -> None:
    entries = """\
  - {unit: Support Infantry, count: 9}
  - {unit: Ranged Specialist, count: 5}
  - {unit: Ranged Hero, count: 2}
  - {unit: Support Heavy, count: 1}
"""
    assert violations(roster(entries)) == []


def test_pool_short(violations) -> None:
    entries = FULL_POOL.replace("Ranged Infantry, count: 4", "Ranged Infantry, count: 2")
    found = violations(roster(entries))
    assert rule_ids(found) == ["hammerwars.pool-short"]
    assert found[0].message == ("7 Infantry; the pool holds 9: add 2 Infantry "
                                "(of one or more Infantry types).")


def test_empty_category_is_short(violations) -> None:
    entries = FULL_POOL.replace("  - {unit: Ranged Heavy, count: 1}\n", "")
    found = violations(roster(entries))
    assert rule_ids(found) == ["hammerwars.pool-short"]
    assert found[0].message.startswith("0 Heavies; the pool holds 1: add 1 Heavy ")


def test_pool_over(violations) -> None:
    entries = FULL_POOL.replace("Support Hero, count: 1", "Support Hero, count: 2")
    found = violations(roster(entries))
    assert rule_ids(found) == ["hammerwars.pool-over"]
    assert found[0].message == "3 Heroes; the pool holds 2: remove 1 Hero."
    assert found[0].where == "roster"


def test_every_category_is_reported_at_once(violations) -> None:
    entries = "  - {unit: Assault Infantry, count: 10}\n  - {unit: Ranged Heavy, count: 2}\n"
    found = violations(roster(entries))
    assert rule_ids(found) == ["hammerwars.pool-over", "hammerwars.pool-over",
                               "hammerwars.pool-short", "hammerwars.pool-short"]
    assert "2 Heavies; the pool holds 1: remove 1 Heavy." in {v.message for v in found}


def test_repeated_unit_says_to_merge(violations) -> None:
    entries = FULL_POOL.replace("Assault Infantry, count: 5", "Assault Infantry, count: 3")
    entries += "  - {unit: Assault Infantry, count: 2}\n"
    found = violations(roster(entries))
    assert rule_ids(found) == ["hammerwars.repeated-unit"]
    assert found[0].where == "entries[7] Assault Infantry"
    # counted from 1, as the builder and the file's reader count them
    assert found[0].message == ("Assault Infantry is listed twice (entries 1 and 8): remove "
                                "entry 8 and add its 2 to entry 1.")


def test_goal_not_open_to_the_faction(violations) -> None:
    found = violations(roster(faction="Bretonnia", goal="Greed"))
    assert rule_ids(found) == ["hammerwars.goal-not-available"]
    assert found[0].message == ("Goal 'Greed' is not open to Bretonnia, which may pick Duty or "
                                "Revenge: choose one of those.")


def test_unknown_goal(violations) -> None:
    found = violations(roster(faction="Skaven", goal="Glory"))
    assert rule_ids(found) == ["hammerwars.goal-not-available"]
    assert found[0].message.startswith("'Glory' is not a Hammer Wars goal; Skaven may pick "
                                       "Greed or Deception")


def test_each_faction_may_take_either_of_its_goals(violations) -> None:
    assert violations(roster(faction="Skaven", goal="Greed")) == []
    assert violations(roster(faction="Skaven", goal="deception")) == []


def test_a_file_without_its_goal_reads_and_is_illegal(read, library: Library) -> None:
    # an unfinished roster is still a roster: the missing goal is a rule problem
    loaded = read(roster().replace("choices: {goal: Duty}\n", ""))
    assert rule_ids(report(SYSTEM, cat(library), loaded.roster).violations) == [
        "hammerwars.goal-missing"]


def test_goal_missing_from_a_roster_built_in_code(library: Library) -> None:
    c = cat(library)
    built = Roster(system="hammerwars", name="T", factions=("Tau",), entries=(
        RosterEntry(unit="Assault Infantry", count=9), RosterEntry(unit="Ranged Specialist",
                                                                   count=5),
        RosterEntry(unit="Support Hero", count=2), RosterEntry(unit="Ranged Heavy", count=1)))
    found = report(SYSTEM, c, built).violations
    assert rule_ids(found) == ["hammerwars.goal-missing"]
    assert found[0].message == ("No secret goal chosen: choose Duty or Oppression, the goals "
                                "Tau may pick.")


def test_one_faction_only(violations) -> None:
    text = roster().replace("factions: [Lizardmen]", "factions: [Lizardmen, Orks]")
    assert rule_ids(violations(text)) == ["roster.too-many-factions"]
    no_faction = roster().replace("factions: [Lizardmen]\n", "")
    assert rule_ids(violations(no_faction)) == ["roster.faction-missing"]


def test_unknown_units_are_skipped_not_raised(library: Library) -> None:
    c = cat(library)
    built = Roster(system="hammerwars", name="T", factions=("Tau",),
                   choices={"goal": "Duty"},
                   entries=(RosterEntry(unit="Gargant", count=9),
                            RosterEntry(unit="Ranged Heavy", count=1)))
    found = report(SYSTEM, c, built).violations
    assert rule_ids(found) == ["hammerwars.pool-short", "hammerwars.pool-short",
                               "hammerwars.pool-short", "roster.unknown-unit"]
    assert report(SYSTEM, c, built).totals.points == 6
    assert report(SYSTEM, c, built).totals.lines[0] == ("Infantry", "0/9")


@given(st.data())
def test_cost_is_additive_and_monotone(library: Library, data: st.DataObject) -> None:
    c = cat(library)
    names = [u.name for u in c.units]
    picks = data.draw(st.lists(st.tuples(st.sampled_from(names), st.integers(1, 30)),
                               max_size=8))
    entries = tuple(RosterEntry(unit=n, count=k) for n, k in picks)
    built = Roster(system="hammerwars", name="T", factions=("Orks",), entries=entries)
    each = [SYSTEM.priced(c, built, [e])[0].cost for e in entries]
    assert report(SYSTEM, c, built).totals.points == sum(each)
    for entry, cost in zip(entries, each, strict=True):
        one = SYSTEM.priced(c, built, [dataclasses.replace(entry, count=1)])[0].cost
        assert cost == one * entry.count
        more = SYSTEM.priced(c, built, [dataclasses.replace(entry, count=entry.count + 1)])[0].cost
        assert more >= cost
    assert dict(report(SYSTEM, c, built).totals.lines)["Pts to deploy all"] == str(sum(each))


# -- data files ---------------------------------------------------------------------------------

def copy_data(tmp_path: Path) -> Path:
    target = tmp_path / "builtin"
    shutil.copytree(get_system("hammerwars").data_folder(), target / "hammerwars")
    return target


def line_of(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


def test_bad_number_names_file_line_and_key(tmp_path: Path) -> None:
    builtin = copy_data(tmp_path)
    units = builtin / "hammerwars" / "units.yaml"
    units.write_text(units.read_text().replace("light: 5, medium: 3", "light: 7, medium: 3"))
    with pytest.raises(DataLoadError) as err:
        load_catalog(SYSTEM, builtin_dir=builtin, custom_dir=tmp_path / "none")
    line = line_of(units, "light: 7")
    assert str(err.value) == f"{units}:{line}: units[2].attacks[0].light: must be 2 to 6, got 7"


def test_unknown_rule_on_a_card_names_file_line_and_key(tmp_path: Path) -> None:
    builtin = copy_data(tmp_path)
    units = builtin / "hammerwars" / "units.yaml"
    units.write_text(units.read_text().replace("[Chain Attack, Hit & Run]",
                                               "[Chain Atack, Hit & Run]"))
    with pytest.raises(DataLoadError) as err:
        load_catalog(SYSTEM, builtin_dir=builtin, custom_dir=tmp_path / "none")
    line = line_of(units, "Chain Atack")
    assert str(err.value) == (f"{units}:{line}: units[3].rules[0]: unknown special rule "
                              f"'Chain Atack': define it under rules")


def test_missing_system_table_is_reported(tmp_path: Path) -> None:
    builtin = copy_data(tmp_path)
    system = builtin / "hammerwars" / "system.yaml"
    text = system.read_text()
    system.write_text(text[:text.index("combat:")] + text[text.index("objectives:"):])
    with pytest.raises(DataLoadError, match="no file gives the combat section: add it"):
        load_catalog(SYSTEM, builtin_dir=builtin, custom_dir=tmp_path / "none")


def test_custom_file_adds_a_faction_and_a_unit(tmp_path: Path) -> None:
    custom = tmp_path / "custom" / "hammerwars"
    custom.mkdir(parents=True)
    (custom / "squats.yaml").write_text("""\
sample: true
factions:
  - {name: Squats, goals: [Greed, Duty]}
units:
  - name: Assault Heavy
    category: Heavy
    role: Assault
    pts: 6
    xp: 3
    move: 6
    lives: 5
    armor: Heavy
    range: 0
    attacks:
      - {dice: 2, light: 3, medium: 3, heavy: 4}
    rules: [Trample Attack]
""")
    loaded = load_catalog(SYSTEM, custom_dir=tmp_path / "custom")
    assert loaded.problems == ()
    c = loaded.catalog
    squats = c.faction("Squats")
    assert squats is not None and squats.origin.custom and squats.origin.sample
    heavy = c.find_unit("Assault Heavy")
    assert heavy is not None and heavy.origin.custom
    assert len(c.units) == 12 and len(c.factions) == 27


def test_broken_custom_file_is_reported_and_left_out(tmp_path: Path) -> None:
    custom = tmp_path / "custom" / "hammerwars"
    custom.mkdir(parents=True)
    bad = custom / "bad.yaml"
    bad.write_text("factions:\n  - name: Squats\n    goals: [Greed, Glory]\n")
    twice = custom / "twice.yaml"
    twice.write_text("combat:\n  natural_hit: 5\n  blast_range: 3\n  blast_dice: 1\n")
    loaded = load_catalog(SYSTEM, custom_dir=tmp_path / "custom")
    assert [str(p) for p in loaded.problems] == [
        f"{bad}:3: factions[0].goals[1]: unknown goal 'Glory'",
        f"{twice}:1: combat: the combat section is already given in "
        f"listbuilder/systems/hammerwars/data/system.yaml: keep one",
    ]
    c = loaded.catalog
    assert isinstance(c, HammerWarsCatalog)
    assert len(c.factions) == 26 and c.faction("Squats") is None
    assert c.combat.natural_hit == 6


def test_duplicate_names_are_reported(tmp_path: Path) -> None:
    custom = tmp_path / "custom" / "hammerwars"
    custom.mkdir(parents=True)
    dup = custom / "dup.yaml"
    dup.write_text("goals:\n  - {name: Greed, vp: 2, text: More gold.}\n")
    loaded = load_catalog(SYSTEM, custom_dir=tmp_path / "custom")
    assert [str(p) for p in loaded.problems] == [
        f"{dup}:2: goals[0].name: 'Greed' is defined twice (also in "
        f"listbuilder/systems/hammerwars/data/goals.yaml): keep one"]


def test_pool_and_repeat_violations_name_our_reading(violations) -> None:
    short = violations(roster(FULL_POOL.replace("Ranged Infantry, count: 4",
                                                "Ranged Infantry, count: 2")))
    assert [v.reading for v in short] == ["must-the-pool-be-filled-exactly"]
    empty = violations(roster("  []\n").replace(":\n  []", ": []"))
    assert {v.reading for v in empty} == {"must-the-pool-be-filled-exactly"}
