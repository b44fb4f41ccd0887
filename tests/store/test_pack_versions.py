"""A pack keeps its last saves as versions, as a roster keeps its last saves: saving again and
again can't grow the database (issue 37, 3: 200 saves of a 120 KB pack added 20 MB when
every version was kept)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import text
from sqlalchemy.engine import make_url
from webtools import csrf_of

from listbuilder.engine.history import HISTORY_KEPT
from listbuilder.engine.packs import MAX_PACK_BYTES
from listbuilder.store.packs import VERSIONS_KEPT, PackStore

UNIT = """  - name: Squad {n}
    faction: House Guard
    size: 10
    min_size: 5
    max_size: 20
    quality: 4
    pts_per_model: 5
    equipment: [Lasgun]
    upgrades:
      - name: Veteran Sergeant
        pts: 5
        text: One model leads the squad with a better eye.
        effects: [{{models: 1}}]
"""


def big_pack(size: int = 120 * 1024) -> str:
    """A One Page 40k pack of about `size` bytes that checks without problems."""
    text = "factions:\n  - name: House Guard\n    text: One line.\nunits:\n"
    n = 0
    while len(text) + len(UNIT) + 20 < size:
        text += UNIT.format(n=n)
        n += 1
    return text


def start(client: FlaskClient) -> tuple[str, str]:
    """A new pack; its edit link and the page's CSRF token."""
    page = client.get("/studio").get_data(as_text=True)
    made = client.post("/studio/new", data={"csrf_token": csrf_of(page), "system": "op40k",
                                            "name": "House Guard"})
    assert made.status_code == 302
    return made.headers["Location"], csrf_of(page)


def save_many(client: FlaskClient, link: str, csrf: str, text: str, saves: int,
              after: int = 1) -> None:
    """The attacker's steps: the same big pack saved again and again, each a new version
    (the first based on version `after`)."""
    for version in range(after, after + saves):
        saved = client.post(link, data={"csrf_token": csrf, "name": "House Guard",
                                        "text": f"{text}# save {version}\n",
                                        "pack_version": version})
        assert saved.status_code == 302, saved.get_data(as_text=True)[:300]


def packs(app: Flask) -> PackStore:
    return app.extensions["listbuilder.packs"]  # type: ignore[no-any-return]


def test_the_same_count_as_a_rosters_history() -> None:
    assert VERSIONS_KEPT == HISTORY_KEPT == 30


def test_200_saves_keep_the_last_30_versions(app: Flask, client: FlaskClient) -> None:
    link, csrf = start(client)
    text = big_pack()
    assert 110 * 1024 < len(text) <= MAX_PACK_BYTES
    first = packs(app).by_edit_token(link.rsplit("/", 1)[1])
    assert first is not None
    save_many(client, link, csrf, text, 200)
    versions = packs(app).versions(first.id)
    assert [v.version for v in versions] == list(range(201, 201 - VERSIONS_KEPT, -1))
    # the versions kept download again; one pruned is gone, as its page no longer lists it
    newest, oldest_kept = versions[0], versions[-1]
    assert packs(app).text_at(first.id, newest.revision) == f"{text}# save 200\n"
    assert packs(app).text_at(first.id, oldest_kept.revision) == f"{text}# save 171\n"
    assert packs(app).text_at(first.id, first.revision) is None
    page = client.get(link).get_data(as_text=True)
    assert len(re.findall(r"<tr><td>\d+</td>", page)) == VERSIONS_KEPT
    assert "# save 200" in page  # the pack as last saved


def database_bytes(url: str, app: Flask) -> int:
    """The SQLite file's size with everything written into it (the WAL checkpointed)."""
    with app.extensions["listbuilder.store"].engine.connect() as connection:
        connection.execute(text("PRAGMA wal_checkpoint(TRUNCATE)"))
    path = Path(str(make_url(url).database))
    wal = path.with_name(path.name + "-wal")
    return path.stat().st_size + (wal.stat().st_size if wal.exists() else 0)


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_200_saves_grow_the_file_by_the_versions_kept_only(app: Flask, client: FlaskClient,
                                                          database_url: str) -> None:
    """The real SQLite file: the pack and its 30 versions, about 3.7 MB of text for a 120 KB
    pack, and the pages they leave free reused by the next save (it grew 20 MB before)."""
    link, csrf = start(client)
    text = big_pack()
    save_many(client, link, csrf, text, 1)
    before = database_bytes(database_url, app)
    save_many(client, link, csrf, text, 200, after=2)
    grown = database_bytes(database_url, app) - before
    assert grown <= (VERSIONS_KEPT + 1) * len(text) * 1.25, f"{grown / 2**20:.1f} MB"
    assert os.path.getsize(str(make_url(database_url).database)) < 8 * 2**20
