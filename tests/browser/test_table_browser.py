"""The match tracker (web/table) in real Chromium, as two players use it: each on a phone of
their own (a browser context each, its own cookies and storage), the match started from one
roster with the other's share link, every event a tap on the board.

- Each game plays the start of its example log (examples/<game>/match.yaml) tap by tap, side
  1's events on phone 1 and side 2's on phone 2, each phone waiting for the other's taps to
  reach it by its poll. Partway, phone 2 loses its connection and makes taps in a row: they
  show at once as waiting, survive a reload, and are sent once it is back; one answer of
  phone 1 is lost on the way (the server got the tap) and the tap, sent again, is kept once.
  At the end both phones show the same board, and the exported log replays (the command line)
  to what they show, with every tap in it once.
- The board on a 375 px phone, light and dark: no sideways scroll, targets of 44 px, the
  score and the acting unit in view, no serious axe findings.
- The spectators' link reads and changes nothing; side 2's page never shows side 1's link.
- The screen wake lock, where headless Chromium grants it.

Where the example log has an event the board offers no tap for (the board shows
`Play.choices`, which for some games is a short sample), the rest of that game is played from
the board's own taps, picked by a seeded random, and checked the same way.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import yaml
from browsertools import ARGS, CHROMIUM, phone_pair, until
from test_accessibility import serious

from listbuilder.engine.library import Library
from listbuilder.engine.match import Event, Match, MatchError, replay
from listbuilder.engine.match_file import read_match
from listbuilder.engine.registry import get_system
from listbuilder.engine.word_counts import counts, split_words
from listbuilder.web.table.board import Tap, form_value, taps

pytestmark = pytest.mark.browser

Page = Any
ROOT = Path(__file__).resolve().parents[2]
GAMES = ["hammerwars", "op40k", "warstuff", "actionhammer", "spaceempires"]
PLAYED = 14  # events of each game played in the browser
OFFLINE_FROM = 4  # phone 2 goes offline at the first run of taps it can make from here on
PHONE = {"width": 390, "height": 844}
CLI = [sys.executable, "-c", "from listbuilder.commands.cli import main; main()"]
NO_PENDING = "() => !document.querySelector('#pending li')"
VERSION = "() => document.querySelector('#board').getAttribute('data-version')"


# -- the script: which event each phone taps --------------------------------------------------

def example(game: str) -> Match:
    text = (ROOT / "examples" / game / "match.yaml").read_text(encoding="utf-8")
    return read_match(text, f"examples/{game}/match.yaml", Library().read_roster).match


def plain(ev: Event) -> dict[str, Any]:
    """An event as the board's form sends it: values as words ("yes", "3")."""
    return {"kind": ev.kind, "side": ev.side, "unit": ev.unit,
            "values": {k: form_value(v) for k, v in ev.values}}


# a list of picks (engine/word_counts.py) names its words in the picker's order, which means
# nothing: compared as the words it counts
LISTED = {(kind, k.counts.value) for game in GAMES
          for kind, k in get_system(game).play().kinds.items()  # type: ignore[union-attr]
          if k.counts is not None}


def exported(data: dict[str, Any]) -> dict[str, Any]:
    return {"kind": data["kind"], "side": data.get("side"), "unit": data.get("unit"),
            "values": {k: form_value(v) for k, v in data.items()
                       if k not in ("kind", "side", "unit", "id")}}


def unordered(ev: dict[str, Any]) -> dict[str, Any]:
    """`ev` (plain or exported) with each list of picks as its sorted words."""
    return {**ev, "values": {k: sorted(split_words(v)) if (ev["kind"], k) in LISTED else v
                             for k, v in ev["values"].items()}}


def offers(tap: Tap, ev: Event) -> bool:
    """Whether `tap` (a button of the board) records exactly `ev`."""
    if (tap.kind, tap.side, tap.unit) != (ev.kind, ev.side, ev.unit):
        return False
    values = plain(ev)["values"]
    if any(values.get(name) != value for name, value in tap.fixed):
        return False
    if set(values) != {n for n, _ in tap.fixed} | {p.name for p in tap.picks}:
        return False
    for pick in tap.picks:
        if pick.kind == "counts":  # a list of picks: each word within its box's most
            most = dict(pick.counts)
            picked = counts(values[pick.name])
            if sum(picked.values()) > (pick.high or 0) or \
                    any(n > most.get(word, 0) for word, n in picked.items()):
                return False
        elif pick.kind == "number":
            number = int(values[pick.name])
            if (pick.low is not None and number < pick.low) or \
                    (pick.high is not None and number > pick.high):
                return False
        elif values[pick.name] not in pick.options:
            return False
    return True


@dataclass
class Script:
    game: str
    events: list[Event] = field(default_factory=list)
    phones: list[int] = field(default_factory=list)
    offline: tuple[int, int] = (0, 0)  # phone 2's taps without connection: first, how many
    followed: int = 0  # how many of the example's events, from its start
    untapped: Event | None = None  # the example's first event the board has no tap for


def plan(game: str) -> Script:
    """The events to tap, as the engine sees the match the site starts (no options), and the
    buttons its board draws (web.table.board.taps): the example's while the board offers them,
    then the board's own, picked at random (seeded)."""
    ex = example(game)
    base = Match(ex.system, ex.players, (), ())
    play = get_system(game).play()
    assert play is not None
    table = SimpleNamespace(play=play, match=base)  # what web.table.board.taps reads
    rng = random.Random(game)
    script = Script(game)
    following = True
    last = 1

    def valid(events: list[Event]) -> bool:
        try:
            replay(play, base, events)
        except MatchError:
            return False
        return True

    def on_board(ev: Event, board: tuple[Tap, ...]) -> bool:
        return any(offers(t, ev) for t in board)

    def as_tapped(ev: Event, board: tuple[Tap, ...], done: list[Event]) -> Event | None:
        """`ev`, or the same event with a value it leaves out spelled out as a button has
        it (a WarStuff unit's only copy, one HammerWars life): what the board records."""
        if on_board(ev, board):
            return ev if valid([*done, ev]) else None
        try:
            after = play.to_data(replay(play, base, [*done, ev]))
        except MatchError:
            return None
        given = dict(ev.values)
        for t in board:
            if (t.kind, t.side, t.unit) != (ev.kind, ev.side, ev.unit):
                continue
            if any(n in given and form_value(given[n]) != v for n, v in t.fixed):
                continue
            types = play.kinds[ev.kind].values
            # what the tap sends of a value the event leaves out: its fixed value, or what
            # its box or list shows before the player changes it
            shown = [*t.fixed, *((pick.name, form_value(pick.value)) for pick in t.picks)]
            extra = tuple((n, types[n](v) if types[n] is not bool else v == "yes")
                          for n, v in shown if n not in given)
            spelled = Event(ev.kind, ev.side, ev.unit, tuple(sorted(ev.values + extra)))
            if offers(t, spelled) and valid([*done, spelled]) and \
                    play.to_data(replay(play, base, [*done, spelled])) == after:
                return spelled
        return None

    while len(script.events) < PLAYED:
        done = list(script.events)
        now = play.offers(replay(play, base, done))
        if not now:
            break
        board = taps(table, now)  # type: ignore[arg-type]
        if script.offline == (0, 0) and len(done) >= OFFLINE_FROM:
            run: list[Event] = []  # taps phone 2 makes from the board it shows, in a row
            for _ in range(3):
                if following:
                    pos = len(done) + len(run)
                    found = as_tapped(ex.events[pos], board, done + run) \
                        if pos < len(ex.events) else None
                    if found is None:
                        break
                    run.append(found)
                else:
                    fits = [c for c in now if valid(done + run + [c])]
                    if not fits:
                        break
                    run.append(rng.choice(fits))
            if len(run) >= 2:
                script.offline = (len(done), len(run))
                script.events += run
                script.phones += [2] * len(run)
                script.followed = len(script.events) if following else script.followed
                last = 2
                continue
        pos = len(done)
        nxt = None
        if following and pos < len(ex.events):
            nxt = as_tapped(ex.events[pos], board, done)
            if nxt is None:
                script.untapped, following = ex.events[pos], False
        if nxt is None:
            following = False
            nxt = rng.choice(now)
        else:
            script.followed = pos + 1
        last = nxt.side if nxt.side in (1, 2) else last
        script.events.append(nxt)
        script.phones.append(last)
    return script


# -- the browser -------------------------------------------------------------------------------

FIND_TAP = """ev => {
  const word = v => v === null || v === undefined ? '' : String(v);
  const forms = [...document.querySelectorAll('#board form.tap')];
  for (let i = 0; i < forms.length; i++) {
    const f = forms[i];
    const hidden = n => { const e = f.querySelector(`input[type=hidden][name="${n}"]`);
                          return e ? e.value : ''; };
    if (hidden('kind') !== ev.kind || hidden('side') !== word(ev.side)
        || hidden('unit') !== word(ev.unit)) continue;
    const fixed = [...f.querySelectorAll('input[type=hidden][name^="v_"]')];
    const picks = [...f.querySelectorAll('input:not([type=hidden])[name^="v_"], select')];
    // a list of picks: a box a word (t_<name>.<word>), each filled with how often it is named
    const boxes = [...f.querySelectorAll('input[name^="t_"]')];
    const split = b => { const at = b.name.indexOf('.');
                         return [b.name.slice(2, at), b.name.slice(at + 1)]; };
    const listed = [...new Set(boxes.map(b => split(b)[0]))];
    const names = [...fixed, ...picks].map(e => e.name.slice(2)).concat(listed);
    const wanted = Object.keys(ev.values);
    if (names.length !== wanted.length || !wanted.every(n => names.includes(n))) continue;
    if (!fixed.every(h => ev.values[h.name.slice(2)] === h.value)) continue;
    if (!picks.every(p => p.tagName !== 'SELECT'
                     || [...p.options].some(o => o.value === ev.values[p.name.slice(2)])))
      continue;
    const words = n => ev.values[n].split(',').map(w => w.trim()).filter(w => w);
    if (!listed.every(n => words(n).every(w => boxes.some(b => split(b)[0] === n
                                                           && split(b)[1] === w))))
      continue;
    const counted = boxes.map(b => { const [n, w] = split(b);
      return [b.name, String(words(n).filter(x => x === w).length), 'INPUT']; })
      .filter(([, n]) => n !== '0');  // the boxes start at 0
    const details = f.closest('details');
    return {index: i, details: details ? details.id : '',
            picks: picks.map(p => [p.name, ev.values[p.name.slice(2)], p.tagName])
                   .concat(counted)};
  }
  return null;
}"""


def board_taps(page: Page) -> list[str]:
    return page.evaluate(
        "() => [...document.querySelectorAll('#board form.tap')].map(f => "
        "[...new FormData(f)].filter(([n]) => !['csrf_token', 'base'].includes(n))"
        ".map(([n, v]) => n + '=' + v).join(' '))")


def tap(page: Page, ev: dict[str, Any], wait: bool = True) -> None:
    """Tap the board's button that records `ev` (kind, side, unit and its values as words):
    open its unit, fill in what is picked, press it; then (`wait`) until it is sent."""
    found = page.evaluate(FIND_TAP, ev)
    assert found, f"no tap for {ev} on the board; it has:\n" + "\n".join(board_taps(page))
    if found["details"]:
        details = page.locator(f"#{found['details']}")
        if details.get_attribute("open") is None:
            details.locator(":scope > summary").click()
    form = page.locator("#board form.tap").nth(found["index"])
    for name, value, tag in found["picks"]:
        box = form.locator(f"[name='{name}']")
        if tag == "SELECT":
            box.select_option(value)
        else:
            box.fill(value)
    form.locator("button[type=submit]").click()
    if wait:
        sent(page)


def sent(page: Page, timeout: float = 15) -> None:
    until(page, NO_PENDING, timeout=timeout)
    message = page.locator("#table-message")
    assert message.count() == 0, message.inner_text()


def version(page: Page) -> int:
    return int(page.evaluate(VERSION))


def reaches(page: Page, wanted: int) -> None:
    """Wait until the page's board shows the match at `wanted` (its poll brings it)."""
    until(page, f"() => ({VERSION})() === '{wanted}'", timeout=15)


def import_roster(page: Page, server: str, text: str) -> str:
    page.goto(server + "/")
    page.set_input_files("input[type=file]", files=[
        {"name": "roster.yaml", "mimeType": "text/yaml", "buffer": text.encode()}])
    page.locator("form:has(input[type=file]) button[type=submit]").first.click()
    page.wait_for_url(re.compile(r"/r/"))
    return str(page.url).split("?")[0].split("#")[0]


@dataclass
class Started:
    one: Page  # side 1's phone, on side 1's private link
    two: Page  # side 2's phone, on the link side 1's page shows for it
    mine: str  # side 1's link
    theirs: str  # side 2's
    watch: str


def start_match(server: str, one: Page, two: Page, game: str) -> Started:
    """Import both rosters of the example, start the match from side 1's with side 2's share
    link, and open side 2's link on its own phone."""
    data = yaml.safe_load((ROOT / "examples" / game / "match.yaml").read_text(encoding="utf-8"))
    first, second = data["players"]
    mine_roster = import_roster(one, server, first["roster"])
    import_roster(two, server, second["roster"])
    share = two.input_value("#share-link")
    assert "/s/" in share
    one.goto(mine_roster + "/play")
    one.fill("#me", first["name"])
    one.fill("#opponent", second["name"])
    one.fill("#link", share)
    one.click("button[type=submit].primary")
    one.wait_for_url(re.compile(r"/m/[^/]+\?started=1$"))
    one.wait_for_selector("#board")
    theirs, watch = one.input_value("#opponent-link"), one.input_value("#watch-link")
    mine = str(one.url).split("?")[0]
    assert len({mine, theirs, watch}) == 3 and all("/m/" in u for u in (mine, theirs, watch))
    two.goto(theirs)
    two.wait_for_selector("#board")
    until(two, "() => document.readyState === 'complete'")
    until(one, "() => document.readyState === 'complete'")
    return Started(one, two, mine, theirs, watch)


def scores(page: Page) -> dict[str, list[int]]:
    return page.evaluate(
        "() => Object.fromEntries([...document.querySelectorAll('#board .scores tbody tr')]"
        ".map(r => [r.querySelector('th').textContent.trim(),"
        " [...r.querySelectorAll('td')].map(d => Number(d.textContent.trim()))]))")


def replayed(text: str, tmp: Path) -> dict[str, Any]:
    path = tmp / "exported-match.yaml"
    path.write_text(text, encoding="utf-8")
    done = subprocess.run([*CLI, "match", str(path), "--json"], capture_output=True,
                          text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    return dict(json.loads(done.stdout))


def lose_answer(route: Any, lost: list[int]) -> None:
    """The first tap reaches the server, and its answer is lost on the way back."""
    if lost:
        route.continue_()
        return
    lost.append(route.fetch().status)
    route.abort("connectionreset")


@contextmanager
def two_phones(browser: Any, **options: Any) -> Iterator[tuple[Any, Any]]:
    """Two phones; only phone 2, which is reloaded offline, runs the site's service worker."""
    with phone_pair(browser, PHONE, ("block", "allow"), **options) as made:
        yield made


@pytest.fixture
def phones(browser: Any) -> Iterator[tuple[Any, Any]]:
    with two_phones(browser) as made:
        yield made


@pytest.fixture
def tls_phones(browser: Any) -> Iterator[tuple[Any, Any]]:
    """Two phones for the TLS front's self-signed certificate. Chromium registers no service
    worker from a site whose certificate it does not trust, whatever the context's
    ignore_https_errors says, so these phones' Chromium is told to take any certificate:
    phone 2's offline reload needs the worker, as it does on a club's real certificate."""
    chromium = browser.browser_type.launch(executable_path=CHROMIUM,
                                           args=[*ARGS, "--ignore-certificate-errors"])
    try:
        with two_phones(chromium, ignore_https_errors=True) as made:
            yield made
    finally:
        chromium.close()


def refused_answers(page: Page) -> list[str]:
    """Every answer of 400 or more the page meets, kept as it happens."""
    seen: list[str] = []
    page.on("response", lambda r: seen.append(f"{r.status} {r.request.method} {r.url}")
            if r.status >= 400 else None)
    return seen


def page_errors(page: Page) -> list[str]:
    """Every uncaught script error of the page, kept as it happens."""
    seen: list[str] = []
    page.on("pageerror", lambda error: seen.append(str(error)))
    return seen


# -- 1. a match played on two phones ------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_two_phones_play_a_match_that_replays_as_shown(
        server: str, phones: tuple[Any, Any], game: str, tmp_path: Path) -> None:
    play_on_two_phones(server, phones, game, tmp_path)


def test_two_phones_play_a_match_through_the_tls_front(
        https: str, tls_phones: tuple[Any, Any], tmp_path: Path) -> None:
    """As a club runs it: nginx with TLS before the app (tests/tools/tlsfront.py). Every
    tap and undo was refused here (400, "The form had expired") while the same test over
    plain HTTP passed: match pages sent no Referer, which Flask-WTF wants over HTTPS."""
    play_on_two_phones(https, tls_phones, "warstuff", tmp_path)


def play_on_two_phones(server: str, phones: tuple[Any, Any], game: str,
                       tmp_path: Path) -> None:
    script = plan(game)
    assert len(script.events) >= 10 and script.offline[1] >= 2, script
    first_off, off_count = script.offline
    ctx_one, ctx_two = phones
    one, two = ctx_one.new_page(), ctx_two.new_page()
    script_errors = page_errors(one) + page_errors(two)
    refusals = [refused_answers(one), refused_answers(two)]
    match = start_match(server, one, two, game)
    pages = {1: match.one, 2: match.two}
    at = version(match.one)
    assert version(match.two) == at
    lost_answer = next(i for i in range(first_off + off_count, len(script.events))
                       if script.phones[i] == 1)

    i = 0
    while i < len(script.events):
        if i == first_off:  # phone 2 without connection: its taps wait on it
            page = match.two
            reaches(page, at)
            ctx_two.set_offline(True)
            for n in range(off_count):
                tap(page, plain(script.events[i + n]), wait=False)
                until(page, f"() => document.querySelectorAll('#pending li').length === {n + 1}",
                      timeout=2)
            assert version(page) == at  # nothing reached the server
            assert match.one.request.get(f"{match.mine}/board?v={at}").status == 204
            waiting = page.locator("#pending li").all_inner_texts()
            assert all(w.startswith("Waiting to send: ") for w in waiting)
            until(page, "() => document.querySelector('#sync').textContent"
                        ".includes('No connection')", timeout=10)
            page.reload()  # the worker's copy of the page; the taps are kept in the browser
            page.wait_for_selector("#board")
            until(page, f"() => document.querySelectorAll('#pending li').length === {off_count}",
                  timeout=5)
            assert page.locator("#pending li").all_inner_texts() == waiting
            ctx_two.set_offline(False)
            sent(page, timeout=20)
            at += off_count
            reaches(page, at)
            i += off_count
            continue
        page = pages[script.phones[i]]
        reaches(page, at)
        if i == lost_answer:  # the server records it, the answer never comes back
            lost: list[int] = []
            page.route("**/event", lambda route, _request, lost=lost: lose_answer(route, lost))
            tap(page, plain(script.events[i]), wait=False)
            until(page, "() => document.querySelector('#sync').textContent"
                        ".includes('No connection')", timeout=10)
            assert lost == [200]
            assert match.two.request.get(f"{match.theirs}/board?v={at + 1}").status == 204
            sent(page, timeout=20)  # sent again (its id the same) after a few seconds
            page.unroute("**/event")
        else:
            tap(page, plain(script.events[i]))
        at += 1
        assert version(page) == at, f"event {i} ({script.events[i]}) moved the match to " \
                                    f"{version(page)}, not {at}"
        i += 1

    for page in pages.values():
        reaches(page, at)
    headline = match.one.locator("#headline").inner_text()
    assert match.two.locator("#headline").inner_text() == headline
    shown = scores(match.one)
    assert scores(match.two) == shown
    assert match.one.locator("#board .scores").inner_text() == \
        match.two.locator("#board .scores").inner_text()

    answer = match.one.request.get(match.mine + "/match.yaml")
    assert answer.status == 200
    log = answer.text()
    cli = replayed(log, tmp_path)
    assert cli["events"] == len(script.events)
    if cli["over"]:
        assert headline.startswith("Game over") and cli["reason"] in headline
    else:
        assert headline == cli["reason"]
    assert shown == cli["scores"]
    events = yaml.safe_load(log)["events"]
    ids = [e.get("id") for e in events]
    assert all(ids) and len(set(ids)) == len(ids)  # each tap once, by its own id
    assert [unordered(exported(e)) for e in events] == \
        [unordered(plain(e)) for e in script.events]

    # Undo from phone 1 takes back the last event on both phones
    undo_button = match.one.locator("form.undo button")
    assert undo_button.inner_text().startswith("Undo: ")
    undo_button.click()
    reaches(match.one, at + 1)
    reaches(match.two, at + 1)
    back = yaml.safe_load(match.one.request.get(match.mine + "/match.yaml").text())["events"]
    assert len(back) == len(script.events) - 1
    assert refusals == [[], []] and script_errors == [], (refusals, script_errors)


@pytest.mark.parametrize("game", GAMES)
def test_concede_ends_the_game_with_scripts_on(server: str, phones: tuple[Any, Any],
                                                game: str) -> None:
    """"End the game for …" is a fold with no unit name in it: table.js read one, threw
    (Cannot read properties of null) and sent nothing, in every game. Only a player with
    scripts off could end a game early."""
    one, two = phones[0].new_page(), phones[1].new_page()
    errors = page_errors(one)
    start_match(server, one, two, game)
    at = version(one)
    fold = one.locator("#board details.ending#end-1")
    name = fold.locator("summary").inner_text().removeprefix("End the game for ").strip()
    fold.locator("summary").click()
    fold.locator("form.tap button").first.click()
    sent(one)
    assert errors == []
    assert version(one) == at + 1
    reaches(two, at + 1)
    for page in (one, two):
        headline = page.locator("#headline").inner_text()
        assert headline.startswith("Game over"), headline
        assert name in (page.locator("#board details.log").text_content() or "")


def test_a_tap_the_server_did_not_take_says_so_and_is_sent_again(
        server: str, phones: tuple[Any, Any]) -> None:
    """An answer that is not a board (here: the session gone, so the form's CSRF token is
    refused with 400 "The form had expired") took the tap out of the queue and said nothing,
    or left it waiting for good. Now the phone says, in the server's words, that it was not
    recorded, and offers to send it again, which works on a fresh board."""
    one, two = phones[0].new_page(), phones[1].new_page()
    errors = page_errors(one)
    match = start_match(server, one, two, "hammerwars")
    at = version(one)
    phones[0].clear_cookies()  # the session, and with it the CSRF token's secret, is gone
    ev = plain(plan("hammerwars").events[0])
    tap(one, ev, wait=False)
    note = one.locator("#not-recorded .notice")
    note.wait_for()
    words = " ".join(note.inner_text().split())
    assert words.startswith("Not recorded: ") and "The form had expired" in words, words
    assert "Reload the page and try again" in words
    until(one, NO_PENDING, timeout=5)  # out of the waiting list: it waits on the player now
    assert version(one) == at
    assert one.request.get(f"{match.mine}/board?v={at}").status == 204  # nothing recorded
    one.reload()  # kept in the browser, like the taps waiting
    one.locator("#not-recorded .notice").wait_for()
    one.locator("#not-recorded").get_by_role("button", name="Send again").click()
    reaches(one, at + 1)
    sent(one)
    assert one.locator("#not-recorded .notice").count() == 0
    reaches(two, at + 1)
    assert errors == []


def test_an_answer_that_is_not_a_board_says_so_and_can_be_forgotten(
        server: str, phones: tuple[Any, Any]) -> None:
    """A page from something between the phone and the server (a captive portal's, a proxy's)
    answered a tap: the tap is not counted as sent, and the player may forget it."""
    one, two = phones[0].new_page(), phones[1].new_page()
    start_match(server, one, two, "op40k")
    at = version(one)
    one.route("**/event", lambda route: route.fulfill(
        status=403, content_type="text/html",
        body="<html><body><p>Sign in to the club's Wi-Fi first.</p></body></html>"))
    tap(one, plain(plan("op40k").events[0]), wait=False)
    note = one.locator("#not-recorded .notice")
    note.wait_for()
    words = " ".join(note.inner_text().split())
    assert words.startswith("Not recorded: ") and "403" in words, words
    until(one, NO_PENDING, timeout=5)
    one.unroute("**/event")
    note.get_by_role("button", name="Forget it").click()
    assert one.locator("#not-recorded .notice").count() == 0
    one.reload()
    one.wait_for_selector("#board")
    assert one.locator("#not-recorded .notice").count() == 0 and version(one) == at


@pytest.mark.parametrize("game", GAMES)
def test_the_board_offers_a_tap_for_every_event_of_the_example(game: str) -> None:
    """The start of each example log can be tapped on the board, as it is or with a value it
    leaves out spelled out. (The test above plays on from the board's own taps where not.)"""
    script = plan(game)
    assert script.untapped is None, \
        f"event {script.followed + 1} of examples/{game}/match.yaml: {script.untapped}"


# -- 2. the board on a phone -------------------------------------------------------------------

def in_view(page: Page, selector: str) -> bool:
    """Whether the element is on the screen, whole, and not under the page's sticky bars."""
    return bool(page.evaluate(
        "s => { const e = document.querySelector(s); if (!e) return false;"
        " const r = e.getBoundingClientRect();"
        " if (!(r.height > 0 && r.top >= 0 && r.bottom <= innerHeight"
        "       && r.left >= 0 && r.right <= innerWidth)) return false;"
        " const x = r.left + r.width / 2;"
        " return [r.top + 2, r.top + r.height / 2, r.bottom - 2].every(y => {"
        "   const hit = document.elementFromPoint(x, y); return hit && e.contains(hit); }); }",
        selector))


def small_targets(page: Page) -> list[str]:
    return page.evaluate(
        "() => [...document.querySelectorAll('#board .tap-button, #board .undo button')]"
        ".filter(b => b.checkVisibility())"
        ".map(b => [b.textContent.trim(), b.getBoundingClientRect().height])"
        ".filter(([, h]) => h < 44).map(([t, h]) => `${t}: ${h}px`)")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_board_on_a_small_phone(server: str, browser: Any, scheme: str,
                                    screenshots: Path) -> None:
    size = {"width": 375, "height": 740}
    with phone_pair(browser, size, color_scheme=scheme) as made:
        match = start_match(server, made[0].new_page(), made[1].new_page(), "op40k")
        one, two = match.one, match.two
        found: list[str] = []
        tap(one, plain(example("op40k").events[0]))  # side 2 goes first
        reaches(two, version(one))
        # side 2 activates its last unit, down the page: the phone that tapped shows the
        # score, and the unit now acting, open, with its first tap
        page = two
        last = page.evaluate(
            "() => Math.max(...[...document.querySelectorAll('#board form.tap')]"
            ".filter(f => f.kind.value === 'activate' && f.side && f.side.value === '2')"
            ".map(f => Number(f.unit.value)))")
        ev = next(c for c in get_system("op40k").play().offers(  # type: ignore[union-attr]
            replay(get_system("op40k").play(), Match("op40k", example("op40k").players),
                   example("op40k").events[:1])) if c.kind == "activate" and c.unit == last)
        tap(page, plain(ev))
        page.screenshot(path=str(screenshots / f"table-phone-{scheme}-activated.png"))
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        assert in_view(page, "#board .scoreboard")
        assert page.locator("#board .unit.current details[open]").count() == 1
        assert in_view(page, "#board .unit.current summary"), "the acting unit is out of view"
        first = "#board .unit.current details[open] .tap-button"
        if page.locator(first).count():
            assert in_view(page, first), "the acting unit's first tap is out of view"
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(screenshots / f"table-phone-{scheme}-top.png"))
        for who in (one, two):
            who.evaluate("document.querySelectorAll('#board details.unit-row, #board li.unit "
                         "details').forEach(d => d.open = true)")
            assert small_targets(who) == []
            assert who.evaluate("document.documentElement.scrollWidth") <= size["width"]
            found += serious(who, f"match page {scheme}")
        one.screenshot(path=str(screenshots / f"table-phone-{scheme}-open-full.png"),
                       full_page=True)
        watch = made[0].new_page()
        watch.goto(match.watch)
        found += serious(watch, f"spectators' page {scheme}")
        assert watch.evaluate("document.documentElement.scrollWidth") <= size["width"]
        assert found == []


def test_the_boards_other_controls_are_44_px_high(server: str, browser: Any) -> None:
    ctx = browser.new_context(viewport={"width": 375, "height": 740}, is_mobile=True,
                              has_touch=True, service_workers="block")
    try:
        page = ctx.new_page()
        start_match(server, page, ctx.new_page(), "op40k")
        page.evaluate("document.querySelectorAll('#board details').forEach(d => d.open = true)")
        small = page.evaluate(
            "() => [...document.querySelectorAll('#board button, #board select, #board summary')]"
            ".filter(e => e.checkVisibility())"
            ".map(e => [e.textContent.trim().slice(0, 30), e.getBoundingClientRect().height])"
            ".filter(([, h]) => h < 44).map(([t, h]) => `${t}: ${h}px`)")
        assert small == []
    finally:
        ctx.close()


# -- 3. the spectators' link --------------------------------------------------------------------

def test_the_spectators_link_changes_nothing(server: str, browser: Any,
                                             phones: tuple[Any, Any]) -> None:
    match = start_match(server, phones[0].new_page(), phones[1].new_page(), "warstuff")
    tap(match.one, plain(example("warstuff").events[0]))
    at = version(match.one)
    # side 1's link never reaches side 2's phone
    assert match.two.locator("#opponent-link").count() == 0
    mine = match.mine.rsplit("/", 1)[1]
    assert mine not in match.two.content()
    reaches(match.two, at)
    assert match.two.locator("#board form.tap").count() > 0

    stranger = browser.new_context(viewport=PHONE, service_workers="block")
    try:
        page = stranger.new_page()
        page.goto(match.watch)
        page.wait_for_selector("#board")
        assert "watching" in page.locator("h1").inner_text()
        assert page.locator("#board form.tap, #board form.undo, #board .undo-bar").count() == 0
        assert page.locator("#opponent-link").count() == 0
        assert mine not in page.content() and match.theirs.rsplit("/", 1)[1] not in \
            page.content()
        assert page.locator("#headline").inner_text() == \
            match.one.locator("#headline").inner_text()
        assert version(page) == at
        # a token of its own session, from a page that has one
        token = page.evaluate("() => { const i = document.querySelector("
                              "'input[name=csrf_token]'); return i ? i.value : ''; }")
        if not token:
            home = stranger.new_page()
            home.goto(server + "/")
            token = home.input_value("input[name=csrf_token]")
        watch = match.watch
        forged = {"csrf_token": token, "base": str(at), "kind": "round-end"}
        tapped = plain(plan("warstuff").events[1])
        as_side = {"csrf_token": token, "base": str(at), "kind": tapped["kind"],
                   "side": str(tapped["side"]), "unit": str(tapped["unit"] or ""),
                   **{f"v_{k}": v for k, v in tapped["values"].items()}}
        for url, form in ((f"{watch}/event", forged), (f"{watch}/event", as_side),
                          (f"{watch}/undo", {"csrf_token": token, "base": str(at)})):
            answer = page.request.post(url, form=form, headers={"X-Table": "1"})
            assert answer.status == 403, (url, answer.status, answer.text()[:300])
        for who in (match.one, page):
            assert who.request.get(f"{match.mine}/board?v={at}").status == 204
        assert len(yaml.safe_load(page.request.get(watch + "/match.yaml").text())["events"]) \
            == 1
    finally:
        stranger.close()


# -- 4. the screen stays on -----------------------------------------------------------------------

WAKE_LOCK: dict[str, Any] = {}


def test_the_screen_wake_lock(server: str, phones: tuple[Any, Any]) -> None:
    """Held while the match is in view, where the browser grants it. Headless Chromium may
    refuse it (no screen): then this only records that."""
    match = start_match(server, phones[0].new_page(), phones[1].new_page(), "hammerwars")
    page = match.one
    supported = page.evaluate("'wakeLock' in navigator")
    held = False
    if supported:
        try:
            until(page, "() => document.documentElement.getAttribute('data-wake-lock')"
                        " === 'held'", timeout=3)
            held = True
        except AssertionError:
            held = False
    WAKE_LOCK.update(supported=supported, held=held)
    print(f"wake lock: in navigator {supported}, held {held}")
    if not held:
        pytest.skip(f"headless Chromium does not grant the screen wake lock "
                    f"(wakeLock in navigator: {supported})")
    assert page.evaluate("document.documentElement.getAttribute('data-wake-lock')") == "held"
