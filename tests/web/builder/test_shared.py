"""The read-only share link."""

from __future__ import annotations

import re

from flask.testing import FlaskClient
from webtools import Player, csrf_of


def share_link(player: Player) -> str:
    found = re.search(r'href="(/s/[^"]+)"', player.html)
    assert found is not None
    return found[1]


def test_share_link_shows_the_roster_read_only(player: Player, client: FlaskClient) -> None:
    player.start("op40k", "Waaagh", ("Orks",), 500)
    player.post("add", unit="Ork Boyz")
    link = share_link(player)
    page = client.get(link).get_data(as_text=True)
    assert "Ork Boyz" in page and "read-only" in page
    assert page.count('method="post"') == 1 and "Copy to my rosters" in page  # the one form
    assert player.token not in page
    assert client.get(link + "/export.yaml").get_data(as_text=True).startswith("# Listbuilder")
    assert "Ork Boyz" in client.get(link + "/roster.txt").get_data(as_text=True)
    preview = client.get(link, query_string={"preview": "Ork Boyz"}).get_data(as_text=True)
    assert 'id="preview-title">Ork Boyz<' in preview and "/add" not in preview


def test_share_token_gives_no_edit_rights(player: Player, client: FlaskClient) -> None:
    player.start("op40k", "Waaagh", ("Orks",), 500)
    share = share_link(player).rsplit("/", 1)[1]
    assert client.get(f"/r/{share}").status_code == 404
    assert client.get("/s/unknown").status_code == 404


def test_copy_to_my_rosters_makes_a_roster_of_ones_own(player: Player,
                                                      client: FlaskClient) -> None:
    player.start("op40k", "Waaagh", ("Orks",), 500)
    player.post("add", unit="Ork Boyz")
    link = share_link(player)
    stranger = client.application.test_client()
    page = stranger.get(link).get_data(as_text=True)
    assert stranger.post(link + "/copy").status_code == 400  # no CSRF token: nothing made
    response = stranger.post(link + "/copy", data={"csrf_token": csrf_of(page)})
    assert response.status_code == 302
    copy = response.headers["Location"]
    assert "/r/" in copy and player.token not in copy
    mine = stranger.get(copy).get_data(as_text=True)
    assert "Ork Boyz" in mine and "Waaagh" in mine
    assert player.token not in stranger.get("/").get_data(as_text=True)  # only the copy
    assert copy.rsplit("/", 1)[1] in stranger.get("/").get_data(as_text=True)
    # the copy changes on its own
    copied = Player(stranger)
    copied.token, copied.html = copy.rsplit("/", 1)[1], mine
    copied.post("remove", index=0, unit="Ork Boyz")
    assert "Ork Boyz" in client.get(link).get_data(as_text=True)
