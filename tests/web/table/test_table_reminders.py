"""Rules reminders through the app (web/table/board.py, engine/reminders.py): the board draws
them in the tap's form, as the button's description; under quick-resolve's answer the
target's taps name the attacker's rules only."""

from __future__ import annotations

import html
import re

from flask.testing import FlaskClient
from test_table import started, tap


def reminders_of(page: str, kind: str, side: int, unit: int) -> list[str]:
    """The reminders drawn in the form of the tap of `kind` for side `side`'s unit `unit`."""
    found = []
    for form in re.findall(r'<form[^>]*class="tap".*?</form>', page, re.S):
        if f'name="kind" value="{kind}"' in form and f'name="side" value="{side}"' in form \
                and f'name="unit" value="{unit}"' in form:
            described = re.search(r'aria-describedby="([^"]+)"', form)
            listed = re.search(r'<ul class="reminders[^"]*" id="([^"]+)"(.*?)</ul>', form, re.S)
            if described is None and listed is None:
                continue
            assert described and listed and described[1] == listed[1]
            found += [" ".join(html.unescape(re.sub(r"<[^>]+>", "", li)).split())
                      for li in re.findall(r'<li class="reminder">(.*?)</li>', listed[2], re.S)]
    return found


def test_the_board_and_the_odds_page_draw_the_reminders(client: FlaskClient) -> None:
    match, data = started(client, "hammerwars")
    page = client.get(match).get_data(as_text=True)
    assert 'class="reminders' not in page  # before the roll-off: no hit to remind of
    for ev in data["events"][:5]:  # Ann deploys three Assault Specialists (unit 3)
        status, page = tap(client, match, ev, page)
        assert status == 200
    on_board = reminders_of(page, "hit", 1, 3)
    assert [r.split(":")[0] for r in on_board] == ["Trample Attack (Support Heavy)",
                                                    "Hit & Run (Assault Hero)"]
    odds = client.get(match + "/odds?a=2.4&d=1.3").get_data(as_text=True)
    assert [r.split(":")[0] for r in reminders_of(odds, "hit", 1, 3)] == [
        "Trample Attack (Support Heavy)"]
    plain = client.get(match + "/odds?a=2.1&d=1.3").get_data(as_text=True)
    assert 'name="kind" value="hit"' in plain  # the tap is there, with nothing to remind:
    assert reminders_of(plain, "hit", 1, 3) == []  # Assault Infantry carry no rule
