"""A roster builds with a studio pack: added by its share link, its units listed beside the
built-in ones and priced by it; a newer version shows what it changes before it is used; a
pack whose units are in the roster is not taken off; the exported file carries the pack."""

from __future__ import annotations

import html
import io
import re

import pdfplumber
import pytest
from flask import Flask
from flask.testing import FlaskClient
from printtools import printing_client
from studiotools import delete_pack, start, textarea
from webtools import Player, csrf_of, version_of

from listbuilder.engine.library import Library
from listbuilder.engine.registry import get_system
from listbuilder.engine.report import report
from listbuilder.engine.resolve import quick_resolve, side_from_entry

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


def troops_in_a_roster(client: FlaskClient, next_version: tuple[str, str]) -> str:
    """A roster fielding the starter pack's My Troops; the pack then saves a second version
    with `next_version`'s first text replaced by its second. Returns the roster's address."""
    pack = start(client, "actionhammer", "House Brigade")
    roster = new_roster(client)
    add_pack(client, roster, share_of(client, pack))
    add_unit(client, roster, "My Troops")
    studio = client.get(pack).get_data(as_text=True)
    saved = client.post(pack, data={"csrf_token": csrf_of(studio), "name": "House Brigade",
                                    "text": textarea(studio).replace(*next_version),
                                    "pack_version": "1"})
    assert saved.status_code == 302
    return roster


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
    assert AH.priced(loaded.catalog, loaded.roster, [loaded.roster.entries[0]])[0].cost == 50


def test_a_newer_version_shows_what_it_changes_and_is_used_on_request(
        client: FlaskClient) -> None:
    roster = troops_in_a_roster(client, next_version=("pts: 10\n", "pts: 11\n"))
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


@pytest.mark.print
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


def test_a_target_from_a_roster_with_its_own_pack_is_found_in_that_rosters_catalog(
        client: FlaskClient) -> None:
    """Quick-resolve against another player's roster reads that roster's packs: the unit is
    found and fought, though the attacker's roster has no pack."""
    pack = start(client, "actionhammer", "House Brigade")
    theirs = new_roster(client)
    add_pack(client, theirs, share_of(client, pack))
    add_unit(client, theirs, "My Troops")
    page = client.get(theirs).get_data(as_text=True)
    link = re.search(r'id="share-link"[^>]*value="([^"]+)"', page)
    assert link is not None, "the roster page shows its share link"
    mine = new_roster(client)
    add_unit(client, mine, "Line Troopers")
    answer = client.get(mine + "/resolve", query_string={
        "a1": "0:Line Troopers", "source": "roster", "link": link[1], "te": "0:My Troops"})
    said = answer.get_data(as_text=True)
    assert answer.status_code == 200, said[said.find('class="error"'):][:400]
    assert '<option value="0:My Troops" selected>5x My Troops</option>' in said
    # the same fight as the engine works out from the two exported files
    library = Library()
    attacker = library.read_roster(client.get(mine + "/export.yaml").get_data(as_text=True),
                                   "mine.yaml")
    target = library.read_roster(client.get(theirs + "/export.yaml").get_data(as_text=True),
                                 "theirs.yaml")
    expected = quick_resolve(AH, attacker.catalog,
                             side_from_entry(AH, attacker.catalog, attacker.roster, 0),
                             side_from_entry(AH, target.catalog, target.roster, 0))
    summaries = re.findall(r'<p class="rs-summary">([^<]*)</p>', said)
    assert [html.unescape(s) for s in summaries] == [expected.summary]


def test_a_newer_version_that_changes_none_of_the_rosters_units_says_so_in_a_sentence(
        client: FlaskClient) -> None:
    # the Leader changes, and the roster fields only Troops
    roster = troops_in_a_roster(client, next_version=("pts: 60\n", "pts: 65\n"))
    said = "House Brigade has a newer version (version 2); it changes none of this " \
           "roster&#39;s units."
    assert said in client.get(roster).get_data(as_text=True)
    page = client.get(roster + "/packs").get_data(as_text=True)
    assert "(version 2); it changes none of this roster's units.</p>" in page
    assert "What it changes here" not in page


@pytest.mark.print
def test_a_roster_keeps_working_after_its_pack_is_deleted(app: Flask) -> None:
    """The roster carries the pack whole: it opens, checks, exports and prints as before, and
    its packs page says the pack's studio page is gone instead of failing."""

    client = printing_client(app)
    pack = start(client, "actionhammer", "House Brigade")
    roster = new_roster(client)
    add_pack(client, roster, share_of(client, pack))
    add_unit(client, roster, "My Troops")
    before = client.get(roster + "/export.yaml").get_data(as_text=True)
    delete_pack(client, pack)

    builder = client.get(roster)
    assert builder.status_code == 200
    page = builder.get_data(as_text=True)
    assert "My Troops" in page and "50 pts" in page and "newer version" not in page
    exported = client.get(roster + "/export.yaml").get_data(as_text=True)
    assert exported == before
    loaded = Library().read_roster(exported, "brigade.yaml")
    assert AH.priced(loaded.catalog, loaded.roster, [loaded.roster.entries[0]])[0].cost == 50
    was = Library().read_roster(before, "before.yaml")
    assert (report(AH, loaded.catalog, loaded.roster).violations
            == report(AH, was.catalog, was.roster).violations)
    pdf = client.get(roster + "/print?what=cards")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    with pdfplumber.open(io.BytesIO(pdf.data)) as document:
        assert "My Troops" in " ".join(p.extract_text() or "" for p in document.pages)

    packs = client.get(roster + "/packs")
    said = packs.get_data(as_text=True)
    assert packs.status_code == 200
    assert "The pack's studio page is gone: its owner deleted the pack" in said
    assert "the pack's page</a>" not in said  # no link to a page that is gone
    # taking it off still works (its units first): the roster needs nothing from the studio
    refused = client.post(roster + "/packs/remove", data={
        "csrf_token": csrf_of(said), "version": str(version_of(said)), "index": "0"})
    assert refused.status_code == 422 and "Remove them first" in refused.get_data(as_text=True)


def test_a_file_carrying_a_pack_replaces_a_roster_that_lacks_it(client: FlaskClient) -> None:
    """Import a file into an open roster: the file's own pack comes with it, so its units
    are found (they used to be looked up in the open roster's catalog, and refused)."""
    pack = start(client, "actionhammer", "House Brigade")
    with_pack = new_roster(client)
    add_pack(client, with_pack, share_of(client, pack))
    add_unit(client, with_pack, "My Troops")
    exported = client.get(with_pack + "/export.yaml").get_data()
    plain = new_roster(client)
    page = client.get(plain).get_data(as_text=True)
    answer = client.post(plain + "/import", data={
        "csrf_token": csrf_of(page), "version": str(version_of(page)),
        "file": (io.BytesIO(exported), "brigade.yaml")}, content_type="multipart/form-data")
    assert answer.status_code == 302, answer.get_data(as_text=True)
    replaced = client.get(plain + "/export.yaml").get_data(as_text=True)
    assert "- unit: My Troops\n" in replaced and "packs:\n- name: House Brigade\n" in replaced
    assert "My Troops" in client.get(plain).get_data(as_text=True)
