"""listbuilder.web.site.notes and the messages that tell the whole truth in the builder: a violation
links to the reading that decided it, printed prices beside the formula's, spend named as spend,
an empty roster called empty."""

from __future__ import annotations

import html
import re

from flask import Flask, render_template
from flask.testing import FlaskClient
from webtools import Player

from listbuilder.web.site.notes import parse


def test_the_notes_page_gives_every_heading_its_anchor(client: FlaskClient) -> None:
    response = client.get("/rules-notes")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert '<h2 id="warstuff" tabindex="-1">WarStuff</h2>' in page
    assert 'id="what-about-games-under-1000-or-500-pts"' in page
    assert 'id="printed-quickplay-points-or-the-formula"' in page
    assert "<code>printed_pts</code>" in page  # `code` shown as code, the backticks gone
    assert "](printing.md" not in page  # a link shows its text only


def test_the_notes_are_shown_as_text_never_as_html(app: Flask) -> None:
    blocks = parse("# Notes\n\n### A <b>bold</b> claim\nSee <script>alert(1)</script> and "
                   "`<i>`.\nPinned by: tests/x.py::test_y\n")
    with app.test_request_context():
        page = render_template("site/notes.html", blocks=blocks)
    assert "<script>" not in page and "<b>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<code>&lt;i&gt;</code>" in page
    assert '<h3 id="a-bboldb-claim" tabindex="-1">' in page
    assert '<p class="help">Pinned by: tests/x.py::test_y</p>' in page


def reading_links(page: str) -> list[tuple[str, str]]:
    return [(href, html.unescape(text)) for href, text in
            re.findall(r'<a class="reading" href="([^"]+)">([^<]+)</a>', page)]


def test_violation_links_to_its_reading(player: Player, client: FlaskClient) -> None:
    player.start("op40k", "Waaagh", ("Orks",), 500)
    player.post("add", unit="Ork Boyz")
    player.post("entry", index=0, unit="Ork Boyz", count=40)
    links = reading_links(player.html)
    assert links == [("/rules-notes#one-printed-size-or-a-range",
                      "Our reading: One printed size, or a range?")]
    target = client.get(links[0][0].split("#")[0]).get_data(as_text=True)
    assert f'id="{links[0][0].split("#")[1]}"' in target
    player.post("entry", index=0, unit="Ork Boyz", count=20)
    assert reading_links(player.html) == []


def test_an_empty_roster_is_called_empty(player: Player, client: FlaskClient) -> None:
    player.start("op40k", "Nothing yet", ("Orks",), 500)
    status = re.search(r'id="legal-status">(.*?)</p>', player.html, re.S)
    assert status is not None
    assert " ".join(status[1].split()) == "<strong>Empty</strong>: no units yet."
    strip = re.search(r'<div class="strip".*?</div>', player.html, re.S)
    assert strip is not None and ">Empty</a>" in strip[0] and "Legal" not in strip[0]
    player.post("add", unit="Ork Boyz")
    assert "<strong>Legal</strong>" in player.html


def test_warstuff_shows_printed_prices_beside_the_formula(player: Player) -> None:
    player.start("warstuff", "Rats", (), 150)
    note = "Rat Warrior: 30 pts by the formula (printed 25)"
    row = re.search(r'<li class="unit-row.*?Rat Warrior.*?</li>', player.html, re.S)
    assert row is not None and note in row[0]  # the unit list, before it is added
    for _ in range(6):
        player.post("add", unit="Rat Warrior")
    totals = re.search(r'<section class="card totals.*?</section>', player.html, re.S)
    assert totals is not None and f"<li>{note}</li>" in totals[0]
    assert "180/150 pts" in totals[0]
    assert "Legal at printed prices: 150 pts." in totals[0]
    assert ("/rules-notes#printed-quickplay-points-or-the-formula", "Our reading: Printed "
            "quickplay points or the formula?") in reading_links(totals[0])
    entry = re.search(r'id="entry-0".*?</li>', player.html, re.S)
    assert entry is not None and note in entry[0]


def test_space_empires_names_spend_and_keeps_the_draw_apart(player: Player) -> None:
    player.start("spaceempires", "Waaagh", ("Orks",))
    totals = re.search(r'<section class="card totals.*?</section>\s*</section>', player.html,
                       re.S)
    assert totals is not None
    assert '<p class="big">0 of 5 revenue spent</p>' in totals[0]
    lines, _, draw = totals[0].partition('<section class="extra"')
    assert "Starting" not in lines and "Ground units" not in lines
    assert re.search(r"<h3 [^>]*>Starting draw \(seed \d+\)</h3>", draw)
    assert "Space units" in draw and "Ground units" in draw
    strip = re.search(r'<div class="strip".*?</div>', player.html, re.S)
    assert strip is not None and "0 of 5 revenue spent" in strip[0]
