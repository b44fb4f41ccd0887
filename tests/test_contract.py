"""Each built-in system keeps the contract an outside game keeps (listbuilder.testing), with
its legal example roster. The test game of tests/plugin_game passes the same checks from an
installed wheel (tests/test_wheel.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from listbuilder.engine.library import Library
from listbuilder.engine.registry import all_systems, get_system, problems
from listbuilder.engine.system import RuleSystem
from listbuilder.testing import check_system

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.print
@pytest.mark.parametrize("system", all_systems(), ids=lambda s: s.id)
def test_each_system_keeps_the_contract(system: RuleSystem, library: Library) -> None:
    check_system(system, (ROOT / "examples" / system.id / "legal.yaml").read_text(), library)


def test_the_five_are_found_through_entry_points_in_their_order() -> None:
    assert [s.id for s in all_systems()] == [
        "hammerwars", "op40k", "warstuff", "actionhammer", "spaceempires"]
    assert problems() == ()


def test_the_contract_names_what_is_wrong(library: Library) -> None:
    op40k = get_system("op40k")
    illegal = (ROOT / "examples" / "op40k" / "illegal.yaml").read_text()
    with pytest.raises(AssertionError, match="should be legal"):
        check_system(op40k, illegal, library)


def test_the_registry_names_no_system() -> None:
    source = (ROOT / "listbuilder" / "engine" / "registry.py").read_text()
    assert "listbuilder.systems." not in source and "import listbuilder.systems" not in source


def test_the_built_in_systems_share_one_layout() -> None:
    # the same module names for the same jobs (docs/adding-a-system.md); limits.py holds a
    # system's own roster checks where they need a module of their own
    layout = {"__init__.py", "schema.py", "model.py", "build.py", "cards.py", "resolve.py"}
    for system in all_systems():
        folder = system.data_folder().parent
        assert layout <= {p.name for p in folder.iterdir()}, system.id
        assert {"data", "templates"} <= {p.name for p in folder.iterdir() if p.is_dir()}
