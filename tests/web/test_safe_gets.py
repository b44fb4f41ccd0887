"""Links are keys, and opening one changes nothing (docs/hostile-input.md, "Links"): every
GET the app answers leaves the database and this browser's lists as they were, and a list
link a stranger posted takes none of the rosters of whoever opens it."""

from __future__ import annotations

import re
from typing import Any

from eventtools import hand_in, make_event, player_key
from flask import Flask
from flask.testing import FlaskClient
from webtools import Player, csrf_of

from listbuilder.store.tables import (
    EventChangeRow,
    EventGameRow,
    EventListRow,
    EventRow,
    MatchEventRow,
    MatchRow,
    PackRow,
    PackTombstoneRow,
    PackVersionRow,
    RosterHistoryRow,
    RosterListRow,
    RosterRow,
)
from listbuilder.web import collection
from listbuilder.web.prints.queue import run_jobs

# What players keep: a GET must leave every row of these as it was. The print cache, the print
from listbuilder.web.studio import views as studio

# queue and the rate limits' counters are left out on purpose: a print asked for by a GET is
# laid out once and kept for whoever asks next, which changes no one's roster, pack or list.
KEPT = (RosterRow, RosterListRow, RosterHistoryRow, PackRow, PackVersionRow, PackTombstoneRow,
        MatchRow, MatchEventRow, EventRow, EventListRow, EventGameRow, EventChangeRow)
# What a browser keeps in its session: its rosters, its list link, its packs, its undo list.
LISTS = (collection.MINE, collection.LIST, studio.PACKS, "deleted")


def database(app: Flask) -> dict[str, list[tuple[Any, ...]]]:
    engine = app.extensions["listbuilder.store"].engine
    with engine.connect() as connection:
        return {row.__tablename__: sorted(tuple(r) for r in connection.execute(
            row.__table__.select()).all()) for row in KEPT}


def lists(client: FlaskClient) -> dict[str, Any]:
    with client.session_transaction() as session:
        return {key: session.get(key) for key in LISTS}


def made_link(player: Player) -> str:
    home = player.client.get("/").get_data(as_text=True)
    player.client.post("/mine/link", data={"csrf_token": csrf_of(home)})
    home = player.client.get("/").get_data(as_text=True)
    found = re.search(r'id="list-link" class="copyable" type="text" readonly '
                      r'value="http://localhost([^"]+)"', home)
    assert found is not None
    return found[1]


def home_names(client: FlaskClient) -> list[str]:
    page = client.get("/").get_data(as_text=True)
    return sorted(re.findall(r'class="mine-name" href="[^"]+">([^<]+)</a>', page))


def test_a_strangers_list_link_takes_none_of_the_rosters_of_whoever_opens_it(
        app: Flask) -> None:
    """The attack as reported: the attacker makes a list link and gets the victim's browser to
    open it. Before, the victim's two edit links went onto the attacker's list at once, and
    every roster the victim made afterwards too."""
    attacker, victim = Player(app.test_client()), Player(app.test_client())
    attacker.start("warstuff", "Bait")
    link = made_link(attacker)
    victim.start("op40k", "Victim one", ("Orks",), 500)
    victim.start("hammerwars", "Victim two", ())
    before = database(app)
    kept = lists(victim.client)

    page = victim.client.get(link)  # a link in the club chat, or a redirect from elsewhere
    assert page.status_code == 200
    text = " ".join(page.get_data(as_text=True).split())
    assert "Nothing has changed yet" in text and "Join only a link you made yourself" in text
    assert "Also put the 2 rosters this device has now on that list" in text
    assert database(app) == before and lists(victim.client) == kept
    # a post without this page's CSRF token (another site's form) joins nothing
    victim.client.post(link + "/join", data={"bring": "yes"})
    assert database(app) == before and lists(victim.client) == kept
    victim.start("actionhammer", "Made later", ("Cobalt Brigade",), 2000)
    assert home_names(attacker.client) == ["Bait"]
    assert home_names(victim.client) == ["Made later", "Victim one", "Victim two"]


def test_joining_brings_this_devices_rosters_only_when_ticked(app: Flask) -> None:
    laptop, phone = Player(app.test_client()), Player(app.test_client())
    laptop.start("warstuff", "Laptop")
    link = made_link(laptop)
    phone.start("op40k", "Phone", ("Orks",), 500)
    page = phone.client.get(link).get_data(as_text=True)
    # the box left unticked
    joined = phone.client.post(link + "/join", data={"csrf_token": csrf_of(page)})
    assert home_names(phone.client) == home_names(laptop.client) == ["Laptop"]
    home = phone.client.get(joined.headers["Location"]).get_data(as_text=True)
    assert "This device now shows the list of this link." in home  # and no word of bringing
    # stopping: the phone keeps the list as it was, and its own roster comes back
    phone.client.post("/mine/unlink", data={"csrf_token": csrf_of(home)})
    assert home_names(phone.client) == ["Laptop", "Phone"]
    assert home_names(laptop.client) == ["Laptop"]


def test_an_edit_link_opened_is_kept_on_the_list_only_when_asked(app: Flask) -> None:
    owner, other = Player(app.test_client()), Player(app.test_client())
    token = owner.start("op40k", "Owner", ("Orks",), 500)
    page = other.client.get(f"/r/{token}").get_data(as_text=True)
    assert "Keep on my list" in page and home_names(other.client) == []
    other.client.post(f"/r/{token}/keep", data={"csrf_token": csrf_of(page)})
    assert home_names(other.client) == ["Owner"]
    assert "Keep on my list" not in other.client.get(f"/r/{token}").get_data(as_text=True)
    # the owner, whose roster is on their list, is never asked
    assert "Keep on my list" not in owner.client.get(f"/r/{token}").get_data(as_text=True)


def test_a_pack_edit_link_opened_is_kept_in_the_studio_only_when_asked(app: Flask) -> None:
    owner, other = app.test_client(), app.test_client()
    studio_page = owner.get("/studio").get_data(as_text=True)
    made = owner.post("/studio/new", data={"csrf_token": csrf_of(studio_page),
                                           "system": "actionhammer", "name": "Club pack"})
    link = made.headers["Location"]
    for url in (link, link + "/form"):
        page = other.get(url).get_data(as_text=True)
        assert "Keep on my list" in page
        assert "Club pack" not in other.get("/studio").get_data(as_text=True)
    other.post(link + "/keep", data={"csrf_token": csrf_of(page)})
    assert "Club pack" in other.get("/studio").get_data(as_text=True)
    assert "Keep on my list" not in owner.get(link).get_data(as_text=True)


def every_get(app: Flask, values: dict[str, str]) -> list[str]:
    """Each GET address of the app, its parts filled in from `values` (by the part's name, or
    by the address's kind for a token: a roster's, a pack's or a list's)."""
    urls = []
    for rule in app.url_map.iter_rules():
        if "GET" not in (rule.methods or ()) or rule.endpoint == "static":
            continue
        url = rule.rule
        for name in rule.arguments:
            key = name
            if name == "token":
                key = "pack" if url.startswith("/studio/") else \
                    "list" if url.startswith("/l/") else \
                    "match" if url.startswith("/m/") else \
                    "event" if url.startswith("/e/") else "token"
            elif name == "share" and url.startswith("/studio/"):
                key = "pack_share"
            url = re.sub(rf"<(?:\w+:)?{name}>", values[key], url)
        urls.append(url)
    return urls


def test_no_get_changes_the_database_or_the_browsers_lists(app: Flask) -> None:
    """Every GET the app has, opened by a browser that has rosters, a pack and a list link of
    its own, with the links of another player's roster, pack and list."""
    owner, visitor = Player(app.test_client()), Player(app.test_client())
    token = owner.start("op40k", "Owner", ("Orks",), 500)
    share = re.search(r"/s/([A-Za-z0-9_-]+)", owner.html)
    assert share is not None
    studio_page = owner.client.get("/studio").get_data(as_text=True)
    pack = owner.client.post("/studio/new", data={
        "csrf_token": csrf_of(studio_page), "system": "op40k", "name": "Owner pack"
    }).headers["Location"].rsplit("/", 1)[1]
    pack_page = owner.client.get(f"/studio/p/{pack}").get_data(as_text=True)
    pack_share = re.search(r"/studio/s/([A-Za-z0-9_-]+)", pack_page)
    revision = re.search(r"/revision/([^\"/]+)\.yaml", pack_page)
    assert pack_share is not None and revision is not None
    link = made_link(owner).rsplit("/", 1)[1]
    play_page = owner.client.get(f"/r/{token}/play").get_data(as_text=True)
    match = owner.client.post(f"/r/{token}/play", data={
        "csrf_token": csrf_of(play_page), "me": "Owner", "source": "solo"
    }).headers["Location"].split("?")[0].rsplit("/", 1)[1]
    owner.client.post(f"/m/{match}/event", data={
        "csrf_token": csrf_of(play_page), "base": 1, "kind": "first-turn", "side": 1})

    visitor.start("warstuff", "Visitor")
    made_link(visitor)
    # an event with two lists and a round paired, whose table nobody has started yet
    organiser, public = make_event(owner.client)
    key = player_key(hand_in(owner.client, public, token, "Owner"))
    other = Player(app.test_client())
    player_key(hand_in(owner.client, public,
                       other.start("op40k", "Other", ("Orks",), 500), "Other"))
    event_page = owner.client.get(f"/e/{organiser}").get_data(as_text=True)
    owner.client.post(f"/e/{organiser}/pair", data={
        "csrf_token": csrf_of(event_page), "base": re.findall(r'name="base" value="(\d+)"',
                                                              event_page)[0],
        "present": re.findall(r'name="present" value="(\d+)"', event_page)})
    game = re.findall(r'<tr id="table-(\d+)">', owner.client.get(f"/e/{organiser}").get_data(
        as_text=True))
    code = re.findall(r'/v/([A-Za-z0-9_-]+)', event_page)
    assert game and code
    visiting = owner.client, visitor.client
    values = {"token": token, "share": share[1], "pack": pack, "pack_share": pack_share[1],
              "list": link, "system_id": "op40k", "kind": "rules", "revision": revision[1],
              "match": match, "event": organiser, "key": key, "code": code[0]}
    urls = [*every_get(app, values), f"/e/{public}", f"/e/{public}/standings.json"]
    assert len(urls) >= 35 and f"/l/{link}" in urls and f"/r/{token}" in urls
    assert f"/m/{match}" in urls and f"/r/{token}/play" in urls
    assert f"/e/{organiser}" in urls and f"/p/{key}" in urls and f"/v/{code[0]}" in urls
    for client in visiting:
        for url in urls:
            before, kept = database(app), lists(client)
            answer = client.get(url)
            if answer.status_code == 202:  # a print in line: laid out, so the line never fills
                run_jobs(app)
            assert answer.status_code < 500, url
            assert database(app) == before, f"GET {url} changed the database"
            assert lists(client) == kept, f"GET {url} changed this browser's lists"
            if answer.mimetype == "text/html":  # and every page keeps to the site's policy
                page = answer.get_data(as_text=True)
                assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>|\sstyle=|\son\w+=", page), url
