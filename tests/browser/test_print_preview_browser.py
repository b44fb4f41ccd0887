"""The print preview in real Chromium: the roster's Print menu and every print on a system's
print page show a picture of the first page, loaded (a PNG with a natural size), inside the
window at desktop and phone width, with alt text. Screenshots go to
output/screenshots/print-preview-{roster,system}-{desktop,phone}.png."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from browsertools import opened, until

pytestmark = pytest.mark.browser

Page = Any
ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "actionhammer" / "legal.yaml"
WIDTHS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 375, "height": 812}}
LOADED = """img => img.complete && img.naturalWidth > 0"""
BOX = """img => { const r = img.getBoundingClientRect();
    return {left: r.left, right: r.right, width: r.width, height: r.height,
            natural: [img.naturalWidth, img.naturalHeight], alt: img.alt,
            src: img.currentSrc}; }"""


def seen(page: Page, img: Any) -> dict[str, Any]:
    """Scroll the (lazily loaded) picture into view, wait until it has loaded, and say where
    it stands."""
    img.scroll_into_view_if_needed()
    handle = img.element_handle()
    until(page, LOADED, handle)
    return dict(img.evaluate(BOX))


def check(page: Page, img: Any, width: int) -> dict[str, Any]:
    box = seen(page, img)
    assert box["natural"][0] > 0 and box["natural"][1] > 0, box
    assert box["alt"].strip(), box
    assert box["width"] > 40 and box["height"] > 40, box  # a picture, not a speck
    assert box["left"] >= 0 and box["right"] <= width + 0.5, box
    # a page is taller than wide and the picture keeps its shape
    assert box["height"] / box["width"] == pytest.approx(box["natural"][1] / box["natural"][0],
                                                         rel=0.03)
    return box


def png(page: Page, src: str) -> bytes:
    answer = page.request.get(src)
    assert answer.ok and answer.headers["content-type"] == "image/png"
    body = answer.body()
    assert body.startswith(b"\x89PNG")
    return body


@pytest.mark.parametrize("size", list(WIDTHS))
def test_the_print_menu_shows_the_first_page(page: Page, server: str, screenshots: Path,
                                             size: str) -> None:
    view = WIDTHS[size]
    page.set_viewport_size(view)
    page.goto(server + "/")
    page.set_input_files("#file", str(EXAMPLE))
    page.get_by_role("button", name="Open file").click()
    opened(page, "#print", state="attached")  # a phone shows one part at a time
    img = page.locator("#print .print-preview img")
    assert not img.is_visible()  # a closed menu shows (and fetches) nothing
    # the jump link (the Print tab on a phone) opens the menu
    page.locator("a[href='#print']:visible").first.click()
    box = check(page, img, view["width"])
    png(page, box["src"])
    page.locator("#print .print-preview").screenshot(
        path=str(screenshots / f"print-preview-roster-{size}.png"))


@pytest.mark.parametrize("size", list(WIDTHS))
def test_each_print_on_a_systems_page_shows_its_first_page(page: Page, server: str,
                                                          screenshots: Path, size: str) -> None:
    view = WIDTHS[size]
    page.set_viewport_size(view)
    page.goto(server + "/")
    page.get_by_role("link", name=re.compile("^Print the rules sheet.* action deck and chits$")
                     ).click()
    opened(page, "#print-chits")
    imgs = page.locator("main .print-preview img")
    assert imgs.count() == page.locator("main form.print-form").count() >= 3
    pictures = set()
    for k in range(imgs.count()):
        box = check(page, imgs.nth(k), view["width"])
        pictures.add(png(page, box["src"]))
    assert len(pictures) == imgs.count()  # each print its own page, not one picture for all
    page.locator("#print-chits").screenshot(
        path=str(screenshots / f"print-preview-system-{size}.png"))


def test_the_picture_follows_the_options_chosen(page: Page, server: str) -> None:
    page.goto(server + "/")
    page.get_by_role("link", name=re.compile("^Print the rules sheet.* action deck and chits$")
                     ).click()
    opened(page, "#print-chits")
    chits = page.locator("#print-chits")
    img = chits.locator(".print-preview img")
    a4 = seen(page, img)
    assert a4["natural"][1] / a4["natural"][0] == pytest.approx(297 / 210, rel=0.01)
    chits.get_by_role("radio", name=re.compile("^Letter")).check()
    until(page, "([img, old]) => img.currentSrc !== old", [img.element_handle(), a4["src"]])
    letter = seen(page, img)
    assert "paper=letter" in letter["src"]
    assert letter["natural"][1] / letter["natural"][0] == pytest.approx(11 / 8.5, rel=0.01)
