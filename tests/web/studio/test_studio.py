"""The faction studio through the test client: start, check as typed, save with versions,
export in the data folder's format, import by hand-written file, share read-only; bad input
answered on the page, never lost, never executed."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pdfplumber
import pytest
from flask import Flask
from flask.testing import FlaskClient
from studiotools import delete_pack, pack_version, start, textarea
from webtools import csrf_of

from listbuilder.engine.catalog import load_catalog
from listbuilder.engine.registry import get_system


def test_a_new_pack_starts_from_the_games_starter_and_shows_its_units_and_costs(
        client: FlaskClient) -> None:
    link = start(client)
    page = client.get(link).get_data(as_text=True)
    assert textarea(page) == get_system("actionhammer").pack_starter()
    assert "No problems" in page
    assert "adds 1 faction (My Faction) and 2 units" in page
    # each unit's cost at its usual size, as the game prices it: 5 troopers at 10 pts
    assert re.search(r"My Troops</a></th><td>My Faction</td><td>50 pts</td>", page)
    assert 'id="unit-my-leader"' in page and "Heavy Armour (+10)" in page
    assert "/studio" in client.get("/studio").get_data(as_text=True)
    assert "House Brigade" in client.get("/studio").get_data(as_text=True)  # remembered


def test_the_live_check_names_line_key_and_fix_in_the_loaders_words(client: FlaskClient) -> None:
    link = start(client)
    page = client.get(link).get_data(as_text=True)
    text = textarea(page).replace("    save: 5\n", "    save: 9\n")
    answer = client.post(link + "/check", data={"csrf_token": csrf_of(page), "name": "House",
                                                "text": text, "pack_version": "1"})
    said = answer.get_data(as_text=True)
    assert answer.status_code == 200 and "1 problem to fix" in said
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "save: 9" in row)
    assert f"house.yaml:{line}: datasheets[1].save:" in said
    assert "<script" not in said and 'id="pack-check"' in said


def test_saves_keep_every_version_and_a_stale_save_keeps_the_players_text(
        client: FlaskClient) -> None:
    link = start(client)
    page = client.get(link).get_data(as_text=True)
    token = csrf_of(page)
    changed = textarea(page).replace("pts: 10\n", "pts: 11\n")
    saved = client.post(link, data={"csrf_token": token, "name": "House Brigade",
                                    "text": changed, "pack_version": "1"})
    assert saved.status_code == 302 and saved.headers["Location"].endswith("saved=2")
    page = client.get(link).get_data(as_text=True)
    assert textarea(page) == changed and "55 pts" in page
    revisions = re.findall(r"/revision/([0-9a-f]{12})\.yaml", page)
    assert len(revisions) == 2
    first = client.get(f"{link}/revision/{revisions[1]}.yaml").get_data(as_text=True)
    assert first == get_system("actionhammer").pack_starter()
    # a second tab still at version 1
    mine = changed.replace("My Troops", "Our Troops")
    stale = client.post(link, data={"csrf_token": token, "name": "House Brigade",
                                    "text": mine, "pack_version": "1"})
    answer = stale.get_data(as_text=True)
    assert stale.status_code == 409 and "saved elsewhere" in answer
    assert textarea(answer) == mine and pack_version(answer) == 2  # saving again replaces it
    again = client.post(link, data={"csrf_token": token, "name": "House Brigade",
                                    "text": mine, "pack_version": "2"})
    assert again.status_code == 302


def test_an_exported_pack_loads_unchanged_from_a_hosts_data_folder(
        client: FlaskClient, tmp_path: Path) -> None:
    link = start(client, "spaceempires", "Void Kin")
    exported = client.get(link + "/export.yaml")
    assert exported.headers["Content-Disposition"] == 'attachment; filename="void-kin.yaml"'
    folder = tmp_path / "data" / "spaceempires"
    folder.mkdir(parents=True)
    (folder / "void-kin.yaml").write_bytes(exported.data)
    loaded = load_catalog(get_system("spaceempires"), custom_dir=tmp_path / "data")
    assert not loaded.problems
    unit = loaded.catalog.find_unit("My Fleet")
    assert unit is not None and unit.origin.custom


def test_a_hand_written_file_imports_and_its_problems_are_listed_not_lost(
        client: FlaskClient) -> None:
    page = client.get("/studio").get_data(as_text=True)
    text = "genres:\n  - name: Pirates\nunits:\n  - {name: Corsair, genre: Pirates, quality: 7}\n"
    response = client.post("/studio/import", data={
        "csrf_token": csrf_of(page), "import-system": "warstuff",
        "import-file": (io.BytesIO(text.encode()), "sea_dogs.yaml")},
        content_type="multipart/form-data")
    assert response.status_code == 302
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert textarea(page) == text and "Sea dogs" in page
    assert "2 problems to fix" in page
    assert "sea-dogs.yaml:4: units[0].quality: must be 1 to 5, got 7" in page
    assert "sea-dogs.yaml:2: genres[0].text: required key is missing: add it" in page


def test_bad_files_and_forms_are_answered_on_the_page(client: FlaskClient) -> None:
    page = client.get("/studio").get_data(as_text=True)
    token = csrf_of(page)
    latin = client.post("/studio/import", data={
        "csrf_token": token, "import-system": "op40k",
        "import-file": (io.BytesIO("name: caf\xe9".encode("latin-1")), "old.yaml")},
        content_type="multipart/form-data")
    assert latin.status_code == 422
    assert "old.yaml: not UTF-8 text: save it as UTF-8" in latin.get_data(as_text=True)
    nameless = client.post("/studio/new", data={"csrf_token": token, "system": "op40k",
                                                "name": ""})
    assert nameless.status_code == 422 and 'class="error"' in nameless.get_data(as_text=True)
    unknown = client.post("/studio/new", data={"csrf_token": token, "system": "chess",
                                               "name": "X"})
    assert unknown.status_code == 422
    assert client.get("/studio/p/not-a-token").status_code == 404
    assert client.get("/studio/s/not-a-token").status_code == 404


def test_pack_text_is_escaped_everywhere_it_is_shown(client: FlaskClient) -> None:
    link = start(client, "warstuff", "Mine")
    page = client.get(link).get_data(as_text=True)
    hostile = get_system("warstuff").pack_starter().replace(
        "My Warrior", "<script>alert(1)</script>")
    client.post(link, data={"csrf_token": csrf_of(page), "name": "<b>Mine</b>",
                            "text": hostile, "pack_version": "1"})
    for shown in (client.get(link), client.get(re.sub(r"/p/.*", "", link))):
        body = shown.get_data(as_text=True)
        assert "<script>alert" not in body and "<b>Mine" not in body
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in client.get(link).get_data(as_text=True)


def test_the_share_link_shows_the_pack_read_only(client: FlaskClient) -> None:
    link = start(client, "op40k", "Feral Orks")
    page = client.get(link).get_data(as_text=True)
    share = re.search(r'id="pack-share-link" class="link" readonly value="([^"]+)"', page)
    assert share is not None
    stranger = client.application.test_client()
    shared = stranger.get(share[1])
    body = shared.get_data(as_text=True)
    assert shared.status_code == 200 and "My Squad" in body and "<textarea" not in body
    assert stranger.get(share[1] + "/export.yaml").data == \
        get_system("op40k").pack_starter().encode()
    edit = re.search(r"/studio/p/([^/\"]+)", link)
    assert edit is not None and edit[1] not in body  # the edit link is not given away


@pytest.mark.print
def test_the_packs_cards_print_as_a_roster_of_its_units_would(app: Flask) -> None:
    from printtools import printing_client

    client = printing_client(app)
    link = start(client, "actionhammer", "House Brigade")
    pdf = client.get(link + "/cards")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    with pdfplumber.open(io.BytesIO(pdf.data)) as document:
        words = " ".join(page.extract_text() or "" for page in document.pages)
    assert "My Leader" in words and "My Troops" in words and "Sidearm" in words
    picture = client.get(link + "/cards/preview.png")
    assert picture.status_code == 200 and picture.data.startswith(b"\x89PNG")
    page = client.get(link).get_data(as_text=True)
    assert f'href="{link.split("localhost")[-1]}/cards"' in page
    # a pack with problems has no cards to print, and says why
    client.post(link, data={"csrf_token": csrf_of(page), "name": "House Brigade",
                            "text": "datasheets: 3\n", "pack_version": "1"})
    refused = client.get(link + "/cards")
    assert refused.status_code == 422 and "its page lists what to fix" in \
        refused.get_data(as_text=True)


def test_a_shared_pack_is_copied_to_ones_own_and_a_pack_forgotten_in_this_browser(
        client: FlaskClient) -> None:
    link = start(client, "spaceempires", "Void Kin")
    share = re.search(r'id="pack-share-link" class="link" readonly value="([^"]+)"',
                      client.get(link).get_data(as_text=True))
    assert share is not None
    friend = client.application.test_client()
    shared = friend.get(share[1]).get_data(as_text=True)
    copied = friend.post(share[1].split("localhost")[-1] + "/copy",
                         data={"csrf_token": csrf_of(shared)})
    assert copied.status_code == 302
    mine = friend.get(copied.headers["Location"]).get_data(as_text=True)
    assert "Void Kin (copy)" in mine and textarea(mine) == get_system("spaceempires").pack_starter()
    assert "Void Kin (copy)" in friend.get("/studio").get_data(as_text=True)
    home = client.get("/studio").get_data(as_text=True)
    token = link.rsplit("/", 1)[1]
    assert client.post("/studio/forget", data={"csrf_token": csrf_of(home),
                                                "token": token}).status_code == 302
    assert "Void Kin" not in client.get("/studio").get_data(as_text=True)
    assert client.get(link).status_code == 200  # the pack itself stays




def test_a_pack_deleted_by_its_owner_is_gone_with_every_version_and_its_links_say_so(
        app: Flask, client: FlaskClient) -> None:
    from sqlalchemy import func, select

    from listbuilder.store.tables import PackRow, PackTombstoneRow, PackVersionRow

    link = start(client, "actionhammer", "House Brigade")
    page = client.get(link).get_data(as_text=True)
    client.post(link, data={"csrf_token": csrf_of(page), "name": "House Brigade",
                            "text": textarea(page).replace("pts: 10\n", "pts: 11\n"),
                            "pack_version": "1"})
    page = client.get(link).get_data(as_text=True)
    share = re.search(r'id="pack-share-link" class="link" readonly value="([^"]+)"', page)
    assert share is not None and f'href="{link.split("localhost")[-1]}/delete"' in page
    # asked first, on a page of its own: nothing goes without the form's own button
    asked = client.get(link + "/delete")
    said = asked.get_data(as_text=True)
    assert asked.status_code == 200 and "Delete House Brigade?" in said
    assert "2 versions saved" in said and "can't be undone" in said
    assert "Rosters that use it keep working" in said
    assert client.post(link + "/delete").status_code == 400  # no CSRF token: refused
    assert client.get(link).status_code == 200

    studio = delete_pack(client, link)
    assert "House Brigade was deleted, with every version of it." in studio
    assert "/studio/p/" not in studio  # off this browser's list
    for address in (link, link + "/form", link + "/export.yaml", link + "/cards",
                    share[1], share[1] + "/export.yaml", share[1] + "/cards"):
        gone = client.get(address)
        body = gone.get_data(as_text=True)
        assert gone.status_code == 410, address
        assert "This pack was deleted by its owner" in body and "House Brigade" not in body
    assert client.post(link + "/delete", data={"csrf_token": csrf_of(studio)}) \
        .status_code == 410
    # unknown links are still told apart from deleted ones
    assert client.get("/studio/s/never-a-pack-here").status_code == 404

    engine = app.extensions["listbuilder.store"].engine
    token = link.rsplit("/", 1)[1]
    with engine.connect() as connection:
        assert connection.scalar(select(func.count()).select_from(PackRow).where(
            PackRow.share_token == share[1].rsplit("/", 1)[1])) == 0
        assert connection.scalar(select(func.count()).select_from(PackVersionRow).where(
            PackVersionRow.pack_id.not_in(select(PackRow.id)))) == 0
        tomb = connection.execute(select(PackTombstoneRow).where(
            PackTombstoneRow.share_token == share[1].rsplit("/", 1)[1])).one()
    assert token not in tomb  # only the edit token's hash is kept, as for a live pack


def test_deleting_twice_is_harmless_and_a_save_that_lost_the_race_says_deleted(
        app: Flask, client: FlaskClient) -> None:
    from listbuilder.store.packs import PackStore

    store: PackStore = app.extensions["listbuilder.packs"]
    pack, token = store.create("warstuff", "Pirates", get_system("warstuff").pack_starter())
    store.delete(pack.id)
    store.delete(pack.id)  # a second tab's delete: nothing left to do, no error
    assert store.by_edit_token(token) is None and store.versions(pack.id) == []
    assert store.deleted_by_edit_token(token) is not None
    assert store.deleted_by_share_token(pack.share_token) is not None
    assert store.deleted_by_share_token("x" * 101) is None  # not a token: not looked up
    with pytest.raises(LookupError):
        store.save(pack.id, 1, "Pirates", "genres: []\n")
    page = client.get("/studio").get_data(as_text=True)
    late = client.post(f"/studio/p/{token}", data={"csrf_token": csrf_of(page),
                                                    "name": "Pirates", "text": "x: 1\n",
                                                    "pack_version": "1"})
    assert late.status_code == 410


def test_a_weapon_column_no_weapon_fills_is_left_out_of_the_units_profile(
        client: FlaskClient) -> None:
    """As on the printed card: an empty Features column pushed the table past a phone's edge."""
    link = start(client)
    page = client.get(link).get_data(as_text=True)
    assert '<th scope="col">AP</th>' in page and '<th scope="col">Features</th>' not in page
    text = textarea(page).replace("{name: Blade, range: Melee, att: 3, sk: 3, ap: -1}",
                                  "{name: Blade, range: Melee, att: 3, sk: 3, ap: -1, "
                                  "features: [Keen]}")
    said = client.post(link + "/check", data={"csrf_token": csrf_of(page), "name": "House",
                                              "text": text, "pack_version": "1"})
    checked = said.get_data(as_text=True)
    leader = checked[checked.index('id="unit-my-leader"'):checked.index('id="unit-my-troops"')]
    troops = checked[checked.index('id="unit-my-troops"'):]
    assert '<th scope="col">Features</th>' in leader and "<td>Keen</td>" in leader
    assert '<th scope="col">Features</th>' not in troops
