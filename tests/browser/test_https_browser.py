"""Listbuilder as a club deploys it: Debian's nginx terminating TLS in front of `listbuilder
serve` (tests/tools/tlsfront.py, the session's `https` fixture), driven by Chromium.

Every form must work over HTTPS: a roster made, edited, imported, printed, deleted and
restored, shared and copied. Behind a proxy every form once answered 400 "The form had
expired": Flask-WTF wants a same-origin Referer over HTTPS and the site sent
`Referrer-Policy: no-referrer`. Cookies are Secure and HSTS is sent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browsertools import opened
from test_builder_browser import add, start, submit_start

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]

EXAMPLE = ROOT / "examples" / "actionhammer" / "legal.yaml"
Page = Any


def refused(page: Page) -> list[str]:
    """Every answer of 400 or more the page meets, kept as it happens."""
    seen: list[str] = []
    page.on("response", lambda r: seen.append(f"{r.status} {r.request.method} {r.url}")
            if r.status >= 400 else None)
    return seen


def test_every_form_works_over_https(tls_context: Any, https: str, tmp_path: Path) -> None:
    page = tls_context.new_page()
    errors = refused(page)
    first = page.goto(https + "/")
    assert first is not None and first.status == 200
    headers = first.all_headers()
    assert headers["strict-transport-security"].startswith("max-age=")
    assert headers["referrer-policy"] == "same-origin"

    # create, then edit (htmx posts)
    start(page, https, "One Page 40k (1st edition)", "Over TLS")
    page.get_by_label("Faction").select_option("Orks")
    submit_start(page)
    add(page, "Nobz")
    add(page, "Ork Boyz")
    assert page.locator(".entry-name").get_by_text("Nobz").count() == 1
    cookies = tls_context.cookies()
    assert cookies and all(c["secure"] and c["httpOnly"] for c in cookies), cookies
    share = page.get_by_label("Share link").input_value()
    assert share.startswith(https + "/s/")

    # import a file
    page.goto(https + "/")
    page.set_input_files("#file", str(EXAMPLE))
    page.get_by_role("button", name="Open file").click()
    opened(page, "#print")
    assert "Cobalt Brigade vanguard" in page.locator("main").inner_text()

    # print (a GET form): the PDF arrives
    page.get_by_role("link", name="Print", exact=True).click()
    menu = page.locator("#print")
    menu.get_by_role("radio", name="Roster sheet only").check()
    with page.expect_download(timeout=60_000) as info:
        menu.get_by_role("button", name="Download PDF").click()
    saved = tmp_path / "sheet.pdf"
    info.value.save_as(saved)
    assert saved.read_bytes().startswith(b"%PDF-")

    # delete from the home page, then undo
    page.goto(https + "/")
    page.get_by_role("link", name="Delete Over TLS").click()
    opened(page, "text=Delete Over TLS?")
    page.get_by_role("button", name="Delete Over TLS").click()
    opened(page, "#deleted")
    page.get_by_role("button", name="Undo: restore Over TLS").click()
    opened(page, ".mine-row >> text=Over TLS")
    assert page.locator("#deleted").count() == 0

    # a stranger opens the share link and copies the roster into their own
    other = tls_context.browser.new_context(ignore_https_errors=True)
    try:
        them = other.new_page()
        their_errors = refused(them)
        them.goto(share)
        them.get_by_role("button", name="Copy to my rosters").click()
        opened(them, "#saved-version")
        assert "/r/" in them.url
        assert all(c["secure"] for c in other.cookies())
        assert their_errors == []
    finally:
        other.close()
    assert errors == []
