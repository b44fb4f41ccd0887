"""Managing rosters from the home page in real Chromium: the list shows system, total,
legality and last change; duplicate, rename, delete (asked first) and undo; a shared roster
copied into one's own. axe-core finds nothing serious on the pages involved."""

from __future__ import annotations

from typing import Any

import pytest
from browsertools import opened
from test_accessibility import serious
from test_builder_browser import add, start, submit_start

pytestmark = pytest.mark.browser

Page = Any


def test_duplicate_rename_delete_undo_and_copy(page: Page, browser: Any, server: str) -> None:
    start(page, server, "One Page 40k (1st edition)", "Waaagh")
    page.get_by_label("Faction").select_option("Orks")
    submit_start(page)
    add(page, "Nobz")
    share = page.get_by_label("Share link").input_value()
    page.goto(server + "/")
    row = page.locator(".mine-row").first
    text = row.inner_text()
    assert all(t in text for t in ("Waaagh", "One Page 40k", "60/500 pts", "Legal", "UTC"))
    page.get_by_role("button", name="Duplicate Waaagh").click()
    opened(page, "text=Waaagh (copy)")
    page.locator(".mine-row", has_text="Waaagh (copy)").get_by_text("Rename").click()
    page.get_by_label("New name").first.fill("Second wave")
    page.get_by_role("button", name="Save name").first.click()
    opened(page, "text=Second wave")
    assert serious(page, "home with rosters") == []
    page.get_by_role("link", name="Delete Second wave").click()
    opened(page, "text=Delete Second wave?")
    assert serious(page, "delete page") == []
    page.get_by_role("button", name="Delete Second wave").click()
    opened(page, "#deleted")
    assert page.locator(".mine-row").count() == 1
    page.get_by_role("button", name="Undo: restore Second wave").click()
    opened(page, "text=Second wave")
    assert page.locator(".mine-row").count() == 2 and page.locator("#deleted").count() == 0
    stranger = browser.new_context(viewport={"width": 375, "height": 812})
    try:
        other = stranger.new_page()
        other.goto(share)
        assert serious(other, "share page") == []
        other.get_by_role("button", name="Copy to my rosters").click()
        opened(other, "#saved-version")
        assert "/r/" in other.url
        other.goto(server + "/")
        assert other.locator(".mine-row").count() == 1
        assert "Waaagh" in other.locator(".mine-row").inner_text()
    finally:
        stranger.close()
