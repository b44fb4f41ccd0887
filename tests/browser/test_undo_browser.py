"""Undo and redo in real Chromium: by the buttons in the bar that stays in view and by Ctrl+Z,
Ctrl+Shift+Z and Ctrl+Y (static/js/undo.js), through the queue of changes; the keys leave a
text field's own undo alone; a reload shows the same roster and the same buttons; a phone
reaches the buttons from anywhere on the page. Screenshots at desktop and phone width go to
output/screenshots/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browsertools import until
from test_builder_browser import add, change, unfold, version
from test_reorder_browser import names, orks

pytestmark = pytest.mark.browser

Page = Any


def buttons(page: Page) -> tuple[str, str]:
    return (str(page.locator("#undo-button").get_attribute("aria-label")),
            str(page.locator("#redo-button").get_attribute("aria-label")))


def notice(page: Page) -> str:
    return str(page.locator("#notices").inner_text())


def press(page: Page, keys: str) -> None:
    """A shortcut pressed with focus on the page (not in a text field), that saves."""
    change(page, lambda: page.keyboard.press(keys))


def test_undo_and_redo_by_button_and_by_key(page: Page, server: str, screenshots: Path) -> None:
    orks(page, server, "Undo")
    assert buttons(page) == ("Undo: nothing to undo", "Redo: nothing to redo")
    add(page, "Ork Boyz")
    add(page, "Nobz")
    unfold(page, 0)
    change(page, page.get_by_role("button", name="Remove Ork Boyz").click)
    assert names(page) == ["Nobz"]
    assert buttons(page) == ("Undo: Remove Ork Boyz", "Redo: nothing to redo")
    page.screenshot(path=str(screenshots / "undo-desktop-view.png"))

    change(page, page.get_by_role("button", name="Undo: Remove Ork Boyz").click)
    assert names(page) == ["Ork Boyz", "Nobz"]
    assert "Undone: Remove Ork Boyz" in notice(page)
    assert page.locator("#undo-button").evaluate("b => b === document.activeElement")
    assert buttons(page) == ("Undo: Add Nobz", "Redo: Remove Ork Boyz")

    change(page, page.get_by_role("button", name="Redo: Remove Ork Boyz").click)
    assert names(page) == ["Nobz"] and "Redone: Remove Ork Boyz" in notice(page)

    press(page, "Control+z")
    assert names(page) == ["Ork Boyz", "Nobz"] and "Undone: Remove Ork Boyz" in notice(page)
    press(page, "Control+Shift+Z")
    assert names(page) == ["Nobz"]
    press(page, "Control+z")
    press(page, "Control+z")
    assert names(page) == ["Ork Boyz"] and "Undone: Add Nobz" in notice(page)
    press(page, "Control+y")
    assert names(page) == ["Ork Boyz", "Nobz"] and "Redone: Add Nobz" in notice(page)
    saved = version(page)
    assert buttons(page) == ("Undo: Add Nobz", "Redo: Remove Ork Boyz")

    # in a text field the keys are the field's own
    search = page.locator("#f-q")
    search.fill("Trukk")
    search.press("Control+z")
    page.wait_for_timeout(500)
    assert version(page) == saved and names(page) == ["Ork Boyz", "Nobz"]

    page.reload()
    until(page, "() => document.readyState === 'complete'")
    assert names(page) == ["Ork Boyz", "Nobz"] and version(page) == saved
    assert buttons(page) == ("Undo: Add Nobz", "Redo: Remove Ork Boyz")
    assert "Undone" not in notice(page) and "Redone" not in notice(page)


def test_undo_pressed_right_after_a_refused_change_says_so(page: Page, server: str) -> None:
    orks(page, server, "Refused")
    add(page, "Ork Boyz")
    add(page, "Nobz")
    # a move to a place that is not in the list (what no handle sends): the server refuses it
    page.evaluate("() => { const f = document.getElementById('reorder-form');"
                  " f.querySelector('[name=index]').value = '0';"
                  " f.querySelector('[name=unit]').value = 'Ork Boyz';"
                  " f.querySelector('[name=to]').value = '7'; f.requestSubmit(); }")
    until(page, "() => !!document.querySelector('#notices .notice[data-refused]')")
    saved = version(page)
    page.keyboard.press("Control+z")
    until(page, "() => document.querySelector('#notices').innerText.includes('Nothing undone')")
    assert version(page) == saved and names(page) == ["Ork Boyz", "Nobz"]
    assert "Undo again to undo the last change saved: Add Nobz." in notice(page)
    press(page, "Control+z")
    assert names(page) == ["Ork Boyz"] and "Undone: Add Nobz" in notice(page)


def test_a_phone_reaches_undo_from_anywhere(page: Page, server: str, screenshots: Path) -> None:
    page.set_viewport_size({"width": 375, "height": 812})
    orks(page, server, "Phone")
    for unit in ("Ork Boyz", "Nobz", "Trukk", "Gretchin", "Ork Boyz", "Nobz"):
        page.locator(".tabs a[href='#units-panel']").click()
        add(page, unit)
    page.locator(".tabs a[href='#roster-panel']").click()
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    box = page.locator("#undo-button").bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 812, box
    assert box["x"] >= 0 and box["x"] + box["width"] <= 375, box
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.screenshot(path=str(screenshots / "undo-phone-view.png"))
    # tapped where it is on the screen (a locator's click would first scroll the page to the
    # bar's place in the page: Chromium's scrolling into view of a sticky element)
    scrolled = page.evaluate("window.scrollY")
    change(page, lambda: page.mouse.click(box["x"] + box["width"] / 2,
                                          box["y"] + box["height"] / 2))
    assert names(page) == ["Ork Boyz", "Nobz", "Trukk", "Gretchin", "Ork Boyz"]
    assert "Undone: Add Nobz" in notice(page)
    # the player stays where they were (the page is one entry shorter: the foot of it)
    assert abs(page.evaluate("window.scrollY") - scrolled) < 80
    page.screenshot(path=str(screenshots / "undo-phone-undone.png"))
