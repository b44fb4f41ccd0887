"""Security headers on every answer (Flask-Talisman), and no caching of pages that carry a
private edit link.

The policy allows scripts, styles, fonts and images from this site only: htmx and our script
are served from static/, no page has inline script or style, and the quick-resolve chart is
an SVG drawn by the engine with attributes, not style text. Framing is refused everywhere;
`Referrer-Policy: no-referrer` keeps an edit link in the address bar from reaching another site
through a clicked link.
"""

from __future__ import annotations

from flask import Flask, request
from flask_talisman import Talisman
from werkzeug.wrappers import Response

CSP = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "font-src": "'self'",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}


def init_app(app: Flask) -> None:
    secure = bool(app.config.get("SESSION_COOKIE_SECURE"))
    Talisman(
        app,
        content_security_policy=CSP,
        frame_options="DENY",
        referrer_policy="no-referrer",
        x_content_type_options=True,
        # TLS is the proxy's business; behind it (LISTBUILDER_SECURE_COOKIES=1) the cookies
        # go over HTTPS only and browsers are told to stay on HTTPS
        force_https=False,
        strict_transport_security=secure,
        session_cookie_secure=secure,
        session_cookie_http_only=True,
    )

    @app.after_request
    def no_store(response: Response) -> Response:
        # Pages reached by an edit link (and the home page, which lists them) must not sit in
        # a shared or back-button cache; static files may.
        if request.endpoint != "static":
            response.headers["Cache-Control"] = "no-store"
        return response
