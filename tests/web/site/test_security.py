"""Security headers on every answer, no caching of pages behind an edit link, and pages that
keep to the policy (no inline script, style or handlers) so the browser never blocks a part."""

from __future__ import annotations

import logging
import re

import pytest
from flask import Flask, request
from flask.testing import FlaskClient
from webtools import Player, csrf_of

HEADERS = {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


def check_headers(response) -> None:  # type: ignore[no-untyped-def]
    for key, value in HEADERS.items():
        assert response.headers.get(key) == value, key
    policy = response.headers["Content-Security-Policy"]
    parts = dict(p.strip().split(" ", 1) for p in policy.split(";") if p.strip())
    assert parts["script-src"] == "'self'" and parts["style-src"] == "'self'"
    assert parts["frame-ancestors"] == "'none'" and parts["object-src"] == "'none'"
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy


def test_every_kind_of_answer_carries_the_headers(player: Player, client: FlaskClient) -> None:
    player.start("op40k", "Waaagh", ("Orks",), 500)
    share = re.search(r'/s/([\w-]+)', player.html)
    assert share is not None
    answers = [client.get("/"), client.get(f"/r/{player.token}"), client.get(f"/s/{share[1]}"),
               client.get("/nowhere"), client.get(f"/r/{player.token}/export.yaml"),
               client.get("/static/js/htmx.min.js"),
               player.post("entry", index=5, unit="Nobody", count=1)]
    for response in answers:
        check_headers(response)


def test_pages_behind_an_edit_link_are_never_stored(player: Player, client: FlaskClient) -> None:
    player.start("warstuff", "Patrol", (), 150)
    for url in ["/", f"/r/{player.token}", f"/r/{player.token}/export.yaml"]:
        assert client.get(url).headers["Cache-Control"] == "no-store", url
    assert "no-store" not in client.get("/static/css/site.css").headers.get("Cache-Control", "")


def test_pages_keep_to_the_policy(player: Player, client: FlaskClient) -> None:
    # the browser would silently drop any of these under the policy
    for system, faction in [("op40k", "Orks"), ("warstuff", "Fantasy"), ("hammerwars", "Tau"),
                            ("actionhammer", "Cobalt Brigade"), ("spaceempires", "Orks")]:
        player.start(system, "Test", (faction,))
        player.post("add", unit=_first_unit(player.html))
        pages = [player.html, client.get("/").get_data(as_text=True),
                 client.get(f"/new/{system}").get_data(as_text=True),
                 client.get(f"/systems/{system}/print").get_data(as_text=True),
                 client.get(f"/r/{player.token}/resolve", query_string={
                     "attacker": "0:x", "defender": "x"}).get_data(as_text=True)]
        for page in pages:
            assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page), "inline script"
            assert not re.search(r"<style\b", page), "inline style element"
            assert not re.search(r"\sstyle=", page), "style attribute"
            assert not re.search(r"\son[a-z]+=", page), "event handler attribute"
            assert "javascript:" not in page and "hx-on" not in page


def _first_unit(page: str) -> str:
    found = re.search(r'name="unit" type="hidden" value="([^"]+)"', page) or re.search(
        r'name="unit" value="([^"]+)"', page)
    assert found is not None, "no unit to add on the page"
    return found[1]


def test_the_log_line_of_an_unexpected_error_leaves_out_the_token(
        app: Flask, caplog: pytest.LogCaptureFixture) -> None:
    """A 500's log line keeps the trace but not the address: with an edit link in it,
    whoever reads the log could open the roster (the access log hides tokens likewise)."""
    app.config["PROPAGATE_EXCEPTIONS"] = False  # log it as a server does, not raise it

    @app.get("/r/<token>/break-for-test")
    def breaks(token: str) -> str:
        raise RuntimeError("a bug of ours")

    with caplog.at_level(logging.ERROR):
        response = app.test_client().get("/r/Sup3rSecretEditToken/break-for-test")
    assert response.status_code == 500
    assert "a bug of ours" in caplog.text  # the trace is kept for whoever fixes it
    assert "Sup3rSecretEditToken" not in caplog.text


def test_behind_a_tls_proxy_forms_work_cookies_are_secure_and_hsts_is_sent(
        client: FlaskClient) -> None:
    """What nginx sends (docs/deploying.md): X-Forwarded-Proto https, from loopback. Over
    HTTPS Flask-WTF wants a same-origin Referer, which `Referrer-Policy: same-origin` lets the
    browser send; with `no-referrer` every form was refused with 400."""
    proxied = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "198.51.100.7"}
    page = client.get("/new/warstuff", headers=proxied)
    assert page.headers["Strict-Transport-Security"].startswith("max-age=")
    assert "includeSubDomains" not in page.headers["Strict-Transport-Security"]
    assert "Secure" in page.headers["Set-Cookie"] and "HttpOnly" in page.headers["Set-Cookie"]
    form = {"csrf_token": csrf_of(page.get_data(as_text=True)), "name": "Patrol",
            "factions": ["Fantasy"], "points_limit": 150}
    made = client.post("/new/warstuff", data=form,
                       headers={**proxied, "Referer": "https://localhost/new/warstuff"})
    assert made.status_code == 302 and made.headers["Location"].startswith("/r/")
    # the check itself stays: a form over HTTPS from no page, or another site's, is refused
    for referer in ({}, {"Referer": "https://elsewhere.example/new/warstuff"}):
        assert client.post("/new/warstuff", data=form,
                           headers={**proxied, **referer}).status_code == 400


def test_over_plain_http_no_hsts_and_the_cookie_is_not_secure(client: FlaskClient) -> None:
    page = client.get("/new/warstuff")
    assert "Strict-Transport-Security" not in page.headers
    assert "Secure" not in page.headers["Set-Cookie"]


def test_forwarded_headers_are_believed_only_from_the_proxy(app: Flask) -> None:
    @app.get("/_peer")
    def peer() -> str:
        return f"{request.remote_addr} {request.scheme}"

    client = app.test_client()
    forged = {"X-Forwarded-For": "192.0.2.1", "X-Forwarded-Proto": "https"}
    from_proxy = client.get("/_peer", headers=forged)
    assert from_proxy.get_data(as_text=True) == "192.0.2.1 https"
    stranger = client.get("/_peer", headers=forged,
                          environ_base={"REMOTE_ADDR": "203.0.113.9"})
    assert stranger.get_data(as_text=True) == "203.0.113.9 http"
