"""Security review, issue 37, item 7: a roster file set its pack's link to any address
(`javascript:…`, another site) and the roster's packs page showed it as "the pack's page".
Now the file is refused naming the field, and the page links only to the pack's own page
here, made from the link's share token, even for a roster stored before links were checked."""

from __future__ import annotations

import html
import io
import json
import re

from flask import Flask
from flask.testing import EnvironBuilder, FlaskClient
from studiotools import start
from test_roster_packs import add_pack, new_roster, share_of
from webtools import csrf_of, version_of

from listbuilder.store.rosters import RosterStore

EVIL = "javascript:alert(document.cookie)"


def upload(client: FlaskClient, url: str, data: bytes) -> tuple[int, str]:
    """The file sent as the home page's Open a roster file sends it, or a roster page's
    Import (`url` ending in /import below the roster's address)."""
    onto = url.removesuffix("/import")
    page = client.get(onto or "/").get_data(as_text=True)
    fields: dict[str, object] = {"csrf_token": csrf_of(page),
                                 "file": (io.BytesIO(data), "brigade.yaml")}
    if onto:
        fields["version"] = str(version_of(page))
    builder = EnvironBuilder(client.application, path=url, method="POST", data=fields)
    try:
        answer = client.open(builder)
    finally:
        builder.close()
    return answer.status_code, answer.get_data(as_text=True)


def exported_with_pack(client: FlaskClient) -> tuple[str, str, str]:
    """A roster building with a studio pack: its address, its exported file and the pack's
    share link as the file carries it."""
    pack = start(client, "actionhammer", "House Brigade")
    roster = new_roster(client)
    add_pack(client, roster, share_of(client, pack))
    text = client.get(roster + "/export.yaml").get_data(as_text=True)
    link = re.search(r"^  link: (\S+)$", text, re.M)
    assert link is not None, text
    return roster, text, link[1]


def links_on(page: str) -> list[str]:
    return [html.unescape(h) for h in re.findall(r'<a [^>]*href="([^"]*)"[^>]*>the pack',
                                                 page)]


def test_a_roster_file_whose_pack_link_is_a_script_is_refused_naming_the_field(
        client: FlaskClient) -> None:
    """The attacker exports a roster with a pack, sets the pack's link to a script and sends
    the file round; the player opens it, on the home page or onto a roster of their own."""
    roster, text, link = exported_with_pack(client)
    crafted = text.replace(f"  link: {link}\n", f"  link: {json.dumps(EVIL)}\n")
    line = next(i for i, row in enumerate(crafted.splitlines(), 1) if row.startswith("  link:"))
    before = client.get("/").get_data(as_text=True).count("/r/")
    for url in ("/import", roster + "/import"):
        status, page = upload(client, url, crafted.encode())
        assert status == 422, page
        said = html.unescape(page)
        assert f"brigade.yaml:{line}: packs[0].link: found {EVIL!r}, which is not a pack's " \
               f"share link: write the share link from the pack's page" in said
        assert "Traceback" not in page
    assert client.get("/").get_data(as_text=True).count("/r/") == before  # nothing opened
    assert EVIL not in client.get(roster + "/packs").get_data(as_text=True)
    # the file as exported opens, its link shown as a link to the pack's page here
    status, _ = upload(client, "/import", text.encode())
    assert status == 302


def test_the_packs_page_links_only_to_the_packs_own_page_here(
        app: Flask, client: FlaskClient) -> None:
    """Rosters stored before links were checked (imported then) open still; the page never
    shows their link's text: a script is no link at all, another site's address of our shape
    becomes this server's page of the same pack."""
    roster, text, link = exported_with_pack(client)
    share = link.rsplit("/", 1)[1]
    assert links_on(client.get(roster + "/packs").get_data(as_text=True)) == \
        [f"/studio/s/{share}"]
    store: RosterStore = app.extensions["listbuilder.store"]
    for stored_link, shown in ((EVIL, []),
                               (f"https://evil.example/studio/s/{share}", [f"/studio/s/{share}"]),
                               ("/studio/s/NoSuchPackHere", [])):
        _, token = store.create("actionhammer", "Stored before",
                                text.replace(f"  link: {link}\n",
                                             f"  link: {json.dumps(stored_link)}\n"))
        page = client.get(f"/r/{token}/packs")
        said = page.get_data(as_text=True)
        assert page.status_code == 200, said
        assert links_on(said) == shown
        assert "javascript:" not in said and "evil.example" not in said
        # its file is written from the roster as read: a link of our shape kept, a script not
        exported = client.get(f"/r/{token}/export.yaml").get_data(as_text=True)
        assert ("  link: " in exported) == stored_link.startswith(("https:", "/")), exported
        assert "javascript:" not in exported
