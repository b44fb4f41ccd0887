"""Security headers on every answer (Flask-Talisman), and no caching of pages that carry a
private edit link.

The policy allows scripts, styles, fonts and images from this site only: htmx and our script
are served from static/, no page has inline script or style, and the quick-resolve chart is
an SVG drawn by the engine with attributes, not style text. Framing is refused everywhere.
`Referrer-Policy: same-origin` keeps an edit link in the address bar from reaching another site
through a clicked link, and still lets the browser tell this site which of its own pages sent a
form: over HTTPS, Flask-WTF refuses a form without that (`no-referrer` made every form fail
behind a TLS proxy).

Behind a proxy (nginx, a load balancer) the scheme and the client's address come from its
X-Forwarded-Proto and X-Forwarded-For, believed only from the addresses in FORWARDED_ALLOW_IPS,
the setting gunicorn itself reads for the scheme. Over HTTPS the cookies are Secure and HSTS is
sent, whatever LISTBUILDER_SECURE_COOKIES says (which forces Secure cookies over plain HTTP too).
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Iterable
from typing import Any

from flask import Flask, request
from flask.sessions import SecureCookieSessionInterface
from flask_talisman import Talisman
from werkzeug.middleware.proxy_fix import ProxyFix
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


class SessionOverHttps(SecureCookieSessionInterface):
    """The session cookie is Secure on every answer over HTTPS (and always, if configured)."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or request.is_secure


class TrustedProxy:
    """X-Forwarded-For and -Proto read only from a proxy we believe: anyone else could name
    any address, and dodge the limits kept per address."""

    def __init__(self, app: Any, trusted: Iterable[str]) -> None:
        self.app = app
        self.behind = ProxyFix(app, x_for=1, x_proto=1, x_host=0, x_port=0, x_prefix=0)
        names = [t.strip() for t in trusted if t.strip()]
        self.anyone = "*" in names
        self.networks = [ipaddress.ip_network(n, strict=False) for n in names if n != "*"]

    def believed(self, address: str) -> bool:
        if self.anyone or not address:  # no address: a unix socket, reached only locally
            return True
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in self.networks)

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        if self.believed(environ.get("REMOTE_ADDR", "")):
            return self.behind(environ, start_response)
        return self.app(environ, start_response)


def trusted_proxies() -> list[str]:
    """FORWARDED_ALLOW_IPS as gunicorn reads it: addresses or networks, comma-separated."""
    return os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1").split(",")


def init_app(app: Flask) -> None:
    app.wsgi_app = TrustedProxy(app.wsgi_app, trusted_proxies())  # type: ignore[method-assign]
    app.session_interface = SessionOverHttps()
    Talisman(
        app,
        content_security_policy=CSP,
        frame_options="DENY",
        referrer_policy="same-origin",
        x_content_type_options=True,
        # TLS is the proxy's business: nothing is redirected here, but every answer over HTTPS
        # tells the browser to stay on HTTPS (Talisman sends HSTS over HTTPS only)
        force_https=False,
        strict_transport_security=True,
        strict_transport_security_include_subdomains=False,  # other sites of the club's domain
        session_cookie_secure=False,  # SessionOverHttps decides
        session_cookie_http_only=True,
    )

    @app.after_request
    def no_store(response: Response) -> Response:
        # Pages reached by an edit link (and the home page, which lists them) must not sit in
        # a shared or back-button cache; static files may.
        if request.endpoint != "static":
            response.headers["Cache-Control"] = "no-store"
        return response
