"""Rosters that build with faction packs carry each pack whole, so the file alone validates,
prints and resolves on another machine; a pack that does not load is named with its line."""

from __future__ import annotations

import json
from pathlib import Path

import pdfplumber
import pytest
from click.testing import CliRunner

from listbuilder.commands.cli import main
from listbuilder.engine.library import Library
from listbuilder.engine.model import PackUse, Roster, RosterEntry
from listbuilder.engine.registry import get_system
from listbuilder.engine.report import report
from listbuilder.engine.resolve import find_side, quick_resolve
from listbuilder.engine.roster_file import RosterFileError, dump_roster, roster_to_data

AH = get_system("actionhammer")
LIBRARY = Library()


def brigade_roster(text: str | None = None) -> str:
    pack = PackUse(name="House Brigade", text=text or AH.pack_starter(),
                   link="https://club.example/studio/s/abc")
    catalog = LIBRARY.catalog_with_packs(AH, [pack])
    roster = Roster(system="actionhammer", name="Brigade", points_limit=1000,
                    factions=("My Faction", "Cobalt Brigade"),
                    entries=(RosterEntry(unit="My Troops", count=5, label="troops"),
                             RosterEntry(unit="My Leader", upgrades=("Heavy Armour",),
                                         joins="troops"),
                             RosterEntry(unit="Line Troopers", count=5)),
                    packs=(pack,))
    return dump_roster(roster, AH, catalog)


def test_a_roster_carries_its_pack_and_reads_back_the_same() -> None:
    text = brigade_roster()
    assert "packs:\n- name: House Brigade\n  revision: " in text
    assert "  text: |\n    # A faction pack for ActionHammer" in text  # line for line
    loaded = LIBRARY.read_roster(text, "brigade.yaml")
    assert loaded.roster.packs[0].text == AH.pack_starter()
    assert dump_roster(loaded.roster, AH, loaded.catalog) == text  # export is stable
    assert report(AH, loaded.catalog, loaded.roster).violations == []
    # the pack's units beside the built-in ones, priced by the pack: 5 x 10 + 60 + 10
    costs = [row["pts"] for row in roster_to_data(loaded.roster, AH, loaded.catalog)["entries"]]
    assert costs[:2] == [50, 70]


def test_a_pack_that_does_not_load_is_named_with_its_own_line() -> None:
    broken = AH.pack_starter().replace("    save: 5\n", "    save: 9\n")
    text = brigade_roster().replace("        save: 5\n", "        save: 9\n")
    line = next(i for i, row in enumerate(broken.splitlines(), 1) if "save: 9" in row)
    with pytest.raises(RosterFileError) as caught:
        LIBRARY.read_roster(text, "brigade.yaml")
    said = [str(e) for e in caught.value.errors]
    assert len(said) == 1, said  # not also every unit of the pack as unknown
    assert said[0].startswith("brigade.yaml:")
    assert f"packs[0].text: the pack 'House Brigade' does not load: house-brigade.yaml:" \
           f"{line}: datasheets[1].save: must be 2 to 6, got 9" in said[0]


def test_a_roster_names_a_unit_no_pack_has_with_the_nearest() -> None:
    text = brigade_roster().replace("unit: My Troops", "unit: My Troopz")
    with pytest.raises(RosterFileError) as caught:
        LIBRARY.read_roster(text, "brigade.yaml")
    assert any("unknown unit 'My Troopz' (did you mean 'My Troops'?)" in str(e)
               for e in caught.value.errors)


def test_pack_text_is_held_to_the_data_limits_and_the_roster_to_three_packs() -> None:
    bomb = "a: &a [" + ", ".join(["x"] * 50) + "]\n" + "".join(
        f"l{i}: &l{i} [" + ", ".join([f"*{'a' if i == 0 else f'l{i - 1}'}"] * 20) + "]\n"
        for i in range(6))
    block = "".join(f"    {row}\n" for row in bomb.splitlines())
    text = ("format: 1\nsystem: actionhammer\nname: Bomb\nfactions: [Cobalt Brigade]\n"
            f"packs:\n- name: House Brigade\n  text: |\n{block}")
    with pytest.raises(RosterFileError) as caught:
        LIBRARY.read_roster(text, "bomb.yaml")
    assert "packs[0].text: the pack 'House Brigade' does not load" in str(caught.value)
    four = brigade_roster().replace("packs:\n", "packs:\n" + "- {name: X, text: 'a: 1'}\n" * 3)
    with pytest.raises(RosterFileError) as caught:
        LIBRARY.read_roster(four, "four.yaml")
    assert "packs" in str(caught.value) and "3" in str(caught.value)


@pytest.mark.print
def test_the_command_line_validates_prints_and_resolves_a_roster_with_a_pack(
        tmp_path: Path) -> None:
    roster = tmp_path / "brigade.yaml"
    roster.write_text(brigade_roster(), encoding="utf-8")
    runner = CliRunner()
    checked = runner.invoke(main, ["validate", str(roster), "--json"])
    assert checked.exit_code == 0, checked.output
    entries = json.loads(checked.output)["entries"]
    assert [e["unit"] for e in entries][:2] == ["My Troops", "My Leader"]
    out = tmp_path / "cards.pdf"
    printed = runner.invoke(main, ["print", str(roster), "-o", str(out)])
    assert printed.exit_code == 0, printed.output
    with pdfplumber.open(out) as pdf:
        words = " ".join(page.extract_text() or "" for page in pdf.pages)
    assert "My Troops" in words and "Rifle" in words and "Heavy Armour" in words
    resolved = runner.invoke(main, ["resolve", "actionhammer", "--roster", str(roster),
                                    "--attacker", "My Troops", "--defender", "Line Troopers",
                                    "--json"])
    assert resolved.exit_code == 0, resolved.output
    answer = json.loads(resolved.output)
    # the roster's joined Leader goes with his unit
    assert answer["attacker"] == "5x My Troops + My Leader" and answer["summary"]


def test_the_command_line_looks_the_defender_up_in_the_opponents_roster_and_its_packs(
        tmp_path: Path) -> None:
    """`resolve --against`: the target comes from the other player's file, which carries a
    pack the attacker's roster has not got."""
    theirs = tmp_path / "brigade.yaml"
    theirs.write_text(brigade_roster(), encoding="utf-8")
    mine = tmp_path / "line.yaml"
    mine.write_text(dump_roster(Roster(system="actionhammer", name="Line", points_limit=1000,
                                       factions=("Cobalt Brigade",),
                                       entries=(RosterEntry(unit="Line Troopers", count=10),)),
                                AH, LIBRARY.catalog(AH)), encoding="utf-8")
    runner = CliRunner()
    args = ["resolve", "actionhammer", "--roster", str(mine), "--attacker", "Line Troopers",
            "--defender", "troops", "--json"]
    alone = runner.invoke(main, args)
    assert alone.exit_code != 0 and "troops" in alone.output  # not in the attacker's roster
    resolved = runner.invoke(main, [*args, "--against", str(theirs)])
    assert resolved.exit_code == 0, resolved.output
    answer = json.loads(resolved.output)
    # the label names the opponent's entry, his Leader joined to it
    assert answer["attacker"] == "10x Line Troopers"
    assert answer["defender"] == "5x My Troops + My Leader"
    attacking, defending = (LIBRARY.read_roster_file(mine), LIBRARY.read_roster_file(theirs))
    expected = quick_resolve(AH, attacking.catalog,
                             find_side(AH, attacking.catalog, "Line Troopers", attacking.roster),
                             find_side(AH, defending.catalog, "troops", defending.roster))
    assert answer["summary"] == expected.summary
