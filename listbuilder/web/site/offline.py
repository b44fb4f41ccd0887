"""The builder as an app that works offline: its web manifest, its service worker
(static/js/sw.js, served from the site's root so it may answer for every page), the list of
what the worker keeps from the start, and the page it shows for a page never opened here.

The worker keeps what a player has opened (roster pages by their edit or share link, the
home page, prints downloaded) and, from its start, the site's scripts, styles and icons and
every game's rules sheet. Which version of those it keeps is named by a digest of the static
files, so a new release of them replaces the worker and its kept copies.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from flask import Blueprint, Response, current_app, jsonify, render_template, url_for

from listbuilder.engine.registry import all_systems

bp = Blueprint("offline", __name__)

KEPT_STATIC = ("css", "js", "icons", "fonts")


def _static_files() -> list[Path]:
    folder = Path(current_app.static_folder or "")
    return sorted(p for part in KEPT_STATIC for p in (folder / part).rglob("*")
                  if p.is_file() and p.suffix not in (".md", ".txt", ".LICENSE"))


@lru_cache(maxsize=4)
def _digest(folder: str) -> str:
    digest = hashlib.sha256()
    for path in sorted(Path(folder).rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(folder).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def static_version() -> str:
    """A digest of the static files: the service worker's version."""
    return _digest(str(current_app.static_folder))


@bp.app_template_global("offline_worker_url")
def worker_url() -> str:
    return url_for("offline.worker", v=static_version())


@bp.get("/sw.js")
def worker() -> Response:
    folder = Path(current_app.static_folder or "")
    response = Response((folder / "js" / "sw.js").read_text(encoding="utf-8"),
                        mimetype="text/javascript")
    # the browser looks for a new worker on every visit; the file names its own version
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    response = jsonify({
        "name": "Listbuilder",
        "short_name": "Listbuilder",
        "description": "Army lists, unit cards and quick odds for one-page wargames.",
        "start_url": url_for("home.index"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#f3f5f8",
        "theme_color": "#1d232b",
        "icons": [{"src": url_for("static", filename=f"icons/app-{n}.png"), "type": "image/png",
                   "sizes": f"{n}x{n}", "purpose": "any"} for n in (192, 512)],
    })
    response.mimetype = "application/manifest+json"
    return response


@bp.get("/offline.json")
def kept_from_start() -> Response:
    """What the worker keeps as soon as it starts: the static files, the home page, the page
    for pages never opened, and each game's rules sheet."""
    folder = Path(current_app.static_folder or "")
    static = [url_for("static", filename=p.relative_to(folder).as_posix())
              for p in _static_files()]
    return jsonify({
        "version": static_version(),
        "static": static,
        "pages": [url_for("home.index"), url_for("offline.page")],
        "rules": [url_for("print.rules", system_id=s.id) for s in all_systems()],
    })


@bp.get("/offline")
def page() -> str:
    return render_template("site/offline.html")
