"""What every saved thing reached by links shares (a roster, a pack, a match): a private link
of which only the hash is kept, so a copy of the database gives no edit rights; a read-only
link kept as it is; a version that each change is based on, so that a change made on a
version that has moved on is refused (`Stale`) and changes nothing; and a bound on the text
kept."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, Protocol, TypeVar

from listbuilder.store.database import now, utc
from listbuilder.store.tables import Links

EDIT_TOKEN_BYTES = 32  # 256 bits: a private (edit, side) link
SHARE_TOKEN_BYTES = 16  # 128 bits: a read-only (share, spectators') link
LONGEST_TOKEN = 100  # longer than any link we make: not looked up at all


class Versioned(Protocol):
    @property
    def id(self) -> int: ...

    @property
    def version(self) -> int: ...


@dataclass(frozen=True)
class StoredText:
    """A saved roster or pack as read, detached from the database session."""

    id: int
    system: str
    name: str
    text: str
    version: int
    share_token: str
    updated: datetime


def text_columns(row: Any) -> tuple[int, str, str, str, int, str, datetime]:
    """The columns of a StoredText, in its order, from a mapped row (tables.NamedText) or a
    plain result row with the same column names."""
    return (row.id, row.system, row.name, row.text, row.version, row.share_token,
            utc(row.updated))


V = TypeVar("V", bound=Versioned)
R = TypeVar("R", bound=Links)


class Stale(Exception, Generic[V]):
    """The thing was changed elsewhere since the version a change was based on: `current` is
    it as it is now, for the page to show."""

    what = "it"  # the word for the thing, in the message

    def __init__(self, current: V) -> None:
        self.current = current
        super().__init__(f"{self.what} {current.id} is at version {current.version}")


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_private() -> tuple[str, str]:
    """A new private link and the hash that is kept of it: the link is shown once."""
    token = secrets.token_urlsafe(EDIT_TOKEN_BYTES)
    return token, hash_token(token)


def new_public() -> str:
    """A new read-only link, kept as it is."""
    return secrets.token_urlsafe(SHARE_TOKEN_BYTES)


def new_linked(row_type: Callable[..., R], **fields: Any) -> tuple[R, str]:
    """A new row of a thing reached by links, at version 1, made now, and its private link
    (shown once, never stored)."""
    token, edit_hash = new_private()
    at = now()
    row = row_type(edit_hash=edit_hash, share_token=new_public(), version=1, created=at,
                   updated=at, **fields)
    return row, token


def plausible(token: str) -> bool:
    """Whether a link is worth a lookup: not empty, and not longer than any we make."""
    return bool(token) and len(token) <= LONGEST_TOKEN


def check_size(text: str, most: int, too_large: type[ValueError], what: str,
               advice: str = "") -> None:
    """`too_large` when `text` takes more than `most` bytes (as UTF-8), saying so of `what`
    ("the roster"), with `advice` on what to do."""
    if len(text.encode("utf-8")) > most:
        raise too_large(f"{what} is larger than {most // 1024} KB"
                        + (f": {advice}" if advice else ""))
