"""Issue 38, in real Chromium: a whole number the roster's settings refuse is said in one voice,
beside its box. An empty points limit, "abc" or 23 digits answer "Points limit: enter a whole
number from 1 to 1,000,000, the game's size in points." under the box (marked invalid, linked
by aria-describedby), the same words in the notice, never the browser's own ("Value must be
greater than or equal to 1"), and the box keeps what was typed. Space Empires' seed and
planets say their ranges the same way; "abc" is no longer dropped without a word.
Screenshots: output/screenshots/settings-refused-{1280,1024,375}.png,
spaceempires-choices-refused.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browsertools import click_settled, until
from test_builder_browser import change, start, submit_start, version

pytestmark = pytest.mark.browser

Page = Any
LIMIT = "Points limit: enter a whole number from 1 to 1,000,000, the game's size in points."
SEED = "Seed: enter a whole number from 0 to 999,999,999, or Re-draw below for a random one."
POOR = "Poor planets: enter a whole number from 0 to 48."
BESIDE = """id => {
  const box = document.getElementById(id), said = document.getElementById(id + '-error');
  if (!box || !said) return null;
  said.scrollIntoView({block: 'center'});
  const b = box.getBoundingClientRect(), s = said.getBoundingClientRect();
  return {text: said.textContent.trim(), value: box.value,
          invalid: box.getAttribute('aria-invalid'),
          described: (box.getAttribute('aria-describedby') || '').split(/\\s+/),
          browser: box.validationMessage,
          gap: s.top - b.bottom, overlap: Math.min(b.right, s.right) - Math.max(b.left, s.left),
          onScreen: b.top >= 0 && s.bottom <= innerHeight && s.width > 0};
}"""


def said_beside(page: Page, box_id: str, text: str) -> dict[str, Any]:
    """What is said under the box, once the answer is in: measured as a person sees it."""
    until(page, "([id, t]) => { const e = document.getElementById(id + '-error');"
                " return e && e.textContent.trim() === t; }", arg=[box_id, text])
    seen: dict[str, Any] = page.evaluate(BESIDE, box_id)
    assert seen["text"] == text
    assert seen["invalid"] == "true" and f"{box_id}-error" in seen["described"]
    assert seen["browser"] == ""  # the browser has nothing of its own to say
    assert 0 <= seen["gap"] <= 16 and seen["overlap"] > 0, seen  # right under the box
    assert seen["onScreen"], seen
    return seen


def roster(page: Page, server: str) -> None:
    start(page, server, "One Page 40k (1st edition)", "Waaagh")
    page.get_by_label("Faction").select_option("Orks")
    submit_start(page)


def open_settings(page: Page) -> None:
    if not page.locator("#settings").evaluate("d => d.open"):
        click_settled(page, page.locator("#settings > summary"))


@pytest.mark.parametrize("size", [(1280, 800), (1024, 768), (375, 812)])
def test_a_refused_points_limit_is_said_beside_its_box(page: Page, server: str,
                                                        screenshots: Path,
                                                        size: tuple[int, int]) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})
    roster(page, server)
    saved = version(page)
    for typed, key in (("", "Enter"), ("abc", "Enter"), ("12345678901234567890123", "Enter"),
                       ("0", "Enter")):
        open_settings(page)
        box = page.locator("#points_limit")
        box.fill(typed)
        if typed == "":
            click_settled(page, page.get_by_role("button", name="Save settings"))
        else:
            box.press(key)
        seen = said_beside(page, "points_limit", LIMIT)
        assert seen["value"] == typed  # kept, to fix there
        notice = page.locator("#notices").inner_text()
        assert LIMIT in notice and "Points limit: Points limit" not in notice
        page.evaluate("() => document.getElementById('points_limit-error')"
                      ".scrollIntoView({block: 'center'})")
        if typed == "":
            page.screenshot(path=str(screenshots / f"settings-refused-{size[0]}.png"))
    assert version(page) == saved  # nothing was saved
    # a good value is saved and the message goes
    open_settings(page)

    def good() -> None:
        page.locator("#points_limit").fill("750")
        page.locator("#points_limit").press("Enter")

    change(page, good)
    assert page.locator("#points_limit-error").count() == 0
    assert page.locator("#points_limit").get_attribute("aria-invalid") is None
    assert "750" in page.locator("#strip").inner_text()


def test_space_empires_says_the_seed_and_planets_range_beside_the_box(
        page: Page, server: str, screenshots: Path) -> None:
    start(page, server, "War Hammer Space Empires (Warp Empires)", "Empire")
    page.get_by_label("Faction").select_option("Orks")
    submit_start(page)
    saved = version(page)
    seed = page.locator("#choice-seed")
    seed.fill("")
    seed.press_sequentially("abc")  # typed as a player types it: no longer dropped
    seed.press("Tab")
    seen = said_beside(page, "choice-seed", SEED)
    assert seen["value"] == "abc"
    poor = page.locator("#choice-poor_planets")
    poor.fill("99999")
    poor.press("Tab")
    seen = said_beside(page, "choice-poor_planets", POOR)
    assert seen["value"] == "99999"
    assert page.locator("#choice-seed").input_value() == "abc"  # both kept
    page.locator("#choice-seed").fill("12345678901234567890123")
    page.locator("#choice-seed").press("Tab")
    until(page, "() => document.getElementById('choice-seed').value.length === 23"
                " && !document.querySelector('.htmx-request')")
    said_beside(page, "choice-seed", SEED)
    page.evaluate("() => document.getElementById('choice-seed')"
                  ".scrollIntoView({block: 'start'})")
    page.screenshot(path=str(screenshots / "spaceempires-choices-refused.png"))
    assert version(page) == saved
