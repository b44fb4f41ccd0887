"""The roster page measured on a phone (375 x 740) and a desktop (1280 x 800), in real Chromium:
what the player asked for lands on the screen, below the sticky bar and not under it; nothing in
the summary is cut off; share and export show without opening a tab; WarStuff's unit creator
does not push the roster's units away on a phone; the search of the unit list stays in view;
the read-only page leaves no column empty. Each is a position measured (boxes against the
viewport and the bar, elementFromPoint for what covers what), not a look at a screenshot.
docs/builder.md, "On a phone and on a desktop"."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browsertools import opened, sized_page, until
from test_builder_browser import change, start, submit_start

pytestmark = pytest.mark.browser

Page = Any
ROOT = Path(__file__).resolve().parents[2]
GAMES = ["hammerwars", "actionhammer", "op40k", "warstuff", "spaceempires"]
EXAMPLES = sorted(p for p in (ROOT / "examples").glob("*/*.yaml") if p.name != "match.yaml")
PHONE = {"width": 375, "height": 740}
DESKTOP = {"width": 1280, "height": 800}

# Where an element is on the screen, and whether it is what the player sees there (not under
# the sticky bar, another sticky block, or clipped by a box around it).
WHERE = """s => { const e = typeof s === 'string' ? document.querySelector(s) : s;
  const r = e.getBoundingClientRect();
  const x = Math.min(r.left + 4, innerWidth - 1), y = (r.top + Math.min(r.bottom, innerHeight)) / 2;
  const hit = document.elementFromPoint(x, y);
  return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
          seen: Boolean(hit && (e === hit || e.contains(hit))),
          bar: document.getElementById('topbar').getBoundingClientRect().bottom,
          width: innerWidth, height: innerHeight}; }"""


@pytest.fixture
def phone(browser: Any) -> Iterator[Page]:
    with sized_page(browser, PHONE, True) as page:
        yield page


@pytest.fixture
def desktop(browser: Any) -> Iterator[Page]:
    with sized_page(browser, DESKTOP) as page:
        yield page


def open_file(page: Page, server: str, path: Path) -> None:
    """A roster opened from a file on the home page, with the page's script set up."""
    page.goto(server + "/")
    page.set_input_files("#file", str(path))
    page.get_by_role("button", name="Open file").click()
    opened(page, "#strip", state="attached")
    opened(page, "body[data-tab]", state="attached")


def tab(page: Page, name: str) -> None:
    page.get_by_role("navigation", name="Parts of this page").get_by_role(
        "link", name=name, exact=True).click()


def where(page: Page, selector: str) -> dict[str, Any]:
    return dict(page.evaluate(WHERE, selector))


def settled(page: Page) -> None:
    until(page, "() => !document.querySelector('.htmx-request, .htmx-settling, .htmx-swapping')")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_units_profile_opens_below_the_bar(request: pytest.FixtureRequest, server: str,
                                             game: str, size: str) -> None:
    """Tapping a unit's name scrolls its profile to the top: its name and cost must stop below
    the sticky bar (and, on a desktop, below the unit list's search), not under them. Before,
    the name sat at 14 px under a 95 px bar on a phone."""
    page = request.getfixturevalue(size)
    open_file(page, server, ROOT / "examples" / game / "legal.yaml")
    if size == "phone":
        tab(page, "Add units")
    link = page.locator("#unit-list .unit-name").last
    link.scroll_into_view_if_needed()
    link.click()
    opened(page, "#preview-title")
    settled(page)
    title, cost = where(page, "#preview-title"), where(page, "#preview header p")
    above = title["bar"]
    if size == "desktop":  # the search, kept at the top of the unit list
        above = max(above, page.evaluate(
            "document.getElementById('filters').getBoundingClientRect().bottom"))
    assert title["top"] >= above and title["seen"], (title, above)
    assert cost["bottom"] <= cost["height"] and cost["seen"], cost


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_every_summary_chip_is_on_the_screen(request: pytest.FixtureRequest, server: str,
                                            size: str) -> None:
    """Every chip of the bar's summary, for every example roster, lies inside the viewport and
    is what shows at its own right end: none scrolled out of a strip, none clipped (Hammer
    Wars' Specialist/Hero/Heavy and ActionHammer's "Units 4/4" were off a phone's screen; its
    "Deploy all ... XP" was cut at 1280 px)."""
    page = request.getfixturevalue(size)
    cut: list[str] = []
    for path in EXAMPLES:
        open_file(page, server, path)
        cut += [f"{path.parent.name}/{path.name}: {chip}" for chip in page.evaluate(
            "() => [...document.querySelectorAll('#strip .chip')].filter(c => {"
            " const r = c.getBoundingClientRect();"
            " const hit = document.elementFromPoint(r.right - 3, (r.top + r.bottom) / 2);"
            " return r.left < 0 || r.right > innerWidth || !(hit && c.contains(hit)); })"
            ".map(c => c.textContent.trim())")]
    assert cut == []


@pytest.mark.parametrize("game", GAMES)
def test_the_quick_resolve_answer_is_brought_into_view_on_a_phone(phone: Page, server: str,
                                                                   game: str) -> None:
    """"Show the odds": the answer came 1,400-1,600 px below, after the settings the first
    answer adds, with no scroll. Now its summary is on the screen below the bar, and focus,
    lost with the button the answer replaced, is on the answer."""
    open_file(phone, server, ROOT / "examples" / game / "legal.yaml")
    tab(phone, "Quick resolve")
    target = phone.evaluate("document.querySelector('#rs-targets option').value")
    phone.get_by_label("Target unit").fill(target)
    phone.get_by_role("button", name="Show the odds").click()
    opened(phone, ".rs-results .rs-summary")
    settled(phone)
    summary = where(phone, ".rs-results .rs-summary")
    assert summary["top"] >= summary["bar"] and summary["bottom"] <= summary["height"], summary
    assert summary["seen"], summary
    assert phone.evaluate("!!document.activeElement.closest('.rs-results')")


def test_share_and_export_are_in_plain_view_on_a_phone(phone: Page, server: str) -> None:
    """Without a tap on any tab: the share link, Export YAML, Plain text and the folded edit
    link show on the roster's first screen (they were under the Print tab)."""
    open_file(phone, server, ROOT / "examples" / "op40k" / "legal.yaml")
    assert phone.evaluate("document.body.dataset.tab") == "roster"
    for control in (phone.get_by_label("Share link"),
                    phone.get_by_role("link", name="Export YAML"),
                    phone.get_by_role("link", name="Plain text"),
                    phone.get_by_text("Edit link and import")):
        assert control.is_visible()
        box = control.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
        assert box["y"] + box["height"] <= PHONE["height"], box  # the first screen
    tab(phone, "Add units")  # and still there with another part shown
    assert phone.get_by_label("Share link").is_visible()


def test_warstuffs_creator_starts_folded_on_a_phone(phone: Page, server: str) -> None:
    """A new WarStuff roster opened its unit creator with 35 rule boxes between the totals and
    the roster's units, its cost under them. On a phone it now starts folded; opened, its cost
    stays on the screen while a box far down is ticked; on a desktop it still opens."""
    start(phone, server, "WarStuff", "Creator on a phone")
    phone.get_by_label("Fantasy").check()
    submit_start(phone)
    opened(phone, "body[data-tab]", state="attached")
    assert not phone.locator("#creator").evaluate("d => d.open")
    between = phone.evaluate(
        "() => { const t = document.getElementById('totals'),"
        " e = document.getElementById('entries-title');"
        " return [...document.querySelectorAll('input[type=checkbox]')].filter(b =>"
        "  b.checkVisibility() && (t.compareDocumentPosition(b) & 4)"
        "  && (b.compareDocumentPosition(e) & 4)).length; }")
    assert between == 0
    gap = phone.evaluate("document.getElementById('entries-title').getBoundingClientRect().top"
                         " - document.getElementById('totals').getBoundingClientRect().bottom")
    assert gap < PHONE["height"] / 2, gap
    phone.locator("#creator summary").click()
    phone.get_by_label("Quality").select_option("3")
    far = phone.locator("#creator input[name=rules]").nth(30)
    far.scroll_into_view_if_needed()
    far.check()
    until(phone, "() => /Costs \\d+ pts/.test(document.getElementById('design-cost').innerText)")
    cost = where(phone, "#design-cost")
    assert cost["top"] >= cost["bar"] and cost["bottom"] <= cost["height"], cost
    assert cost["seen"] and far.is_visible()
    phone.set_viewport_size(DESKTOP)
    phone.reload()
    opened(phone, "body[data-tab]", state="attached")
    assert phone.locator("#creator").evaluate("d => d.open")


@pytest.mark.parametrize("game", ["spaceempires", "warstuff"])
def test_the_unit_search_stays_in_view_after_an_add_on_a_desktop(desktop: Page, server: str,
                                                                   game: str) -> None:
    """The last unit of a long list added: the search box is still on the screen, below the
    bar. (The column scrolled by itself, and on into the page, taking its search away.)"""
    open_file(desktop, server, ROOT / "examples" / game / "legal.yaml")
    last = desktop.locator("#unit-list .unit-row").last.get_by_role("button")
    last.scroll_into_view_if_needed()
    change(desktop, last.click)
    search = where(desktop, "#f-q")
    assert search["top"] >= search["bar"] and search["bottom"] <= search["height"], search
    assert search["seen"], search
    assert desktop.evaluate("document.activeElement.id") == last.get_attribute("id")


def test_the_share_view_uses_the_width_on_a_desktop(desktop: Page, server: str) -> None:
    """The read-only page kept a right column for a unit's profile, empty until one was asked
    for. With none it is one column as wide as the page; with one, the profile stands beside
    the roster."""
    open_file(desktop, server, ROOT / "examples" / "op40k" / "legal.yaml")
    share = desktop.get_by_label("Share link").input_value()
    desktop.goto(share)
    opened(desktop, "#entries")
    layout = desktop.evaluate(
        "() => { const l = document.querySelector('.layout').getBoundingClientRect();"
        " return [...document.querySelectorAll('.layout > *')].map(c => {"
        "  const r = c.getBoundingClientRect();"
        "  return {left: r.left - l.left, right: l.right - r.right,"
        "          text: c.innerText.trim()}; }); }")
    assert all(column["text"] for column in layout), layout  # no column without content
    assert len(layout) == 1 and layout[0]["left"] < 1 and layout[0]["right"] < 1, layout
    desktop.goto(share + "?preview=entry-0#preview")
    opened(desktop, "#preview-title")
    roster, profile = (desktop.locator(s).bounding_box() for s in ("#roster-panel", "#preview"))
    assert profile["x"] >= roster["x"] + roster["width"], (roster, profile)
