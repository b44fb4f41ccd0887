"""The roster as plain text for chats (`RosterReport.text`, listbuilder.engine.report)."""

from __future__ import annotations

from pathlib import Path

from listbuilder.engine.report import report

ROOT = Path(__file__).resolve().parents[2]


def text_of(read, path: str) -> str:  # type: ignore[no-untyped-def]
    loaded = read((ROOT / path).read_text(), path)
    return report(loaded.system, loaded.catalog, loaded.roster).text


def test_units_options_costs_and_totals(read) -> None:  # type: ignore[no-untyped-def]
    text = text_of(read, "examples/op40k/legal.yaml")
    lines = text.splitlines()
    assert lines[0] == "Waaagh! Vanguard (One Page 40k (1st edition))"
    assert lines[1] == "Orks | 500 pts game"
    assert any(line.startswith("- Ork Boyz (size 20): ") for line in lines)
    assert "  with Boss Nob, Rokkit Launcha" in lines
    assert "Total: 500/500 pts" in lines and "Legal" in lines
    assert text.endswith("\n")


def test_designs_choices_joins_and_problems(read) -> None:  # type: ignore[no-untyped-def]
    ws = text_of(read, "examples/warstuff/legal.yaml")
    assert "- Ranger Captain: Quality 3; Pathfinder, Shooter (Medium)" in ws
    assert "- Knight [Fantasy] (copies 1): " in ws
    hw = text_of(read, "examples/hammerwars/legal.yaml")
    assert "goal: Duty" in hw and "Infantry: 9/9" in hw
    ah = text_of(read, "examples/actionhammer/legal.yaml")
    assert "  joins Line Troopers" in ah
    bad = text_of(read, "examples/op40k/illegal.yaml")
    assert "Not legal yet:" in bad and bad.count("\n- ") >= 2


def test_sums_match_the_engine_totals(read) -> None:  # type: ignore[no-untyped-def]
    for system in ("hammerwars", "op40k", "warstuff", "actionhammer", "spaceempires"):
        loaded = read((ROOT / "examples" / system / "legal.yaml").read_text())
        assessed = report(loaded.system, loaded.catalog, loaded.roster)
        totals = assessed.totals
        text = assessed.text
        assert f"Total: {totals.points}" in text
        for entry in loaded.roster.entries:
            (priced,) = loaded.system.priced(loaded.catalog, loaded.roster, [entry])
            cost = priced.cost
            assert f"{entry.unit}" in text and f": {cost} {loaded.system.cost_unit}" in text
