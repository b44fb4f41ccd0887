"""The shared quick-resolve pieces: names and sides, situation options, results as JSON, the
SVG chart, and the `listbuilder resolve` command."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from listbuilder.commands.cli import main
from listbuilder.engine.chart import chart_svg, chart_text
from listbuilder.engine.library import Library
from listbuilder.engine.registry import all_systems, get_system
from listbuilder.engine.resolve import (
    Option,
    ResolveError,
    Side,
    SituationError,
    find_side,
    parse_settings,
    parse_side_text,
    parse_situation,
    percent,
    quick_resolve,
    resolve_names,
    side_from_entry,
    situation_options,
)
from listbuilder.engine.system import RuleSystem
from listbuilder.systems.warstuff.model import WarStuffUnit

SVG = "{http://www.w3.org/2000/svg}"
# A typical pair for each system, as a player would name them on the command line.
PAIRS = {
    "hammerwars": ("Ranged Heavy", "Assault Hero"),
    "op40k": ("Guardsmen", "Ork Boyz"),
    "warstuff": ("Knight (Medieval)", "Orc Warrior"),
    "actionhammer": ("10x Line Troopers", "3x Brute Crushers"),
    "spaceempires": ("Warboss + 2x Goffs Ork Boyz", "Tactical Marines + Imperial Troops"),
}


def cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


# -- sides ---------------------------------------------------------------------------------

def test_side_text_counts_and_joins() -> None:
    assert parse_side_text("2x Goffs Ork Boyz + Warboss") == [(2, "Goffs Ork Boyz"),
                                                             (None, "Warboss")]
    assert parse_side_text("10 Guardsmen") == [(10, "Guardsmen")]
    assert parse_side_text("T-34") == [(None, "T-34")]
    # a pasted line break stays inside the name (found by benchmarks/fuzz.py: it was a 500)
    assert parse_side_text("2x Ork\nBoyz + c]t\x0cU") == [(2, "Ork\nBoyz"), (None, "c]t\x0cU")]
    with pytest.raises(ResolveError, match="empty part"):
        parse_side_text("Warboss + ")
    with pytest.raises(ResolveError, match="1 to 1000"):
        parse_side_text("0x Warboss")


def test_unknown_and_ambiguous_names_say_what_to_write(library: Library) -> None:
    system = get_system("warstuff")
    catalog = library.catalog(system)
    with pytest.raises(ResolveError, match=r"did you mean 'Human Warrior'\?"):
        find_side(system, catalog, "Humen Warrior")
    assert find_side(system, catalog, "knight (medieval)").unit.faction == "Medieval"


def test_a_name_in_several_factions(library: Library) -> None:
    """The same profile in several factions is used as it is; different profiles are refused
    with every qualified name to write, and each of those names works."""
    ws = get_system("warstuff")
    catalog = library.catalog(ws)
    knights = catalog.units_named("Knight")
    assert sorted(u.faction or "" for u in knights) == ["Fantasy", "Medieval"]
    side = find_side(ws, catalog, "Knight")
    assert side.unit.name == "Knight" and side.unit.quality == knights[0].quality
    assert find_side(ws, catalog, "knight (medieval)").unit.faction == "Medieval"

    # the same two Knights once the Medieval one is a better fighter: now the name must say
    better = tuple(replace(u, quality=3) if u.faction == "Medieval" else u
                   for u in catalog.units)
    changed = replace(catalog, units=better)
    with pytest.raises(ResolveError) as refused:
        find_side(ws, changed, "Knight")
    assert str(refused.value) == ("'Knight' is in Fantasy and Medieval with different profiles: "
                                  "write 'Knight (Fantasy)' or 'Knight (Medieval)'")
    for written in re.findall(r"'(Knight \(\w+\))'", str(refused.value)):
        assert find_side(ws, changed, written).unit.name == "Knight"

    se = get_system("spaceempires")
    with pytest.raises(ResolveError, match=r"'Dreadnaughts' is in Eldar and Imperial with "
                                           r"different profiles: write 'Dreadnaughts \(Eldar\)' "
                                           r"or 'Dreadnaughts \(Imperial\)'"):
        find_side(se, library.catalog(se), "Dreadnaughts")


def test_catalog_counts_default_to_the_printed_size(library: Library) -> None:
    op = get_system("op40k")
    assert find_side(op, library.catalog(op), "Ork Boyz").count == 15
    ah = get_system("actionhammer")
    assert find_side(ah, library.catalog(ah), "Line Troopers").count == 5  # the fewest models


def test_roster_entries_bring_count_upgrades_and_joined_leaders(library: Library,
                                                                read) -> None:
    loaded = read((Path(__file__).parents[2] / "examples/actionhammer/legal.yaml").read_text())
    side = find_side(loaded.system, loaded.catalog, "first-line", loaded.roster)
    assert side.label == "10x Line Troopers + Brigade Captain"
    assert side.members[0].upgrades == ("Frag Grenades", "Vox Caster")
    by_unit = find_side(loaded.system, loaded.catalog, "4x line troopers", loaded.roster)
    assert by_unit.count == 4 and len(by_unit.members) == 2
    first = side_from_entry(loaded.system, loaded.catalog, loaded.roster, 0)
    assert first == side
    from_catalog = find_side(loaded.system, loaded.catalog, "Reaver Mob", loaded.roster)
    assert from_catalog.count == 6
    with pytest.raises(ResolveError, match="in the roster or the catalog"):
        find_side(loaded.system, loaded.catalog, "Nobody", loaded.roster)


# -- options -------------------------------------------------------------------------------

OPTIONS = (
    Option.flag("cover", "Target in cover", "help"),
    Option.number("lives", "Lives", 1, 3, 3, "help"),
    Option.pick("stance", "Stance", ["Regular", "Attacking"], "Regular", "help"),
)


def test_options_are_plain_data_for_a_form() -> None:
    cover, lives, stance = OPTIONS
    assert (cover.kind, cover.choices, cover.default) == ("bool", ("yes", "no"), False)
    assert (lives.kind, lives.choices, lives.default) == ("int", ("1", "2", "3"), 3)
    assert (stance.kind, stance.choices) == ("choice", ("Regular", "Attacking"))
    assert parse_situation(OPTIONS, {}) == {"cover": False, "lives": 3, "stance": "Regular"}
    assert json.loads(json.dumps(lives.to_json())) == {
        "key": "lives", "label": "Lives", "kind": "int", "default": 3, "help": "help",
        "choices": ["1", "2", "3"]}
    assert parse_situation(OPTIONS, {"cover": "on", "lives": "2", "stance": "attacking"}) == {
        "cover": True, "lives": 2, "stance": "Attacking"}
    assert parse_situation(OPTIONS, {"cover": True, "lives": 1}) == {
        "cover": True, "lives": 1, "stance": "Regular"}


def test_bad_settings_name_the_keys_and_values_allowed() -> None:
    with pytest.raises(SituationError) as caught:
        parse_situation(OPTIONS, {"cvoer": "yes", "lives": "7", "stance": "Atacking",
                                  "cover": "maybe"})
    problems = caught.value.problems
    assert len(problems) == 4
    assert "unknown setting 'cvoer' (did you mean 'cover'?); settings here: cover, lives, " \
           "stance" in problems
    assert "lives: '7' is not allowed; use 1 to 3" in problems
    assert ("stance: 'Atacking' is not allowed (did you mean 'Attacking'?); use Regular, "
            "Attacking") in problems
    assert "cover: 'maybe' is not allowed; use yes or no" in problems
    with pytest.raises(SituationError, match="key=value"):
        parse_settings(["cover"])
    assert parse_settings(["cover = yes", "lives=2"]) == {"cover": "yes", "lives": "2"}


def test_percentages_as_players_read_them() -> None:
    assert [percent(p) for p in (Fraction(0), Fraction(1, 1000), Fraction(61, 100),
                                 Fraction(999, 1000), Fraction(1))] == [
        "0%", "<1%", "61%", ">99%", "100%"]


# -- every system, one call each ------------------------------------------------------------

@pytest.mark.parametrize("system_id", list(PAIRS))
def test_each_system_answers_in_one_call(library: Library, system_id: str) -> None:
    system = get_system(system_id)
    catalog = library.catalog(system)
    attacker, defender = PAIRS[system_id]
    assert system.resolver() is not None
    options = situation_options(system, catalog, find_side(system, catalog, attacker),
                                find_side(system, catalog, defender))
    assert options and all(o.key and o.label and o.help and o.choices for o in options)
    result = resolve_names(system, catalog, attacker, defender)
    assert sum(p for _, p in result.outcome.dist.items()) == 1
    assert result.summary and "%" in result.summary
    assert [label for label, _ in result.situation] == [o.label for o in options]
    data = json.loads(json.dumps(result.to_json()))
    assert data["outcome"]["values"][0]["at_least"] == pytest.approx(1.0)
    assert abs(sum(v["p"] for v in data["outcome"]["values"]) - 1) < 1e-12


def test_systems_without_a_resolver_say_so(library: Library) -> None:
    class Plain(RuleSystem):
        id = "plain"
        name = "Plain"

    catalog = library.catalog("hammerwars")
    side = Side.of(catalog.units[0])
    with pytest.raises(ResolveError, match="Plain has no quick-resolve"):
        quick_resolve(Plain(), catalog, side, side)


# -- the chart -----------------------------------------------------------------------------

def test_svg_chart_has_a_bar_and_a_point_per_value_and_reads_without_script(
        library: Library) -> None:
    result = resolve_names(get_system("hammerwars"), library.catalog("hammerwars"),
                           "Ranged Heavy", "Assault Hero")
    svg = chart_svg(result)
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg" and root.get("role") == "img"
    assert root.find(f"{SVG}title").text.endswith("30% to kill")  # type: ignore[union-attr]
    bars = root.findall(f"{SVG}rect")[:-1]  # the last rect is the legend's
    assert len(bars) == 4
    assert len(root.findall(f"{SVG}circle")) == 4
    assert "<script" not in svg and "on" + "click" not in svg
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "chance of at least this" in texts and "44%" in texts  # 12/27 shown on its bar


def test_svg_chart_escapes_every_name(library: Library) -> None:
    system = get_system("warstuff")
    catalog = library.catalog(system)
    evil = WarStuffUnit(name='<script>alert("x")</script> & Co', quality=3, pts=30)
    result = quick_resolve(system, catalog, Side.of(evil), find_side(system, catalog, "Bane"))
    svg = chart_svg(result)
    ET.fromstring(svg)  # still well-formed
    assert "<script>" not in svg and "&lt;script&gt;" in svg and "&amp; Co" in svg


def test_long_distributions_show_the_values_that_matter(library: Library) -> None:
    system = get_system("actionhammer")
    catalog = library.catalog(system)
    result = resolve_names(system, catalog, "12x Reaver Mob", "Strider Walker",
                           {"weapon": "all melee", "charged": "yes"})
    svg = chart_svg(result)
    ET.fromstring(svg)
    assert len(ET.fromstring(svg).findall(f"{SVG}circle")) <= result.outcome.values().stop
    text = chart_text(result)
    assert "Wounds dealt" in text and text.endswith(result.summary)


# -- the command ---------------------------------------------------------------------------

@pytest.mark.parametrize("system_id", list(PAIRS))
def test_every_system_resolves_from_the_command_line(system_id: str) -> None:
    attacker, defender = PAIRS[system_id]
    code, out, err = cli("resolve", system_id, "--attacker", attacker, "--defender", defender)
    assert code == 0, err
    assert "exactly  at least" in out and "mean" in out and "%" in out.splitlines()[-1]
    code, out, err = cli("resolve", system_id, "--attacker", attacker, "--defender", defender,
                         "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["system"] == system_id and data["outcome"]["values"]
    assert isinstance(data["outcome"]["mean"], float)


def test_command_settings_and_exact_numbers() -> None:
    code, out, _ = cli("resolve", "hammerwars", "--attacker", "Ranged Heavy", "--defender",
                       "Assault Hero", "--set", "cover=yes", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["summary"] == "12% to kill"
    assert data["outcome"]["p_kill_exact"] == "1/8" and data["outcome"]["mean_exact"] == "3/2"
    assert {"label": "Target in cover", "value": "yes"} in data["situation"]


def test_command_errors_suggest_and_list() -> None:
    code, _, err = cli("resolve", "hammerwars", "--attacker", "Ranged Hevy", "--defender",
                       "Assault Hero")
    assert code == 2 and "did you mean 'Ranged Heavy'?" in err
    code, _, err = cli("resolve", "hammerwars", "--attacker", "Ranged Heavy", "--defender",
                       "Assault Hero", "--set", "cvoer=yes", "--set", "lives=9")
    assert code == 2
    assert "unknown setting 'cvoer' (did you mean 'cover'?)" in err
    assert "lives: '9' is not allowed; use 1 to 3" in err
    assert "Traceback" not in err
    code, _, err = cli("resolve", "hammerwar", "--attacker", "x", "--defender", "y")
    assert code == 2 and "unknown system" in err


def test_command_lists_the_options() -> None:
    code, out, _ = cli("resolve", "op40k", "--attacker", "Leman Russ", "--defender", "Trukk",
                       "--options")
    assert code == 0
    assert "facing=front  (front, side, rear)" in out
    assert "weapons=2  (1 to 2)" in out


def test_command_reads_names_from_a_roster(tmp_path: Path) -> None:
    roster = tmp_path / "warband.yaml"
    roster.write_text("format: 1\nsystem: warstuff\nname: Test\npoints_limit: 150\n"
                      "designs:\n  - {name: Ranger Captain, quality: 3, rules: [Shooter (Long)]}\n"
                      "entries:\n  - {unit: Ranger Captain}\n  - {unit: Human Warrior, count: 2}\n")
    code, out, err = cli("resolve", "warstuff", "--roster", str(roster), "--attacker",
                         "Ranger Captain", "--defender", "Human Warrior", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["attacker"] == "Ranger Captain"
    assert data["situation"][0] == {"label": "Attack", "value": "shooting"}
    code, _, err = cli("resolve", "op40k", "--roster", str(roster), "--attacker", "a",
                       "--defender", "b")
    assert code == 2 and "a WarStuff roster" in err


def test_all_registered_systems_resolve() -> None:
    assert {s.id for s in all_systems() if s.resolver() is not None} == set(PAIRS)
