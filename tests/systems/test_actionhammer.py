"""ActionHammer: the seed's core numbers, our sample datasheets, costs, and every roster rule."""

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
from listbuilder.engine.roster_file import RosterFileError
from listbuilder.engine.system import Violation
from listbuilder.systems.actionhammer import ActionHammer, ActionHammerCatalog, Datasheet

DATA = get_system("actionhammer").data_folder()
SYSTEM = ActionHammer()

COBALT = {
    "Brigade Captain": (8, 3, 5, 3, 2, 1, 1, 80),
    "Recon Marshal": (10, 4, 4, 3, 2, 1, 1, 60),
    "Field Commissar": (8, 4, 4, 2, 1, 1, 1, 50),
    "Line Troopers": (8, 4, 1, 4, 1, 5, 10, 12),
    "Shock Squad": (8, 3, 2, 4, 1, 3, 6, 25),
    "Sniper Team": (7, 5, 1, 5, 1, 2, 2, 30),
    "Heavy Weapons Crew": (6, 4, 2, 4, 1, 2, 3, 40),
    "Dragoon Riders": (14, 3, 3, 4, 1, 2, 4, 45),
    "Skyhawk Jumpers": (12, 4, 1, 4, 1, 3, 5, 30),
    "Sergeant Hale": (8, 3, 3, 3, 2, 1, 1, 45),
    "Strider Walker": (8, 2, 12, 4, 3, 1, 1, 160),
}
ASHEN = {
    "Warlord Skarn": (9, 3, 6, 3, 2, 1, 1, 85),
    "Bone Shaman": (7, 5, 4, 4, 1, 1, 1, 55),
    "Reaver Mob": (9, 5, 1, 5, 1, 6, 12, 9),
    "Brute Crushers": (9, 4, 3, 4, 1, 1, 4, 40),
    "Scrap Gunners": (8, 5, 1, 5, 1, 3, 6, 14),
    "Gorehound Pack": (12, 5, 2, 5, 0, 3, 6, 16),
    "Tusk Riders": (14, 4, 3, 4, 1, 2, 5, 38),
    "Carrion Flyers": (14, 5, 1, 5, 1, 3, 6, 20),
    "The Butcher": (9, 4, 5, 3, 1, 1, 1, 60),
    "Ravager Wagon": (10, 3, 10, 4, 2, 1, 1, 120),
}


def cat(library: Library) -> ActionHammerCatalog:
    catalog = library.catalog("actionhammer")
    assert isinstance(catalog, ActionHammerCatalog)
    return catalog


def sheet(library: Library, name: str) -> Datasheet:
    unit = cat(library).find_unit(name)
    assert isinstance(unit, Datasheet)
    return unit


def roster(entries: str, *, limit: int | None = 2000,
           factions: str = "[Cobalt Brigade]") -> str:
    points = f"points_limit: {limit}\n" if limit is not None else ""
    return (f"format: 1\nsystem: actionhammer\nname: Test\n{points}factions: {factions}\n"
            f"entries:\n{entries}")


def ids(found: list[Violation]) -> list[str]:
    return sorted(v.rule for v in found)


def only(found: list[Violation], rule: str) -> Violation:
    hits = [v for v in found if v.rule == rule]
    assert len(hits) == 1, found
    return hits[0]


# -- the seed's core numbers ------------------------------------------------------------------

def test_army_organisation_numbers(library: Library) -> None:
    army = cat(library).army
    assert (army.recommended_points, army.leaders_per, army.same_datasheet_per,
            army.units_per, army.character_copies) == (2000, 1000, 1000, 500, 1)
    assert SYSTEM.default_points_limit == army.recommended_points


def test_dice_numbers(library: Library) -> None:
    dice = cat(library).dice
    assert (dice.sides, dice.critical_hit, dice.always_succeeds, dice.always_fails) == (6, 6, 6, 1)
    assert (dice.hit_modifier_cap, dice.rerolls_per_die) == (1, 1)
    assert (dice.advance_dice, dice.charge_dice) == (2, 2)


def test_d3_is_a_d6_halved_rounding_up(library: Library) -> None:
    dice = cat(library).dice
    assert [dice.d3(face) for face in range(1, 7)] == [1, 1, 2, 2, 3, 3]


def test_hit_modifiers_are_capped_at_one(library: Library) -> None:
    dice = cat(library).dice
    assert [dice.capped(m) for m in (-2, -1, 0, 1, 2)] == [-1, -1, 0, 1, 1]


def test_distances(library: Library) -> None:
    d = cat(library).distances
    assert (d.coherency_horizontal, d.coherency_vertical, d.coherency_spread) == (4, 10, 18)
    assert (d.engagement_horizontal, d.engagement_vertical) == (2, 10)
    assert (d.melee_reach, d.pile_in, d.consolidate) == (4, 6, 6)
    assert (d.objective_horizontal, d.objective_vertical) == (6, 10)
    assert (d.deployment_gap, d.sight_percent) == (50, 10)


def test_terrain_numbers(library: Library) -> None:
    t = cat(library).terrain
    assert (t.cover_save_bonus, t.higher_ground_height, t.higher_ground_ap) == (1, 4, -1)
    assert (t.climb_height, t.dangerous_fails_on, t.dangerous_wounds) == (7, 1, 1)


def test_game_numbers(library: Library) -> None:
    g = cat(library).game
    assert (g.rounds, g.objectives_min, g.objectives_max) == (4, 3, 5)
    assert (g.objective_edge_gap, g.objective_gap) == (12, 18)
    assert (g.vp_per_objective, g.vp_per_turn_max, g.scoring_from_round) == (1, 3, 2)
    assert (g.charge_shot_penalty, g.engaged_shot_penalty, g.morale_divisor) == (-1, -1, 2)


def test_four_stances_with_their_hit_modifiers(library: Library) -> None:
    stances = {s.name: (s.own_hit, s.enemy_hit) for s in cat(library).stances}
    assert stances == {"Regular": (0, 0), "Attacking": (1, 1), "Defensive": (-1, -1),
                       "Stunned": (-1, 1)}


def test_stunned_is_imposed_overrides_modifiers_and_zeroes_control(library: Library) -> None:
    c = cat(library)
    stunned = c.stance("Stunned")
    assert stunned is not None
    assert (stunned.chosen, stunned.overrides_modifiers, stunned.control_zero) == (
        False, True, True)
    assert not stunned.open_to(sheet(library, "Line Troopers"))
    others = [s for s in c.stances if s.name != "Stunned"]
    assert all(s.chosen and not s.overrides_modifiers and not s.control_zero for s in others)


def test_only_attacking_stance_lets_an_unmodified_one_hit(library: Library) -> None:
    assert [s.name for s in cat(library).stances if not s.ones_fail] == ["Attacking"]


def test_mounted_may_not_defend_and_start_regular(library: Library) -> None:
    c = cat(library)
    defensive = c.stance("Defensive")
    assert defensive is not None and defensive.barred == ("Mounted",)
    riders, troopers = sheet(library, "Dragoon Riders"), sheet(library, "Line Troopers")
    assert not defensive.open_to(riders)
    assert defensive.open_to(troopers)
    opening = c.opening_stance(riders)
    assert opening is not None and opening.name == "Regular"
    opening = c.opening_stance(troopers)
    assert opening is not None and opening.name == "Defensive"


def test_flyers_land_in_defensive_and_stunned_stances(library: Library) -> None:
    grounded = {s.name for s in cat(library).stances if "Flying" in s.grounds}
    assert grounded == {"Defensive", "Stunned"}
    flyers = sheet(library, "Skyhawk Jumpers")
    defensive = cat(library).stance("Defensive")
    assert defensive is not None and defensive.open_to(flyers)


# -- our sample datasheets --------------------------------------------------------------------

def test_two_sample_factions_of_11_and_10_datasheets(library: Library) -> None:
    c = cat(library)
    assert sorted(f.name for f in c.factions) == ["Ashen Horde", "Cobalt Brigade"]
    assert len(c.units) == 21
    assert Counter(u.faction for u in c.units) == {"Cobalt Brigade": 11, "Ashen Horde": 10}
    assert len(c.rules) == 12
    assert sum(len(u.upgrades) for u in c.units) == 9
    weapons = Counter(s.faction for s in c.datasheets for _ in s.weapons)
    assert weapons == {"Cobalt Brigade": 19, "Ashen Horde": 15}
    assert all(u.origin.sample and not u.origin.custom for u in c.units)
    assert all(r.origin.sample for r in c.rules)
    assert not any(s.origin.sample for s in c.stances)  # the stances are the seed's


@pytest.mark.parametrize("faction,table", [("Cobalt Brigade", COBALT), ("Ashen Horde", ASHEN)])
def test_every_profile_is_as_written(library: Library, faction: str,
                                     table: dict[str, tuple[int, ...]]) -> None:
    sheets = [s for s in cat(library).datasheets if s.faction == faction]
    assert {s.name: (s.move, s.save, s.wounds, s.morale, s.control, s.min_models,
                     s.max_models, s.pts) for s in sheets} == table


def test_weapons_and_upgrades_spot_checks(library: Library) -> None:
    captain = sheet(library, "Brigade Captain")
    sabre = captain.weapons[1]
    assert (sabre.name, sabre.range, sabre.att, sabre.sk, sabre.ap, sabre.features) == (
        "Duelling Sabre", "Melee", 4, 3, -1, ("Keen",))
    assert sabre.melee and sabre.range_text == "Melee"
    rifle = sheet(library, "Sniper Team").weapons[0]
    assert (rifle.range, rifle.att, rifle.sk, rifle.ap, rifle.features) == (
        48, 1, 2, -2, ("Heavy", "Deadly"))
    assert not rifle.melee and rifle.range_text == '48"'
    grenades = sheet(library, "Line Troopers").upgrade("Frag Grenades")
    assert grenades is not None and (grenades.pts, grenades.per_model) == (2, True)
    banner = sheet(library, "Reaver Mob").upgrade("Banner of Skulls")
    assert banner is not None and (banner.pts, banner.per_model) == (15, False)
    assert sheet(library, "Warlord Skarn").special_rules == ("Frenzy",)


def test_sample_data_has_what_the_rules_need(library: Library) -> None:
    for faction in ("Cobalt Brigade", "Ashen Horde"):
        sheets = [s for s in cat(library).datasheets if s.faction == faction]
        leaders = [s for s in sheets if s.is_leader]
        guards = [s for s in sheets if not s.is_leader and s.max_models >= 2]
        assert any(s.is_character and s.is_leader for s in sheets)
        assert any(s.is_character and not s.is_leader for s in sheets)
        assert any(s.has_keyword("Mounted") for s in sheets)
        assert any(s.has_keyword("Flying") for s in sheets)
        assert len({(s.min_models, s.max_models) for s in guards}) >= 4
        moves = {g.move for g in guards}
        assert any(leader.move in moves for leader in leaders)
        assert any(leader.move not in moves for leader in leaders)


def test_catalog_dumps_to_json_with_every_table(library: Library) -> None:
    data = json.loads(json.dumps(dataclasses.asdict(cat(library))))
    assert len(data["units"]) == 21
    assert len(data["factions"]) == 2
    assert len(data["rules"]) == 12
    assert len(data["stances"]) == 4
    assert data["army"]["units_per"] == 500
    assert data["distances"]["coherency_spread"] == 18
    assert data["game"]["opening_stance"] == "Defensive"


# -- costs ------------------------------------------------------------------------------------

def test_cost_is_points_per_model_times_models_plus_upgrades(read) -> None:
    loaded = read(roster("  - unit: Line Troopers\n    count: 10\n"
                         "    upgrades: [Frag Grenades, Vox Caster]\n"
                         "  - unit: Brigade Captain\n    upgrades: [Refractor Field]\n"))
    costs = [loaded.system.priced(loaded.catalog, loaded.roster, [e])[0].cost
             for e in loaded.roster.entries]
    assert costs == [12 * 10 + 2 * 10 + 10, 80 + 15]
    assert report(loaded.system, loaded.catalog, loaded.roster).totals.points == 245


def test_summary_counts_leaders_units_and_models(read) -> None:
    loaded = read(roster("  - unit: Line Troopers\n    count: 6\n    label: line\n"
                         "  - unit: Brigade Captain\n    joins: line\n"
                         "  - unit: Recon Marshal\n"))
    totals = report(loaded.system, loaded.catalog, loaded.roster).totals
    assert totals.lines == (("Leaders", "2/2"), ("Units", "2/4"), ("Models", "8"))


ENTRY = st.tuples(
    st.sampled_from(["Line Troopers", "Shock Squad", "Dragoon Riders", "Reaver Mob"]),
    st.integers(1, 12),
    st.lists(st.sampled_from(["Frag Grenades", "Vox Caster", "War Paint", "Banner of Skulls",
                              "Regimental Standard"]), unique=True, max_size=3),
)


def _roster(entries: list[tuple[str, int, list[str]]]) -> Roster:
    return Roster(system="actionhammer", name="T", points_limit=2000,
                  factions=("Cobalt Brigade", "Ashen Horde"),
                  entries=tuple(RosterEntry(unit=u, count=n, upgrades=tuple(up))
                                for u, n, up in entries))


@given(st.lists(ENTRY, max_size=6), st.lists(ENTRY, max_size=6))
def test_cost_is_additive_over_entries(library: Library, a: list, b: list) -> None:
    c = cat(library)
    whole = report(SYSTEM, c, _roster(a + b)).totals.points
    assert whole == (report(SYSTEM, c, _roster(a)).totals.points
                     + report(SYSTEM, c, _roster(b)).totals.points)


@given(ENTRY, st.integers(1, 5))
def test_cost_grows_by_the_per_model_price_for_each_model(library: Library, entry: tuple,
                                                          more: int) -> None:
    c = cat(library)
    name, count, upgrades = entry
    unit = c.find_unit(name)
    assert isinstance(unit, Datasheet)
    per_model = unit.pts + sum(u.pts for u in unit.upgrades if u.per_model and u.name in upgrades)
    small = report(SYSTEM, c, _roster([entry])).totals.points
    big = report(SYSTEM, c, _roster([(name, count + more, upgrades)])).totals.points
    assert big - small == per_model * more


# -- roster rules: the shared ones ------------------------------------------------------------

LEGAL = ("  - unit: Line Troopers\n    count: 10\n    label: line\n"
         "  - unit: Brigade Captain\n    joins: line\n"
         "  - unit: Dragoon Riders\n    count: 3\n"
         "  - unit: Sergeant Hale\n"
         "  - unit: Recon Marshal\n")


def test_a_legal_roster_is_clean(violations) -> None:
    assert violations(roster(LEGAL)) == []


def test_several_factions_may_share_an_army(violations) -> None:
    text = roster("  - unit: Line Troopers\n    count: 5\n  - unit: Reaver Mob\n    count: 6\n",
                  factions="[Cobalt Brigade, Ashen Horde]")
    assert violations(text) == []
    assert SYSTEM.max_factions is None and SYSTEM.min_factions == 1


def test_an_army_needs_a_faction(violations) -> None:
    text = roster("  - unit: Line Troopers\n    count: 5\n", factions="[]")
    assert "roster.faction-missing" in ids(violations(text))


def test_over_the_points_limit(violations) -> None:
    text = roster("  - unit: Strider Walker\n  - unit: Line Troopers\n    count: 5\n", limit=200)
    v = only(violations(text), "roster.points-limit")
    assert v.message == "220 pts spent; the limit is 200: remove 20 pts."


def test_model_count_within_the_datasheet(violations) -> None:
    assert violations(roster("  - unit: Line Troopers\n    count: 5\n")) == []
    v = only(violations(roster("  - unit: Line Troopers\n    count: 4\n")), "roster.count-bounds")
    assert v.message == "Line Troopers has models 4; it must be 5 to 10: set it to 5."
    found = violations(roster("  - unit: Sniper Team\n    count: 3\n"))
    assert ids(found) == ["roster.count-bounds"]


def test_missing_points_limit_skips_the_allowances(violations) -> None:
    entries = "".join(f"  - unit: {n}\n" for n in
                      ("Brigade Captain", "Recon Marshal", "Field Commissar", "Strider Walker",
                       "Strider Walker", "Strider Walker"))
    assert ids(violations(roster(entries, limit=None))) == ["roster.no-points-limit"]


# -- roster rules: allowances that grow with the points limit ---------------------------------

def test_two_leaders_at_2000_pts(violations) -> None:
    assert violations(roster("  - unit: Brigade Captain\n  - unit: Recon Marshal\n")) == []


def test_a_third_leader_at_2000_pts(violations) -> None:
    found = violations(roster("  - unit: Brigade Captain\n  - unit: Recon Marshal\n"
                              "  - unit: Field Commissar\n"))
    v = only(found, "actionhammer.leaders-per-1000")
    assert ids(found) == ["actionhammer.leaders-per-1000"]
    assert v.message == ("3 Leaders; 2000 pts allows 2 (1 per full 1000 pts): remove 1 Leader "
                         "or raise the points limit to 3000.")


def test_leaders_count_full_1000s_of_the_points_limit(violations) -> None:
    two = "  - unit: Brigade Captain\n  - unit: Recon Marshal\n"
    assert ids(violations(roster(two, limit=1999))) == ["actionhammer.leaders-per-1000"]
    assert ids(violations(roster("  - unit: Recon Marshal\n", limit=999))) == [
        "actionhammer.leaders-per-1000"]


def test_two_units_of_a_datasheet_at_2000_pts(violations) -> None:
    assert violations(roster("  - unit: Shock Squad\n    count: 3\n" * 2)) == []


def test_a_third_unit_of_a_datasheet_at_2000_pts(violations) -> None:
    found = violations(roster("  - unit: Shock Squad\n    count: 3\n" * 3))
    v = only(found, "actionhammer.datasheet-per-1000")
    assert v.where == "entries[2] Shock Squad"
    assert v.message == ("3 units of Shock Squad; 2000 pts allows 2 (1 per full 1000 pts): "
                         "remove 1.")


def test_below_1000_pts_one_unit_of_each_datasheet(violations) -> None:
    one = roster("  - unit: Shock Squad\n    count: 3\n", limit=999)
    assert violations(one) == []
    two = roster("  - unit: Shock Squad\n    count: 3\n" * 2, limit=999)
    assert ids(violations(two)) == ["actionhammer.datasheet-per-1000",
                                    "actionhammer.units-per-500"]


def test_same_datasheet_name_counts_across_factions(tmp_path: Path) -> None:
    custom = tmp_path / "actionhammer"
    custom.mkdir()
    (custom / "rust-kin.yaml").write_text(
        "sample: true\nfactions:\n  - {name: Rust Kin, text: Test faction.}\n"
        "datasheets:\n  - {name: Line Troopers, faction: Rust Kin, move: 8, save: 4,"
        " wounds: 1, morale: 4, control: 1, models: {min: 5, max: 10}, pts: 10}\n")
    library = Library(custom_dir=tmp_path)
    loaded = library.read_roster(roster(
        "  - {unit: Line Troopers, faction: Cobalt Brigade, count: 5}\n"
        "  - {unit: Line Troopers, faction: Rust Kin, count: 5}\n",
        limit=1000, factions="[Cobalt Brigade, Rust Kin]"))
    found = report(loaded.system, loaded.catalog, loaded.roster).violations
    assert ids(found) == ["actionhammer.datasheet-per-1000"]


FOUR_UNITS = ("  - unit: Line Troopers\n    count: 5\n    label: line\n"
              "  - unit: Shock Squad\n    count: 3\n"
              "  - unit: Dragoon Riders\n    count: 2\n"
              "  - unit: Strider Walker\n")


def test_four_units_at_2000_pts(violations) -> None:
    assert violations(roster(FOUR_UNITS)) == []


def test_a_fifth_unit_at_2000_pts(violations) -> None:
    found = violations(roster(FOUR_UNITS + "  - unit: Recon Marshal\n"))
    v = only(found, "actionhammer.units-per-500")
    assert ids(found) == ["actionhammer.units-per-500"]
    assert v.message == ("5 units (a Leader with its Bodyguard counts as one); 2000 pts allows "
                         "4 (1 per full 500 pts): remove 1 unit or join a Leader to a "
                         "Bodyguard.")


def test_a_leader_with_its_bodyguard_counts_as_one_unit(violations) -> None:
    assert violations(roster(FOUR_UNITS + "  - unit: Brigade Captain\n    joins: line\n")) == []


def test_a_broken_join_still_counts_as_one_unit(violations) -> None:
    found = violations(roster(FOUR_UNITS + "  - unit: Recon Marshal\n    joins: line\n"))
    assert ids(found) == ["actionhammer.bodyguard-move"]


def test_below_500_pts_one_unit_is_allowed(violations) -> None:
    assert violations(roster("  - unit: Line Troopers\n    count: 5\n", limit=400)) == []
    two = roster("  - unit: Line Troopers\n    count: 5\n  - unit: Sniper Team\n    count: 2\n",
                 limit=400)
    assert ids(violations(two)) == ["actionhammer.units-per-500"]


# -- roster rules: Characters -----------------------------------------------------------------

def test_one_copy_of_each_character(violations) -> None:
    assert violations(roster("  - unit: Sergeant Hale\n  - unit: Brigade Captain\n")) == []
    found = violations(roster("  - unit: Sergeant Hale\n  - unit: Sergeant Hale\n"))
    v = only(found, "actionhammer.character-copies")
    assert ids(found) == ["actionhammer.character-copies"]
    assert v.where == "entries[1] Sergeant Hale"
    assert v.message == ("Sergeant Hale is a Character and is taken 2 times; an army brings "
                         "1 copy: remove 1.")


def test_non_characters_may_repeat(violations) -> None:
    assert violations(roster("  - unit: Strider Walker\n" * 2)) == []


# -- roster rules: Leaders and Bodyguards -----------------------------------------------------

def test_leaders_need_not_join(violations) -> None:
    assert violations(roster("  - unit: Brigade Captain\n  - unit: Line Troopers\n    count: 5\n"
                             "    label: line\n")) == []


def test_only_leaders_join(violations) -> None:
    found = violations(roster("  - unit: Line Troopers\n    count: 5\n    label: line\n"
                              "  - unit: Shock Squad\n    count: 3\n    joins: line\n"))
    v = only(found, "actionhammer.only-leaders-join")
    assert ids(found) == ["actionhammer.only-leaders-join"]
    assert v.where == "entries[1] Shock Squad"
    assert v.message == ("Shock Squad joins Line Troopers, but only Leaders join a Bodyguard: "
                         "remove `joins: line`.")


def test_a_leader_may_not_be_the_bodyguard(violations) -> None:
    found = violations(roster("  - unit: Field Commissar\n    label: boss\n"
                              "  - unit: Brigade Captain\n    joins: boss\n"))
    v = only(found, "actionhammer.leader-not-bodyguard")
    assert ids(found) == ["actionhammer.leader-not-bodyguard"]
    assert "(Field Commissar is a Leader; Field Commissar is 1 model, always)" in v.message


def test_a_leader_may_not_join_itself(violations) -> None:
    found = violations(roster("  - unit: Brigade Captain\n    label: me\n    joins: me\n"))
    assert ids(found) == ["actionhammer.leader-not-bodyguard"]


def test_the_bodyguard_has_two_models_or_more(violations) -> None:
    found = violations(roster("  - unit: Sergeant Hale\n    label: hale\n"
                              "  - unit: Field Commissar\n    joins: hale\n"))
    v = only(found, "actionhammer.bodyguard-size")
    assert ids(found) == ["actionhammer.bodyguard-size"]
    # Sergeant Hale is always one model: the advice is what the player can do, not "add 1"
    assert v.message == ("Field Commissar can't join Sergeant Hale (Sergeant Hale is 1 model, "
                         "always): a Leader joins a unit of its faction, of 2 or more models, "
                         "with the same Move and no other Leader. Join a Cobalt Brigade unit of "
                         '2 or more models with Move 8" and no Leader of its own, or leave '
                         "Field Commissar on its own.")


def test_multi_model_means_the_entry_has_two_models(violations) -> None:
    def crushers(count: int) -> str:
        return roster(f"  - unit: Brute Crushers\n    count: {count}\n    label: brutes\n"
                      "  - unit: Warlord Skarn\n    joins: brutes\n", factions="[Ashen Horde]")

    assert violations(crushers(2)) == []
    assert ids(violations(crushers(1))) == ["actionhammer.bodyguard-size"]


def test_leader_and_bodyguard_share_a_move(violations) -> None:
    found = violations(roster("  - unit: Line Troopers\n    count: 5\n    label: line\n"
                              "  - unit: Recon Marshal\n    joins: line\n"))
    v = only(found, "actionhammer.bodyguard-move")
    assert ids(found) == ["actionhammer.bodyguard-move"]
    assert v.message == ("Recon Marshal can't join Line Troopers (Line Troopers has Move 8\" "
                         "and Recon Marshal Move 10\"): a Leader joins a unit of its faction, of "
                         "2 or more models, with the same Move and no other Leader. Join a "
                         'Cobalt Brigade unit of 2 or more models with Move 10" and no Leader '
                         "of its own, or leave Recon Marshal on its own.")


def test_leader_and_bodyguard_share_a_faction(violations) -> None:
    found = violations(roster("  - unit: Scrap Gunners\n    count: 3\n    label: gunners\n"
                              "  - unit: Brigade Captain\n    joins: gunners\n",
                              factions="[Cobalt Brigade, Ashen Horde]"))
    v = only(found, "actionhammer.bodyguard-faction")
    assert ids(found) == ["actionhammer.bodyguard-faction"]
    assert v.message.startswith("Brigade Captain can't join Scrap Gunners (Scrap Gunners is "
                                "Ashen Horde)")
    assert "Join a Cobalt Brigade unit" in v.message


def test_one_leader_per_bodyguard(violations) -> None:
    base = "  - unit: Line Troopers\n    count: 5\n    label: line\n"
    one = base + "  - unit: Brigade Captain\n    joins: line\n"
    assert violations(roster(one)) == []
    two = one + "  - unit: Field Commissar\n    joins: line\n"
    found = violations(roster(two))
    v = only(found, "actionhammer.bodyguard-one-leader")
    assert ids(found) == ["actionhammer.bodyguard-one-leader"]
    assert v.where == "entries[2] Field Commissar"
    assert v.message == ("2 Leaders join Line Troopers (line); a Bodyguard takes 1, Brigade "
                         "Captain: move Field Commissar to another unit or leave it on its own.")


def test_joining_a_missing_label(library: Library) -> None:
    c = cat(library)
    r = Roster(system="actionhammer", name="T", points_limit=2000, factions=("Cobalt Brigade",),
               entries=(RosterEntry(unit="Brigade Captain", joins="ghosts"),))
    v = only(report(SYSTEM, c, r).violations, "actionhammer.bodyguard-missing")
    assert v.message == ("Brigade Captain joins 'ghosts', but no entry has that label: add "
                         "`label: ghosts` to its Bodyguard or remove `joins`.")
    labelled = Roster(system="actionhammer", name="T", points_limit=2000,
                      factions=("Cobalt Brigade",),
                      entries=(RosterEntry(unit="Line Troopers", count=5, label="ghosts"),
                               RosterEntry(unit="Brigade Captain", joins="ghosts")))
    assert report(SYSTEM, c, labelled).violations == []


def test_the_roster_file_reader_also_rejects_a_missing_label(read) -> None:
    with pytest.raises(RosterFileError, match="no entry has the label 'ghosts'"):
        read(roster("  - unit: Brigade Captain\n    joins: ghosts\n"))


def test_unknown_units_are_left_to_the_base_class(library: Library) -> None:
    c = cat(library)
    r = Roster(system="actionhammer", name="T", points_limit=1000, factions=("Cobalt Brigade",),
               entries=(RosterEntry(unit="Nobody", count=3, label="x"),
                        RosterEntry(unit="Nobody"),
                        RosterEntry(unit="Brigade Captain", joins="x")))
    assert ids(report(SYSTEM, c, r).violations) == ["roster.unknown-unit", "roster.unknown-unit"]
    assert report(SYSTEM, c, r).totals.points == 80


def test_an_unknown_unit_is_told_what_to_do(library: Library) -> None:
    """Every message says what the player can do: a unit the data no longer has (renamed in
    an update, say) is named with the nearest of the faction's units."""
    r = Roster(system="actionhammer", name="T", points_limit=1000, factions=("Cobalt Brigade",),
               entries=(RosterEntry(unit="Line Trooper", count=5),))
    [found] = report(SYSTEM, cat(library), r).violations
    assert found.message == ("'Line Trooper' is not a unit of the chosen faction (did you mean "
                             "'Line Troopers'?): correct the name or remove the entry.")


# -- data errors and the player's own data ----------------------------------------------------

def _copy_data(tmp_path: Path) -> tuple[Path, Path]:
    builtin = tmp_path / "builtin"
    shutil.copytree(DATA, builtin / "actionhammer")
    empty = tmp_path / "empty"
    empty.mkdir()
    return builtin, empty


def _line_of(path: Path, needle: str, after: str = "") -> int:
    lines = path.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if after in line) if after else 0
    return next(i for i, line in enumerate(lines) if i >= start and needle in line) + 1


def test_a_bad_value_names_file_line_and_key_path(tmp_path: Path) -> None:
    builtin, empty = _copy_data(tmp_path)
    path = builtin / "actionhammer" / "factions" / "ashen-horde.yaml"
    text = path.read_text().replace("    save: 5\n    wounds: 4\n", "    save: 9\n    wounds: 4\n")
    path.write_text(text)
    with pytest.raises(DataLoadError) as info:
        load_catalog(SYSTEM, builtin_dir=builtin, custom_dir=empty)
    line = _line_of(path, "save: 9")
    assert f"ashen-horde.yaml:{line}: datasheets[1].save: must be 2 to 6, got 9" in str(info.value)


def test_an_unknown_ability_names_file_line_and_key_path(tmp_path: Path) -> None:
    builtin, empty = _copy_data(tmp_path)
    path = builtin / "actionhammer" / "factions" / "cobalt-brigade.yaml"
    path.write_text(path.read_text().replace("abilities: [Stealthy]", "abilities: [Stelthy]"))
    with pytest.raises(DataLoadError) as info:
        load_catalog(SYSTEM, builtin_dir=builtin, custom_dir=empty)
    line = _line_of(path, "[Stelthy]")
    assert (f"cobalt-brigade.yaml:{line}: datasheets[5].abilities[0]: unknown ability "
            f"'Stelthy'") in str(info.value)


def test_a_melee_typo_and_reversed_model_counts(tmp_path: Path) -> None:
    builtin, empty = _copy_data(tmp_path)
    path = builtin / "actionhammer" / "factions" / "cobalt-brigade.yaml"
    text = path.read_text().replace("range: Melee, att: 4", "range: melee, att: 4")
    path.write_text(text.replace("models: {min: 5, max: 10}", "models: {min: 10, max: 5}"))
    with pytest.raises(DataLoadError) as info:
        load_catalog(SYSTEM, builtin_dir=builtin, custom_dir=empty)
    message = str(info.value)
    assert "datasheets[0].weapons[1].range: must be inches or 'Melee', got 'melee'" in message
    line = _line_of(path, "models: {min: 10, max: 5}")
    assert f"cobalt-brigade.yaml:{line}: datasheets[3].models: min 10 is above max 5" in message


def test_a_missing_core_section_is_reported(tmp_path: Path) -> None:
    builtin, empty = _copy_data(tmp_path)
    path = builtin / "actionhammer" / "system.yaml"
    text = path.read_text()
    path.write_text(text[:text.index("terrain:")] + text[text.index("game:"):])
    with pytest.raises(DataLoadError, match="no file gives the terrain section"):
        load_catalog(SYSTEM, builtin_dir=builtin, custom_dir=empty)


def test_an_unknown_opening_stance_is_reported(tmp_path: Path) -> None:
    builtin, empty = _copy_data(tmp_path)
    path = builtin / "actionhammer" / "system.yaml"
    path.write_text(path.read_text().replace("opening_stance: Defensive",
                                             "opening_stance: Defensive Stance"))
    with pytest.raises(DataLoadError) as info:
        load_catalog(SYSTEM, builtin_dir=builtin, custom_dir=empty)
    line = _line_of(path, "opening_stance:")
    assert f"system.yaml:{line}: game.opening_stance: unknown stance" in str(info.value)


def test_custom_data_is_marked_and_broken_custom_files_are_left_out(tmp_path: Path) -> None:
    custom = tmp_path / "custom" / "actionhammer"
    custom.mkdir(parents=True)
    (custom / "extra.yaml").write_text(
        "sample: true\ndatasheets:\n"
        "  - name: Bodyguard Squad\n    faction: Cobalt Brigade\n    keywords: [Infantry]\n"
        "    move: 10\n    save: 3\n    wounds: 2\n    morale: 3\n    control: 1\n"
        "    models: {min: 2, max: 4}\n    pts: 30\n")
    (custom / "broken.yaml").write_text(
        "datasheets:\n  - name: Lost Patrol\n    faction: Nowhere Legion\n    move: 8\n"
        "    save: 4\n    wounds: 1\n    morale: 4\n    control: 1\n"
        "    models: {min: 1, max: 3}\n    pts: 10\n")
    loaded = load_catalog(SYSTEM, custom_dir=tmp_path / "custom")
    extra = loaded.catalog.find_unit("Bodyguard Squad")
    assert isinstance(extra, Datasheet) and extra.origin.custom and extra.origin.sample
    assert loaded.catalog.find_unit("Lost Patrol") is None
    assert len(loaded.catalog.units) == 22
    assert [str(p) for p in loaded.problems] == [
        f"{custom / 'broken.yaml'}:3: datasheets[0].faction: unknown faction 'Nowhere Legion': "
        f"add it under factions or fix the name"]


def test_a_custom_file_may_not_redefine_the_core_numbers(tmp_path: Path) -> None:
    custom = tmp_path / "actionhammer"
    custom.mkdir()
    (custom / "house.yaml").write_text("army:\n  recommended_points: 1500\n  leaders_per: 500\n"
                                       "  same_datasheet_per: 500\n  units_per: 250\n"
                                       "  character_copies: 1\n")
    loaded = load_catalog(SYSTEM, custom_dir=tmp_path)
    assert isinstance(loaded.catalog, ActionHammerCatalog)
    assert loaded.catalog.army.leaders_per == 1000
    assert len(loaded.problems) == 1
    assert ("house.yaml:1: army: the army section is already given in "
            "listbuilder/systems/actionhammer/data/system.yaml") in str(loaded.problems[0])


def test_violations_name_the_reading_that_decided_them(violations) -> None:
    under = only(violations(roster("  - unit: Recon Marshal\n", limit=999)),
                 "actionhammer.leaders-per-1000")
    assert under.reading == "what-about-games-under-1000-or-500-pts"
    two = "  - unit: Brigade Captain\n  - unit: Recon Marshal\n"
    steps = only(violations(roster(two, limit=1999)), "actionhammer.leaders-per-1000")
    assert steps.reading == "do-the-allowances-count-the-points-limit-or-the-points-spent"
    small = violations(roster("  - unit: Shock Squad\n    count: 3\n" * 2, limit=999))
    assert {v.rule: v.reading for v in small} == {
        "actionhammer.datasheet-per-1000": "what-about-games-under-1000-or-500-pts",
        "actionhammer.units-per-500":  # 999 pts holds one full 500
            "do-the-allowances-count-the-points-limit-or-the-points-spent"}
    third = only(violations(roster("  - unit: Shock Squad\n    count: 3\n" * 3)),
                 "actionhammer.datasheet-per-1000")
    assert third.reading is None  # 2000 pts is two whole steps: the rule decides alone
    guard = only(violations(roster("  - unit: Sergeant Hale\n    label: hale\n"
                                   "  - unit: Field Commissar\n    joins: hale\n")),
                 "actionhammer.bodyguard-size")
    assert guard.reading == "what-makes-a-bodyguard-multi-model"
    itself = violations(roster("  - unit: Brigade Captain\n    label: me\n    joins: me\n"))
    assert itself[0].reading == "may-a-leader-join-another-leader-or-itself"
    move = violations(roster("  - unit: Line Troopers\n    count: 5\n    label: line\n"
                             "  - unit: Recon Marshal\n    joins: line\n"))
    assert [v.reading for v in move] == [None]  # the seed says it plainly


def test_every_broken_join_rule_is_named_with_advice_the_player_can_follow(violations) -> None:
    """Recon Marshal (10") on the one-model Strider Walker (8"): both reasons, the Move named,
    and no "add a model" to a unit that is always one."""
    found = violations(roster("  - unit: Strider Walker\n    label: w\n"
                              "  - unit: Recon Marshal\n    joins: w\n"))
    v = only(found, "actionhammer.bodyguard-size")
    assert "Strider Walker is 1 model, always" in v.message
    assert 'Strider Walker has Move 8" and Recon Marshal Move 10"' in v.message
    assert "Give" not in v.message and 'with Move 10"' in v.message
    small = violations(roster("  - unit: Line Troopers\n    count: 1\n    label: line\n"
                              "  - unit: Brigade Captain\n    joins: line\n"))
    assert "Give Line Troopers 1 more model, or join another unit." in only(
        small, "actionhammer.bodyguard-size").message

