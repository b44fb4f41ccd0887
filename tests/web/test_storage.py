"""Saved rosters in a real SQLite file: tokens, hashing, the optimistic version check."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from listbuilder.storage import (
    MAX_TEXT,
    RosterStore,
    RosterTooLarge,
    StaleRoster,
    hash_token,
    sqlite_url,
)


@pytest.fixture
def store(tmp_path: Path):  # type: ignore[no-untyped-def]
    s = RosterStore(sqlite_url(tmp_path / "deep" / "rosters.sqlite3"))
    yield s
    s.close()


def test_edit_token_is_256_bits_and_only_its_hash_is_stored(store: RosterStore,
                                                            tmp_path: Path) -> None:
    saved, token = store.create("warstuff", "A", "text")
    assert len(token) >= 43 and len(saved.share_token) >= 22  # 32 and 16 bytes, base64
    assert store.by_edit_token(token) == saved
    assert store.by_share_token(saved.share_token) == saved
    assert store.by_edit_token(saved.share_token) is None
    assert store.by_share_token(token) is None
    db = sqlite3.connect(tmp_path / "deep" / "rosters.sqlite3")
    rows = db.execute("select edit_hash, share_token from rosters").fetchall()
    db.close()
    assert rows == [(hash_token(token), saved.share_token)]
    assert token not in str(rows)


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


def test_two_savers_at_once_one_wins(store: RosterStore) -> None:
    saved, _ = store.create("op40k", "A", "base")
    outcomes: list[str] = []
    barrier = threading.Barrier(4)

    def save(n: int) -> None:
        barrier.wait()
        try:
            store.save(saved.id, 1, "A", f"text {n}")
            outcomes.append("saved")
        except StaleRoster:
            outcomes.append("stale")

    threads = [threading.Thread(target=save, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
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
