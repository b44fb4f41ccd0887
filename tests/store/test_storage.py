"""Saved rosters in a real SQLite file and a real PostgreSQL database: tokens, hashing, the
optimistic version check, many writers at once, deleting and restoring, and the print cache
shared through the database."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from at_once import at_once
from sqlalchemy import Engine

from listbuilder.store import database, print_cache, rosters
from listbuilder.store.admin import migrations
from listbuilder.store.database import BUSY_TIMEOUT_MS, sqlite_url
from listbuilder.store.links import hash_token
from listbuilder.store.rosters import MAX_TEXT, RosterStore, RosterTooLarge, StaleRoster


@pytest.fixture
def sqlite_store(tmp_path: Path) -> Iterator[RosterStore]:
    """A store on an SQLite file in a folder that doesn't exist yet."""
    url = sqlite_url(tmp_path / "deep" / "rosters.sqlite3")
    s = RosterStore(url)
    migrations.upgrade(s.engine)
    yield s
    s.close()


def rows(store: RosterStore, query: str) -> list[tuple[object, ...]]:
    with store.engine.connect() as connection:
        return [tuple(r) for r in connection.exec_driver_sql(query)]


def test_edit_token_is_256_bits_and_only_its_hash_is_stored(store: RosterStore) -> None:
    saved, token = store.create("warstuff", "A", "text")
    assert len(token) >= 43 and len(saved.share_token) >= 22  # 32 and 16 bytes, base64
    assert store.by_edit_token(token) == saved
    assert store.by_share_token(saved.share_token) == saved
    assert store.by_edit_token(saved.share_token) is None
    assert store.by_share_token(token) is None
    stored = rows(store, "select edit_hash, share_token from rosters")
    assert stored == [(hash_token(token), saved.share_token)]
    assert token not in str(stored)


def test_tokens_differ_between_rosters(store: RosterStore) -> None:
    made = [store.create("op40k", f"R{i}", "t") for i in range(20)]
    assert len({t for _, t in made}) == 20
    assert len({s.share_token for s, _ in made}) == 20


def test_save_bumps_the_version_and_a_stale_save_changes_nothing(store: RosterStore) -> None:
    saved, token = store.create("op40k", "A", "one")
    second = store.save(saved.id, 1, "B", "two")
    assert (second.version, second.name, second.text) == (2, "B", "two")
    with pytest.raises(StaleRoster) as stale:
        store.save(saved.id, 1, "C", "three")
    assert stale.value.current.text == "two" and stale.value.current.version == 2
    assert store.by_edit_token(token) == second


def test_a_save_given_the_roster_as_read_answers_as_a_read_back_would(
        store: RosterStore) -> None:
    """The builder hands save the roster it read at the start of the request: a save that
    lands then needs no read back, and answers with what a read would give."""
    saved, token = store.create("op40k", "A", "one")
    read = store.by_edit_token(token)
    assert read is not None
    answered = store.save(saved.id, 1, "B", "two", read=read)
    assert answered == store.by_edit_token(token)
    with pytest.raises(StaleRoster):  # a stale save still says so, read or not
        store.save(saved.id, 1, "C", "three", read=read)


def test_two_savers_at_once_one_wins(store: RosterStore) -> None:
    saved, _ = store.create("op40k", "A", "base")
    outcomes: list[str] = []

    def save(n: int) -> None:
        try:
            store.save(saved.id, 1, "A", f"text {n}")
            outcomes.append("saved")
        except StaleRoster:
            outcomes.append("stale")

    assert at_once(save, 4) == []
    assert sorted(outcomes) == ["saved", "stale", "stale", "stale"]


def test_lists_rosters_in_the_order_given(store: RosterStore) -> None:
    _a, ta = store.create("op40k", "A", "t")
    _b, tb = store.create("op40k", "B", "t")
    assert [s.name for _, s in store.by_edit_tokens([tb, "nope", ta])] == ["B", "A"]
    assert store.by_edit_tokens([]) == []


def test_bounds(store: RosterStore) -> None:
    with pytest.raises(RosterTooLarge):
        store.create("op40k", "A", "x" * (MAX_TEXT + 1))
    assert store.by_edit_token("") is None and store.by_edit_token("x" * 500) is None
    with pytest.raises(LookupError):
        store.save(999, 1, "A", "t")


# -- SQLite under load ------------------------------------------------------------------------

def test_sqlite_is_set_up_for_many_writers(sqlite_store: RosterStore) -> None:
    with sqlite_store.engine.connect() as connection:
        pragma = {name: connection.exec_driver_sql(f"PRAGMA {name}").scalar()
                  for name in ("journal_mode", "busy_timeout", "foreign_keys")}
    assert pragma == {"journal_mode": "wal", "busy_timeout": BUSY_TIMEOUT_MS, "foreign_keys": 1}


def test_many_writers_at_once_never_see_a_locked_database(database_url: str) -> None:
    """Three stores (as three worker processes would have) and 24 threads create and save
    rosters and keep prints in one database at once: every write lands."""
    stores = [RosterStore(database_url) for _ in range(3)]

    def player(n: int) -> None:
        store = stores[n % 3]
        saved, _ = store.create("op40k", f"R{n}", "text")
        for version in range(1, 11):
            saved = store.save(saved.id, version, f"R{n}", f"text {version}")
            store.prints.keep(f"{n}-{version}", b"%PDF" * 100)

    errors = at_once(player, 24)
    try:
        assert errors == []
        assert rows(stores[1], "select count(*), min(version), max(version) from rosters") \
            == [(24, 11, 11)]
        assert stores[0].prints.size() == (240, 240 * 400)
    finally:
        for s in stores:
            s.close()


def test_connections_opening_a_new_file_at_once_all_write(tmp_path: Path) -> None:
    """Switching a fresh file to WAL needs its exclusive lock, and SQLite refuses it at once
    (no busy timeout) while another connection holds a lock: two upgrades starting together
    saw "database is locked". Each trial is a new file opened by 8 engines at the same moment."""
    for trial in range(10):
        url = f"sqlite:///{tmp_path / f'new-{trial}.sqlite3'}"
        engines = [database.make_engine(url) for _ in range(8)]

        def write(n: int, engines: list[Engine] = engines) -> None:
            with engines[n].execution_options(sqlite_immediate=True).begin() as connection:
                connection.exec_driver_sql("CREATE TABLE IF NOT EXISTS t (n INTEGER)")
                connection.exec_driver_sql(f"INSERT INTO t VALUES ({n})")

        try:
            assert at_once(write, 8) == []
            with engines[0].connect() as connection:
                assert connection.exec_driver_sql("SELECT count(*) FROM t").scalar() == 8
                assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        finally:
            for engine in engines:
                engine.dispose()


def test_a_long_reader_does_not_hold_up_saves(sqlite_store: RosterStore, tmp_path: Path) -> None:
    """A backup or a report reading the file for a while leaves players' saves alone (in
    SQLite's old rollback journal, a writer waits for every reader to finish)."""
    store = sqlite_store
    saved, token = store.create("op40k", "A", "one")
    reader = sqlite3.connect(tmp_path / "deep" / "rosters.sqlite3", timeout=0,
                             isolation_level=None)
    try:
        reader.execute("BEGIN")
        assert reader.execute("select text from rosters").fetchall() == [("one",)]
        assert store.save(saved.id, 1, "A", "two").version == 2
        assert reader.execute("select text from rosters").fetchall() == [("one",)]  # its snapshot
        reader.execute("COMMIT")
    finally:
        reader.close()
    assert store.by_edit_token(token) is not None and store.by_edit_token(token).text == "two"


def test_a_save_holds_the_write_lock_only_inside_its_update(
        sqlite_store: RosterStore, tmp_path: Path) -> None:
    """The database's one write lock is free again as soon as a save's update has run: right
    after it (before the save reads the row back), another connection takes the lock at once
    with no waiting allowed. In a transaction the lock was held across the read and the
    commit, and across every wait for the interpreter lock between them."""
    from sqlalchemy import event

    store = sqlite_store
    saved, _ = store.create("op40k", "A", "one")
    other = sqlite3.connect(tmp_path / "deep" / "rosters.sqlite3", timeout=0,
                            isolation_level=None)
    taken: list[str] = []

    def after(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        if statement.lstrip().upper().startswith("UPDATE ROSTERS"):
            other.execute("BEGIN IMMEDIATE")  # raises "database is locked" if still held
            other.execute("COMMIT")
            taken.append(statement.split()[0])

    event.listen(store.engine, "after_cursor_execute", after)
    try:
        assert store.save(saved.id, 1, "A", "two").version == 2
        with pytest.raises(StaleRoster):
            store.save(saved.id, 1, "A", "three")
    finally:
        event.remove(store.engine, "after_cursor_execute", after)
        other.close()
    assert taken == ["UPDATE", "UPDATE"]


def test_a_save_answers_with_its_own_version_when_another_follows_at_once(
        sqlite_store: RosterStore) -> None:
    """A second save landing between a save's update and its read back (SQLite, where the
    update commits alone) leaves the first one answering with its own version and text: its
    page then meets the second save as a stale page does, and nothing is overwritten.
    (PostgreSQL reads back in the update's transaction: no save can come between.)"""
    from sqlalchemy import event

    store = sqlite_store
    saved, _ = store.create("op40k", "A", "one")
    landed: list[int] = []

    def after(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        if statement.lstrip().upper().startswith("UPDATE ROSTERS") and not landed:
            landed.append(1)
            with store.engine.connect() as racing:  # a new connection: another player
                racing.exec_driver_sql("UPDATE rosters SET version = 3, text = 'theirs'")
                racing.commit()

    event.listen(store.engine, "after_cursor_execute", after)
    try:
        mine = store.save(saved.id, 1, "A", "mine")
    finally:
        event.remove(store.engine, "after_cursor_execute", after)
    assert (mine.version, mine.text) == (2, "mine")
    with pytest.raises(StaleRoster) as stale:
        store.save(saved.id, 2, "A", "again")
    assert (stale.value.current.version, stale.value.current.text) == (3, "theirs")


# -- deleting and restoring ---------------------------------------------------------------------

def test_a_deleted_roster_is_hidden_until_restored(store: RosterStore) -> None:
    kept, kept_token = store.create("op40k", "Kept", "t")
    gone, token = store.create("op40k", "Gone", "t")
    deleted = store.delete(gone.id)
    assert deleted.deleted_at is not None and gone.deleted_at is None
    assert store.by_edit_token(token) is None
    assert store.by_share_token(gone.share_token) is None
    assert [s.name for _, s in store.by_edit_tokens([token, kept_token])] == ["Kept"]
    assert store.deleted_by_edit_token(token) == deleted
    assert store.deleted_by_edit_token(kept_token) is None
    with pytest.raises(LookupError):
        store.save(gone.id, 1, "Gone", "changed")
    assert store.delete(gone.id).deleted_at == deleted.deleted_at  # the first time is kept

    restored = store.restore(gone.id)
    assert restored == gone
    assert store.by_edit_token(token) == gone and store.deleted_by_edit_token(token) is None
    assert store.save(gone.id, 1, "Gone", "changed").version == 2
    assert store.by_edit_token(kept_token) == kept


def test_purge_removes_only_rosters_deleted_long_enough_ago(
        store: RosterStore, monkeypatch: pytest.MonkeyPatch) -> None:
    old, old_token = store.create("op40k", "Old", "t")
    recent, recent_token = store.create("op40k", "Recent", "t")
    alive, alive_token = store.create("op40k", "Alive", "t")
    start = datetime.now(UTC)
    monkeypatch.setattr(rosters, "moment", lambda: start - timedelta(days=40))
    store.delete(old.id)
    monkeypatch.setattr(rosters, "moment", lambda: start - timedelta(days=2))
    store.delete(recent.id)
    monkeypatch.setattr(rosters, "moment", lambda: start)
    assert store.purge_deleted(timedelta(days=30)) == 1
    assert store.deleted_by_edit_token(old_token) is None
    with pytest.raises(LookupError):
        store.restore(old.id)
    assert store.deleted_by_edit_token(recent_token) is not None
    assert store.by_edit_token(alive_token) == alive
    assert store.purge_deleted(timedelta(days=1)) == 1
    assert store.purge_deleted(timedelta(0)) == 0


# -- the shared print cache -----------------------------------------------------------------------

def test_a_kept_print_comes_back_and_a_second_keep_replaces_it(store: RosterStore) -> None:
    assert store.prints.cached("k") is None
    store.prints.keep("k", b"%PDF-1 first")
    assert store.prints.cached("k") == b"%PDF-1 first"
    store.prints.keep("k", b"%PDF-1 second")
    assert store.prints.cached("k") == b"%PDF-1 second"
    assert store.prints.size() == (1, len(b"%PDF-1 second"))


def test_a_second_store_on_the_database_sees_the_same_prints(database_url: str) -> None:
    one, two = RosterStore(database_url), RosterStore(database_url)
    try:
        one.prints.keep("k", b"pdf")
        assert two.prints.cached("k") == b"pdf"
    finally:
        one.close()
        two.close()


def test_least_recently_used_prints_go_past_the_bound(
        store: RosterStore, monkeypatch: pytest.MonkeyPatch) -> None:
    store.prints.most = 300
    start = datetime.now(UTC)
    for minute, key in enumerate("abc"):
        monkeypatch.setattr(print_cache, "now", lambda m=minute: start + timedelta(minutes=m))
        store.prints.keep(key, key.encode() * 100)
    monkeypatch.setattr(print_cache, "now", lambda: start + timedelta(minutes=10))
    assert store.prints.cached("a") == b"a" * 100  # "a" is now the most recently used
    monkeypatch.setattr(print_cache, "now", lambda: start + timedelta(minutes=11))
    store.prints.keep("d", b"d" * 100)
    assert store.prints.cached("b") is None
    assert [store.prints.cached(k) is not None for k in "acd"] == [True, True, True]
    assert store.prints.size() == (3, 300)
    store.prints.keep("big", b"x" * 301)  # larger than the whole cache: not kept, nothing lost
    assert store.prints.cached("big") is None and store.prints.size() == (3, 300)
    store.prints.keep("e", b"e" * 250)  # room is made for it from the oldest use on
    assert [k for k in "acde" if store.prints.cached(k) is not None] == ["e"]
