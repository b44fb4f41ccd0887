"""A club's own army, end to end in real Chromium: an ActionHammer faction of five units with
upgrades written in the studio, used in a roster beside a built-in faction, its cards printed,
a matchup against a built-in unit resolved; then the pack and the roster exported, imported
into a fresh database on another server, and the same totals, odds and cards found there."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pdfplumber
import pytest
from browsertools import opened, served_app, start_pack, until
from test_accessibility import serious
from test_csp_browser import WATCH
from test_resolve_browser import answered, show_panel, swapped

from listbuilder.engine.library import Library
from listbuilder.engine.report import report
from listbuilder.engine.resolve import find_side, quick_resolve, side_from_entry

pytestmark = pytest.mark.browser

Page = Any
UNIT = """
  - name: {name}
    faction: My Faction
    keywords: [{keywords}]
    move: {move}
    save: {save}
    wounds: {wounds}
    morale: 4
    control: 1
    models: {{min: {low}, max: {high}}}
    pts: {pts}
    weapons:
      - {{name: {gun}, range: 24, att: {att}, sk: 4, ap: {ap}}}
      - {{name: Knife, range: Melee, att: 1, sk: 4, ap: 0}}
    upgrades:
      - name: Veteran Crew
        pts: 5
        text: Every model's Save improves by one.
        effects: [{{change: save, by: -1}}]
"""
# sample numbers of ours, for this test's house faction
FIVE = [dict(name="Vanguard Squad", keywords="Infantry", move=8, save=5, wounds=1, low=5,
             high=10, pts=10, gun="Carbine", att=1, ap=0),
        dict(name="Heavy Team", keywords="Infantry", move=6, save=4, wounds=2, low=3, high=3,
             pts=25, gun="Autocannon", att=3, ap=-1),
        dict(name="Outriders", keywords="Mounted", move=14, save=4, wounds=2, low=3, high=6,
             pts=22, gun="Lance Pistol", att=2, ap=0),
        dict(name="Sentinel Walker", keywords="Vehicle", move=8, save=3, wounds=8, low=1,
             high=1, pts=120, gun="Laser Cannon", att=2, ap=-3),
        dict(name="Field Medic", keywords="Infantry", move=8, save=5, wounds=2, low=1, high=1,
             pts=35, gun="Pistol", att=1, ap=0)]
PACK = ("factions:\n  - name: My Faction\n    text: A club's own regiment.\n\ndatasheets:"
        + "".join(UNIT.format(**unit) for unit in FIVE))


@pytest.fixture
def fresh_server(tmp_path: Path) -> Iterator[str]:
    """A second server on a database of its own: the machine the files are taken to."""
    with served_app(tmp_path, "fresh.sqlite3") as url:
        yield url


def printed_words(page: Page, url: str) -> str:
    """The roster's cards as the browser downloads them (a print in line is asked again)."""
    for _ in range(120):
        answer = page.request.get(url)
        if answer.status == 200:
            with pdfplumber.open(io.BytesIO(answer.body())) as pdf:
                return " ".join(p.extract_text() or "" for p in pdf.pages)
        assert answer.status == 202, answer.text()[:500]
        page.wait_for_timeout(500)
    raise AssertionError("the print never came")


def resolved(page: Page, attacker: str, target: str, summary: str) -> None:
    show_panel(page)
    swapped(page, lambda: page.get_by_label("Attacker", exact=True).select_option(
        label=attacker))
    page.get_by_label("Target unit").fill(target)
    swapped(page, lambda: page.get_by_label("Target unit").press("Enter"))
    answered(page, 1, summary)


def test_a_house_faction_from_studio_to_table_and_to_another_machine(
        context: Any, server: str, fresh_server: str, tmp_path: Path) -> None:
    context.add_init_script(WATCH)
    page = context.new_page()
    # the studio: five units with upgrades
    start_pack(page, server, "House Regiment")
    page.get_by_label("The pack, as YAML").fill(PACK)
    page.get_by_role("button", name="Save", exact=True).click()
    opened(page, "text=Saved as version 2.")
    check = page.locator("#pack-check").inner_text()
    assert "adds 1 faction (My Faction) and 5 units" in check, check
    share = page.locator("#pack-share-link").input_value()
    pack_file = page.request.get(page.url.split("?")[0] + "/export.yaml").body()

    # a roster with the pack beside a built-in faction
    page.goto(f"{server}/new/actionhammer")
    page.get_by_label("Roster name").fill("Regiment and Brigade")
    page.get_by_label("Cobalt Brigade").check()
    page.get_by_role("button", name="Start roster").click()
    opened(page, "#units-title")
    roster_url = page.url.split("?")[0].split("#")[0]
    page.get_by_role("link", name="Faction packs").click()
    page.get_by_label("The pack's share link").fill(share)
    page.get_by_role("button", name="Add the pack").click()
    opened(page, "text=Saved: Add the pack House Regiment.")
    assert serious(page, "a roster's packs") == []
    assert page.evaluate("window.__violations") == []
    page.goto(roster_url)
    opened(page, "#units-title")
    until(page, "() => [...document.querySelectorAll('form[hx-post]')]"
                "  .every(f => (f['htmx-internal-data'] || {}).initHash)")
    for unit in ("Heavy Team (My Faction)", "Vanguard Squad (My Faction)",
                 "Line Troopers (Cobalt Brigade)"):
        with page.expect_response(lambda r: r.request.method == "POST"):
            page.locator("#unit-list").get_by_role("button", name=f"Add {unit}").click()
        page.wait_for_load_state("networkidle")
    roster_file = page.request.get(roster_url + "/export.yaml").body()
    assert b"packs:\n- name: House Regiment\n" in roster_file

    # the same answers the engine gives for the exported file
    library = Library(custom_dir=tmp_path / "none")
    loaded = library.read_roster(roster_file.decode(), "regiment.yaml")
    system, catalog, roster = loaded.system, loaded.catalog, loaded.roster
    totals = report(system, catalog, roster).totals.headline
    first = side_from_entry(system, catalog, roster, 0)
    odds = quick_resolve(system, catalog, first, find_side(system, catalog, "Reaver Mob"),
                         {}).summary
    assert first.label.endswith("Heavy Team")

    def same_results(base: str, url: str) -> None:
        page.goto(url)
        opened(page, "#units-title")
        assert totals in page.locator("#totals").inner_text()
        words = printed_words(page, url + "/print?what=cards")
        for name in ("Heavy Team", "Autocannon", "Vanguard Squad", "Line Troopers"):
            assert name in words
        resolved(page, first.label, "Reaver Mob", odds)

    same_results(server, roster_url)

    # another machine: a fresh database, the two files imported
    page.goto(f"{fresh_server}/studio")
    page.locator("#import-system").select_option("actionhammer")
    page.set_input_files("#import-file", {"name": "house-regiment.yaml", "mimeType":
                                   "application/yaml", "buffer": pack_file})
    page.get_by_role("button", name="Import").click()
    opened(page, "#pack-check")
    assert "adds 1 faction (My Faction) and 5 units" in page.locator("#pack-check").inner_text()
    page.goto(f"{fresh_server}/")
    page.set_input_files("#file", {"name": "regiment.yaml", "mimeType": "application/yaml",
                                   "buffer": roster_file})
    page.get_by_role("button", name="Open file").click()
    opened(page, "#units-title")
    fresh_url = page.url.split("?")[0].split("#")[0]
    assert page.request.get(fresh_url + "/export.yaml").body() == roster_file
    same_results(fresh_server, fresh_url)
    assert page.evaluate("window.__violations") == []
