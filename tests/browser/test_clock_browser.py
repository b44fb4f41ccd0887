"""The clock on two phones in real Chromium (issue 50 item 12), in every game: phone 1 starts
it with a time limit, hands over ("My move is done"), phone 2 pauses it, phone 1 resumes it,
and after each tap both phones show the same clock (whose runs, each side's time as the server
drew it). The running figure ticks between redraws; the figures are read across a table
(at least 1.5 times the body's text) and stay in view, in the sticky head, down the page.
Screenshots at 375 px and 1280 px go to output/screenshots/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from browsertools import opened, until
from test_accessibility import serious
from test_table_browser import GAMES, in_view, reaches, sent, start_match, version

pytestmark = pytest.mark.browser

Page = Any
STATE = ("() => { const c = document.querySelector('#clock'); if (!c) return null;"
         " return {running: [...c.querySelectorAll('.clock-face.running')].map(f => f.id),"
         " paused: c.classList.contains('paused'),"
         " still: [...c.querySelectorAll('.clock-face:not(.running)')]"
         "   .map(f => [f.id, f.getAttribute('data-ms')]),"
         " left: !!c.querySelector('#clock-left')}; }")


def clock_state(page: Page) -> dict[str, Any] | None:
    state: dict[str, Any] | None = page.evaluate(STATE)
    return state


def press(page: Page, name: str) -> None:
    page.locator("#clock").get_by_role("button", name=name).click()
    sent(page)


def same_on_both(one: Page, two: Page) -> dict[str, Any]:
    """Phone 2 brought to phone 1's version by its poll, then the clock read on both."""
    reaches(two, version(one))
    seen = clock_state(one)
    assert seen is not None
    assert clock_state(two) == seen
    return seen


def sizes(page: Page) -> dict[str, float]:
    return dict(page.evaluate(
        "() => { const px = e => parseFloat(getComputedStyle(e).fontSize);"
        " const t = document.querySelector('#clock .clock-face .clock-time');"
        " const r = document.querySelector('#clock').getBoundingClientRect();"
        " return {figure: px(t), body: px(document.body), left: r.left, right: r.right,"
        " width: innerWidth, scroll: document.documentElement.scrollWidth}; }"))


@pytest.mark.parametrize("game", GAMES)
def test_two_phones_share_one_clock_in_every_game(server: str, browser: Any, game: str,
                                                  screenshots: Path) -> None:
    size = {"width": 375, "height": 740}
    made = [browser.new_context(viewport=size, is_mobile=True, has_touch=True,
                                service_workers="block") for _ in range(2)]
    try:
        for ctx in made:
            ctx.set_default_timeout(15_000)
        match = start_match(server, made[0].new_page(), made[1].new_page(), game)
        one, two = match.one, match.two
        assert clock_state(one) is None and clock_state(two) is None
        one.locator("#clock-start > summary").click()
        if game == GAMES[0]:
            one.screenshot(path=str(screenshots / "clock-phone-before-start.png"))
        one.select_option("#clock-first", "1")
        one.fill("#clock-minutes", "60")
        one.get_by_role("button", name="Start clock").click()
        sent(one)
        seen = same_on_both(one, two)
        assert seen["running"] == ["clock-1"] and not seen["paused"] and seen["left"]
        # the running figure ticks here between redraws, from the server's numbers
        figure = "#clock-1 .clock-time"
        shown = two.inner_text(figure)
        until(two, "([s, was]) => document.querySelector(s).textContent !== was",
              arg=[figure, shown], timeout=5)
        assert two.get_by_role("button", name="Start my clock").count() == 1
        press(one, "My move is done")
        seen = same_on_both(one, two)
        assert seen["running"] == ["clock-2"]
        press(two, "Pause clock")
        reaches(one, version(two))
        seen = same_on_both(one, two)
        assert seen["running"] == [] and seen["paused"]
        assert "Paused." in one.inner_text("#clock-status")
        press(one, "Resume clock")
        seen = same_on_both(one, two)
        assert seen["running"] == ["clock-2"] and not seen["paused"]
        # read across a table, in the sticky head, on a 375 px phone
        for page in (one, two):
            got = sizes(page)
            assert got["figure"] >= 1.5 * got["body"], got
            assert got["left"] >= 0 and got["right"] <= got["width"], got
            assert got["scroll"] <= size["width"], got
            # down at the last unit of the board, where a player taps late in the page
            page.evaluate("[...document.querySelectorAll('#board .unit')].pop()"
                          ".scrollIntoView({block: 'end'})")
            assert page.evaluate("scrollY") > 0
            assert in_view(page, "#clock .clock-faces"), "the clock scrolled out of view"
            assert in_view(page, "#clock .clock-buttons"), "its buttons scrolled away"
            page.evaluate("window.scrollTo(0, 0)")
        two.screenshot(path=str(screenshots / f"clock-phone-{game}.png"))
        if game == GAMES[0]:  # the clock's markup is the same in every game
            assert serious(two, "match page with the clock") == []
        # the summary: each side's time and the rounds
        one.goto(match.mine + "/summary")
        opened(one, "#summary-clock")
        assert "Time used" in one.inner_text("#summary-clock")
    finally:
        for ctx in made:
            ctx.close()


def test_the_clock_on_a_desktop(server: str, browser: Any, screenshots: Path) -> None:
    made = [browser.new_context(viewport={"width": 1280, "height": 800},
                                service_workers="block") for _ in range(2)]
    try:
        match = start_match(server, made[0].new_page(), made[1].new_page(), "hammerwars")
        one, two = match.one, match.two
        one.locator("#clock-start > summary").click()
        one.fill("#clock-minutes", "120")
        one.get_by_role("button", name="Start clock").click()
        sent(one)
        press(one, "My move is done")
        seen = same_on_both(one, two)
        assert seen["running"] == ["clock-2"]
        got = sizes(one)
        assert got["figure"] >= 1.5 * got["body"] and got["scroll"] <= got["width"], got
        one.screenshot(path=str(screenshots / "clock-desktop.png"))
        assert serious(one, "desktop match page with the clock") == []
        one.goto(match.mine + "/summary")
        opened(one, "#summary-clock")
        one.screenshot(path=str(screenshots / "clock-summary-desktop.png"), full_page=True)
        assert serious(one, "summary with the clock") == []
    finally:
        for ctx in made:
            ctx.close()


def test_a_clock_tap_made_offline_counts_from_when_it_was_made(
        server: str, browser: Any) -> None:
    """Phone 2 pauses the clock without a connection; the tap waits, is sent when the
    connection returns, and the pause is recorded at the phone's time of the tap, not at
    its arrival: the time the clock ran is the time it really ran."""
    size = {"width": 375, "height": 740}
    made = [browser.new_context(viewport=size, is_mobile=True, has_touch=True,
                                service_workers="block") for _ in range(2)]
    try:
        match = start_match(server, made[0].new_page(), made[1].new_page(), "warstuff")
        one, two = match.one, match.two
        one.locator("#clock-start > summary").click()
        one.get_by_role("button", name="Start clock").click()
        sent(one)
        reaches(two, version(one))
        made[1].set_offline(True)
        before = two.evaluate("Date.now()")
        two.locator("#clock").get_by_role("button", name="Pause clock").click()
        after = two.evaluate("Date.now()")
        until(two, "() => document.querySelectorAll('#pending li').length === 1", timeout=2)
        assert "Pause clock" in two.inner_text("#pending")
        waiting = clock_state(two)
        assert waiting is not None and waiting["running"] == ["clock-1"]
        # the connection comes back a while later (its time read after the wait)
        until(two, "() => document.querySelector('#sync').textContent"
                   ".includes('No connection')", timeout=10)
        back = two.evaluate("Date.now()")
        made[1].set_offline(False)
        sent(two, timeout=20)
        reaches(one, version(two))
        seen = same_on_both(one, two)
        assert seen["paused"] and seen["running"] == []
        log = yaml.safe_load(one.request.get(match.mine + "/match.yaml").text())
        pause = [e for e in log["events"] if e["kind"] == "clock-pause"]
        assert len(pause) == 1
        assert before <= pause[0]["at"] <= after < back
    finally:
        for ctx in made:
            ctx.close()
