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

from listbuilder.web import services
from listbuilder.web.resolve.present import Args, Other, arg, build_panel, share_token
from listbuilder.web.resolve.slot import attacker_picks, my_rosters, resolve_panel
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


# the roster page's slot (resolve/panel.html) draws these
bp.add_app_template_global(resolve_panel, "resolve_panel")
bp.add_app_template_global(attacker_picks, "resolve_attacker_picks")
bp.add_app_template_global(my_rosters, "resolve_rosters")
