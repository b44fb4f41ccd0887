"""WarStuff's loss buttons naming their attacker, on a 375 px phone: the boxes for how and by
whom sit inside the screen beside a 44 px button, show the enemy unit that activated last,
and one tap records the loss with its attacker; the odds page then starts from that unit."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browsertools import phone_pair
from test_accessibility import serious
from test_table_browser import example, plain, reaches, start_match, tap, version

pytestmark = pytest.mark.browser

SIZE = {"width": 375, "height": 740}
# the Goblin Warrior's kill, naming an attacker (side 1's unit 4, its only copy)
KILL = "#u1-4-1 form.tap:has(input[name=kind][value=kill]):has([name=v_by])"


def boxes(page: Any, selector: str) -> dict[str, dict[str, float]]:
    """Each pick's box and the button of the form `selector`, by name."""
    return dict(page.evaluate(
        "s => { const f = document.querySelector(s); const out = {};"
        " f.querySelectorAll('label.pick').forEach(l => { const r = l.getBoundingClientRect();"
        "   out[l.querySelector('[name]').name] = {left: r.left, right: r.right, top: r.top,"
        "     bottom: r.bottom}; });"
        " const b = f.querySelector('button').getBoundingClientRect();"
        " out.button = {left: b.left, right: b.right, top: b.top, bottom: b.bottom};"
        " return out; }", selector))


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return a["left"] < b["right"] and b["left"] < a["right"] and \
        a["top"] < b["bottom"] and b["top"] < a["bottom"]


def test_a_loss_names_its_attacker_on_a_small_phone(server: str, browser: Any,
                                                     screenshots: Path) -> None:
    with phone_pair(browser, SIZE) as made:
        match = start_match(server, made[0].new_page(), made[1].new_page(), "warstuff")
        one, two = match.one, match.two
        # Ben wins deployment, his Sergeant holds and commands the Breacher (unit 3) to Run
        tap(two, plain(example("warstuff").events[0]))
        tap(two, {"kind": "activate", "side": 2, "unit": 1,
                  "values": {"action": "Hold", "copy": "1"}})
        tap(two, {"kind": "activate", "side": 2, "unit": 3,
                  "values": {"action": "Run", "copy": "1", "commanded": "yes"}})
        reaches(one, version(two))
        one.locator("#u1-4-1 > summary").click()
        form = one.locator(KILL)
        assert form.count() == 1
        # what the boxes show before the player changes them: the Breacher, in melee (it ran)
        assert form.locator("[name=v_by]").input_value() == "3"
        assert form.locator("[name=v_by_copy]").input_value() == "1"
        assert form.locator("[name=v_attack]").input_value() == "melee"
        form.scroll_into_view_if_needed()
        one.screenshot(path=str(screenshots / "table-warstuff-attacker-375.png"))
        found = boxes(one, KILL)
        # Ben's entries have one copy each: the copy is fixed, not a box
        assert set(found) == {"v_attack", "v_by", "button"}
        for name, box in found.items():
            assert box["left"] >= 0 and box["right"] <= SIZE["width"], (name, box)
        names = sorted(found)
        assert not [(a, b) for a in names for b in names
                    if a < b and overlap(found[a], found[b])], found
        assert found["button"]["bottom"] - found["button"]["top"] >= 44
        assert one.evaluate("document.documentElement.scrollWidth") <= SIZE["width"]
        assert serious(one, "warstuff board with attacker boxes") == []
        form.locator("button[type=submit]").click()
        one.wait_for_function("() => document.querySelector('#board').innerText"
                              ".includes('Goblin Warrior · Killed in melee by Breacher')")
        # the Human Warrior's row offers the Breacher's odds against it: one tap
        one.locator("#u1-1-1 > summary").click()
        link = one.locator("#u1-1-1 .odds-by a")
        assert link.inner_text() == "Odds: Breacher against it"
        box = link.bounding_box()
        assert box is not None and box["height"] >= 44 and box["x"] + box["width"] <= 375
        link.scroll_into_view_if_needed()
        one.screenshot(path=str(screenshots / "table-warstuff-odds-by-375.png"))
        link.click()
        one.wait_for_selector("#odds-title")
        assert "Odds: Breacher against Human Warrior" in one.locator("#odds-title").inner_text()
        one.goto(match.mine.split("?")[0] + "/odds?d=1.1")
        assert "Odds: Breacher against Human Warrior" in one.locator("#odds-title").inner_text()
        one.screenshot(path=str(screenshots / "table-warstuff-odds-follows-375.png"))
