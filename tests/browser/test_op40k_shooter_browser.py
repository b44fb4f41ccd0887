"""One Page 40k's shots name their shooter, seen on a 375 px phone in Chromium: the shot
tapped on the board carries the acting unit as `by`, the log says which enemy unit fired,
and the odds page asked without an attacker follows that shooter. Screenshots kept (and
looked at): op40k-shooter-log-375.png, op40k-shooter-odds-375.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browsertools import phone_pair
from test_table_browser import example, page_errors, plain, reaches, start_match, tap, version

pytestmark = pytest.mark.browser

PHONE = {"width": 375, "height": 812}


def test_the_log_and_the_odds_name_the_shooter(server: str, browser: Any,
                                               screenshots: Path) -> None:
    with phone_pair(browser, PHONE) as made:
        started = start_match(server, made[0].new_page(), made[1].new_page(), "op40k")
        one, two = started.one, started.two
        errors = page_errors(two)
        # side 2 goes first; its Scouts Walk and shoot 6 Gretchin: tapped on side 2's phone
        events = example("op40k").events[:3]
        assert events[2].get("by") == 4
        tap(one, plain(events[0]))
        reaches(two, version(one))
        for ev in events[1:]:
            tap(two, plain(ev))
        two.locator("#board details.log > summary").click()
        line = two.locator("#board details.log li").first  # the newest first
        assert "Grukk's Gretchin · Models removed by shooting from Scouts: models 6" \
            in " ".join(line.inner_text().split())
        line.scroll_into_view_if_needed()
        box = line.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        assert two.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        two.screenshot(path=str(screenshots / "op40k-shooter-log-375.png"))

        # odds against the Ork Boyz, no attacker named: the Scouts, who fired last
        two.goto(started.theirs + "/odds?d=1.1")
        title = two.locator("#odds-title")
        assert " ".join(title.inner_text().split()) == "Odds: 5x Scouts against 20x Ork Boyz"
        assert two.locator("#odds-summary").is_visible()
        heading = title.bounding_box()
        assert heading is not None and heading["x"] + heading["width"] <= PHONE["width"]
        assert two.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        two.screenshot(path=str(screenshots / "op40k-shooter-odds-375.png"))
        assert errors == []
