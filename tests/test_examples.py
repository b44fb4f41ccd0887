"""Every roster under examples/ states the rule ids it breaks on a `# expect:` line."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from listbuilder.engine.library import Library
from listbuilder.engine.registry import system_ids
from listbuilder.engine.report import report

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
FILES = sorted(p for p in EXAMPLES.glob("*/*.yaml") if p.name != "match.yaml")


def expected(path: Path) -> list[str]:
    for line in path.read_text().splitlines():
        if line.startswith("# expect:"):
            return sorted(yaml.safe_load(line.removeprefix("# expect:")))
    raise AssertionError(f"{path} has no '# expect: [...]' line")


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_example_breaks_exactly_the_rules_it_states(library: Library, path: Path) -> None:
    loaded = library.read_roster(path.read_text(), str(path))
    assert loaded.system.id == path.parent.name
    found = sorted({v.rule for v in
                    report(loaded.system, loaded.catalog, loaded.roster).violations})
    assert found == expected(path)


@pytest.mark.parametrize("system", system_ids())
def test_each_system_has_a_legal_and_an_illegal_example(library: Library, system: str) -> None:
    kinds = set()
    for path in (p for p in EXAMPLES.glob(f"{system}/*.yaml") if p.name != "match.yaml"):
        loaded = library.read_roster(path.read_text(), str(path))
        found = report(loaded.system, loaded.catalog, loaded.roster).violations
        kinds.add("illegal" if any(v.severity == "error" for v in found) else "legal")
    assert kinds == {"legal", "illegal"}
