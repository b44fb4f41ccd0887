"""Prints made once: a PDF is kept in the shared store under a key made of everything that
decides it, and the same print asked again is served from there, not laid out again.

The key covers the roster text (or the system and faction), the options, the data revision,
and the layout itself: a hash of the printing code, its templates, stylesheets and fonts, so a
new release never serves a PDF the old layout made. The store is the database, so every worker
and every machine behind a load balancer shares the cache.

Print work is bounded too: a print from the browser makes at most `MAX_PRINT_CARDS` distinct
cards (a server's CPU is shared by everyone; the command line has no such bound). A print not
in the cache is laid out by a print runner, not in the request's thread (`print_queue`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from flask import current_app

from listbuilder.engine.catalog import PROJECT_ROOT
from listbuilder.printing import PrintError

# What decides a PDF besides its content: the code and files the layout reads.
LAYOUT_FILES = ("listbuilder/printing", "listbuilder/engine/cards.py",
                "listbuilder/engine/profile.py", "templates/print", "static/css", "static/fonts")
LAYOUT_GLOBS = ("listbuilder/systems/*/cards.py", "templates/*/rules.html",
                "templates/*/unit_card.html", "templates/*/play_card.html",
                "templates/*/chit.html")


@cache
def layout_revision(root: Path = PROJECT_ROOT) -> str:
    """A hash of every file the layout reads, computed once per process."""
    files: set[Path] = set()
    for name in LAYOUT_FILES:
        path = root / name
        files.update(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else (
            files.add(path) if path.is_file() else None)
    for pattern in LAYOUT_GLOBS:
        files.update(p for p in root.glob(pattern) if p.is_file())
    digest = hashlib.sha256()
    for path in sorted(files):
        if "__pycache__" in path.parts:
            continue
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


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
