"""Quick-resolve in the browser: one of the roster's units (or two, side by side) against any
target, with the situation set, answered with a chart and a one-line summary.

A search changes nothing, so the form is a GET (no CSRF token) that works without JavaScript:
the panel on the roster page sends it to the resolve page of the same roster, which shows the
form again with the results. With htmx the same request comes back as the panel alone and is
swapped in place. The panel itself is laid out by `resolve.present`.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, render_template, request, url_for

from listbuilder.engine.report import RosterView
from listbuilder.web import collection, services
from listbuilder.web.per_request import once_a_request
from listbuilder.web.resolve.forms import Suggestion
from listbuilder.web.resolve.present import (
    Args,
    Other,
    Panel,
    arg,
    attacker_choices,
    build_panel,
    share_token,
)
from listbuilder.web.rosters import Opened, StoredRosterError, open_stored

bp = Blueprint("resolve", __name__)




def _other(opened: Opened, args: Args) -> Other | None:
    """The roster a pasted share link names, when the target is to come from one."""
    text = arg(args, "link").strip()
    if arg(args, "source") != "roster" or not text:
        return None
    try:
        token = share_token(text)
    except ValueError as exc:
        return Other(error=str(exc))
    stored = services.store().by_share_token(token)
    if stored is None:
        return Other(error="No roster has this share link. Check that the whole link was "
                           "copied.")
    try:
        other = open_stored(services.library(), stored)
    except StoredRosterError:
        return Other(error=f"The roster {stored.name!r} can no longer be read; its owner can "
                           f"open and save it again.")
    if other.system.id != opened.system.id:
        return Other(error=f"That is a {other.system.name} roster; the target has to come "
                           f"from a {opened.system.name} roster.")
    return Other(name=other.roster.name, roster=other.roster, token=token,
                 catalog=other.catalog)


def _answer(opened: Opened, action: str, back: str) -> Response:
    args = request.args.to_dict(flat=False)
    panel = build_panel(opened.system, opened.catalog, opened.roster, args,
                        _other(opened, args))
    status = 422 if panel.has_errors else 200
    ctx: dict[str, Any] = {"panel": panel, "action": action, "system": opened.system,
                           "mine": my_rosters(opened.system.id, opened.stored.share_token)}
    # htmx asks for the panel alone, except when it restores a page from history (Back)
    if services.is_htmx() and request.headers.get("HX-History-Restore-Request") != "true":
        body = render_template("resolve/_panel.html", swapped=True, **ctx)
    else:
        body = render_template("resolve/page.html", roster=opened.roster, back=back,
                               standalone=True, **ctx)
    response = Response(body, status)
    response.vary.add("HX-Request")  # one address, two answers: caches must keep both
    return response


@bp.get("/r/<token>/resolve")
def for_roster(token: str) -> Response:
    opened = services.roster_by_edit_token(token)
    return _answer(opened, url_for("resolve.for_roster", token=token),
                   url_for("builder.edit", token=token))


@bp.get("/s/<share>/resolve")
def for_shared(share: str) -> Response:
    opened = services.roster_by_share_token(share)
    return _answer(opened, url_for("resolve.for_shared", share=share),
                   url_for("shared.view", share=share))


@bp.app_template_global("resolve_panel")
def resolve_panel(view: RosterView) -> Panel:
    """The panel as the roster page first shows it (no target picked yet); worked out once a
    request for each roster view (the builder reads it to keep the panel, then the page)."""
    # the view is held with its panel, so its id is not reused
    return once_a_request("resolve_panels", id(view), lambda: (
        view, build_panel(view.system, view.catalog, view.roster, {})))[1]


def resolve_attackers(view: RosterView) -> tuple[tuple[str, str, bool], ...] | None:
    """The panel's attacker choices for this view (`attacker_choices`), without building the
    panel: what an answer to a change compares, once a request for each view."""
    # the view is held with its choices, so its id is not reused
    return once_a_request("resolve_attackers", id(view), lambda: (
        view, attacker_choices(view.system, view.catalog, view.roster)))[1]


@bp.app_template_global("resolve_rosters")
def my_rosters(system_id: str, share: str, token: str | None = None) -> list[Suggestion]:
    """This browser's other rosters of the same game, as share links to offer as targets.
    `token`, the edit link of the roster shown, is left out before the database is asked:
    a player with only this roster costs no query, and the others one a request."""
    others = [t for t in collection.remembered() if t != token]
    if not others:
        return []
    mine = once_a_request("resolve_mine", tuple(others),
                          lambda: services.store().by_edit_tokens(others))
    return [Suggestion(url_for("shared.view", share=s.share_token, _external=True), s.name)
            for _, s in mine if s.system == system_id and s.share_token != share]
