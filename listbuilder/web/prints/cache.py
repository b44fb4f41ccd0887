"""Prints made once: a PDF is kept in the shared store under a key made of everything that
decides it, and the same print asked again is served from there, not laid out again.

The key covers the roster text (or the system and faction), the options, the data revision,
and the layout itself: a hash of the printing code, its templates, stylesheets and fonts, so a
new release never serves a PDF the old layout made. The store is the database, so every worker
and every machine behind a load balancer shares the cache.

Print work is bounded too: a print from the browser makes at most `MAX_PRINT_CARDS` distinct
cards (a server's CPU is shared by everyone; the command line has no such bound). A print not
in the cache is laid out by a print worker, never by a web server (`listbuilder.jobs`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from flask import current_app

from listbuilder.engine.registry import all_systems
from listbuilder.locations import shared
from listbuilder.printing import PrintError

# What decides a PDF besides its content: the code and files the layout reads (in the package,
# then in each system's package).
LAYOUT_FILES = ("printing", "engine/cards.py", "engine/profile.py", "templates/print",
                "static/css", "static/fonts")
SYSTEM_FILES = ("cards.py", "templates/rules.html", "templates/unit_card.html",
                "templates/play_card.html", "templates/chit.html")


def layout_files() -> list[tuple[str, Path]]:
    """(name, path) of every file the layout reads."""
    found: list[tuple[str, Path]] = []

    def add(label: str, path: Path) -> None:
        if path.is_dir():
            found.extend((f"{label}/{p.relative_to(path).as_posix()}", p)
                         for p in path.rglob("*") if p.is_file())
        elif path.is_file():
            found.append((label, path))

    for name in LAYOUT_FILES:
        add(name, shared(name))
    for system in all_systems():
        folder = system.templates_folder().parent
        for name in SYSTEM_FILES:
            add(f"{system.id}/{name}", folder / name)
    return [(n, p) for n, p in found if "__pycache__" not in p.parts]


def revision_of(files: list[tuple[str, Path]]) -> str:
    """A hash of the files' names and contents."""
    digest = hashlib.sha256()
    for name, path in sorted(files):
        digest.update(name.encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


@cache
def layout_revision() -> str:
    """A hash of every file the layout reads, computed once per process."""
    return revision_of(layout_files())


def print_key(kind: str, revision: str, options: dict[str, object],
              parts: Iterable[str]) -> str:
    """The cache key of one print: what is printed, with which options, on which data."""
    body = json.dumps({"kind": kind, "layout": layout_revision(), "data": revision,
                       "options": options, "parts": list(parts)}, sort_keys=True)
    return hashlib.sha256(body.encode()).hexdigest()


def check_print_size(cards: int) -> None:
    """Refuse a print from the browser that would lay out more cards than the bound."""
    most = int(current_app.config["MAX_PRINT_CARDS"])
    if cards > most:
        raise PrintError(
            f"this print would make {cards} different cards, and a print from the browser "
            f"makes at most {most}: untick 'One card per entry' so identical units share a "
            f"card, print the roster sheet alone, or print the cards with `listbuilder "
            f"print` on your own computer")
