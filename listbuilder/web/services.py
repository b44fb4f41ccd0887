"""The app's shared objects, looked up from the current app (no module-level globals)."""

from __future__ import annotations

from typing import cast

from flask import Response, abort, current_app, g, render_template, request

from listbuilder.engine.history import HistoryStep
from listbuilder.engine.library import Library
from listbuilder.store.packs import PackStore
from listbuilder.store.rosters import RosterStore, Stored
from listbuilder.web.rosters import Opened, StoredRosterError, open_stored


def library() -> Library:
    return cast(Library, current_app.extensions["listbuilder.library"])


def store() -> RosterStore:
    return cast(RosterStore, current_app.extensions["listbuilder.store"])


def packs() -> PackStore:
    return cast(PackStore, current_app.extensions["listbuilder.packs"])


def by_edit_token(token: str) -> Stored:
    found = store().by_edit_token(token)
    if found is None:
        abort(404, "No roster has this edit link. Check that the whole link was copied.")
    return found


def open_roster(stored: Stored) -> Opened:
    """The stored roster read with its game and catalog. One the reader no longer accepts
    (the format or a pack changed under it) gets the page saying so, with its file to save."""
    try:
        return open_stored(library(), stored)
    except StoredRosterError:
        abort(Response(render_template("unreadable.html", stored=stored), 422))


def roster_by_edit_token(token: str) -> Opened:
    return open_roster(by_edit_token(token))


def roster_by_share_token(token: str) -> Opened:
    return open_roster(by_share_token(token))


def history(stored: Stored) -> list[HistoryStep]:
    """The roster's history (`RosterStore.history`), read once a request: an answer to a
    change shows the page before the change and after it, and the history read after the
    save serves both. Read again when the roster is newer than the history held."""
    held: dict[int, list[HistoryStep]] = g.setdefault("roster_history", {})
    steps = held.get(stored.id)
    if not steps or steps[-1].version < stored.version:
        steps = held[stored.id] = store().history(stored.id)
    return steps


def by_share_token(token: str) -> Stored:
    found = store().by_share_token(token)
    if found is None:
        abort(404, "No roster has this share link. Check that the whole link was copied.")
    return found


def is_htmx() -> bool:
    return request.headers.get("HX-Request") == "true"
