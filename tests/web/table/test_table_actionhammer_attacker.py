"""The odds page follows the attacker the log names (issue 50 item 9, web/table/attacker.py):
asked for a target alone, it starts from the unit the newest wound names as its attacker."""

from __future__ import annotations

import html
import re

from flask.testing import FlaskClient
from test_table import started, tap


def title(page: str) -> str:
    found = re.search(r'<h2 id="odds-title">(.*?)</h2>', page, re.S)
    assert found is not None, page[:500]
    return " ".join(html.unescape(found[1]).split())


def test_the_odds_page_starts_from_the_attacker_the_log_names(client: FlaskClient) -> None:
    match, data = started(client, "actionhammer")
    page = client.get(match).get_data(as_text=True)
    assert title(client.get(match + "/odds?d=2.1").get_data(as_text=True)) == "Odds"
    # Ann's Line Troopers (side 1, unit 1) shoot Ben's Reaver Mob: the wound names them
    for ev in data["events"][:3]:
        status, page = tap(client, match, ev, page)
        assert status == 200, page
    assert data["events"][2]["by"] == 1
    followed = title(client.get(match + "/odds?d=2.1").get_data(as_text=True))
    asked = title(client.get(match + "/odds?a=1.1&d=2.1").get_data(as_text=True))
    assert followed == asked and followed.startswith("Odds: ")
    # a pair asked for outright still wins over the log's
    other = title(client.get(match + "/odds?a=1.4&d=2.1").get_data(as_text=True))
    assert other != followed
