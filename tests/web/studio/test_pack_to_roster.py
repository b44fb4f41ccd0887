"""Issue 38: "Start a new roster with this pack" from a pack's page. A POST with the page's
CSRF token makes a roster of the pack's game with the saved version of the pack on it, as a
roster started on the home page and given the pack on its Faction packs page would be, and
opens it in the builder; it is limited as a new roster; a GET changes nothing."""

from __future__ import annotations

import re
from collections.abc import Callable

import yaml
from flask import Flask
from flask.testing import FlaskClient
from limittools import assert_refused, client_at, create, rosters
from studiotools import start, textarea
from test_roster_packs import add_pack, new_roster, share_of
from webtools import csrf_of

BUTTON = "Start a new roster with this pack"


def use_form(page: str) -> tuple[str, str]:
    """The pack page's form: where it posts, and its button's words with the help beside."""
    found = re.search(r'<form method="post" action="([^"]+)" class="pack-use">(.*?)</form>',
                      page, re.S)
    assert found is not None, "no Start a roster form"
    return found[1], re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found[2]))


def test_a_pack_page_starts_a_roster_with_the_pack(client: FlaskClient) -> None:
    pack = start(client, "actionhammer", "House Brigade")
    page = client.get(pack).get_data(as_text=True)
    action, words = use_form(page)
    share = share_of(client, pack).rsplit("/", 1)[1]
    assert action == f"/studio/s/{share}/roster"
    assert BUTTON in words  # the button says what it does, and the help the rest
    assert ("A new ActionHammer roster named House Brigade, with version 1 of this pack (as "
            "saved) on it, opens in the builder; your other rosters stay as they are.") in words
    # a GET of the address changes nothing (it has no GET at all)
    assert client.get(action).status_code == 405
    assert client.post(action, data={}).status_code == 400  # no CSRF token: nothing made
    made = client.post(action, data={"csrf_token": csrf_of(page)})
    assert made.status_code == 302 and made.headers["Location"].startswith("/r/")
    roster = made.headers["Location"]
    saved = yaml.safe_load(client.get(roster + "/export.yaml").get_data(as_text=True))
    assert saved["name"] == "House Brigade" and saved["points_limit"] == 2000
    assert saved["factions"] == ["My Faction"]
    assert [p["name"] for p in saved["packs"]] == ["House Brigade"]
    assert saved["packs"][0]["link"].endswith(f"/studio/s/{share}")
    builder = client.get(roster).get_data(as_text=True)
    assert "Faction packs (House Brigade)" in builder
    assert 'aria-label="Add My Troops"' in builder or "Add My Troops" in builder
    assert "House Brigade" in client.get("/").get_data(as_text=True)  # on this browser's list


def test_the_same_roster_as_adding_the_pack_by_its_link(client: FlaskClient) -> None:
    """One path: the roster made from the pack's page carries the pack as the Faction packs
    page adds it."""
    pack = start(client, "actionhammer", "House Brigade")
    share = share_of(client, pack)
    by_link = new_roster(client)
    add_pack(client, by_link, share)
    page = client.get(pack).get_data(as_text=True)
    made = client.post(use_form(page)[0], data={"csrf_token": csrf_of(page)})
    ours = yaml.safe_load(client.get(made.headers["Location"] + "/export.yaml").get_data(
        as_text=True))
    theirs = yaml.safe_load(client.get(by_link + "/export.yaml").get_data(as_text=True))
    assert ours["packs"] == theirs["packs"]


def test_the_shared_page_offers_it_too_and_space_empires_gets_a_draw(
        client: FlaskClient) -> None:
    pack = start(client, "spaceempires", "Void Kin")
    shared = client.get(share_of(client, pack)).get_data(as_text=True)
    action, words = use_form(shared)
    assert BUTTON in words
    made = client.post(action, data={"csrf_token": csrf_of(shared)})
    assert made.status_code == 302
    saved = yaml.safe_load(client.get(made.headers["Location"] + "/export.yaml").get_data(
        as_text=True))
    assert isinstance(saved["choices"]["seed"], int) and "points_limit" not in saved
    assert saved["factions"] == ["My Faction"]  # the pack's one faction: one a roster


def test_a_saved_version_with_problems_starts_no_roster(client: FlaskClient) -> None:
    pack = start(client, "actionhammer", "House Brigade")
    page = client.get(pack).get_data(as_text=True)
    action = use_form(page)[0]
    client.post(pack, data={"csrf_token": csrf_of(page), "name": "House Brigade",
                            "text": textarea(page).replace("save: 5", "save: 9"),
                            "pack_version": "1"})
    broken = client.get(pack).get_data(as_text=True)
    assert f'action="{action}"' not in broken and BUTTON not in broken
    assert "A roster can use this pack once its saved version has no problems" in broken
    refused = client.post(action, data={"csrf_token": csrf_of(broken)})
    assert refused.status_code == 422
    assert "has problems to fix first" in refused.get_data(as_text=True)
    assert rosters(client.application) == 0


def test_starting_a_roster_from_a_pack_counts_as_a_new_roster(
        make_app: Callable[..., Flask]) -> None:
    app = make_app(LIMIT_CREATE="2 per minute")
    client = client_at(app)
    pack = start(client, "op40k", "Club Pack")  # a new pack: the first creation
    page = client.get(pack).get_data(as_text=True)
    action = use_form(page)[0]
    assert client.post(action, data={"csrf_token": csrf_of(page)}).status_code == 302
    assert_refused(client.post(action, data={"csrf_token": csrf_of(page)}),
                   "Too many new rosters", 2)
    assert_refused(create(client), "Too many new rosters", 2)  # one count with /new
