"""Loading data: errors name file, line and key path; custom data sits beside the built-in."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from listbuilder.engine.catalog import DataLoadError, load_catalog
from listbuilder.engine.registry import all_systems, get_system

WARSTUFF = get_system("warstuff")


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """A private copy of the WarStuff data to break."""
    shutil.copytree(get_system("warstuff").data_folder(), tmp_path / "data" / "warstuff")
    return tmp_path / "data"


@pytest.fixture
def empty(tmp_path: Path) -> Path:
    folder = tmp_path / "custom"
    folder.mkdir()
    return folder


def replace_in(path: Path, old: str, new: str) -> int:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    return text[: text.index(old)].count("\n") + 1


@pytest.mark.parametrize("system", all_systems(), ids=lambda s: s.id)
def test_every_builtin_system_loads(system, empty: Path) -> None:
    loaded = load_catalog(system, custom_dir=empty)
    assert loaded.catalog.units and not loaded.problems
    assert len(loaded.catalog.revision) == 12


def test_out_of_range_value_names_file_line_and_key(data: Path, empty: Path) -> None:
    path = data / "warstuff" / "genres" / "01-fantasy.yaml"
    line = replace_in(path, "name: Knight, genre: Fantasy, printed_pts: 30, quality: 2",
                      "name: Knight, genre: Fantasy, printed_pts: 30, quality: 7")
    with pytest.raises(DataLoadError) as info:
        load_catalog(WARSTUFF, builtin_dir=data, custom_dir=empty)
    assert str(info.value) == f"{path}:{line}: units[2].quality: must be 1 to 5, got 7"


def test_every_problem_is_reported_at_once(data: Path, empty: Path) -> None:
    path = data / "warstuff" / "genres" / "01-fantasy.yaml"
    replace_in(path, "quality: 2", "quality: 9")
    replace_in(path, "printed_pts: 35", "printed_pts: lots")
    replace_in(path, "rules: [Fast]", "rules: [Fast], colour: red")
    with pytest.raises(DataLoadError) as info:
        load_catalog(WARSTUFF, builtin_dir=data, custom_dir=empty)
    messages = [f"{e.loc}: {e.message}" for e in info.value.errors]
    assert len(messages) == 3
    assert any("unknown key" in m and "colour" in m for m in messages)
    assert any("printed_pts" in m and "'lots'" in m for m in messages)


def test_broken_yaml_gives_its_line(data: Path, empty: Path) -> None:
    path = data / "warstuff" / "system.yaml"
    line = replace_in(path, "  - {name: Fast, cost: 10,", "  - {name: Fast, cost: [10,")
    with pytest.raises(DataLoadError) as info:
        load_catalog(WARSTUFF, builtin_dir=data, custom_dir=empty)
    error = info.value.errors[0]
    assert error.file == str(path) and "not valid YAML" in error.message
    assert error.line is not None and abs(error.line - line) <= 1


def test_dangling_rule_name_is_located(data: Path, empty: Path) -> None:
    path = data / "warstuff" / "genres" / "12-dinosaurs.yaml"
    line = replace_in(path, "rules: [Flying]", "rules: [Flyng]")
    with pytest.raises(DataLoadError) as info:
        load_catalog(WARSTUFF, builtin_dir=data, custom_dir=empty)
    assert str(info.value) == f"{path}:{line}: units[0].rules[0]: unknown special rule 'Flyng'"


CUSTOM = """\
genres:
  - name: Pirates
    text: Our own pirate crew.
units:
  - {name: Buccaneer, genre: Pirates, quality: 2, rules: [Shooter (Short), Hit & Run]}
"""


def test_custom_data_is_loaded_beside_builtin_and_marked(tmp_path: Path) -> None:
    (tmp_path / "warstuff").mkdir()
    (tmp_path / "warstuff" / "pirates.yaml").write_text(CUSTOM)
    loaded = load_catalog(WARSTUFF, custom_dir=tmp_path)
    unit = loaded.catalog.find_unit("Buccaneer")
    assert unit is not None and unit.origin.custom and unit.origin.file.endswith("pirates.yaml")
    assert len(loaded.catalog.units) == 99
    assert not loaded.catalog.find_unit("Troll").origin.custom  # type: ignore[union-attr]


def test_broken_custom_file_is_reported_and_builtin_still_loads(tmp_path: Path) -> None:
    folder = tmp_path / "warstuff"
    folder.mkdir()
    (folder / "good.yaml").write_text(CUSTOM)
    (folder / "bad.yaml").write_text(CUSTOM.replace("Pirates", "Ninjas").replace(
        "Buccaneer, genre: Ninjas, quality: 2", "Shadow, genre: Ninjas, quality: 8"))
    (folder / "clash.yaml").write_text("units:\n  - {name: Troll, genre: Animals & Monsters, "
                                       "quality: 4}\n")
    loaded = load_catalog(WARSTUFF, custom_dir=tmp_path)
    assert loaded.catalog.find_unit("Buccaneer") is not None
    assert loaded.catalog.find_unit("Shadow") is None
    problems = sorted(str(p) for p in loaded.problems)
    assert len(problems) == 2
    assert problems[0].endswith("bad.yaml:5: units[0].quality: must be 1 to 5, got 8")
    assert problems[1].endswith("clash.yaml:2: units[0].name: 'Troll (Animals & Monsters)' is "
                                "defined twice (also in listbuilder/systems/warstuff/data/genres/"
                                "02-animals-monsters.yaml): keep one")


def test_revision_follows_the_data(data: Path, empty: Path) -> None:
    before = load_catalog(WARSTUFF, builtin_dir=data, custom_dir=empty).catalog.revision
    replace_in(data / "warstuff" / "system.yaml", "{name: Fast, cost: 10", "{name: Fast, cost: 15")
    after = load_catalog(WARSTUFF, builtin_dir=data, custom_dir=empty).catalog.revision
    assert before != after


def test_unknown_system_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown system 'chess'"):
        get_system("chess")


def test_unit_lookups_answer_alike_each_time() -> None:
    """A catalog's lookups answer the same however often they are asked, faction by faction
    (a roster's report looks each entry's unit up once, so no lookup is remembered), and
    names from strangers' rosters find nothing."""
    catalog = load_catalog(get_system("spaceempires")).catalog
    shared = "Dreadnaughts"  # in several factions: ambiguous without one
    assert len(catalog.units_named(shared)) > 1
    for _ in range(2):  # asked again, answered alike
        assert catalog.find_unit(shared) is None
        assert catalog.find_unit(shared, ["Imperial"]).faction == "Imperial"  # type: ignore[union-attr]
        assert catalog.find_unit(shared, ("Eldar",)).faction == "Eldar"  # type: ignore[union-attr]
    for n in range(100):
        assert catalog.find_unit(f"No such unit {n}") is None
    assert catalog.find_unit(shared, ["Imperial"]).faction == "Imperial"  # type: ignore[union-attr]
