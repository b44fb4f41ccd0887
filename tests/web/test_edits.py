"""The builder's pure edits and the builder hooks each system overrides."""

from __future__ import annotations

import pytest

from listbuilder.engine.library import Library
from listbuilder.engine.model import Roster, RosterEntry, UnitDesign
from listbuilder.engine.registry import get_system
from listbuilder.web import edits
from listbuilder.web.present import find_by_key, roster_view, unit_key, unit_rows


def test_add_stacks_where_count_means_copies(library: Library) -> None:
    for system_id, unit, stacks in (("hammerwars", "Assault Hero", True),
                                    ("spaceempires", "Warboss", True),
                                    ("warstuff", "Human Warrior", True),
                                    ("op40k", "Nobz", False),
                                    ("actionhammer", "Line Troopers", False)):
        system = get_system(system_id)
        catalog = library.catalog(system)
        found = catalog.units_named(unit)[0]
        roster = Roster(system=system_id, name="r")
        roster = edits.add_unit(system, catalog, roster, found)
        roster = edits.add_unit(system, catalog, roster, found)
        assert len(roster.entries) == (1 if stacks else 2), system_id
        assert system.stacks_entries() is stacks


def test_new_entries_start_at_the_printed_size(library: Library) -> None:
    system = get_system("op40k")
    boyz = library.catalog(system).units_named("Ork Boyz")[0]
    assert system.default_count(boyz) == 15
    ah = get_system("actionhammer")
    troopers = library.catalog(ah).units_named("Line Troopers")[0]
    assert ah.default_count(troopers) == ah.count_bounds(troopers)[0]


def test_shared_names_carry_their_faction(library: Library) -> None:
    system = get_system("warstuff")
    catalog = library.catalog(system)
    knights = catalog.units_named("Knight")
    assert len(knights) == 2
    roster = edits.add_unit(system, catalog, Roster(system="warstuff", name="r"), knights[1])
    assert roster.entries[0].faction == knights[1].faction
    key = unit_key(catalog, knights[1])
    assert find_by_key(catalog, key) is knights[1] and find_by_key(catalog, "Knight") is None


def test_hooks_have_neutral_defaults_and_system_overrides(library: Library) -> None:
    hw, ah, ws = get_system("hammerwars"), get_system("actionhammer"), get_system("warstuff")
    lizards = Roster(system="hammerwars", name="r", factions=("Lizardmen",))
    goals = hw.choice_options(library.catalog(hw), lizards, "goal")
    assert [g for g, _ in goals] == ["Duty", "Oppression"] and all(t for _, t in goals)
    assert get_system("op40k").choice_options(library.catalog("op40k"), lizards, "goal") == ()
    assert get_system("spaceempires").random_choices() == ("seed",)
    assert hw.random_choices() == ()
    captain = library.catalog(ah).units_named("Brigade Captain")[0]
    troopers = library.catalog(ah).units_named("Line Troopers")[0]
    assert ah.can_join(captain) and not ah.can_join(troopers)
    assert ws.design_qualities(library.catalog(ws)) == (1, 2, 3, 4, 5)
    assert hw.design_qualities(library.catalog(hw)) == ()
    knight = library.catalog(ws).units_named("Knight")[0]
    assert ws.design_of(knight) == UnitDesign(name="Knight", quality=knight.quality,
                                              rules=knight.special_rules)
    assert hw.design_of(library.catalog(hw).units[0]) is None
    assert ws.faction_words == ("Genre", "Genres") and hw.faction_words[0] == "Faction"


def test_violations_land_next_to_their_entry(library: Library) -> None:
    system = get_system("op40k")
    catalog = library.catalog(system)
    roster = Roster(system="op40k", name="r", points_limit=500, factions=("Orks",),
                    entries=(RosterEntry(unit="Nobz", count=5),
                             RosterEntry(unit="Ork Boyz", count=99)))
    view = roster_view(system, catalog, roster)
    assert view.entries[0].violations == []
    assert [v.rule for v in view.entries[1].violations] == ["roster.count-bounds"]
    assert all(v.where == "roster" for v in view.general)
    assert not view.legal and view.errors == len(view.violations)


def test_unit_rows_filter_by_words_category_and_cost(library: Library) -> None:
    system = get_system("op40k")
    catalog = library.catalog(system)
    roster = Roster(system="op40k", name="r", factions=("Orks",))
    every = unit_rows(system, catalog, roster)
    assert every and all(r.unit.faction == "Orks" for r in every)
    cheap = unit_rows(system, catalog, roster, max_cost=50)
    assert 0 < len(cheap) < len(every) and all(r.cost <= 50 for r in cheap)
    vehicles = unit_rows(system, catalog, roster, category="vehicle")
    assert vehicles and all(r.unit.category == "vehicle" for r in vehicles)
    assert unit_rows(system, catalog, roster, query="zzzz") == []


def test_edits_that_cannot_be_made(library: Library) -> None:
    roster = Roster(system="warstuff", name="r",
                    designs=(UnitDesign(name="A", quality=2),),
                    entries=(RosterEntry(unit="A"),))
    with pytest.raises(edits.EditError):
        edits.save_design(roster, UnitDesign(name="a", quality=3), None)  # name taken
    with pytest.raises(edits.EditError):
        edits.remove_entry(roster, 0, "B")
    with pytest.raises(edits.EditError):
        edits.join_entry(roster, 0, "A", 0, "A")
    assert edits.move_entry(roster, 0, "A", -1) == roster
    renamed = edits.save_design(roster, UnitDesign(name="B", quality=3), "A")
    assert renamed.entries[0].unit == "B" and renamed.designs[0].name == "B"


def test_entry_lines_read_as_players_say_them(library: Library) -> None:
    from listbuilder.web.present import EntryView

    def line(label: str, count: int, lo: int = 1, hi: int | None = None) -> str:
        view = EntryView(0, RosterEntry(unit="x", count=count), None, 0, lo, hi, ())
        return view.size_text(label)

    assert [line("models in the pool", 1), line("copies", 1), line("copies", 3),
            line("size", 15), line("models", 1, 1, 1)] == [
        "1 model in the pool", "1 copy", "3 copies", "size 15", ""]


def test_joined_leaders_are_shown_under_their_bodyguard(library: Library) -> None:
    system = get_system("actionhammer")
    catalog = library.catalog(system)
    roster = Roster(system="actionhammer", name="r", factions=("Cobalt Brigade",))
    for name in ("Line Troopers", "Shock Squad", "Brigade Captain", "Recon Marshal"):
        roster = edits.add_unit(system, catalog, roster, catalog.units_named(name)[0])
    roster = edits.join_entry(roster, 3, "Recon Marshal", 0, "Line Troopers")
    roster = edits.join_entry(roster, 2, "Brigade Captain", 1, "Shock Squad")
    view = roster_view(system, catalog, roster)
    assert [e.index for e in view.order] == [0, 3, 1, 2]
    assert view.entries[3].joins_name == "Line Troopers"
    assert view.entries[3].fixed_count and not view.entries[0].fixed_count


def test_unit_rows_carry_key_stats_and_what_still_fits(library: Library) -> None:
    system = get_system("op40k")
    catalog = library.catalog(system)
    roster = Roster(system="op40k", name="r", factions=("Orks",), points_limit=500)
    rows = {r.unit.name: r for r in unit_rows(system, catalog, roster, points_left=60)}
    boyz, nobz = rows["Ork Boyz"], rows["Nobz"]
    assert not boyz.fits and nobz.fits and nobz.cost <= 60 < boyz.cost
    profile = system.profile(catalog, boyz.unit)
    assert boyz.stats == tuple(s for s in profile.stats if s.value)[:4] and boyz.stats
    assert "unit" not in boyz.place.split(" · ")  # a category that says nothing is left out
    assert all(r.fits for r in unit_rows(system, catalog, roster))  # no limit given
