"""Every error is a page in words a player understands, never a stack trace."""

from __future__ import annotations

import logging

from flask import Flask, current_app, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from listbuilder.engine.errors import DataLoadError

log = logging.getLogger(__name__)

# the page nginx shows for a body it refused (listbuilder/commands/front/site.conf.j2's error_page)
TOO_LARGE = "/errors/too-large"

MESSAGES = {
    400: "The request was not understood. Go back and try again.",
    404: "There is nothing at this address.",
    405: "This address does not take that kind of request.",
    413: "That upload is too large: a roster file is at most 640 KB, a pack 128 KB.",
}


def _drain_refused_body() -> None:
    """Read and drop the body of a request refused as too large, up to what the front lets
    through (twice the app's limit). nginx buffers the whole body and is still writing it
    when the app answers: a server that closed the connection then cut nginx off mid-write,
    and the player got nginx's 502 instead of this page (a race, seen once in CI). A body
    larger than that bound is not read: nothing in front would have let it through."""
    length = request.content_length or 0
    limit = 2 * (current_app.config.get("MAX_CONTENT_LENGTH") or 0)
    if not 0 < length <= limit:
        return
    stream = request.environ.get("wsgi.input")
    if stream is None:
        return
    left = length
    try:
        while left > 0:
            chunk = stream.read(min(left, 64 * 1024))
            if not chunk:
                return
            left -= len(chunk)
    except OSError:  # the client went away: nothing to answer
        return


def _page(status: int, title: str, message: str, details: list[str] | None = None
          ) -> tuple[str, int]:
    return render_template("site/error.html", status=status, title=title, message=message,
                           details=details or []), status


FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
REPLACED = "\ufffd"  # what a multipart field's bytes that are not UTF-8 are read as


def _unreadable_form() -> tuple[str, int] | None:
    """Why a post's fields could not be read, when that is why its CSRF token was not found:
    a body that is not a form (JSON, say), or a form whose text is not UTF-8 (site/requests.py
    finds it in a urlencoded body). Said as it is, not as a form that expired."""
    if request.mimetype not in FORM_TYPES and (request.content_length or request.mimetype):
        kind = request.mimetype or "a body of no type"
        return _page(415, "Not a form",
                     f"This address takes a form's fields, as the page's own form sends "
                     f"them ({' or '.join(FORM_TYPES)}), not {kind}. Nothing was changed.")
    fields = request.form.items(multi=True)  # read first: it sets form_not_utf8
    if getattr(request, "form_not_utf8", False) or any(
            REPLACED in key or REPLACED in value for key, value in fields):
        return _page(400, "The form's text was not UTF-8",
                     "Some of this form's text was not valid UTF-8, so it was not read and "
                     "nothing was changed. Send it again from the page itself.")
    return None


def init_app(app: Flask) -> None:
    @app.errorhandler(CSRFError)
    def csrf_error(exc: CSRFError) -> tuple[str, int]:
        unreadable = _unreadable_form()
        if unreadable is not None:
            return unreadable
        return _page(400, "The form had expired",
                     "This form had expired or did not come from this site, so nothing was "
                     "changed. Reload the page and try again.")

    @app.errorhandler(DataLoadError)
    def data_error(exc: DataLoadError) -> tuple[str, int]:
        return _page(500, "The data could not be loaded",
                     "The built-in data has problems; fix these files and restart:",
                     [str(e) for e in exc.errors])

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> tuple[str, int]:
        status = exc.code or 500
        if status == 413:
            _drain_refused_body()
        custom = exc.description if exc.description != type(exc).description else None
        message = custom or MESSAGES.get(status, "Something went wrong; nothing was changed.")
        return _page(status, exc.name, message)

    @app.get(TOO_LARGE)
    def too_large() -> tuple[str, int]:
        # nginx answers a body over its own limit with this page (its error_page): the same
        # words and status the app gives a body over its limit, not nginx's bare one
        return http_error(RequestEntityTooLarge())

    @app.errorhandler(Exception)
    def unexpected(exc: Exception) -> tuple[str, int]:
        if isinstance(exc, HTTPException):
            return http_error(exc)
        log.exception("unexpected error")
        return _page(500, "Something went wrong",
                     "Something went wrong on our side; nothing was changed. Reload the page "
                     "and try again.")
