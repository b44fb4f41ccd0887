"""The odds page follows the attacker the log names (issue 50 item 9, web/table/attacker.py):
asked for odds against a target and no attacker, it starts from the unit the newest event
named with `by`, on the side other than that event's."""

from __future__ import annotations

import re
from html import unescape
from types import SimpleNamespace

from flask.testing import FlaskClient
from test_table import started, tap

from listbuilder.engine.match import Match, event
from listbuilder.web.table.attacker import attacker_of


def test_attacker_of_reads_the_newest_event_naming_one() -> None:
    def of(*events: object) -> tuple[int, int] | None:
        return attacker_of(SimpleNamespace(match=Match("warstuff", (), tuple(events))))  # type: ignore[arg-type]

    assert of() is None
    assert of(event("wound", 1, 2)) is None  # no attacker named
    assert of(event("wound", 1, 2, by=3, attack="shot")) == (2, 3)
    assert of(event("wound", 1, 2, by=3, attack="shot"), event("activate", 1, 1),
              event("kill", 2, 1, by=2, attack="melee"), event("round-end")) == (1, 2)


def test_the_odds_page_starts_from_the_attacker_the_log_named(client: FlaskClient) -> None:
    match, data = started(client, "warstuff")
    assert 'id="odds-summary"' not in client.get(match + "/odds?d=1.1").get_data(as_text=True)
    page = client.get(match).get_data(as_text=True)
    for ev in data["events"][:4]:  # the Breacher (side 2, unit 3) kills the Goblin in melee
        status, page = tap(client, match, ev, page)
        assert status == 200, page
    text = client.get(match + "/odds?d=1.1").get_data(as_text=True)
    assert "Odds: Breacher against Human Warrior" in text
    # an attacker asked for still wins over the log's
    asked = client.get(match + "/odds?a=2.1&d=1.1").get_data(as_text=True)
    assert "Odds: Sergeant against Human Warrior" in asked


def test_each_enemy_row_offers_odds_against_it_from_the_last_attacker(
        client: FlaskClient) -> None:
    match, data = started(client, "warstuff")
    page = client.get(match).get_data(as_text=True)
    assert "odds-by" not in page  # nobody named yet
    for ev in data["events"][:4]:  # the Breacher (side 2, unit 3) kills the Goblin in melee
        status, page = tap(client, match, ev, page)
        assert status == 200, page
    page = client.get(match).get_data(as_text=True)
    links = re.findall(r'<p class="odds-by"><a class="button small" href="([^"]+)">([^<]+)</a>',
                       page)
    assert links, page
    # the Breacher's enemies, in play: side 1's rows only, each its own target
    assert {text for _, text in links} == {"Odds: Breacher against it"}
    targets = {unescape(href).split("d=")[1] for href, _ in links}
    assert all(t.startswith("1.") for t in targets) and "1.1" in targets
    href = unescape(next(h for h, _ in links if h.endswith("d=1.1")))
    text = client.get(href).get_data(as_text=True)
    assert "Odds: Breacher against Human Warrior" in text
