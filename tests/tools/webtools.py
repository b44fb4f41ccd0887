"""Helpers for the web tests: a player driving the builder through the test client."""

from __future__ import annotations

import io
import re

from flask.testing import EnvironBuilder, FlaskClient


def csrf_of(html: str) -> str:
    found = re.search(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"', html)
    if found is None:
        found = re.search(r'id="csrf_token" name="csrf_token" type="hidden" value="([^"]+)"', html)
    assert found is not None, "no CSRF token on the page"
    return found[1]


def version_of(html: str) -> int:
    found = re.search(r'name="version" value="(\d+)"', html)
    if found is None:
        found = re.search(r'id="version" name="version" type="hidden" value="(\d+)"', html)
    assert found is not None, "no version on the page"
    return int(found[1])


class Player:
    """Drives the builder through the test client like a browser without JavaScript: reads
    the CSRF token and the version off the last page and posts forms."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.html = ""
        self.token = ""

    def get(self, url: str, **kwargs: object):  # type: ignore[no-untyped-def]
        response = self.client.get(url, **kwargs)
        self.html = response.get_data(as_text=True)
        return response

    def start(self, system: str, name: str = "Test roster", factions: tuple[str, ...] = (),
              points_limit: int | None = None) -> str:
        self.get(f"/new/{system}")
        data: dict[str, object] = {"csrf_token": csrf_of(self.html), "name": name,
                                   "factions": list(factions)}
        if points_limit is not None:
            data["points_limit"] = points_limit
        response = self.client.post(f"/new/{system}", data=data)
        assert response.status_code == 302, response.get_data(as_text=True)
        self.token = response.headers["Location"].rsplit("/", 1)[1]
        self.get(f"/r/{self.token}")
        return self.token

    def post(self, action: str, htmx: bool = False, **data: object):  # type: ignore[no-untyped-def]
        body: dict[str, object] = {"csrf_token": csrf_of(self.html),
                                   "version": version_of(self.html), **data}
        headers = {"HX-Request": "true"} if htmx else {}
        response = self.client.post(f"/r/{self.token}/{action}", data=body, headers=headers)
        if response.status_code == 302:
            self.get(response.headers["Location"])
        else:
            self.html = response.get_data(as_text=True)
        return response

    def saved_text(self) -> str:
        return self.client.get(f"/r/{self.token}/export.yaml").get_data(as_text=True)




def upload(client: FlaskClient, data: bytes, name: str = "mine.yaml",
           url: str = "/import", **fields: object):  # type: ignore[no-untyped-def]
    page = client.get("/").get_data(as_text=True)
    body = {"csrf_token": csrf_of(page), "file": (io.BytesIO(data), name), **fields}
    # built by hand so its spooled body file is closed even when the app never reads it
    builder = EnvironBuilder(client.application, path=url, method="POST", data=body)
    try:
        return client.open(builder)
    finally:
        builder.close()


