"""The security policy blocks nothing the pages need: in real Chromium, every system's roster
page, an htmx edit, the print page and quick resolve run without a single policy violation."""

from __future__ import annotations

from typing import Any

import pytest
from browsertools import opened, until

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
