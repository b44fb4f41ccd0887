"""WarStuff: the seed's tables, the cost formula, and every roster rule."""

from __future__ import annotations

import io
from collections import Counter
from pathlib import Path

import pdfplumber
import pytest
from hypothesis import given
from hypothesis import strategies as st

from listbuilder.engine.library import Library
from listbuilder.engine.report import report
from listbuilder.printing.options import PrintOptions
from listbuilder.printing.render import print_roster
from listbuilder.systems.warstuff.model import WarStuffCatalog, WarStuffUnit, unit_cost

GENRE_SIZES = {
    "Fantasy": 20, "Animals & Monsters": 9, "Science Fiction": 13, "Ancient": 7, "Medieval": 5,
    "Napoleonic": 5, "Modern": 7, "Tank Battles": 6, "Space Dogfights": 4, "Space Battles": 5,
    "Super Heroes": 10, "Dinosaurs": 7,
}
RULE_COSTS = {
    "Armored": 5, "Brutal": 15, "Camouflaged": 5, "Deadly": 15, "Death Blow": 5, "Elite": 30,
    "Entangle": 20, "Fast": 10, "Fear": 10, "Fearless": 15, "Fire": 10, "Flying": 10,
    "Frenzy": 10, "Healer": 10, "Hit & Run": 10, "Large": 5, "Leader": 30, "Pathfinder": 5,
    "Poison": 10, "Power Shot": 5, "Power Strike": 5, "Regeneration": 15, "Scout": 15,
    "Shooter (Short)": 5, "Shooter (Medium)": 10, "Shooter (Long)": 15, "Small": -5, "Slow": -5,
    "Stealthy": 5, "Sweep Attack": 10, "Tough": 15, "Trapper": 5, "Undead": -5, "Vanguard": 10,
    "Vicious": 10,
}


def cat(library: Library) -> WarStuffCatalog:
    catalog = library.catalog("warstuff")
    assert isinstance(catalog, WarStuffCatalog)
    return catalog


def roster(entries: str, *, limit: int = 150, designs: str = "", factions: str = "") -> str:
    return (f"format: 1\nsystem: warstuff\nname: Test\npoints_limit: {limit}\n{factions}"
            f"{designs}entries:\n{entries}")


def test_all_35_special_rules_with_their_costs(library: Library) -> None:
    rules = {r.name: r.cost for r in cat(library).rules}
    assert rules == RULE_COSTS


def test_all_98_quickplay_units_in_12_genres(library: Library) -> None:
    c = cat(library)
    assert len(c.units) == 98
    assert [f.name for f in c.factions] == list(GENRE_SIZES)
    assert Counter(u.faction for u in c.units) == GENRE_SIZES


def test_sample_rows_are_exact(library: Library) -> None:
    c = cat(library)
    dragon = c.find_unit("Dragon")
    assert isinstance(dragon, WarStuffUnit)
    assert (dragon.quality, dragon.printed_pts, dragon.special_rules) == (
        5, 100, ("Fear", "Fire", "Flying", "Large", "Tough"))
    falcon = c.find_unit("Millennium Falc.")
    assert isinstance(falcon, WarStuffUnit)
    assert (falcon.quality, falcon.pts) == (4, 45)
    zombie = c.find_unit("Zombie")
    assert isinstance(zombie, WarStuffUnit) and zombie.pts == 5


def test_formula_matches_the_seeds_worked_examples() -> None:
    from listbuilder.engine.model import SpecialRule

    armored = SpecialRule(name="Armored", text="-", cost=5)
    assert unit_cost(3, []) == 30
    assert unit_cost(3, [armored]) == 35
    assert unit_cost(3, [None]) == 30  # a rule the catalog doesn't know adds nothing


def test_formula_examples_from_the_catalog(library: Library) -> None:
    c = cat(library)
    assert c.price(3, []) == 30
    assert c.price(3, ["Armored"]) == 35
    assert c.price(1, ["Slow", "Undead", "Small"]) == 5  # never below 5 pts


def test_formula_prices_every_quickplay_unit_and_six_differ_from_print(library: Library) -> None:
    c = cat(library)
    for unit in c.units:
        raw = unit.quality * 10 + sum(RULE_COSTS[r] for r in unit.special_rules)
        assert unit.pts == max(5, raw)
    differ = {(u.name, u.printed_pts, u.pts) for u in c.units if u.printed_pts != u.pts}
    assert differ == {
        ("Rat Warrior", 25, 30), ("Rat Ogre", 60, 65), ("Eldar Guardian", 35, 40),
        ("Eldar Jetbike", 40, 45), ("Termagant", 25, 30), ("Hormagant", 30, 35),
    }


def test_roster_charges_the_formula_not_the_printed_figure(violations, read) -> None:
    loaded = read(roster("  - unit: Rat Warrior\n"))
    assert report(loaded.system, loaded.catalog, loaded.roster).totals.points == 30


@given(quality=st.integers(1, 5), rules=st.lists(st.sampled_from(sorted(RULE_COSTS)), max_size=8))
def test_formula_is_additive_and_floored(quality: int, rules: list[str]) -> None:
    from listbuilder.engine.model import SpecialRule

    specs = [SpecialRule(name=r, text="-", cost=RULE_COSTS[r]) for r in rules]
    raw = quality * 10 + sum(RULE_COSTS[r] for r in rules)
    assert unit_cost(quality, specs) == max(5, raw)
    # adding a rule changes the cost by exactly its price unless the floor takes over
    extra = SpecialRule(name="Tough", text="-", cost=15)
    assert unit_cost(quality, [*specs, extra]) - unit_cost(quality, specs) == (
        max(5, raw + 15) - max(5, raw))


@given(copies=st.integers(1, 20))
def test_copies_multiply_the_cost(read, copies: int) -> None:
    loaded = read(roster(f"  - unit: Human Archer\n    count: {copies}\n", limit=10_000))
    assert report(loaded.system, loaded.catalog, loaded.roster).totals.points == 35 * copies


def ids(found) -> list[str]:
    return sorted(v.rule for v in found)


def test_standard_limits_are_clean_and_custom_limit_is_a_warning(violations) -> None:
    assert ids(violations(roster("  - unit: Knight\n    faction: Fantasy\n", limit=300))) == []
    found = violations(roster("  - unit: Knight\n    faction: Fantasy\n", limit=200))
    assert [(v.rule, v.severity) for v in found] == [("warstuff.custom-limit", "warning")]


def test_over_the_points_limit(violations) -> None:
    found = violations(roster("  - unit: Troll\n    count: 3\n"))
    assert ids(found) == ["roster.points-limit"]
    assert found[0].message == "195 pts spent; the limit is 150: remove 45 pts."


def test_missing_points_limit_gives_one_message(violations) -> None:
    text = "format: 1\nsystem: warstuff\nname: T\nentries:\n  - unit: Troll\n    count: 9\n"
    assert ids(violations(text)) == ["roster.no-points-limit"]
    assert ids(violations(roster("  - unit: Troll\n", limit=0))) == ["roster.no-points-limit"]


DESIGN = "designs:\n  - name: Hero\n    quality: {q}\n    rules: [{rules}]\n"


def design(q: int, rules: str) -> str:
    return roster("  - unit: Hero\n", limit=300, designs=DESIGN.format(q=q, rules=rules))


def test_designed_unit_is_priced_by_the_formula(read) -> None:
    loaded = read(design(3, "Armored, Shooter (Short)"))
    assert report(loaded.system, loaded.catalog, loaded.roster).totals.points == 40


def test_design_quality_must_be_1_to_5(violations) -> None:
    assert ids(violations(design(5, "Tough"))) == []
    found = violations(design(0, "Tough"))
    assert ids(found) == ["warstuff.quality-range"]
    assert "set it to 1" in found[0].message


def test_repeated_rule_is_reported(violations) -> None:
    found = violations(design(2, "Tough, Tough"))
    assert ids(found) == ["warstuff.repeated-rule"]


def test_conflicting_pairs(violations) -> None:
    assert ids(violations(design(2, "Fast, Slow"))) == ["warstuff.conflicting-rules"]
    assert ids(violations(design(2, "Large, Small"))) == ["warstuff.conflicting-rules"]
    three = violations(design(2, "Shooter (Short), Shooter (Medium), Shooter (Long)"))
    assert ids(three) == ["warstuff.conflicting-rules"] * 3
    assert ids(violations(design(2, "Fast, Large, Shooter (Long)"))) == []


def test_undead_with_fearless_is_a_warning_only(violations) -> None:
    found = violations(design(2, "Undead, Fearless"))
    assert [(v.rule, v.severity) for v in found] == [("warstuff.hollow-rules", "warning")]


def test_design_may_not_reuse_a_quickplay_name(violations) -> None:
    text = roster("  - unit: Troll\n", limit=300,
                  designs="designs:\n  - name: Troll\n    quality: 1\n")
    assert ids(violations(text)) == ["warstuff.design-name-taken"]


def test_units_over_75_pts_get_the_designers_warning(violations) -> None:
    found = violations(roster("  - unit: Dragon\n", limit=300))
    assert [(v.rule, v.severity) for v in found] == [("warstuff.unit-over-advised", "warning")]
    assert ids(violations(roster("  - unit: King\n", limit=300))) == []  # exactly 75 pts


def test_ambiguous_name_needs_a_genre(read) -> None:
    import pytest

    from listbuilder.engine.roster_file import RosterFileError

    with pytest.raises(RosterFileError) as info:
        read(roster("  - unit: Knight\n"))
    assert "Fantasy and Medieval" in str(info.value)
    medieval = read(roster("  - unit: Knight\n", factions="factions: [Medieval]\n"))
    (unit,) = medieval.system.find_units(medieval.catalog, medieval.roster,
                                         medieval.roster.entries[:1])
    assert unit is not None and unit.faction == "Medieval"


# -- printed figures beside the formula ---------------------------------------------------------

def test_totals_note_each_unit_whose_printed_points_differ(read) -> None:
    loaded = read(roster("  - unit: Rat Warrior\n    count: 2\n  - unit: Rat Ogre\n"
                         "  - unit: Human Archer\n"))
    totals = report(loaded.system, loaded.catalog, loaded.roster).totals
    assert totals.points == 2 * 30 + 65 + 35
    assert totals.notes == ("Rat Warrior: 30 pts by the formula (printed 25)",
                            "Rat Ogre: 65 pts by the formula (printed 60)")
    sheet = loaded.system.cards().roster_sheet(loaded.catalog, loaded.roster)
    assert ("Printed price", "Rat Warrior: 30 pts by the formula (printed 25)") in sheet.summary


def test_limit_broken_only_by_the_formula_says_legal_at_printed_prices(violations) -> None:
    found = violations(roster("  - unit: Rat Warrior\n    count: 6\n"))
    (over,) = [v for v in found if v.rule == "roster.points-limit"]
    assert over.message == ("180 pts spent; the limit is 150: remove 30 pts. "
                            "Legal at printed prices: 150 pts.")
    assert over.reading == "printed-quickplay-points-or-the-formula"


def test_limit_broken_at_printed_prices_too_says_still_over(violations) -> None:
    found = violations(roster("  - unit: Rat Warrior\n    count: 7\n"))
    (over,) = [v for v in found if v.rule == "roster.points-limit"]
    assert over.message == ("210 pts spent; the limit is 150: remove 60 pts. "
                            "At printed prices it would be 175 pts, still over.")
    assert over.reading == "printed-quickplay-points-or-the-formula"


def test_limit_broken_without_differing_units_names_no_reading(violations) -> None:
    found = violations(roster("  - unit: Human Archer\n    count: 5\n"))
    (over,) = [v for v in found if v.rule == "roster.points-limit"]
    assert over.message == "175 pts spent; the limit is 150: remove 25 pts."
    assert over.reading is None


def test_design_readings_are_named(violations) -> None:
    designs = ("designs:\n  - {name: Odd, quality: 6, rules: [Fast, Slow, Undead, Fearless]}\n")
    found = {v.rule: v.reading for v in violations(roster("  - unit: Odd\n", designs=designs))}
    assert found["warstuff.quality-range"] == "designed-quality"
    assert found["warstuff.conflicting-rules"] == "which-special-rules-contradict-each-other"
    assert found["warstuff.hollow-rules"] == "undead-with-fearless"


@pytest.mark.print
def test_the_printed_roster_sheet_shows_both_prices(read) -> None:
    path = Path(__file__).resolve().parents[2] / "examples/warstuff/printed-prices.yaml"
    loaded = read(path.read_text())
    printed = print_roster(loaded.catalog, loaded.system, loaded.roster,
                           PrintOptions(what="sheet", paper="a4"))
    with pdfplumber.open(io.BytesIO(printed.pdf)) as doc:
        text = " ".join((doc.pages[0].extract_text() or "").split())
    assert "Rat Warrior: 30 pts by the formula (printed 25)" in text
    assert "Rat Ogre: 65 pts by the formula (printed 60)" in text
    assert "Legal at printed prices: 135 pts." in text
