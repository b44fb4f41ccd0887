"""Property tests over the web app: any edit post and any query string on a roster of any
system gets an answer below 500 with no trace in it, and after each answer the stored roster
is still a file the reader accepts, whose export imports back byte for byte."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import EnvironBuilder, FlaskClient
from fuzzcorpus import catalog_names, form_post, query
from gunicorn.http.wsgi import HEADER_VALUE_RE  # type: ignore[import-untyped]
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from webtools import csrf_of, version_of
from werkzeug.test import TestResponse

from listbuilder.engine.library import Library
from listbuilder.settings import TestConfig
from listbuilder.web import create_app

FUZZ = settings(max_examples=60, deadline=None,
                suppress_health_check=[HealthCheck.too_slow,
                                       HealthCheck.function_scoped_fixture])
STARTS = {"op40k": ["Orks"], "warstuff": ["Fantasy"], "hammerwars": ["Tau"],
          "actionhammer": ["Cobalt Brigade"], "spaceempires": ["Orks"]}


@pytest.fixture(scope="module")
def fuzz_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    tmp = tmp_path_factory.mktemp("fuzz-app")
    (tmp / "none").mkdir()
    app = create_app({**{k: getattr(TestConfig, k) for k in dir(TestConfig) if k.isupper()},
                      "DATABASE_URL": f"sqlite:///{tmp / 'rosters.sqlite3'}",
                      "LISTBUILDER_DATA": str(tmp / "none")}, instance_path=tmp / "instance")
    yield app
    app.extensions["listbuilder.store"].close()


@pytest.fixture(scope="module")
def rosters(fuzz_app: Flask) -> dict[str, tuple[FlaskClient, str]]:
    """One roster per system, each with a client (its session holds the CSRF token)."""
    out = {}
    for system, factions in STARTS.items():
        client = fuzz_app.test_client()
        page = client.get(f"/new/{system}").get_data(as_text=True)
        made = client.post(f"/new/{system}", data={"csrf_token": csrf_of(page), "name": "F",
                                                   "factions": factions})
        out[system] = (client, made.headers["Location"].rsplit("/", 1)[1])
    return out


NAMES = {n.system: n for n in catalog_names(Library(
    custom_dir=Path(__file__).parent / "no-such-folder"))}


def _page_units(page: str) -> list[str]:
    return re.findall(r'name="unit" (?:type="hidden" )?value="([^"]+)"', page)[:40]


def _sendable(response: TestResponse) -> TestResponse:
    """The test client passes any header; gunicorn refuses one beyond Latin-1 with a 500."""
    for name, value in response.headers.items():
        assert HEADER_VALUE_RE.fullmatch(value), (name, value)
    return response


def _still_a_good_file(fuzz_app: Flask, client: FlaskClient, token: str) -> None:
    text = _sendable(client.get(f"/r/{token}/export.yaml")).get_data()
    _sendable(client.get(f"/r/{token}/roster.txt"))
    library = fuzz_app.extensions["listbuilder.library"]
    library.read_roster(text.decode(), "stored.yaml")  # raises if the reader refuses it
    # imported in a browser whose list does not hold it (there it would be named "X (2)")
    other = fuzz_app.test_client()
    page = other.get("/").get_data(as_text=True)
    builder = EnvironBuilder(fuzz_app, path="/import", method="POST", data={
        "csrf_token": csrf_of(page), "file": (io.BytesIO(text), "again.yaml")})
    try:
        again = other.open(builder)
    finally:
        builder.close()
    assert again.status_code == 302, again.get_data(as_text=True)[:2000]
    assert other.get(again.headers["Location"] + "/export.yaml").get_data() == text


# Hypothesis draws only a seed and a system: the posts change the rosters the next examples
# start from, so draws made through the roster's state would differ between replays of the
# same example, which Hypothesis rightly reports as inconsistent data generation.
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


@FUZZ
@given(SEEDS, st.sampled_from(sorted(STARTS)))
def test_any_edit_post_is_answered_below_500_and_keeps_a_good_file(
        fuzz_app: Flask, rosters: dict[str, tuple[FlaskClient, str]], seed: int,
        system: str) -> None:
    rng = random.Random(seed)
    client, token = rosters[system]
    page = client.get(f"/r/{token}").get_data(as_text=True)
    action, data = form_post(rng, NAMES[system], _page_units(page))
    body = {"csrf_token": csrf_of(page), "version": version_of(page), **data}
    response = client.post(f"/r/{token}/{action}", data=body,
                           headers={"HX-Request": "true"} if rng.random() < 0.5 else {})
    assert _sendable(response).status_code < 500, (action, data)
    assert b"Traceback" not in response.get_data()  # a print or preview answers in bytes
    _still_a_good_file(fuzz_app, client, token)


@FUZZ
@given(SEEDS, st.sampled_from(sorted(STARTS)))
def test_any_query_is_answered_below_500(rosters: dict[str, tuple[FlaskClient, str]],
                                          seed: int, system: str) -> None:
    rng = random.Random(seed)
    client, token = rosters[system]
    path, params = query(rng, NAMES[system])
    if path == "/print":
        params["what"] = "sheet"  # keep the property test quick: the sheet is one document
    response = client.get(f"/r/{token}{path}", query_string=params)
    assert _sendable(response).status_code < 500, (path, params)
    assert b"Traceback" not in response.get_data()  # a print or preview answers in bytes
