"""Undo and redo on the roster page: the history of a roster's last saves, on SQLite and on
PostgreSQL; the stacks replayed from it; and the routes, with and without htmx, in order,
stale, resent and refused."""

from __future__ import annotations

import re

import lxml.html
import pytest
from flask.testing import FlaskClient
from test_partial_answers import answer, apply_swaps, main_of
from webtools import Player, csrf_of, version_of

from listbuilder.engine import history
from listbuilder.engine.history import (
    HISTORY_KEPT,
    UNDO_REACH,
    HistoryStep,
    Stacks,
    Undoable,
    replay,
)
from listbuilder.engine.model import Roster, RosterEntry
from listbuilder.store import rosters as storage
from listbuilder.store.rosters import RosterStore, StaleRoster

# -- the history in the database --------------------------------------------------------------


def test_each_save_is_kept_with_its_words_and_kind(store: RosterStore) -> None:
    saved, _ = store.create("op40k", "A", "one")
    store.save(saved.id, 1, "A", "two", label="Add Trukk")
    store.save(saved.id, 2, "A", "one", label="Add Trukk", kind="undo")
    assert store.history(saved.id) == [HistoryStep(1, "", "edit"),
                                       HistoryStep(2, "Add Trukk", "edit"),
                                       HistoryStep(3, "Add Trukk", "undo")]
    assert [store.history_text(saved.id, v) for v in (1, 2, 3, 4)] == ["one", "two", "one", None]
    with pytest.raises(ValueError, match="not 'sideways'"):
        store.save(saved.id, 3, "A", "x", kind="sideways")


def test_a_stale_save_keeps_nothing_in_the_history(store: RosterStore) -> None:
    saved, _ = store.create("op40k", "A", "one")
    store.save(saved.id, 1, "A", "two", label="mine")
    with pytest.raises(StaleRoster):
        store.save(saved.id, 1, "A", "theirs", label="theirs")
    assert [(s.version, s.label) for s in store.history(saved.id)] == [(1, ""), (2, "mine")]


def test_the_history_keeps_a_rosters_last_saves_only(store: RosterStore) -> None:
    saved, _ = store.create("op40k", "A", "v1")
    other, _ = store.create("op40k", "B", "b1")
    for version in range(1, 41):
        store.save(saved.id, version, "A", f"v{version + 1}", label=f"change {version + 1}")
    steps = store.history(saved.id)
    assert [s.version for s in steps] == list(range(41 - HISTORY_KEPT + 1, 42))
    assert store.history_text(saved.id, 41) == "v41"
    assert store.history_text(saved.id, 41 - HISTORY_KEPT) is None
    assert store.history(other.id) == [HistoryStep(1, "", "edit")]  # each roster its own
    with store.engine.connect() as connection:
        count = connection.exec_driver_sql("SELECT count(*) FROM roster_history").scalar()
    assert count == HISTORY_KEPT + 1


def test_a_late_row_never_overwrites_a_newer_one(store: RosterStore) -> None:
    """On SQLite a save's row is written after its update commits: a slower save's row may
    come after that of the save HISTORY_KEPT later, in the same slot. It is not kept."""
    saved, _ = store.create("op40k", "A", "v1")
    for version in range(1, HISTORY_KEPT + 2):
        store.save(saved.id, version, "A", f"v{version + 1}")
    newest = HISTORY_KEPT + 2
    with store.engine.begin() as connection:
        storage._record(connection, saved.id, newest - HISTORY_KEPT, "late", "late", "edit",
                        storage.moment())
    assert store.history_text(saved.id, newest) == f"v{newest}"
    assert all(s.label != "late" for s in store.history(saved.id))


def test_purging_a_roster_takes_its_history(store: RosterStore) -> None:
    from datetime import timedelta

    saved, _ = store.create("op40k", "A", "one")
    store.save(saved.id, 1, "A", "two")
    store.delete(saved.id)
    assert store.purge_deleted(timedelta(0)) == 1
    assert store.history(saved.id) == []


# -- the stacks, replayed ---------------------------------------------------------------------

def steps(*kinds: tuple[str, str], start: int = 1) -> list[HistoryStep]:
    """A history from its first row (version `start`, the base) on: (kind, label) each."""
    return [HistoryStep(start, "", "edit")] + [
        HistoryStep(start + 1 + i, label, kind) for i, (kind, label) in enumerate(kinds)]


def labels(stacks: Stacks) -> tuple[list[str], list[str]]:
    return [u.label for u in stacks.undo], [u.label for u in stacks.redo]


def test_edits_push_undo_moves_to_redo_and_redo_moves_back() -> None:
    h = steps(("edit", "A"), ("edit", "B"), ("edit", "C"))
    assert replay(h, 4).undo == (Undoable("A", 1, 2), Undoable("B", 2, 3), Undoable("C", 3, 4))
    h += [HistoryStep(5, "C", "undo"), HistoryStep(6, "B", "undo")]
    assert labels(replay(h, 6)) == (["A"], ["C", "B"])
    assert replay(h, 6).next_redo == Undoable("B", 2, 3)  # redo: the text of version 3 again
    h += [HistoryStep(7, "B", "redo")]
    assert labels(replay(h, 7)) == (["A", "B"], ["C"])
    h += [HistoryStep(8, "D", "edit")]  # a new change: what was undone can't be redone
    assert labels(replay(h, 8)) == (["A", "B", "D"], [])
    assert replay(h, 8).next_undo == Undoable("D", 7, 8)


def test_nothing_to_undo_on_a_new_roster_and_nothing_to_redo_after_an_edit() -> None:
    assert replay(steps(), 1) == Stacks()
    assert replay(steps(("edit", "A")), 2).next_redo is None
    assert replay([], 5) == Stacks()


def test_a_history_cut_short_still_undoes_and_redoes_what_it_names() -> None:
    """The oldest rows kept are past undos of changes made before them: their words and the
    rows on either side are enough to redo them, in the order they were undone."""
    h = steps(("undo", "B"), ("undo", "A"), start=10)  # B and A were changes before row 10
    stacks = replay(h, 12)
    assert stacks.undo == ()
    assert stacks.redo == (Undoable("B", 11, 10), Undoable("A", 12, 11))
    h += [HistoryStep(13, "A", "redo")]
    assert replay(h, 13).next_undo == Undoable("A", 12, 11)
    assert replay(steps(("redo", "X"), start=20), 21).next_undo == Undoable("X", 20, 21)


def test_a_missing_row_starts_the_history_afresh_and_a_short_one_gives_nothing() -> None:
    h = steps(("edit", "A"), ("edit", "B"))  # versions 1 to 3
    h += [HistoryStep(5, "D", "edit"), HistoryStep(6, "E", "edit")]  # version 4 lost
    assert labels(replay(h, 6)) == (["E"], [])
    assert replay(h, 7) == Stacks()  # the last save's row is missing: nothing is sure
    assert labels(history.replay_until(h, 3)) == (["A", "B"], [])


def test_changes_are_named_as_a_player_would_say_them() -> None:
    boyz = RosterEntry(unit="Ork Boyz", count=15, upgrades=("Shootas",))
    before = Roster(system="op40k", name="Waaagh", points_limit=500, factions=("Orks",),
                    entries=(boyz,))

    def entry(**changes: object) -> str:
        from dataclasses import replace
        after = replace(before, entries=(replace(boyz, **changes),))
        return history.entry_label(before, after, 0, "size")

    assert entry(count=10) == "Size of Ork Boyz: 10"
    assert entry(upgrades=("Shootas", "Boss Nob")) == "Ork Boyz: add Boss Nob"
    assert entry(upgrades=()) == "Ork Boyz: drop Shootas"
    assert entry(count=20, upgrades=()) == "Change Ork Boyz"
    from dataclasses import replace
    assert history.settings_label(before, replace(before, name="Big", points_limit=None)) \
        == "Rename to Big; No points limit"
    assert history.unit_name("Trukk|Orks") == "Trukk"


# -- on the roster page -----------------------------------------------------------------------

def orks(player: Player) -> None:
    player.start("op40k", "Waaagh", ("Orks",), 1000)


def units(player: Player) -> list[str]:
    return re.findall(r'class="entry-name" id="entry-\d+-name">([^<]+)<', player.html)


def buttons(player: Player) -> tuple[str, str]:
    """The undo and redo buttons' names, as a screen reader reads them."""
    found = dict(re.findall(r'id="(undo|redo)-button"[^>]*aria-label="([^"]+)"', player.html))
    return found["undo"], found["redo"]


def test_undo_and_redo_without_the_script(player: Player) -> None:
    orks(player)
    assert buttons(player) == ("Undo: nothing to undo", "Redo: nothing to redo")
    player.post("add", unit="Ork Boyz")
    player.post("add", unit="Nobz")
    player.post("remove", index=0, unit="Ork Boyz")
    assert units(player) == ["Nobz"]
    assert buttons(player) == ("Undo: Remove Ork Boyz", "Redo: nothing to redo")

    response = player.post("undo")
    assert response.status_code == 302
    assert re.search(r"/r/[^/?]+\?step=5$", response.headers["Location"])
    assert units(player) == ["Ork Boyz", "Nobz"] and version_of(player.html) == 5
    assert "Undone: Remove Ork Boyz" in player.html
    assert buttons(player) == ("Undo: Add Nobz", "Redo: Remove Ork Boyz")

    player.post("redo")
    assert units(player) == ["Nobz"] and "Redone: Remove Ork Boyz" in player.html
    assert buttons(player) == ("Undo: Remove Ork Boyz", "Redo: nothing to redo")

    for _ in range(3):
        player.post("undo")
    assert units(player) == [] and version_of(player.html) == 9
    assert buttons(player) == ("Undo: nothing to undo", "Redo: Add Ork Boyz")
    # the page says what was done only while it shows the version that did it
    player.post("add", unit="Trukk")
    assert "Undone" not in player.html
    player.get(f"/r/{player.token}?step=9")
    assert "Undone" not in player.html and units(player) == ["Trukk"]


def test_a_new_change_after_an_undo_clears_redo(player: Player) -> None:
    orks(player)
    player.post("add", unit="Ork Boyz")
    player.post("add", unit="Nobz")
    player.post("undo")
    assert buttons(player)[1] == "Redo: Add Nobz"
    player.post("entry", index=0, unit="Ork Boyz", count=20, anchor="entry-0")
    assert buttons(player) == ("Undo: Size of Ork Boyz: 20", "Redo: nothing to redo")
    response = player.post("redo")
    assert response.status_code == 422 and "Nothing to redo" in player.html
    assert units(player) == ["Ork Boyz"] and version_of(player.html) == 5  # nothing saved


def test_an_answer_reads_the_history_once(player: Player,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """An answer to a change works out the page before the change and after it: the history
    read after the save serves both (services.history), and names the new undo."""
    orks(player)
    player.post("add", unit="Ork Boyz")
    reads: list[int] = []
    real = RosterStore.history

    def counted(self: RosterStore, roster_id: int) -> list[HistoryStep]:
        reads.append(roster_id)
        return real(self, roster_id)

    monkeypatch.setattr(RosterStore, "history", counted)
    # the page before the change is worked out again, with the same history
    response = player.post("entry", htmx=True, index=0, unit="Ork Boyz", count=20,
                           anchor="entry-0")
    assert response.status_code == 200 and len(reads) == 1
    assert 'aria-label="Undo: Size of Ork Boyz: 20"' in player.html


def test_a_change_that_changes_nothing_keeps_no_undo_step(player: Player) -> None:
    """Enter in a count box sends the box's change and then the form's submit, the same
    values: the second is answered, saved as nothing, so one Undo undoes the count."""
    orks(player)
    player.post("add", unit="Ork Boyz")
    for htmx in (False, True, False):
        player.get(f"/r/{player.token}")
        response = player.post("entry", htmx=htmx, index=0, unit="Ork Boyz", count=20,
                               anchor="entry-0")
        assert response.status_code in (200, 302)
    player.get(f"/r/{player.token}")
    assert version_of(player.html) == 3  # created, added, resized: nothing more
    assert buttons(player) == ("Undo: Size of Ork Boyz: 20", "Redo: nothing to redo")
    player.post("undo")  # back to the size Ork Boyz are added at
    assert 'value="15"' in re.search(r'<input[^>]*id="count-0"[^>]*>', player.html)[0]


def test_nothing_to_undo_says_so(player: Player) -> None:
    orks(player)
    for htmx in (False, True):
        player.get(f"/r/{player.token}")
        response = player.post("undo", htmx=htmx)
        body = response.get_data(as_text=True)
        assert response.status_code == 422 and "Nothing to undo" in body
    player.get(f"/r/{player.token}")
    assert version_of(player.html) == 1


def test_undo_reaches_back_over_the_last_saves_kept(player: Player) -> None:
    """The history keeps the last HISTORY_KEPT saves, undos among them: undoing one change
    after another reaches back half as far (UNDO_REACH), and all of it can be redone."""
    orks(player)
    adds = HISTORY_KEPT + 3
    for _ in range(adds):
        player.post("add", unit="Gretchin")
    for n in range(UNDO_REACH):
        assert player.post("undo").status_code == 302, n
    assert len(units(player)) == adds - UNDO_REACH
    response = player.post("undo")
    assert response.status_code == 422 and "Nothing to undo" in player.html
    assert f"at least the last {UNDO_REACH} changes" in player.html
    for n in range(UNDO_REACH):
        assert player.post("redo").status_code == 302, n
    assert len(units(player)) == adds
    assert player.post("redo").status_code == 422


def test_undo_from_a_stale_page_is_refused_and_names_the_latest(
        player: Player, client: FlaskClient) -> None:
    orks(player)
    player.post("add", unit="Ork Boyz")
    stale = player.html
    player.post("add", unit="Nobz")  # another tab
    player.html = stale
    response = player.post("undo", htmx=True)
    body = response.get_data(as_text=True)
    assert response.status_code == 409
    assert "Not undone: this roster changed since this page was loaded" in body
    assert "you had version 2; it is now version 3" in body
    assert "undo would undo Add Nobz" in body and ">Undo: Add Nobz</button>" in body
    assert units(player) == ["Ork Boyz", "Nobz"]  # the latest, nothing undone
    player.post("undo")  # the offer taken: the latest page's undo
    assert units(player) == ["Ork Boyz"] and version_of(player.html) == 4


def test_an_undo_sent_again_is_not_applied_twice(player: Player) -> None:
    orks(player)
    player.post("add", unit="Ork Boyz")
    player.post("add", unit="Nobz")
    page = player.html
    first = player.post("undo", htmx=True, edit="undo-edit-0001")
    assert first.status_code == 200
    player.html = page  # its answer was lost: the same change again, from the same page
    again = player.post("undo", htmx=True, edit="undo-edit-0001", shown=3)
    assert again.status_code == 200
    assert "the server had saved it when it was first sent" in again.get_data(as_text=True)
    player.get(f"/r/{player.token}")
    assert units(player) == ["Ork Boyz"] and version_of(player.html) == 4


def test_undo_right_after_a_refused_change_says_it_was_not_saved(player: Player) -> None:
    """The refusal's notice names the change (the script sends it with an undo pressed while
    the notice is shown); the whole page without the script puts it in the undo form."""
    orks(player)
    player.post("add", unit="Ork Boyz")
    status, body = answer(player, "entry", index=0, unit="Ork Boyz", count=0, anchor="entry-0")
    assert status == 422 and 'data-refused="changing Ork Boyz"' in body
    response = player.post("entry", index=0, unit="Ork Boyz", count=0, anchor="entry-0")
    assert response.status_code == 422
    refused = lxml.html.fromstring(player.html).xpath(
        "//form[@id='undo-form']//input[@name='refused']/@value")
    assert refused == ["changing Ork Boyz"]
    response = player.post("undo", htmx=True, refused=refused[0])
    said = response.get_data(as_text=True)
    assert response.status_code == 422 and "data-refused" not in said
    assert "Nothing undone: changing Ork Boyz was not saved" in said
    assert "Undo again to undo the last change saved: Add Ork Boyz." in said
    player.get(f"/r/{player.token}")
    assert units(player) == ["Ork Boyz"] and version_of(player.html) == 2
    assert 'name="refused"' not in player.html
    player.post("undo")
    assert units(player) == []


def without_notices(doc: lxml.html.HtmlElement) -> str:
    for notice in doc.xpath("//*[@id='notices']/*"):
        notice.getparent().remove(notice)
    return main_of(doc)


def test_undo_and_redo_answer_in_parts_that_rebuild_the_page(player: Player) -> None:
    """Each answer, applied to the page the player had, gives the page a fresh load shows
    (but for its notice, "Undone: ...", which a fresh load does not repeat)."""
    orks(player)
    for unit in ("Ork Boyz", "Nobz", "Trukk"):
        answer(player, "add", unit=unit)
    answer(player, "entry", index=0, unit="Ork Boyz", count=20, anchor="entry-0")
    answer(player, "reorder", index=2, unit="Trukk", to=0)
    for action in ("undo", "undo", "redo", "undo", "undo", "undo", "redo"):
        before = player.html
        response = player.post(action, htmx=True)
        body = response.get_data(as_text=True)
        assert response.status_code == 200 and "<main" not in body, action
        assert re.search(r'id="notices" hx-swap-oob="true"[^>]*>\s*<div class="notice info"',
                         body), body
        player.get(f"/r/{player.token}")
        got = without_notices(apply_swaps(before, body))
        assert got == without_notices(lxml.html.fromstring(player.html)), action
    assert "Redone: Add Nobz" in body and 'id="said" hx-swap-oob="true"' in body
    assert units(player) == ["Ork Boyz", "Nobz"]
    assert buttons(player) == ("Undo: Add Nobz", "Redo: Add Trukk")


def test_undo_and_redo_need_the_page_version_and_its_token(player: Player,
                                                           client: FlaskClient) -> None:
    orks(player)
    player.post("add", unit="Ork Boyz")
    token = csrf_of(player.html)
    for data in ({"csrf_token": token}, {"csrf_token": token, "version": "x"},
                 {"version": 2}):
        response = client.post(f"/r/{player.token}/undo", data=data)
        assert response.status_code == 400, data
    response = client.post("/r/not-a-token/undo", data={"csrf_token": token, "version": 2})
    assert response.status_code == 404
    player.get(f"/r/{player.token}")
    assert units(player) == ["Ork Boyz"]


def test_a_fresh_page_after_undo_is_the_page_the_answers_built(player: Player) -> None:
    """No page load between changes, as in a browser: each answer is worked out against the
    page the last answer left."""
    orks(player)
    doc = lxml.html.fromstring(player.html)
    for action, data in (("add", {"unit": "Ork Boyz"}), ("add", {"unit": "Nobz"}),
                         ("undo", {}), ("redo", {}), ("undo", {}), ("add", {"unit": "Trukk"}),
                         ("undo", {})):
        response = player.post(action, htmx=True, **data)
        assert response.status_code == 200, action
        doc = apply_swaps(lxml.html.tostring(doc, encoding="unicode"),
                          response.get_data(as_text=True))
        player.html = lxml.html.tostring(doc, encoding="unicode")
    fresh = player.client.get(f"/r/{player.token}").get_data(as_text=True)
    assert without_notices(doc) == without_notices(lxml.html.fromstring(fresh))
    assert units(player) == ["Ork Boyz"]
