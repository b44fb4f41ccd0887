"""Events in a real SQLite file and a real PostgreSQL database (listbuilder/store/events.py):
links kept as the other stores keep them, lists sealed and sealed again until the deadline,
rounds paired from the standings with no rematch, results entered, and an event changed by
two organiser tabs at once changed once."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from listbuilder.engine.events.sealing import Sealed, seal
from listbuilder.engine.library import Library
from listbuilder.store.database import now
from listbuilder.store.events import (
    EventStore,
    ListsLocked,
    RoundRefused,
    StaleEvent,
    StoredEvent,
)
from listbuilder.store.rosters import RosterStore
from listbuilder.store.tables import EventRow

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def events(store: RosterStore) -> EventStore:
    return EventStore(store.engine)


@pytest.fixture
def sealed(library: Library) -> Sealed:
    return seal(library.read_roster_file(ROOT / "examples" / "op40k" / "legal.yaml"))


def new_event(events: EventStore, rounds: int | None = 3) -> tuple[StoredEvent, str]:
    return events.create("op40k", "Club night", points_limit=500, packs={},
                         data_revision="3e9de95cbbb4", rounds=rounds,
                         deadline=now() + timedelta(days=1))


def with_players(events: EventStore, sealed: Sealed, count: int) -> StoredEvent:
    event, _ = new_event(events)
    for number in range(1, count + 1):
        events.submit(event, number, f"Player {number}", sealed)
    return event


def test_an_event_is_found_by_its_links_and_keeps_only_the_organisers_hash(
        events: EventStore, store: RosterStore) -> None:
    event, token = new_event(events)
    assert events.by_organiser_token(token) == event
    assert events.by_public_token(event.share_token) == event
    assert events.by_organiser_token(event.share_token) is None
    assert events.by_public_token(token) is None
    assert events.by_organiser_token("x" * 500) is None
    with store.engine.connect() as connection:
        kept = connection.execute(select(EventRow.edit_hash)).scalar_one()
    assert token not in kept and len(kept) == 64
    assert (event.points_limit, event.rounds, event.packs, event.league) == (500, 3, {}, False)


def test_a_list_sealed_again_replaces_its_copy_and_keeps_its_code(
        events: EventStore, sealed: Sealed, library: Library) -> None:
    event, _ = new_event(events)
    first = events.submit(event, 7, "Ann", sealed)
    assert (first.sha256, first.state, first.text) == (sealed.sha256, "legal", sealed.text)
    other = seal(library.read_roster_file(ROOT / "examples" / "op40k" / "illegal.yaml"))
    again = events.submit(event, 7, "Ann B.", other)
    assert (again.id, again.code) == (first.id, first.code)
    assert (again.player, again.sha256, again.state) == ("Ann B.", other.sha256, "illegal")
    assert again.problems == other.problems
    assert events.lists(event.id) == [again]
    found = events.by_code(first.code)
    assert found is not None and found[0].id == event.id and found[1] == again
    assert events.by_code("no-such-code") is None


def test_lists_are_locked_at_the_deadline_in_words(events: EventStore, sealed: Sealed) -> None:
    event, _ = new_event(events)
    events.submit(event, 1, "Ann", sealed)
    with pytest.raises(ListsLocked) as locked:
        events.submit(event, 1, "Ann", sealed, at=event.deadline)
    assert str(locked.value) == (f"lists for Club night closed at "
                                 f"{event.deadline:%Y-%m-%d %H:%M} UTC; ask the organiser")
    assert len(events.lists(event.id)) == 1


def test_rounds_pair_every_list_once_give_a_bye_and_never_a_rematch(
        events: EventStore, sealed: Sealed) -> None:
    event = with_players(events, sealed, 5)
    met: set[frozenset[int]] = set()
    byes: list[int] = []
    for number in (1, 2, 3):
        event = events.event(event.id)
        tables = events.pair(event)
        assert {t.round for t in tables} == {number}
        seated = sorted(p for t in tables for p in (t.first, t.second) if p is not None)
        assert seated == sorted(li.id for li in events.lists(event.id))
        for table in tables:
            if table.bye:
                assert table.reported is not None and table.winner == 1
                byes.append(table.first)
                continue
            pair = frozenset((table.first, table.second))
            assert pair not in met
            met.add(pair)
            events.report(events.event(event.id), table.id, 1, (6, 2))
    assert len(byes) == len(set(byes)) == 3
    with pytest.raises(RoundRefused, match="all 3 rounds are played: the standings are final"):
        events.pair(events.event(event.id))


def test_a_round_waits_for_every_result_of_the_last(events: EventStore, sealed: Sealed) -> None:
    event = with_players(events, sealed, 4)
    first, second = events.pair(event)
    events.report(events.event(event.id), first.id, None, (3, 3))
    with pytest.raises(RoundRefused, match=f"round 1 still waits for the result of table "
                                           f"{second.table}: enter it, then pair round 2"):
        events.pair(events.event(event.id))
    assert len(events.games(event.id)) == 2


def test_two_tabs_pairing_at_once_make_one_round(events: EventStore, sealed: Sealed) -> None:
    event = with_players(events, sealed, 4)
    events.pair(event)
    with pytest.raises(StaleEvent) as stale:
        events.pair(event)
    assert stale.value.current.version == event.version + 1
    assert len(events.games(event.id)) == 2


def test_standings_follow_the_results_and_changes_by_hand_are_logged(
        events: EventStore, sealed: Sealed) -> None:
    event = with_players(events, sealed, 4)
    tables = events.pair(event)
    events.report(events.event(event.id), tables[0].id, 2, (1, 9))
    events.report(events.event(event.id), tables[1].id, None, (4, 4),
                  words="Table 2 entered by hand: a draw, 4 to 4")
    lines = events.standings(event.id)
    top = lines[0]
    assert (top.player, top.match_points, top.score) == (str(tables[0].second), 3, 9)
    assert [line.match_points for line in lines] == [3, 1, 1, 0]
    assert [words for _, words in events.changes(event.id)] == [
        "Table 2 entered by hand: a draw, 4 to 4"]
    with pytest.raises(LookupError, match="no such table"):
        events.report(events.event(event.id), 10**6, 1, (0, 0))


def test_an_event_takes_at_most_its_bound_of_lists_and_still_takes_them_again(
        events: EventStore, sealed: Sealed, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("listbuilder.store.events.MAX_LISTS", 3)
    event = with_players(events, sealed, 3)
    with pytest.raises(ListsLocked, match="has its 3 lists, the most an event takes"):
        events.submit(event, 99, "Late", sealed)
    assert events.submit(event, 1, "Player 1 again", sealed).player == "Player 1 again"
    assert len(events.lists(event.id)) == 3
