"""The faction studio in real Chromium: a pack started, a mistake typed and named at once
(line, key and fix) before anything is saved, fixed, saved as version 2, and shown with its
units and costs, then deleted; no policy violation, no serious axe finding at desktop or
phone width.
Screenshots: output/screenshots/studio-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browsertools import start_pack, until
from test_accessibility import serious
from test_csp_browser import WATCH

pytestmark = pytest.mark.browser

Page = Any


def test_a_pack_is_checked_as_typed_and_saved(context: Any, server: str,
                                              screenshots: Path) -> None:
    context.add_init_script(WATCH)
    page = context.new_page()
    start_pack(page, server, "House Brigade")
    assert "No problems" in page.locator("#pack-check").inner_text()
    assert serious(page, "studio pack, desktop") == []
    box = page.get_by_label("The pack, as YAML")
    text = box.input_value()
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "save: 5" in row)
    box.fill(text.replace("save: 5", "save: 9"))
    until(page, "() => document.querySelector('#pack-check').textContent"
                ".includes('1 problem to fix')")
    said = page.locator("#pack-check").inner_text()
    assert f"house-brigade.yaml:{line}: datasheets[1].save:" in said
    page.screenshot(path=str(screenshots / "studio-problem.png"), full_page=True)
    box.fill(text.replace("pts: 10\n", "pts: 12\n"))
    until(page, "() => document.querySelector('#pack-check').textContent"
                ".includes('No problems')")
    assert "60 pts" in page.locator("#pack-check").inner_text()  # 5 troopers at 12
    page.get_by_role("button", name="Save").click()
    page.wait_for_selector("text=Saved as version 2.")
    assert box.input_value() == text.replace("pts: 10\n", "pts: 12\n")
    page.screenshot(path=str(screenshots / "studio-saved.png"), full_page=True)
    page.set_viewport_size({"width": 375, "height": 740})
    assert serious(page, "studio pack, phone") == []
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the page scrolls sideways on a phone ({width} px)"
    page.screenshot(path=str(screenshots / "studio-phone.png"), full_page=True)
    edit_link = page.url.split("?")[0]
    page.goto(f"{server}/studio")
    assert serious(page, "studio home") == []
    # the game list's longest name set the start and import forms' width: 450 px
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the studio's home scrolls sideways on a phone ({width} px)"

    # deleted by its owner: asked first on a page of its own, then its links say so
    page.get_by_role("link", name="Delete House Brigade").click()
    page.wait_for_selector("text=Delete House Brigade?")
    assert serious(page, "studio delete, phone") == []
    page.get_by_role("button", name="Delete House Brigade").click()
    page.wait_for_selector("text=House Brigade was deleted, with every version of it.")
    answer = page.goto(edit_link)
    assert answer is not None and answer.status == 410
    assert "This pack was deleted by its owner" in page.locator("h1").inner_text()
    assert serious(page, "studio pack deleted, phone") == []
    assert page.evaluate("window.__violations") == []
