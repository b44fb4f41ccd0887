"""Issue 38, the studio's pack page in real Chromium, measured as a person sees it.

At 1024 and 1280 px the picture of the pack's cards floated beside the units table left the
table 140 px of its 207 (its Cost column cut off) and the profiles' headings a letter a line;
on a phone the live check sat under the whole editor (9,600 px down a long pack's form view).
Now at 1280, 1024 and 375 px the units table shows every column unclipped, each profile is at
least 240 px wide, and on a phone the check's verdict is in the first screen, linked to it.
And "Start a new roster with this pack" opens a roster with the pack in the builder.
Screenshots: output/screenshots/studio-pack-{1280,1024,375}.png, studio-pack-phone-form.png.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browsertools import opened, start_pack, until
from test_accessibility import serious
from test_csp_browser import WATCH

pytestmark = pytest.mark.browser

Page = Any
SIZES = ((1280, 800), (1024, 768), (375, 812))
# a pack with weapons, so each profile has its tables, as the Wolf Lord's had
PACK = """factions:
  - name: Space Wolves
    text: Sons of Russ.
units:
  - name: Wolf Lord
    faction: Space Wolves
    size: 1
    quality: 3
    pts_per_model: 60
    equipment: [Lasgun]
  - name: Grey Hunters
    faction: Space Wolves
    size: 10
    min_size: 5
    max_size: 20
    quality: 4
    pts_per_model: 12
    equipment: [Lasgun]
  - name: Blood Claws Pack Leader
    faction: Space Wolves
    size: 5
    quality: 4
    pts_per_model: 11
    equipment: [Lasgun]
"""
MEASURE = """() => {
  const table = document.querySelector('.pack-units');
  const wrap = table.closest('.table-wrap');
  const cost = [...table.querySelectorAll('thead th')].find(t => t.textContent.trim() === 'Cost');
  const w = wrap.getBoundingClientRect(), c = cost.getBoundingClientRect();
  return {
    scroll: wrap.scrollWidth, client: wrap.clientWidth,
    costInside: c.left >= w.left - 0.5 && c.right <= w.right + 0.5,
    costOnScreen: c.left >= 0 && c.right <= innerWidth,
    profiles: [...document.querySelectorAll('.pack-profiles .profile')].map(p => {
      const h = p.querySelector('h3').getBoundingClientRect();
      return [p.querySelector('h3').textContent, p.getBoundingClientRect().width, h.width,
              h.height];
    }),
    page: document.documentElement.scrollWidth,
  };
}"""
IN_FIRST_SCREEN = """() => {
  const link = document.getElementById('check-jump');
  const r = link.getBoundingClientRect();
  return {top: r.top + scrollY, bottom: r.bottom + scrollY, shown: link.offsetParent !== null,
          text: link.textContent.trim(), check: document.getElementById('pack-check')
            .getBoundingClientRect().top + scrollY};
}"""


def saved_pack(page: Page, server: str) -> str:
    start_pack(page, server, "Wolves", "op40k")
    page.get_by_label("The pack, as YAML").fill(PACK)
    page.get_by_role("button", name="Save", exact=True).click()
    opened(page, "text=Saved as version 2.")
    # the picture of the cards in its place, as it is once the print is done
    until(page, "() => { const i = document.querySelector('.pack-cards img');"
                " return i && i.complete && i.naturalWidth > 0; }", timeout=90)
    return str(page.url.split("?")[0])


def test_the_units_table_and_profiles_keep_their_width(context: Any, server: str,
                                                       screenshots: Path) -> None:
    context.add_init_script(WATCH)
    page = context.new_page()
    saved_pack(page, server)
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("window.scrollTo(0, 0)")
        seen = page.evaluate(MEASURE)
        assert seen["scroll"] <= seen["client"], (width, seen)  # no column clipped
        assert seen["costInside"] and seen["costOnScreen"], (width, seen)
        for name, article, heading, tall in seen["profiles"]:
            assert article >= 240 and heading >= 200, (width, name, article, heading)
            assert tall < 40, (width, name, tall)  # "Wolf Lord" on one line
        assert seen["page"] <= width, (width, seen["page"])  # no sideways scroll
        page.screenshot(path=str(screenshots / f"studio-pack-{width}.png"))
    assert page.evaluate("window.__violations") == []


def test_on_a_phone_the_checks_verdict_is_in_the_first_screen(context: Any, server: str,
                                                              screenshots: Path) -> None:
    page = context.new_page()
    page.set_viewport_size({"width": 375, "height": 812})
    saved_pack(page, server)
    seen = page.evaluate(IN_FIRST_SCREEN)
    assert seen["shown"] and seen["bottom"] <= 812, seen
    assert seen["text"] == "No problems: see what the pack adds"
    assert seen["check"] > 812  # the list itself is under the editor
    # a mistake typed: the verdict at the top follows the live check
    box = page.get_by_label("The pack, as YAML")
    box.fill(PACK.replace("quality: 3", "quality: 9"))
    until(page, "() => document.getElementById('check-jump').textContent"
                ".includes('1 problem to fix: see the list')")
    assert page.locator("#check-jump").evaluate("a => a.classList.contains('bad')")
    # the form view of the same pack: the list is far down, the verdict is not
    page.get_by_role("button", name="Form", exact=True).click()
    page.wait_for_selector("#pack-form[data-view='form']")
    seen = page.evaluate(IN_FIRST_SCREEN)
    assert seen["shown"] and seen["bottom"] <= 812, seen
    assert seen["text"] == "1 problem to fix: see the list"
    assert seen["check"] > 2 * 812, seen
    page.screenshot(path=str(screenshots / "studio-pack-phone-form.png"))
    page.locator("#check-jump").click()
    until(page, "() => { const r = document.getElementById('pack-check-title')"
                ".getBoundingClientRect(); return r.top >= -1 && r.bottom <= innerHeight; }")
    assert serious(page, "studio pack form view, phone") == []


def test_a_pack_page_starts_a_roster_with_the_pack(context: Any, server: str) -> None:
    context.add_init_script(WATCH)
    page = context.new_page()
    saved_pack(page, server)
    button = page.get_by_role("button", name="Start a new roster with this pack")
    help_text = page.locator("#pack-use-help").inner_text()
    assert "A new One Page 40k (1st edition) roster named Wolves, with version 2 of this pack" \
        in help_text and "opens in the builder" in help_text
    button.click()
    opened(page, "#units-title", state="attached")
    assert "/r/" in page.url
    assert page.get_by_role("link", name="Faction packs (Wolves)").count() == 1
    page.locator("#unit-list").get_by_role("button", name="Add Wolf Lord").first.wait_for()
    assert "Space Wolves" in page.locator("#roster-title").inner_text()
    assert page.evaluate("window.__violations") == []
