"""A roster builds with a studio pack: added by its share link, its units listed beside the
built-in ones and priced by it; a newer version shows what it changes before it is used; a
pack whose units are in the roster is not taken off; the exported file carries the pack."""

from __future__ import annotations

import io
import re

import pdfplumber
from flask import Flask
from flask.testing import FlaskClient
from printtools import printing_client
from test_studio import start, textarea
from webtools import Player, csrf_of, version_of

from listbuilder.engine.library import Library
from listbuilder.engine.registry import get_system

AH = get_system("actionhammer")


def share_of(client: FlaskClient, pack_link: str) -> str:
    page = client.get(pack_link).get_data(as_text=True)
    found = re.search(r'id="pack-share-link" class="link" readonly value="([^"]+)"', page)
    assert found is not None
    return found[1]


def new_roster(client: FlaskClient) -> str:
    page = client.get("/new/actionhammer").get_data(as_text=True)
    made = client.post("/new/actionhammer", data={
        "csrf_token": csrf_of(page), "name": "Brigade", "points_limit": "1000",
        "factions": "Cobalt Brigade"})
    assert made.status_code == 302
    return made.headers["Location"]


def add_unit(client: FlaskClient, roster: str, unit: str) -> None:
    player = Player(client)
    player.token = roster.rsplit("/", 1)[1]
    player.get(roster)
    assert player.post("add", unit=unit).status_code == 302


def add_pack(client: FlaskClient, roster: str, link: str) -> str:
    page = client.get(roster + "/packs").get_data(as_text=True)
    answer = client.post(roster + "/packs/add", data={
        "csrf_token": csrf_of(page), "version": str(version_of(page)), "link": link})
    if answer.status_code == 302:
        return client.get(answer.headers["Location"]).get_data(as_text=True)
    return answer.get_data(as_text=True)


def test_a_pack_added_by_its_share_link_builds_beside_the_built_in_units(
        client: FlaskClient) -> None:
    pack = start(client, "actionhammer", "House Brigade")
    roster = new_roster(client)
    page = add_pack(client, roster, share_of(client, pack))
    assert "Saved: Add the pack House Brigade." in page
    assert "None of its units is in this roster yet." in page
    builder = client.get(roster).get_data(as_text=True)
    assert "Faction packs (House Brigade)" in builder
    assert "My Troops" in builder and "Line Troopers" in builder
    # the pack's faction was added to the roster's (ActionHammer allows several)
    add_unit(client, roster, "My Troops")
    exported = client.get(roster + "/export.yaml").get_data(as_text=True)
    assert "- unit: My Troops\n  count: 5\n  pts: 50\n" in exported
    assert "packs:\n- name: House Brigade\n" in exported
    # the file alone reads on a machine that has no studio: the pack travels in it
    loaded = Library().read_roster(exported, "brigade.yaml")
    assert AH.entry_cost(loaded.catalog, loaded.roster, loaded.roster.entries[0]) == 50


def test_a_newer_version_shows_what_it_changes_and_is_used_on_request(
        client: FlaskClient) -> None:
    pack = start(client, "actionhammer", "House Brigade")
    roster = new_roster(client)
    add_pack(client, roster, share_of(client, pack))
    add_unit(client, roster, "My Troops")
    studio = client.get(pack).get_data(as_text=True)
    client.post(pack, data={"csrf_token": csrf_of(studio), "name": "House Brigade",
                            "text": textarea(studio).replace("pts: 10\n", "pts: 11\n"),
                            "pack_version": "1"})
    page = client.get(roster + "/packs").get_data(as_text=True)
    assert "The pack has a newer version (version 2)" in page
    assert "My Troops: 50 pts -&gt; 55 pts" in page
    builder = client.get(roster).get_data(as_text=True)
    assert "50 pts" in builder  # not used until asked
    # the roster's page says so, as it does when the game's data changed
    assert "House Brigade has a newer version (version 2): My Troops: 50 pts -&gt; 55 pts." \
        in builder
    answer = client.post(roster + "/packs/update", data={
        "csrf_token": csrf_of(page), "version": str(version_of(page)), "index": "0"})
    assert answer.status_code == 302
    page = client.get(roster + "/packs").get_data(as_text=True)
    assert "This is the pack&#39;s latest version." in page or \
        "This is the pack's latest version." in page
    assert "- unit: My Troops\n  count: 5\n  pts: 55\n" in \
        client.get(roster + "/export.yaml").get_data(as_text=True)
    builder = client.get(roster).get_data(as_text=True)
    assert "newer version" not in builder and "has changed" not in builder


def test_a_pack_in_use_is_not_taken_off_and_wrong_links_are_explained(
        client: FlaskClient) -> None:
    pack = start(client, "actionhammer", "House Brigade")
    other = start(client, "warstuff", "Pirates")
    roster = new_roster(client)
    said = add_pack(client, roster, share_of(client, other))
    assert "Pirates is a pack for another game; this roster is ActionHammer." in said
    said = add_pack(client, roster, "https://example.org/studio/s/nothing-here-at-all")
    assert "No pack has this share link." in said
    add_pack(client, roster, share_of(client, pack))
    said = add_pack(client, roster, share_of(client, pack))
    assert "House Brigade is in this roster already" in said
    add_unit(client, roster, "My Troops")
    page = client.get(roster + "/packs").get_data(as_text=True)
    refused = client.post(roster + "/packs/remove", data={
        "csrf_token": csrf_of(page), "version": str(version_of(page)), "index": "0"})
    assert refused.status_code == 422
    assert "the roster has its units My Troops. Remove them first." in \
        refused.get_data(as_text=True)
    # a stale page is refused, not applied over newer work
    stale = client.post(roster + "/packs/remove", data={
        "csrf_token": csrf_of(page), "version": "1", "index": "0"})
    assert stale.status_code == 409


def test_a_pack_with_problems_is_not_added(client: FlaskClient) -> None:
    pack = start(client, "actionhammer", "House Brigade")
    studio = client.get(pack).get_data(as_text=True)
    client.post(pack, data={"csrf_token": csrf_of(studio), "name": "House Brigade",
                            "text": textarea(studio).replace("save: 5", "save: 9"),
                            "pack_version": "1"})
    roster = new_roster(client)
    said = add_pack(client, roster, share_of(client, pack))
    assert "Not saved: the pack does not load" in said
    assert "datasheets[1].save: must be 2 to 6, got 9" in said


def test_a_roster_with_a_pack_prints_its_units_from_the_browser(app: Flask) -> None:
    """The print is laid out in another process from the roster's text alone: the pack
    travels in it."""
    client = printing_client(app)
    pack = start(client, "actionhammer", "House Brigade")
    roster = new_roster(client)
    add_pack(client, roster, share_of(client, pack))
    add_unit(client, roster, "My Troops")
    pdf = client.get(roster + "/print?what=cards")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    with pdfplumber.open(io.BytesIO(pdf.data)) as document:
        words = " ".join(page.extract_text() or "" for page in document.pages)
    assert "My Troops" in words and "Rifle" in words


def test_adding_a_pack_is_undone_and_redone_like_any_change(client: FlaskClient) -> None:
    pack = start(client, "actionhammer", "House Brigade")
    roster = new_roster(client)
    add_pack(client, roster, share_of(client, pack))
    player = Player(client)
    player.token = roster.rsplit("/", 1)[1]
    player.get(roster)
    assert "Undo: Add the pack House Brigade" in player.html
    answer = player.post("undo", htmx=True)
    assert answer.status_code == 200
    assert "My Troops" not in answer.get_data(as_text=True)  # drawn with the pack gone
    assert "packs:" not in client.get(roster + "/export.yaml").get_data(as_text=True)
    player.get(roster)
    answer = player.post("redo", htmx=True)
    assert "My Troops" in answer.get_data(as_text=True)
    assert "packs:" in client.get(roster + "/export.yaml").get_data(as_text=True)
