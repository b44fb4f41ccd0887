"""The odds page follows the attacker the log names last (web/table/attacker.py): asked for
odds against a unit without saying who attacks, it takes the shooter of the newest event
that names one (`by`), when that unit is the target's enemy."""

from __future__ import annotations

import html
import re

from flask.testing import FlaskClient
from test_table import started, tap


def title(page: str) -> str:
    found = re.search(r'<h2 id="odds-title">(.*?)</h2>', page, re.S)
    assert found is not None, page[:500]
    return " ".join(html.unescape(found[1]).split())


def test_the_odds_follow_the_shooter_the_log_names_last(client: FlaskClient) -> None:
    match, data = started(client, "op40k")
    page = client.get(match).get_data(as_text=True)
    # nobody has fired yet: no attacker to follow, so no odds
    assert title(client.get(match + "/odds?d=1.3").get_data(as_text=True)) == "Odds"
    # the Scouts (2.4) shoot the Gretchin (1.3)
    for ev in data["events"][:3]:
        status, page = tap(client, match, ev, page)
        assert status == 200, page
    assert data["events"][2] == {"kind": "shot", "side": 1, "unit": 3, "by": 4, "models": 6}
    followed = client.get(match + "/odds?d=1.1").get_data(as_text=True)
    assert title(followed) == "Odds: 5x Scouts against 20x Ork Boyz"
    assert 'id="odds-summary"' in followed
    # an attacker asked for is kept
    asked = client.get(match + "/odds?a=2.1&d=1.1").get_data(as_text=True)
    assert title(asked) == "Odds: 10x Space Marines against 20x Ork Boyz"
    # the last shooter is on the target's own side: it is nobody's default
    assert title(client.get(match + "/odds?d=2.1").get_data(as_text=True)) == "Odds"
