"""The links of an event beyond the organiser's and the public one, and the links pasted into
its forms.

A player's own link (`/p/<key>`) is their list's verify code with a mark made from it and the
app's secret (HMAC): the code is printed on every sheet, the mark only the player was given,
and nothing new is stored. A table's match links are made the same way from the table, so
both players reach the one match whichever of them taps Play first: side 1's from the table,
side 2's from side 1's as every match's is (table.matches.second_token).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re

from flask import current_app

from listbuilder.store.events import StoredEvent, StoredGame

_EDIT = re.compile(r"/r/([A-Za-z0-9_-]{1,100})(?:[/?#]|$)")
_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,100}")
_KEY = re.compile(r"([A-Za-z0-9_-]{1,16})\.([A-Za-z0-9_-]{22})")


def _mark(purpose: str, text: str, length: int = 43) -> str:
    key = str(current_app.config["SECRET_KEY"]).encode("utf-8")
    digest = hmac.new(key, f"listbuilder-event-{purpose}:{text}".encode(),
                      hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")[:length]


def player_key(code: str) -> str:
    """The player's own link's key for the list with this verify code."""
    return f"{code}.{_mark('player', code, 22)}"


def code_of_key(key: str) -> str | None:
    """The verify code a player's key names, if its mark is the app's; else None."""
    found = _KEY.fullmatch(key)
    if found is None or not hmac.compare_digest(found.group(2), _mark("player", found[1], 22)):
        return None
    return found.group(1)


def table_token(event: StoredEvent, game: StoredGame) -> str:
    """Side 1's private link of the match played at this table."""
    return _mark("table", f"{event.share_token}:{game.id}")


def edit_token(text: str) -> str:
    """The token in a roster's edit link (the whole address, or the token alone); ValueError,
    in words that say which link to paste instead, for any other link."""
    text = text.strip()
    if found := _EDIT.search(text):
        return found.group(1)
    if "/s/" in text:
        raise ValueError("That is your roster's share link, which only shows it: hand in with "
                         "its edit link (it has /r/ in it), so the event knows the list is "
                         "yours. Nothing was handed in.")
    if "/l/" in text:
        raise ValueError("That is a list link of several rosters: open the roster you play "
                         "and copy its own edit link (it has /r/ in it).")
    if _TOKEN.fullmatch(text):
        return text
    raise ValueError("That is not a roster's edit link: copy the address of your roster's "
                     "page (it has /r/ in it).")
