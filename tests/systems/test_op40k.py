"""One Page 40k (1st edition): the seed's tables, our sample factions, costs and roster rules."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from listbuilder.engine.catalog import load_catalog
from listbuilder.engine.effects import AddWeapon, ReplaceWeapon
from listbuilder.engine.errors import DataLoadError
from listbuilder.engine.library import Library
from listbuilder.engine.registry import get_system
from listbuilder.engine.report import report
from listbuilder.engine.roster_file import RosterFileError
from listbuilder.engine.system import Violation
from listbuilder.systems.op40k import OnePage40k
from listbuilder.systems.op40k.model import Datasheet, Op40kCatalog

SYSTEM = OnePage40k()
DATA = get_system("op40k").data_folder()

UNITS = {
    "Orks": ["Ork Boyz", "Gretchin", "Nobz", "Lootas", "Warbikers", "Trukk", "Battlewagon"],
    "Imperial Guard": ["Guardsmen", "Veterans", "Command Squad", "Heavy Weapons Team", "Ogryns",
                       "Chimera", "Leman Russ"],
    "Space Marines": ["Space Marines", "Scouts", "Terminators", "Devastators", "Bikers", "Rhino",
                      "Predator"],
}
VEHICLES = {"Trukk", "Battlewagon", "Chimera", "Leman Russ", "Rhino", "Predator"}


def cat(library: Library) -> Op40kCatalog:
    catalog = library.catalog("op40k")
    assert isinstance(catalog, Op40kCatalog)
    return catalog


def sheet(library: Library, name: str) -> Datasheet:
    unit = cat(library).find_unit(name)
    assert isinstance(unit, Datasheet)
    return unit


def roster(entries: str, *, limit: int | None = 500, faction: str = "Orks") -> str:
    head = "format: 1\nsystem: op40k\nname: Test\n"
    if limit is not None:
        head += f"points_limit: {limit}\n"
    return f"{head}factions: [{faction}]\nentries:\n{entries}"


def entry(unit: str, count: int, *upgrades: str, extra: str = "") -> str:
    ups = f"    upgrades: [{', '.join(upgrades)}]\n" if upgrades else ""
    return f"  - unit: {unit}\n    count: {count}\n{ups}{extra}"


def ids(found: list[Violation]) -> list[str]:
    return sorted(v.rule for v in found)


def points(read, text: str) -> int:
    loaded = read(text)
    return report(loaded.system, loaded.catalog, loaded.roster).totals.points


# -- the system and the seed's tables ---------------------------------------------------------

def test_registered_with_one_faction_and_a_500_pts_default(library: Library) -> None:
    system = get_system("op40k")
    assert isinstance(system, OnePage40k)
    assert system.name == "One Page 40k (1st edition)"
    assert (system.min_factions, system.max_factions) == (1, 1)
    assert system.default_points_limit == 500 == cat(library).points_limit
    assert system.count_label == "size"


def test_unit_actions_as_printed(library: Library) -> None:
    actions = cat(library).unit_actions
    assert [(a.name, a.move) for a in actions] == [
        ("Hold", 0), ("Overwatch", 0), ("Walk", 6), ("Run", 12), ("Assault", 12)]
    by_name = {a.name: a for a in actions}
    assert by_name["Hold"].shooting_dice == 1 and by_name["Hold"].fire == "one-unit"
    assert by_name["Overwatch"].fire == "reaction"
    assert by_name["Walk"].fire == "one-unit" and by_name["Walk"].shooting_dice == 0
    assert by_name["Run"].fire == "none" and by_name["Run"].open_terrain_only
    assert by_name["Assault"].assault and by_name["Assault"].fire == "none"


def test_vehicle_actions_as_printed(library: Library) -> None:
    actions = cat(library).vehicle_actions
    assert [(a.name, a.move, a.fire) for a in actions] == [
        ("Hold", 0, "all-weapons"), ("Move", 10, "one-weapon"), ("Cruise", 20, "none")]
    assert all(a.shooting_dice == 0 for a in actions)


def test_vehicle_damage_table_covers_each_roll_once(library: Library) -> None:
    c = cat(library)
    assert c.die == 6
    assert [(d.roll_min, d.roll_max, d.effect) for d in c.vehicle_damage] == [
        (1, 3, "test-to-activate"), (4, 5, "hold-only"), (6, 6, "destroyed")]
    assert [c.damage(r).effect for r in range(1, 7)] == (  # type: ignore[union-attr]
        ["test-to-activate"] * 3 + ["hold-only"] * 2 + ["destroyed"])
    assert c.damage(7) is None


def test_facings_front_side_rear(library: Library) -> None:
    assert [(f.name, f.dice, f.keep) for f in cat(library).facings] == [
        ("front", 2, "lowest"), ("side", 1, None), ("rear", 2, "highest")]


def test_cover_elevation_and_setup(library: Library) -> None:
    c = cat(library)
    assert [(m.name, m.roll, m.dice, m.vehicles) for m in c.modifiers] == [
        ("Cover", "block", 1, False), ("Elevation", "shooting", 1, True)]
    s = c.setup
    assert (s.table_width_ft, s.table_depth_ft, s.min_terrain_pieces) == (4, 4, 5)
    assert (s.deploy_within, s.rounds, s.coherency, s.unit_spacing) == (12, 4, 2, 1)
    assert (s.assault_pile_in, s.flee_dice) == (3, 2)
    assert [n.name for n in c.reference] == ["Shooting", "Assault", "Morale", "Terrain",
                                             "Victory"]


def test_catalog_dump_counts_every_table(library: Library) -> None:
    dump = json.loads(json.dumps(dataclasses.asdict(cat(library))))
    counts = {key: len(value) for key, value in dump.items() if isinstance(value, list)}
    assert counts == {
        "factions": 3, "units": 21, "rules": 12, "decks": 0, "unit_actions": 5,
        "vehicle_actions": 3, "vehicle_damage": 3, "facings": 3, "modifiers": 2, "reference": 5,
        "weapons": 33,
    }
    assert dump["setup"]["rounds"] == 4


# -- our sample factions ----------------------------------------------------------------------

def test_three_sample_factions_of_seven_datasheets(library: Library) -> None:
    c = cat(library)
    assert [f.name for f in c.factions] == ["Imperial Guard", "Orks", "Space Marines"]
    for faction, names in UNITS.items():
        assert [u.name for u in c.units_of(faction)] == names
    assert Counter(u.faction for u in c.units) == {f: 7 for f in UNITS}
    assert all(u.origin.sample and not u.origin.custom for u in c.units)
    assert all(f.origin.sample for f in c.factions)


def test_seed_example_units_keep_their_printed_size_and_quality(library: Library) -> None:
    printed = {"Ork Boyz": (15, 5), "Guardsmen": (10, 4), "Space Marines": (5, 3)}
    for name, (size, quality) in printed.items():
        unit = sheet(library, name)
        assert (unit.size, unit.quality) == (size, quality)
        assert unit.min_size <= unit.size <= unit.max_size


def test_each_faction_has_a_single_model_vehicle(library: Library) -> None:
    c = cat(library)
    assert {u.name for u in c.units if u.is_vehicle} == VEHICLES
    for unit in c.units:
        if unit.is_vehicle:
            assert (unit.size, unit.min_size, unit.max_size) == (1, 1, 1)
            assert SYSTEM.count_bounds(unit) == (1, 1)
            assert c.actions_for(unit) == c.vehicle_actions
            assert unit.has_keyword("vehicle")
    assert c.actions_for(sheet(library, "Ork Boyz")) == c.unit_actions


def test_sample_rows_are_exact(library: Library) -> None:
    boyz = sheet(library, "Ork Boyz")
    assert (boyz.min_size, boyz.max_size, boyz.pts_per_model) == (10, 30, 5)
    assert [(w.name, w.range) for w in boyz.equipment] == [("Slugga", 12), ("Choppa", 0)]
    assert boyz.special_rules == ("Furious", "Mob")
    shootas = boyz.upgrade("Shootas")
    assert shootas is not None and (shootas.pts, shootas.per_model) == (1, True)
    assert cat(library).weapon("Shoota").range == 18  # type: ignore[union-attr]
    russ = sheet(library, "Leman Russ")
    assert (russ.quality, russ.pts_per_model) == (4, 150)
    assert [(w.name, w.range) for w in russ.equipment] == [("Battle Cannon", 72),
                                                           ("Heavy Bolter", 36)]
    terminators = sheet(library, "Terminators")
    assert (terminators.quality, terminators.pts_per_model, terminators.min_size) == (2, 35, 3)
    assert cat(library).weapon("choppa").melee  # type: ignore[union-attr]


def test_every_rule_and_weapon_is_used_and_every_quality_is_2_to_6(library: Library) -> None:
    c = cat(library)
    used_rules = {r for u in c.units for r in u.special_rules}
    assert used_rules == {r.name for r in c.rules}
    used = {w.name for u in c.units for w in u.equipment}
    used |= {e.weapon for u in c.units for up in u.upgrades for e in up.effects
             if isinstance(e, AddWeapon | ReplaceWeapon)}
    assert used == {w.name for w in c.weapons}
    assert {u.quality for u in c.units} <= {2, 3, 4, 5, 6}


def test_only_the_seed_tables_are_not_sample() -> None:
    files = sorted(p.relative_to(DATA).as_posix() for p in DATA.rglob("*.yaml"))
    sample = {p for p in files if (DATA / p).read_text().startswith("sample: true")}
    assert set(files) - sample == {"system.yaml"}


# -- costs -------------------------------------------------------------------------------------

def test_cost_is_points_per_model_times_size_plus_upgrades(read) -> None:
    assert points(read, roster(entry("Ork Boyz", 15))) == 75
    assert points(read, roster(entry("Ork Boyz", 20, "Shootas"))) == 20 * 5 + 20 * 1
    assert points(read, roster(entry("Ork Boyz", 10, "Shootas", "Boss Nob"))) == 50 + 10 + 15
    assert points(read, roster(entry("Battlewagon", 1, "Deff Rolla"))) == 100


def test_summary_counts_units_models_and_vehicles(read) -> None:
    loaded = read(roster(entry("Ork Boyz", 12) + entry("Gretchin", 10) + entry("Trukk", 1)))
    totals = report(loaded.system, loaded.catalog, loaded.roster).totals
    assert totals.points == 60 + 30 + 40
    assert dict(totals.lines) == {"Units": "2", "Models": "22", "Vehicles": "1"}


SIZES = {"Ork Boyz": (10, 30), "Nobz": (3, 10), "Warbikers": (3, 9), "Gretchin": (10, 30)}


@settings(max_examples=60, deadline=None)
@given(picks=st.lists(st.tuples(st.sampled_from(sorted(SIZES)), st.integers(0, 20)),
                      min_size=1, max_size=6))
def test_roster_cost_is_the_sum_of_entry_costs(library: Library,
                                               picks: list[tuple[str, int]]) -> None:
    read = library.read_roster
    rows = [(name, SIZES[name][0] + extra % (SIZES[name][1] - SIZES[name][0] + 1))
            for name, extra in picks]
    whole = points(read, roster("".join(entry(n, k) for n, k in rows), limit=100_000))
    assert whole == sum(points(read, roster(entry(n, k), limit=100_000)) for n, k in rows)


@settings(max_examples=40, deadline=None)
@given(size=st.integers(10, 29), per_model=st.booleans())
def test_one_more_model_costs_its_points_and_per_model_upgrades(library: Library, size: int,
                                                                per_model: bool) -> None:
    read = library.read_roster
    ups = ("Shootas",) if per_model else ("Boss Nob",)
    before = points(read, roster(entry("Ork Boyz", size, *ups), limit=100_000))
    after = points(read, roster(entry("Ork Boyz", size + 1, *ups), limit=100_000))
    assert after - before == 5 + (1 if per_model else 0)


def test_repeated_upgrade_is_charged_once_and_reported(read, violations) -> None:
    text = roster(entry("Ork Boyz", 10, "Boss Nob", "Boss Nob"))
    assert points(read, text) == 65
    assert ids(violations(text)) == ["roster.repeated-upgrade"]


# -- roster rules ------------------------------------------------------------------------------

def test_legal_roster_is_clean(violations) -> None:
    text = roster(entry("Ork Boyz", 15, "Shootas") + entry("Nobz", 5) + entry("Trukk", 1))
    assert violations(text) == []


def test_exactly_one_faction(violations) -> None:
    none = "format: 1\nsystem: op40k\nname: T\npoints_limit: 500\nentries:\n" + entry("Nobz", 5)
    assert ids(violations(none)) == ["roster.faction-missing"]
    two = roster(entry("Nobz", 5), faction="Orks, Space Marines")
    found = violations(two)
    assert ids(found) == ["roster.too-many-factions"]
    assert found[0].message.endswith("allows 1: remove 1.")


def test_units_from_another_faction(violations) -> None:
    found = violations(roster(entry("Ork Boyz", 15) + entry("Guardsmen", 10)))
    assert ids(found) == ["roster.wrong-faction"]
    assert found[0].where == "entries[1] Guardsmen"
    assert found[0].message == ("Guardsmen belongs to Imperial Guard, not Orks: "
                                "remove it or pick a unit of Orks.")
    named = violations(roster(entry("Rhino", 1, extra="    faction: Space Marines\n")))
    assert ids(named) == ["roster.wrong-faction"]


def test_size_must_be_within_the_datasheet_bounds(violations) -> None:
    assert violations(roster(entry("Ork Boyz", 10) + entry("Ork Boyz", 30), limit=1000)) == []
    small = violations(roster(entry("Ork Boyz", 9)))
    assert ids(small) == ["roster.count-bounds"]
    assert small[0].message == "Ork Boyz has size 9; it must be 10 to 30: set it to 10."
    assert ids(violations(roster(entry("Ork Boyz", 31), limit=1000))) == ["roster.count-bounds"]
    two_trukks = violations(roster(entry("Trukk", 2)))
    assert ids(two_trukks) == ["roster.count-bounds"]
    assert two_trukks[0].message.endswith("it must be 1 to 1: set it to 1.")


def test_points_limit(violations) -> None:
    exactly = roster(entry("Ork Boyz", 30) + entry("Nobz", 10) + entry("Lootas", 10)
                     + entry("Battlewagon", 1, "Deff Rolla") + entry("Gretchin", 10))
    assert violations(exactly) == []  # 150 + 120 + 100 + 100 + 30 = 500, the limit itself
    over = violations(roster(entry("Leman Russ", 1, "Lascannon") + entry("Leman Russ", 1)
                             + entry("Leman Russ", 1) + entry("Chimera", 1),
                             faction="Imperial Guard"))
    assert ids(over) == ["roster.points-limit"]
    assert over[0].message == "535 pts spent; the limit is 500: remove 35 pts."


def test_missing_points_limit_gives_one_message(violations) -> None:
    found = violations(roster(entry("Ork Boyz", 30), limit=None))
    assert ids(found) == ["roster.no-points-limit"]
    assert "500 is usual" in found[0].message


def test_units_never_join_one_another(violations) -> None:
    text = roster(entry("Nobz", 5, extra="    label: boss\n")
                  + entry("Ork Boyz", 15, extra="    joins: boss\n"))
    found = violations(text)
    assert ids(found) == ["op40k.no-joining"]
    assert found[0].where == "entries[1] Ork Boyz"
    assert "remove `joins`" in found[0].message
    assert violations(roster(entry("Nobz", 5, extra="    label: boss\n"))) == []


def test_unknown_unit_is_a_roster_file_error(read) -> None:
    with pytest.raises(RosterFileError) as info:
        read(roster(entry("Ork Boys", 15)))
    assert "did you mean 'Ork Boyz'" in str(info.value)


# -- readings of unclear rules (docs/rules-notes/op40k.md) ------------------------------------

def test_no_army_limits_beyond_faction_size_and_points(violations) -> None:
    # the rules print no force organisation: repeats and all-vehicle lists are fine
    assert violations(roster(entry("Trukk", 1) * 5 + entry("Battlewagon", 1) * 2,
                             limit=1000)) == []
    assert violations(roster(entry("Gretchin", 10) * 6, limit=1000)) == []


def test_size_is_a_range_around_the_printed_size(library: Library) -> None:
    for unit in cat(library).units:
        assert SYSTEM.count_bounds(unit) == (unit.min_size, unit.max_size)
        assert unit.min_size <= unit.size <= unit.max_size


def test_front_keeps_the_kinder_roll_and_rear_the_harsher(library: Library) -> None:
    c = cat(library)
    facing = {f.name: f for f in c.facings}
    assert (facing["front"].keep, facing["rear"].keep) == ("lowest", "highest")
    # lower rolls are the milder results, so "better" for the vehicle means lower
    assert c.damage(1).effect == "test-to-activate"  # type: ignore[union-attr]
    assert c.damage(6).effect == "destroyed"  # type: ignore[union-attr]


def test_shaken_lasts_one_activation_and_immobilised_the_game(library: Library) -> None:
    assert [d.lasts for d in cat(library).vehicle_damage] == [
        "next-activation", "rest-of-game", "rest-of-game"]


def test_extra_dice_are_per_unit_and_vehicles_keep_elevation(library: Library) -> None:
    c = cat(library)
    hold = {a.name: a for a in c.unit_actions}["Hold"]
    assert hold.shooting_dice == 1  # one die more for the unit, not one per model
    assert {a.name: a for a in c.vehicle_actions}["Hold"].shooting_dice == 0
    assert {m.name: m.vehicles for m in c.modifiers} == {"Cover": False, "Elevation": True}


# -- data errors and custom data ---------------------------------------------------------------

def copy_data(tmp: Path, skip: str = "") -> Path:
    root = tmp / "builtin"
    for path in DATA.rglob("*.yaml"):
        rel = path.relative_to(DATA)
        if rel.as_posix() != skip:
            (root / "op40k" / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / "op40k" / rel).write_text(path.read_text())
    return root


def load_errors(builtin: Path, empty: Path) -> str:
    with pytest.raises(DataLoadError) as info:
        load_catalog(SYSTEM, builtin_dir=builtin, custom_dir=empty)
    return str(info.value)


def test_schema_error_names_file_line_and_key(tmp_path: Path) -> None:
    root = copy_data(tmp_path)
    orks = root / "op40k" / "factions" / "orks.yaml"
    text = orks.read_text()
    orks.write_text(text.replace("    quality: 5\n    pts_per_model: 5\n",
                                 "    quality: 7\n    pts_per_model: 5\n", 1))
    line = text.splitlines().index("    quality: 5") + 1
    message = load_errors(root, tmp_path / "empty")
    assert f"orks.yaml:{line}: units[0].quality: must be 2 to 6, got 7" in message


def test_unknown_rule_and_bad_size_are_reported_with_lines(tmp_path: Path) -> None:
    root = copy_data(tmp_path)
    orks = root / "op40k" / "factions" / "orks.yaml"
    text = orks.read_text()
    text = text.replace("special_rules: [Furious, Mob]", "special_rules: [Furious, Mobb]")
    text = text.replace("    size: 15\n", "    size: 35\n")
    orks.write_text(text)
    lines = text.splitlines()
    message = load_errors(root, tmp_path / "empty")
    rules_line = lines.index("    special_rules: [Furious, Mobb]") + 1
    size_line = lines.index("    size: 35") + 1
    assert (f"orks.yaml:{rules_line}: units[0].special_rules[1]: unknown special rule 'Mobb' "
            f"(did you mean 'Mob'?)") in message
    assert f"orks.yaml:{size_line}: units[0].size: size 35 is outside" in message


def test_damage_table_must_cover_each_roll(tmp_path: Path) -> None:
    root = copy_data(tmp_path)
    system = root / "op40k" / "system.yaml"
    system.write_text(system.read_text().replace("roll_min: 4\n", "roll_min: 5\n"))
    message = load_errors(root, tmp_path / "empty")
    assert ("system.vehicle_damage: no row covers a roll of 4: "
            "give each roll 1 to 6 exactly one row") in message


def test_missing_system_tables(tmp_path: Path) -> None:
    root = copy_data(tmp_path, skip="system.yaml")
    assert "(top)" not in load_errors(root, tmp_path / "empty")
    assert "system: no file gives the system section" in load_errors(root, tmp_path / "empty")


def test_custom_faction_is_marked_custom_and_a_broken_one_is_left_out(tmp_path: Path) -> None:
    custom = tmp_path / "custom" / "op40k"
    custom.mkdir(parents=True)
    (custom / "eldar.yaml").write_text(
        "factions:\n  - name: Eldar\n    text: Swift and precise.\n"
        "units:\n  - name: Guardians\n    faction: Eldar\n    size: 10\n    quality: 4\n"
        "    pts_per_model: 7\n    equipment: [Lasgun]\n")
    (custom / "wraiths.yaml").write_text(
        "units:\n  - name: Wraithguard\n    faction: Eldar\n    size: 5\n    quality: 3\n"
        "    pts_per_model: 30\n    special_rules: [Wraith]\n")
    loaded = load_catalog(SYSTEM, custom_dir=tmp_path / "custom")
    guardians = loaded.catalog.find_unit("Guardians")
    assert isinstance(guardians, Datasheet)
    assert guardians.origin.custom and not guardians.origin.sample
    assert (guardians.min_size, guardians.max_size) == (10, 10)
    assert loaded.catalog.find_unit("Wraithguard") is None
    assert len(loaded.catalog.units) == 22
    assert [str(e) for e in loaded.problems] == [
        f"{custom / 'wraiths.yaml'}:7: units[0].special_rules[0]: unknown special rule 'Wraith': "
        "define it under rules"]


def test_custom_file_may_not_redefine_the_system_tables(tmp_path: Path) -> None:
    custom = tmp_path / "custom" / "op40k"
    custom.mkdir(parents=True)
    (custom / "army.yaml").write_text("army:\n  points_limit: 750\n")
    loaded = load_catalog(SYSTEM, custom_dir=tmp_path / "custom")
    assert isinstance(loaded.catalog, Op40kCatalog) and loaded.catalog.points_limit == 500
    assert len(loaded.problems) == 1
    assert ("army: the army section is already given in listbuilder/systems/op40k/data/army.yaml"
            in str(loaded.problems[0]))


def test_sizes_the_rules_never_print_name_our_reading(violations) -> None:
    small = violations(roster(entry("Ork Boyz", 9)))
    assert [v.reading for v in small] == ["one-printed-size-or-a-range"]
    joined = violations(roster(entry("Ork Boyz", 15) + "    label: x\n"
                               + entry("Nobz", 5) + "    joins: x\n"))
    assert [(v.rule, v.reading) for v in joined] == [("op40k.no-joining",
                                                      "units-joining-other-units")]


def test_an_empty_roster_is_empty_not_legal(read) -> None:
    loaded = read(roster("  []\n").replace(":\n  []", ": []"))
    system = loaded.system
    assert report(system, loaded.catalog, loaded.roster).violations == []
    status = report(system, loaded.catalog, loaded.roster).status
    assert (status.state, status.text) == ("empty", "Empty: no units yet")
    one = read(roster(entry("Ork Boyz", 15)))
    assert report(system, one.catalog, one.roster).status.text == "Legal"
