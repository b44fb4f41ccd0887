"""Hostile input never takes the server down: nested and huge files, numbers of any length in
every form field and query, hand-made posts. Each gets a page in players' words (4xx), nothing
stored changes, and what is stored always exports to a file that imports back."""

from __future__ import annotations

import html
import urllib.parse

import pytest
import yaml
from flask.testing import FlaskClient
from gunicorn.http.wsgi import HEADER_VALUE_RE  # type: ignore[import-untyped]
from webtools import Player, upload

DEEP = ("format: 1\nsystem: op40k\nname: x\nentries: " + "[" * 50_000 + "]" * 50_000 + "\n"
        ).encode()
HUGE = "9" * 400  # float() of this overflows; int() of 5,000 digits raises
HUGER = "9" * 5000


def test_a_deeply_nested_upload_is_refused_on_the_home_page(client: FlaskClient) -> None:
    response = upload(client, DEEP, "deep.yaml")
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "deep.yaml:4: entries[0][0]" in page and "nested more than 20 levels deep" in page
    assert "/r/" not in client.get("/").get_data(as_text=True)  # nothing was created


def test_a_deeply_nested_upload_leaves_the_roster_as_it_was(player: Player,
                                                            client: FlaskClient) -> None:
    player.start("op40k", "Waaagh", ("Orks",), 500)
    player.post("add", unit="Ork Boyz")
    before = player.saved_text()
    response = upload(client, DEEP, "deep.yaml", url=f"/r/{player.token}/import", version=2)
    assert response.status_code == 422
    assert "nested more than 20 levels deep" in response.get_data(as_text=True)
    assert player.saved_text() == before


@pytest.mark.parametrize("body", [
    b"format: 1\nsystem: op40k\nname: x\npoints_limit: " + HUGER.encode() + b"\n",
    b"format: 1\nsystem: op40k\nname: x\ndata_revision: 2020-13-45\n",
    b"format: 1\nsystem: op40k\nname: x\nentries: [{unit: Nob, count: 1e999}]\n",
    b"a: &a [1,1,1,1,1,1,1,1,1,1]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
    b"c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
    b"e: [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d,*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\n",
    b"!!python/object/apply:os.system ['true']\n",
    b"\x00\x01binary",
])
def test_hostile_files_are_422_pages_with_the_file_named(client: FlaskClient,
                                                         body: bytes) -> None:
    response = upload(client, body, "evil.yaml")
    page = response.get_data(as_text=True)
    assert response.status_code == 422, page
    assert "evil.yaml" in page and "Traceback" not in page


NUMBERS = [HUGE, HUGER, "-" + HUGE, "1e999", "١٢٣", "12.5", "0x10", "nan", "inf"]


@pytest.mark.parametrize("value", NUMBERS)
def test_numbers_of_any_shape_in_every_form_field_are_refused_not_500(
        player: Player, client: FlaskClient, value: str) -> None:
    player.start("spaceempires", "Empire", ("Orks",))
    before = player.saved_text()
    posts = [
        ("settings", {"name": "E", "factions": "Orks", "points_limit": value}),
        ("choices", {"seed": value, "treasury": value}),
        ("entry", {"index": value, "unit": "x", "count": value}),
        ("move", {"index": 0, "unit": "x", "step": value}),
        ("reorder", {"index": value, "unit": "x", "to": value}),
        ("duplicate-entry", {"index": value, "unit": "x"}),
        ("remove", {"index": value, "unit": "x"}),
        ("join", {"index": 0, "unit": "x", "target": f"{value}:x"}),
    ]
    for action, data in posts:
        response = player.post(action, **data)
        assert response.status_code in (400, 409, 422), (action, response.status_code)
        player.get(f"/r/{player.token}")
    response = client.post(f"/r/{player.token}/add", data={"unit": "x", "version": value})
    assert response.status_code == 400  # no CSRF token, and a version that can't be read
    assert player.saved_text() == before


@pytest.mark.parametrize("value", NUMBERS)
def test_numbers_of_any_shape_in_queries_are_not_500(player: Player, client: FlaskClient,
                                                     value: str) -> None:
    player.start("warstuff", "Patrol", (), 150)
    for url, query in [(f"/r/{player.token}", {"max_cost": value}),
                       (f"/r/{player.token}/design-cost", {"quality": value, "name": "X"}),
                       ("/new/warstuff", {"points_limit": value})]:
        response = client.get(url, query_string=query)
        assert response.status_code < 500, (url, response.status_code)
    response = player.post("design", name="Ranger", quality=value, rules=[])
    assert response.status_code == 422


def test_a_crafted_upgrade_is_refused_and_what_is_stored_still_imports(
        player: Player, client: FlaskClient) -> None:
    player.start("op40k", "Waaagh", ("Orks",), 500)
    player.post("add", unit="Ork Boyz")
    before = player.saved_text()
    response = player.post("entry", index=0, unit="Ork Boyz", count=15,
                           upgrades=["Orbital Laser"])
    assert response.status_code == 422
    assert "Ork Boyz has no upgrade 'Orbital Laser'" in html.unescape(player.html)
    assert player.saved_text() == before
    # the stored roster is a file its own import takes back, byte for byte (in a browser
    # whose list has no "Waaagh" yet: there an import would be named "Waaagh (2)")
    other = client.application.test_client()
    again = upload(other, before.encode(), "again.yaml")
    assert again.status_code == 302
    assert other.get(again.headers["Location"] + "/export.yaml").get_data(
        as_text=True) == before


def test_a_crafted_special_rule_in_a_design_is_refused(player: Player) -> None:
    player.start("warstuff", "Patrol", ("Fantasy",), 150)
    before = player.saved_text()
    response = player.post("design", name="Ranger", quality=3, rules=["Laser Eyes"])
    assert response.status_code == 422
    assert "unknown special rule 'Laser Eyes'" in html.unescape(player.html)
    assert player.saved_text() == before


def test_a_hammer_wars_roster_without_its_goal_exports_and_imports_back(
        player: Player, client: FlaskClient) -> None:
    player.start("hammerwars", "Host", ("Tau",))
    saved = player.saved_text()
    assert "goal" not in (yaml.safe_load(saved).get("choices") or {})
    other = client.application.test_client()  # a browser without "Host" on its list
    again = upload(other, saved.encode(), "host.yaml")
    assert again.status_code == 302
    assert other.get(again.headers["Location"] + "/export.yaml").get_data(
        as_text=True) == saved


@pytest.mark.parametrize("name", ["Ωrks of Ψ", "ワーグ", "Ærø Host", "a\u200bb"])
def test_downloads_of_a_roster_named_in_any_script_carry_headers_a_server_can_send(
        player: Player, client: FlaskClient, name: str) -> None:
    """gunicorn refuses a header beyond Latin-1 (found by benchmarks/fuzz.py: the export
    answered 500 for a roster named in Greek): the plain file name is ASCII, and the name itself
    travels percent-encoded in filename* (RFC 6266)."""
    player.start("warstuff", name, ("Fantasy",), 150)
    for address, kind, suffix in [("export.yaml", "attachment", ".yaml"),
                                  ("roster.txt", "inline", ".txt")]:
        response = client.get(f"/r/{player.token}/{address}")
        assert response.status_code == 200
        value = response.headers["Content-Disposition"]
        assert HEADER_VALUE_RE.fullmatch(value), value
        assert value.startswith(f'{kind}; filename="')
        encoded = value.split("filename*=UTF-8''", 1)[1]
        assert urllib.parse.unquote(encoded).endswith(suffix)
        assert urllib.parse.unquote(encoded).removesuffix(suffix) == "".join(
            c if c.isalnum() else "-" for c in name).strip("-")
