"""Printing through Flask's test client, with no print worker (listbuilder.jobs):
`PrintingClient` answers a print that comes back in line (202)
by running the queue in the test's thread and asking again, as the player's page asks again
by itself, so a test reads the answer a player ends up with: the PDF, or the page saying why
not."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from listbuilder.web.prints.queue import printer_of, run_jobs


class PrintingClient(FlaskClient):
    def open(self, *args: Any, **kwargs: Any) -> TestResponse:
        response = super().open(*args, **kwargs)
        for _ in range(3):  # a print in line; the same address again once the queue ran
            if response.status_code != 202:
                break
            assert response.headers.get("Retry-After")
            run_jobs(self.application)
            response = super().open(*args, **kwargs)
        return response


def printing_client(app: Flask) -> FlaskClient:
    app.test_client_class = PrintingClient
    return app.test_client()


def empty_queue(app: Flask) -> None:
    """No print in line now, in our table or in Huey's queue (the PostgreSQL database the
    tests share keeps Huey's tables between tests)."""
    from sqlalchemy import delete

    from listbuilder.jobs.ledger import JOBS

    with app.extensions["listbuilder.store"].engine.begin() as connection:
        connection.execute(delete(JOBS))
    printer_of(app).huey.flush()


def run_next(app: Flask) -> bool:
    """Take the next task off the queue and run it here, as a worker would; False if the
    queue is empty. Shows a sign of life after, as a worker beats all the while it lays a
    print out: a print of several seconds outlasts prints.ALIVE_SECONDS, after which a page
    says no worker is alive."""
    printer = printer_of(app)
    task = printer.huey.dequeue()
    if task is None:
        return False
    try:
        printer.huey.execute(task)
    finally:
        printer.seen()
    return True


def a_worker_is_alive(app: Flask) -> None:
    """As a worker's beat says (without it, a place in line adds that none is)."""
    printer_of(app).seen()
