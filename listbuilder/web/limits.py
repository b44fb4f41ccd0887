"""Limits a public instance needs: how many rosters one client may create, import and print
a minute, so that a script can't fill the database or keep every worker laying out PDFs.

Flask-Limiter does the counting, by the client's address (`request.remote_addr`, which the
proxy settings make the player's own behind a proxy). Each kind of request has one counter a
client, shared by all its addresses: a print and a preview spend the same allowance. The
counters live in the app's own database (`listbuilder.ratelimit`), so every worker process and
every machine sees the same counts; or in the storage `LIMIT_STORAGE` names (Redis).

Only the requests below are limited: edits, page views and static files never are. They are
named by endpoint and limited in `init_app`, so the views themselves carry no decorator. A
refused request gets the site's error page, saying what was limited, how many a minute and
when to try again, with `Retry-After`; htmx requests get the same page, as for other errors.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any, cast

from flask import Flask, Response, current_app, render_template, request, session
from flask_limiter import Limiter, RateLimitExceeded
from flask_limiter.util import get_remote_address
from limits import RateLimitItem, parse_many

from listbuilder.ratelimit import SCHEME, DatabaseStorage
from listbuilder.storage import RosterStore

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


KINDS = (
    # GET /new/<system> is the form, a page view; its POST makes the roster.
    Kind("create", "LIMIT_CREATE", "LISTBUILDER_LIMIT_CREATE", "Too many new rosters",
         "new rosters, copies or packs",
         ("home.new", "home.duplicate", "shared.copy", "studio.new"), ("POST",)),
    Kind("import", "LIMIT_IMPORT", "LISTBUILDER_LIMIT_IMPORT", "Too many roster files",
         "roster or pack files opened",
         ("home.import_file", "builder.replace_from_file", "studio.import_pack")),
    # The print page (print.system_page) is a page view: only what lays out a PDF counts.
    Kind("print", "LIMIT_PRINT", "LISTBUILDER_LIMIT_PRINT", "Too many prints",
         "prints or print previews",
         ("print.roster_by_edit", "print.roster_by_share", "print.rules", "print.deck",
          "print.chits", "print.roster_preview_by_edit", "print.roster_preview_by_share",
          "print.system_preview", "studio_print.cards_by_edit", "studio_print.preview_by_edit",
          "studio_print.cards_by_share", "studio_print.preview_by_share"), waits_in_line=True),
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
    page = render_template("web/error.html", status=429, title=title, message=message,
                           details=[])
    return page, 429, {"Retry-After": str(wait)}


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
