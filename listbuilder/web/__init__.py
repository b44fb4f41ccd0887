"""The web app: `create_app` builds it from one package per feature (builder, home, studio,
resolve, prints, table, events, site), each listing its blueprints in `BLUEPRINTS`, on a thin
shared layer (config, services, templating, forms, rosters). docs/architecture.md draws the
map.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask
from flask_wtf.csrf import CSRFProtect

from listbuilder.engine.library import Library
from listbuilder.locations import instance_folder
from listbuilder.locations import shared as shared_folder
from listbuilder.settings import Config
from listbuilder.store.admin import migrations
from listbuilder.store.database import sqlite_url
from listbuilder.store.rosters import RosterStore
from listbuilder.templates_loader import template_loader

csrf = CSRFProtect()


def create_app(test_config: Mapping[str, Any] | type | None = None,
               instance_path: str | Path | None = None) -> Flask:
    instance = instance_path or instance_folder()
    app = Flask(__name__, instance_path=str(Path(instance).resolve()),
                static_folder=str(shared_folder("static")))
    app.jinja_loader = template_loader()  # a cached_property: set before the first template
    app.config.from_object(Config)
    if isinstance(test_config, type):
        app.config.from_object(test_config)
    elif test_config is not None:
        app.config.from_mapping(test_config)
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret(Path(app.instance_path))

    custom = app.config.get("LISTBUILDER_DATA")
    app.extensions["listbuilder.library"] = Library(custom_dir=Path(custom) if custom else None)
    url = app.config.get("DATABASE_URL") or sqlite_url(Path(app.instance_path) /
                                                        "listbuilder.sqlite3")
    store = RosterStore(url, print_cache_bytes=app.config["PRINT_CACHE_MB"] * 1024 * 1024)
    try:
        if app.config.get("UPGRADE_DATABASE"):
            migrations.upgrade(store.engine)
        else:
            migrations.require_current(store.engine, url)  # SchemaNotCurrent names the fix
    except Exception:
        store.close()
        raise
    app.extensions["listbuilder.store"] = store
    from listbuilder.store.packs import PackStore
    app.extensions["listbuilder.packs"] = PackStore(store.engine)
    from listbuilder.store.matches import MatchStore
    app.extensions["listbuilder.matches"] = MatchStore(store.engine)
    from listbuilder.store.events import EventStore
    app.extensions["listbuilder.events"] = EventStore(store.engine)
    from listbuilder.jobs.printer import Printer
    app.extensions["listbuilder.printer"] = Printer.of_settings(
        store, url, app.config.get("REDIS_URL"), float(app.config["PRINT_JOB_TIMEOUT"]),
        library=app.extensions["listbuilder.library"])
    csrf.init_app(app)

    from listbuilder.web import (
        builder,
        events,
        home,
        prints,
        resolve,
        site,
        studio,
        table,
        templating,
    )

    templating.init_app(app)
    site.init_app(app)
    for feature in (home, builder, studio, resolve, prints, table, events):
        for blueprint in feature.BLUEPRINTS:
            app.register_blueprint(blueprint)
    site.limits.init_app(app)  # last: it limits endpoints of the blueprints above by name
    return app


def _instance_secret(folder: Path) -> str:
    """The key kept in the instance folder, made on first use. Worker processes starting at
    once must all end up with the same key: the file appears whole (written aside, then
    linked into place, which fails if another process got there first), never half-written."""
    path = folder / "secret_key"
    if not path.exists():
        fd, draft = tempfile.mkstemp(dir=folder, prefix=".secret_key-")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(secrets.token_hex(32))
            with contextlib.suppress(FileExistsError):  # another worker's key won: use it
                os.link(draft, path)
        finally:
            os.unlink(draft)
    return path.read_text(encoding="utf-8").strip()
