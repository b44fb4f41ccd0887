"""Rules reminders on the match tracker's board (engine/reminders.py, board.Tap.reminders), in
real Chromium on a 375 px phone: in each game a match started from its example rosters is
brought to a point where a unit with a special rule has a tap it bears on; the reminder is
drawn inside that tap's own box, beside its button (after a run of buttons that share it),
at the body's size, in view, with no sideways scroll and no serious axe finding. A screenshot
of each board is kept and was looked at.

The log up to that point is posted as the board's forms post it (one request each, from side
1's phone, which any tap may come from) rather than tapped: the tapping itself is
test_table_browser.py's, and Space Empires' first battle is 41 events in."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from browsertools import phone_pair, until
from test_accessibility import serious
from test_table_browser import FIND_TAP, VERSION, example, plain, start_match

from listbuilder.engine.match import Event

pytestmark = pytest.mark.browser

Page = Any
PHONE = {"width": 375, "height": 812}


@dataclass(frozen=True)
class Case:
    logged: int  # how many of the example's events come before
    tap: Event  # the tap the reminder is drawn beside (its values as the board fixes them)
    rules: tuple[str, ...]  # the rules its reminders must name
    who: str = ""  # whose rule, shown when not the tapped unit's own


def tapped(kind: str, side: int, unit: int | None, **values: Any) -> Event:
    return Event(kind, side, unit, tuple(sorted(values.items())))


CASES = {
    # Ann's Assault Specialists deployed: a hit on them, by Ben's Trample Attack or Hit & Run
    "hammerwars": Case(5, tapped("hit", 1, 3, lives=1), ("Trample Attack", "Hit & Run"),
                       "Support Heavy"),
    # Grukk's Nobz (Tough) shot at by Brother Tyrus's Scouts (unit 4), which are Snipers
    "op40k": Case(2, tapped("shot", 1, 2, by=4, models=1), ("Tough", "Sniper"), "Scouts"),
    # Ben's Sergeant, a Leader, activating
    "warstuff": Case(1, tapped("activate", 2, 1, action="Hold", copy=1), ("Leader",)),
    # Ben's Carrion Flyers (Stealthy) wounded by a shot of Ann's unit 1, which has moved
    "actionhammer": Case(2, tapped("wound", 2, 4, wounds=1, by=1, attack="shooting"),
                         ("Stealthy",)),
    # Ann adding a chit to the first battle: a Leader's bonus, a ground unit's transport
    "spaceempires": Case(25, tapped("join", 1, None, chit="Nobz Hulk", count=1),
                         ("Leader Bonus", "Transports")),
}

POST = """async ([url, events]) => {
  const token = document.querySelector('#board input[name=csrf_token]').value;
  const first = Number(document.querySelector('#board').getAttribute('data-version'));
  for (const [i, ev] of events.entries()) {
    const body = new FormData();
    body.append('csrf_token', token);
    body.append('kind', ev.kind);
    if (ev.side !== null) body.append('side', String(ev.side));
    if (ev.unit !== null) body.append('unit', String(ev.unit));
    for (const [k, v] of Object.entries(ev.values)) body.append('v_' + k, v);
    body.append('base', String(first + i));
    body.append('id', 'r' + Math.random().toString(36).slice(2));
    const answer = await fetch(url, {method: 'POST', body, headers: {'HX-Request': 'true'}});
    if (!answer.ok)
      return ev.kind + ': ' + answer.status + ' ' + (await answer.text()).slice(0, 400);
  }
  return '';
}"""

MEASURE = """index => {
  const form = [...document.querySelectorAll('#board form.tap')][index];
  const box = e => { const r = e.getBoundingClientRect();
                     return {x: r.x, y: r.y, right: r.right, bottom: r.bottom}; };
  const button = form.querySelector('button[type=submit]');
  const named = button.getAttribute('aria-describedby');
  const list = named ? document.getElementById(named) : null;
  // its box: the tap's own form, or the row of taps whose run of buttons shares the list
  const frame = list && !form.contains(list) ? form.parentElement : form;
  // what the list is drawn under: the button, or the last button of the run that shares it
  const before = list && !form.contains(list) ? list.previousElementSibling : form;
  const anchor = before ? before.querySelector('button[type=submit]') : button;
  return {form: box(frame), button: box(button), list: list ? box(list) : null,
          anchor: box(anchor),
          inRow: !!list && (form.contains(list) || list.parentElement === form.parentElement),
          items: list ? [...list.querySelectorAll('.reminder')].map(li => ({
            text: li.textContent.replace(/\\s+/g, ' ').trim(), box: box(li),
            size: parseFloat(getComputedStyle(li).fontSize),
            // what a finger or an eye finds at its middle: itself, not the sticky bars
            seen: (() => { const r = li.getBoundingClientRect();
                           const at = document.elementFromPoint(r.x + r.width / 2,
                                                                r.y + r.height / 2);
                           return !!at && li.contains(at); })()})) : [],
          describedBy: button.getAttribute('aria-describedby'),
          listId: list ? list.id : null,
          body: parseFloat(getComputedStyle(document.body).fontSize),
          scrollWidth: document.documentElement.scrollWidth,
          width: document.documentElement.clientWidth};
}"""


@pytest.fixture
def phones(browser: Any) -> Iterator[tuple[Any, Any]]:
    with phone_pair(browser, PHONE) as made:
        yield made


@pytest.mark.parametrize("game", sorted(CASES))
def test_a_rules_reminder_is_drawn_beside_its_tap(
        server: str, phones: tuple[Any, Any], game: str, screenshots: Path) -> None:
    case = CASES[game]
    one, two = phones[0].new_page(), phones[1].new_page()
    started = start_match(server, one, two, game)
    events = [plain(ev) for ev in example(game).events[:case.logged]]
    first = int(one.evaluate(VERSION))
    failed = one.evaluate(POST, [started.mine + "/event", events])
    assert failed == "", failed
    one.goto(started.mine)
    one.wait_for_selector("#board")
    until(one, f"() => ({VERSION})() === '{first + case.logged}'")

    found = one.evaluate(FIND_TAP, plain(case.tap))
    assert found, f"no {case.tap} on the board"
    if found["details"]:
        details = one.locator(f"#{found['details']}")
        if details.get_attribute("open") is None:
            details.locator(":scope > summary").click()
    form = one.locator("#board form.tap").nth(found["index"])
    form.evaluate("f => f.scrollIntoView({block: 'center'})")
    got = one.evaluate(MEASURE, found["index"])

    # the reminders name the rules, say whose they are, and are the button's description
    texts = [item["text"] for item in got["items"]]
    for rule in case.rules:
        assert any(t.startswith(rule) for t in texts), (rule, texts)
    if case.who:
        assert any(f"({case.who})" in t for t in texts), texts
    assert got["describedBy"] and got["describedBy"] == got["listId"]
    # beside the tap: inside its own box (or its row, for a run of buttons that shares it),
    # under its button, within the phone's width
    frame, button, listed = got["form"], got["button"], got["list"]
    assert listed is not None and got["inRow"]
    assert frame["x"] <= listed["x"] and listed["right"] <= frame["right"] + 0.5
    assert frame["y"] <= listed["y"] and listed["bottom"] <= frame["bottom"] + 0.5
    assert listed["y"] >= button["bottom"] - 0.5, (listed, button)
    # right under it, or under the run's last button: not somewhere down the row
    assert 0 <= listed["y"] - got["anchor"]["bottom"] < 24, (listed, got["anchor"])
    for item in got["items"]:
        assert item["box"]["x"] >= 0 and item["box"]["right"] <= PHONE["width"], item
        assert item["size"] >= got["body"], item  # at least the body's size
        assert item["seen"], f"{item['text']} is under the score or the undo bar"
    assert got["scrollWidth"] <= got["width"], "the board scrolls sideways"

    one.screenshot(path=str(screenshots / f"reminders-{game}-375.png"))
    form.screenshot(path=str(screenshots / f"reminders-{game}-tap.png"))
    assert serious(one, f"{game} board with reminders") == []
    one.emulate_media(color_scheme="dark")  # the site's theme follows the system's
    form.screenshot(path=str(screenshots / f"reminders-{game}-tap-dark.png"))
    assert serious(one, f"{game} board with reminders, dark") == []
