"""Asking for a print from a request: the web side of the print queue (`listbuilder.jobs`).

A web server never lays a print out. It asks the app's `Printer`, which answers the PDF from
the print cache, or the print's place in line, queueing it as a Huey task if it was not;
`listbuilder worker` processes, on this machine or others, lay it out. The asking client is
counted by its address as the limits see it, kept only as a keyed digest.

Tests run with Flask's test client and no worker: `run_jobs(app)` lays out what is queued in
the test's thread.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable
from typing import cast

from flask import Flask, abort, current_app, has_request_context, request

from listbuilder.jobs.ledger import DOWNLOAD, InLine
from listbuilder.jobs.print_job import PrintJob
from listbuilder.jobs.printer import FailedOnOurSide, Printer


def printer_of(app: Flask) -> Printer:
    return cast(Printer, app.extensions["listbuilder.printer"])


def client_of_request() -> str:
    """The client asking, as the limits count it (its address: the player's own behind the
    proxy settings), as a digest keyed with the app's secret key: the table never holds an
    address, and trying every IPv4 address does not find it without the key. "" outside a
    request (a shell, a test queueing directly)."""
    if not has_request_context():
        return ""
    address = (request.remote_addr or "127.0.0.1").encode("utf-8", "surrogateescape")
    secret = current_app.secret_key or b""
    key = secret.encode("utf-8") if isinstance(secret, str) else bytes(secret)
    return hmac.new(key, b"print-client\0" + address, hashlib.sha256).hexdigest()[:32]


def _nothing() -> None:
    return None


def ask(key: str, job: PrintJob, check: Callable[[], None] = _nothing,
        rank: int = DOWNLOAD) -> bytes | InLine:
    """The PDF of this print if it is made; else its place in line (`Printer.ask`, bounded
    by the app's PRINT_QUEUE and PRINT_QUEUE_PER_CLIENT). A print that failed on our side is
    a 500 in words, and asking again tries again."""
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    try:
        return printer_of(app).ask(
            key, job, rank=rank, client=client_of_request(),
            bound=int(app.config["PRINT_QUEUE"]),
            per_client=int(app.config.get("PRINT_QUEUE_PER_CLIENT") or 0), check=check)
    except FailedOnOurSide:
        abort(500, "This print failed on our side. Reload the page to try again; if it fails "
                   "again, try other options or fewer cards.")


def run_jobs(app: Flask) -> int:
    """Lay out every print in line, in this thread; how many ran (tests, and `flask` shells)."""
    return printer_of(app).run_pending()
