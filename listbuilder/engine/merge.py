"""Merging a system's data files: each item named once, each single section given once.

A system's YAML files all share one schema and are merged; these helpers report a repeated
name or section at the place it stands (the loader adds the line), keeping the first.
"""

from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from listbuilder.engine.errors import Problems
from listbuilder.engine.model import Origin

T = TypeVar("T")
Docs = Sequence[tuple[Origin, Any]]


def items(docs: Docs, section: str) -> list[tuple[Origin, int, Any]]:
    """Every item of a list section, across files, with its file and index."""
    return [(origin, i, item) for origin, doc in docs
            for i, item in enumerate(getattr(doc, section))]


def unique(problems: Problems, found: Iterable[tuple[Origin, int, T]], section: str,
           field: str = "name", key: Callable[[T], str] | None = None,
           what: str = "") -> list[tuple[Origin, int, T]]:
    """The items whose key is new; each repeat is reported where it stands and left out."""
    seen: dict[str, Origin] = {}
    kept = []
    for origin, i, item in found:
        value = key(item) if key else str(getattr(item, field))
        first = seen.get(value.casefold())
        if first is not None:
            also = "earlier in this file" if first.file == origin.file else f"in {first.file}"
            problems.add(origin, (section, i, field),
                         f"{what + ' ' if what else ''}{value!r} is defined twice "
                         f"(also {also}): keep one")
            continue
        seen[value.casefold()] = origin
        kept.append((origin, i, item))
    return kept


def single(problems: Problems, docs: Docs, section: str) -> tuple[Origin, Any] | None:
    """The section that exactly one file gives (a system's core tables)."""
    found = [(origin, value) for origin, doc in docs
             if (value := getattr(doc, section)) is not None]
    for origin, _ in found[1:]:
        problems.add(origin, (section,), f"the {section} section is already given in "
                                         f"{found[0][0].file}: keep one")
    if not found:
        problems.add(docs[0][0] if docs else Origin(), (section,),
                     f"no file gives the {section} section: add it (see system.yaml)")
        return None
    return found[0]


def single_value(problems: Problems, docs: Docs, section: str) -> Any:
    """The value of `single`, or None when it was reported missing."""
    found = single(problems, docs, section)
    return found[1] if found else None
