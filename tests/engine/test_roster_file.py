"""Roster files: round trip, line-numbered errors, data changes, the JSON Schema."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from listbuilder.engine.catalog import parse_yaml
from listbuilder.engine.library import Library
from listbuilder.engine.registry import get_system, system_ids
from listbuilder.engine.roster_file import (
    MAX_ROSTER_BYTES,
    RosterFileError,
    RosterModel,
    data_changes,
    dump_roster,
    dump_roster_data,
    roster_json_schema,
    roster_to_data,
    to_roster,
)
from listbuilder.engine.yaml_limits import ROSTER, check_limits

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(p for p in (ROOT / "examples").glob("*/*.yaml") if p.name != "match.yaml")


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_export_import_export_is_byte_identical(library: Library, path: Path) -> None:
    first = library.read_roster(path.read_text(), str(path))
    once = dump_roster(first.roster, first.system, first.catalog)
    again = library.read_roster(once, "exported.yaml")
    twice = dump_roster(again.roster, again.system, again.catalog)
    assert once == twice
    assert [(e.unit, e.count) for e in again.roster.entries] == [
        (e.unit, e.count) for e in first.roster.entries]
    assert again.roster.data_revision == first.catalog.revision


def errors_of(library: Library, text: str) -> list[str]:
    with pytest.raises(RosterFileError) as info:
        library.read_roster(text, "mine.yaml")
    return [str(e) for e in info.value.errors]


HEAD = "format: 1\nsystem: warstuff\nname: T\npoints_limit: 150\n"


def test_broken_yaml_names_the_line(library: Library) -> None:
    (error,) = errors_of(library, HEAD + "entries:\n  - unit: Troll\n   count: [2\n")
    assert error.startswith("mine.yaml:7: (top): not valid YAML")


def test_unknown_key_names_line_and_path(library: Library) -> None:
    (error,) = errors_of(library, HEAD + "entries:\n  - unit: Troll\n    cuont: 2\n")
    assert error == ("mine.yaml:7: entries[0].cuont: unknown key 'cuont' (did you mean 'count'?): "
                     "remove it or fix its spelling; an entry may hold unit, count, upgrades, "
                     "faction, label, joins (and pts)")


def test_unknown_unit_suggests_the_closest_name(library: Library) -> None:
    (error,) = errors_of(library, HEAD + "entries:\n  - unit: Troll\n  - unit: Dragn\n")
    assert error == "mine.yaml:7: entries[1].unit: unknown unit 'Dragn' (did you mean 'Dragon'?)"


def test_wrong_type_is_reported_with_its_line(library: Library) -> None:
    (error,) = errors_of(library, HEAD + "entries:\n  - unit: Troll\n    count: two\n")
    assert error == ("mine.yaml:7: entries[0].count: expected a whole number from 1 to 10,000, "
                     "found the text 'two': write `count: 10`")


def test_all_problems_at_once(library: Library) -> None:
    text = ("format: 1\nsystem: warstuff\nname: T\nfactions: [Fantsy]\nentries:\n"
            "  - unit: Trol\n  - unit: Dragon\n    joins: nobody\n")
    errors = errors_of(library, text)
    assert errors == [
        "mine.yaml:4: factions[0]: unknown faction 'Fantsy' (did you mean 'Fantasy'?)",
        "mine.yaml:6: entries[0].unit: unknown unit 'Trol' (did you mean 'Troll'?)",
        "mine.yaml:8: entries[1].joins: no entry has the label 'nobody': give the entry it "
        "joins `label: nobody`",
    ]


def test_a_file_the_schema_refuses_still_has_its_names_checked(library: Library) -> None:
    """Shape problems and unknown names in one list, in the file's order: fixing the one the
    reader named first does not uncover another on the next try."""
    text = ("format: 1\nsystem: op40k\nname: W\nfactions: [Orks, Orkz]\nentries:\n"
            "  - unit: Ork Boyz\n    count: lots\n  - unit: Ork Boyzz\n"
            "  - unit: Nobz\n    upgrades: [Boss Pole, 7]\n    cuont: 2\n"
            "  - unit: Nobz\n    upgrades: [Bos Pole]\n")
    errors = errors_of(library, text)
    assert errors[0] == "mine.yaml:4: factions[1]: unknown faction 'Orkz' (did you mean 'Orks'?)"
    assert errors[1].startswith("mine.yaml:7: entries[0].count: expected a whole number")
    assert errors[2] == ("mine.yaml:8: entries[1].unit: unknown unit 'Ork Boyzz' (did you mean "
                         "'Ork Boyz'?)")
    assert [e.split(": ")[1] for e in errors[3:]] == [
        "entries[2].upgrades[1]", "entries[2].cuont", "entries[3].upgrades[0]"]
    assert errors[5].startswith("mine.yaml:13: entries[3].upgrades[0]: Nobz has no upgrade "
                                "'Bos Pole'")
    # an entry read only in part is checked for its name alone, not for the keys it lost
    assert not any("entries[2].unit" in e for e in errors)


def test_a_broken_file_of_an_unknown_system_says_both(library: Library) -> None:
    errors = errors_of(library, "format: 1\nsystem: op40kk\nname: W\nentries: 3\n")
    assert [e.split(": ")[1] for e in errors] == ["system", "entries"]
    assert "unknown system 'op40kk' (did you mean 'op40k'?)" in errors[0]


def test_unknown_system_and_format(library: Library) -> None:
    (error,) = errors_of(library, "format: 1\nsystem: warstuf\nname: T\n")
    assert "unknown system 'warstuf' (did you mean 'warstuff'?)" in error
    (error,) = errors_of(library, "format: 2\nsystem: warstuff\nname: T\n")
    assert error.startswith("mine.yaml:1: format:")


def test_not_a_mapping(library: Library) -> None:
    (error,) = errors_of(library, "- just\n- a list\n")
    assert "a roster is a mapping" in error


def test_opened_after_data_changed_says_what_changed(tmp_path: Path) -> None:
    shutil.copytree(get_system("warstuff").data_folder(), tmp_path / "data" / "warstuff")
    empty = tmp_path / "empty"
    empty.mkdir()
    old = Library(custom_dir=empty)
    text = (ROOT / "examples" / "warstuff" / "legal.yaml").read_text()
    first = old.read_roster(text)
    saved = dump_roster(first.roster, first.system, first.catalog)
    assert "pts: 30" in saved  # the Knight, recorded

    fantasy = tmp_path / "data" / "warstuff" / "genres" / "01-fantasy.yaml"
    fantasy.write_text(fantasy.read_text().replace(
        "{name: Knight, genre: Fantasy, printed_pts: 30, quality: 2,",
        "{name: Knight, genre: Fantasy, printed_pts: 40, quality: 3,"))
    (tmp_path / "data" / "warstuff" / "genres" / "11-super-heroes.yaml").unlink()
    new = Library(builtin_dir=tmp_path / "data", custom_dir=empty)
    reopened = new.read_roster(saved)
    assert data_changes(reopened.roster, reopened.system, reopened.catalog) == [
        "Knight: 30 -> 40 pts"]
    same = old.read_roster(saved)
    assert data_changes(same.roster, same.system, same.catalog) == []


def test_json_schema_file_is_current() -> None:
    committed = json.loads((ROOT / "docs" / "roster.schema.json").read_text())
    assert committed == roster_json_schema(system_ids())
    assert committed["properties"]["system"]["enum"] == system_ids()
    assert committed["additionalProperties"] is False


# -- saving checks the data a file is written from (web/rosters.canonical) --------------------

NAMES = st.text(min_size=1, max_size=80).filter(lambda s: s.strip() == s and s != "")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=NAMES, units=st.lists(NAMES, max_size=4), upgrades=st.lists(NAMES, max_size=3),
       label=st.from_regex(r"\A[A-Za-z0-9_\-]{1,40}\Z"), goal=NAMES,
       numbers=st.lists(st.integers(0, 10) | st.integers(-(10**30 - 1), 10**30 - 1), min_size=2,
                        max_size=2))
def test_written_files_read_back_as_their_data(name: str, units: list[str],
                                               upgrades: list[str], label: str, goal: str,
                                               numbers: list[int]) -> None:
    """Saving checks `roster_to_data`'s data instead of reading the written file back, which
    is sound only if the file reads as exactly that data, whatever the names hold: YAML's own
    words, numbers, quotes, other scripts, control characters."""
    model = RosterModel.model_validate({
        "format": 1, "system": "warstuff", "name": name, "factions": units[:2],
        "choices": {"goal": goal, "seed": numbers[0]},
        "designs": [{"name": n, "quality": numbers[1], "rules": upgrades} for n in units],
        "entries": [{"unit": n, "count": 3, "upgrades": upgrades, "faction": name,
                     "label": label, "joins": label} for n in units]})
    system = get_system("warstuff")
    data = roster_to_data(to_roster(model), system, Library().catalog(system))
    try:  # the written costs too must fit the schema (a design of quality 10**20 costs more)
        RosterModel.model_validate(data)
    except ValidationError:
        assume(False)  # refused when saving (read_roster_data): never written
    text = dump_roster_data(data, system)
    assert parse_yaml(text, "written.yaml", ROSTER) == data


def test_the_largest_roster_is_within_the_limits() -> None:
    """Nor is the written file parsed to check the reading limits: every roster the schema
    accepts is within them. The largest the schema allows, every name at its longest, is
    written and checked (its size is the one limit left to check when saving)."""
    word, most = "W" * 80, 10**ROSTER.digits - 1
    data: dict[str, Any] = {
        "format": 1, "system": "warstuff", "data_revision": "r" * 64, "name": word,
        "points_limit": 1_000_000, "factions": [word] * 20,
        "choices": {f"choice {n}": "c" * ROSTER.text if n % 2 else -most for n in range(20)},
        "designs": [{"name": word, "quality": -most, "rules": [word] * 40}] * 200,
        "entries": [{"unit": word, "count": 10_000, "upgrades": [word] * 50, "faction": word,
                     "label": "L" * 40, "joins": "L" * 40, "pts": 1_000_000}] * 500}
    model = RosterModel.model_validate(data)
    for too_big in ({"choices": {"seed": most + 1}}, {"choices": {"goal": "g" * 5001}},
                    {"choices": {f"c{n}": 1 for n in range(21)}},
                    {"designs": [{"name": "D", "quality": -most - 1}]}):
        with pytest.raises(ValidationError):
            RosterModel.model_validate({**data, **too_big})
    text = yaml.dump(model.model_dump(), Dumper=yaml.SafeDumper, sort_keys=False, width=100)
    # so are the characters it holds, with aliases expanded: a file written out in full (the
    # writer writes no aliases) holds no more of them than it has bytes
    assert ROSTER.chars > MAX_ROSTER_BYTES
    check_limits(text, "largest.yaml", replace(ROSTER, chars=len(text)))
    values = sum(1 for e in yaml.parse(text, Loader=yaml.SafeLoader)
                 if isinstance(e, yaml.ScalarEvent | yaml.CollectionStartEvent))
    assert values <= ROSTER.nodes
