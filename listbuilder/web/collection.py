"""This browser's rosters, without an account: the edit links it made or opened (kept in its
signed session cookie), or the list behind a list link it follows, shared by every device
that follows the same link (home/lists.py has its pages).

A list lives in the database sealed (AES-GCM) with a key derived from the link's token, and
is found by a digest of that token: the database alone opens none of its edit links, the
link alone does. Two devices saving at once: the second reads the list again and redoes its
change (a version on the row).
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
from collections.abc import Callable

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from flask import current_app, session

from listbuilder.web import services

MINE = "mine"  # session key: the edit tokens of the rosters this browser made or opened
LIST = "list"  # session key: the token of the list link this browser follows
TOKEN_BYTES = 32
NONCE_BYTES = 12
TRIES = 5  # saves raced by other devices before giving up (each reads the list again)


def _key(token: str) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=b"listbuilder roster list",
                info=b"seal").derive(token.encode())


def lookup(token: str) -> str:
    """The digest the list is found by (never the token itself)."""
    return hashlib.sha256(b"roster list:" + token.encode()).hexdigest()


def seal(tokens: list[str], token: str) -> bytes:
    nonce = os.urandom(NONCE_BYTES)
    data = json.dumps(tokens).encode()
    return nonce + AESGCM(_key(token)).encrypt(nonce, data, lookup(token).encode())


def unseal(sealed: bytes, token: str) -> list[str] | None:
    """The edit links in a sealed list, or None if this token does not open it."""
    try:
        data = AESGCM(_key(token)).decrypt(sealed[:NONCE_BYTES], sealed[NONCE_BYTES:],
                                           lookup(token).encode())
    except (InvalidTag, ValueError):
        return None
    found = json.loads(data)
    return [t for t in found if isinstance(t, str)] if isinstance(found, list) else None


def read(token: str) -> list[str] | None:
    """The list this link opens; None when no list has this link."""
    found = services.store().roster_list(lookup(token))
    return unseal(found[0], token) if found is not None else None


def change(token: str, edit: Callable[[list[str]], list[str]]) -> list[str] | None:
    """Apply `edit` to the list and save it, again if another device saved first."""
    for _ in range(TRIES):
        found = services.store().roster_list(lookup(token))
        if found is None:
            return None
        tokens = unseal(found[0], token)
        if tokens is None:
            return None
        new = edit(tokens)[: current_app.config["REMEMBERED_ROSTERS"]]
        if new == tokens:  # a roster opened again that is first already: nothing to save
            return new
        if services.store().put_roster_list(lookup(token), seal(new, token), found[1]):
            return new
    return None


def create(tokens: list[str]) -> str:
    token = secrets.token_urlsafe(TOKEN_BYTES)
    services.store().put_roster_list(lookup(token), seal(tokens, token), None)
    return token


def followed() -> str | None:
    """The list link this browser follows, if any."""
    token = session.get(LIST)
    return token if isinstance(token, str) and token else None


def merged(first: list[str], then: list[str]) -> list[str]:
    return list(dict.fromkeys([*first, *then]))



def remember(token: str) -> None:
    """Put the roster first in this browser's list (kept in the signed session cookie), and
    in the list shared by a list link, when this browser follows one (roster_lists)."""
    mine = [t for t in local_remembered() if t != token]
    session[MINE] = [token, *mine][: current_app.config["REMEMBERED_ROSTERS"]]
    session.permanent = True
    if (shared := followed()) is not None:
        change(shared, lambda tokens: [token, *[t for t in tokens if t != token]])


def forget(token: str) -> None:
    session[MINE] = [t for t in local_remembered() if t != token]
    if (shared := followed()) is not None:
        change(shared, lambda tokens: [t for t in tokens if t != token])


def remembered() -> list[str]:
    """This browser's rosters: those of the list link it follows, else its own."""
    if (shared := followed()) is not None:
        found = read(shared)
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
    taken = {stored.name for _, stored in services.store().by_edit_tokens(remembered())}
    if name not in taken:
        return name
    n = 2
    while (candidate := f"{name[: NAME_MAX - len(str(n)) - 3]} ({n})") in taken:
        n += 1
    return candidate
