"""Roster files: round trip, line-numbered errors, data changes, the JSON Schema."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from listbuilder.engine.catalog import BUILTIN_DATA
from listbuilder.engine.library import Library
from listbuilder.engine.registry import system_ids
from listbuilder.engine.roster_file import (
    RosterFileError,
    data_changes,
    dump_roster,
    roster_json_schema,
)

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*/*.yaml"))


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


def test_unknown_system_and_format(library: Library) -> None:
    (error,) = errors_of(library, "format: 1\nsystem: warstuf\nname: T\n")
    assert "unknown system 'warstuf' (did you mean 'warstuff'?)" in error
    (error,) = errors_of(library, "format: 2\nsystem: warstuff\nname: T\n")
    assert error.startswith("mine.yaml:1: format:")


def test_not_a_mapping(library: Library) -> None:
    (error,) = errors_of(library, "- just\n- a list\n")
    assert "a roster is a mapping" in error


def test_opened_after_data_changed_says_what_changed(tmp_path: Path) -> None:
    shutil.copytree(BUILTIN_DATA / "warstuff", tmp_path / "data" / "warstuff")
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
