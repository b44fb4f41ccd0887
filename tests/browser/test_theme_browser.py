"""Dark mode in real Chromium: the pages follow the system's setting (light or dark), the
header's Theme switch overrides it both ways, and axe-core finds no contrast problem (nor any
other) in either: the home page, the new-roster page, a roster of each system with units added
and the quick-resolve panel showing odds (its Print menu too), and the system's print page.
The pick is kept across a reload and other pages, is on the page from its first frame, reaches
other tabs; without JavaScript the system's setting still applies. Screenshots:
output/screenshots/theme-<system or page>-<how>.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browsertools import opened, until
from test_accessibility import AXE, CASES, build
from test_builder_browser import set_count
from test_resolve_browser import CASES as RESOLVE
from test_resolve_browser import swapped

pytestmark = pytest.mark.browser

Page = Any
OTHER = {"light": "dark", "dark": "light"}
# the first frame drawn: an init script runs before the page's own, and a frame callback runs
# when the page is first rendered (after the head's stylesheets and scripts)
FIRST_FRAME = """
requestAnimationFrame(() => { window.__firstFrame = {
    theme: document.documentElement.getAttribute("data-theme"),
    background: getComputedStyle(document.documentElement).backgroundColor}; });
"""
# the luminance of body's background: dark pages are under 0.1, light ones over 0.8
LUMINANCE = """() => {
    const [r, g, b] = getComputedStyle(document.body).backgroundColor.match(/[\\d.]+/g)
        .slice(0, 3).map(c => { c = c / 255;
            return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; }"""


def scheme(page: Page) -> str:
    """Which the page shows, read from what it draws: body's background."""
    luminance = page.evaluate(LUMINANCE)
    assert luminance < 0.1 or luminance > 0.8, f"body's background is neither: {luminance}"
    return "dark" if luminance < 0.1 else "light"


def axe_findings(page: Page, where: str) -> list[str]:
    """Every axe-core finding (color-contrast among its rules), of any impact."""
    found = AXE.run(page).response["violations"]
    return [f"{where}: {v['id']} ({v['impact']}): {v['help']} at "
            f"{[n['target'] for n in v['nodes']][:3]}" for v in found]


def pick(page: Page, choice: str) -> None:
    """Choose in the header's Theme switch, as a player does."""
    page.get_by_label("Theme").select_option(label=choice)


def ask_odds(page: Page, system_id: str) -> None:
    """The roster's first unit against a target: the panel shows the summary and the chart."""
    page.get_by_label("Target unit").fill(RESOLVE[system_id].target)
    swapped(page, lambda: page.get_by_label("Target unit").press("Enter"))
    until(page, "() => (document.querySelector('#rs-col-1 .rs-summary') || {}).textContent")
    assert page.locator("#rs-col-1 svg").is_visible()


def pages_of(page: Page, server: str, system_id: str, how: str,
             expect: str, shots: Path) -> list[str]:
    """axe on the system's new-roster and print pages (and, once, on the home page), each
    showing the expected scheme."""
    found: list[str] = []
    home = [("home", server + "/")] if system_id == "op40k" else []
    for name, url in [*home, ("new", f"{server}/new/{system_id}"),
                      ("print", f"{server}/systems/{system_id}/print")]:
        page.goto(url)
        opened(page, "#main")
        assert scheme(page) == expect, f"{name} ({how})"
        found += axe_findings(page, f"{name} ({how})")
        if system_id == "op40k":
            page.screenshot(path=str(shots / f"theme-{name}-{how}.png"), full_page=True)
    return found


@pytest.mark.parametrize("system", ["light", "dark"])
@pytest.mark.parametrize("system_id", list(CASES))
def test_no_contrast_problem_either_way(browser: Any, server: str, screenshots: Path,
                                        system_id: str, system: str) -> None:
    """The system's scheme, then the switch set to the other one; every page checked in both."""
    context = browser.new_context(color_scheme=system, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15_000)
    try:
        page = context.new_page()
        edit = build(page, server, system_id)
        page.goto(edit)
        opened(page, "#resolve-panel")
        page.locator("#entry-0-sum").click()  # an unfolded entry with its forms
        page.locator(".print-menu > summary").first.click()  # and the Print menu open
        ask_odds(page, system_id)
        found: list[str] = []

        how = f"{system}-system"
        assert page.get_by_label("Theme").input_value() == "system"
        assert scheme(page) == system
        found += axe_findings(page, f"roster ({how})")
        page.screenshot(path=str(screenshots / f"theme-{system_id}-{how}.png"), full_page=True)
        page.set_viewport_size({"width": 375, "height": 812})  # the switch fits a phone
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
        assert page.get_by_label("Theme").is_visible()
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(screenshots / f"theme-{system_id}-{how}-phone.png"))
        page.set_viewport_size({"width": 1280, "height": 900})

        pick(page, OTHER[system].title())  # overrides the system's setting at once
        how = f"{OTHER[system]}-picked"
        assert scheme(page) == OTHER[system]
        assert page.locator("#rs-col-1 svg").is_visible()  # the odds are still there
        found += axe_findings(page, f"roster ({how})")
        page.screenshot(path=str(screenshots / f"theme-{system_id}-{how}.png"), full_page=True)
        found += pages_of(page, server, system_id, how, OTHER[system], screenshots)

        page.goto(server + "/")
        pick(page, "System")
        found += pages_of(page, server, system_id, f"{system}-system", system,
                          screenshots)
        assert found == []
    finally:
        context.close()


def test_problems_and_notices_read_either_way(browser: Any, server: str,
                                              screenshots: Path) -> None:
    """What only a roster with a problem shows (the marker, the red chip and lines), a notice
    of each kind and an error page: no finding in the dark or, picked, in the light."""
    context = browser.new_context(color_scheme="dark", viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15_000)
    try:
        page = context.new_page()
        edit = build(page, server, "op40k")
        share = page.get_by_label("Share link").input_value()
        set_count(page, 1, 11)  # Nobz come 3 to 10
        assert page.locator("#entry-1 .violations").is_visible()
        assert page.locator(".chip.bad").count() and page.locator(".marker").count()
        found: list[str] = []
        for how in ("dark-system", "light-picked"):
            page.goto(edit)
            opened(page, "#entry-1")
            page.locator("#entry-1-sum").click()
            found += axe_findings(page, f"roster with a problem ({how})")
            page.screenshot(path=str(screenshots / f"theme-problem-{how}.png"), full_page=True)
            page.goto(share)  # a notice (info)
            found += axe_findings(page, f"shared ({how})")
            page.goto(server + "/r/no-such-roster")  # an error page (a notice, error)
            assert page.locator(".notice.error").is_visible()
            found += axe_findings(page, f"not found ({how})")
            page.screenshot(path=str(screenshots / f"theme-not-found-{how}.png"))
            pick(page, "Light")
        assert found == []
    finally:
        context.close()


def test_the_pick_is_kept_and_drawn_from_the_first_frame(browser: Any, server: str) -> None:
    context = browser.new_context(color_scheme="light")
    context.add_init_script(FIRST_FRAME)
    try:
        page = context.new_page()
        page.goto(server + "/")
        assert scheme(page) == "light"
        assert page.evaluate("window.__firstFrame.theme") is None
        pick(page, "Dark")
        assert scheme(page) == "dark"
        assert page.evaluate("document.documentElement.dataset.theme") == "dark"
        assert page.evaluate("localStorage.getItem('listbuilder-theme')") == "dark"

        page.reload()
        opened(page, "#main")
        assert scheme(page) == "dark"
        assert page.get_by_label("Theme").input_value() == "dark"
        first = page.evaluate("window.__firstFrame")  # dark from the first frame: no flash
        assert first["theme"] == "dark"
        assert first["background"] == page.evaluate(
            "getComputedStyle(document.documentElement).backgroundColor")

        page.goto(server + "/systems/warstuff/print")  # and on every other page
        assert scheme(page) == "dark" and page.evaluate("window.__firstFrame.theme") == "dark"

        other = context.new_page()  # a second tab follows a pick made in the first
        other.goto(server + "/")
        assert scheme(other) == "dark"
        pick(page, "Light")
        until(other, "() => document.documentElement.dataset.theme === 'light'")
        assert scheme(other) == "light"
        assert other.get_by_label("Theme").input_value() == "light"

        pick(page, "System")  # the system decides again, and nothing is kept
        assert page.evaluate("document.documentElement.hasAttribute('data-theme')") is False
        assert page.evaluate("localStorage.getItem('listbuilder-theme')") is None
        page.emulate_media(color_scheme="dark")  # the system's setting changes: so does the page
        assert scheme(page) == "dark"
        page.emulate_media(color_scheme="light")
        assert scheme(page) == "light"
    finally:
        context.close()


def test_a_light_pick_holds_on_a_dark_system(browser: Any, server: str) -> None:
    context = browser.new_context(color_scheme="dark")
    try:
        page = context.new_page()
        page.goto(server + "/")
        assert scheme(page) == "dark"
        assert page.evaluate("getComputedStyle(document.documentElement).colorScheme") == "dark"
        pick(page, "Light")
        assert scheme(page) == "light"
        page.reload()
        opened(page, "#main")
        assert scheme(page) == "light"
        # form controls and scrollbars follow the pick, not the system
        assert page.evaluate("getComputedStyle(document.documentElement).colorScheme") == "light"
        assert page.get_by_label("Theme").input_value() == "light"
    finally:
        context.close()


def test_without_javascript_the_system_decides(browser: Any, server: str) -> None:
    for system in ("dark", "light"):
        context = browser.new_context(color_scheme=system, java_script_enabled=False)
        try:
            page = context.new_page()
            page.goto(server + "/")
            assert scheme(page) == system
            assert not page.locator("#theme-choice").is_visible()  # no switch that can't work
            page.goto(server + "/systems/op40k/print")
            assert scheme(page) == system
        finally:
            context.close()
