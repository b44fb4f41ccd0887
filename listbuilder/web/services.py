"""The app's shared objects, looked up from the current app (no module-level globals)."""

from __future__ import annotations

from typing import cast

from flask import abort, current_app, request, session

from listbuilder.engine.library import Library
from listbuilder.storage import RosterStore, Stored

MINE = "mine"  # session key: the edit tokens of the rosters this browser made or opened


def library() -> Library:
    return cast(Library, current_app.extensions["listbuilder.library"])


def store() -> RosterStore:
    return cast(RosterStore, current_app.extensions["listbuilder.store"])


def by_edit_token(token: str) -> Stored:
    found = store().by_edit_token(token)
    if found is None:
        abort(404, "No roster has this edit link. Check that the whole link was copied.")
    return found


def by_share_token(token: str) -> Stored:
    found = store().by_share_token(token)
    if found is None:
        abort(404, "No roster has this share link. Check that the whole link was copied.")
    return found


def remember(token: str) -> None:
    """Put the roster first in this browser's list (kept in the signed session cookie)."""
    mine = [t for t in session.get(MINE, []) if isinstance(t, str) and t != token]
    session[MINE] = [token, *mine][: current_app.config["REMEMBERED_ROSTERS"]]
    session.permanent = True


def forget(token: str) -> None:
    session[MINE] = [t for t in session.get(MINE, []) if t != token]


def remembered() -> list[str]:
    return [t for t in session.get(MINE, []) if isinstance(t, str)]


def is_htmx() -> bool:
    return request.headers.get("HX-Request") == "true"
