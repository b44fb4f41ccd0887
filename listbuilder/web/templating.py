"""Template helpers: what every page needs (the systems, links), nothing computed."""

from __future__ import annotations

from typing import Any

from flask import Flask, request, url_for
from flask_wtf.csrf import generate_csrf
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup, escape

from listbuilder.engine.registry import all_systems
from listbuilder.web.per_request import once_a_request


def page_url(**changes: Any) -> str:
    """This page's address with some query arguments changed (None removes one)."""
    args: dict[str, Any] = {k: v for k, v in request.args.items() if k not in changes}
    args.update({k: v for k, v in changes.items() if v not in (None, "")})
    # a page shown in answer to a change (a POST) is the roster page of that edit link
    endpoint = request.endpoint if request.method == "GET" else "builder.edit"
    view_args: dict[str, Any] = dict(request.view_args or {})
    return url_for(endpoint or "home.index", **view_args, **args)


KEPT = ("q", "category", "max_cost")  # the unit browser's filters, kept across changes


def kept_args() -> dict[str, Any]:
    return {k: v[:80] for k in KEPT if (v := request.args.get(k))}


def action_url(endpoint: str, **values: Any) -> str:
    """Where a change posts: keeps the browser's filters so the answer shows the same list.
    Worked out once a request for each change: every entry of a roster page has the same
    forms (a page of 15 entries asked Flask's `url_for` 127 times, now 58)."""
    return once_a_request("action_urls", (endpoint, tuple(sorted(values.items()))),
                          lambda: url_for(endpoint, **values, **kept_args()))


# templates/macros.html, globals of every page
MACROS = ("field", "hx", "hx_base", "hx_post", "profile_body")


@pass_context
def hidden_base(context: Context) -> Markup:
    """The CSRF token and the saved version every form that changes a roster carries, each
    escaped, then marked safe with the literal markup around them. Made once a request for
    each version: the token is the request's own, and an answer draws some five forms that
    carry the same two values."""
    version = context.get("version")
    return once_a_request("hidden_bases", version, lambda: Markup(
        f'<input type="hidden" name="csrf_token" value="{escape(generate_csrf())}">'
        f'<input type="hidden" name="version" value="{escape(version)}">'))


@pass_context
def part_id(context: Context, part_id: str) -> Markup:
    """The id attribute of a part's root element (web/builder/parts.py), which also marks
    it to swap itself in when an answer draws that part alone (`swap_part`). Only the root:
    htmx would swap a marked element inside it a second time."""
    escaped = escape(part_id)  # escaped, then marked safe with the literal markup around it
    if context.get("swap_part") == part_id:
        return Markup(f'id="{escaped}" hx-swap-oob="true"')
    return Markup(f'id="{escaped}"')


def init_app(app: Flask) -> None:
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    app.jinja_env.add_extension("jinja2.ext.do")
    app.jinja_env.globals["page_url"] = page_url
    app.jinja_env.globals["action_url"] = action_url
    app.jinja_env.globals["hidden_base"] = hidden_base
    app.jinja_env.globals["part_id"] = part_id
    macros = app.jinja_env.get_template("macros.html").module  # see its first lines
    for name in MACROS:
        app.jinja_env.globals[name] = getattr(macros, name)

    @app.context_processor
    def globals_() -> dict[str, Any]:
        return {"systems": all_systems(), "system_names": {s.id: s.name for s in all_systems()}}
