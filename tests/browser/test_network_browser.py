"""A dropped connection is never silent and never loses a change (static/js/edits.js), in real
Chromium with its network cut: the change is said at once and kept, then sent when the
connection returns; changes made in a burst land in order, each once; a change whose answer
was lost after the server saved it is not applied twice."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browsertools import opened, until
from test_accessibility import serious
from test_builder_browser import start, submit_start, unfold

pytestmark = pytest.mark.browser

Page = Any
BAR = "#connection"


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    """These tests are of the change queue alone: without the service worker, through which
    Chromium's offline switch let a change out to the server (its answer lost) in one CI run.
    The worker and the queue together: test_offline_browser.py."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900},
                              service_workers="block")
    ctx.set_default_timeout(15_000)
    try:
        yield ctx
    finally:
        ctx.close()


def new_roster(page: Page, server: str, name: str) -> str:
    start(page, server, "One Page 40k (1st edition)", name)
    page.get_by_label("Faction").select_option("Orks")
    submit_start(page)
    until(page, "() => [...document.querySelectorAll('#main form[hx-post]')]"
                ".every(f => (f['htmx-internal-data'] || {}).initHash)")
    return str(page.url)


def add_button(page: Page, unit: str) -> Any:
    return page.locator("#unit-list").get_by_role(
        "button", name=re.compile(rf"^Add {re.escape(unit)}( \(|$)"))


def entries(page: Page) -> list[str]:
    return [n.strip() for n in page.locator(".entry-name").all_inner_texts()]


def saved_version(page: Page) -> int:
    return int(page.locator("#saved-version").get_attribute("data-version"))


def settled(page: Page) -> None:
    until(page, "() => !document.querySelector('.htmx-request, .htmx-settling, .htmx-swapping')")


def test_a_change_made_offline_is_said_kept_and_sent_when_back(
        context: Any, server: str, screenshots: Path) -> None:
    page = context.new_page()
    url = new_roster(page, server, "Offline")
    context.set_offline(True)
    add_button(page, "Trukk").click()
    bar = page.locator(BAR)
    bar.wait_for(state="visible")
    said = bar.inner_text()
    assert "Not saved yet" in said and "Add Trukk" in said, said
    assert entries(page) == []
    kept = page.evaluate("() => JSON.parse(localStorage.getItem('lb-pending:' + "
                         "location.pathname))")
    assert [c["what"] for c in kept] == ["Add Trukk (Orks)"]
    add_button(page, "Nobz").click()  # a second one joins it, in order
    until(page, "() => document.querySelector('#connection').innerText.includes('2 changes')")
    # the bar sits at the foot of the screen, inside it
    box = bar.bounding_box()
    assert box and box["y"] + box["height"] <= 900 and box["y"] > 500
    page.screenshot(path=str(screenshots / "offline-bar.png"))
    context.set_offline(False)
    until(page, "() => document.querySelectorAll('.entry-name').length === 2", timeout=20)
    assert entries(page) == ["Trukk", "Nobz"]
    until(page, "() => document.querySelector('#connection').innerText.includes('Back online')")
    assert page.evaluate("localStorage.getItem('lb-pending:' + location.pathname)") is None
    fresh = context.new_page()
    fresh.goto(url)
    assert entries(fresh) == ["Trukk", "Nobz"]  # saved, not only shown


def test_a_size_typed_offline_and_entered_is_one_change_named_by_its_unit(
        context: Any, server: str) -> None:
    """Enter in a changed field both changes it and submits its form: the bar names one
    change, by its unit (not the "Update" button shown only without JavaScript), and one
    save lands when the connection is back."""
    page = context.new_page()
    new_roster(page, server, "Enter offline")
    add_button(page, "Ork Boyz").click()
    until(page, "() => document.querySelectorAll('.entry-name').length === 1")
    settled(page)
    before = saved_version(page)
    context.set_offline(True)
    unfold(page, 0)
    page.fill("#count-0", "25")
    page.press("#count-0", "Enter")
    bar = page.locator(BAR)
    bar.wait_for(state="visible")
    said = bar.inner_text()
    assert "1 change kept" in said and "a change to Ork Boyz" in said, said
    assert "Update" not in said, said
    assert page.input_value("#count-0") == "25"  # what the player typed stays
    context.set_offline(False)
    until(page, "() => document.querySelector('#connection').innerText.includes('Back online')",
          timeout=20)
    settled(page)
    assert saved_version(page) == before + 1
    assert "size 25" in page.locator("#entry-0-sum").inner_text()


def test_changes_kept_in_a_closed_tab_are_sent_when_it_opens_again(context: Any,
                                                                     server: str) -> None:
    page = context.new_page()
    url = new_roster(page, server, "Closed tab")
    context.set_offline(True)
    add_button(page, "Gretchin").click()
    add_button(page, "Lootas").click()
    until(page, "() => document.querySelector('#connection').innerText.includes('2 changes')")
    page.close()  # the store's Wi-Fi drops, the player closes the tab
    context.set_offline(False)
    again = context.new_page()
    again.goto(url)
    opened(again, "#units-title", state="attached")
    until(again, "() => document.querySelectorAll('.entry-name').length === 2", timeout=20)
    assert entries(again) == ["Gretchin", "Lootas"]
    settled(again)
    assert saved_version(again) == 3


def test_fifteen_quick_adds_land_in_order_each_once(context: Any, server: str) -> None:
    page = context.new_page()
    new_roster(page, server, "Burst")
    units = ["Ork Boyz", "Nobz", "Gretchin", "Lootas", "Trukk"] * 3
    # as fast as a script can click: every click before the first answer comes back
    page.evaluate("names => names.forEach(n => [...document.querySelectorAll("
                  "'#unit-list button')].find(b => b.getAttribute('aria-label') === 'Add ' + n"
                  "|| (b.getAttribute('aria-label') || '').startsWith('Add ' + n + ' (')).click())",
                  units)
    until(page, "() => document.querySelectorAll('.entry-name').length >= 15", timeout=60)
    settled(page)
    assert entries(page) == units
    until(page, "() => document.querySelector('#saved-version').dataset.version === '16'")
    assert page.locator(".notice.conflict").count() == 0


def test_a_change_made_while_a_preview_loads_is_sent_once(context: Any, server: str) -> None:
    """An Add pressed while a unit's preview is still loading waits in htmx's line behind it
    (the page's forms share one) and is sent once when the preview is in. Sent again meanwhile
    it went twice; the server saved it once, but the second answer, drawn for the page before
    the first, showed the unit twice."""
    page = context.new_page()
    url = new_roster(page, server, "Slow preview")
    held: list[Any] = []
    posts: list[str] = []
    page.route(re.compile(r".*[?&]preview="), lambda route: held.append(route))  # answered later
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    page.locator("#unit-list .unit-name", has_text="Nobz").first.click()
    until(page, "() => !!document.querySelector('#unit-list .htmx-request')")
    add_button(page, "Battlewagon").click()
    page.wait_for_timeout(400)  # the preview takes its time (a slow line): nothing else goes
    assert posts == [] and len(held) == 1
    assert page.locator(BAR).is_hidden()  # nothing said lost: the change is only waiting
    held[0].continue_()
    until(page, "() => !window.listbuilderPending()")
    settled(page)
    assert len(posts) == 1
    assert entries(page) == ["Battlewagon"] and saved_version(page) == 2
    assert page.locator(BAR).is_hidden()
    fresh = context.new_page()
    fresh.goto(url)
    assert entries(fresh) == ["Battlewagon"]


def test_a_change_whose_answer_was_lost_is_not_applied_twice(context: Any,
                                                            server: str) -> None:
    page = context.new_page()
    url = new_roster(page, server, "Lost answer")
    lost: list[str] = []

    def save_then_drop(route: Any) -> None:
        route.fetch()  # the server gets the change and saves it...
        lost.append(route.request.url)
        route.abort("connectionreset")  # ...and its answer never reaches the page

    page.route(re.compile(r".*/add(\?.*)?$"), save_then_drop)
    add_button(page, "Battlewagon").click()
    page.locator(BAR).wait_for(state="visible")
    assert "Not saved yet" in page.locator(BAR).inner_text()
    assert len(lost) == 1
    page.unroute(re.compile(r".*/add(\?.*)?$"))
    page.locator(BAR).get_by_role("button", name="Try now").click()
    until(page, "() => document.querySelectorAll('.entry-name').length === 1", timeout=20)
    settled(page)
    assert entries(page) == ["Battlewagon"]
    assert saved_version(page) == 2  # saved once: version 1 -> 2
    fresh = context.new_page()
    fresh.goto(url)
    assert entries(fresh) == ["Battlewagon"]


def test_changes_kept_offline_meet_a_change_made_elsewhere_and_the_player_chooses(
        context: Any, browser: Any, server: str) -> None:
    stale = context.new_page()
    url = new_roster(stale, server, "Two places")
    context.set_offline(True)
    add_button(stale, "Trukk").click()
    add_button(stale, "Gretchin").click()
    until(stale, "() => document.querySelector('#connection').innerText.includes('2 changes')")
    # meanwhile the roster changes on another device, which has a connection
    device = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        other = device.new_page()
        other.goto(url)
        opened(other, "#units-title", state="attached")
        until(other, "() => [...document.querySelectorAll('#main form[hx-post]')]"
                     ".every(f => (f['htmx-internal-data'] || {}).initHash)")
        with other.expect_response(lambda r: r.request.method == "POST"):
            add_button(other, "Nobz").click()
    finally:
        device.close()
    context.set_offline(False)
    # the first kept change meets the conflict notice; the one after it is set aside
    opened(stale, ".notice.conflict")
    assert "adding Trukk" in stale.locator(".notice.conflict").inner_text()
    until(stale, "() => document.querySelector('#connection').innerText.includes('waiting')")
    assert "Add Gretchin" in stale.locator(BAR).inner_text()
    assert entries(stale) == ["Nobz"]
    with stale.expect_response(lambda r: r.request.method == "POST"):
        stale.get_by_role("button", name="Apply my change to the latest version").click()
    until(stale, "() => document.querySelectorAll('.entry-name').length === 2")
    stale.locator(BAR).get_by_role("button", name="Apply it to the latest version").click()
    until(stale, "() => document.querySelectorAll('.entry-name').length === 3")
    settled(stale)
    assert entries(stale) == ["Nobz", "Trukk", "Gretchin"]
    assert stale.locator(BAR).is_hidden() or "waiting" not in stale.locator(BAR).inner_text()
    assert stale.evaluate("localStorage.getItem('lb-pending:' + location.pathname)") is None


BAR_TEXTS = """() => { window.__bar = [];
  const note = () => { const e = document.getElementById('connection');
    const t = e && !e.hidden ? e.innerText.trim() : '';
    if (t && window.__bar[window.__bar.length - 1] !== t) window.__bar.push(t); };
  new MutationObserver(note).observe(document.body,
    {subtree: true, childList: true, characterData: true, attributes: true}); }"""
SEEN = """s => { const e = document.querySelector(s); const r = e.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, (r.top + r.bottom) / 2);
  return {top: r.top, bottom: r.bottom, screen: innerHeight,
          seen: Boolean(hit && (e === hit || e.contains(hit))),
          hit: hit ? hit.outerHTML.slice(0, 160) : null}; }"""


def test_an_add_made_offline_shows_in_the_roster_at_once_and_is_not_counted(
        context: Any, server: str, screenshots: Path) -> None:
    """Offline, an Add is shown in the roster at once, under the saved units and marked "not
    saved yet" with the cost the unit list gives it; the totals and the summary say they do
    not count it (they are the server's, of the roster as saved: no figure is made up). The
    bar never says a change was saved, or that the connection is back, before the server has
    answered: a try made offline said "Connection back: sending…". Before, the roster did not
    change at all until the change was sent (still 5 entries, 255/500 pts here)."""
    page = context.new_page()
    new_roster(page, server, "Pending")
    page.get_by_text("Name, factions and points limit").click()
    page.get_by_label("Points limit").fill("500")
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.get_by_role("button", name="Save settings").click()
    settled(page)
    for unit in ("Nobz", "Trukk", "Gretchin", "Ork Boyz", "Lootas"):
        with page.expect_response(lambda r: r.request.method == "POST"):
            add_button(page, unit).click()
        settled(page)
    saved = entries(page)
    headline = page.locator("#totals .big").inner_text()
    assert len(saved) == 5 and headline == "255/500 pts", (saved, headline)
    page.evaluate(BAR_TEXTS)
    # where a busy machine's clicks once left the page: the roster's column reaching past the
    # screen's foot, so the line needs a short scroll to clear the bar; the note the totals
    # get, drawn after that scroll, then pushed the line back under the bar
    page.evaluate("() => { scrollTo(0, 168); document.querySelector('#roster-panel')"
                  ".scrollTop = 0; }")

    context.set_offline(True)
    add_button(page, "Trukk").click()
    line = page.locator("#pending-changes li")
    line.wait_for()
    # in the roster at once, on the screen, marked, with the unit list's cost
    assert line.count() == 1
    text = line.inner_text()
    assert "Trukk" in text and "40 pts" in text and "not saved yet" in text, text
    shown = dict(page.evaluate(SEEN, "#pending-changes li"))
    assert shown["top"] >= 0 and shown["bottom"] <= shown["screen"] and shown["seen"], shown
    assert "Not saved yet (1)" in page.locator("#pending-changes h3").inner_text()
    # the saved roster and its totals as they are, and said not to count it
    assert entries(page) == saved
    assert page.locator("#totals .big").inner_text() == headline
    assert "not counting 1 change not saved yet" in page.locator("#totals").inner_text()
    chip = page.locator("#strip .chip.pending")
    assert chip.inner_text() == "1 change not saved"
    assert dict(page.evaluate(SEEN, "#strip .chip.pending"))["seen"]
    # tried again by the player, twice, with no connection: nothing said saved or back
    for _ in range(2):
        page.locator(BAR).get_by_role("button", name="Try now").click()
        until(page, "() => document.querySelector('#connection').innerText"
                    ".includes('still no connection')")
    page.wait_for_timeout(300)
    # the bar says more now, and is taller: the line is still not under it
    shown = dict(page.evaluate(SEEN, "#pending-changes li"))
    assert shown["top"] >= 0 and shown["bottom"] <= shown["screen"] and shown["seen"], shown
    assert serious(page, "a change kept offline") == []
    page.screenshot(path=str(screenshots / "offline-pending-desktop.png"))
    said = page.evaluate("window.__bar")
    assert said and all("Not saved yet" in t for t in said), said
    assert not any("Connection back" in t or "Back online" in t for t in said), said
    assert "Trukk" not in page.locator("#said").inner_text()  # (it names the last saved)
    # the same on a phone's roster tab
    page.set_viewport_size({"width": 375, "height": 812})
    page.get_by_role("navigation", name="Parts of this page").get_by_role(
        "link", name="Roster", exact=True).click()
    page.locator("#pending-changes li").evaluate("e => e.scrollIntoView({block: 'center'})")
    assert dict(page.evaluate(SEEN, "#pending-changes li"))["seen"]
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.screenshot(path=str(screenshots / "offline-pending-phone.png"))
    page.set_viewport_size({"width": 1280, "height": 900})

    context.set_offline(False)
    until(page, "() => document.querySelector('#connection').innerText.includes('Back online')",
          timeout=20)
    settled(page)
    assert entries(page) == [*saved, "Trukk"]
    gone = page.locator("#pending-changes, #totals .pending-note, #strip .chip.pending")
    assert gone.count() == 0
    assert page.locator("#totals .big").inner_text() == "295/500 pts"
    assert "Back online: 1 change saved." in page.evaluate("window.__bar")
