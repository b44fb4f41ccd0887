"""Your rosters on every device without an account (web/home/lists.py, web/collection.py): a
private link to a browser's list opens the same list in another browser, which then adds to
it; the database holds the list sealed, and copies of a roster get names of their own."""

from __future__ import annotations

import io
import re

from flask import Flask
from flask.testing import FlaskClient
from webtools import Player, csrf_of

from listbuilder.store.tables import RosterListRow
from listbuilder.web import collection


def names(client: FlaskClient) -> list[str]:
    page = client.get("/").get_data(as_text=True)
    return re.findall(r'class="mine-name" href="[^"]+">([^<]+)</a>', page)


def list_link(client: FlaskClient) -> str:
    page = client.get("/").get_data(as_text=True)
    found = re.search(r'id="list-link" class="copyable" type="text" readonly value="([^"]+)"',
                      page)
    assert found is not None, "no list link on the home page"
    return found[1]


def test_a_list_link_shows_the_same_list_on_another_device(app: Flask) -> None:
    laptop, phone = Player(app.test_client()), Player(app.test_client())
    laptop.start("op40k", "Waaagh", ("Orks",), 500)
    laptop.start("warstuff", "Border Patrol")
    assert names(phone.client) == []  # a phone shows "None yet"
    home = laptop.client.get("/").get_data(as_text=True)
    assert "Get a link to this list" in home
    made = laptop.client.post("/mine/link", data={"csrf_token": csrf_of(home)})
    assert made.status_code == 302
    link = list_link(laptop.client)
    assert re.fullmatch(r"http://localhost/l/[A-Za-z0-9_-]{43}", link)
    # asked again: the same link
    laptop.client.post("/mine/link", data={"csrf_token": csrf_of(home)})
    assert list_link(laptop.client) == link

    phone.start("hammerwars", "On the bus", ())  # the phone had one of its own
    page = phone.client.get(link.removeprefix("http://localhost"))
    assert page.status_code == 200
    assert "Also put the 1 roster this device has now on that list" in " ".join(
        page.get_data(as_text=True).split())
    joined = phone.client.post(link.removeprefix("http://localhost") + "/join",
                               data={"csrf_token": csrf_of(page.get_data(as_text=True)),
                                     "bring": "yes"})
    assert joined.status_code == 302
    assert sorted(names(phone.client)) == ["Border Patrol", "On the bus", "Waaagh"]
    # and from then on both devices add to the same list
    assert sorted(names(laptop.client)) == ["Border Patrol", "On the bus", "Waaagh"]
    phone.start("actionhammer", "Made on the phone", ("Cobalt Brigade",), 2000)
    assert "Made on the phone" in names(laptop.client)
    # taking one off the list on one device takes it off for both
    home = laptop.client.get("/").get_data(as_text=True)
    token = re.search(r'href="/r/([^"]+)">Waaagh</a>', home)
    assert token is not None
    laptop.client.post("/forget", data={"csrf_token": csrf_of(home), "token": token[1]})
    assert "Waaagh" not in names(phone.client)


def test_the_database_holds_the_list_sealed(app: Flask) -> None:
    laptop = Player(app.test_client())
    token = laptop.start("op40k", "Sealed", ("Orks",), 500)
    home = laptop.client.get("/").get_data(as_text=True)
    laptop.client.post("/mine/link", data={"csrf_token": csrf_of(home)})
    link = list_link(laptop.client).rsplit("/", 1)[1]
    store = app.extensions["listbuilder.store"]
    table = RosterListRow.__table__
    with store.engine.connect() as connection:
        rows = connection.execute(table.select().where(
            table.c.lookup == collection.lookup(link))).all()
    assert len(rows) == 1
    sealed = bytes(rows[0].sealed)
    assert token.encode() not in sealed and link not in rows[0].lookup
    assert collection.unseal(sealed, link) == [token]
    assert collection.unseal(sealed, link[:-1] + ("A" if link[-1] != "A" else "B")) is None


def test_a_wrong_list_link_says_so(client: FlaskClient) -> None:
    answer = client.get("/l/" + "x" * 43)
    assert answer.status_code == 404
    assert "No list has this link" in answer.get_data(as_text=True)


def test_copies_and_imports_get_names_of_their_own(player: Player) -> None:
    token = player.start("op40k", "Waaagh", ("Orks",), 500)
    exported = player.client.get(f"/r/{token}/export.yaml").get_data()
    home = player.client.get("/").get_data(as_text=True)
    for _ in range(2):
        player.client.post(f"/r/{token}/duplicate", data={"csrf_token": csrf_of(home)})
    for _ in range(2):
        player.client.post("/import", data={"csrf_token": csrf_of(home),
                                            "file": (io.BytesIO(exported), "waaagh.yaml")},
                           content_type="multipart/form-data")
    assert sorted(names(player.client)) == ["Waaagh", "Waaagh (2)", "Waaagh (3)",
                                            "Waaagh (copy)", "Waaagh (copy) (2)"]
