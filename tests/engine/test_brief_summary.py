"""The builder's summary strip shows a system's summary in brief where its lines are long
(`RuleSystem.brief`): the same figures, fewer words. The Totals card keeps the full lines."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from listbuilder.engine.library import Library
from listbuilder.engine.report import report
from listbuilder.engine.system import Totals

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(p for p in (ROOT / "examples").glob("*/*.yaml") if p.name != "match.yaml")


def totals_of(library: Library, path: Path) -> Totals:
    loaded = library.read_roster_file(path)
    return report(loaded.system, loaded.catalog, loaded.roster).totals


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_brief_tells_the_full_lines_figures(library: Library, path: Path) -> None:
    totals = totals_of(library, path)
    assert totals.strip == (totals.brief or totals.lines)
    full = " ".join(f"{label} {value}" for label, value in totals.lines)
    for label, value in totals.brief:
        for number in re.findall(r"\d+", value):
            assert re.search(rf"\b{number}\b", full), (label, value, full)


def test_space_empires_limits_as_fractions(library: Library) -> None:
    totals = totals_of(library, ROOT / "examples" / "spaceempires" / "legal-big-empire.yaml")
    assert dict(totals.lines)["Spent"] == "17 of 18 (revenue 14 + treasury 4); 1 left"
    assert totals.headline == "17 of 18 revenue spent"  # first in the strip
    assert totals.strip == (("Recruits", "5/14"), ("Space", "1/11"), ("Units", "25/70"))


def test_hammer_wars_deploy_costs_in_one_line(library: Library) -> None:
    totals = totals_of(library, ROOT / "examples" / "hammerwars" / "legal.yaml")
    assert totals.lines[-2:] == (("Pts to deploy all", "31"), ("XP to deploy all", "5"))
    assert totals.strip == (*totals.lines[:-2], ("Deploy all", "31 pts · 5 XP"))


def test_other_systems_show_their_lines_as_they_are(library: Library) -> None:
    totals = totals_of(library, ROOT / "examples" / "op40k" / "legal.yaml")
    assert not totals.brief and totals.strip == totals.lines == (
        ("Units", "5"), ("Models", "45"), ("Vehicles", "2"))
