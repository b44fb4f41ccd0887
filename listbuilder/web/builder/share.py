"""The read-only roster page behind the share link: the list, totals, problems, text and file,
and no way to change anything; "Copy to my rosters" makes a new roster of one's own from it."""

from __future__ import annotations

from dataclasses import replace

from flask import Blueprint, Response, abort, redirect, render_template, url_for
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response as WerkzeugResponse

from listbuilder.web import collection, services
from listbuilder.web.builder.page import roster_context
from listbuilder.web.builder.views import text_download, yaml_download
from listbuilder.web.rosters import canonical

bp = Blueprint("shared", __name__, url_prefix="/s/<share>")




@bp.get("")
def view(share: str) -> str:
    return render_template("builder/shared.html", share=share,
                           **roster_context(services.roster_by_share_token(share), token=None))


@bp.get("/export.yaml")
def export(share: str) -> Response:
    return yaml_download(services.roster_by_share_token(share))


@bp.get("/roster.txt")
def text(share: str) -> Response:
    return text_download(services.roster_by_share_token(share))


@bp.post("/copy")
def copy(share: str) -> WerkzeugResponse:
    """A new roster of the same contents with its own edit link, remembered in this browser;
    the shared one is not touched."""
    if not FlaskForm().validate_on_submit():
        abort(400, "This form had expired; reload the page and try again.")
    opened = services.roster_by_share_token(share)
    roster = replace(opened.roster, name=collection.distinct_name(opened.roster.name))
    text = canonical(roster, opened.system, opened.catalog)
    _, token = services.store().create(opened.system.id, roster.name, text)
    collection.remember(token)
    return redirect(url_for("builder.edit", token=token))
