"""The studio's form view in real Chromium: an ActionHammer unit built with a weapon and an
upgrade by the boxes alone (no YAML typed), a mistake marked beside its box by the live check,
fixed, saved, and seen in the YAML view; no policy violation, no serious axe finding at desktop
or phone width, no sideways scroll on a phone. Screenshots: output/screenshots/studio-form-*.png.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from browsertools import opened, start_pack, until
from test_accessibility import serious
from test_csp_browser import WATCH

pytestmark = pytest.mark.browser

CHECK = "() => document.querySelector('#pack-check').textContent"


def box(scope: Any, label: str) -> Any:
    """A box by its label, which says "optional" after the name of an optional key."""
    return scope.get_by_label(re.compile(rf"^\s*{re.escape(label)}( optional)?\s*$"))


def fill(scope: Any, boxes: dict[str, str]) -> None:
    for label, value in boxes.items():
        box(scope, label).fill(value)


def form_view(context: Any, server: str, name: str) -> Any:
    """A page on a new ActionHammer pack's form view, watched for policy violations."""
    context.add_init_script(WATCH)
    page = context.new_page()
    start_pack(page, server, name)
    page.get_by_role("button", name="Form", exact=True).click()
    # the form view is a page of its own: its scripts run before a click may go through htmx
    opened(page, "#pack-form[data-view='form']")
    return page


def test_a_unit_is_built_by_the_form_alone(context: Any, server: str,
                                           screenshots: Path) -> None:
    page = form_view(context, server, "Form Brigade")
    assert serious(page, "studio form, desktop") == []

    page.get_by_role("button", name="Add a datasheet").click()
    page.wait_for_selector("#pf-datasheets-2-name")
    # focus moves once htmx has settled the swap, a moment after the box appears
    until(page, "() => document.activeElement.id === 'pf-datasheets-2-name'")
    unit = page.locator("#pf-datasheets-2")
    fill(unit, {"Name": "Boyz", "Faction": "My Faction", "Keywords": "Infantry, Mob",
                "Move": "6", "Save": "6", "Wounds": "1", "Morale": "5", "Control": "1",
                "Min": "10", "Max": "20", "Pts": "8"})
    unit.get_by_role("button", name="Add a weapon").click()
    page.wait_for_selector("#pf-datasheets-2-weapons-0-name")
    unit = page.locator("#pf-datasheets-2")
    assert box(unit, "Name").first.input_value() == "Boyz"  # kept
    fill(page.locator("#pf-datasheets-2-weapons-0"),
         {"Name": "Choppa", "Range": "Melee", "Att": "2", "SK": "4", "AP": "-1"})
    unit.get_by_role("button", name="Add an upgrade").click()
    page.wait_for_selector("#pf-datasheets-2-upgrades-0-name")
    upgrade = page.locator("#pf-datasheets-2-upgrades-0")
    fill(upgrade, {"Name": "Eavy Armour", "Pts": "2", "Text": "Save becomes 5.",
                   "Effects": "[{set: save, to: 5}]"})
    box(upgrade, "Per model").check()

    # a mistake is named beside its box as it is typed, in the loader's words
    page.locator("#pf-datasheets-2-save").fill("9")
    until(page, "() => document.querySelector('#pf-datasheets-2-save-error')")
    said = page.locator("#pf-datasheets-2-save-error").inner_text()
    assert said == "must be 2 to 6, got 9"
    assert page.locator("#pf-datasheets-2-save").get_attribute("aria-invalid") == "true"
    assert "datasheets[2].save: must be 2 to 6, got 9" in page.locator("#pack-check").inner_text()
    page.screenshot(path=str(screenshots / "studio-form-problem.png"), full_page=True)
    page.locator("#pf-datasheets-2-save").fill("6")
    until(page, f"{CHECK}.includes('No problems')")
    assert page.locator("#pf-datasheets-2-save").get_attribute("aria-invalid") is None
    assert page.locator("#pf-datasheets-2-save-error").count() == 0
    check = page.locator("#pack-check").inner_text()
    assert "Boyz" in check and "80 pts" in check  # ten at 8
    assert "Eavy Armour (+2 each model)" in check
    page.screenshot(path=str(screenshots / "studio-form-checked.png"), full_page=True)

    # Enter in a box saves, as the Save button does
    page.locator("#pf-datasheets-2-weapons-0-name").press("Enter")
    page.wait_for_selector("text=Saved as version 2.")
    assert page.locator("#pack-form").get_attribute("data-view") == "form"
    page.get_by_role("button", name="YAML", exact=True).click()
    page.wait_for_selector("#pack-form[data-view='yaml']")
    text = page.get_by_label("The pack, as YAML").input_value()
    assert "  - name: Boyz\n" in text and "    keywords: [Infantry, Mob]\n" in text
    assert "      - {name: Choppa, range: Melee, att: 2, sk: 4, ap: -1}\n" in text
    assert "      - name: Eavy Armour\n        pts: 2\n        per_model: true\n" in text
    assert "Not saved yet" not in page.content()
    page.screenshot(path=str(screenshots / "studio-form-yaml.png"), full_page=True)

    page.get_by_role("button", name="Form", exact=True).click()
    page.wait_for_selector("#pack-form[data-view='form']")
    page.set_viewport_size({"width": 375, "height": 740})
    assert serious(page, "studio form, phone") == []
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the form scrolls sideways on a phone ({width} px)"
    page.locator("#pf-datasheets-2").screenshot(
        path=str(screenshots / "studio-form-phone.png"))
    assert page.evaluate("window.__violations") == []


def test_add_and_remove_swap_the_form_in_place_and_focus_follows(context: Any,
                                                                  server: str) -> None:
    """With htmx, Add and Remove redraw only the form: the page is not loaded again (a mark
    left on the window survives), what was typed stays, the check comes with the new item,
    and focus goes to the new item's first box after Add, to the list's Add button after
    Remove. A box out of its range does not hold Add back: the check names it."""
    page = form_view(context, server, "Swap Brigade")
    page.evaluate("window.__kept = 'same page'")
    active = "() => document.activeElement && document.activeElement.id"

    page.locator("#pf-datasheets-1-save").fill("9")  # out of its range: Add goes all the same
    page.get_by_role("button", name="Add a datasheet").click()
    until(page, f"({active})() === 'pf-datasheets-2-name'")
    assert page.evaluate("window.__kept") == "same page"
    assert page.locator("#pf-datasheets-1-save").input_value() == "9"  # kept as typed
    until(page, f"{CHECK}.includes('datasheets[2].name: required key is missing')")
    assert "datasheets[1].save: must be 2 to 6, got 9" in page.locator("#pack-check").inner_text()
    assert "Not saved yet" in page.locator("#pack-notices").inner_text()
    # the faction box offers the pack's own factions and the game's
    faction = page.locator("#pf-datasheets-2-faction")
    assert faction.get_attribute("list") == "pf-faction-names"
    offered = page.eval_on_selector_all("#pf-faction-names option", "os => os.map(o => o.value)")
    assert offered[0] == "My Faction" and "Cobalt Brigade" in offered
    page.keyboard.type("Boyz")  # focus is where typing goes on
    assert page.locator("#pf-datasheets-2-name").input_value() == "Boyz"

    unit = page.locator("#pf-datasheets-2")
    unit.get_by_role("button", name="Add a weapon").click()
    until(page, f"({active})() === 'pf-datasheets-2-weapons-0-name'")
    unit = page.locator("#pf-datasheets-2")
    unit.get_by_role("button", name=re.compile(r"^Remove Datasheet 3")).click()
    until(page, f"({active})() === 'pf-datasheets-add'")
    assert page.locator("#pf-datasheets-2").count() == 0
    assert page.evaluate("window.__kept") == "same page"
    page.locator("#pf-datasheets-1-save").fill("5")
    until(page, f"{CHECK}.includes('No problems')")
    # one box of each id: the swap left no second form or check behind
    assert page.locator("#pack-form").count() == 1 and page.locator("#pack-check").count() == 1
    assert page.evaluate("window.__violations") == []
