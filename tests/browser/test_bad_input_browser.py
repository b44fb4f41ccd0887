"""Bad input always answered, in real Chromium (issue 21, item 7): a size that is no size is
said under its box at once and nothing is sent; WarStuff's creator gives the cost advice as
the cost changes; Space Empires shows its defaults and asks before a re-draw breaks the empire."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browsertools import opened, until
from test_builder_browser import add, change, start, submit_start, unfold, version

from listbuilder.engine.library import Library
from listbuilder.engine.model import Roster, RosterEntry
from listbuilder.engine.registry import get_system
from listbuilder.engine.report import report
from listbuilder.web.builder import views as builder

pytestmark = pytest.mark.browser

Page = Any
SAID = "Size: 10 to 30 models for Ork Boyz. Not saved: the roster keeps size 15."


def said_under(page: Page) -> str:
    until(page, "() => { const e = document.getElementById('count-0-error');"
                " return e && e.textContent.length > 0; }")
    return str(page.locator("#count-0-error").inner_text())


def test_a_size_that_is_no_size_is_said_under_its_box(page: Page, server: str) -> None:
    start(page, server, "One Page 40k (1st edition)", "Waaagh")
    page.get_by_label("Faction").select_option("Orks")
    submit_start(page)
    add(page, "Ork Boyz")
    unfold(page, 0)
    saved = version(page)
    box = page.locator("#count-0")
    for bad, key in (("0", "Enter"), ("-3", "Tab"), ("", "Enter"), ("99999", "Tab"),
                     ("2.5", "Enter"), ("e", "Tab")):  # "e": the only text a number box takes
        unfold(page, 0)
        box.fill("")
        box.press_sequentially(bad)
        box.press(key)
        assert said_under(page) == SAID, bad
        assert "count-0-error" in (box.get_attribute("aria-describedby") or "").split()
        assert box.get_attribute("aria-invalid") == "true"
        line = page.locator("#entry-0-sum").inner_text()
        assert "size 15" in line and "not saved" in line, line  # the line says it is not new
        assert page.locator("#count-0-error").is_visible()
        assert page.locator("#notices .notice").count() == 0  # said beside the box, not afar
    page.wait_for_timeout(300)
    assert version(page) == saved  # nothing was sent
    # a good value clears the message and is saved
    unfold(page, 0)

    def good() -> None:
        box.fill("20")
        box.press("Enter")

    change(page, good)
    assert page.locator("#count-0-error").count() == 0
    line = page.locator("#entry-0-sum").inner_text()
    assert "size 20" in line and "not saved" not in line
    assert page.locator("#count-0").get_attribute("aria-invalid") is None


def test_without_script_the_server_says_the_same_beside_the_box(browser: Any,
                                                               server: str) -> None:
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        start(page, server, "One Page 40k (1st edition)", "No script")
        page.get_by_label("Faction").select_option("Orks")
        submit_start(page)
        page.locator("#unit-list").get_by_role("button", name="Add Ork Boyz").click()
        opened(page, "#entry-0")
        page.locator("#entry-0-sum").click()  # <details> unfolds without a script
        page.fill("#count-0", "0")
        page.locator("#entry-0").get_by_role("button", name="Update").click()
        opened(page, "#count-0-error")  # sent (no browser bubble), refused, said
        assert page.locator("#count-0-error").inner_text() == SAID
        assert "count-0-error" in (page.locator("#count-0").get_attribute(
            "aria-describedby") or "").split()
        assert page.locator("#count-0").input_value() == "15"
    finally:
        context.close()


def test_typing_a_good_size_again_takes_the_message_away(page: Page, server: str) -> None:
    start(page, server, "One Page 40k (1st edition)", "Waaagh")
    page.get_by_label("Faction").select_option("Orks")
    submit_start(page)
    add(page, "Ork Boyz")
    unfold(page, 0)
    box = page.locator("#count-0")
    box.fill("0")
    box.press("Tab")
    assert said_under(page) == SAID
    box.fill("15")  # as it was: valid again, nothing to send
    assert page.locator("#count-0-error").count() == 0
    assert "not saved" not in page.locator("#entry-0-sum").inner_text()


def test_the_creator_gives_the_cost_advice_before_saving(page: Page, server: str) -> None:
    start(page, server, "WarStuff", "Border Patrol")
    page.get_by_label("Fantasy").check()
    submit_start(page)
    creator = page.locator("#creator")
    creator.get_by_label("Unit name").fill("Champion")
    creator.get_by_label("Quality").select_option("5")
    until(page, "() => document.querySelector('#design-cost').innerText.includes('50 pts')")
    assert "advise" not in page.locator("#design-cost").inner_text()
    creator.get_by_label("Elite").check()
    until(page, "() => document.querySelector('#design-cost').innerText.includes('advise')")
    text = page.locator("#design-cost").inner_text()
    assert "Costs 80 pts a copy" in text
    assert "Champion costs 80 pts; the designers advise at most 75 pts a unit" in text
    creator.get_by_label("Elite").uncheck()
    until(page, "() => !document.querySelector('#design-cost').innerText.includes('advise')")


def _seeds(units: tuple[str, ...]) -> tuple[int, int]:
    system = get_system("spaceempires")
    catalog = Library().catalog(system)
    found: dict[str, int] = {}
    for seed in range(1000):
        roster = Roster(system=system.id, name="x", factions=("Orks",), choices={"seed": seed},
                        entries=tuple(RosterEntry(unit=u) for u in units))
        found.setdefault(report(system, catalog, roster).status.state, seed)
        if "legal" in found and "illegal" in found:
            return found["legal"], found["illegal"]
    raise AssertionError("no seeds found")


def test_space_empires_defaults_and_a_redraw_that_would_break_it(
        page: Page, server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    good, bad = _seeds(("Bikeboyz",))
    file = tmp_path / "empire.yaml"
    file.write_text(f"format: 1\nsystem: spaceempires\nname: Snagrot\nfactions: [Orks]\n"
                    f"choices:\n  seed: {good}\nentries:\n  - unit: Bikeboyz\n",
                    encoding="utf-8")
    page.goto(server + "/")
    page.locator("#open input[type=file]").set_input_files(str(file))
    page.locator("#open").get_by_role("button", name="Open file").click()
    opened(page, "#totals")
    for key, value in (("poor_planets", "0"), ("rich_planets", "0"), ("homeworlds", "1"),
                       ("treasury", "0")):
        assert page.locator(f"#choice-{key}").input_value() == value, key
    assert "(default" not in page.locator("section#choices").inner_text()
    assert "Legal" in page.locator("#legal-status").inner_text()

    monkeypatch.setattr(builder, "new_seed", lambda: bad)
    saved = version(page)
    redraw = page.get_by_role("button", name="Re-draw: new random seed")
    redraw.click()
    opened(page, "#notices .notice")
    notice = page.locator("#notices .notice")
    text = notice.inner_text()
    assert "Not saved yet: the new draw makes the roster illegal" in text
    assert "Bikeboyz: 1 drawn at start + 1 recruited = 2 chits" in text
    assert version(page) == saved
    assert page.locator("#choice-seed").input_value() == str(good)
    # the old draw kept: nothing saved
    notice.get_by_role("link", name="Keep the old draw").click()
    opened(page, "#totals")
    assert page.locator("#choice-seed").input_value() == str(good)
    assert version(page) == saved and page.locator("#notices .notice").count() == 0
    # asked again, and this draw kept
    page.get_by_role("button", name="Re-draw: new random seed").click()
    opened(page, "#notices .notice")
    change(page, page.locator("#notices").get_by_role("button", name="Keep this draw").click)
    assert page.locator("#choice-seed").input_value() == str(bad)
    assert "Not legal" in page.locator("#legal-status").inner_text()
