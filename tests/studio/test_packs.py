"""Faction packs read as the data loader reads a player's own files: same limits, same words
(file, line, key and fix), built on top of the built-in data and never in its place."""

from __future__ import annotations

import pytest

from listbuilder.engine import packs as packs_module
from listbuilder.engine.catalog import Loaded
from listbuilder.engine.errors import DataLoadError
from listbuilder.engine.library import Library
from listbuilder.engine.packs import Pack, check_pack, pack_file_name, pack_revision, with_packs
from listbuilder.engine.registry import all_systems, get_system

LIBRARY = Library()


def base(system_id: str) -> Loaded:
    return LIBRARY.loaded(system_id)


@pytest.mark.parametrize("system", all_systems(), ids=lambda s: s.id)
def test_every_game_has_a_starter_pack_that_checks_and_adds_units(system: object) -> None:
    system = get_system(system.id)  # type: ignore[attr-defined]
    pack = Pack(system.id, "House Pack", system.pack_starter())
    check = check_pack(system, base(system.id), pack)
    assert check.ok, check.errors
    assert check.units(pack.file), "the starter adds at least one unit"
    assert all(u.origin.custom and u.origin.file == "house-pack.yaml"
               for u in check.units(pack.file))
    # the built-in units are still there, untouched
    builtin = base(system.id).catalog
    assert {u.name for u in builtin.units} <= {u.name for u in check.loaded.catalog.units}  # type: ignore[union-attr]


def test_a_broken_pack_names_its_file_line_key_and_the_fix() -> None:
    system = get_system("actionhammer")
    text = system.pack_starter().replace("    save: 5\n", "    saves: 5\n")
    check = check_pack(system, base("actionhammer"), Pack("actionhammer", "House Orks", text))
    assert not check.ok
    said = [str(e) for e in check.errors]
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "saves: 5" in row)
    assert f"house-orks.yaml:{line}: datasheets[1].saves: unknown key: remove it or check " \
           f"its spelling" in said
    assert any(s.startswith("house-orks.yaml:") and "datasheets[1].save" in s
               and "missing" in s for s in said)


def test_a_pack_naming_a_rule_the_game_lacks_is_refused_with_the_nearest_name() -> None:
    system = get_system("warstuff")
    text = system.pack_starter().replace("Shooter (Long)", "Shooter (Lung)")
    check = check_pack(system, base("warstuff"), Pack("warstuff", "Mine", text))
    assert not check.ok
    assert any("Shooter (Lung)" in str(e) and "mine.yaml:" in str(e) for e in check.errors)


def test_a_pack_that_adds_nothing_says_what_to_add() -> None:
    system = get_system("op40k")
    check = check_pack(system, base("op40k"), Pack("op40k", "Empty", "# nothing yet\n"))
    assert [str(e) for e in check.errors] == [
        "empty.yaml: (top): the pack adds nothing yet: add a faction and a unit"]


def test_hostile_packs_are_refused_by_the_data_limits_before_anything_is_built() -> None:
    system = get_system("spaceempires")
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
        f"*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
        for i in range(8))
    deep = "units: " + "[" * 200 + "]" * 200 + "\n"
    for text in (bomb, deep, "factions: !!python/object:os.system {}\n"):
        check = check_pack(system, base("spaceempires"), Pack("spaceempires", "Bad", text))
        assert not check.ok and all(e.file == "bad.yaml" for e in check.errors)


def test_packs_are_built_on_top_once_and_refused_with_their_lines_when_they_do_not_fit() -> None:
    system = get_system("spaceempires")
    pack = Pack("spaceempires", "Void Kin", system.pack_starter())
    loaded = with_packs(system, base("spaceempires"), [pack])
    assert loaded.catalog.find_unit("My Fleet") is not None
    assert with_packs(system, base("spaceempires"), [pack]) is loaded  # built once
    assert loaded.catalog.revision != base("spaceempires").catalog.revision
    clash = Pack("spaceempires", "Copy", system.pack_starter())  # the same faction again
    with pytest.raises(DataLoadError) as caught:
        with_packs(system, base("spaceempires"), [pack, clash])
    assert any(e.file == "copy.yaml" and e.line for e in caught.value.errors)


def test_the_packs_built_are_bounded() -> None:
    system = get_system("spaceempires")
    for i in range(packs_module._BUILT_KEPT + 5):
        text = system.pack_starter().replace("My Faction", f"Faction {i}")
        with_packs(system, base("spaceempires"), [Pack("spaceempires", f"P{i}", text)])
    assert len(packs_module._BUILT) <= packs_module._BUILT_KEPT


def test_names_and_revisions() -> None:
    assert pack_file_name("House Orks!") == "house-orks.yaml"
    assert pack_file_name("***") == "pack.yaml"
    assert pack_revision("a") == pack_revision("a") != pack_revision("b")
    assert len(pack_revision("a")) == 12


def test_a_pack_with_thousands_of_problems_lists_the_first_fifty() -> None:
    # 128 KB can hold 64,000 wrong values: each described with its line was 7 MB of words
    system = get_system("op40k")
    text = ("units:\n  - {name: U, faction: Orks, size: 5, quality: 4, pts_per_model: 5, "
            "upgrades: [" + ",".join(["1"] * 60_000) + "]}\n")
    check = check_pack(system, base("op40k"), Pack("op40k", "Many", text))
    assert len(check.errors) == 51
    assert str(check.errors[0]).startswith("many.yaml:2: units[0].upgrades[0]: ")
    assert str(check.errors[-1]) == ("many.yaml: (top): and 59,950 more problems like these: "
                                     "fix the ones above and check again")
    # the page's heading does not count the line that counts the rest as a problem
    from listbuilder.web.studio.views import CheckView

    assert CheckView(check.errors).heading == "More than 50 problems to fix"
    assert CheckView(check.errors[:3]).heading == "3 problems to fix"
