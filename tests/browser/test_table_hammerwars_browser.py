"""Hammer Wars' new taps on a 375 px phone (issue 50 items 7 to 9): each model's action, the
hit that names the model acting now, how it was made, and the odds page that opens on that
attacker. Two phones play the example's start; the screenshots are in output/screenshots/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_table_browser import example, plain, reaches, start_match, tap, version

from listbuilder.engine.match import Event

pytestmark = pytest.mark.browser

SIZE = {"width": 375, "height": 740}
# the buttons of side 1's Assault Specialists (unit 3) on side 2's phone, once Ben's Ranged
# Specialist holds and may shoot or fight
HITS = ("#board form.tap:has(input[name=kind][value=hit]):has(input[name=side][value='1'])"
        ":has(input[name=unit][value='3']) button[type=submit]")


def boxes(page: Any, selector: str) -> list[dict[str, float]]:
    return [b for b in (page.locator(selector).nth(i).bounding_box()
                        for i in range(page.locator(selector).count())) if b]


def test_a_hit_names_the_model_acting_and_the_odds_follow_it(
        server: str, browser: Any, screenshots: Path) -> None:
    made = [browser.new_context(viewport=SIZE, is_mobile=True, has_touch=True,
                                service_workers="block") for _ in range(2)]
    try:
        match = start_match(server, made[0].new_page(), made[1].new_page(), "hammerwars")
        events = list(example("hammerwars").events)
        shot = next(n for n, ev in enumerate(events) if ev.get("by"))

        def play(ev: Event, **spelled: str) -> None:
            """`ev` tapped, with the values it leaves out as the button sends them."""
            page, other = (match.two, match.one) if ev.side == 2 else (match.one, match.two)
            sent = plain(ev)
            tap(page, {**sent, "values": {**sent["values"], **spelled}})
            reaches(other, version(page))

        for ev in events[:shot]:
            play(ev)
        ben = match.two
        # Ann's Assault Specialists can be hit by the Ranged Specialist acting now: one
        # button a way, each whole on the phone and big enough to tap
        ben.evaluate("document.querySelectorAll('#board li.unit details')"
                     ".forEach(d => d.open = true)")
        words = [" ".join(t.split()) for t in ben.locator(HITS).all_inner_texts()]
        assert words == ["Lives lost to shooting", "Lives lost in melee"], words
        found = boxes(ben, HITS)
        assert len(found) == 2
        for box in found:
            assert box["x"] >= 0 and box["x"] + box["width"] <= SIZE["width"]
            assert box["height"] >= 44
        assert found[0]["y"] + found[0]["height"] <= found[1]["y"] or \
            found[0]["x"] + found[0]["width"] <= found[1]["x"]  # side by side or stacked
        assert ben.evaluate("document.documentElement.scrollWidth") <= SIZE["width"]
        ben.locator(HITS).first.scroll_into_view_if_needed()
        ben.screenshot(path=str(screenshots / "table-hammerwars-hit-by.png"))

        play(events[shot], lives="1")  # the shot: Ann loses an Assault Specialist
        log = ben.locator("#board details.log").text_content() or ""
        assert "Lives lost to shooting by Ranged Specialist" in log
        # asked for odds against a target alone, the page takes the attacker the log named
        odds = made[1].new_page()
        odds.goto(match.theirs + "/odds?d=1.3")
        title = " ".join(odds.locator("#odds-title").inner_text().split())
        assert title == "Odds: Ranged Specialist against Assault Specialist"
        assert odds.evaluate("document.documentElement.scrollWidth") <= SIZE["width"]
        odds.screenshot(path=str(screenshots / "table-hammerwars-odds-by.png"), full_page=True)
    finally:
        for ctx in made:
            ctx.close()
