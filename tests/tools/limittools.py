"""Counting what the rate limits let through: a client at an address of its own, a roster
created, the rosters stored, and a refusal's page."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import text
from webtools import csrf_of

from listbuilder.store.rosters import RosterStore


def client_at(app: Flask, address: str = "192.0.2.1") -> FlaskClient:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def create(client: FlaskClient, name: str = "Waaagh", htmx: bool = False) -> Any:
    page = client.get("/new/op40k").get_data(as_text=True)
    return client.post("/new/op40k", data={"csrf_token": csrf_of(page), "name": name,
                                           "factions": ["Orks"]},
                       headers={"HX-Request": "true"} if htmx else {})


def rosters(app: Flask) -> int:
    store: RosterStore = app.extensions["listbuilder.store"]
    with store.engine.connect() as connection:
        return int(connection.execute(text("SELECT count(*) FROM rosters")).scalar_one())


def assert_refused(response: Any, title: str, amount: int, per: str = "a minute") -> None:
    page = response.get_data(as_text=True)
    assert response.status_code == 429
    assert f"<h1>{title}</h1>" in page and '<main id="main">' in page
    assert f"at most {amount} " in page and f" {per}," in page
    assert "Nothing was changed. Try again in " in page
    assert "Traceback" not in page
    assert 1 <= int(response.headers["Retry-After"]) <= 60


