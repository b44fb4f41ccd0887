"""A board read at arm's length (issue 50, item 1), measured in real Chromium on two 375 px
phones in every game, after the first taps of the example match: each unit in play shows
what changes in play as figures (models left of the size, boxes for wounds and lives, counts)
at 1.5 times the body's size or more, its state as chips, and none of the grey run of words
it showed before ("status on the table; category Infantry; pts 1; lives 1; count 5...").
Screenshots go to output/screenshots/board-glance-<game>.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browsertools import phone_pair
from test_accessibility import serious
from test_table_browser import (
    GAMES,
    example,
    plain,
    plan,
    reaches,
    start_match,
    tap,
    version,
)

pytestmark = pytest.mark.browser

Page = Any
PHONE = {"width": 375, "height": 812}
TAPS = 8  # the example's first taps: units activated, hit, wounded
GLANCE = 1.5  # the figures against the body's text size

FIGURES = """() => {
  const body = parseFloat(getComputedStyle(document.body).fontSize);
  const rows = [...document.querySelectorAll('#board li.unit')];
  return {body, rows: rows.map(li => {
    const summary = li.querySelector('summary');
    return {gone: li.classList.contains('gone'), text: summary.innerText,
            figures: [...summary.querySelectorAll('.figure')].map(f => ({
              text: f.innerText, size: parseFloat(getComputedStyle(f).fontSize),
              seen: f.getBoundingClientRect().width > 0})),
            boxes: summary.querySelectorAll('.box').length,
            ticked: summary.querySelectorAll('.box.ticked').length};
  })};
}"""


def match_players(game: str) -> Any:
    return example(game).players


# what is cut of a list's longest word (its text measured in the list's own font, beside the
# list's arrow and padding) or of a button's words
CUT = """() => {
  const pen = document.createElement('canvas').getContext('2d');
  return [...document.querySelectorAll('#board .pick select, #board .undo button')]
    .filter(e => e.getBoundingClientRect().width > 0)
    .filter(e => {
      if (e.scrollWidth > e.clientWidth + 1) return true;
      if (e.tagName !== 'SELECT') return false;
      pen.font = getComputedStyle(e).font;
      const widest = Math.max(...[...e.options].map(o => pen.measureText(o.text).width));
      return widest + 28 > e.clientWidth;
    }).map(e => e.outerHTML.slice(0, 120));
}"""


@pytest.mark.parametrize("game", GAMES)
def test_each_unit_shows_what_changes_in_play_as_figures(server: str, browser: Any,
                                                          game: str,
                                                          screenshots: Path) -> None:
    with phone_pair(browser, PHONE) as made:
        match = start_match(server, made[0].new_page(), made[1].new_page(), game)
        pages = {1: match.one, 2: match.two}
        script = plan(game)
        at = version(match.one)
        for ev, phone in list(zip(script.events, script.phones, strict=True))[:TAPS]:
            reaches(pages[phone], at)
            tap(pages[phone], plain(ev))
            at += 1
        page = match.one
        reaches(page, at)
        seen = page.evaluate(FIGURES)
        rows = [r for r in seen["rows"] if not r["gone"]]
        assert rows, seen
        small = [(r["text"].splitlines()[0], f["text"], f["size"]) for r in rows
                 for f in r["figures"] if f["size"] < GLANCE * seen["body"]]
        print(game, f"body {seen['body']} px;",
              [(r["text"].splitlines()[0], [f["text"] for f in r["figures"]], r["ticked"],
                r["boxes"]) for r in rows])
        assert small == [], small
        # every unit in play has a figure, read as a number ("7/10", "2"); an op40k vehicle
        # has no models or wounds to count, its damage results are chips
        assert all(f["seen"] and f["text"].split("/")[0].isdigit()
                   for r in rows for f in r["figures"]), rows
        counted = [r for r in rows if r["figures"]]
        assert len(counted) == len(rows) or (game == "op40k" and len(counted) >= 3), rows
        # the old run of words is gone from the row: no "key value; key value"
        assert not [r["text"] for r in seen["rows"] if ";" in r["text"]]
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        if game in ("op40k", "warstuff", "actionhammer"):
            # the sticky head says whose move it is and what is next, not only the round
            line = page.locator(".scoreboard #next")
            names = [p.name for p in match_players(game)]
            assert line.is_visible() and any(line.inner_text().startswith(f"{n}: ")
                                             for n in names), line.inner_text()
        # nothing a player reads is cut: the lists of words (Space Empires' cards) and Undo
        cut = page.evaluate(CUT)
        assert cut == [], cut
        page.screenshot(path=str(screenshots / f"board-glance-{game}.png"), full_page=True)
        assert serious(page, f"board {game}") == []


def test_the_two_sides_stand_side_by_side_on_a_desktop(server: str, browser: Any,
                                                       screenshots: Path) -> None:
    """At 1280 px the board was one 620 px column; the two sides now stand beside each other,
    the score and the undo bar across both."""
    made = [browser.new_context(viewport={"width": 1280, "height": 900},
                                service_workers="block") for _ in range(2)]
    try:
        match = start_match(server, made[0].new_page(), made[1].new_page(), "warstuff")
        page = match.one
        sides = page.evaluate("() => [...document.querySelectorAll('#board > .side')]"
                              ".map(s => s.getBoundingClientRect().toJSON())")
        score = page.locator("#board .scoreboard").bounding_box()
        assert len(sides) == 2 and score is not None
        left, right = sides
        print("sides:", [(round(s["x"]), round(s["width"])) for s in sides])
        assert abs(left["y"] - right["y"]) <= 1 and right["x"] >= left["x"] + left["width"]
        assert left["width"] >= 450 and right["width"] >= 450
        assert score["width"] >= left["width"] + right["width"]
        assert page.evaluate("document.documentElement.scrollWidth") <= 1280
        page.screenshot(path=str(screenshots / "board-desktop-side-by-side.png"))
    finally:
        for ctx in made:
            ctx.close()
