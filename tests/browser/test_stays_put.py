"""Edits keep the player where they were: at desktop and phone width, for add, count, upgrade,
join, move, duplicate, a move by the drag handle's keys and remove, the window scrolls by less
than 50 px, the control used (or the one standing in for it) is on screen afterwards, and focus
is on it. Measured in real Chromium with window.scrollY and bounding boxes, on a roster long
enough to scroll."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from browsertools import opened, until
from test_builder_browser import change, start, submit_start, unfold

pytestmark = pytest.mark.browser

Page = Any
WIDTHS = {"desktop": (1280, 900), "phone": (375, 812)}


def tab(page: Page, name: str) -> None:
    """On a phone, show the part of the page by its tab (a jump link on a desktop)."""
    if page.viewport_size["width"] < 960:
        page.get_by_role("navigation", name="Parts of this page").get_by_role(
            "link", name=name, exact=True).click()


def where(page: Page, selector: str) -> dict[str, float]:
    return dict(page.evaluate(
        "s => { const e = document.querySelector(s); const r = e.getBoundingClientRect();"
        " return {y: window.scrollY, top: r.top, bottom: r.bottom, h: window.innerHeight}; }",
        selector))


def settled(page: Page) -> None:
    until(page, "() => !document.querySelector('.htmx-request, .htmx-settling, .htmx-swapping')")


MIDDLE = """s => { const e = document.querySelector(s);
  for (let box = e.parentElement; box && box !== document.body; box = box.parentElement) {
    const overflow = getComputedStyle(box).overflowY;
    if ((overflow === 'auto' || overflow === 'scroll') && box.scrollHeight > box.clientHeight) {
      const b = box.getBoundingClientRect(), r = e.getBoundingClientRect();
      box.scrollBy(0, r.top + r.height / 2 - (b.top + b.height / 2));
    }
  }
  const r = e.getBoundingClientRect();
  window.scrollBy(0, r.top + r.height / 2 - innerHeight / 2); }"""


def in_place(page: Page, what: str, control: str, act: Callable[[], None],
             after: str | None = None) -> None:
    """Bring the control to the middle of the screen, use it, and check the screen held."""
    # the middle of the window (scrollIntoView's centre is that of the part below the sticky
    # bar, site.css's scroll-padding: lower on a phone, so a move took the control off screen);
    # on a desktop the roster's column scrolls by itself: the middle of it first
    page.evaluate(MIDDLE, control)
    page.evaluate(MIDDLE, control)  # a column held by the end of the layout moved with the page
    before = where(page, control)
    change(page, act)
    settled(page)
    after = after or control
    now = where(page, after)
    moved = now["y"] - before["y"]
    figure = (f"{page.viewport_size['width']}px {what}: scrollY {before['y']:.0f} -> "
              f"{now['y']:.0f} ({moved:+.0f}), control top {before['top']:.0f} -> "
              f"{now['top']:.0f}")
    print(figure)  # the figures, with pytest -s
    assert abs(moved) < 50, figure
    assert now["top"] >= 0 and now["bottom"] <= now["h"], f"{what}: off screen: {now}"
    focused = page.evaluate("document.activeElement && document.activeElement.id")
    assert focused == after.lstrip("#"), f"{what}: focus on {focused!r}, not {after}"


@pytest.mark.parametrize("size", WIDTHS)
def test_edits_keep_the_player_where_they_were(page: Page, server: str, size: str) -> None:
    width, height = WIDTHS[size]
    page.set_viewport_size({"width": width, "height": height})
    start(page, server, "One Page 40k (1st edition)", "Stay put")
    page.get_by_label("Faction").select_option("Orks")
    page.get_by_label("Points limit").fill("5000")
    submit_start(page)
    tab(page, "Add units")
    buttons = page.locator("#unit-list button")
    for n in range(8):  # a roster long enough to scroll
        change(page, buttons.nth(n % 4).click)
    # add, from far down the unit list
    last = page.locator("#unit-list li").last.get_attribute("id")
    page.evaluate("window.scrollTo(0, 700)")
    in_place(page, "add", f"#add-{last}", lambda: page.click(f"#add-{last}"))
    tab(page, "Roster")
    boyz = page.locator(".entry", has=page.locator(".entry-name", has_text="Ork Boyz")).first
    i = int((boyz.get_attribute("id") or "").split("-")[1])
    unfold(page, i)

    def count() -> None:
        page.fill(f"#count-{i}", "17")
        page.press(f"#count-{i}", "Enter")

    in_place(page, "count", f"#count-{i}", count)
    in_place(page, "upgrade", f"#upg-{i}-1", lambda: page.click(f"#upg-{i}-1"))
    in_place(page, "move", f"#down-{i}", lambda: page.click(f"#down-{i}"), f"#down-{i + 1}")
    unfold(page, 3)
    in_place(page, "remove", "#remove-3", lambda: page.click("#remove-3"), "#entry-3-sum")
    i = int((boyz.get_attribute("id") or "").split("-")[1])
    unfold(page, i)
    # the copy comes right under the original, whose Duplicate button was used
    in_place(page, "duplicate", f"#duplicate-{i}", lambda: page.click(f"#duplicate-{i}"),
             f"#entry-{i + 1}-sum")

    def key_down() -> None:
        page.focus(f"#handle-{i + 1}")
        page.keyboard.press("ArrowDown")

    in_place(page, "drag handle, by key", f"#handle-{i + 1}", key_down, f"#handle-{i + 2}")


@pytest.mark.parametrize("size", WIDTHS)
def test_joining_keeps_the_player_where_they_were(page: Page, server: str, size: str) -> None:
    width, height = WIDTHS[size]
    page.set_viewport_size({"width": width, "height": height})
    start(page, server, "ActionHammer", "Stay joined")
    page.get_by_label("Cobalt Brigade").check()
    submit_start(page)
    tab(page, "Add units")
    for unit in ("Line Troopers", "Line Troopers", "Shock Squad", "Line Troopers",
                 "Shock Squad", "Brigade Captain"):
        button = page.locator("#unit-list").get_by_role(
            "button", name=re.compile(rf"^Add {re.escape(unit)}( \(|$)"))
        change(page, button.click)
    tab(page, "Roster")
    unfold(page, 5)

    def join() -> None:
        page.focus("#join-5")
        page.select_option("#join-5", value="3:Line Troopers")

    in_place(page, "join", "#join-5", join)
    assert page.locator("#entry-list > li").evaluate_all("l => l.map(e => e.id)")[4] == "entry-5"


def test_a_long_unbroken_name_wraps_on_a_phone(page: Page, server: str) -> None:
    page.set_viewport_size({"width": 375, "height": 812})
    start(page, server, "WarStuff", "W" * 80)
    submit_start(page)
    creator = page.locator("#creator")
    opened(page, "body[data-tab]", state="attached")
    creator.locator("summary").click()  # folded on a phone (docs/builder.md)
    creator.get_by_label("Unit name").fill("Supercalifragilistic" * 4)
    creator.get_by_label("Quality").select_option("3")
    change(page, creator.get_by_role("button", name="Save design").click)
    page.get_by_role("link", name="Edit " + "Supercalifragilistic" * 4).click()
    opened(page, "#creator-title")
    assert "Edit Supercal" in page.locator("#creator-title").inner_text()
    for selector in ("h1", "#creator-title", ".entry-name", ".design h3"):
        box = page.locator(selector).first.bounding_box()
        assert box is not None and box["x"] + box["width"] <= 375, selector
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
