"""Limits per client: creations, imports, saved changes, pack checks and prints a minute and
an hour, counted in the app's own database (SQLite and PostgreSQL) so every worker and
machine sees the same counts, or in Redis. Every request that stores something is counted.

Time is the storage's clock, which the tests move by hand: a window ends without waiting."""

from __future__ import annotations

import ast
import dataclasses
import io
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from at_once import at_once
from flask import Blueprint, Flask
from flask.testing import EnvironBuilder, FlaskClient
from limittools import assert_refused, client_at, create, rosters
from sqlalchemy import func, select, text
from webtools import Player, csrf_of, version_of

from listbuilder.settings import Config, TestConfig
from listbuilder.store import ratelimit
from listbuilder.store.database import make_engine
from listbuilder.store.ratelimit import RATE_LIMITS, SWEEP_EVERY, DatabaseStorage
from listbuilder.store.rosters import RosterStore
from listbuilder.web.site import limits
from listbuilder.web.site.limits import EXTENSION, KINDS

ROOT = Path(__file__).resolve().parents[3]
LEGAL = (ROOT / "examples" / "op40k" / "legal.yaml").read_bytes()
# print endpoints that lay out nothing: the print page itself is a page view
PRINT_PAGE_VIEWS = {"print.system_page"}
# POSTs that store nothing, so no limit counts them; each says why. A POST added later that
# is in no kind and not here fails test_every_post_that_stores_is_limited.
STORES_NOTHING = {
    "roster_lists.unlink": "stops following a list link: this browser's cookie only",
    "studio.keep": "puts a pack on this browser's list: its cookie only",
    "studio.forget": "takes a pack off this browser's list: its cookie only",
}
# the production defaults
ALL_LIMITS = {"LIMIT_CREATE": "30 per minute; 120 per hour",
              "LIMIT_IMPORT": "30 per minute; 120 per hour",
              "LIMIT_SAVE": "120 per minute; 1200 per hour",
              "LIMIT_CHECK": "120 per minute; 2400 per hour",
              "LIMIT_PRINT": "60 per minute",
              "LIMIT_PLAY": "240 per minute; 3000 per hour"}
HTMX = {"HX-Request": "true"}


class Clock:
    """The storage's clock, moved by the test."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now










def upload(client: FlaskClient, url: str, fields: dict[str, object]) -> Any:
    body = {**fields, "file": (io.BytesIO(LEGAL), "legal.yaml")}
    # built by hand so its spooled body is closed even when a refusal never reads it
    builder = EnvironBuilder(client.application, path=url, method="POST", data=body)
    try:
        return client.open(builder)
    finally:
        builder.close()






# -- what is limited, and for whom ---------------------------------------------------------------

def test_creations_past_the_limit_are_refused_for_that_client_only(
        make_app: Callable[..., Flask]) -> None:
    app = make_app(LIMIT_CREATE="2 per minute")
    club, other = client_at(app, "192.0.2.1"), client_at(app, "198.51.100.7")
    assert create(club, "One").status_code == 302
    assert create(club, "Two").status_code == 302
    refused = create(club, "Three")
    assert_refused(refused, "Too many new rosters", 2)
    assert "new rosters, copies, packs or list links" in refused.get_data(as_text=True)
    assert rosters(app) == 2  # the refused one was not made
    assert club.get("/new/op40k").status_code == 200  # the form is a page view
    assert club.get("/").status_code == 200
    # another address has its own count
    assert create(other, "Elsewhere").status_code == 302
    assert rosters(app) == 3


def test_copies_count_as_creations(make_app: Callable[..., Flask]) -> None:
    app = make_app(LIMIT_CREATE="2 per minute")
    player = Player(client_at(app))
    token = player.start("op40k", "Original", ("Orks",), 500)
    share = app.extensions["listbuilder.store"].by_edit_token(token).share_token
    page = player.client.get("/").get_data(as_text=True)
    assert player.client.post(f"/r/{token}/duplicate",
                              data={"csrf_token": csrf_of(page)}).status_code == 302
    assert_refused(player.client.post(f"/s/{share}/copy", data={"csrf_token": csrf_of(page)}),
                   "Too many new rosters", 2)
    assert rosters(app) == 2


def packs(app: Flask) -> int:
    store: RosterStore = app.extensions["listbuilder.store"]
    with store.engine.connect() as connection:
        return int(connection.execute(text("SELECT count(*) FROM packs")).scalar_one())


def new_pack(client: FlaskClient, system: str = "op40k") -> str:
    """A new pack's edit link."""
    page = client.get("/studio").get_data(as_text=True)
    made = client.post("/studio/new", data={"csrf_token": csrf_of(page), "system": system,
                                            "name": "Club Pack"})
    assert made.status_code == 302
    return str(made.headers["Location"])


def test_pack_copies_are_refused_once_new_rosters_are(make_app: Callable[..., Flask]) -> None:
    """Issue 37, 3: `POST /studio/s/<share>/copy` had no limit: 60 of 60 copies accepted after
    `/new` was already refused (200 copies of a 120 KB pack added 48 MB in 5 s). With the
    production limits."""
    app = make_app(LIMIT_CREATE=Config.LIMIT_CREATE)
    owner, attacker = client_at(app, "198.51.100.7"), client_at(app)
    link = new_pack(owner)
    share = app.extensions["listbuilder.packs"].by_edit_token(link.rsplit("/", 1)[1]).share_token
    made = 0
    while create(attacker, f"Fill {made}").status_code == 302:
        made += 1
    assert made == 30
    shared = attacker.get(f"/studio/s/{share}").get_data(as_text=True)
    copies = [attacker.post(f"/studio/s/{share}/copy", data={"csrf_token": csrf_of(shared)})
              for _ in range(60)]
    assert_refused(copies[0], "Too many new rosters", 30)
    assert [c.status_code for c in copies] == [429] * 60
    assert "new rosters, copies, packs or list links" in copies[-1].get_data(as_text=True)
    assert packs(app) == 1
    # the pack's owner, at another address, has an allowance of its own
    mine = owner.get(f"/studio/s/{share}").get_data(as_text=True)
    assert owner.post(f"/studio/s/{share}/copy", data={"csrf_token": csrf_of(mine)}
                      ).status_code == 302
    assert packs(app) == 2


def test_every_post_that_stores_is_limited(make_app: Callable[..., Flask]) -> None:
    """Every POST of the app is counted by a kind of limits.KINDS, or named in STORES_NOTHING
    with the reason it stores nothing: one added later can't be left out by accident. (The
    app is made with every limit on: a kind naming an endpoint the app lacks stops it.)"""
    app = make_app(**ALL_LIMITS)
    posts = {rule.endpoint for rule in app.url_map.iter_rules() if "POST" in (rule.methods or ())}
    counted = {endpoint for kind in KINDS if kind.methods is None or "POST" in kind.methods
               for endpoint in kind.endpoints}
    left_out = posts - counted - set(STORES_NOTHING)
    assert not left_out, f"count these in limits.KINDS, or name them in STORES_NOTHING: {left_out}"
    assert set(STORES_NOTHING) <= posts and not set(STORES_NOTHING) & counted
    # the ones the review found uncounted, and the list link's join (it stores the list)
    assert {"studio.copy", "studio.check", "studio.save", "builder.add", "roster_lists.join",
            "roster_lists.make_link"} <= counted


def test_changes_are_limited_a_minute_and_an_hour(make_app: Callable[..., Flask]) -> None:
    """A roster's edits, a pack's saves and the rest share one count; a refused change is not
    made, and the roster still opens."""
    app = make_app(LIMIT_SAVE="3 per minute; 5 per hour")
    clock = Clock()
    app.extensions[EXTENSION].storage.clock = clock
    player = Player(client_at(app))
    player.start("op40k", "Busy", ("Orks",), 2000)  # a creation, not a change
    assert player.post("add", htmx=True, unit="Ork Boyz").status_code == 200
    assert player.post("add", htmx=True, unit="Ork Boyz").status_code == 200
    link = new_pack(player.client)
    page = player.client.get(link).get_data(as_text=True)
    pack = {"csrf_token": csrf_of(page), "name": "Club Pack", "pack_version": 1,
            "text": "factions: []\nunits: []\n"}
    assert player.client.post(link, data=pack).status_code == 302  # the third change
    refused = player.post("add", htmx=True, unit="Nobz")
    assert_refused(refused, "Too many changes", 3)
    assert "changes to rosters, packs or lists" in refused.get_data(as_text=True)
    assert_refused(player.client.post(link, data={**pack, "pack_version": 2}),
                   "Too many changes", 3)
    assert player.saved_text().count("unit: Ork Boyz") == 2 and "Nobz" not in player.saved_text()
    clock.now += 60  # a new minute: two more this hour
    player.get(f"/r/{player.token}")
    assert player.post("settings", name="Busier", points_limit=1500).status_code in (200, 302)
    assert player.post("undo").status_code in (200, 302)
    refused = player.post("redo")
    said = refused.get_data(as_text=True)
    assert refused.status_code == 429 and "at most 5 changes to rosters, packs or lists an " \
        "hour" in said
    assert "Nothing was changed. Try again in 59 minutes." in said
    assert int(refused.headers["Retry-After"]) > 3500
    assert player.client.get(f"/r/{player.token}").status_code == 200  # it still opens


def test_pack_checks_are_limited_and_a_refused_one_fills_the_check_panel(
        make_app: Callable[..., Flask]) -> None:
    """A check reads and builds the whole pack: as the player types, and on the pack's pages.
    The live check refused says so in its panel (htmx told to swap the notice alone into the
    panel), so the form and the text typed stay as they are."""
    app = make_app(LIMIT_CHECK="3 per minute")
    client = client_at(app)
    link = new_pack(client)
    page = client.get(link).get_data(as_text=True)  # the pack's page checks it: one
    share = app.extensions["listbuilder.packs"].by_edit_token(link.rsplit("/", 1)[1]).share_token
    assert client.get(f"/studio/s/{share}").status_code == 200  # two
    typed = {"csrf_token": csrf_of(page), "name": "Club Pack", "pack_version": 1,
             "text": "factions: []\nunits: []\n"}
    assert client.post(f"{link}/check", data=typed, headers=HTMX).status_code == 200  # three
    refused = client.post(f"{link}/check", data=typed, headers=HTMX)
    assert_refused(refused, "Too many pack checks", 3)
    assert (refused.headers["HX-Reswap"], refused.headers["HX-Reselect"]) == ("innerHTML",
                                                                             ".notice")
    assert '<div class="notice error" role="alert">' in refused.get_data(as_text=True)
    assert_refused(client.get(link), "Too many pack checks", 3)
    assert "HX-Reswap" not in client.get(link).headers  # a page is answered as a page
    assert_refused(client.post(f"{link}/form/check", data=typed, headers=HTMX),
                   "Too many pack checks", 3)
    assert client.get("/studio").status_code == 200  # the list of packs checks none
    assert client.post(link, data=typed).status_code == 302  # a save is no check


def test_the_growth_stated_is_what_the_limits_allow() -> None:
    """docs/hostile-input.md states how fast one address can grow the database with the
    production limits: each kind's count in an hour times the most one request stores."""
    assert limits.hour_count("30 per minute; 120 per hour") == 120
    assert limits.hour_count("60 per minute") == 3600
    assert limits.hour_count("10/minute;200/day") == 200 and limits.hour_count("") is None
    grown = limits.growth_per_hour(vars(Config))
    kb = 1024
    assert grown == {"create": 120 * 1280 * kb, "import": 120 * 1280 * kb,
                     "save": 1200 * 768 * kb, "play": 3000 * 2 * kb}
    stated = (ROOT / "docs" / "hostile-input.md").read_text(encoding="utf-8")
    assert f"{sum(v for v in grown.values() if v) // kb // kb:,} MB an hour" in stated
    assert limits.growth_per_hour({**vars(Config), "LIMIT_SAVE": ""})["save"] is None


def test_page_views_and_static_files_are_never_limited_nor_edits_but_by_theirs(
        make_app: Callable[..., Flask]) -> None:
    """Edits count in the saves' limit only (test_changes_are_limited_a_minute_and_an_hour):
    creations, imports and prints spent take nothing from them."""
    app = make_app(LIMIT_CREATE="1/minute", LIMIT_IMPORT="1/minute", LIMIT_PRINT="1/minute")
    player = Player(client_at(app))
    player.start("op40k", "Busy", ("Orks",), 2000)
    assert create(player.client).status_code == 429  # the limits are on
    for _ in range(6):
        assert player.post("add", unit="Ork Boyz").status_code in (200, 302)
        assert player.post("add", htmx=True, unit="Nobz").status_code == 200
    assert player.post("settings", name="Busier", points_limit=1500).status_code in (200, 302)
    for url in (f"/r/{player.token}", f"/r/{player.token}/export.yaml",
                f"/r/{player.token}/roster.txt", "/", "/systems/op40k/print",
                "/static/css/site.css"):
        for _ in range(3):
            response = player.client.get(url)
            assert response.status_code == 200, url
            response.close()
    assert "unit: Ork Boyz" in player.saved_text()


def test_imports_from_home_and_into_a_roster_share_one_limit(
        make_app: Callable[..., Flask]) -> None:
    app = make_app(LIMIT_IMPORT="2 per minute")
    player = Player(client_at(app))
    page = player.client.get("/").get_data(as_text=True)
    opened = upload(player.client, "/import", {"csrf_token": csrf_of(page)})
    assert opened.status_code == 302
    player.token = opened.headers["Location"].rsplit("/", 1)[1]
    player.get(f"/r/{player.token}")
    fields = {"csrf_token": csrf_of(player.html), "version": version_of(player.html)}
    assert upload(player.client, f"/r/{player.token}/import", fields).status_code != 429
    refused = upload(player.client, "/import", {"csrf_token": csrf_of(page)})
    assert_refused(refused, "Too many roster files", 2)
    player.get(f"/r/{player.token}")
    fields = {"csrf_token": csrf_of(player.html), "version": version_of(player.html)}
    assert_refused(upload(player.client, f"/r/{player.token}/import", fields),
                   "Too many roster files", 2)
    assert rosters(app) == 1


def test_htmx_requests_get_the_same_page(make_app: Callable[..., Flask]) -> None:
    """As for other errors: htmx swaps the page's #main in (base.html's responseHandling)."""
    app = make_app(LIMIT_CREATE="1 per minute")
    client = client_at(app)
    assert create(client, htmx=True).status_code == 302
    assert_refused(create(client, htmx=True), "Too many new rosters", 1)


def test_prints_and_previews_share_one_limit(make_app: Callable[..., Flask]) -> None:
    """Prints asked with options the printer refuses lay nothing out, yet count: the limit is
    checked before the view runs."""
    app = make_app(LIMIT_PRINT="3 per minute")
    player = Player(client_at(app))
    token = player.start("op40k", "Printable", ("Orks",), 500)
    stored = app.extensions["listbuilder.store"].by_edit_token(token)
    asked = [f"/r/{token}/print?paper=none", f"/s/{stored.share_token}/print/preview.png"
             "?paper=none", "/systems/op40k/print/rules?paper=none"]
    for url in asked:
        assert player.client.get(url).status_code != 429, url
    for url in (f"/r/{token}/print/preview.png", f"/s/{stored.share_token}/print",
                "/systems/op40k/print/deck", "/systems/op40k/print/chits",
                "/systems/op40k/print/rules/preview.png"):
        assert_refused(player.client.get(url + "?paper=none"), "Too many prints", 3)
    assert "prints or print previews" in player.client.get(
        "/systems/op40k/print/deck").get_data(as_text=True)
    assert player.client.get("/systems/op40k/print").status_code == 200  # the page itself


def test_asking_again_for_a_print_in_line_is_free(make_app: Callable[..., Flask],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A print put in line is answered 202 by a page that asks the same address again every
    second until the PDF comes: those asks are the same print, not new ones. Stood in for by
    a print endpoint of the test's own, in line for its first three asks."""
    asks: dict[str, int] = {}
    queue = Blueprint("queued", __name__)

    @queue.get("/queued/<name>/print")
    def queued(name: str) -> tuple[str, int]:
        asks[name] = asks.get(name, 0) + 1
        return ("in line", 202) if asks[name] <= 3 else ("%PDF-1.7", 200)

    prints = next(k for k in KINDS if k.scope == "print")
    monkeypatch.setattr(limits, "KINDS", tuple(
        dataclasses.replace(k, endpoints=(*k.endpoints, "queued.queued")) if k is prints
        else k for k in KINDS))
    real_init = limits.init_app

    def init_with_queue(app: Flask) -> None:
        app.register_blueprint(queue)
        real_init(app)

    monkeypatch.setattr(limits, "init_app", init_with_queue)
    app = make_app(LIMIT_PRINT="2 per minute")
    browser = client_at(app)
    assert [browser.get("/queued/a/print").status_code for _ in range(4)] == [202, 202, 202,
                                                                              200]
    assert browser.get("/queued/a/print").status_code == 200  # delivered: a new ask counts
    assert_refused(browser.get("/queued/b/print"), "Too many prints", 2)
    # another browser at the same address has not been told "in line": its ask counts
    asks["c"] = 0
    assert_refused(client_at(app).get("/queued/a/print"), "Too many prints", 2)


def test_every_print_endpoint_is_limited_or_a_page_view(make_app: Callable[..., Flask]) -> None:
    """A print endpoint added later must be named in limits.KINDS (or here, as a page view
    that lays nothing out), never left out by accident."""
    app = make_app()
    limited = {e for kind in KINDS for e in kind.endpoints}
    prints = {rule.endpoint for rule in app.url_map.iter_rules()
              if rule.endpoint.startswith("print.")}
    assert prints - PRINT_PAGE_VIEWS == {e for e in limited if e.startswith("print.")}


# -- every worker and machine counts together ----------------------------------------------------

def test_two_app_servers_on_one_database_share_the_counts(
        make_app: Callable[..., Flask]) -> None:
    first, second = (make_app(LIMIT_CREATE="3 per minute") for _ in range(2))
    assert first.extensions["listbuilder.store"] is not second.extensions["listbuilder.store"]
    one, two = client_at(first), client_at(second)
    assert create(one).status_code == 302
    assert create(two).status_code == 302
    assert create(one).status_code == 302
    assert_refused(create(two), "Too many new rosters", 3)  # the second saw the first's
    assert_refused(create(one), "Too many new rosters", 3)


def test_the_window_ends_and_retry_after_says_when(make_app: Callable[..., Flask]) -> None:
    app = make_app(LIMIT_CREATE="1 per minute")
    clock = Clock()
    app.extensions[EXTENSION].storage.clock = clock
    client = client_at(app)
    assert create(client).status_code == 302
    clock.now += 20
    refused = create(client)
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "40"
    assert "Try again in 40 seconds." in refused.get_data(as_text=True)
    clock.now += 39.5
    refused = create(client)
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "1"
    assert "Try again in 1 second." in refused.get_data(as_text=True)
    clock.now += 0.5  # the minute since the first creation is over
    assert create(client).status_code == 302
    assert create(client).status_code == 429


def test_limits_are_read_from_the_environment(tmp_path: Path) -> None:
    """Defaults a club never reaches; an empty value turns a limit off."""
    shown = "from listbuilder.settings import Config as C; " \
        "print(repr((C.LIMIT_CREATE, C.LIMIT_IMPORT, C.LIMIT_SAVE, C.LIMIT_CHECK, " \
        "C.LIMIT_PRINT, C.LIMIT_PLAY, C.LIMIT_STORAGE)))"
    base = {k: v for k, v in os.environ.items()
            if not k.startswith("LISTBUILDER_LIMIT_") and k != "LISTBUILDER_RATELIMIT_STORAGE"}

    def settings(**env: str) -> object:
        done = subprocess.run([sys.executable, "-c", shown], env={**base, **env},
                              capture_output=True, text=True, check=True)
        return ast.literal_eval(done.stdout)

    assert settings() == (*ALL_LIMITS.values(), None)
    assert settings(LISTBUILDER_LIMIT_CREATE="", LISTBUILDER_LIMIT_PRINT="5/minute",
                    LISTBUILDER_LIMIT_SAVE="10/minute", LISTBUILDER_LIMIT_CHECK="",
                    LISTBUILDER_RATELIMIT_STORAGE="redis://cache:6379/0") == (
        "", "30 per minute; 120 per hour", "10/minute", "", "5/minute",
        "240 per minute; 3000 per hour", "redis://cache:6379/0")
    assert {kind.setting: getattr(TestConfig, kind.setting) for kind in KINDS} == \
        dict.fromkeys(ALL_LIMITS, "")


def test_off_by_default_in_tests_and_a_bad_setting_stops_the_start(app: Flask) -> None:
    assert EXTENSION not in app.extensions  # every limit off: no limiter at all
    bare = Flask(__name__)  # the settings are read before anything else is touched
    bare.config.update(LIMIT_CREATE="30 per minute", LIMIT_PRINT="lots")
    with pytest.raises(ValueError, match=r"LISTBUILDER_LIMIT_PRINT='lots' is not a limit"):
        limits.init_app(bare)


def test_a_per_hour_limit_says_so(make_app: Callable[..., Flask]) -> None:
    app = make_app(LIMIT_CREATE="1 per hour")
    client = client_at(app)
    assert create(client).status_code == 302
    refused = create(client)
    page = refused.get_data(as_text=True)
    assert refused.status_code == 429
    assert "at most 1 new rosters, copies, packs or list links an hour" in page
    assert "Try again in 60 minutes." in page and int(refused.headers["Retry-After"]) > 3500


# -- the storage itself --------------------------------------------------------------------------

@pytest.fixture
def engine(counters: str) -> Iterator[Any]:
    engine = make_engine(counters)
    yield engine
    engine.dispose()


def test_the_storage_counts_in_fixed_windows(engine: Any) -> None:
    clock = Clock()
    storage = DatabaseStorage(engine=engine, clock=clock)
    assert storage.check()
    assert (storage.get("k"), storage.get_expiry("k")) == (0, clock.now)
    assert [storage.incr("k", 10) for _ in range(3)] == [1, 2, 3]
    assert storage.incr("k", 10, amount=2) == 5
    start = clock.now
    clock.now += 9
    assert storage.get("k") == 5 and storage.get_expiry("k") == pytest.approx(start + 10)
    clock.now += 1  # the window is over: nothing counted, and the next hit starts anew
    assert storage.get("k") == 0
    assert storage.incr("k", 10) == 1 and storage.get_expiry("k") == pytest.approx(clock.now + 10)
    assert storage.incr("other", 10) == 1
    storage.clear("k")
    assert storage.get("k") == 0 and storage.get("other") == 1
    assert storage.reset() == 1 and storage.get("other") == 0


def test_a_long_key_is_kept_by_its_hash(engine: Any) -> None:
    storage = DatabaseStorage(engine=engine)
    key = "LIMITER/" + "x" * 1000 + "/create/30/1/minute"
    assert [storage.incr(key, 60) for _ in range(2)] == [1, 2] and storage.get(key) == 2
    assert storage.get(key[:-1]) == 0
    assert len(ratelimit.stored_key(key)) <= ratelimit.MAX_KEY


def test_hits_from_many_processes_at_once_are_never_lost(counters: str) -> None:
    """Three engines (three worker processes) and 24 threads hit one key 10 times each: each
    hit gets its own count, 1 to 240, none lost or counted twice."""
    engines = [make_engine(counters) for _ in range(3)]
    storages = [DatabaseStorage(engine=e) for e in engines]
    seen: list[int] = []

    def client(n: int) -> None:
        seen.extend(storages[n % 3].incr("LIMITER/192.0.2.1/create/300/1/minute", 60)
                    for _ in range(10))

    try:
        assert at_once(client, 24) == []
        assert sorted(seen) == list(range(1, 241))
    finally:
        for e in engines:
            e.dispose()


def test_expired_counters_are_swept_now_and_then(engine: Any) -> None:
    clock = Clock()
    storage = DatabaseStorage(engine=engine, clock=clock)

    def rows() -> int:
        with engine.connect() as connection:
            return int(connection.execute(select(func.count()).select_from(RATE_LIMITS))
                       .scalar_one())

    storage.incr("short", 5)
    storage.incr("long", 3600)
    clock.now += 10
    storage.incr("new", 3600)
    assert rows() == 3  # "short" is over but kept until the next sweep
    clock.now += SWEEP_EVERY
    storage.incr("new", 3600)
    assert rows() == 2 and storage.get("long") == 1 and storage.get("new") == 2


# -- Redis, where it is installed ----------------------------------------------------------------

@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    """A throwaway redis-server on a free loopback port, nothing saved to disk."""
    pytest.importorskip("redis")
    server = shutil.which("redis-server")
    if server is None:
        pytest.skip("redis-server is not installed (Debian: apt-get install redis-server)")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    proc = subprocess.Popen([server, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no", "--dir", str(tmp_path)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), 0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    pytest.fail("redis-server did not start")
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_counts_in_redis_when_configured(make_app: Callable[..., Flask], redis_url: str) -> None:
    first, second = (make_app(LIMIT_CREATE="2 per minute", LIMIT_STORAGE=redis_url)
                     for _ in range(2))
    assert not isinstance(first.extensions[EXTENSION].storage, DatabaseStorage)
    assert create(client_at(first)).status_code == 302
    assert create(client_at(second)).status_code == 302
    assert_refused(create(client_at(first)), "Too many new rosters", 2)
    assert create(client_at(second, "198.51.100.7")).status_code == 302
    with first.extensions["listbuilder.store"].engine.connect() as connection:
        assert connection.execute(select(func.count()).select_from(RATE_LIMITS)).scalar_one() \
            == 0  # nothing counted in the database
