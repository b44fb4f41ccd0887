"""The clock through the tracker's pages (web/table, issue 50 item 12): both phones tap it,
both show the same times, the summary gives each side's time and each round's, a tap queued
offline counts from its own time, and nonsense is refused in words. The server's "now" is
set by the test (`views.now_ms`), never read from the wall."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
import yaml
from flask import Flask
from flask.testing import FlaskClient
from test_table import (
    TABLE,
    example,
    imported,
    message,
    rows,
    start,
    started,
    tap,
    version,
)
from webtools import csrf_of

from listbuilder.web.table import views

T0 = 1_765_000_000_000
S = 1000
MIN = 60 * S


class Now:
    """The server's clock, moved by the test."""

    def __init__(self) -> None:
        self.ms = T0

    def __call__(self) -> int:
        return self.ms


@pytest.fixture
def now(monkeypatch: pytest.MonkeyPatch) -> Now:
    clock = Now()
    monkeypatch.setattr(views, "now_ms", clock)
    return clock


def clock_tap(client: FlaskClient, match: str, page: str, kind: str, **fields: Any) -> tuple[
        int, str]:
    form = {"csrf_token": csrf_of(page), "base": version(page), "kind": kind, **fields}
    answer = client.post(match + "/clock", data=form, headers=TABLE)
    return answer.status_code, answer.get_data(as_text=True)


def used(page: str) -> dict[int, int]:
    return {int(side): int(ms) for side, ms in
            re.findall(r'id="clock-(\d)" data-ms="(\d+)"', page)}


def running(page: str) -> list[int]:
    return [int(s) for s in re.findall(r'id="clock-(\d)" data-ms="\d+" data-running', page)]


def buttons(page: str) -> list[str]:
    return re.findall(r'class="button tap-button clock-button[^"]*">([^<]+)<', page)


def two_phones(app: Flask, client: FlaskClient, game: str) -> tuple[
        str, str, FlaskClient, dict[str, Any]]:
    match, data = started(client, game)
    page = client.get(match).get_data(as_text=True)
    found = re.search(r'id="opponent-link" class="copyable" type="text" readonly '
                      r'value="http://localhost([^"]+)"', page)
    assert found is not None
    return match, found[1], app.test_client(), data


def test_both_phones_run_the_clock_and_the_summary_gives_sides_and_rounds(
        app: Flask, client: FlaskClient, now: Now) -> None:
    match, theirs, side2, data = two_phones(app, client, "hammerwars")
    page = client.get(match).get_data(as_text=True)
    assert 'id="clock-start"' in page and 'id="clock"' not in page
    # started on phone 1 a second after the tap (the phone's time is the tap's)
    now.ms = T0 + S
    status, page = clock_tap(client, match, page, "clock-start", side=1, minutes=90,
                             sent=T0, id="c1")
    assert status == 200 and not message(page)
    assert running(page) == [1] and used(page) == {1: S, 2: 0}
    assert buttons(page) == ["My move is done", "Pause clock"]
    assert "Time left <span class=\"clock-time\">1:29:59</span> of 1:30:00" in page
    # phone 2 sees the same clock, and its own buttons
    now.ms = T0 + 2 * MIN
    other = side2.get(theirs).get_data(as_text=True)
    assert running(other) == [1] and used(other) == {1: 2 * MIN, 2: 0}
    assert buttons(other) == ["Start my clock", "Pause clock"]
    # round 1's events, Ann's move done after the first five
    events = data["events"]
    for ev in events[:5]:
        status, page = tap(client, match, ev, page)
        assert status == 200 and not message(page), message(page)
    now.ms = T0 + 3 * MIN
    status, page = clock_tap(client, match, page, "clock-switch", side=2, sent=T0 + 3 * MIN)
    assert status == 200 and running(page) == [2]
    now.ms = T0 + 5 * MIN
    other = side2.get(theirs).get_data(as_text=True)
    assert used(other) == {1: 3 * MIN, 2: 2 * MIN}
    assert buttons(other) == ["My move is done", "Pause clock"]
    status, other = clock_tap(side2, theirs, other, "clock-pause", sent=T0 + 5 * MIN)
    assert status == 200 and running(other) == [] and buttons(other) == ["Resume clock"]
    now.ms = T0 + 30 * MIN  # paused: nothing counts
    page = client.get(match).get_data(as_text=True)
    assert used(page) == {1: 3 * MIN, 2: 2 * MIN} and "Paused." in page
    summary = html.unescape(client.get(match + "/summary").get_data(as_text=True))
    section = summary[summary.index('id="summary-clock"'):]
    section = section[:section.index("</section>")]
    assert "The clock is stopped. Time limit 1:30:00; 1:25:00 left." in " ".join(
        section.split())
    assert re.search(r"Time used</th><td>3:00</td><td>2:00</td>", section)
    assert re.search(r"<th scope=\"row\">Round 1</th><td>5:00</td>", section)
    # the export is a version-2 file with the clock's events, at their times
    exported = yaml.safe_load(client.get(match + "/match.yaml").get_data(as_text=True))
    assert exported["format"] == "listbuilder-match/2"
    clock_events = [e for e in exported["events"] if e["kind"].startswith("clock-")]
    assert clock_events == [
        {"kind": "clock-start", "side": 1, "at": T0, "minutes": 90, "id": "c1"},
        {"kind": "clock-switch", "side": 2, "at": T0 + 3 * MIN},
        {"kind": "clock-pause", "at": T0 + 5 * MIN}]


def test_a_tap_queued_offline_counts_from_its_own_time_never_before_the_last_one(
        app: Flask, client: FlaskClient, now: Now) -> None:
    match, theirs, side2, _data = two_phones(app, client, "op40k")
    page = client.get(match).get_data(as_text=True)
    status, page = clock_tap(client, match, page, "clock-start", side=1, sent=T0)
    other = side2.get(theirs).get_data(as_text=True)
    # phone 1 hands over at 4 min; phone 2 paused at 2 min but was offline until 9 min:
    # its pause comes after the switch, so it counts from the switch's time
    now.ms = T0 + 4 * MIN
    status, page = clock_tap(client, match, page, "clock-switch", side=2, sent=T0 + 4 * MIN)
    now.ms = T0 + 9 * MIN
    status, other = clock_tap(side2, theirs, other, "clock-pause", sent=T0 + 2 * MIN)
    assert status == 200 and not message(other), message(other)
    assert used(other) == {1: 4 * MIN, 2: 0}
    # with scripts off a tap carries no time: the server's is taken
    now.ms = T0 + 12 * MIN
    status, other = clock_tap(side2, theirs, other, "clock-resume")
    now.ms = T0 + 13 * MIN
    assert used(side2.get(theirs).get_data(as_text=True)) == {1: 4 * MIN, 2: MIN}


def test_no_script_taps_post_and_come_back_to_the_page(
        client: FlaskClient, now: Now) -> None:
    match, _data = started(client, "warstuff")
    page = client.get(match).get_data(as_text=True)
    answer = client.post(match + "/clock", data={
        "csrf_token": csrf_of(page), "base": version(page), "kind": "clock-start",
        "side": "1", "minutes": ""})
    assert answer.status_code == 303 and answer.headers["Location"].endswith(match)
    now.ms = T0 + 61 * S
    page = client.get(match).get_data(as_text=True)
    assert used(page)[1] == 61 * S and ">1:01</span>" in page


@pytest.mark.parametrize(("kind", "fields", "status", "said"), [
    ("clock-switch", {"side": 2}, 422, "Not recorded: the clock has not started. Start the "
                                       "clock first."),
    ("clock-start", {"side": 1, "sent": T0 + 11 * MIN}, 422, "minutes ahead of the server's"),
    ("clock-start", {"side": 1, "minutes": "lots"}, 400, "Time limit (minutes): enter a "
                                                       "whole number from 1 to 1,440."),
    ("clock-explode", {}, 400, "That clock tap was not understood."),
    ("round-end", {}, 400, "That clock tap was not understood."),
    ("clock-start", {"side": 3}, 400, "That clock tap was not understood"),
    ("clock-start", {"side": 1, "id": "no spaces"}, 400, "an event's id is letters"),
])
def test_nonsense_on_the_clock_is_refused_in_words_and_stores_nothing(
        app: Flask, client: FlaskClient, now: Now, kind: str, fields: dict[str, Any],
        status: int, said: str) -> None:
    match, _data = started(client, "actionhammer")
    page = client.get(match).get_data(as_text=True)
    before = rows(app)
    got, answer = clock_tap(client, match, page, kind, **fields)
    assert got == status
    assert said in message(answer)
    assert rows(app) == before


def test_the_spectators_see_the_clock_and_can_not_tap_it(
        app: Flask, client: FlaskClient, now: Now) -> None:
    match, _data = started(client, "spaceempires")
    page = client.get(match).get_data(as_text=True)
    _status, page = clock_tap(client, match, page, "clock-start", side=2, sent=T0)
    watch = re.search(r'id="watch-link" class="copyable" type="text" readonly '
                      r'value="http://localhost([^"]+)"', page)
    if watch is None:
        watch = re.search(r'id="watch-link" class="copyable" type="text" readonly '
                          r'value="http://localhost([^"]+)"',
                          client.get(match).get_data(as_text=True))
    assert watch is not None
    spectator = app.test_client()
    seen = spectator.get(watch[1]).get_data(as_text=True)
    assert running(seen) == [2] and buttons(seen) == [] and 'id="clock-start"' not in seen
    before = rows(app)
    refused = spectator.post(watch[1] + "/clock", data={
        "base": version(seen), "kind": "clock-pause"})
    assert refused.status_code in (400, 403)  # its page has no form: no token to send
    assert rows(app) == before


def test_a_solo_match_has_one_clock_that_pauses_and_resumes(
        client: FlaskClient, now: Now) -> None:
    """One player: no other clock to hand over to; the time limit still counts down."""
    data = example("op40k")
    solo = start(client, imported(client, data["players"][0]["roster"]), me="Ann",
                 source="solo")
    match = solo.headers["Location"].split("?")[0]
    page = client.get(match).get_data(as_text=True)
    assert 'id="clock-first"' not in page  # nobody else's clock to run first
    status, page = clock_tap(client, match, page, "clock-start", side=1, minutes=45, sent=T0)
    assert status == 200 and running(page) == [1] and buttons(page) == ["Pause clock"]
    now.ms = T0 + 15 * MIN
    status, page = clock_tap(client, match, page, "clock-pause")
    assert buttons(page) == ["Resume clock"] and used(page) == {1: 15 * MIN}
    assert ">30:00</span> of 45:00" in page
    status, page = clock_tap(client, match, page, "clock-switch", side=2)
    assert status == 422 and "needs a side, 1, not 2" in message(page)
