"""What every page shares: security headers, error pages in a player's words, the limits a
public instance needs, the offline app (manifest and service worker) and the rules notes."""

from flask import Flask

from listbuilder.web.site import errors, limits, notes, offline, requests, security


def init_app(app: Flask) -> None:
    requests.init_app(app)
    security.init_app(app)
    errors.init_app(app)
    app.register_blueprint(notes.bp)
    app.register_blueprint(offline.bp)


__all__ = ["init_app", "limits"]
