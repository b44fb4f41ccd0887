"""Upgrades with effects: each kind read back from the unit as fielded, the loader refusing an
effect that names what the unit lacks, and what cards, quick-resolve and `validate --json` make
of the fielded unit."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from listbuilder.engine.catalog import load_catalog
from listbuilder.engine.effects import (
    AddKeyword,
    AddRule,
    ChangeModels,
    ChangeStat,
    Fielded,
    field,
)
from listbuilder.engine.errors import DataLoadError
from listbuilder.engine.library import Library
from listbuilder.engine.model import RosterEntry, Upgrade
from listbuilder.engine.registry import get_system
from listbuilder.systems.actionhammer.model import ActionHammerCatalog
from listbuilder.systems.actionhammer.model import Datasheet as AhSheet
from listbuilder.systems.op40k.model import Datasheet as OpSheet
from listbuilder.systems.op40k.model import Op40kCatalog

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def ah() -> ActionHammerCatalog:
    catalog = load_catalog(get_system("actionhammer")).catalog
    assert isinstance(catalog, ActionHammerCatalog)
    return catalog


@pytest.fixture(scope="module")
def op() -> Op40kCatalog:
    catalog = load_catalog(get_system("op40k")).catalog
    assert isinstance(catalog, Op40kCatalog)
    return catalog


def ah_sheet(catalog: ActionHammerCatalog, name: str) -> AhSheet:
    found = catalog.find_unit(name, ())
    assert isinstance(found, AhSheet), name
    return found


def op_sheet(catalog: Op40kCatalog, name: str) -> OpSheet:
    found = catalog.find_unit(name, ())
    assert isinstance(found, OpSheet), name
    return found


def carried(fielded: Fielded[object, object]) -> list[str]:
    return [c.text for c in fielded.weapons]


# -- each kind of effect ----------------------------------------------------------------------

def test_set_a_stat(ah: ActionHammerCatalog) -> None:
    captain = ah_sheet(ah, "Brigade Captain")
    assert captain.save == 3
    fielded = captain.fielded(1, ["Refractor Field"])
    assert fielded.unit.save == 2 and dict(fielded.stats)["save"] == 2
    assert captain.fielded(1).unit.save == 3  # without the upgrade, as printed
    riders = ah_sheet(ah, "Dragoon Riders").fielded(4, ["Regimental Standard"])
    assert riders.unit.control == 2
    mob = ah_sheet(ah, "Reaver Mob").fielded(12, ["War Paint", "Banner of Skulls"])
    assert (mob.unit.morale, mob.unit.control) == (4, 2)


def test_change_a_stat_keyword_and_rule(ah: ActionHammerCatalog) -> None:
    """Kinds the sample data does not use yet, on a datasheet of ours."""
    troopers = ah_sheet(ah, "Line Troopers")
    drilled = Upgrade(name="Drilled", pts=5, effects=(
        ChangeStat("morale", -1), ChangeStat("morale", -1), AddKeyword("Veteran"),
        AddRule("Drilled")))
    fielded = field(troopers, 10, troopers.weapons, [drilled], lambda _: None, AhSheet.STATS)
    assert fielded.unit.morale == troopers.morale - 2
    assert fielded.keywords == ("Veteran",) and fielded.rules == ("Drilled",)


def test_add_a_weapon_to_every_model_or_to_one(ah: ActionHammerCatalog) -> None:
    troopers = ah_sheet(ah, "Line Troopers").fielded(10, ["Frag Grenades"])
    assert carried(troopers) == ["10x Service Rifle", "10x Bayonet", "10x Frag Grenade"]
    crew = ah_sheet(ah, "Heavy Weapons Crew").fielded(3, ["Mortar Tube"])
    assert carried(crew) == ["3x Autocannon", "1x Mortar"]
    predator = op_sheet_of("Predator").fielded(op_catalog(), 1, ["Lascannon Sponsons"])
    assert carried(predator)[-1] == "2x Lascannon"  # a number may pass a vehicle's one model


def op_catalog() -> Op40kCatalog:
    catalog = Library().catalog(get_system("op40k"))
    assert isinstance(catalog, Op40kCatalog)
    return catalog


def op_sheet_of(name: str) -> OpSheet:
    return op_sheet(op_catalog(), name)


def test_replace_a_weapon_for_every_model_or_for_one(op: Op40kCatalog) -> None:
    boyz = op_sheet(op, "Ork Boyz")
    assert carried(boyz.fielded(op, 15, ["Shootas"])) == ["15x Shoota", "15x Choppa"]
    assert carried(boyz.fielded(op, 15, ["Boss Nob"])) == [
        "15x Slugga", "14x Choppa", "1x Power Klaw"]
    # the rokkit replaces a slugga, or a shoota once Shootas took every slugga
    assert carried(boyz.fielded(op, 15, ["Rokkit Launcha"])) == [
        "14x Slugga", "1x Rokkit Launcha", "15x Choppa"]
    assert carried(boyz.fielded(op, 15, ["Shootas", "Boss Nob", "Rokkit Launcha"])) == [
        "14x Shoota", "1x Rokkit Launcha", "14x Choppa", "1x Power Klaw"]
    nobz = op_sheet(op, "Nobz").fielded(op, 5, ["Power Klaws"])
    assert carried(nobz) == ["5x Slugga", "5x Power Klaw"]
    team = op_sheet(op, "Heavy Weapons Team").fielded(op, 3, ["Lascannons"])
    assert carried(team) == ["3x Lascannon"]


def test_remove_a_weapon(op: Op40kCatalog) -> None:
    """Two Guardsmen crew the missile launcher: both put down their lasguns."""
    guards = op_sheet(op, "Guardsmen").fielded(op, 10, ["Missile Launcher"])
    assert carried(guards) == ["8x Lasgun", "1x Missile Launcher"]


def test_set_a_weapon_stat(ah: ActionHammerCatalog) -> None:
    riders = ah_sheet(ah, "Tusk Riders")
    spear = next(c.weapon for c in riders.fielded(4, ["Iron Tusks"]).weapons)
    assert (spear.name, spear.ap) == ("Boar Spear", -2)
    assert riders.weapons[0].ap == -1  # the datasheet itself is unchanged


def test_change_the_number_of_models(op: Op40kCatalog) -> None:
    """The runtherd joins the grots: one model more, carrying no grot blasta."""
    grots = op_sheet(op, "Gretchin").fielded(op, 10, ["Runtherd"])
    assert grots.models == 11 and carried(grots) == ["10x Grot Blasta"]
    assert grots.rules == ("Runtherd",)
    fewer = field(grots.unit, 10, grots.unit.equipment,
                  [Upgrade(name="x", pts=0, effects=(ChangeModels(-3),))], lambda _: None)
    assert fewer.models == 7


def test_upgrades_apply_in_the_datasheets_order(op: Op40kCatalog) -> None:
    """An entry's upgrades are applied as the datasheet lists them, whatever order the roster
    file gives, and each once."""
    boyz = op_sheet(op, "Ork Boyz")
    one = boyz.fielded(op, 15, ["Rokkit Launcha", "Shootas", "Shootas"])
    two = boyz.fielded(op, 15, ["Shootas", "Rokkit Launcha"])
    assert carried(one) == carried(two) == ["14x Shoota", "1x Rokkit Launcha", "15x Choppa"]


# -- the loader refuses effects naming what the unit lacks ------------------------------------

def _broken(tmp_path: Path, system: str, file: str, old: str, new: str) -> str:
    data = tmp_path / system
    shutil.copytree(get_system(system).data_folder(), data)
    path = data / file
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(DataLoadError) as caught:
        load_catalog(get_system(system), builtin_dir=tmp_path, custom_dir=tmp_path / "none")
    return str(caught.value)


def test_an_unknown_stat_is_refused_with_file_line_and_fix(tmp_path: Path) -> None:
    said = _broken(tmp_path, "actionhammer", "factions/cobalt-brigade.yaml",
                   "{set: save, to: 2}", "{set: saves, to: 2}")
    assert "cobalt-brigade.yaml" in said and ":27" in said
    assert "unknown stat 'saves' (did you mean 'save'?)" in said
    assert "use one of move, save, wounds, morale, control" in said


def test_an_unknown_weapon_is_refused_with_file_line_and_fix(tmp_path: Path) -> None:
    said = _broken(tmp_path, "op40k", "factions/orks.yaml",
                   "{replace: Slugga, with: Shoota}", "{replace: Sluga, with: Shoota}")
    assert "orks.yaml" in said and "unknown weapon 'Sluga' (did you mean 'Slugga'?)" in said
    assert "define it under weapons" in said
    said = _broken(tmp_path / "2", "actionhammer", "factions/cobalt-brigade.yaml",
                   "{add: Frag Grenade}", "{add: Krak Grenade}")
    assert "unknown weapon 'Krak Grenade'" in said and "wargear" in said


def test_an_effect_of_no_known_kind_is_refused(tmp_path: Path) -> None:
    said = _broken(tmp_path, "op40k", "factions/orks.yaml",
                   "{replace: Slugga, with: Shoota}", "{swap: Slugga, with: Shoota}")
    assert "orks.yaml" in said and "an effect starts with one of set, change, add" in said


def test_line_numbers_point_at_the_effect(tmp_path: Path) -> None:
    said = _broken(tmp_path, "actionhammer", "factions/ashen-horde.yaml",
                   "{weapon: Boar Spear, set: ap, to: -2}",
                   "{weapon: Boar Spear, set: reach, to: 2}")
    line = next(i for i, text in enumerate(
        (tmp_path / "actionhammer/factions/ashen-horde.yaml").read_text().splitlines(), 1)
        if "set: reach" in text)
    assert f"ashen-horde.yaml:{line}" in said and "unknown weapon stat 'reach'" in said


# -- what draws from the fielded unit ---------------------------------------------------------

def test_cards_show_the_unit_as_fielded(ah: ActionHammerCatalog, op: Op40kCatalog) -> None:
    system = get_system("actionhammer")
    captain = ah_sheet(ah, "Brigade Captain")
    (placed,) = system.priced(ah, _roster("actionhammer"), (RosterEntry(
        unit="Brigade Captain", upgrades=("Refractor Field",)),))
    card = system.cards().entry_card(ah, placed)
    assert card is not None
    save = next(s.value for s in card.profile.stats if s.label == "Save")
    assert save == "2+" and captain.save == 3
    op40k = get_system("op40k")
    (placed,) = op40k.priced(op, _roster("op40k"), (RosterEntry(
        unit="Ork Boyz", count=15, upgrades=("Shootas", "Boss Nob")),))
    boyz = op40k.cards().entry_card(op, placed)
    assert boyz is not None
    rows = [row[0] for row in boyz.profile.tables[0].rows]
    assert rows == ["15x Shoota", "14x Choppa", "1x Power Klaw"]


def _roster(system_id: str) -> object:
    from listbuilder.engine.model import Roster

    factions = {"actionhammer": ("Cobalt Brigade",), "op40k": ("Orks",)}[system_id]
    return Roster(system=system_id, name="t", points_limit=2000, factions=factions)


@pytest.mark.print
def test_the_card_pdf_prints_the_fielded_numbers(tmp_path: Path) -> None:
    import pdfplumber

    roster = tmp_path / "boyz.yaml"
    roster.write_text("format: 1\nsystem: op40k\nname: Boyz\npoints_limit: 500\n"
                      "factions: [Orks]\nentries:\n"
                      "  - {unit: Ork Boyz, count: 15, upgrades: [Shootas, Boss Nob]}\n")
    out = tmp_path / "boyz.pdf"
    subprocess.run([sys.executable, "-c",
                    "from listbuilder.commands.cli import main; main()", "print",
                    str(roster), "--what", "cards", "-o", str(out)], check=True,
                   capture_output=True, cwd=tmp_path)
    with pdfplumber.open(out) as pdf:
        text = "\n".join(page.extract_text() or "" for page in pdf.pages)
    assert "15x Shoota" in text and "1x Power Klaw" in text and "Slugga" not in text


def test_quick_resolve_fights_the_unit_as_fielded() -> None:
    run = subprocess.run(
        [sys.executable, "-c", "from listbuilder.commands.cli import main; main()", "resolve",
         "actionhammer", "--roster", str(ROOT / "examples/actionhammer/legal.yaml"),
         "--attacker", "Strider Walker", "--defender", "Brigade Captain"],
        check=True, capture_output=True, text=True)
    assert "Brigade Captain saves on 2+" in run.stdout


def test_validate_json_gives_each_entry_as_fielded() -> None:
    run = subprocess.run(
        [sys.executable, "-c", "from listbuilder.commands.cli import main; main()", "validate",
         str(ROOT / "examples/actionhammer/legal.yaml"), "--json"],
        capture_output=True, text=True)
    entries = json.loads(run.stdout)["entries"]
    captain = next(e for e in entries if e["unit"] == "Brigade Captain")
    assert captain["fielded"]["stats"]["save"] == 2
    troopers = next(e for e in entries if e["unit"] == "Line Troopers")
    assert {"name": "Frag Grenade", "models": 10} in troopers["fielded"]["weapons"]
    assert troopers["fielded"]["rules_gained"] == ["Vox Caster"]


def _printed_words(tmp_path: Path, roster_text: str) -> list[dict[str, Any]]:
    """The words of the roster's one unit card, with their places."""
    import pdfplumber

    from listbuilder.printing.geometry import CARDS, PT_PER_MM, grid

    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "r.yaml").write_text(roster_text)
    subprocess.run([sys.executable, "-c",
                    "from listbuilder.commands.cli import main; main()", "print",
                    "r.yaml", "--what", "cards", "-o", "r.pdf"], check=True,
                   capture_output=True, cwd=tmp_path)
    cell = grid("a4", CARDS["poker"])
    with pdfplumber.open(tmp_path / "r.pdf") as pdf:
        first = pdf.pages[0].crop((cell.left * PT_PER_MM, cell.top * PT_PER_MM,
                                   (cell.left + CARDS["poker"][0]) * PT_PER_MM,
                                   (cell.top + CARDS["poker"][1]) * PT_PER_MM))
        return list(first.extract_words())


def _printed_text(tmp_path: Path, roster_text: str) -> str:
    import pdfplumber

    tmp_path.mkdir(parents=True, exist_ok=True)
    roster = tmp_path / "r.yaml"
    roster.write_text(roster_text)
    out = tmp_path / "r.pdf"
    subprocess.run([sys.executable, "-c",
                    "from listbuilder.commands.cli import main; main()", "print",
                    str(roster), "--what", "cards", "-o", str(out)], check=True,
                   capture_output=True, cwd=tmp_path)
    # the roster's one unit card: the first cell of the sheet (the quick-reference card that
    # follows it says what the core rules are, in numbers of its own)
    from listbuilder.printing.geometry import CARDS, PT_PER_MM, grid

    cell = grid("a4", CARDS["poker"])
    with pdfplumber.open(out) as pdf:
        first = pdf.pages[0].crop((cell.left * PT_PER_MM, cell.top * PT_PER_MM,
                                   (cell.left + CARDS["poker"][0]) * PT_PER_MM,
                                   (cell.top + CARDS["poker"][1]) * PT_PER_MM))
        # a stat's value (larger) and its label read as one line; names that wrap in their
        # column join up again
        return " ".join((first.extract_text(y_tolerance=4) or "").split())


AH_ROSTER = ("format: 1\nsystem: actionhammer\nname: T\npoints_limit: 2000\n"
             "factions: [Cobalt Brigade, Ashen Horde]\nentries:\n")


@pytest.mark.print
def test_the_ah_card_pdf_prints_stats_and_weapons_as_fielded(tmp_path: Path) -> None:
    """Set a stat (Save 2+: the Captain's only 2+, his weapons and Morale are 3+), add a weapon
    for some models, and change a weapon's stat, read back from the printed cards."""
    captain = _printed_text(tmp_path / "a", AH_ROSTER + (
        "  - {unit: Brigade Captain, upgrades: [Refractor Field]}\n"))
    assert "Save 2+ (2+ vs shots in cover)" in captain
    plain = _printed_text(tmp_path / "b", AH_ROSTER + "  - {unit: Brigade Captain}\n")
    assert "Save 3+ (2+ vs shots in cover)" in plain
    # one card a print: cards side by side read across each other
    crew = _printed_text(tmp_path / "c", AH_ROSTER + (
        "  - {unit: Heavy Weapons Crew, count: 3, upgrades: [Mortar Tube]}\n"))
    # (a long name may wrap in its column: its count starts its first line)
    assert re.search(r"\b3x (Autocannon|36)", crew) and "Autocannon" in crew
    assert "1x Mortar" in crew
    riders = _printed_words(tmp_path / "d", AH_ROSTER + (
        "  - {unit: Tusk Riders, count: 4, upgrades: [Iron Tusks]}\n"))
    (count,) = [w for w in riders if w["text"] == "4x"]
    row = [w["text"] for w in riders if abs(w["top"] - count["top"]) < 1.5]
    assert row[:3] == ["4x", "Boar", "Spear"] and row[-1] == "-2"  # its AP set by Iron Tusks


def _resolve(*args: str) -> str:
    return subprocess.run([sys.executable, "-c",
                           "from listbuilder.commands.cli import main; main()",
                           "resolve", *args], check=True, capture_output=True, text=True).stdout


def test_resolve_uses_added_and_changed_weapons(tmp_path: Path) -> None:
    roster = tmp_path / "r.yaml"
    roster.write_text(AH_ROSTER + (
        "  - {unit: Line Troopers, count: 5, upgrades: [Frag Grenades]}\n"
        "  - {unit: Tusk Riders, count: 4, upgrades: [Iron Tusks]}\n"
        "  - {unit: Heavy Weapons Crew, count: 3, upgrades: [Mortar Tube]}\n"))
    troopers = _resolve("actionhammer", "--roster", str(roster), "--attacker", "Line Troopers",
                        "--defender", "Sergeant Hale")
    assert "Frag Grenade: 5 dice" in troopers  # every trooper throws one
    riders = _resolve("actionhammer", "--roster", str(roster), "--attacker", "Tusk Riders",
                      "--defender", "Sergeant Hale", "--set", "weapon=all melee")
    assert "against AP -2" in riders
    crew = _resolve("actionhammer", "--roster", str(roster), "--attacker",
                    "Heavy Weapons Crew", "--defender", "Sergeant Hale")
    assert "Mortar: 2 dice" in crew and "Autocannon: 9 dice" in crew  # 1 mortar, 3 autocannons


OP_ROSTER = ("format: 1\nsystem: op40k\nname: T\npoints_limit: 500\n"
             "factions: [Imperial Guard, Orks]\nentries:\n")


@pytest.mark.print
def test_the_op40k_card_pdf_prints_removed_weapons_and_added_models(tmp_path: Path) -> None:
    """Remove (two Guardsmen put down their lasguns for one launcher), and a model more (the
    Runtherd, with his rule among the upgrades), read back from the printed cards."""
    guards = _printed_text(tmp_path / "a", OP_ROSTER + (
        "  - {unit: Guardsmen, count: 10, upgrades: [Missile Launcher]}\n"))
    assert "8x Lasgun" in guards and "1x Missile Launcher" in guards
    grots = _printed_text(tmp_path / "b", OP_ROSTER + (
        "  - {unit: Gretchin, count: 10, upgrades: [Runtherd]}\n"))
    assert "11 SIZE" in grots.replace("\n", " ") and "10x Grot Blasta" in grots
    assert "Runtherd" in grots


# A faction of our own, in a player's data folder, for the kinds the sample factions do not
# use: a rule and a keyword gained, a stat changed, a weapon put away and a model added.
GHOST_LEGION = """\
sample: true
factions:
  - {name: Ghost Legion, text: Test faction of ours.}
datasheets:
  - name: Veil Stalkers
    faction: Ghost Legion
    keywords: [Infantry]
    move: 8
    save: 5
    wounds: 1
    morale: 4
    control: 1
    models: {min: 4, max: 8}
    pts: 15
    weapons:
      - {name: Stalker Carbine, range: 24, att: 1, sk: 4, ap: 0}
      - {name: Knife, range: Melee, att: 1, sk: 4, ap: 0}
    upgrades:
      - name: Camo Cloaks
        pts: 10
        text: The squad fades from sight and hardens its cloaks.
        effects: [{rule: Stealthy}, {keyword: Camouflaged}, {change: save, by: -1}]
      - name: Spotter
        pts: 5
        text: One stalker puts his carbine away to spot; one more model joins.
        effects: [{remove: Stalker Carbine, models: 1}, {models: 1}]
"""
GHOST_ROSTER = (
    "format: 1\nsystem: actionhammer\nname: T\npoints_limit: 2000\n"
    "factions: [Cobalt Brigade, Ghost Legion]\nentries:\n"
    "  - {unit: Line Troopers, count: 5}\n"
    "  - {unit: Veil Stalkers, count: 5, upgrades: [Camo Cloaks, Spotter]}\n")


def _ghost_cli(tmp_path: Path, *args: str) -> str:
    data = tmp_path / "data" / "actionhammer"
    data.mkdir(parents=True, exist_ok=True)
    (data / "ghost-legion.yaml").write_text(GHOST_LEGION)
    (tmp_path / "r.yaml").write_text(GHOST_ROSTER)
    (tmp_path / "stalkers.yaml").write_text(GHOST_ROSTER.replace(
        "  - {unit: Line Troopers, count: 5}\n", ""))
    env = {**os.environ, "LISTBUILDER_DATA": str(tmp_path / "data")}
    return subprocess.run([sys.executable, "-c",
                           "from listbuilder.commands.cli import main; main()",
                           *args], check=True, capture_output=True, text=True, env=env,
                          cwd=tmp_path).stdout


@pytest.mark.print
def test_the_card_pdf_prints_gained_rules_keywords_and_changed_stats(tmp_path: Path) -> None:
    import pdfplumber

    _ghost_cli(tmp_path, "print", "stalkers.yaml", "--what", "cards", "--card", "poker",
               "-o", "c.pdf")
    from listbuilder.printing.geometry import CARDS, PT_PER_MM, grid

    cell = grid("a4", CARDS["poker"])
    with pdfplumber.open(tmp_path / "c.pdf") as pdf:
        first = pdf.pages[0].crop((cell.left * PT_PER_MM, cell.top * PT_PER_MM,
                                   (cell.left + CARDS["poker"][0]) * PT_PER_MM,
                                   (cell.top + CARDS["poker"][1]) * PT_PER_MM))
        stalkers = " ".join((first.extract_text(y_tolerance=4) or "").split())
    assert "4+ SAVE" in stalkers  # 5+ changed by -1
    assert "6 MODELS" in stalkers  # 5 bought, one more joins
    assert "4x Stalker" in stalkers and "6x" not in stalkers  # one carbine put away
    assert "Stealthy:" in stalkers and "CAMOUFLAGED" in stalkers


def test_quick_resolve_fights_gained_rules_and_models(tmp_path: Path) -> None:
    """The gained Stealthy makes far shots worse, the changed save is rolled, and the side is
    called what it fields: 6 Stalkers firing 4 carbines."""
    near = _ghost_cli(tmp_path, "resolve", "actionhammer", "--roster", "r.yaml",
                      "--attacker", "Line Troopers", "--defender", "Veil Stalkers")
    far = _ghost_cli(tmp_path, "resolve", "actionhammer", "--roster", "r.yaml",
                     "--attacker", "Line Troopers", "--defender", "Veil Stalkers",
                     "--set", "far=yes")
    assert "-> 6x Veil Stalkers" in near and "Veil Stalkers saves on 4+" in near
    assert "Skill 4+ (no modifier)" in near and "Skill 4+ (-1)" in far
    shooting = _ghost_cli(tmp_path, "resolve", "actionhammer", "--roster", "r.yaml",
                          "--attacker", "Veil Stalkers", "--defender", "Line Troopers")
    assert shooting.startswith("ActionHammer: 6x Veil Stalkers")
    assert "Veil Stalkers: models: 6" in shooting and "Stalker Carbine: 4 dice" in shooting


def test_a_vehicle_fires_each_gun_its_upgrades_mount(tmp_path: Path) -> None:
    """Lascannon Sponsons add two lascannons to the Predator's two guns: four dice on Hold."""
    roster = tmp_path / "r.yaml"
    for upgrades, guns in (("[Lascannon Sponsons]", 4), ("[]", 2)):
        roster.write_text("format: 1\nsystem: op40k\nname: T\npoints_limit: 500\n"
                          "factions: [Space Marines, Orks]\nentries:\n"
                          f"  - {{unit: Predator, upgrades: {upgrades}}}\n"
                          "  - {unit: Ork Boyz, count: 15}\n")
        out = _resolve("op40k", "--roster", str(roster), "--attacker", "Predator",
                       "--defender", "Ork Boyz")
        assert f"Predator: {guns} weapons fired, a die each" in out
        assert f"{guns} dice to hit" in out
