"""axe-core in real Chromium on every page of every system, at desktop and phone width: no
serious or critical findings. And the roster page works from the keyboard alone: every control
is reached by Tab, and a unit is added, unfolded, changed and removed with keys only."""

from __future__ import annotations

import re
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from browsertools import until
from test_builder_browser import arrow_and_enter, change, start, submit_start

from listbuilder.engine.registry import all_systems

pytestmark = pytest.mark.browser

Page = Any
CASES = {  # system: (new-roster steps, units to add)
    "hammerwars": ({"Faction": "Lizardmen"}, ["Assault Infantry", "Assault Hero"]),
    "op40k": ({"Faction": "Orks"}, ["Ork Boyz", "Nobz"]),
    "warstuff": ({"Fantasy": None}, ["Human Warrior"]),
    "actionhammer": ({"Cobalt Brigade": None}, ["Line Troopers", "Brigade Captain"]),
    "spaceempires": ({"Faction": "Orks"}, ["Warboss"]),
}
AXE = Axe()


def serious(page: Page, where: str) -> list[str]:
    found = AXE.run(page).response["violations"]
    return [f"{where}: {v['id']} ({v['impact']}): {v['help']} at "
            f"{[n['target'] for n in v['nodes']][:3]}"
            for v in found if v["impact"] in ("serious", "critical")]


def build(page: Page, server: str, system_id: str) -> str:
    """A roster of the system with a unit or two, built at desktop width."""
    page.set_viewport_size({"width": 1280, "height": 900})
    system = next(s for s in all_systems() if s.id == system_id)
    steps, units = CASES[system_id]
    start(page, server, system.name, f"Axe {system.name}")
    for label, value in steps.items():
        if value is None:
            page.get_by_label(label).check()
        else:
            page.get_by_label(label).select_option(value)
    submit_start(page)
    for unit in units:
        button = page.locator("#unit-list").get_by_role(
            "button", name=re.compile(rf"^Add {re.escape(unit)}( \(|$)"))
        change(page, lambda b=button: b.dispatch_event("click"))
    return page.url.split("#")[0].split("?")[0]


@pytest.mark.parametrize("system_id", list(CASES))
def test_no_serious_or_critical_findings(page: Page, server: str, system_id: str) -> None:
    found: list[str] = []
    for size in ({"width": 1280, "height": 900}, {"width": 375, "height": 812}):
        page.set_viewport_size(size)
        page.goto(server + "/")
        found += serious(page, f"home {size['width']}")
        page.goto(f"{server}/new/{system_id}")
        found += serious(page, f"new {size['width']}")
        page.goto(f"{server}/systems/{system_id}/print")
        found += serious(page, f"print page {size['width']}")
    page.set_viewport_size({"width": 1280, "height": 900})
    edit = build(page, server, system_id)
    page.locator("#entry-0-sum").click()  # an unfolded entry with its forms
    found += serious(page, "roster")
    share = page.get_by_label("Share link").input_value()
    page.set_viewport_size({"width": 375, "height": 812})
    for tab in ("Roster", "Add units", "Quick resolve", "Print"):
        page.get_by_role("navigation", name="Parts of this page").get_by_role(
            "link", name=tab, exact=True).click()
        found += serious(page, f"roster phone, {tab}")
    page.set_viewport_size({"width": 1280, "height": 900})
    for url in (share, edit + "/resolve"):
        page.goto(url)
        found += serious(page, url.split("/", 3)[3])
    assert found == []


def reachable(page: Page) -> tuple[set[str], set[str]]:
    """The visible controls of the page, and those Tab reaches (by a mark set on each)."""
    controls = set(page.evaluate(
        "() => { let n = 0; const out = [];"
        " for (const e of document.querySelectorAll('a[href], button, input:not([type=hidden]),"
        " select, textarea, summary')) {"
        "  if (!e.checkVisibility({visibilityProperty: true}) || e.disabled) continue;"
        "  e.dataset.kb = e.type === 'radio' ? 'radio-' + e.name : 'k' + (n++);"  # radios: 1 stop
        "  out.push(e.dataset.kb); } return out; }"))
    reached: set[str] = set()
    page.evaluate("document.activeElement && document.activeElement.blur()")
    for _ in range(len(controls) * 2 + 20):
        page.keyboard.press("Tab")
        mark = page.evaluate("document.activeElement && document.activeElement.dataset.kb")
        if mark:
            reached.add(mark)
        if reached >= controls:
            break
    return controls, reached


@pytest.mark.parametrize("width", [1280, 375])
def test_every_control_is_reached_and_used_by_keyboard(page: Page, server: str,
                                                         width: int) -> None:
    build(page, server, "op40k")
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(page.url.split("#")[0])
    page.locator("#entry-0-sum").focus()
    page.keyboard.press("Enter")  # unfold, so its controls count too
    controls, reached = reachable(page)
    missing = page.evaluate(
        "m => m.map(k => document.querySelector(`[data-kb='${k}']`).outerHTML.slice(0, 120))",
        sorted(controls - reached))
    assert not missing, "\n".join(missing)
    # and used: the count by arrow key and Enter, an upgrade by Space, remove by Enter
    page.focus("#count-0")
    arrow_and_enter(page)
    assert page.locator("#count-0").input_value() == "16"
    page.focus("#upg-0-1")
    change(page, lambda: page.keyboard.press("Space"))
    assert page.locator("#upg-0-1").is_checked()
    page.focus("#remove-0")
    change(page, lambda: page.keyboard.press("Enter"))
    until(page, "() => document.querySelectorAll('#entry-list > li').length === 1")
    assert page.evaluate("document.activeElement.id") == "entry-0-sum"  # the next entry
