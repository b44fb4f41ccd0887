"""The request every view reads: its form and query fields without NUL bytes, and whether
its form's text was UTF-8.

A NUL in a field is never a player's (no keyboard types one) and has no place in a name or a
message; echoed back in a refusal ("there is no event 'x\\0'"), it went into the HTML as it
came. Stripped once here, no form, view or message meets one.
"""

from __future__ import annotations

from urllib.parse import unquote_to_bytes

from flask import Flask, Request
from werkzeug.datastructures import MultiDict
from werkzeug.utils import cached_property

NUL = "\x00"


def _without_nul(fields: MultiDict[str, str]) -> MultiDict[str, str]:
    pairs = list(fields.items(multi=True))
    if not any(NUL in key or NUL in value for key, value in pairs):
        return fields
    return type(fields)((key.replace(NUL, ""), value.replace(NUL, "")) for key, value in pairs)


class CleanRequest(Request):
    """Flask's request, its `form` and `args` stripped of NUL bytes."""

    form_not_utf8 = False  # werkzeug drops such a form's fields, or keeps its bytes quoted

    def _load_form_data(self) -> None:
        loaded = "form" in self.__dict__
        if not loaded and self.mimetype == "application/x-www-form-urlencoded":
            # read once and kept for the parser (the body is within MAX_CONTENT_LENGTH)
            body = self.get_data(cache=True)
            try:
                unquote_to_bytes(body.replace(b"+", b" ")).decode("utf-8")
            except UnicodeDecodeError:
                self.form_not_utf8 = True
        super()._load_form_data()
        if not loaded:
            self.__dict__["form"] = _without_nul(self.__dict__["form"])

    @cached_property
    def args(self) -> MultiDict[str, str]:
        return _without_nul(super().args)


def init_app(app: Flask) -> None:
    app.request_class = CleanRequest
