"""Messages that tell the whole truth, as a player sees them in Chromium: the printed price
beside the formula's, a violation's link to the reading that decided it (landing on that
reading), Space Empires' spend and its starting draw apart, an empty roster called empty.
Screenshots go to output/screenshots/messages-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from browsertools import opened

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
Page = Any


def open_file(page: Page, base: str, example: str) -> None:
    """Open an example roster the way a player opens a file: from the home page."""
    page.goto(base + "/")
    page.locator("#open input[type=file]").set_input_files(str(ROOT / "examples" / example))
    page.locator("#open").get_by_role("button", name="Open file").click()
    opened(page, "#totals")


def on_screen(page: Page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    height = page.viewport_size["height"]
    return box is not None and box["y"] >= -1 and box["y"] + box["height"] <= height + 1


def test_reading_link_lands_on_the_reading(page: Page, server: str, screenshots: Path) -> None:
    open_file(page, server, "warstuff/printed-prices.yaml")
    totals = page.locator("#totals")
    text = totals.inner_text()
    assert "Rat Warrior: 30 pts by the formula (printed 25)" in text
    assert "Legal at printed prices: 135 pts." in text
    totals.screenshot(path=str(screenshots / "messages-warstuff-totals.png"))
    link = totals.get_by_role("link", name="Our reading: Printed quickplay points or the formula?")
    link.click()
    page.wait_for_url("**/rules-notes#printed-quickplay-points-or-the-formula")
    assert on_screen(page, "#printed-quickplay-points-or-the-formula")
    page.screenshot(path=str(screenshots / "messages-rules-notes.png"))
    page.set_viewport_size({"width": 375, "height": 812})
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the rules notes are {width}px wide on a 375px phone"


def test_space_empires_spend_and_draw(page: Page, server: str, screenshots: Path) -> None:
    open_file(page, server, "spaceempires/legal.yaml")
    assert page.locator("#totals .big").inner_text() == "7 of 7 revenue spent"
    lines = page.locator("#totals > dl.lines").inner_text()
    assert "Spent" in lines and "Treasury" in lines and "Starting" not in lines
    draw = page.locator("#totals .extra")
    assert draw.get_by_role("heading", name="Starting draw (seed 2024)").is_visible()
    status = page.locator("#legal-status").bounding_box()
    assert status is not None and draw.bounding_box()["y"] > status["y"]  # after, not among
    page.locator("#totals").screenshot(path=str(screenshots / "messages-spaceempires-totals.png"))


def test_an_empty_roster_says_empty(page: Page, server: str) -> None:
    open_file(page, server, "op40k/empty.yaml")
    assert page.locator("#legal-status").inner_text().strip() == "Empty: no units yet."
    chip = page.locator("#strip a.chip[href='#totals']")
    assert chip.inner_text() == "Empty"


def test_notes_and_reading_links_pass_axe(page: Page, server: str) -> None:
    axe = Axe()
    found = []
    for example in ("warstuff/printed-prices.yaml", "spaceempires/legal.yaml", "op40k/empty.yaml"):
        open_file(page, server, example)
        found += [(example, v["id"]) for v in axe.run(page).response["violations"]
                  if v["impact"] in ("serious", "critical")]
    for width in (1280, 375):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(server + "/rules-notes")
        found += [(f"notes {width}", v["id"]) for v in axe.run(page).response["violations"]
                  if v["impact"] in ("serious", "critical")]
    assert found == []
