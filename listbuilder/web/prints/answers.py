"""How a print answers, for every page that offers one (a roster's, a game's, a studio pack's):
the query read and bounded, the PDF or zip as a download named for what it holds, the page
of a print waiting in line or turned away by a full queue, and a print's first page as a
picture for the preview.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from flask import Response, render_template, request

from listbuilder.jobs.ledger import DOWNLOAD, PREVIEW, InLine, QueueFull
from listbuilder.jobs.print_job import PrintJob
from listbuilder.printing import PrintOptions
from listbuilder.printing.options import FILES
from listbuilder.web.prints.forms import LABELS
from listbuilder.web.prints.line_words import place_words
from listbuilder.web.prints.queue import ask

MAX_TEXT = 60  # characters kept of each key and value: every real one is shorter
MAX_SENT = 30  # query keys read; a print form sends ten at most
REFRESH_SECONDS = 1  # how soon the page of a print in line asks again
BUSY_RETRY_SECONDS = 30  # how soon a player turned away by a full queue may ask again
# how soon a print turned away because its client's own prints fill its share asks again:
# about one layout, after which one of them is made
OWN_RETRY_SECONDS = 10


def sent_values() -> dict[str, str]:
    """The query as sent, first value of each key, cut to a sane size (all is echoed back).
    A preview is always of the PDF: it is a picture of the print's first page."""
    out: dict[str, str] = {}
    for key, value in list(request.args.items())[:MAX_SENT]:
        out[key[:MAX_TEXT]] = value[:MAX_TEXT]
    if request.path.endswith("/preview.png"):
        out.pop("format", None)
    return out


def in_words(problems: list[str]) -> tuple[str, ...]:
    """The printer's problems with each option called by its label in the form."""
    out = []
    for problem in problems:
        key, sep, rest = problem.partition(": ")
        label = LABELS.get(key.strip().replace("-", "_"))
        text = f"{label}: {rest}" if sep and label else problem
        out.append(text[:1].upper() + text[1:])
    return tuple(out)


def file_part(text: str) -> str:
    """Text as part of a download's file name: ASCII letters, digits and dashes only."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")[:60].strip("-")


def download_name(*parts: str) -> str:
    return "-".join(p for p in map(file_part, parts) if p) or "print"


def file_response(data: bytes, options: PrintOptions, *name_parts: str) -> Response:
    """The print as a download: the PDF, or the zip of images named by its format
    (`...-cards-tts.zip`)."""
    mimetype, ending = FILES[options.format]
    if options.images:
        name_parts = (*name_parts, options.format)
    return Response(data, mimetype=mimetype, headers={
        "Content-Disposition": f'attachment; filename="{download_name(*name_parts)}{ending}"',
        # a roster's print changes with the roster, at the same address
        "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff",
    })


@dataclass(frozen=True)
class Asked:
    """What a print's waiting page says: what is printed, and where to go back to."""

    title: str
    back: str
    back_label: str


def queued(key: str, job: PrintJob, asked: Asked,
           check: Callable[[], None] = lambda: None) -> bytes | Response:
    """The print's PDF if it is made; else the page of a print in line (202), or of a full
    queue or a client's full share of it (503, which the page and a preview's script ask
    again after). PrintError passes through: the caller shows the form with the problems."""
    rank = PREVIEW if request.path.endswith("/preview.png") else DOWNLOAD
    try:
        got = ask(key, job, check, rank)
    except QueueFull as full:
        retry = OWN_RETRY_SECONDS if full.own else BUSY_RETRY_SECONDS
        body = render_template("prints/busy.html", asked=asked, waiting=full.waiting,
                               own=full.own, retry=retry)
        return Response(body, 503, headers={"Retry-After": str(retry),
                                            "Cache-Control": "no-store"})
    if isinstance(got, InLine):
        body = render_template("prints/waiting.html", asked=asked, place=got,
                               place_words=place_words(got), refresh=REFRESH_SECONDS)
        return Response(body, 202, headers={"Retry-After": str(REFRESH_SECONDS),
                                            "Cache-Control": "no-store"})
    return got


def preview(answer: Response) -> Response:
    """A print's first page as a PNG; a print that can't be made answers as it would. A print
    in line answers 202 with no picture: the page's script asks again (listbuilder.js), and
    asks first with HEAD, which answers the status without drawing the picture."""
    if answer.status_code == 202:
        return Response("The picture of this print is being made.", 202, mimetype="text/plain",
                        headers={"Retry-After": str(REFRESH_SECONDS),
                                 "Cache-Control": "no-store"})
    if answer.mimetype != "application/pdf":
        return answer
    if request.method == "HEAD":
        return Response(mimetype="image/png", headers={"Cache-Control": "no-store"})
    from listbuilder.printing.preview import first_page_png

    return Response(first_page_png(answer.get_data()), mimetype="image/png",
                    headers={"Cache-Control": "no-store"})
