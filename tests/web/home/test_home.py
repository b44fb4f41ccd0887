"""The home page, starting a roster and opening a roster file."""

from __future__ import annotations

import re
from pathlib import Path

import yaml
from flask.testing import FlaskClient
from webtools import (
    Player,
    csrf_of,
    upload,
)

from listbuilder.engine.registry import all_systems

ROOT = Path(__file__).resolve().parents[3]




def test_home_lists_the_five_systems_with_their_lines(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    for system in all_systems():
        assert system.name in page and system.blurb.replace("'", "&#39;") in page
        assert f"/new/{system.id}" in page


def test_new_roster_form_has_the_system_default_limit(client: FlaskClient) -> None:
    page = client.get("/new/actionhammer").get_data(as_text=True)
    assert 'value="2000"' in page and 'type="checkbox" name="factions"' in page
    page = client.get("/new/hammerwars").get_data(as_text=True)
    assert "points_limit" not in page and '<select id="factions"' in page


def test_a_new_roster_posted_without_the_limit_box_takes_the_usual_limit(
        client: FlaskClient) -> None:
    """A hand-made post with no points-limit box starts the roster at the limit the page
    fills in, never at no limit at all (the page always sends the box); a game without a
    points limit still has none."""
    for system_id, faction, usual in (("op40k", "Orks", 500),
                                      ("actionhammer", "Cobalt Brigade", 2000),
                                      ("hammerwars", "Orks", None)):
        page = client.get(f"/new/{system_id}").get_data(as_text=True)
        made = client.post(f"/new/{system_id}", data={"csrf_token": csrf_of(page),
                                                      "name": "Scripted",
                                                      "factions": faction})
        assert made.status_code == 302, made.get_data(as_text=True)[:500]
        saved = yaml.safe_load(client.get(made.headers["Location"] + "/export.yaml")
                               .get_data(as_text=True))
        assert saved.get("points_limit") == usual, (system_id, saved)


def test_new_roster_bad_posts(client: FlaskClient) -> None:
    page = client.get("/new/op40k").get_data(as_text=True)
    token = csrf_of(page)
    response = client.post("/new/op40k", data={"csrf_token": token, "name": "",
                                               "factions": "Orks"})
    assert response.status_code == 422 and "Roster name: enter a name of 1 to 80 characters." \
        in response.get_data(as_text=True)
    response = client.post("/new/op40k", data={"csrf_token": token, "name": "A",
                                               "factions": "Elves"})
    assert response.status_code == 422
    response = client.post("/new/op40k", data={"csrf_token": token, "name": "A",
                                               "factions": "Orks", "points_limit": "0"})
    assert response.status_code == 422 and ("Points limit: enter a whole number from 1 to "
                                            "1,000,000") in response.get_data(as_text=True)
    response = client.post("/new/op40k", data={"name": "A", "factions": "Orks"})
    assert response.status_code == 400  # no CSRF token
    assert client.get("/new/chess").status_code == 404


def test_open_a_roster_file_as_a_new_roster(client: FlaskClient) -> None:
    text = (ROOT / "examples" / "warstuff" / "legal.yaml").read_bytes()
    response = upload(client, text)
    assert response.status_code == 302
    edit = response.headers["Location"]
    saved = yaml.safe_load(client.get(edit + "/export.yaml").get_data(as_text=True))
    assert saved["name"] == "Border Patrol" and saved["designs"][0]["name"] == "Ranger Captain"
    assert "Border Patrol" in client.get("/").get_data(as_text=True)


def test_a_bad_file_shows_its_errors_with_lines(client: FlaskClient) -> None:
    bad = b"format: 1\nsystem: warstuff\nname: X\nentries:\n  - unit: Dragn\n    cuont: 2\n"
    response = upload(client, bad, "bad.yaml")
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "bad.yaml:6: entries[0].cuont: unknown key" in page
    assert upload(client, b"\xff\xfe", "x.yaml").status_code == 422
    assert upload(client, b"- just\n- a list\n").status_code == 422
    # by hand: the test client spools a body over 500 KB to a file it never closes
    csrf = csrf_of(client.get("/").get_data(as_text=True)).encode()
    body = (b'--B\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n' + csrf +
            b'\r\n--B\r\nContent-Disposition: form-data; name="file"; filename="x.yaml"'
            b'\r\n\r\n' + b"x" * (700 * 1024) + b"\r\n--B--\r\n")
    too_big = client.post("/import", data=body, content_type="multipart/form-data; boundary=B")
    assert too_big.status_code == 422 and "larger than 640 KB" in too_big.get_data(as_text=True)
    page = client.get("/").get_data(as_text=True)
    assert "Your rosters" in page and "/r/" not in page  # nothing was created


def test_upload_over_the_request_limit_is_a_friendly_413(client: FlaskClient) -> None:
    # the body is built by hand: the test client would spool a large one to a file it never
    # closes when the app refuses to read it
    body = (b'--B\r\nContent-Disposition: form-data; name="file"; filename="x.yaml"\r\n\r\n'
            + b"x" * (1100 * 1024) + b"\r\n--B--\r\n")
    response = client.post("/import", data=body, content_type="multipart/form-data; boundary=B")
    assert response.status_code == 413 and "640 KB" in response.get_data(as_text=True)


def test_import_without_a_file_or_csrf(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    response = client.post("/import", data={"csrf_token": csrf_of(page)})
    assert response.status_code == 422 and "Choose a roster file." in response.get_data(
        as_text=True)
    assert client.post("/import", data={}).status_code == 400


def test_forget_takes_a_roster_off_the_list_only(player: Player, client: FlaskClient) -> None:
    token = player.start("op40k", "Forget me", ("Orks",), 500)
    player.get("/")
    response = client.post("/forget", data={"csrf_token": csrf_of(player.html),
                                            "token": token})
    assert response.status_code == 302
    assert "Forget me" not in client.get("/").get_data(as_text=True)
    assert client.get(f"/r/{token}").status_code == 200  # the roster is still there
    assert client.post("/forget", data={"csrf_token": csrf_of(player.html)}).status_code == 422


def test_unknown_page_is_a_friendly_404(client: FlaskClient) -> None:
    response = client.get("/nowhere")
    assert response.status_code == 404 and "Back to the home page" in response.get_data(
        as_text=True)


def test_an_unexpected_error_is_a_page_not_a_trace(app, client: FlaskClient) -> None:  # type: ignore[no-untyped-def]
    def broken() -> str:
        raise RuntimeError("secret detail")

    app.add_url_rule("/broken", "broken", broken)
    response = client.get("/broken")
    page = response.get_data(as_text=True)
    assert response.status_code == 500 and "Something went wrong" in page
    assert "secret detail" not in page and "Traceback" not in page


def test_your_rosters_show_system_total_legality_and_last_change(player: Player) -> None:
    player.start("op40k", "Waaagh", ("Orks",), 500)
    player.post("add", unit="Ork Boyz")
    page = player.get("/").get_data(as_text=True)
    row = re.search(r'<li class="mine-row">.*?</li>', page, re.S)
    assert row is not None
    for shown in ("Waaagh", "One Page 40k", "75/500 pts", "Legal", "version 2", " UTC"):
        assert shown in row[0], shown
    player.start("warstuff", "Nobody yet", (), 150)
    page = player.get("/").get_data(as_text=True)
    assert re.search(r"Nobody yet.*?chip empty\">Empty<", page, re.S)


def test_duplicate_makes_a_copy_with_its_own_links(player: Player) -> None:
    token = player.start("op40k", "Waaagh", ("Orks",), 500)
    player.post("add", unit="Nobz")
    home = player.get("/").get_data(as_text=True)
    response = player.client.post(f"/r/{token}/duplicate", data={"csrf_token": csrf_of(home)})
    assert response.status_code == 302
    home = player.get("/").get_data(as_text=True)
    assert "Waaagh (copy)" in home and home.index("Waaagh (copy)") < home.index("Waaagh</a>")
    copy = re.search(r'href="/r/([^"]+)">Waaagh \(copy\)</a>', home)
    assert copy is not None and copy[1] != token
    assert "Nobz" in player.client.get(f"/r/{copy[1]}/export.yaml").get_data(as_text=True)


def test_rename_keeps_the_contents_and_refuses_a_stale_page(player: Player) -> None:
    token = player.start("op40k", "Waaagh", ("Orks",), 500)
    player.post("add", unit="Nobz")
    home = player.get("/").get_data(as_text=True)
    data = {"csrf_token": csrf_of(home), "version": 2, "name": "Big <Waaagh>"}
    assert player.client.post(f"/r/{token}/rename", data=data).status_code == 302
    text = player.saved_text()
    assert "Big <Waaagh>" in text and "Nobz" in text
    assert "Big &lt;Waaagh&gt;" in player.get("/").get_data(as_text=True)
    response = player.client.post(f"/r/{token}/rename", data={**data, "name": "Old page"})
    assert response.status_code == 409 and "changed since" in response.get_data(as_text=True)
    response = player.client.post(f"/r/{token}/rename", data={**data, "version": 3, "name": ""})
    assert response.status_code == 422 and "Big <Waaagh>" in player.saved_text()


def test_delete_asks_needs_the_edit_link_and_can_be_undone(player: Player) -> None:
    token = player.start("op40k", "Waaagh", ("Orks",), 500)
    share = re.search(r'href="(/s/[^"]+)"', player.html)
    assert share is not None
    asked = player.get(f"/r/{token}/delete")
    assert asked.status_code == 200 and "Delete Waaagh?" in player.html
    assert player.client.get(f"/r/{token}").status_code == 200  # asking deleted nothing
    assert player.client.post(f"/r/{share[1].rsplit('/', 1)[1]}/delete",
                              data={"csrf_token": csrf_of(player.html)}).status_code == 404
    assert player.client.post(f"/r/{token}/delete").status_code == 400  # no CSRF token
    response = player.client.post(f"/r/{token}/delete", data={"csrf_token": csrf_of(player.html)})
    assert response.status_code == 302
    assert player.client.get(f"/r/{token}").status_code == 404
    assert player.client.get(share[1]).status_code == 404
    home = player.get("/").get_data(as_text=True)
    assert "Undo: restore it" in home and 'class="mine-row"' not in home
    elsewhere = player.client.application.test_client()  # another browser, with the link
    page = elsewhere.get(f"/r/{token}")
    assert page.status_code == 404 and "Restore Waaagh" in page.get_data(as_text=True)
    response = elsewhere.post(f"/r/{token}/restore",
                              data={"csrf_token": csrf_of(page.get_data(as_text=True))})
    assert response.status_code == 302
    assert player.get(f"/r/{token}").status_code == 200
    assert player.client.get(share[1]).status_code == 200
    # restored from another browser: back on this one's list when the player keeps it
    assert "Keep on my list" in player.html
    player.client.post(f"/r/{token}/keep", data={"csrf_token": csrf_of(player.html)})
    home = player.get("/").get_data(as_text=True)
    assert "Undo: restore it" not in home and "Waaagh</a>" in home
