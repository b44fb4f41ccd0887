"""A tap costs the same late in a match as early (issue 50): the tracker answers it from the
state its rules already reached (the one `push` gave, or one this process kept for the log),
so it applies the tap's own event, not the whole log again. Counted in events the rules
apply (`engine.match._step`), on a long Space Empires match, never in time. And the board is
always the stored log's: after the other phone's taps, another process's writes, an undo, a
refused tap, a log rewritten under the same version (a database restored)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
import yaml
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import delete, update
from test_table import TABLE, started, tap, version
from webtools import csrf_of

import listbuilder.engine.match as engine_match
from listbuilder.engine.library import Library
from listbuilder.engine.match import Event, Match, push, replay
from listbuilder.engine.match_file import read_match
from listbuilder.engine.registry import get_system
from listbuilder.store.matches import MatchStore, StoredMatch
from listbuilder.store.tables import MatchEventRow, MatchRow
from listbuilder.web.recent import Recent
from listbuilder.web.table import matches as table_matches

LONG = 150


class Applied:
    """How many events the rules of play applied (replaying, resuming or pushing) since
    `start`."""

    def __init__(self) -> None:
        self.count = 0

    def start(self) -> None:
        self.count = 0


@pytest.fixture
def applied(monkeypatch: pytest.MonkeyPatch) -> Iterator[Applied]:
    counter = Applied()
    step = engine_match._step

    def counted(*args: Any) -> Any:
        counter.count += 1
        return step(*args)

    monkeypatch.setattr(engine_match, "_step", counted)
    yield counter


PLAY = get_system("spaceempires").play()


def walked(match: Match, length: int) -> Match:
    """`match` grown to `length` events the rules allow: a seeded walk that neither concedes
    nor takes planets, so the game goes on."""
    assert PLAY is not None
    state = replay(PLAY, match)
    rng = random.Random(len(match.events))
    while len(match.events) < length:
        allowed = [ev for ev in PLAY.offers(state) if ev.kind not in ("concede", "capture")]
        match, state = push(PLAY, match, state, rng.choice(allowed))
    return match


def example_header(data: dict[str, Any]) -> Match:
    """The example's players and options, no events."""
    return read_match(yaml.safe_dump({**data, "events": []}), "the example",
                      Library().read_roster).match


def store_of(app: Flask) -> MatchStore:
    return app.extensions["listbuilder.matches"]  # type: ignore[no-any-return]


def stored_of(app: Flask, match: str) -> StoredMatch:
    found = store_of(app).by_token(match.rsplit("/", 1)[1])
    assert found is not None
    return found[0]


def grown(app: Flask, match: str, events: list[Event], side: int = 1) -> StoredMatch:
    """`events` appended to the stored log as another process would: straight to the
    store, nothing this process keeps."""
    stored = stored_of(app, match)
    for ev in events:
        stored = store_of(app).append(stored.id, stored.version, ev, side)
    return stored


def page_at(app: Flask, client: FlaskClient, match: str, events: list[Event]) -> str:
    """Side 1's page once `events` are stored: this process meets the log once."""
    grown(app, match, events)
    return client.get(match).get_data(as_text=True)


def as_tapped(ev: Event) -> dict[str, Any]:
    return {k: v for k, v in ev.to_data().items() if k != "id"}


def tapped(client: FlaskClient, match: str, events: list[Event], page: str) -> str:
    """`events` tapped in turn on `page`, each recorded: the last answer."""
    for ev in events:
        status, page = tap(client, match, as_tapped(ev), page)
        assert status == 200, ev
    return page


def shown(page: str) -> str:
    """A board without its CSRF tokens, which carry the second they were made in."""
    return re.sub(r'name="csrf_token"[^>]*>', "", page)


def fresh_board(client: FlaskClient, match: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """The board a process that kept nothing shows: the stored log replayed from its start."""
    monkeypatch.setattr(table_matches, "_STATES", Recent(64))
    answer = client.get(match + "/board?v=0")
    assert answer.status_code == 200
    return shown(answer.get_data(as_text=True))


def logged_count(page: str) -> int:
    found = re.search(r"Log \((\d+) events\)", page)
    assert found is not None
    return int(found[1])


@pytest.fixture
def long_match(app: Flask, client: FlaskClient) -> tuple[str, list[Event]]:
    """Side 1's address of a Space Empires match, and a log longer than LONG for it."""
    match, data = started(client, "spaceempires")
    return match, list(walked(example_header(data), LONG + 10).events)


def test_a_tap_late_in_a_match_applies_as_many_events_as_one_early(
        app: Flask, client: FlaskClient, long_match: tuple[str, list[Event]],
        applied: Applied) -> None:
    match, log = long_match
    counts = {}
    for at, before in ((10, log[:9]), (LONG, log[10:LONG - 1])):
        page = page_at(app, client, match, before)
        applied.start()
        status, page = tap(client, match, as_tapped(log[at - 1]), page)
        assert status == 200 and logged_count(page) == at
        counts[at] = applied.count
    assert counts == {10: 1, LONG: 1}  # the tap itself, checked by the rules; no replay


def test_the_board_a_tap_answers_is_the_stored_logs_replayed(
        app: Flask, client: FlaskClient, long_match: tuple[str, list[Event]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    match, log = long_match
    page = tapped(client, match, log[LONG - 3:LONG], page_at(app, client, match,
                                                             log[:LONG - 3]))
    assert shown(page) == fresh_board(client, match, monkeypatch)


def test_the_other_phone_and_another_process_cost_only_their_new_events(
        app: Flask, client: FlaskClient, long_match: tuple[str, list[Event]],
        applied: Applied, monkeypatch: pytest.MonkeyPatch) -> None:
    match, log = long_match
    page = page_at(app, client, match, log[:LONG - 4])
    opponent = re.search(r'id="opponent-link" class="copyable" type="text" readonly '
                         r'value="[^"]*(/m/[^"]+)"', page)
    assert opponent is not None
    # side 2's phone in this process: its board starts from the state side 1's page kept
    side2 = app.test_client()
    theirs = side2.get(opponent[1]).get_data(as_text=True)
    applied.start()
    status, theirs = tap(side2, opponent[1], as_tapped(log[LONG - 4]), theirs)
    assert status == 200 and applied.count == 1
    # another worker recorded two taps: this one resumes from what it kept
    grown(app, match, log[LONG - 3:LONG - 1], side=2)
    applied.start()
    status, page = tap(client, match, as_tapped(log[LONG - 1]), page)
    assert status == 200 and applied.count == 3 and logged_count(page) == LONG
    assert shown(page) == fresh_board(client, match, monkeypatch)


def test_undo_late_in_a_match_replays_nothing_and_shows_the_log_without_its_last(
        app: Flask, client: FlaskClient, long_match: tuple[str, list[Event]],
        applied: Applied, monkeypatch: pytest.MonkeyPatch) -> None:
    match, log = long_match
    page = tapped(client, match, log[LONG - 2:LONG], page_at(app, client, match,
                                                             log[:LONG - 2]))
    applied.start()
    for left in (LONG - 1, LONG - 2):
        undone = client.post(match + "/undo", data={"csrf_token": csrf_of(page),
                                                    "base": version(page)}, headers=TABLE)
        page = undone.get_data(as_text=True)
        assert undone.status_code == 200 and logged_count(page) == left
    assert applied.count == 0
    # and a tap after the undo goes on from there
    status, page = tap(client, match, as_tapped(log[LONG - 2]), page)
    assert status == 200 and applied.count == 1 and logged_count(page) == LONG - 1
    assert shown(page) == fresh_board(client, match, monkeypatch)


def test_a_refused_tap_changes_neither_the_log_nor_the_state_kept(
        app: Flask, client: FlaskClient, long_match: tuple[str, list[Event]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    match, log = long_match
    page = page_at(app, client, match, log[:LONG - 1])
    status, refused = tap(client, match, {"kind": "play", "side": 1,
                                          "card": "No Such Card"}, page)
    assert status == 422 and "Not recorded" in refused
    assert stored_of(app, match).version == version(page)
    status, page = tap(client, match, as_tapped(log[LONG - 1]), page)
    assert status == 200 and logged_count(page) == LONG
    assert shown(page) == fresh_board(client, match, monkeypatch)


def test_a_log_rewritten_under_a_version_this_process_saw_shows_the_new_log(
        app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A database restored from a backup, then played on: the match comes back to a version
    this process kept a state for, with other events. The state kept is for the old log;
    the board must be the new one's."""
    match, data = started(client, "spaceempires")
    log = list(walked(example_header(data), LONG).events)
    stored = grown(app, match, log[:LONG])
    seen = client.get(match + "/board?v=0").get_data(as_text=True)
    engine = app.extensions["listbuilder.store"].engine
    with engine.begin() as connection:  # back to the backup: two events fewer
        connection.execute(delete(MatchEventRow).where(MatchEventRow.match_id == stored.id,
                                                       MatchEventRow.seq > LONG - 2))
        connection.execute(update(MatchRow).where(MatchRow.id == stored.id)
                           .values(version=stored.version - 2))
    # played on with other events than before, to the very version the board showed
    before = Match("spaceempires", example_header(data).players, tuple(log[:LONG - 2]),
                   example_header(data).options)
    other = walked(before, LONG).events[LONG - 2:]
    assert other != tuple(log[LONG - 2:LONG])
    again = grown(app, match, list(other))
    assert again.version == stored.version and again.events != stored.events
    board = client.get(match + "/board?v=0").get_data(as_text=True)
    assert shown(board) != shown(seen)
    assert shown(board) == fresh_board(client, match, monkeypatch)
