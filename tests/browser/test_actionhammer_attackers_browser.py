"""ActionHammer's movement and attackers in real Chromium (issue 50 items 7-9): on a 375 px
phone an activation picks its movement from a list, a wound names the enemy unit that dealt it
and how, both fit the phone, the log says who attacked, and the odds page asked for the
target alone starts from that attacker."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from test_table_browser import page_errors, refused_answers, start_match, tap

pytestmark = pytest.mark.browser

Page = Any
SIZE = {"width": 375, "height": 740}
MOVES = ["Remain Stationary", "Normal", "Advance", "Charge"]



def form_of(page: Page, kind: str, side: int, unit: int) -> Any:
    return page.locator(f"#board form.tap:has(input[name=kind][value={kind}])"
                        f":has(input[name=side][value='{side}'])"
                        f":has(input[name=unit][value='{unit}'])").first


def boxes(form: Any) -> list[dict[str, Any]]:
    """Each control of a tap's form as laid out: its name and its edges."""
    return list(form.evaluate("""f => [...f.querySelectorAll(
        'select, input:not([type=hidden]), button')].map(e => {
          const r = e.getBoundingClientRect();
          return {name: e.name || e.tagName, left: r.left, right: r.right, top: r.top,
                  bottom: r.bottom}; })"""))


def test_movement_and_attacker_are_picked_on_a_small_phone(
        server: str, small_phones: tuple[Any, Any], screenshots: Path) -> None:
    one, two = small_phones[0].new_page(), small_phones[1].new_page()
    errors = page_errors(one) + page_errors(two)
    refusals = [refused_answers(one), refused_answers(two)]
    match = start_match(server, one, two, "actionhammer")
    page = match.one
    tap(page, {"kind": "first-turn", "side": 1, "unit": None, "values": {}})

    # the Line Troopers' activation: a list of the four movements
    activate = form_of(page, "activate", 1, 1)
    activate.locator("xpath=ancestor::details[1]/summary").click()
    move = activate.locator("select[name=v_move]")
    assert move.locator("option").all_inner_texts() == MOVES
    tap(page, {"kind": "activate", "side": 1, "unit": 1,
               "values": {"stance": "Attacking", "objective": "1", "move": "Normal"}})

    # the Reaver Mob's wounds: which enemy unit dealt them, and how
    wound = form_of(page, "wound", 2, 1)
    details = wound.locator("xpath=ancestor::details[1]")
    if details.get_attribute("open") is None:
        details.locator(":scope > summary").click()
    wound.scroll_into_view_if_needed()
    # after a Normal move the Troopers and their Captain may only have shot: no list to pick
    assert wound.locator("input[type=hidden][name=v_attack]").input_value() == "shooting"
    by = wound.locator("select[name=v_by]")  # the units that may have shot, by name
    assert [o.get_attribute("value") for o in by.locator("option").all()] == ["1", "2"]
    assert all(name and not name.isdigit() for name in by.locator("option").all_inner_texts())
    shown = boxes(wound)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= SIZE["width"]
    for box in shown:
        assert box["left"] >= 0 and box["right"] <= SIZE["width"], box
        assert box["bottom"] - box["top"] >= 24, box
    page.screenshot(path=str(screenshots / "actionhammer-attacker-phone-375.png"))

    tap(page, {"kind": "wound", "side": 2, "unit": 1,
               "values": {"wounds": "4", "by": "1", "attack": "shooting"}})
    log = page.locator("#board details.log")
    log.locator("summary").click()
    assert "Wounds suffered from shooting by " in log.inner_text()
    assert "Activate with a Normal Move" in log.inner_text()
    page.screenshot(path=str(screenshots / "actionhammer-attacker-log-375.png"))

    page.goto(match.mine + "/odds?d=2.1")
    title = page.locator("#odds-title").inner_text()
    assert title.startswith("Odds: ") and "Line Troopers" in title
    page.screenshot(path=str(screenshots / "actionhammer-odds-follows-375.png"))

    events = yaml.safe_load(page.request.get(match.mine + "/match.yaml").text())["events"]
    assert events[-1] == {"kind": "wound", "side": 2, "unit": 1, "wounds": 4, "by": 1,
                          "attack": "shooting", "id": events[-1]["id"]}
    assert events[-2]["move"] == "Normal"
    assert refusals == [[], []] and errors == [], (refusals, errors)
