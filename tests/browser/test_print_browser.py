"""Printing in real Chromium: open a roster, open its Print menu, pick Letter paper and mini
cards, download, and read the file back as a PDF on Letter paper; a system's print page
downloads a faction's chits. Screenshots of the menu at phone and desktop width go to
output/screenshots/print-menu-{phone,desktop}.png, of a system's print page to
output/screenshots/print-system-{phone,desktop}.png."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from browsertools import opened
from pypdf import PdfReader

from listbuilder.engine.library import Library
from listbuilder.engine.registry import get_system

pytestmark = pytest.mark.browser

Page = Any
ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "actionhammer" / "legal.yaml"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def shot(page: Page, selector: str, path: Path) -> None:
    """One part of the page, from a whole-page picture taken from the top (so the roster's
    sticky strip stays at the top of the page instead of over the part)."""
    page.evaluate("window.scrollTo(0, 0)")
    box = page.evaluate(
        "s => { const r = document.querySelector(s).getBoundingClientRect();"
        " return {x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height}; }",
        selector)
    page.screenshot(path=str(path), full_page=True, clip=box)


def fits_the_width(page: Page, selector: str) -> None:
    """Nothing in the part is wider than the window: no sideways scrolling on a phone."""
    widest = page.evaluate(
        "s => Math.max(...[...document.querySelectorAll(s + ' *')]"
        ".map(e => e.getBoundingClientRect().right))", selector)
    assert widest <= page.viewport_size["width"] + 0.5


def download(page: Page, click: Any, folder: Path) -> tuple[str, PdfReader]:
    with page.expect_download() as info:
        click()
    got = info.value
    assert got.failure() is None
    path = folder / got.suggested_filename
    got.save_as(str(path))
    assert path.read_bytes().startswith(b"%PDF-")
    return got.suggested_filename, PdfReader(str(path))


def test_print_menu_downloads_letter_mini_cards(page: Page, server: str, screenshots: Path,
                                                tmp_path: Path) -> None:
    page.goto(server + "/")
    page.set_input_files("#file", str(EXAMPLE))
    page.get_by_role("button", name="Open file").click()
    opened(page, "#print")
    menu = page.locator("#print")
    assert not menu.get_by_role("button", name="Download PDF").is_visible()  # closed at first

    page.get_by_role("link", name="Print", exact=True).click()  # the jump link opens the menu
    assert menu.get_by_role("radio", name=re.compile("^A4")).is_checked()  # the usual print
    assert menu.get_by_role("radio", name=re.compile("^Poker")).is_checked()
    menu.get_by_role("radio", name=re.compile("^Letter")).check()
    menu.get_by_role("radio", name=re.compile("^Mini")).check()
    menu.get_by_role("radio", name="Unit cards only").check()
    menu.get_by_label("Cut marks").check()
    shot(page, "#print", screenshots / "print-menu-desktop.png")

    name, pdf = download(page, menu.get_by_role("button", name="Download PDF").click,
                         tmp_path)
    assert name == "cobalt-brigade-vanguard-actionhammer-cards.pdf"
    first = pdf.pages[0].mediabox
    assert (float(first.width), float(first.height)) == pytest.approx((612, 792), abs=0.5)
    assert "Line Troopers" in "".join(p.extract_text() for p in pdf.pages)
    # the print waited in line on a page of its own, which stays after the download and
    # leads back to the roster
    assert page.get_by_role("heading", name=re.compile("^Printing ")).is_visible()
    page.get_by_role("link", name="back to the roster").click()
    assert page.url.split("?")[0].split("#")[0].rsplit("/", 2)[-2] == "r"
    opened(page, "#print")
    page.get_by_role("link", name="Print", exact=True).click()

    page.set_viewport_size(PHONE)
    fits_the_width(page, "#print")
    shot(page, "#print", screenshots / "print-menu-phone.png")


def test_a_systems_print_page_downloads_chits(page: Page, server: str, screenshots: Path,
                                              tmp_path: Path, library: Library) -> None:
    page.goto(server + "/")
    link = re.compile("^Print the rules sheet.* action deck and chits$")
    page.get_by_role("link", name=link).click()
    opened(page, "#print-chits")
    assert page.get_by_role("heading", name=re.compile("^Print for War Hammer")).is_visible()
    chits = page.locator("#print-chits")
    chits.get_by_label("Faction").select_option("Tyranids")
    shot(page, "main", screenshots / "print-system-desktop.png")
    name, pdf = download(page, chits.get_by_role("button", name="Download PDF").click,
                         tmp_path)
    assert name == "spaceempires-tyranids-chits.pdf"
    catalog = library.catalog(get_system("spaceempires"))
    first = pdf.pages[0].mediabox
    assert (float(first.width), float(first.height)) == pytest.approx((595.3, 841.9), abs=0.5)
    names = {u.name for u in catalog.pile("Tyranids")}
    text = "".join(p.extract_text() for p in pdf.pages)
    assert any(n in text for n in names)

    page.set_viewport_size(PHONE)
    fits_the_width(page, "main")
    shot(page, "main", screenshots / "print-system-phone.png")
    page.set_viewport_size(DESKTOP)


def test_the_menu_works_without_javascript(browser: Any, server: str, tmp_path: Path) -> None:
    context = browser.new_context(java_script_enabled=False, accept_downloads=True)
    try:
        page = context.new_page()
        page.goto(server + "/")
        page.set_input_files("#file", str(EXAMPLE))
        page.get_by_role("button", name="Open file").click()
        page.get_by_role("heading", name="Print", exact=True).click()  # no JS: the summary opens it
        menu = page.locator("#print")
        menu.get_by_role("radio", name="Roster sheet only").check()
        menu.get_by_label("Ink saver").check()
        name, pdf = download(page, menu.get_by_role("button", name="Download PDF").click,
                             tmp_path)
        assert name == "cobalt-brigade-vanguard-actionhammer-sheet.pdf"
        assert "Cobalt Brigade vanguard" in pdf.pages[0].extract_text()
        # the waiting page (a meta refresh, no script) leads back to the roster
        page.get_by_role("link", name="back to the roster").click()
        page.get_by_role("heading", name="Print", exact=True).click()
        menu.get_by_role("radio", name="Roster sheet only").check()

        # a print that can't be made: the answer is a page saying why, with the form as sent
        menu.get_by_label("Gutter fold").check()
        menu.get_by_role("radio", name=re.compile("^Double-sided, flipped on the long")).check()
        menu.get_by_role("button", name="Download PDF").click()
        alert = page.get_by_role("alert")
        assert "choose gutter-fold or double-sided" in alert.inner_text()
        assert page.get_by_label("Gutter fold").is_checked()
        assert page.get_by_role("radio", name="Roster sheet only").is_checked()
        page.get_by_role("link", name="back to the roster").click()
        assert page.locator("#print").count() == 1
    finally:
        context.close()
