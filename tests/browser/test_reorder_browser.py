"""Duplicating an entry and moving entries in real Chromium: a copy keeps the size and the
upgrades; an entry's handle, dragged with the mouse or moved by key (static/js/reorder.js),
moves it in one change, one version; focus stays on the moved entry's handle. Screenshots of
an entry with its controls at desktop and phone width go to output/screenshots/."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from browsertools import until
from test_builder_browser import add, change, set_count, start, submit_start, unfold, version

pytestmark = pytest.mark.browser

Page = Any


def names(page: Page) -> list[str]:
    """The entries' units as shown, top to bottom (without "joined to ...", for screen
    readers)."""
    return [n.strip().splitlines()[-1]
            for n in page.locator("#entry-list > li .entry-name").all_inner_texts()]


def posts(page: Page) -> list[str]:
    """The paths of the POSTs the page sends from now on (a list that fills as they go)."""
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url.split("/r/", 1)[-1].split("/", 1)[-1])
            if r.method == "POST" else None)
    return sent


def orks(page: Page, server: str, name: str, limit: str = "5000") -> None:
    start(page, server, "One Page 40k (1st edition)", name)
    page.get_by_label("Faction").select_option("Orks")
    page.get_by_label("Points limit").fill(limit)
    submit_start(page)


def eight(page: Page) -> list[str]:
    """Eight entries of four units, added from the unit list; their units in order."""
    for unit in ("Ork Boyz", "Nobz", "Trukk", "Gretchin") * 2:
        add(page, unit)
    shown = names(page)
    assert len(shown) == 8
    return shown


def focused(page: Page) -> str:
    return str(page.evaluate("document.activeElement && document.activeElement.id"))


def test_duplicate_copies_the_size_and_the_upgrades(page: Page, server: str) -> None:
    orks(page, server, "Copies")
    add(page, "Ork Boyz")
    add(page, "Nobz")
    set_count(page, 0, 22)
    change(page, lambda: page.locator("#entry-0").get_by_label("Boss Nob").check())
    change(page, page.get_by_role("button", name="Duplicate Ork Boyz").click)
    assert names(page) == ["Ork Boyz", "Ork Boyz", "Nobz"]
    # the copy is unfolded, with the same size and upgrade; focus is on its line
    assert focused(page) == "entry-1-sum"
    assert page.locator("#entry-1-box").evaluate("d => d.open")
    assert page.locator("#count-1").input_value() == "22"
    assert page.locator("#entry-1").get_by_label("Boss Nob").is_checked()
    assert not page.locator("#entry-1").get_by_label("Shootas").is_checked()
    costs = page.locator("#entry-list .cost").all_inner_texts()
    assert costs[0] == costs[1]
    text = page.locator("#roster-text").input_value()
    assert text.count("- Ork Boyz (size 22)") == 2 and text.count("with Boss Nob") == 2, text
    # the copy's line is on screen, where the player was
    box = page.locator("#entry-1-sum").bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 900
    assert "Saved: duplicating Ork Boyz." in page.locator("#said").inner_text()


def test_dragging_the_eighth_entry_to_the_top_is_one_change(page: Page, server: str) -> None:
    orks(page, server, "Drag")
    shown = eight(page)
    before = int(version(page))
    sent = posts(page)
    change(page, lambda: page.locator("#handle-7").drag_to(
        page.locator("#entry-0"), target_position={"x": 20, "y": 4}))
    assert names(page) == [shown[7], *shown[:7]]
    assert int(version(page)) == before + 1
    assert sent == ["reorder"], sent
    assert focused(page) == "handle-0"
    # the page a fresh load gives is the same
    page.reload()
    assert names(page) == [shown[7], *shown[:7]]


def test_dragging_with_the_mouse_marks_the_place_and_drops_there(page: Page,
                                                                  server: str) -> None:
    orks(page, server, "Mouse")
    shown = eight(page)
    sent = posts(page)
    handle = page.locator("#handle-1").bounding_box()
    target = page.locator("#entry-5").bounding_box()
    assert handle is not None and target is not None
    x, y = handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    # past the middle of entry 5: the place after it, marked on its line while dragging
    page.mouse.move(x, target["y"] + target["height"] * 0.75, steps=8)
    assert page.locator("#entry-1").evaluate("e => e.classList.contains('is-dragging')")
    assert page.locator("#entry-5").evaluate("e => e.classList.contains('drop-before')") is False
    assert page.locator("#entry-6").evaluate("e => e.classList.contains('drop-before')")
    change(page, page.mouse.up)
    assert names(page) == [shown[0], *shown[2:6], shown[1], *shown[6:]]
    assert sent == ["reorder"]
    assert page.locator(".is-dragging, .drop-before, .drop-after").count() == 0
    # a press that does not travel, and a drag let go where it began, send nothing
    page.locator("#handle-3").click()
    box = page.locator("#handle-3").bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + 5, box["y"] + 5)
    page.mouse.down()
    page.mouse.move(box["x"] + 5, box["y"] + 12, steps=3)
    page.mouse.up()
    page.wait_for_timeout(300)
    assert sent == ["reorder"]


def test_the_handle_moves_the_entry_from_the_keyboard(page: Page, server: str) -> None:
    orks(page, server, "Keys")
    shown = eight(page)
    sent = posts(page)
    page.focus("#handle-2")
    change(page, lambda: page.keyboard.press("End"))
    order = [*shown[:2], *shown[3:], shown[2]]
    assert names(page) == order and focused(page) == "handle-7"
    assert "Saved: moving Trukk to line 8." in page.locator("#said").inner_text()
    change(page, lambda: page.keyboard.press("ArrowUp"))
    order = [*order[:6], order[7], order[6]]
    assert names(page) == order and focused(page) == "handle-6"
    change(page, lambda: page.keyboard.press("Home"))
    order = [order[6], *order[:6], order[7]]
    assert names(page) == order and focused(page) == "handle-0"
    change(page, lambda: page.keyboard.press("ArrowDown"))
    order = [order[1], order[0], *order[2:]]
    assert names(page) == order and focused(page) == "handle-1"
    assert sent == ["reorder"] * 4
    # at the top already: said, nothing sent
    page.focus("#handle-0")
    page.keyboard.press("ArrowUp")
    until(page, "() => document.getElementById('said').textContent.includes('at the top')")
    assert sent == ["reorder"] * 4 and names(page) == order
    # the handle is named for screen readers and says which keys move it
    handle = page.locator("#handle-1")
    assert handle.get_attribute("aria-label") == f"Move {order[1]}"
    assert "Home and End" in page.locator("#" + str(handle.get_attribute("aria-describedby")))\
        .inner_text()


def test_a_moved_entry_that_was_unfolded_stays_unfolded(page: Page, server: str) -> None:
    orks(page, server, "Unfolded")
    shown = eight(page)
    unfold(page, 6)
    page.focus("#handle-6")
    change(page, lambda: page.keyboard.press("Home"))
    assert names(page)[0] == shown[6]
    opened = page.evaluate("() => [...document.querySelectorAll('#entry-list details[open]')]"
                           ".map(d => d.id)")
    assert opened == ["entry-0-box"]


def test_a_leader_moves_with_its_bodyguard(page: Page, server: str) -> None:
    start(page, server, "ActionHammer", "Guarded")
    page.get_by_label("Cobalt Brigade").check()
    submit_start(page)
    for unit in ("Line Troopers", "Shock Squad", "Brigade Captain"):
        add(page, unit)
    unfold(page, 2)
    change(page, lambda: page.locator("#join-2").select_option(value="0:Line Troopers"))
    assert page.locator("#handle-2").count() == 0  # shown under its Bodyguard, no handle
    page.focus("#handle-0")
    change(page, lambda: page.keyboard.press("ArrowDown"))
    assert names(page) == ["Shock Squad", "Line Troopers", "Brigade Captain"]
    assert page.locator("#entry-2").get_attribute("class") == "entry joined"
    assert "Joined by Brigade Captain" in str(page.locator("#entry-1").text_content())


def test_an_entry_with_its_controls_fits_a_phone(page: Page, server: str,
                                                  screenshots: Path) -> None:
    orks(page, server, "Controls")
    add(page, "Ork Boyz")
    add(page, "Nobz")
    add(page, "Trukk")
    unfold(page, 1)
    for width, height in ((1280, 900), (375, 812)):
        page.set_viewport_size({"width": width, "height": height})
        if width < 960:
            page.get_by_role("navigation", name="Parts of this page").get_by_role(
                "link", name="Roster", exact=True).click()
        entry = page.locator("#entry-1")
        entry.scroll_into_view_if_needed()
        page.locator("#entries").screenshot(path=str(screenshots / f"entry-controls-{width}.png"))
        over = page.evaluate(
            "w => [...document.querySelectorAll('#entries *')].filter(e => "
            "e.getClientRects().length && e.getBoundingClientRect().right > w + 0.5)"
            ".map(e => e.tagName + '#' + e.id + '.' + e.className)", width)
        assert over == [], f"{width}px: {over}"
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        for name in ("Move Nobz", re.compile("^Move up"), re.compile("^Move down"),
                     "Duplicate Nobz", "Remove Nobz"):
            button = entry.get_by_role("button", name=name, exact=isinstance(name, str))
            box = button.bounding_box()
            assert box is not None and box["height"] >= 36 and box["width"] >= 32, (name, box)


def test_duplicate_and_move_work_without_javascript(browser: Any, server: str) -> None:
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        start(page, server, "One Page 40k (1st edition)", "No script")
        page.get_by_label("Faction").select_option("Orks")
        submit_start(page)
        for unit in ("Nobz", "Trukk"):
            page.locator("#unit-list").get_by_role(
                "button", name=re.compile(f"^Add {unit}")).click()
            page.wait_for_load_state()
        assert page.locator("#handle-0").is_hidden()  # dragging needs the script
        page.locator("#entry-0-sum").click()
        page.get_by_role("button", name="Duplicate Nobz").click()
        page.wait_for_load_state()
        assert names(page) == ["Nobz", "Nobz", "Trukk"]
        assert page.url.endswith("#entry-1")
        assert page.locator("#entry-1-box").get_attribute("open") is not None  # the copy
        page.get_by_role("button", name="Move down: Nobz").click()
        page.wait_for_load_state()
        assert names(page) == ["Nobz", "Trukk", "Nobz"]
    finally:
        context.close()
