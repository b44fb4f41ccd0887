"""Limits a public instance needs: how many rosters, packs and changes one client may create,
import, save, check and print a minute and an hour, so that a script can't fill the database
or keep every worker laying out PDFs or checking packs.

Flask-Limiter does the counting, by the client's address (`request.remote_addr`, which the
proxy settings make the player's own behind a proxy). Each kind of request has one counter a
client, shared by all its addresses: a print and a preview spend the same allowance. The
counters live in the app's own database (`listbuilder.store.ratelimit`), so every worker process and
every machine sees the same counts; or in the storage `LIMIT_STORAGE` names (Redis).

Every request that stores something is limited, and so is every pack check (a page that
checks a pack included): tests/web/site/test_limits.py walks the app's addresses and fails on a
POST in no kind below that is not named there as storing nothing. Other page views and
static files are never limited. The requests are named by endpoint and limited in
`init_app`, so the views themselves carry no decorator. A refused request gets the site's
error page, saying what was limited, how many a minute (or an hour) and when to try again,
with `Retry-After`; htmx requests get the same page, as for other errors, except a live
check, whose panel shows it.

Each kind also says the most one of its requests can add to the database (`Kind.most`):
with the hour's count, that bounds how fast one client can grow it (`growth_per_hour`,
stated in docs/hostile-input.md and measured by benchmarks/growth.py).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from flask import Flask, Response, current_app, render_template, request, session
from flask_limiter import Limiter, RateLimitExceeded
from flask_limiter.util import get_remote_address
from limits import RateLimitItem, parse_many

from listbuilder.engine.packs import MAX_PACK_BYTES
from listbuilder.store.matches import MAX_EVENT_BYTES
from listbuilder.store.ratelimit import SCHEME, DatabaseStorage
from listbuilder.store.rosters import MAX_TEXT, RosterStore

EXTENSION = "listbuilder.limiter"


@dataclass(frozen=True)
class Kind:
    """One kind of limited request: its counter, its setting and the endpoints it covers."""

    scope: str  # the counter's name in the storage; every endpoint below counts in it
    setting: str  # the config key holding the limit, e.g. "30 per minute"; empty is off
    env: str  # the environment variable that sets it (for error messages)
    title: str  # the refusal page's title
    noun: str  # what is counted, for "at most 30 {noun} a minute"
    endpoints: tuple[str, ...]
    methods: tuple[str, ...] | None = None  # only these methods count (None: all)
    # Asking again for what was answered "in line" (202) is free: see `_asks_again`.
    waits_in_line: bool = False
    # The most one request of this kind can add to the database, in bytes of text: with the
    # limit's count an hour, what one client can add in an hour (`growth_per_hour`).
    most: int = 0
    # A refused htmx request shows the notice in the part it would have redrawn (the live
    # check's panel) rather than in place of the page: the text being typed stays.
    in_place: bool = False


# A roster's file is at most MAX_TEXT (640 KB: 256 KB of roster, three 128 KB packs); a new
# roster is its row and the first row of its history (engine.history.HISTORY_KEPT), each that size.
NEW_ROSTER = 2 * MAX_TEXT
# A change adds at most one history row (or pack version, of at most MAX_PACK_BYTES) and
# grows the roster by at most a pack taken on (roster_packs.add); other changes, by a few
# hundred bytes. Past HISTORY_KEPT saves of a roster, a history row is written over.
CHANGE = MAX_TEXT + MAX_PACK_BYTES

KINDS = (
    # GET /new/<system> is the form, a page view; its POST makes the roster; so does a pack
    # page's "Start a new roster with this pack" (a roster carrying one pack). A list link is a
    # new row too (its roster links sealed: at most REMEMBERED_ROSTERS of them, a few KB).
    Kind("create", "LIMIT_CREATE", "LISTBUILDER_LIMIT_CREATE", "Too many new rosters",
         "new rosters, copies, packs or list links",
         ("home.new", "home.duplicate", "shared.copy", "studio.new", "studio.copy",
          "studio.new_roster", "roster_lists.make_link", "table.start", "events.new",
          "events.hand_in", "events.play"), ("POST",),
         most=NEW_ROSTER),
    # A file opened as a new roster is a new roster; opened onto one, the roster's row grows
    # to the file's size and its history gets the file: the same at most.
    Kind("import", "LIMIT_IMPORT", "LISTBUILDER_LIMIT_IMPORT", "Too many roster files",
         "roster or pack files opened",
         ("home.import_file", "builder.replace_from_file", "studio.import_pack"),
         most=NEW_ROSTER),
    # Every change saved: a roster's edits (each htmx change on its page), undo and redo,
    # rename, delete and restore; a pack's saves (and the form view's buttons, which redraw
    # it); a list link's roster list as it changes. GET /r/<t>/delete is the page that asks.
    Kind("save", "LIMIT_SAVE", "LISTBUILDER_LIMIT_SAVE", "Too many changes",
         "changes to rosters, packs or lists",
         ("builder.acknowledge", "builder.add", "builder.choices", "builder.design",
          "builder.design_field", "builder.design_remove", "builder.duplicate_entry",
          "builder.entry", "builder.join", "builder.move", "builder.redo", "builder.redraw",
          "builder.remove", "builder.reorder", "builder.settings", "builder.undo",
          "home.rename", "home.delete", "home.restore", "home.keep", "home.forget",
          "roster_packs.add", "roster_packs.remove", "roster_packs.update",
          "studio.save", "studio_form.post", "studio.delete", "roster_lists.join",
          "events.pair", "events.result", "events.settings"),
         ("POST",), most=CHANGE),
    # A pack check reads and builds the whole pack (about 0.2 s of a worker's CPU for one of
    # 128 KB): the live check as the player types, and the pack's pages, which show it.
    Kind("check", "LIMIT_CHECK", "LISTBUILDER_LIMIT_CHECK", "Too many pack checks",
         "pack checks (as you type, or a pack's page)",
         ("studio.check", "studio_form.check", "studio.edit", "studio.shared",
          "studio_form.edit"), in_place=True),
    # The print page (print.system_page) is a page view: only what lays out a PDF counts.
    Kind("print", "LIMIT_PRINT", "LISTBUILDER_LIMIT_PRINT", "Too many prints",
         "prints or print previews",
         ("print.roster_by_edit", "print.roster_by_share", "print.rules", "print.deck",
          "print.chits", "print.roster_preview_by_edit", "print.roster_preview_by_share",
          "print.system_preview", "studio_print.cards_by_edit", "studio_print.preview_by_edit",
          "studio_print.cards_by_share", "studio_print.preview_by_share",
          "event_prints.sealed", "event_prints.lists_zip"), waits_in_line=True),
    # A match's events and undos (a match is started under "create": its row carries two
    # rosters, at most a new roster's size). An event is one row of at most MAX_EVENT_BYTES.
    Kind("play", "LIMIT_PLAY", "LISTBUILDER_LIMIT_PLAY", "Too many taps",
         "match events or undos", ("table.event", "table.clock_tap", "table.undo"), ("POST",),
         most=MAX_EVENT_BYTES),
)
BY_SCOPE = {kind.scope: kind for kind in KINDS}
# Session key: the addresses of the prints this browser was told are in line (202). Their
# waiting page asks the same address again every second or so until the PDF comes; those
# asks are the same print, not new ones, and must not use up the player's allowance. Kept in
# the signed session cookie, so it can't be forged, and it goes to whichever worker answers.
IN_LINE = "prints_in_line"
MAX_IN_LINE = 5


def init_app(app: Flask) -> None:
    """Limit the endpoints of every kind whose setting is not empty. Call it after every
    blueprint is registered. With every limit off there is no limiter at all."""
    on = {kind: str(app.config.get(kind.setting) or "").strip() for kind in KINDS}
    on = {kind: value for kind, value in on.items() if value}
    if not on:
        return
    for kind, value in on.items():
        try:
            parse_many(value)
        except ValueError as error:
            raise ValueError(f"{kind.env}={value!r} is not a limit: write it as \"30 per "
                             f"minute\" (or leave it empty for none)") from error
    uri = app.config.get("LIMIT_STORAGE")
    options: dict[str, Any] = {}
    if not uri:  # the app's own database, through the store's engine (and its pool)
        store: RosterStore = app.extensions["listbuilder.store"]
        uri, options = f"{SCHEME}://", {"engine": store.engine}
    limiter = Limiter(
        get_remote_address, storage_uri=uri, storage_options=cast(dict[str, str | int], options),
        strategy="fixed-window",
        # A counter that can't be reached (the database or Redis down) lets the request
        # through, logged, rather than refusing players: the limit is a guard, not a gate.
        swallow_errors=True,
        # No X-RateLimit headers on every answer; a refusal sends Retry-After (below).
        headers_enabled=False)
    limiter.init_app(app)
    limited = frozenset(endpoint for kind in on for endpoint in kind.endpoints)

    @limiter.request_filter
    def unlimited() -> bool:
        # Flask-Limiter looks at every request; an edit is told at once it has no limit
        # (halves the limiter's own work on it: some 30 µs down to 15)
        return request.endpoint not in limited

    for kind, value in on.items():
        limit = limiter.shared_limit(value, scope=kind.scope,
                                     methods=list(kind.methods) if kind.methods else None,
                                     exempt_when=_asks_again if kind.waits_in_line else None)
        for endpoint in kind.endpoints:
            view = app.view_functions.get(endpoint)
            if view is None:  # a view renamed or moved: never leave it silently unlimited
                raise RuntimeError(f"{kind.env} limits the endpoint {endpoint!r}, which this "
                                   f"app does not have: update KINDS in {__name__}")
            app.view_functions[endpoint] = cast(Any, limit(view))  # typed wider than a view
    waiting = frozenset(e for kind in on if kind.waits_in_line for e in kind.endpoints)
    if waiting:
        app.after_request(lambda response: _note_in_line(response, waiting))
    app.register_error_handler(RateLimitExceeded, refused)
    # Flask-Limiter's limits hold only a weak reference to their limiter: keep it alive.
    app.extensions[EXTENSION] = limiter


def _asks_again() -> bool:
    """Whether this request asks again for a print that was answered "in line": the same
    address (the same print, which the queue keeps once) from the same browser."""
    return request.full_path in _in_line()


def _in_line() -> list[str]:
    kept = session.get(IN_LINE)
    return [p for p in kept if isinstance(p, str)] if isinstance(kept, list) else []


def _note_in_line(response: Response, endpoints: frozenset[str]) -> Response:
    """Remember a print answered "in line", so that asking again is free; forget it once it
    is answered otherwise (the PDF, or a problem), so the next ask counts as a new print."""
    if request.endpoint not in endpoints:
        return response
    before = _in_line()
    after = [p for p in before if p != request.full_path]
    if response.status_code == 202:
        after = [request.full_path, *after][:MAX_IN_LINE]
    if after != before:
        if after:
            session[IN_LINE] = after
        else:
            session.pop(IN_LINE, None)
    return response


def refused(error: RateLimitExceeded) -> tuple[str, int, dict[str, str]]:
    """The page for a refused request: what was limited, how many a minute, when to retry."""
    item: RateLimitItem = error.limit.limit
    scope = error.limit.scope
    kind = BY_SCOPE.get(scope) if isinstance(scope, str) else None
    wait = _seconds_to_wait(item)
    title = kind.title if kind else "Too many requests"
    noun = kind.noun if kind else "requests like this one"
    message = (f"Each address may make at most {item.amount} {noun} {_per(item)}, and yours "
               f"has reached that (players sharing one network count together). Nothing was "
               f"changed. Try again in {_in_words(wait)}.")
    page = render_template("site/error.html", status=429, title=title, message=message,
                           details=[])
    headers = {"Retry-After": str(wait)}
    if kind is not None and kind.in_place and request.headers.get("HX-Request") == "true":
        # htmx swaps the notice alone into the element the request targets (the check's
        # panel), instead of the part it selects, which the error page does not have: the
        # form and its text stay as typed, and the next check after the wait redraws the panel
        headers |= {"HX-Reswap": "innerHTML", "HX-Reselect": ".notice"}
    return page, 429, headers


def hour_count(value: str) -> int | None:
    """The most requests a limit setting ("30 per minute; 120 per hour") lets one client make
    in the hour from its first counted request; None if it sets no limit. Windows are fixed
    and start at a client's first hit, so an hour holds ceil(3600 / window) of each."""
    items = parse_many(value) if value.strip() else []
    counts = [item.amount * math.ceil(3600 / item.get_expiry()) for item in items]
    return min(counts) if counts else None


def growth_per_hour(config: Mapping[str, Any]) -> dict[str, int | None]:
    """For each kind that stores, the most bytes of text one client can add to the database
    in an hour under these settings: its hour's count times the most one request adds. None
    for a kind with no limit (no bound at all). Rows and indexes add their own overhead on
    top (benchmarks/growth.py measures the file)."""
    out: dict[str, int | None] = {}
    for kind in KINDS:
        if kind.most:
            count = hour_count(str(config.get(kind.setting) or ""))
            out[kind.scope] = None if count is None else count * kind.most
    return out


def _seconds_to_wait(item: RateLimitItem) -> int:
    """Whole seconds until the refused counter's window ends (at least 1); the window's whole
    length if the storage can't say."""
    limiter = cast(Limiter, current_app.extensions[EXTENSION])
    storage = limiter.storage
    clock = storage.clock if isinstance(storage, DatabaseStorage) else time.time
    try:
        breached = limiter.current_limit
        if breached is None:
            raise LookupError("no limit was recorded for this request")
        left = breached.window.reset_time - clock()
    except Exception:  # the storage failing now: an honest upper bound, never a trace
        current_app.logger.warning("could not read a rate limit's window", exc_info=True)
        left = item.get_expiry()
    return max(1, math.ceil(left))


def _per(item: RateLimitItem) -> str:
    """ "a minute", "an hour", "every 5 minutes". """
    unit = item.GRANULARITY.name
    if item.multiples == 1:
        return f"{'an' if unit == 'hour' else 'a'} {unit}"
    return f"every {item.multiples} {unit}s"


def _in_words(seconds: int) -> str:
    if seconds < 100:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    minutes = math.ceil(seconds / 60)
    if minutes < 100:
        return f"{minutes} minutes"
    return f"{math.ceil(minutes / 60)} hours"
