"""Printing through Flask's test client, which is no server and so runs no print runner
(listbuilder.web.prints.queue): `PrintingClient` answers a print that comes back in line (202)
by running the queue in the test's thread and asking again, as the player's page asks again
by itself, so a test reads the answer a player ends up with: the PDF, or the page saying why
not."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from listbuilder.web.prints.queue import run_jobs


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
    """No job in the queue now (the PostgreSQL database the tests share is emptied of jobs
    before each test as well)."""
    from sqlalchemy import delete

    from listbuilder.web.prints.queue import JOBS

    with app.extensions["listbuilder.store"].engine.begin() as connection:
        connection.execute(delete(JOBS))
