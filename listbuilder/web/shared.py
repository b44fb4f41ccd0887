"""The read-only roster page behind the share link: the list, totals, problems, text and file,
and no way to change anything."""

from __future__ import annotations

from flask import Blueprint, Response, abort, render_template

from listbuilder.web import services
from listbuilder.web.builder import text_download, yaml_download
from listbuilder.web.page import roster_context
from listbuilder.web.rosters import Opened, StoredRosterError, open_stored

bp = Blueprint("shared", __name__, url_prefix="/s/<share>")


def _open(share: str) -> Opened:
    stored = services.by_share_token(share)
    try:
        return open_stored(services.library(), stored)
    except StoredRosterError:
        abort(Response(render_template("web/unreadable.html", stored=stored), 422))


@bp.get("")
def view(share: str) -> str:
    return render_template("web/shared.html", share=share,
                           **roster_context(_open(share), token=None))


@bp.get("/export.yaml")
def export(share: str) -> Response:
    return yaml_download(_open(share))


@bp.get("/roster.txt")
def text(share: str) -> Response:
    return text_download(_open(share))
