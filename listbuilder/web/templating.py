"""Template helpers: what every page needs (the systems, links), nothing computed."""

from __future__ import annotations

from typing import Any

from flask import Flask, request, url_for

from listbuilder.engine.registry import SYSTEMS


def page_url(**changes: Any) -> str:
    """This page's address with some query arguments changed (None removes one)."""
    args = {k: v for k, v in request.args.items() if k not in changes}
    args.update({k: v for k, v in changes.items() if v not in (None, "")})
    # a page shown in answer to a change (a POST) is the roster page of that edit link
    endpoint = request.endpoint if request.method == "GET" else "builder.edit"
    return url_for(endpoint or "home.index", **(request.view_args or {}), **args)


KEPT = ("q", "category", "max_cost")  # the unit browser's filters, kept across changes


def kept_args() -> dict[str, str]:
    return {k: v[:80] for k in KEPT if (v := request.args.get(k))}


def action_url(endpoint: str, **values: Any) -> str:
    """Where a change posts: keeps the browser's filters so the answer shows the same list."""
    return url_for(endpoint, **values, **kept_args())


def init_app(app: Flask) -> None:
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    app.jinja_env.add_extension("jinja2.ext.do")
    app.jinja_env.globals["page_url"] = page_url
    app.jinja_env.globals["action_url"] = action_url

    @app.context_processor
    def globals_() -> dict[str, Any]:
        return {"systems": SYSTEMS, "system_names": {s.id: s.name for s in SYSTEMS}}
