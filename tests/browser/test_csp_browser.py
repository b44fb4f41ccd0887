"""The security policy blocks nothing the pages need: in real Chromium, every system's roster
page, an htmx edit, the print page and quick resolve run without a single policy violation."""

from __future__ import annotations

from typing import Any

import pytest
from browsertools import opened, until

pytestmark = pytest.mark.browser

WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation",
    e => window.__violations.push(e.violatedDirective + " " + (e.blockedURI || "inline")));
"""
STARTS = {"op40k": "Orks", "warstuff": "Fantasy", "hammerwars": "Tau",
          "actionhammer": "Cobalt Brigade", "spaceempires": "Orks"}


@pytest.mark.parametrize("system", sorted(STARTS))
def test_pages_and_edits_run_under_the_policy(context: Any, server: str, system: str) -> None:
    context.add_init_script(WATCH)
    page = context.new_page()
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: console.append(str(e)))
    page.goto(f"{server}/new/{system}")
    page.get_by_label("Roster name").fill("Policy check")
    faction = page.get_by_label(STARTS[system], exact=True)
    if faction.count():
        faction.first.check()
    page.get_by_role("button", name="Start roster").click()
    opened(page, "#units-title")
    assert page.evaluate("document.documentElement.classList.contains('js')")
    # a click before htmx has wired the forms posts natively (a 302 and a whole new page)
    until(page, "() => [...document.querySelectorAll('form[hx-post]')]"
                "  .every(f => (f['htmx-internal-data'] || {}).initHash)")
    adds = page.locator("#unit-list button", has_text="Add")
    with page.expect_response(lambda r: r.request.method == "POST") as answer:
        adds.first.click()
    assert answer.value.ok
    page.wait_for_load_state("networkidle")
    assert page.evaluate("window.__violations") == []
    page.goto(f"{server}/systems/{system}/print")
    page.goto(f"{server}/")
    assert page.evaluate("window.__violations") == []
    assert not [m for m in console if "Content Security Policy" in m], console


def test_the_pages_added_since_run_under_the_policy(context: Any, server: str) -> None:
    """The offline page, the rules notes, a list link made and followed, the theme switch,
    a unit duplicated and an entry moved by its handle: not one policy violation."""
    context.add_init_script(WATCH)
    page = context.new_page()
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: console.append(str(e)))
    page.goto(f"{server}/new/op40k")
    page.get_by_label("Roster name").fill("Policy check, later pages")
    page.get_by_label("Faction").select_option("Orks")
    page.get_by_role("button", name="Start roster").click()
    opened(page, "#units-title")
    until(page, "() => [...document.querySelectorAll('form[hx-post]')]"
                "  .every(f => (f['htmx-internal-data'] || {}).initHash)")
    for unit in ("Nobz", "Trukk"):
        with page.expect_response(lambda r: r.request.method == "POST"):
            page.locator("#unit-list").get_by_role(
                "button", name=f"Add {unit} (Orks)").click()
        page.wait_for_load_state("networkidle")
    page.locator("#entry-0-sum").click()
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.get_by_role("button", name="Duplicate").first.click()
    page.wait_for_load_state("networkidle")
    page.locator("#handle-2").focus()
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.keyboard.press("Home")
    page.wait_for_load_state("networkidle")
    page.select_option("#theme-choice", "dark")
    assert page.evaluate("window.__violations") == []
    for path in ("/offline", "/notes", "/"):
        page.goto(server + path)
        assert page.evaluate("window.__violations") == [], path
    page.locator("#devices summary").click()
    with page.expect_navigation():
        page.get_by_role("button", name="Get a link to this list").click()
    page.goto(page.locator("#list-link").input_value())
    assert page.evaluate("window.__violations") == []
    assert not [m for m in console if "Content Security Policy" in m], console


def test_dragging_an_entry_runs_under_the_policy(context: Any, server: str) -> None:
    """An entry dragged by its handle with the mouse, and dropped elsewhere: not one policy
    violation. Each drag logged one: the script moved the line with a style it set, and left
    an empty style attribute on it, which htmx copied onto the redrawn line as it settled
    (inline style, which the policy refuses)."""
    context.add_init_script(WATCH)
    page = context.new_page()
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    page.goto(f"{server}/new/op40k")
    page.get_by_label("Roster name").fill("Policy check, dragging")
    page.get_by_label("Faction").select_option("Orks")
    page.get_by_role("button", name="Start roster").click()
    opened(page, "#units-title")
    until(page, "() => [...document.querySelectorAll('form[hx-post]')]"
                "  .every(f => (f['htmx-internal-data'] || {}).initHash)")
    for unit in ("Nobz", "Trukk", "Gretchin"):
        with page.expect_response(lambda r: r.request.method == "POST"):
            page.locator("#unit-list").get_by_role(
                "button", name=f"Add {unit} (Orks)").click()
        page.wait_for_load_state("networkidle")
    until(page, "() => !document.querySelector('.htmx-request, .htmx-settling, .htmx-swapping')")
    for _ in range(2):  # the last line to the top, twice: two drags, two answers
        handle = page.locator("#handle-2").bounding_box()
        target = page.locator("#entry-0").bounding_box()
        assert handle is not None and target is not None
        x, y = handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x, target["y"] + 4, steps=10)
        with page.expect_response(lambda r: r.request.method == "POST" and "reorder" in r.url):
            page.mouse.up()
        page.wait_for_load_state("networkidle")
        until(page, "() => !document.querySelector("
                    "'.htmx-request, .htmx-settling, .htmx-swapping, .is-dragging')")
    names = page.locator("#entry-list .entry-name").all_inner_texts()
    assert [n.strip() for n in names] == ["Trukk", "Gretchin", "Nobz"], names
    assert page.evaluate("window.__violations") == []
    assert not [m for m in console if "Content Security Policy" in m], console
    # no line keeps a style attribute of the drag's
    assert page.locator("#entry-list [style]").count() == 0
