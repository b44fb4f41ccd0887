"""The app's shared objects, looked up from the current app (no module-level globals)."""

from __future__ import annotations

from typing import cast

from flask import abort, current_app, g, request, session

from listbuilder.engine.library import Library
from listbuilder.storage import HistoryStep, RosterStore, Stored

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


def remember(token: str) -> None:
    """Put the roster first in this browser's list (kept in the signed session cookie), and
    in the list shared by a list link, when this browser follows one (roster_lists)."""
    from listbuilder.web import roster_lists

    mine = [t for t in local_remembered() if t != token]
    session[MINE] = [token, *mine][: current_app.config["REMEMBERED_ROSTERS"]]
    session.permanent = True
    if (shared := roster_lists.followed()) is not None:
        roster_lists.change(shared, lambda tokens: [token, *[t for t in tokens if t != token]])


def forget(token: str) -> None:
    from listbuilder.web import roster_lists

    session[MINE] = [t for t in local_remembered() if t != token]
    if (shared := roster_lists.followed()) is not None:
        roster_lists.change(shared, lambda tokens: [t for t in tokens if t != token])


def remembered() -> list[str]:
    """This browser's rosters: those of the list link it follows, else its own."""
    from listbuilder.web import roster_lists

    if (shared := roster_lists.followed()) is not None:
        found = roster_lists.read(shared)
        if found is not None:
            return found
    return local_remembered()


def local_remembered() -> list[str]:
    """The rosters this browser itself made or opened (its session cookie)."""
    return [t for t in session.get(MINE, []) if isinstance(t, str)]


def keep_locally(tokens: list[str]) -> None:
    session[MINE] = tokens[: current_app.config["REMEMBERED_ROSTERS"]]


NAME_MAX = 80


def distinct_name(name: str) -> str:
    """`name`, or "name (2)", "name (3)"... when a roster on this browser's list has it: an
    imported or copied roster is told apart from the one it came from."""
    taken = {stored.name for _, stored in store().by_edit_tokens(remembered())}
    if name not in taken:
        return name
    n = 2
    while (candidate := f"{name[: NAME_MAX - len(str(n)) - 3]} ({n})") in taken:
        n += 1
    return candidate


def is_htmx() -> bool:
    return request.headers.get("HX-Request") == "true"
