"""The odds page follows the attacker the log last named (web/table/attacker.py): a Hammer
Wars hit tapped with its attacker (`by`), then the odds asked for a target alone."""

from __future__ import annotations

import re

from flask.testing import FlaskClient
from test_table import started, tap


def title(page: str) -> str:
    found = re.search(r'<h2 id="odds-title">(.*?)</h2>', page, re.S)
    assert found
    return " ".join(found[1].split())


def test_the_odds_open_on_the_attacker_the_last_hit_named(client: FlaskClient) -> None:
    match, data = started(client, "hammerwars")
    page = client.get(match).get_data(as_text=True)
    events = data["events"]
    named = next(n for n, ev in enumerate(events) if ev.get("by"))
    for ev in events[:named]:
        status, page = tap(client, match, ev, page)
        assert status == 200, ev
    # no event names an attacker yet: a target alone has no odds
    assert title(client.get(match + "/odds?d=1.3").get_data(as_text=True)) == "Odds"
    status, page = tap(client, match, events[named], page)  # Ben's Ranged Specialist shoots
    assert status == 200
    assert "to shooting by Ranged Specialist" in page
    odds = client.get(match + "/odds?d=1.3").get_data(as_text=True)
    assert title(odds) == "Odds: Ranged Specialist against Assault Specialist"
    # asked for, another attacker still wins
    asked = client.get(match + "/odds?a=2.3&d=1.3").get_data(as_text=True)
    assert title(asked) == "Odds: Assault Hero against Assault Specialist"


def test_no_odds_are_offered_against_a_side_with_nothing_on_the_table(
        client: FlaskClient) -> None:
    """Ann's first Assault Specialists are deployed before Ben has a model on the table: their
    row offers no odds (it drew an empty list of targets), and Ben's first deployment brings
    the question back, with his unit as its one answer."""
    match, data = started(client, "hammerwars")
    page = client.get(match).get_data(as_text=True)
    events = data["events"]
    ann_deploys = next(n for n, ev in enumerate(events) if ev["kind"] == "deploy")
    for ev in events[:ann_deploys + 1]:
        status, page = tap(client, match, ev, page)
        assert status == 200, ev
    assert 'id="odds-u1-3"' not in page and "Odds against" not in page
    ben_deploys = next(n for n, ev in enumerate(events)
                       if ev["kind"] == "deploy" and ev["side"] == 2)
    for ev in events[ann_deploys + 1:ben_deploys + 1]:
        status, page = tap(client, match, ev, page)
        assert status == 200, ev
    asked = re.search(r'<select id="odds-u1-3" name="d">(.*?)</select>', page, re.S)
    assert asked is not None
    unit = events[ben_deploys]["unit"]
    assert re.findall(r'<option value="([\d.]+)">', asked[1]) == [f"2.{unit}"]
