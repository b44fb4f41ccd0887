"""Errors for malformed input: data files and roster files. Each names file, line and key.

The bottom of the engine: it imports nothing of Listbuilder, so every other engine module
(the models and the effects they hold among them) can report through it.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

Loc = tuple[str | int, ...]


class Located(Protocol):
    """Where something was read from: a catalog item's `model.Origin`, or any other record
    of a file name."""

    @property
    def file(self) -> str: ...


def format_loc(loc: Loc) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top)"


@dataclass(frozen=True)
class DataError:
    file: str
    loc: Loc
    message: str
    line: int | None = None

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {format_loc(self.loc)}: {self.message}"


class DataLoadError(Exception):
    """The data could not be loaded; `errors` lists every problem found."""

    def __init__(self, errors: Sequence[DataError]) -> None:
        self.errors = tuple(errors)
        super().__init__("\n".join(str(e) for e in self.errors))


class Problems:
    """Collects cross-file data problems (duplicates, dangling names) found while building."""

    def __init__(self) -> None:
        self.errors: list[DataError] = []

    def add(self, origin: Located, loc: Loc, message: str) -> None:
        self.errors.append(DataError(origin.file, loc, message))

    def raise_if_any(self) -> None:
        if self.errors:
            raise DataLoadError(self.errors)


def closest(name: str, options: Iterable[str]) -> str:
    """' (did you mean X?)' for the closest option, or '' when nothing is near."""
    by_fold = {o.casefold(): o for o in options}
    match = difflib.get_close_matches(name.casefold(), list(by_fold), n=1, cutoff=0.6)
    return f" (did you mean {by_fold[match[0]]!r}?)" if match else ""
