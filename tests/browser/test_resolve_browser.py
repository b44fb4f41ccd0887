"""Quick-resolve in real Chromium, for every system: open a roster (an example file, opened from
the home page), pick an attacker and a target, change one situation option, read the summary
and see the chart; add a second attacker and see both side by side on a desktop, stacked on a
phone. Screenshots go to output/screenshots/resolve-<system>-{desktop,phone}.png. Also: the
keyboard alone, and the same questions answered with JavaScript off."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from browsertools import opened, until

from listbuilder.engine.library import Library
from listbuilder.engine.model import Roster
from listbuilder.engine.registry import get_system
from listbuilder.engine.resolve import (
    OptionValue,
    Result,
    find_side,
    quick_resolve,
    side_from_entry,
    situation_options,
)

pytestmark = pytest.mark.browser

Page = Any
ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Case:
    target: str
    label: str  # the situation option changed, by its label on the page
    choice: str | None  # the value picked from its list; None: tick the box
    key: str
    value: OptionValue


CASES = {
    "hammerwars": Case("Support Specialist", "Target in cover", None, "cover", True),
    "op40k": Case("Veterans", "Shooting from higher ground", None, "elevation", True),
    "warstuff": Case("Orc Warrior", "Target's Wounds already taken", "1", "wounds", 1),
    "actionhammer": Case("Reaver Mob", "Attacker's stance", "Attacking", "attacker_stance",
                         "Attacking"),
    "spaceempires": Case("Predator Tanks", "Action cards", "random hands", "cards",
                         "random hands"),
}


def example(system_id: str) -> Path:
    return ROOT / "examples" / system_id / "legal.yaml"


def open_example(page: Page, base: str, system_id: str) -> None:
    """Open the system's example roster the way a player opens a file: from the home page."""
    page.goto(base + "/")
    page.set_input_files("#file", str(example(system_id)))
    page.get_by_role("button", name="Open file").click()
    opened(page, "#resolve-panel", state="attached")
    show_panel(page)


def show_panel(page: Page) -> None:
    """On a phone the roster page shows one part at a time: tap the Quick resolve tab."""
    if page.viewport_size["width"] < 960:
        page.get_by_role("navigation", name="Parts of this page").get_by_role(
            "link", name="Quick resolve").click()
    opened(page, "#resolve-panel")


def expected(library: Library, system_id: str, attacker: int, target: str,
             settings: dict[str, OptionValue]) -> Result:
    system = get_system(system_id)
    catalog = library.catalog(system)
    roster = library.read_roster(example(system_id).read_text(encoding="utf-8"), "x").roster
    return quick_resolve(system, catalog, side_from_entry(system, catalog, roster, attacker),
                         find_side(system, catalog, target), settings)


def summary(page: Page, column: int = 1) -> str:
    return str(page.locator(f"#rs-col-{column} .rs-summary").inner_text())


def answered(page: Page, column: int, text: str) -> None:
    """Wait until the column shows this summary (the panel is swapped in place by htmx)."""
    until(page,
        "([n, t]) => { const s = document.querySelector(`#rs-col-${n} .rs-summary`);"
        " return s && s.textContent.trim() === t; }", arg=[column, text])


def swapped(page: Page, action: Any) -> None:
    """Do something that asks again, and wait for the new panel."""
    page.evaluate("document.getElementById('resolve-panel').dataset.old = '1'")
    action()
    until(page,
        "() => { const p = document.getElementById('resolve-panel');"
        " return p && !p.dataset.old && !document.querySelector('.htmx-request'); }")


def panel_shot(page: Page, path: Path) -> None:
    """The panel alone, from a whole-page picture taken from the top (so the roster's sticky
    strip stays at the top of the page instead of over the panel)."""
    page.evaluate("window.scrollTo(0, 0)")
    box = page.evaluate(
        "() => { const r = document.getElementById('resolve').getBoundingClientRect();"
        " return {x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height}; }")
    page.screenshot(path=str(path), full_page=True, clip=box)


def roster_of(library: Library, system_id: str) -> Roster:
    return library.read_roster(example(system_id).read_text(encoding="utf-8"), "x").roster


@pytest.mark.parametrize("system_id", list(CASES))
def test_resolve_on_the_roster_page(page: Page, server: str, screenshots: Path,
                                    library: Library, system_id: str) -> None:
    case = CASES[system_id]
    system = get_system(system_id)
    catalog = library.catalog(system)
    roster = roster_of(library, system_id)
    first = side_from_entry(system, catalog, roster, 0)
    second = side_from_entry(system, catalog, roster, 1)
    open_example(page, server, system_id)
    assert "Pick a target to see the odds." in page.locator("#resolve-panel").inner_text()

    swapped(page, lambda: page.get_by_label("Attacker", exact=True).select_option(
        label=first.label))
    page.get_by_label("Target unit").fill(case.target)
    swapped(page, lambda: page.get_by_label("Target unit").press("Enter"))
    before = expected(library, system_id, 0, case.target, {})
    answered(page, 1, before.summary)
    assert page.locator("#rs-col-1 svg").is_visible()

    control = page.locator("#resolve-panel").get_by_label(case.label, exact=True)
    if case.choice is None:
        swapped(page, control.check)
    else:
        swapped(page, lambda: control.select_option(case.choice))
    changed = expected(library, system_id, 0, case.target, {case.key: case.value})
    assert changed.summary != before.summary  # the case shows a setting that matters
    answered(page, 1, changed.summary)
    page.get_by_text("How it was worked out").first.click()
    worked = page.locator("#rs-col-1 .rs-more").nth(1).inner_text()
    shown_value = case.choice or "yes"
    assert f"{case.label}: {shown_value}" in worked
    svg = page.locator("#rs-col-1 svg")
    assert svg.is_visible() and svg.locator("rect").count() > 2
    assert changed.summary in svg.locator("title").first.text_content()

    # a second attacker against the same target, the changed setting kept where it applies
    swapped(page, lambda: page.get_by_label("Compare with (optional)").select_option(
        label=second.label))
    target = find_side(system, catalog, case.target)
    one = {o.key: o for o in situation_options(system, catalog, first, target)}
    two = {o.key: o for o in situation_options(system, catalog, second, target)}
    applies = case.key in two and two[case.key] == one[case.key]
    answered(page, 1, changed.summary)
    answered(page, 2, expected(library, system_id, 1, case.target,
                               {case.key: case.value} if applies else {}).summary)
    assert page.locator("#rs-col-2 svg").is_visible()

    page.set_viewport_size({"width": 1280, "height": 900})
    left, right = (page.locator(f"#rs-col-{n}").bounding_box() for n in (1, 2))
    assert abs(left["y"] - right["y"]) < 2 and right["x"] >= left["x"] + left["width"]
    panel_shot(page, screenshots / f"resolve-{system_id}-desktop.png")

    page.set_viewport_size({"width": 375, "height": 812})
    show_panel(page)
    left, right = (page.locator(f"#rs-col-{n}").bounding_box() for n in (1, 2))
    assert right["y"] >= left["y"] + left["height"] - 1  # stacked
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the page is {width}px wide at a 375px phone width"
    chart = page.locator("#rs-col-1 svg").bounding_box()
    assert chart["width"] >= 280  # scaled to the phone, not shrunk to a stamp
    panel_shot(page, screenshots / f"resolve-{system_id}-phone.png")


def test_keyboard_only_at_phone_width(page: Page, server: str, library: Library) -> None:
    """Type a target and press Enter, then Tab to a box and tick it with Space: each answer
    comes in place and the focus stays where it was."""
    page.set_viewport_size({"width": 375, "height": 812})
    open_example(page, server, "op40k")
    page.get_by_label("Target unit").focus()
    page.keyboard.type("Veterans")
    swapped(page, lambda: page.keyboard.press("Enter"))
    answered(page, 1, expected(library, "op40k", 0, "Veterans", {}).summary)
    assert page.evaluate("document.activeElement.id") == "rs-target"
    for _ in range(20):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "rs-o-elevation":
            break
    assert page.evaluate("document.activeElement.id") == "rs-o-elevation"
    swapped(page, lambda: page.keyboard.press("Space"))
    answered(page, 1, expected(library, "op40k", 0, "Veterans", {"elevation": True}).summary)
    assert page.evaluate("document.activeElement.id") == "rs-o-elevation"


def test_a_box_ticked_before_htmx_wires_the_new_panel_still_asks(page: Page, server: str,
                                                                 library: Library) -> None:
    """An answer swaps the whole panel in, and htmx wires its form a moment later (its settle
    delay): a box ticked in that moment asked nothing (seen as a flaky keyboard test). The
    form here is a copy of itself, which htmx has never seen; Enter in it asks in place too,
    not by loading the whole page again."""
    open_example(page, server, "op40k")
    page.evaluate("window.samePage = true")  # gone if the page is loaded again

    def unwired() -> None:
        page.evaluate("() => { const f = document.querySelector('form.rs-form');"
                      " f.replaceWith(f.cloneNode(true)); }")
        assert not page.evaluate("() => !!(document.querySelector('form.rs-form')"
                                 "['htmx-internal-data'] || {}).initHash")

    unwired()
    page.get_by_label("Target unit").fill("Veterans")
    swapped(page, lambda: page.keyboard.press("Enter"))
    answered(page, 1, expected(library, "op40k", 0, "Veterans", {}).summary)
    unwired()
    page.focus("#rs-o-elevation")
    swapped(page, lambda: page.keyboard.press("Space"))
    answered(page, 1, expected(library, "op40k", 0, "Veterans", {"elevation": True}).summary)
    assert page.evaluate("window.samePage === true")


def test_a_name_picked_from_the_list_answers_at_once(page: Page, server: str,
                                                      library: Library) -> None:
    """Choosing a suggestion fires an input event of its own kind (no Enter needed); plain
    typing waits, so a half-typed name is never answered."""
    open_example(page, server, "warstuff")
    page.get_by_label("Target unit").fill("Orc")
    page.wait_for_timeout(300)
    assert "Pick a target" in page.locator("#resolve-panel").inner_text()
    swapped(page, lambda: page.evaluate(
        "() => { const t = document.getElementById('rs-target'); t.value = 'Orc Warrior';"
        " t.dispatchEvent(new InputEvent('input', {bubbles: true,"
        " inputType: 'insertReplacementText'})); }"))
    answered(page, 1, expected(library, "warstuff", 0, "Orc Warrior", {}).summary)
    # the box itself is kept through every swap, so text typed meanwhile is never lost
    page.evaluate("document.getElementById('rs-target').dataset.kept = 'yes'")
    page.get_by_label("Target unit").fill("Orc Warrior")
    swapped(page, lambda: page.get_by_label("Target stunned").check())
    assert page.evaluate("document.getElementById('rs-target').dataset.kept") == "yes"
    assert page.get_by_label("Target unit").input_value() == "Orc Warrior"


def test_resolve_works_without_javascript(browser: Any, server: str, library: Library) -> None:
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        open_example(page, server, "hammerwars")
        page.get_by_label("Target unit").fill("Assault Specialist")
        with page.expect_navigation():
            page.get_by_role("button", name="Show the odds").click()
        assert "/resolve?" in page.url
        assert summary(page) == expected(library, "hammerwars", 0, "Assault Specialist",
                                         {}).summary
        assert page.locator("#rs-col-1 svg").is_visible()
        page.get_by_label("Target in cover").check()
        with page.expect_navigation():
            page.get_by_role("button", name="Show the odds").click()
        assert page.get_by_label("Target in cover").is_checked()
        assert summary(page) == expected(library, "hammerwars", 0, "Assault Specialist",
                                         {"cover": True}).summary
        page.get_by_role("link", name="back to the roster").click()
        opened(page, "#units-title")
    finally:
        context.close()


def test_odds_follow_a_change_to_the_roster(page: Page, server: str, library: Library) -> None:
    """A change to the roster redraws only the panel's attacker lists: the unit picked stays
    picked, the target stays, and the odds shown are asked again for the roster as it is now
    (the Nobz made bigger fight as 7, not 5)."""
    from dataclasses import replace

    system = get_system("op40k")
    catalog = library.catalog(system)
    roster = roster_of(library, "op40k")
    nobz = side_from_entry(system, catalog, roster, 1)
    open_example(page, server, "op40k")
    swapped(page, lambda: page.get_by_label("Attacker", exact=True).select_option(
        label=nobz.label))
    page.get_by_label("Target unit").fill("Veterans")
    swapped(page, lambda: page.get_by_label("Target unit").press("Enter"))
    answered(page, 1, expected(library, "op40k", 1, "Veterans", {}).summary)

    page.locator("#entry-1-sum").click()
    page.fill("#count-1", "7")
    page.press("#count-1", "Enter")
    bigger = replace(roster, entries=[*roster.entries[:1], replace(roster.entries[1], count=7),
                                      *roster.entries[2:]])
    grown = side_from_entry(system, catalog, bigger, 1)
    assert grown.label != nobz.label
    want = quick_resolve(system, catalog, grown, find_side(system, catalog, "Veterans"), {})
    assert want.summary != expected(library, "op40k", 1, "Veterans", {}).summary
    answered(page, 1, want.summary)
    picked = page.locator("#rs-a1 option:checked")
    assert picked.inner_text() == grown.label
    assert page.get_by_label("Target unit").input_value() == "Veterans"


def test_a_new_empire_fights_with_its_starting_chits(page: Page, server: str, tmp_path: Path,
                                                     library: Library) -> None:
    """A Space Empires roster with nothing recruited yet still fields its 20 starting chits:
    the attacker list offers each kind drawn, marked as fielded besides the list, and one
    picked fights (as the engine works it out for the same roster)."""
    text = ("format: 1\nsystem: spaceempires\nname: Fresh\nfactions: [Orks]\n"
            "choices: {seed: 2024, homeworlds: 1, treasury: 0}\nentries: []\n")
    path = tmp_path / "fresh.yaml"
    path.write_text(text)
    page.goto(server + "/")
    page.set_input_files("#file", str(path))
    page.get_by_role("button", name="Open file").click()
    opened(page, "#resolve-panel", state="attached")
    show_panel(page)
    options = page.locator("#rs-a1 option")
    labels = options.all_inner_texts()
    drawn = [t for t in labels if t.endswith("(fielded besides the list)")]
    assert drawn and len(drawn) == len(labels), labels
    value = options.nth(len(labels) - 1).get_attribute("value")
    assert value is not None
    system = get_system("spaceempires")
    catalog = library.catalog(system)
    roster = library.read_roster(text, "x").roster
    index = int(value.split(":")[0])
    side = side_from_entry(system, catalog, roster, index)
    swapped(page, lambda: page.locator("#rs-a1").select_option(value))
    page.get_by_label("Target unit").fill("Predator Tanks")
    swapped(page, lambda: page.get_by_label("Target unit").press("Enter"))
    want = quick_resolve(system, catalog, side, find_side(system, catalog, "Predator Tanks"), {})
    answered(page, 1, want.summary)
