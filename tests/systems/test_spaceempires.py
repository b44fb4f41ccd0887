"""War Hammer Space Empires: the seed's tables, the starting draw, costs and every roster rule."""

from __future__ import annotations

import dataclasses
import json
import shutil
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import MappingProxyType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from listbuilder.engine.catalog import load_catalog
from listbuilder.engine.errors import DataLoadError
from listbuilder.engine.library import Library
from listbuilder.engine.model import Roster, RosterEntry
from listbuilder.engine.registry import get_system
from listbuilder.engine.report import report
from listbuilder.engine.roster_file import LoadedRoster
from listbuilder.engine.system import Violation
from listbuilder.systems.spaceempires import SpaceEmpires
from listbuilder.systems.spaceempires.limits import starting_forces
from listbuilder.systems.spaceempires.model import (
    ActionCard,
    Chit,
    SpaceEmpiresCatalog,
    half_up,
)

Violations = Callable[[str], list[Violation]]
Read = Callable[[str], LoadedRoster]
DATA = get_system("spaceempires").data_folder()
SYSTEM = SpaceEmpires()

UNITS_PER_LIST = {"Orks": 53, "Imperial": 59, "Eldar": 38, "Tyranids": 31}
CHITS_PER_PILE = {"Orks": 84, "Imperial": 84, "Eldar": 84, "Tyranids": 85}
FAST_UNITS = {"Orks": 12, "Imperial": 8, "Eldar": 9, "Tyranids": 3}
LEADERS = {
    "Orks": {"Nobz", "Warboss", "Warlord", "Ghazghkull Thraka", "Nobz Warbikes"},
    "Imperial": {"Capitol Imperialis", "Space Marine HQ", "Space Marine Chaplain",
                 "Space Marine Librarian", "Commissar", "Commissar Yarrick"},
    "Eldar": {"Warlock", "Exarch", "Avatar"},
    "Tyranids": {"Genestealer Magus", "Hive Tyrant"},
}
DECK = {
    "Tactical Move": 12, "Operational Move": 6, "Strategic Move": 3, "Leadership": 2,
    "Space Combat": 2, "Fighter Escort": 2, "Hold Ground": 2, "Barrage": 2, "Massed Armor": 2,
    "Surprise": 2, "Titan Attack": 2, "Psionic Storm": 2, "Outflank": 2, "Recon": 2,
    "Intelligence": 2, "Terraform": 1, "Industrialization": 1, "Decoy Force": 2,
}
FORCE_CARDS = {
    "Leadership": ("L", "all"), "Space Combat": ("S", "one"), "Fighter Escort": ("S", "one"),
    "Hold Ground": ("I", "all"), "Barrage": ("A", "all"), "Massed Armor": ("V", "all"),
    "Surprise": ("R", "all"), "Titan Attack": ("T", "all"), "Psionic Storm": ("P", "all"),
    "Outflank": ("F", "all"),
}


def cat(library: Library) -> SpaceEmpiresCatalog:
    catalog = library.catalog("spaceempires")
    assert isinstance(catalog, SpaceEmpiresCatalog)
    return catalog


def chit(catalog: SpaceEmpiresCatalog, name: str, faction: str) -> Chit:
    unit = catalog.find_unit(name, [faction])
    assert isinstance(unit, Chit), name
    return unit


def roster(faction: str, entries: str = "", **choices: int) -> str:
    choices.setdefault("seed", 1)
    lines = "".join(f"  {k}: {v}\n" for k, v in choices.items())
    return (f"format: 1\nsystem: spaceempires\nname: Test\nfactions: [{faction}]\n"
            f"choices:\n{lines}entries:\n{entries or '  []'}\n").replace(":\n  []", ": []")


def entry(unit: str, count: int = 1) -> str:
    return f"  - unit: {unit}\n    count: {count}\n"


def ids(found: list[Violation]) -> set[str]:
    return {v.rule for v in found}


def undrawn(catalog: SpaceEmpiresCatalog, faction: str, seed: int, *, space: bool,
            leader: bool = False) -> Chit:
    """A unit of the faction that the starting draw for `seed` left wholly in the pile."""
    drawn = starting_forces(catalog, faction, seed).counts()
    return next(c for c in catalog.pile(faction)
                if c.is_space == space and c.is_leader == leader and drawn[c.name] == 0)


# -- the seed's tables ------------------------------------------------------------------------

def test_four_unit_lists_with_every_unit_and_chit(library: Library) -> None:
    c = cat(library)
    assert [f.name for f in c.factions] == ["Eldar", "Imperial", "Orks", "Tyranids"]
    assert Counter(u.faction for u in c.units) == UNITS_PER_LIST
    assert len(c.units) == 181
    for faction, chits in CHITS_PER_PILE.items():
        pile = c.pile(faction)
        assert sum(u.pile for u in pile) == chits
        assert sum(u.pile for u in pile if u.is_space) == 30  # 2 + 4 + 6 + 8 + 10
        assert sum(1 for u in pile if u.is_space) == 5
        assert sum(1 for u in pile if u.speed == "Fast") == FAST_UNITS[faction]
        assert {u.name for u in pile if u.is_leader} == LEADERS[faction]
    assert {u.speed for u in c.units} == {"Fast", "Medium"}
    assert all(u.origin.file.startswith("listbuilder/systems/spaceempires/data/") for u in c.units)
    assert not any(u.origin.sample or u.origin.custom for u in c.units)


@pytest.mark.parametrize(("name", "faction", "pile", "speed", "types", "force"), [
    ("Bad Moonz Ork Boyz", "Orks", 2, "Medium", ("I",), 2),
    ("Ghazghkull Thraka", "Orks", 1, "Medium", ("L",), 6),
    ("Nobz Warbikes", "Orks", 1, "Fast", ("V", "L"), 2),
    ("Weirdboy Battle Tower", "Orks", 1, "Medium", ("V", "P"), 2),
    ("Freeboterz Corsair", "Orks", 10, "Medium", ("S", "R"), 2),
    ("Ork Dreadnaughts", "Orks", 1, "Medium", ("I",), 4),
    ("Capitol Imperialis", "Imperial", 1, "Medium", ("L", "V"), 6),
    ("Dreadnaughts", "Imperial", 1, "Medium", ("I",), 5),
    ("Warhound Scout Titan", "Imperial", 1, "Fast", ("T",), 6),
    ("Cobra Destroyer", "Imperial", 10, "Fast", ("S",), 2),
    ("Mole Mortars", "Imperial", 1, "Medium", ("A", "R"), 1),
    ("Dreadnaughts", "Eldar", 2, "Medium", ("I",), 3),
    ("Vyper Jet Bikes", "Eldar", 2, "Fast", ("V", "R"), 2),
    ("Avatar", "Eldar", 1, "Medium", ("L", "P"), 6),
    ("Carniflex", "Tyranids", 2, "Medium", ("I",), 5),
    ("Dominatrix", "Tyranids", 2, "Medium", ("A", "P"), 6),
    ("Genestealer Cultists", "Tyranids", 4, "Medium", ("I",), 1),
    ("Hive Ship", "Tyranids", 2, "Medium", ("S",), 10),
    ("Wardrones", "Tyranids", 10, "Fast", ("S",), 2),
])
def test_sample_rows_are_exact(library: Library, name: str, faction: str, pile: int,
                               speed: str, types: tuple[str, ...], force: int) -> None:
    u = chit(cat(library), name, faction)
    assert (u.pile, u.speed, u.types, u.force) == (pile, speed, types, force)


def test_notes_are_fields_and_names_lose_the_suffix(library: Library) -> None:
    c = cat(library)
    noted = {(u.faction, u.name): u.note for u in c.units if u.note}
    assert noted == {
        ("Orks", "Giblet Grinda"): "BF", ("Orks", "Skullhamma"): "BF",
        ("Imperial", "Shadow Sword"): "SHT", ("Imperial", "Bane Blade"): "SHT",
        ("Imperial", "Storm Blade"): "SHT", ("Imperial", "Gorgon"): "SHT",
    }
    assert [(n.code, n.name, n.faction) for n in c.notes] == [
        ("BF", "Battle Fortress", "Orks"), ("SHT", "Super Heavy Tank", "Imperial")]
    assert chit(c, "Storm Blade", "Imperial").force == 7


def test_unit_types_speeds_and_abbreviations(library: Library) -> None:
    c = cat(library)
    assert [(t.letter, t.name) for t in c.unit_types] == [
        ("L", "Leaders"), ("S", "Space"), ("G", "Ground"), ("I", "Infantry"),
        ("A", "Artillery"), ("V", "Vehicles"), ("R", "Stealth"), ("F", "Fast"),
        ("T", "Titans"), ("P", "Psychic")]
    assert [(s.name, s.letter, s.min_move, s.max_move) for s in c.speeds] == [
        ("Fast", "F", 1, 3), ("Medium", "M", 1, 2), ("Slow", "S", 1, 1)]
    assert [(a.code, a.meaning) for a in c.abbreviations][:5] == [
        ("S", "Slow"), ("M", "Medium speed"), ("F", "Fast"), ("F", "Force"),
        ("F", "Fortification")]
    assert len(c.abbreviations) == 6
    assert c.abbreviations[5].code == "#"


def test_action_deck_has_18_kinds_and_49_cards(library: Library) -> None:
    deck = cat(library).deck("Action")
    assert deck is not None
    assert {card.name: card.count for card in deck.cards} == DECK
    assert (len(deck.cards), deck.size) == (18, 49)
    assert all(isinstance(card, ActionCard) for card in deck.cards)


def test_action_cards_carry_their_effects_as_data(library: Library) -> None:
    c = cat(library)
    deck = c.deck("Action")
    assert deck is not None
    cards = {card.name: card for card in deck.cards if isinstance(card, ActionCard)}
    assert {n: cards[n].stacks for n in ("Tactical Move", "Operational Move",
                                         "Strategic Move")} == {
        "Tactical Move": 1, "Operational Move": 2, "Strategic Move": 3}
    force = {n: (card.bonus_types[0], card.scope) for n, card in cards.items()
             if card.kind == "force"}
    assert force == FORCE_CARDS
    assert all(cards[n].bonus == c.constants.card_bonus == 5 for n in FORCE_CARDS)
    assert [n for n, card in cards.items() if card.transports] == ["Fighter Escort"]
    assert (cards["Terraform"].cost, cards["Terraform"].upgrade_from,
            cards["Terraform"].upgrade_to) == (10, "Poor", "Rich")
    assert (cards["Industrialization"].cost, cards["Industrialization"].upgrade_from,
            cards["Industrialization"].upgrade_to) == (10, "Rich", "Homeworld")
    assert (cards["Recon"].look_at, cards["Intelligence"].look_at) == ("stack", "hand")
    assert cards["Decoy Force"].kind == "cancel-move"


def test_planets_phases_and_constants(library: Library) -> None:
    c = cat(library)
    assert [(p.name, p.revenue, p.recruit_limit, p.recruits_space) for p in c.planets] == [
        ("Poor", 1, 1, False), ("Rich", 3, 3, True), ("Homeworld", 5, 5, True)]
    assert [p.name for p in c.phases] == [
        "Draw Phase", "Move Phase", "Battle Phase", "Revenue Phase", "Recruit Phase",
        "Upkeep Phase", "Control Phase"]
    k = c.constants
    assert (k.setup_space_units, k.setup_ground_units) == (8, 12)
    assert (k.hand_draw, k.hand_max) == (5, 7)
    assert (k.leader_bonus, k.card_bonus, k.transport_force_in_space) == (5, 5, 0)
    assert (k.bombard_force_divisor, k.leader_cost_divisor) == (2, 2)
    assert (k.upkeep_units_per_revenue, k.recruit_draw, k.recruit_bonus_draw) == (5, 5, "1D6")
    assert (k.transport_speed, k.fortification_move, k.victory_planet_percent) == (
        "Medium", 0, 80)
    assert len(c.rules) == 9


def test_catalog_dumps_every_table_as_plain_data(library: Library) -> None:
    dumped = json.loads(json.dumps(dataclasses.asdict(cat(library))))
    assert len(dumped["units"]) == 181
    assert sum(card["count"] for card in dumped["decks"][0]["cards"]) == 49
    assert dumped["decks"][0]["cards"][3]["bonus_types"] == ["L"]
    assert [len(dumped[k]) for k in ("unit_types", "speeds", "planets", "phases",
                                     "abbreviations", "notes", "factions", "rules")] == [
        10, 3, 3, 7, 6, 2, 4, 9]
    assert dumped["constants"]["setup_ground_units"] == 12


# -- readings of unclear rules (docs/rules-notes/spaceempires.md) ----------------------------

def test_leader_cost_is_half_force_rounded_up(library: Library) -> None:
    c = cat(library)
    costs = {u.name: u.cost for u in c.pile("Imperial") if u.is_leader}
    assert costs == {"Capitol Imperialis": 3, "Space Marine HQ": 1, "Space Marine Chaplain": 1,
                     "Space Marine Librarian": 2, "Commissar": 1, "Commissar Yarrick": 3}
    assert chit(c, "Genestealer Magus", "Tyranids").cost == 1  # Force 1: never free
    assert chit(c, "Nobz Warbikes", "Orks").cost == 1
    assert chit(c, "Great Gargant", "Orks").cost == 10  # not a Leader: full Force


def test_battle_fortresses_are_vehicles_that_move(library: Library) -> None:
    c = cat(library)
    for name in ("Giblet Grinda", "Skullhamma"):
        u = chit(c, name, "Orks")
        assert (u.types, u.speed, u.fortification) == (("V",), "Medium", False)
    assert not any(u.fortification for u in c.units)


def test_fast_speed_counts_as_unit_type_f(library: Library) -> None:
    c = cat(library)
    bikes = chit(c, "Bikeboyz", "Orks")
    assert bikes.types == ("V",) and bikes.has_type("F") and bikes.has_type("V")
    assert not chit(c, "Boarboyz", "Orks").has_type("F")
    assert chit(c, "Boarboyz", "Orks").has_type("G")
    corsair = chit(c, "Freeboterz Corsair", "Orks")
    assert corsair.has_type("S") and corsair.has_type("R") and not corsair.has_type("G")


def test_leaders_are_in_the_pile_and_can_be_drawn_at_setup(library: Library) -> None:
    c = cat(library)
    drawn_leaders = {name for seed in range(60)
                     for name in starting_forces(c, "Orks", seed).ground
                     if chit(c, name, "Orks").is_leader}
    assert drawn_leaders  # some seeds draw a Leader among the 12 ground units
    assert drawn_leaders <= LEADERS["Orks"]


def test_homeworlds_recruit_space_units_and_poor_planets_do_not(violations: Violations) -> None:
    space = entry("Ork Warship")
    assert "spaceempires.space-recruit-limit" not in ids(violations(roster("Orks", space)))
    poor_only = roster("Orks", space, homeworlds=0, poor_planets=5, treasury=10)
    found = violations(poor_only)
    assert "spaceempires.space-recruit-limit" in ids(found)
    message = next(v.message for v in found if v.rule == "spaceempires.space-recruit-limit")
    assert message == ("1 space unit recruited; only Rich worlds and Homeworlds recruit them, "
                       "0 a turn here: remove 1 space unit.")


def test_fighter_escort_may_boost_a_transport(library: Library) -> None:
    deck = cat(library).deck("Action")
    assert deck is not None
    escort = next(card for card in deck.cards if card.name == "Fighter Escort")
    assert isinstance(escort, ActionCard)
    assert (escort.scope, escort.bonus_types, escort.transports) == ("one", ("S",), True)


def test_upkeep_counts_the_starting_draw_and_not_the_treasury(violations: Violations) -> None:
    found = violations(roster("Orks", homeworlds=0, rich_planets=1, treasury=50))
    upkeep = [v for v in found if v.rule == "spaceempires.upkeep"]
    assert [v.message for v in upkeep] == [
        "20 units (20 at start + 0 recruited); upkeep keeps 5 x 3 revenue = 15: set the "
        "planets you hold to 1 more revenue (Poor 1, Rich 3, Homeworld 5 each); at the table "
        "the rules would have you discard 5 starting units instead."]


def test_recruits_are_not_tied_to_a_five_chit_draw(violations: Violations,
                                                   library: Library) -> None:
    # Two Homeworlds recruit 10 a turn; the roster records chits bought, not the 5-chit draw.
    c = cat(library)
    drawn = starting_forces(c, "Tyranids", 3).counts()
    ten = [u for u in c.pile("Tyranids") if not u.is_space and u.pile > drawn[u.name]][:10]
    text = "".join(entry(u.name) for u in ten)
    assert len(ten) == 10
    assert violations(roster("Tyranids", text, seed=3, homeworlds=2, treasury=50)) == []


# -- the starting draw ------------------------------------------------------------------------

def test_same_seed_gives_the_same_draw_and_seeds_differ(library: Library) -> None:
    c = cat(library)
    assert starting_forces(c, "Eldar", 42) == starting_forces(c, "Eldar", 42)
    draws = {starting_forces(c, "Eldar", seed) for seed in range(20)}
    assert len(draws) >= 19


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(min_value=-(2**40), max_value=2**40),
       faction=st.sampled_from(sorted(UNITS_PER_LIST)))
def test_draw_takes_8_space_and_12_ground_chits_within_the_pile(
        library: Library, seed: int, faction: str) -> None:
    c = cat(library)
    draw = starting_forces(c, faction, seed)
    assert (len(draw.space), len(draw.ground)) == (8, 12)
    assert all(chit(c, n, faction).is_space for n in draw.space)
    assert not any(chit(c, n, faction).is_space for n in draw.ground)
    for name, n in draw.counts().items():
        assert n <= chit(c, name, faction).pile


def test_draw_from_a_small_pile_takes_what_there_is(tmp_path: Path) -> None:
    builtin = tmp_path / "data"
    (builtin / "spaceempires").mkdir(parents=True)
    shutil.copy(DATA / "system.yaml", builtin / "spaceempires" / "system.yaml")
    (builtin / "spaceempires" / "tiny.yaml").write_text(
        "sample: true\nfactions:\n  - {name: Tiny, text: A test empire.}\nunits:\n"
        "  - {name: Skiff, faction: Tiny, pile: 3, types: [S], force: 1}\n"
        "  - {name: Militia, faction: Tiny, pile: 2, types: [I], force: 1}\n")
    c = load_catalog(SYSTEM, builtin_dir=builtin, custom_dir=tmp_path / "none").catalog
    assert isinstance(c, SpaceEmpiresCatalog)
    draw = starting_forces(c, "Tiny", 5)
    assert sorted(draw.space) == ["Skiff"] * 3 and sorted(draw.ground) == ["Militia"] * 2
    assert c.units[0].origin.sample


# -- costs ------------------------------------------------------------------------------------

def test_entry_cost_is_force_times_chits(read: Read) -> None:
    loaded = read(roster("Orks", entry("Bad Moonz Ork Boyz", 2) + entry("Warlord")))
    costs = [SYSTEM.priced(loaded.catalog, loaded.roster, [e])[0].cost
             for e in loaded.roster.entries]
    assert costs == [4, 3]
    assert report(SYSTEM, loaded.catalog, loaded.roster).totals.points == 7
    assert report(SYSTEM, loaded.catalog, loaded.roster).totals.points_limit is None


@settings(max_examples=80, deadline=None)
@given(picks=st.lists(st.tuples(st.integers(0, 52), st.integers(1, 10)), max_size=8))
def test_cost_is_additive_and_grows_with_every_chit(
        library: Library, picks: list[tuple[int, int]]) -> None:
    c = cat(library)
    pile = c.pile("Orks")
    entries = tuple(RosterEntry(unit=pile[i].name, count=min(n, pile[i].pile)) for i, n in picks)
    r = Roster(system="spaceempires", name="P", factions=("Orks",),
               choices=MappingProxyType({"seed": 1}), entries=entries)
    total = report(SYSTEM, c, r).totals.points
    assert total == sum(SYSTEM.priced(c, r, [e])[0].cost for e in entries)
    assert total == sum(pile[i].cost * e.count for (i, _), e in zip(picks, entries, strict=True))
    for k, e in enumerate(entries):
        more = (*entries[:k], dataclasses.replace(e, count=e.count + 1), *entries[k + 1:])
        bigger = report(SYSTEM, c, dataclasses.replace(r, entries=more)).totals.points
        assert bigger == total + pile[picks[k][0]].cost > total


@given(force=st.integers(0, 99))
def test_half_up_never_undercharges(force: int) -> None:
    assert half_up(force, 2) * 2 in (force, force + 1)


# -- roster rules -----------------------------------------------------------------------------

def test_a_modest_recruitment_is_legal(violations: Violations, library: Library) -> None:
    c = cat(library)
    ship = undrawn(c, "Orks", 1, space=True)
    boss = undrawn(c, "Orks", 1, space=False, leader=True)
    text = entry(ship.name) + entry(boss.name)
    assert ship.cost + boss.cost <= 5 + 10
    assert violations(roster("Orks", text, treasury=10)) == []


def test_recruit_cost_within_revenue_and_treasury(violations: Violations) -> None:
    gargant = entry("Great Gargant")
    found = violations(roster("Orks", gargant, seed=7))
    assert ids(found) == {"spaceempires.recruit-cost"}
    assert found[0].message == ("Recruits cost 10 revenue; revenue 5 + treasury 0 gives 5 to "
                                "spend: remove recruits costing 5 or more (a Leader costs half "
                                "its Force).")
    assert found[0].where == "roster"
    assert found[0].reading is None  # no Leader: the cost is the printed Force
    assert violations(roster("Orks", gargant, seed=7, treasury=5)) == []


def test_recruit_limit_of_the_planets(violations: Violations) -> None:
    six = "".join(entry(n) for n in ("Genestealer Cultists", "Hormagaunts", "Termagants",
                                      "Devourer Swarm", "Mycetic Spores", "Gargoyles"))
    found = violations(roster("Tyranids", six, seed=11, treasury=1))
    # With a lone Homeworld, a sixth recruit also breaks upkeep (20 + 6 > 5 x 5).
    assert ids(found) == {"spaceempires.recruit-limit", "spaceempires.upkeep"}
    assert found[0].message == ("6 recruits; your planets (Poor 0, Rich 0, Homeworld 1) "
                                "recruit 5 a turn: remove 1.")
    assert violations(roster("Tyranids", six, seed=11, poor_planets=1)) == []


def test_upkeep_limits_units_in_play(violations: Violations) -> None:
    four = "".join(entry(n) for n in ("Genestealer Cultists", "Hormagaunts", "Termagants",
                                       "Devourer Swarm"))
    found = violations(roster("Tyranids", four, seed=11, homeworlds=0, poor_planets=4))
    assert ids(found) == {"spaceempires.upkeep"}
    assert found[0].message == ("24 units (20 at start + 4 recruited); upkeep keeps 5 x 4 "
                                "revenue = 20: recruit 4 fewer.")
    assert violations(roster("Tyranids", seed=11, homeworlds=0, poor_planets=4)) == []


def test_chit_pile_counts_the_starting_draw(violations: Violations, library: Library) -> None:
    c = cat(library)
    draw = starting_forces(c, "Orks", 1).counts()
    full = next(u for u in c.pile("Orks") if draw[u.name] == u.pile and not u.is_space)
    found = violations(roster("Orks", entry(full.name), treasury=20))
    assert ids(found) == {"spaceempires.chit-pile"}
    assert found[0].message == (f"{full.name}: {full.pile} drawn at start + 1 recruited = "
                                f"{full.pile + 1} chits; the pile holds {full.pile}: recruit 1 "
                                f"fewer.")
    assert found[0].where == f"entries[0] {full.name}"


def test_chit_pile_sums_entries_of_one_unit(violations: Violations, library: Library) -> None:
    c = cat(library)
    drawn = starting_forces(c, "Tyranids", 11).counts()["Genestealer Cultists"]
    left = 4 - drawn
    split = entry("Genestealer Cultists", left) + entry("Genestealer Cultists", 1)
    found = violations(roster("Tyranids", split, seed=11, treasury=10))
    assert ids(found) == {"spaceempires.chit-pile"}
    ok = entry("Genestealer Cultists", left)
    assert "spaceempires.chit-pile" not in ids(violations(roster("Tyranids", ok, seed=11,
                                                                 treasury=10)))


def test_one_entry_over_the_pile_is_reported_once(violations: Violations) -> None:
    found = violations(roster("Orks", entry("Bad Moonz Ork Boyz", 3), treasury=10))
    assert ids(found) == {"roster.count-bounds"}
    assert found[0].message == ("Bad Moonz Ork Boyz has chits 3; it must be 1 to 2: "
                                "set it to 2.")


def test_negative_choices_are_errors(violations: Violations) -> None:
    found = violations(roster("Orks", treasury=-3))
    assert ids(found) == {"spaceempires.negative-choice"}
    assert found[0].message == "treasury is -3; it cannot be below 0: set it to 0 or more."


def test_planets_treasury_and_seed_are_bounded(violations: Violations, read: Read,
                                               library: Library) -> None:
    """Issue 38: 99,999 Poor planets were legal. What an empire can hold is bounded (the
    reading "How many planets can an empire hold?"), the count read as its bound meanwhile,
    so the one mistake is one message and not 99,999 recruits a turn."""
    found = violations(roster("Orks", poor_planets=99999))
    assert ids(found) == {"spaceempires.choice-too-large"}
    assert found[0].message == ("poor_planets is 99999; an empire holds at most 48 of a kind: "
                                "set it to 48 or less.")
    assert found[0].reading == "how-many-planets-can-an-empire-hold"
    big = read(roster("Orks", poor_planets=99999)).roster
    assert ("Revenue", "53 this turn (Poor 48, Rich 0, Homeworld 1)") in \
        report(SYSTEM, cat(library), big).totals.lines
    assert violations(roster("Orks", poor_planets=40, rich_planets=0, homeworlds=8,
                             treasury=9999, seed=999_999_999)) == []
    for key, value, bound in (("rich_planets", 49, "48"), ("homeworlds", 9, "8"),
                              ("treasury", 10_000, "9,999"), ("seed", 10**9, "999,999,999")):
        found = violations(roster("Orks", **{key: value}))
        assert ids(found) == {"spaceempires.choice-too-large"}, key
        assert found[0].message.endswith(f"set it to {bound} or less."), found[0].message
    assert ids(violations(roster("Orks", seed=-1))) == {"spaceempires.negative-choice"}


def test_poor_rich_and_homeworlds_together_are_bounded(violations: Violations) -> None:
    """Issue 49: each kind was bounded at 48, so 48 Poor and 48 Rich planets (96 of a map of
    60) were legal. Every planet held counts, Homeworlds too: at most 48 in all."""
    assert violations(roster("Orks", poor_planets=30, rich_planets=17, homeworlds=1)) == []
    found = violations(roster("Orks", poor_planets=30, rich_planets=18, homeworlds=1))
    assert ids(found) == {"spaceempires.too-many-planets"}
    assert found[0].message == (
        "The empire holds 49 planets (Poor 30, Rich 18, Homeworld 1); an empire holding more "
        "than 48 (80% of the largest map) has won: hold 48 or fewer in all.")
    assert found[0].reading == "how-many-planets-can-an-empire-hold"
    # one mistake, one message: a kind over its own bound is not said twice
    assert ids(violations(roster("Orks", poor_planets=49, rich_planets=48))) == {
        "spaceempires.choice-too-large"}


def test_seed_is_required(read: Read, library: Library) -> None:
    text = "format: 1\nsystem: spaceempires\nname: T\nfactions: [Orks]\nentries: []\n"
    assert ids(report(SYSTEM, cat(library), read(text).roster).violations) == {
        "spaceempires.seed-missing"}
    bare = Roster(system="spaceempires", name="T", factions=("Orks",))
    found = report(SYSTEM, cat(library), bare).violations
    assert ids(found) == {"spaceempires.seed-missing"}


def test_one_empire_is_one_faction(library: Library) -> None:
    two = Roster(system="spaceempires", name="T", factions=("Orks", "Eldar"),
                 choices=MappingProxyType({"seed": 1}))
    assert ids(report(SYSTEM, cat(library), two).violations) == {"roster.too-many-factions"}
    none = Roster(system="spaceempires", name="T", choices=MappingProxyType({"seed": 1}))
    assert ids(report(SYSTEM, cat(library), none).violations) == {"roster.faction-missing"}


def test_unknown_units_are_skipped_not_raised(library: Library) -> None:
    r = Roster(system="spaceempires", name="T", factions=("Orks",),
               choices=MappingProxyType({"seed": 1}),
               entries=(RosterEntry(unit="Squiggoth Prime"), RosterEntry(unit="Avatar")))
    assert ids(report(SYSTEM, cat(library), r).violations) == {"roster.unknown-unit",
                                                              "roster.wrong-faction"}
    # the Avatar, a Leader: half of Force 6
    assert report(SYSTEM, cat(library), r).totals.points == 3


def test_shared_name_resolves_to_the_chosen_faction(read: Read) -> None:
    loaded = read(roster("Eldar", entry("Dreadnaughts")))
    unit = SYSTEM.find_units(loaded.catalog, loaded.roster, [loaded.roster.entries[0]])[0]
    assert isinstance(unit, Chit) and (unit.faction, unit.force) == ("Eldar", 3)


def test_an_empire_recruits_only_from_its_own_pile(violations: Violations) -> None:
    found = violations(roster("Orks", entry("Avatar")))
    assert [v.rule for v in found] == ["roster.wrong-faction"]
    assert found[0].message == ("Avatar belongs to Eldar, not Orks: "
                                "remove it or pick a unit of Orks.")
    named = violations(roster("Orks", "  - unit: Avatar\n    faction: Eldar\n"))
    assert [v.rule for v in named] == ["roster.wrong-faction"]


def test_summary_lines(read: Read, library: Library) -> None:
    loaded = read(roster("Orks", entry("Warboss") + entry("Ork Warship"), seed=2024,
                         rich_planets=1, treasury=2))
    totals = report(SYSTEM, loaded.catalog, loaded.roster).totals
    assert totals.headline == "6 of 10 revenue spent"
    lines = dict(totals.lines)
    assert lines == {
        "Revenue": "8 this turn (Poor 0, Rich 1, Homeworld 1)",
        "Treasury": "2 saved",
        "Spent": "6 of 10 (revenue 8 + treasury 2); 4 left",
        "Recruits": "2/8 (space 1/8)",
        "Units": "22/40 upkeep (20 at start + 2 recruited)",
    }


def test_starting_draw_is_a_section_of_its_own(read: Read, library: Library) -> None:
    loaded = read(roster("Orks", entry("Warboss"), seed=2024))
    (draw_section,) = SYSTEM.sections(loaded.catalog, loaded.roster)
    assert draw_section.title == "Starting draw (seed 2024)"
    lines = dict(draw_section.lines)
    draw = starting_forces(cat(library), "Orks", 2024)
    assert lines["Space units"].count(",") + 1 == len(set(draw.space))
    assert "Ork Warship x3" in lines["Space units"]
    assert not any("draw" in label.lower() or "starting" in label.lower()
                   for label, _ in report(SYSTEM, loaded.catalog, loaded.roster).totals.lines)
    no_seed = Roster(system="spaceempires", name="T", factions=("Orks",))
    (none,) = SYSTEM.sections(cat(library), no_seed)
    assert none.lines == (("Not drawn", "choose one faction and a seed"),)


def test_over_spending_names_spend_and_revenue(read: Read) -> None:
    loaded = read(roster("Orks", entry("Great Gargant"), seed=7))
    totals = report(SYSTEM, loaded.catalog, loaded.roster).totals
    assert totals.headline == "10 of 5 revenue spent"
    assert dict(totals.lines)["Spent"] == "10 of 5 (revenue 5 + treasury 0); 5 over"


def test_an_empire_without_recruits_is_empty_only_before_its_draw(read: Read,
                                                                 library: Library) -> None:
    drawn = read(roster("Orks", seed=3))
    status = report(SYSTEM, drawn.catalog, drawn.roster).status
    assert (status.state, status.text) == ("legal", "Legal")
    bare = Roster(system="spaceempires", name="T")
    status = report(SYSTEM, cat(library), bare).status
    assert status.state == "empty"
    assert status.text.startswith("Empty: no faction, seed or recruits yet, and 2 problems")


def test_readings_decide_leader_cost_upkeep_and_piles(violations: Violations,
                                                      library: Library) -> None:
    # a Force 5 Leader costs 3 by our reading (half, rounded up): over a lone Poor planet
    odd = next(c for c in cat(library).pile("Orks") if c.is_leader and c.force % 2)
    found = violations(roster("Orks", entry(odd.name), seed=7, homeworlds=0, poor_planets=1))
    cost = next(v for v in found if v.rule == "spaceempires.recruit-cost")
    assert cost.reading == "what-does-a-leader-cost-when-its-force-is-odd"
    upkeep = next(v for v in found if v.rule == "spaceempires.upkeep")
    assert upkeep.reading == "what-does-upkeep-count"


# -- data errors and custom data --------------------------------------------------------------

def copy_data(tmp_path: Path) -> Path:
    builtin = tmp_path / "data"
    shutil.copytree(DATA, builtin / "spaceempires")
    return builtin


def test_schema_error_names_file_line_and_key(tmp_path: Path) -> None:
    builtin = copy_data(tmp_path)
    orks = builtin / "spaceempires" / "factions" / "orks.yaml"
    text = orks.read_text()
    assert "{name: Warlord, faction: Orks, pile: 1, types: [L], force: 5}" in text
    orks.write_text(text.replace("types: [L], force: 5}", "types: [L], force: -5}"))
    line = next(n for n, row in enumerate(orks.read_text().splitlines(), 1) if "Warlord" in row)
    with pytest.raises(DataLoadError) as err:
        load_catalog(SYSTEM, builtin_dir=builtin, custom_dir=tmp_path / "none")
    assert str(err.value) == f"{orks}:{line}: units[13].force: must be 0 to 99, got -5"


def test_cross_file_error_names_file_line_and_key(tmp_path: Path) -> None:
    builtin = copy_data(tmp_path)
    eldar = builtin / "spaceempires" / "factions" / "eldar.yaml"
    text = eldar.read_text().replace("name: Scouts, faction: Eldar, pile: 2, types: [R]",
                                     "name: Scouts, faction: Eldar, pile: 2, types: [Q]")
    eldar.write_text(text.replace("faction: Eldar, pile: 1, types: [I], force: 1}",
                                  "faction: Eldra, pile: 1, types: [I], force: 1}"))
    lines = eldar.read_text().splitlines()
    scouts = next(n for n, row in enumerate(lines, 1) if "name: Scouts," in row)
    ulthwe = next(n for n, row in enumerate(lines, 1) if "Ulthwe" in row)
    with pytest.raises(DataLoadError) as err:
        load_catalog(SYSTEM, builtin_dir=builtin, custom_dir=tmp_path / "none")
    messages = [str(e) for e in err.value.errors]
    assert f"{eldar}:{ulthwe}: units[1].faction: unknown faction 'Eldra': add it under " \
           f"factions or fix the name" in messages
    assert any(m.startswith(f"{eldar}:{scouts}: units[2].types[0]: unknown unit type 'Q'")
               for m in messages)


def test_custom_units_are_marked_and_broken_custom_files_are_reported(tmp_path: Path) -> None:
    custom = tmp_path / "custom" / "spaceempires"
    custom.mkdir(parents=True)
    (custom / "more-orks.yaml").write_text(
        "units:\n  - {name: Kustom Stompa, faction: Orks, pile: 1, types: [T], force: 7}\n")
    (custom / "broken.yaml").write_text(
        "units:\n  - {name: Bad Ship, faction: Orks, pile: 0, types: [S], force: 3}\n")
    loaded = load_catalog(SYSTEM, custom_dir=tmp_path / "custom")
    c = loaded.catalog
    assert isinstance(c, SpaceEmpiresCatalog)
    stompa = chit(c, "Kustom Stompa", "Orks")
    assert stompa.origin.custom and stompa.cost == 7
    assert not chit(c, "Great Gargant", "Orks").origin.custom
    assert len(c.units) == 182 and c.find_unit("Bad Ship") is None
    assert [str(p) for p in loaded.problems] == [
        f"{custom / 'broken.yaml'}:2: units[0].pile: must be 1 to 99, got 0"]


def test_custom_file_may_not_reset_the_constants(tmp_path: Path) -> None:
    custom = tmp_path / "custom" / "spaceempires"
    custom.mkdir(parents=True)
    text = (DATA / "system.yaml").read_text()
    constants = text[text.index("constants:"):text.index("rules:")]
    (custom / "house.yaml").write_text(constants)
    loaded = load_catalog(SYSTEM, custom_dir=tmp_path / "custom")
    assert [str(p) for p in loaded.problems] == [
        f"{custom / 'house.yaml'}:1: constants: the constants section is already given in "
        f"listbuilder/systems/spaceempires/data/system.yaml: keep one"]
    assert cat_from(loaded.catalog).constants.setup_space_units == 8


def cat_from(catalog: object) -> SpaceEmpiresCatalog:
    assert isinstance(catalog, SpaceEmpiresCatalog)
    return catalog


def test_custom_deck_cards_must_carry_their_effect(tmp_path: Path) -> None:
    custom = tmp_path / "custom" / "spaceempires"
    custom.mkdir(parents=True)
    (custom / "house-deck.yaml").write_text(
        "sample: true\ndecks:\n  - name: House\n    cards:\n"
        "      - {name: Rally, count: 2, kind: force, bonus: 5, scope: all, text: Rally.}\n"
        "      - {name: Rally, count: 1, kind: move, stacks: 1, text: Go.}\n"
        "      - {name: Boom, count: 1, kind: upgrade, cost: 10, upgrade_from: Poor,"
        " upgrade_to: Moon, text: Build.}\n")
    loaded = load_catalog(SYSTEM, custom_dir=tmp_path / "custom")
    file = custom / "house-deck.yaml"
    assert [str(p) for p in loaded.problems] == [
        f"{file}:5: decks[0].cards[0]: a force card needs bonus_types: add the unit type letters",
        f"{file}:6: decks[0].cards[1].name: card 'Rally' is listed twice in House: give one "
        f"count",
        f"{file}:7: decks[0].cards[2].upgrade_to: unknown planet kind 'Moon'",
    ]
    assert [d.name for d in loaded.catalog.decks] == ["Action"]
