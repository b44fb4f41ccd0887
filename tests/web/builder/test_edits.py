"""The builder's pure edits and the builder hooks each system overrides."""

from __future__ import annotations

import pytest

from listbuilder.engine import edits
from listbuilder.engine import report as present
from listbuilder.engine.library import Library
from listbuilder.engine.model import Roster, RosterEntry, UnitDesign
from listbuilder.engine.registry import get_system
from listbuilder.engine.report import find_by_key, report, unit_key, unit_rows


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
        assert system.builder().stacks_entries() is stacks


def test_new_entries_start_at_the_printed_size(library: Library) -> None:
    system = get_system("op40k")
    boyz = library.catalog(system).units_named("Ork Boyz")[0]
    assert system.builder().default_count(boyz) == 15
    ah = get_system("actionhammer")
    troopers = library.catalog(ah).units_named("Line Troopers")[0]
    assert ah.builder().default_count(troopers) == ah.count_bounds(troopers)[0]


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
    goals = hw.builder().choice_options(library.catalog(hw), lizards).get("goal", ())
    assert [g for g, _ in goals] == ["Duty", "Oppression"] and all(t for _, t in goals)
    assert get_system("op40k").builder().choice_options(library.catalog("op40k"),
                                                        lizards).get("goal", ()) == ()
    assert get_system("spaceempires").builder().random_choices() == ("seed",)
    assert hw.builder().random_choices() == ()
    captain = library.catalog(ah).units_named("Brigade Captain")[0]
    troopers = library.catalog(ah).units_named("Line Troopers")[0]
    assert ah.builder().can_join(captain) and not ah.builder().can_join(troopers)
    assert ws.builder().design_qualities(library.catalog(ws)) == (1, 2, 3, 4, 5)
    assert hw.builder().design_qualities(library.catalog(hw)) == ()
    knight = library.catalog(ws).units_named("Knight")[0]
    assert ws.builder().design_of(knight) == UnitDesign(name="Knight", quality=knight.quality,
                                                        rules=knight.special_rules)
    assert hw.builder().design_of(library.catalog(hw).units[0]) is None
    assert ws.faction_words == ("Genre", "Genres") and hw.faction_words[0] == "Faction"


def test_violations_land_next_to_their_entry(library: Library) -> None:
    system = get_system("op40k")
    catalog = library.catalog(system)
    roster = Roster(system="op40k", name="r", points_limit=500, factions=("Orks",),
                    entries=(RosterEntry(unit="Nobz", count=5),
                             RosterEntry(unit="Ork Boyz", count=99)))
    view = report(system, catalog, roster)
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


@pytest.mark.parametrize("system_id", ["op40k", "hammerwars", "warstuff", "actionhammer",
                                       "spaceempires"])
def test_unit_rows_kept_between_changes_are_those_worked_out_afresh(
        library: Library, system_id: str) -> None:
    """The rows' costs are kept per catalog (report._row_bases): a roster whose factions,
    limit or entries change, one after the other as a player changes them, lists exactly what
    a fresh reckoning lists."""
    system = get_system(system_id)
    catalog = library.catalog(system)
    factions = [f.name for f in catalog.factions]
    first = next(u for u in catalog.units if u.faction in (None, *factions[-1:]))
    rosters = [Roster(system=system_id, name="r"),
               Roster(system=system_id, name="r", factions=tuple(factions[:1]), points_limit=200),
               Roster(system=system_id, name="r", factions=tuple(factions[-1:]), points_limit=200),
               Roster(system=system_id, name="r", factions=tuple(factions[-1:]), points_limit=900,
                      entries=(RosterEntry(unit=first.name, faction=first.faction,
                                           count=system.builder().default_count(first)),) * 2)]
    kept = [unit_rows(system, catalog, r, points_left=r.points_limit) for r in rosters]
    fresh = []
    for roster in rosters:
        present._ROWS.clear()
        fresh.append(unit_rows(system, catalog, roster, points_left=roster.points_limit))
    assert kept == fresh
    if len({u.faction for u in catalog.units} - {None}) > 1:  # another faction, other units
        assert {r.unit.name for r in kept[1]} != {r.unit.name for r in kept[2]}
    assert {r.listed for r in kept[3] if r.unit is first} == {2}


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
    from listbuilder.engine.report import EntryReport

    def line(label: str, count: int, lo: int = 1, hi: int | None = None) -> str:
        view = EntryReport(0, RosterEntry(unit="x", count=count), None, 0, lo, hi, ())
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
    view = report(system, catalog, roster)
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


def _brigade(library: Library) -> Roster:
    """Line Troopers (labelled, joined by the Captain), Shock Squad, Brigade Captain."""
    system = get_system("actionhammer")
    catalog = library.catalog(system)
    roster = Roster(system="actionhammer", name="r", factions=("Cobalt Brigade",))
    for name in ("Line Troopers", "Shock Squad", "Brigade Captain"):
        roster = edits.add_unit(system, catalog, roster, catalog.units_named(name)[0])
    return edits.join_entry(roster, 2, "Brigade Captain", 0, "Line Troopers")


def test_duplicate_copies_everything_but_the_label_and_the_join(library: Library) -> None:
    roster = _brigade(library)
    roster = edits.update_entry(roster, 0, "Line Troopers", 8, ["Frag Grenades"])
    copied = edits.duplicate_entry(roster, 0, "Line Troopers", stacks=False)
    original, copy = copied.entries[0], copied.entries[1]
    assert [e.unit for e in copied.entries] == [
        "Line Troopers", "Line Troopers", "Shock Squad", "Brigade Captain"]
    assert (copy.count, copy.upgrades, copy.faction) == (8, ("Frag Grenades",), None)
    # the original keeps its label and its Leader; the copy has no label to clash with it
    assert original.label == "line-troopers" and copy.label is None
    assert copied.entries[3].joins == "line-troopers"
    # a Leader's copy stands on its own: a Bodyguard takes one Leader
    leader = edits.duplicate_entry(roster, 2, "Brigade Captain", stacks=False)
    assert leader.entries[2].joins == "line-troopers" and leader.entries[3].joins is None
    assert leader.entries[3].unit == "Brigade Captain" and len(leader.entries) == 4


def test_duplicate_is_refused_where_an_entry_counts_copies_or_has_moved() -> None:
    roster = Roster(system="hammerwars", name="r",
                    entries=(RosterEntry(unit="Assault Infantry", count=3),))
    with pytest.raises(edits.EditError, match="raise its count"):
        edits.duplicate_entry(roster, 0, "Assault Infantry", stacks=True)
    with pytest.raises(edits.EditError, match="no longer at that place"):
        edits.duplicate_entry(roster, 1, "Assault Infantry", stacks=False)


def test_move_to_any_place_in_one_edit_keeps_joins(library: Library) -> None:
    names = [f"U{n}" for n in range(8)]
    roster = Roster(system="op40k", name="r", entries=tuple(RosterEntry(unit=n) for n in names))
    top = edits.move_entry_to(roster, 7, "U7", 0)
    assert [e.unit for e in top.entries] == ["U7", *names[:7]]
    bottom = edits.move_entry_to(roster, 0, "U0", 7)
    assert [e.unit for e in bottom.entries] == [*names[1:], "U0"]
    middle = edits.move_entry_to(roster, 2, "U2", 5)
    assert [e.unit for e in middle.entries] == ["U0", "U1", "U3", "U4", "U5", "U2", "U6", "U7"]
    assert edits.move_entry_to(roster, 3, "U3", 3) == roster
    # a step is the same edit, one place away; at either end nothing moves
    assert edits.move_entry(roster, 7, "U7", -1) == edits.move_entry_to(roster, 7, "U7", 6)
    assert edits.move_entry(roster, 7, "U7", 1) == roster
    # labels and joins go with their entries: the Leader stays with its Bodyguard
    brigade = _brigade(library)
    moved = edits.move_entry_to(brigade, 0, "Line Troopers", 2)
    assert [(e.unit, e.label, e.joins) for e in moved.entries] == [
        ("Shock Squad", None, None), ("Brigade Captain", None, "line-troopers"),
        ("Line Troopers", "line-troopers", None)]


def test_move_to_a_place_that_is_not_there_is_refused() -> None:
    roster = Roster(system="op40k", name="r", entries=(RosterEntry(unit="A"),
                                                       RosterEntry(unit="B")))
    with pytest.raises(edits.EditError, match="There is no line 3 to move A to"):
        edits.move_entry_to(roster, 0, "A", 2)
    with pytest.raises(edits.EditError, match="no longer at that place"):
        edits.move_entry_to(roster, 5, "A", 0)
    with pytest.raises(edits.EditError, match="no longer at that place"):
        edits.move_entry_to(roster, 1, "A", 0)
