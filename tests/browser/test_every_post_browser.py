"""Every POST the app answers, reached from the page that offers it, in real Chromium with its
scripts on, through the TLS front a club deploys (nginx before `listbuilder serve`: the
session's `https`). tests/web/test_safe_gets.py walks every GET the same way, from the app's
url_map.

Why: the match tracker refused every tap behind HTTPS (its pages sent no Referer, which
Flask-WTF wants over HTTPS) while every browser test, all on plain HTTP, passed. So each form
and each script's post is made here once as a player makes it: a click, a key, a file chosen,
a box typed in, the tracker's taps that static/js/table.js sends with fetch. Two more browser
contexts are a friend's (my shared roster and pack copied, their edit links kept) and my
phone's (my list's link joined).

The walk is a list of named steps; each says which endpoints it reaches, and the test fails on
a step that did not reach them, on any POST to an address that is no rule, on a POST rule of
the app that no step reached (a new route must be given its place in the walk), on any answer
of 400 or more the walk met (no step here means to be refused; a print preview put off by
a full line, which the page asks again for, is not a refusal) and on any uncaught script
error. One step is set up behind the browser's back: the game data updated under a saved
roster (a new release of the site), which is what makes a roster offer "Keep today's costs".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml
from browsertools import click_settled, opened, start_pack, until
from test_builder_browser import add, change, quiet, set_count, start, submit_start, unfold
from test_pack_journey_browser import PACK
from test_reorder_browser import names
from test_settings_words_browser import open_settings
from test_table_browser import sent
from werkzeug.exceptions import HTTPException
from werkzeug.routing import MapAdapter, RequestRedirect

from listbuilder.settings import TestConfig
from listbuilder.store.database import sqlite_url
from listbuilder.store.rosters import RosterStore
from listbuilder.web import create_app

pytestmark = pytest.mark.browser

Page = Any
ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
MY_ROSTER, MY_PACK = "Walk", "Walk Brigade"

# -- the record -----------------------------------------------------------------------------

REACHES: dict[str, frozenset[str]] = {}
Step = Callable[..., Any]


def reaches(*endpoints: str) -> Callable[[Step], Step]:
    """Mark a step with the endpoints its actions post to (it may post to others besides:
    a live check sent as a box is typed in, say)."""

    def mark(step: Step) -> Step:
        REACHES[step.__name__] = frozenset(endpoints)
        return step

    return mark


def post_rules(tmp: Path) -> tuple[MapAdapter, set[str]]:
    """The app's url_map (an app of the tests' settings on a database of its own), and every
    endpoint of it that takes a POST."""
    config = {k: getattr(TestConfig, k) for k in dir(TestConfig) if k.isupper()}
    config.update(DATABASE_URL=sqlite_url(tmp / "rules.sqlite3"))
    app = create_app(config, instance_path=tmp / "instance")
    app.extensions["listbuilder.store"].close()
    posts = {r.endpoint for r in app.url_map.iter_rules() if "POST" in (r.methods or ())}
    return app.url_map.bind("127.0.0.1"), posts


@dataclass
class Walk:
    """What the pages of the walk post and are refused, step by step."""

    base: str
    rules: MapAdapter
    step: str = ""
    posted: list[tuple[str, str]] = field(default_factory=list)  # (step, endpoint)
    strays: list[str] = field(default_factory=list)  # POSTs to no rule
    refused: list[str] = field(default_factory=list)  # answers of 400 or more
    previews_put_off: int = 0  # previews answered "ask again later" (not refusals)
    errors: list[str] = field(default_factory=list)  # the pages' uncaught script errors

    def watch(self, page: Page) -> Page:
        page.on("request", self._request)
        page.on("response", self._response)
        page.on("pageerror", lambda error: self.errors.append(f"{self.step}: {error}"))
        return page

    def endpoint(self, url: str, method: str) -> str | None:
        parts = urlsplit(url)
        if f"{parts.scheme}://{parts.netloc}" != self.base:
            return None
        try:
            endpoint, _ = self.rules.match(parts.path, method=method)
        except (HTTPException, RequestRedirect):
            return None
        return str(endpoint)

    def _request(self, request: Any) -> None:
        if request.method != "POST":
            return
        endpoint = self.endpoint(request.url, "POST")
        if endpoint is None:
            self.strays.append(f"{self.step}: POST {request.url}")
        else:
            self.posted.append((self.step, endpoint))

    def _response(self, response: Any) -> None:
        if response.status < 400:
            return
        method = response.request.method
        if (response.status == 503 and method in ("GET", "HEAD")
                and urlsplit(response.url).path.endswith("/preview.png")
                and response.headers.get("retry-after")):
            # A preview asked while this address's prints fill its share of the line: the
            # designed answer, which the page's script asks again after (listbuilder.js)
            self.previews_put_off += 1
            return
        try:
            said = words(response.text())
        except Exception as exc:  # a body already gone with its page
            said = f"(no body: {exc})"
        self.refused.append(f"{self.step}: {response.status} {method} "
                            f"{urlsplit(response.url).path} "
                            f"[{self.endpoint(response.url, method)}] {said}")

    def run(self, step: Step, *args: Any) -> Any:
        """Take one step; it must reach what it says it reaches."""
        self.step = step.__name__
        start = len(self.posted)
        answer = step(*args)
        got = {endpoint for _, endpoint in self.posted[start:]}
        missed = REACHES[step.__name__] - got
        assert not missed, f"{step.__name__} posted to {sorted(got)}, never to {sorted(missed)}"
        return answer

    def reached(self) -> dict[str, list[str]]:
        """Each step's endpoints, in the order they were first posted to."""
        out: dict[str, list[str]] = {}
        for step, endpoint in self.posted:
            if endpoint not in out.setdefault(step, []):
                out[step].append(endpoint)
        return out


def words(body: str) -> str:
    """What an answer says, in brief, without its markup: its alert (a board's message, an
    error page's notice), else its main part."""
    alert = re.search(r'role="alert"[^>]*>(.*?)</', body, re.S)
    main = alert[1] if alert else body.split("<main", 1)[-1].split(">", 1)[-1]
    return " ".join(re.sub(r"<[^>]*>", " ", main).split())[:300]


def address(page: Page) -> str:
    return str(page.url).split("?")[0].split("#")[0]


def posted(page: Page, path_end: str, action: Callable[[], Any]) -> None:
    """Do `action`, which posts to an address ending in `path_end`, and wait for the answer."""
    with page.expect_response(lambda r: r.request.method == "POST"
                              and urlsplit(r.url).path.endswith(path_end)):
        action()


def open_file(page: Page, base: str, path: Path) -> str:
    """Open a roster file from the home page; the new roster's edit address."""
    page.goto(base + "/")
    page.set_input_files("#file", str(path))
    page.get_by_role("button", name="Open file").click()
    opened(page, "#units-title", state="attached")
    return address(page)


# -- a roster of mine ---------------------------------------------------------------------------

@reaches("home.new")
def start_a_roster(me: Page, base: str) -> tuple[str, str]:
    """The roster's edit address and its share link."""
    start(me, base, "One Page 40k (1st edition)", MY_ROSTER)
    me.get_by_label("Faction").select_option("Orks")
    me.get_by_label("Points limit").fill("5000")
    submit_start(me)
    assert me.locator("main h1").first.inner_text() == MY_ROSTER
    return address(me), str(me.get_by_label("Share link").input_value())


@reaches("builder.add", "builder.entry", "builder.move", "builder.duplicate_entry",
         "builder.reorder", "builder.remove")
def edit_its_entries(me: Page) -> None:
    for unit in ("Ork Boyz", "Nobz", "Trukk"):
        add(me, unit)
    set_count(me, 0, 20)
    unfold(me, 0)
    change(me, lambda: click_settled(me, me.locator("#down-0")))
    assert names(me) == ["Nobz", "Ork Boyz", "Trukk"]
    unfold(me, 0)
    change(me, lambda: click_settled(me, me.locator("#duplicate-0")))
    assert names(me) == ["Nobz", "Nobz", "Ork Boyz", "Trukk"]
    me.focus("#handle-3")  # the handle moved by key (static/js/reorder.js)
    change(me, lambda: me.keyboard.press("Home"))
    assert names(me) == ["Trukk", "Nobz", "Nobz", "Ork Boyz"]
    unfold(me, 2)
    change(me, lambda: click_settled(me, me.locator("#remove-2")))
    assert names(me) == ["Trukk", "Nobz", "Ork Boyz"]
    assert me.locator("#count-2").input_value() == "20"


@reaches("builder.undo", "builder.redo")
def undo_and_redo(me: Page) -> None:
    change(me, me.locator("#undo-button").click)
    assert names(me) == ["Trukk", "Nobz", "Nobz", "Ork Boyz"]
    change(me, me.locator("#redo-button").click)
    assert names(me) == ["Trukk", "Nobz", "Ork Boyz"]


@reaches("builder.settings")
def change_its_settings(me: Page) -> None:
    open_settings(me)

    def limit() -> None:
        me.locator("#points_limit").fill("2500")
        me.locator("#points_limit").press("Enter")

    change(me, limit)
    assert "2500" in me.locator("#strip").inner_text()


@reaches("builder.replace_from_file")
def replace_it_from_a_file(me: Page, tmp: Path) -> None:
    text = (EXAMPLES / "op40k" / "legal.yaml").read_text(encoding="utf-8")
    file = tmp / "walk.yaml"
    file.write_text(re.sub(r"^name: .*$", f"name: {MY_ROSTER}", text, count=1, flags=re.M),
                    encoding="utf-8")
    click_settled(me, me.get_by_text("Edit link and import"))
    me.locator("#links input[type=file]").set_input_files(str(file))
    with me.expect_navigation():
        me.get_by_role("button", name="Import file").click()
    opened(me, "#units-title", state="attached")
    assert names(me) == [e["unit"] for e in yaml.safe_load(text)["entries"]]


def game_data_updated(folder: Path, roster: str) -> None:
    """What no browser can do: the site's game data updated under a saved roster (a new
    release). The roster's saved text is made to say it was priced against another revision
    of the data, at other costs, as tests/web/builder/test_builder.py does."""
    database = folder / "instance" / "listbuilder.sqlite3"
    assert database.exists(), database
    store = RosterStore(sqlite_url(database))
    try:
        saved = store.by_edit_token(roster.rsplit("/", 1)[1])
        assert saved is not None
        old = re.sub(r"^data_revision: .*$", "data_revision: 0ld0ld0ld0ld", saved.text,
                     count=1, flags=re.M).replace("pts: ", "pts: 1")
        assert old != saved.text
        store.save(saved.id, saved.version, saved.name, old)
    finally:
        store.close()


@reaches("builder.acknowledge")
def keep_todays_costs(me: Page, roster: str, folder: Path) -> None:
    game_data_updated(folder, roster)
    me.goto(roster)
    opened(me, "text=The game data changed since this roster was saved")
    change(me, me.get_by_role("button", name="Keep today's costs").click)
    assert me.get_by_text("The game data changed since this roster was saved").count() == 0


@reaches("home.import_file", "builder.join")
def attach_a_leader(me: Page, base: str) -> None:
    open_file(me, base, EXAMPLES / "actionhammer" / "legal.yaml")
    assert "Joined by Brigade Captain" in str(me.locator("#entry-0").text_content())
    unfold(me, 1)
    change(me, lambda: me.locator("#join-1").select_option(value=""))  # "On its own"
    assert "Joined by" not in str(me.locator("#entry-0").text_content())


@reaches("home.import_file", "builder.choices", "builder.redraw")
def make_choices_and_a_new_draw(me: Page, base: str) -> None:
    open_file(me, base, EXAMPLES / "spaceempires" / "legal.yaml")

    def treasury() -> None:
        me.locator("#choice-treasury").fill("3")
        me.locator("#choice-treasury").press("Enter")

    change(me, treasury)
    assert "Treasury\n3 saved" in me.locator("#totals").inner_text()
    seed = me.locator("#choice-seed").input_value()
    # a draw that would make the legal roster illegal is asked about first: saved or not,
    # the answer is the page's (200)
    posted(me, "/redraw", me.get_by_role("button", name=re.compile("^Re-draw")).click)
    quiet(me)
    asked = me.get_by_text("Not saved yet: the new draw makes the roster illegal").count()
    assert asked or me.locator("#choice-seed").input_value() != seed


@reaches("home.import_file", "builder.design", "builder.design_field", "builder.design_remove")
def design_units(me: Page, base: str) -> None:
    open_file(me, base, EXAMPLES / "warstuff" / "legal.yaml")
    creator = me.locator("#creator")
    if not creator.evaluate("d => d.open"):
        click_settled(me, me.locator("#creator > summary"))
    creator.get_by_label("Unit name").fill("Scout")
    creator.get_by_label("Quality").select_option("4")
    change(me, creator.get_by_role("button", name="Save design").click)
    assert "Scout" in me.locator("#designs").inner_text()
    assert names(me).count("Scout") == 1  # "Add one to the roster" was ticked
    text = me.locator("#roster-text").input_value()
    change(me, me.get_by_role("button", name="Add Scout to the roster").click)
    assert names(me).count("Scout") == 1  # WarStuff stacks the same unit in one entry
    assert me.locator("#roster-text").input_value() != text
    change(me, me.get_by_role("button", name="Delete the design Scout and its units").click)
    assert "Scout" not in me.locator("#designs").inner_text() and "Scout" not in names(me)


# -- the home page's list ---------------------------------------------------------------------

@reaches("home.duplicate", "home.rename", "home.delete", "home.restore", "home.forget")
def look_after_my_list(me: Page, base: str) -> None:
    me.goto(base + "/")
    with me.expect_navigation():
        me.get_by_role("button", name=f"Duplicate {MY_ROSTER}", exact=True).click()
    copy = f"{MY_ROSTER} (copy)"
    me.get_by_label(f"Rename {copy}").click()
    row = me.locator(".mine-row").filter(has=me.get_by_label(f"Rename {copy}"))
    row.get_by_label("New name").fill("Spare")
    with me.expect_navigation():
        row.get_by_role("button", name="Save name").click()
    me.get_by_role("link", name="Delete Spare", exact=True).click()
    opened(me, "text=Delete Spare?")
    with me.expect_navigation():
        me.get_by_role("button", name="Delete Spare").click()
    opened(me, "#deleted")
    assert "Spare" not in me.locator(".mine-name").all_inner_texts()
    with me.expect_navigation():
        me.get_by_role("button", name="Undo: restore Spare").click()
    assert "Spare" in me.locator(".mine-name").all_inner_texts()
    with me.expect_navigation():
        me.get_by_role("button", name="Take Spare off this list").click()
    assert "Spare" not in me.locator(".mine-name").all_inner_texts()
    assert MY_ROSTER in me.locator(".mine-name").all_inner_texts()


@reaches("roster_lists.make_link", "roster_lists.join", "roster_lists.unlink")
def show_my_list_on_my_phone(me: Page, phone: Page, base: str) -> None:
    me.goto(base + "/")
    me.locator("#devices summary").click()
    with me.expect_navigation():
        me.get_by_role("button", name="Get a link to this list").click()
    link = me.locator("#list-link").input_value()
    phone.goto(link)
    with phone.expect_navigation():
        phone.get_by_role("button", name="Show the list on this device").click()
    assert "This device now shows the list of this link" in phone.locator("#devices").inner_text()
    assert MY_ROSTER in phone.locator(".mine-name").all_inner_texts()
    with me.expect_navigation():
        me.get_by_role("button", name="Stop sharing the list on this device").click()
    assert me.locator("#list-link").count() == 0
    assert me.locator("form[action='/mine/link']").count() == 1


# -- a friend, in a browser of their own ----------------------------------------------------------

@reaches("shared.copy", "home.keep")
def a_friend_copies_and_keeps_my_roster(friend: Page, roster: str, share: str) -> str:
    """The friend's copy's share link."""
    friend.goto(share)
    with friend.expect_navigation():
        friend.get_by_role("button", name="Copy to my rosters").click()
    opened(friend, "#saved-version", state="attached")
    theirs = friend.get_by_label("Share link").input_value()
    assert "/s/" in theirs and theirs != share
    friend.goto(roster)
    with friend.expect_navigation():
        friend.get_by_role("button", name="Keep on my list").click()
    assert friend.get_by_role("button", name="Keep on my list").count() == 0
    return str(theirs)


@reaches("table.start", "table.event", "table.undo", "table.clock_tap")
def play_a_match(me: Page, roster: str, theirs: str) -> None:
    me.goto(roster)
    me.get_by_role("link", name="Play a match").click()
    opened(me, "#me")
    me.fill("#me", "Me")
    me.fill("#opponent", "Friend")
    me.fill("#link", theirs)
    me.click("button[type=submit].primary")
    me.wait_for_url(re.compile(r"/m/[^/]+\?started=1$"))
    opened(me, "#board")
    log = "#board details.log > summary"
    assert "(0 events)" in me.locator(log).inner_text()
    # a tap, sent by table.js with fetch; then Undo, sent the same way
    tap = me.locator("#board section.side.mine > .taps button.tap-button").first
    posted(me, "/event", tap.click)
    sent(me)
    until(me, "s => document.querySelector(s).textContent.includes('(1 events)')", arg=log)
    posted(me, "/undo", me.locator("#board form.undo button").click)
    until(me, "s => document.querySelector(s).textContent.includes('(0 events)')", arg=log)
    assert me.locator("#table-message").count() == 0
    # the clock: started from its fold, sent by table.js the same way
    me.locator("#clock-start > summary").click()
    posted(me, "/clock", me.get_by_role("button", name="Start clock").click)
    sent(me)
    opened(me, "#clock .clock-face.running")


# -- a pack of mine -----------------------------------------------------------------------------

@dataclass
class Pack:
    edit: str
    share: str


def the_pack_saved(me: Page, version: int, old: str, new: str) -> None:
    """Change the pack's text as typed in its box (the live check follows), and save it."""
    box = me.get_by_label("The pack, as YAML")
    text = box.input_value()
    assert old in text
    posted(me, "/check", lambda: box.fill(text.replace(old, new, 1)))
    me.get_by_role("button", name="Save", exact=True).click()
    opened(me, f"text=Saved as version {version}.")


@reaches("studio.new")
def start_a_pack(me: Page, base: str) -> Pack:
    start_pack(me, base, MY_PACK)
    assert "No problems" in me.locator("#pack-check").inner_text()
    return Pack(address(me), me.locator("#pack-share-link").input_value())


@reaches("studio.check", "studio.save")
def check_and_save_the_pack(me: Page) -> None:
    the_pack_saved(me, 2, "pts: 10\n", "pts: 12\n")
    assert "60 pts" in me.locator("#pack-check").inner_text()  # 5 troopers at 12


@reaches("studio_form.post", "studio_form.check")
def edit_the_pack_in_its_form(me: Page) -> None:
    me.get_by_role("button", name="Form", exact=True).click()
    opened(me, "#pack-form[data-view='form']")
    posted(me, "/form/check", lambda: me.locator("#pf-datasheets-1-save").fill("9"))
    until(me, "() => document.querySelector('#pf-datasheets-1-save-error')")
    assert me.locator("#pf-datasheets-1-save-error").inner_text() == "must be 2 to 6, got 9"


@reaches("studio.new_roster")
def start_a_roster_with_the_pack(me: Page, pack: Pack) -> str:
    me.goto(pack.edit)
    with me.expect_navigation():
        me.get_by_role("button", name="Start a new roster with this pack").click()
    opened(me, "#units-title", state="attached")
    assert me.locator("main h1").first.inner_text() == MY_PACK
    return address(me)


@reaches("studio.check", "studio.save", "roster_packs.update")
def use_the_packs_new_version(me: Page, pack: Pack, roster: str) -> None:
    me.goto(pack.edit)
    the_pack_saved(me, 3, "pts: 12\n", "pts: 14\n")
    me.goto(roster)
    opened(me, "text=A faction pack of this roster has a newer version")
    me.get_by_role("link", name="Use it, or keep this one, on the Faction packs page").click()
    with me.expect_navigation():
        me.get_by_role("button", name="Use version 3").click()
    opened(me, f"text=Saved: Update the pack {MY_PACK} to version 3.")
    assert me.get_by_text("This is the pack's latest version.").count() == 1


@reaches("roster_packs.remove", "roster_packs.add")
def take_the_pack_off_and_on_again(me: Page, pack: Pack) -> None:
    with me.expect_navigation():
        me.get_by_role("button", name=f"Take {MY_PACK} off").click()
    opened(me, "text=No packs yet")
    me.get_by_label("The pack's share link").fill(pack.share)
    with me.expect_navigation():
        me.get_by_role("button", name="Add the pack").click()
    opened(me, f"text=Saved: Add the pack {MY_PACK}.")


@reaches("studio.keep", "studio.copy")
def a_friend_keeps_and_copies_my_pack(friend: Page, pack: Pack) -> None:
    friend.goto(pack.edit)
    with friend.expect_navigation():
        friend.get_by_role("button", name="Keep on my list").click()
    assert friend.get_by_role("button", name="Keep on my list").count() == 0
    friend.goto(pack.share)
    with friend.expect_navigation():
        friend.get_by_role("button", name="Copy to my packs").click()
    opened(friend, "#pack-check")
    assert friend.locator("h1").inner_text().startswith(f"{MY_PACK} (copy)")


@reaches("studio.import_pack", "studio.delete", "studio.forget")
def import_delete_and_forget_packs(me: Page, base: str) -> None:
    me.goto(base + "/studio")
    me.locator("#import-system").select_option("actionhammer")
    me.set_input_files("#import-file", {"name": "walk-regiment.yaml",
                                        "mimeType": "application/yaml",
                                        "buffer": PACK.encode()})
    me.get_by_role("button", name="Import", exact=True).click()
    opened(me, "#pack-check")
    assert me.locator("h1").inner_text().startswith("Walk regiment")
    me.goto(base + "/studio")
    me.get_by_role("link", name="Delete Walk regiment").click()
    opened(me, "text=Delete Walk regiment?")
    me.get_by_role("button", name="Delete Walk regiment").click()
    opened(me, "text=Walk regiment was deleted, with every version of it.")
    with me.expect_navigation():
        me.get_by_role("button", name=f"Forget {MY_PACK} in this browser").click()
    assert me.locator(".pack-list").count() == 0  # none of mine left in this browser


# -- the walk -------------------------------------------------------------------------------------

# -- an event I run ----------------------------------------------------------------------------

@reaches("events.new", "events.settings", "events.hand_in", "events.pair", "events.play",
         "events.result")
def run_an_event(me: Page, base: str, roster: str) -> None:
    """Make an event and rename it, hand two of my rosters in by their edit links (mine and one
    opened from a file), pair round 1, play the table from a player's page and enter its result
    by hand."""
    rosters = [roster, open_file(me, base, EXAMPLES / "op40k" / "legal.yaml")]
    me.goto(base + "/events/new")
    me.get_by_label("Event name").fill("Walk night")
    me.get_by_label("Game").select_option("op40k")
    me.get_by_label("Number of rounds", exact=True).fill("2")
    me.get_by_label("Lists close at (UTC)").fill("2030-01-01T12:00")
    with me.expect_navigation():
        me.get_by_role("button", name="Make the event").click()
    organiser = address(me)
    assert "/e/" in organiser and me.locator("#event-made").count() == 1
    public = me.locator("#public-link").input_value()
    me.locator("#settings > summary").click()
    me.locator("#settings").get_by_label("Event name").fill("Walk night, renamed")
    with me.expect_navigation():
        me.get_by_role("button", name="Save these").click()
    assert me.locator("main h1").inner_text() == "Walk night, renamed"
    players = []
    for number, roster in enumerate(rosters, start=1):
        me.goto(public)
        me.get_by_label("Your name").fill(f"Player {number}")
        me.get_by_label("Your roster's edit link").fill(roster)
        with me.expect_navigation():
            me.get_by_role("button", name="Hand in this list").click()
        assert "/p/" in me.url, me.locator("main").inner_text()[:600]
        assert me.locator("#handed-in").count() == 1
        players.append(address(me))
    me.goto(organiser)
    with me.expect_navigation():
        me.get_by_role("button", name="Pair round 1").click()
    assert me.locator("#round-1 tbody tr").count() == 1
    me.goto(players[0])
    with me.expect_navigation():
        me.get_by_role("button", name="Play this table on the tracker").click()
    opened(me, "#board")
    me.goto(organiser)
    table = me.locator(".result-form").first
    table.locator("input[name=winner][value='1']").check()
    table.locator("input[name=score1]").fill("12")
    table.locator("input[name=score2]").fill("7")
    with me.expect_navigation():
        table.get_by_role("button", name="Save result").click()
    assert "won 12–7" in me.locator("#round-1 td.result").first.inner_text()
    assert "entered by hand" in me.locator("#changes").inner_text()


def test_every_post_rule_is_reached_from_its_page_over_https(
        tls_context: Any, https: str, https_folder: Path, tmp_path: Path) -> None:
    rules, every = post_rules(tmp_path)
    walk = Walk(https, rules)
    me = walk.watch(tls_context.new_page())
    # a friend's browser, and my phone: contexts of their own (cookies, storage)
    others = [tls_context.browser.new_context(viewport={"width": 1280, "height": 900},
                                              ignore_https_errors=True) for _ in range(2)]
    try:
        for other in others:
            other.set_default_timeout(20_000)
        friend, phone = (walk.watch(other.new_page()) for other in others)

        roster, share = walk.run(start_a_roster, me, https)
        walk.run(edit_its_entries, me)
        walk.run(undo_and_redo, me)
        walk.run(change_its_settings, me)
        walk.run(replace_it_from_a_file, me, tmp_path)
        walk.run(keep_todays_costs, me, roster, https_folder)
        walk.run(attach_a_leader, me, https)
        walk.run(make_choices_and_a_new_draw, me, https)
        walk.run(design_units, me, https)
        walk.run(look_after_my_list, me, https)
        theirs = walk.run(a_friend_copies_and_keeps_my_roster, friend, roster, share)
        walk.run(play_a_match, me, roster, theirs)

        pack = walk.run(start_a_pack, me, https)
        walk.run(check_and_save_the_pack, me)
        walk.run(edit_the_pack_in_its_form, me)
        pack_roster = walk.run(start_a_roster_with_the_pack, me, pack)
        walk.run(use_the_packs_new_version, me, pack, pack_roster)
        walk.run(take_the_pack_off_and_on_again, me, pack)
        walk.run(a_friend_keeps_and_copies_my_pack, friend, pack)
        walk.run(import_delete_and_forget_packs, me, https)
        walk.run(run_an_event, me, https, roster)

        walk.run(show_my_list_on_my_phone, me, phone, https)
    finally:
        for other in others:
            other.close()

    print("\n".join(f"{step}: {', '.join(endpoints)}"
                    for step, endpoints in walk.reached().items()))
    assert walk.strays == []
    assert walk.refused == []
    assert walk.errors == []
    got = {endpoint for _, endpoint in walk.posted}
    assert every - got == set(), f"POST rules no step reached: {sorted(every - got)}"
    assert got == every
    assert set().union(*REACHES.values()) == every  # and each is a step's own
