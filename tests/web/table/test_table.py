"""The match tracker through the app (web/table): a match started from a roster with the
opponent's share link, a file or solo; taps recorded, refused with the rule, kept once when
sent twice; undo that never takes back what it did not show; links that are keys; and the log
exported, which `listbuilder match` replays to what the page showed. On a real SQLite file
and a real PostgreSQL (the `app` fixture)."""

from __future__ import annotations

import html
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from at_once import at_once
from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient
from webtools import csrf_of

from listbuilder.commands.cli import main
from listbuilder.store.matches import MatchStore
from listbuilder.store.tables import MatchEventRow, MatchRow, MatchSpentIdRow

ROOT = Path(__file__).resolve().parents[3]
GAMES = ("hammerwars", "op40k", "warstuff", "actionhammer", "spaceempires")
TABLE = {"X-Table": "1"}


def example(game: str) -> dict[str, Any]:
    return dict(yaml.safe_load((ROOT / "examples" / game / "match.yaml")
                               .read_text(encoding="utf-8")))


def imported(client: FlaskClient, text: str) -> str:
    """A roster file opened as a new roster: its edit address."""
    home = client.get("/").get_data(as_text=True)
    made = client.post("/import", data={"csrf_token": csrf_of(home),
                                        "file": (io.BytesIO(text.encode()), "roster.yaml")},
                       content_type="multipart/form-data")
    assert made.status_code == 302, made.get_data(as_text=True)
    return str(made.headers["Location"])


def share_of(client: FlaskClient, edit: str) -> str:
    page = client.get(edit).get_data(as_text=True)
    found = re.search(r'id="share-link" class="copyable" type="text" readonly value="([^"]+)"',
                      page)
    assert found is not None
    return found[1]


def start(client: FlaskClient, edit: str, **fields: object) -> Any:
    page = client.get(edit + "/play").get_data(as_text=True)
    return client.post(edit + "/play", data={"csrf_token": csrf_of(page), **fields},
                       content_type="multipart/form-data")


def started(client: FlaskClient, game: str) -> tuple[str, dict[str, Any]]:
    """Side 1's match address for the example's two rosters, and the example."""
    data = example(game)
    mine = imported(client, data["players"][0]["roster"])
    theirs = imported(client, data["players"][1]["roster"])
    made = start(client, mine, me=data["players"][0]["name"],
                 opponent=data["players"][1]["name"], source="link",
                 link=share_of(client, theirs), **{f"opt_{k}": v for k, v in
                                                   (data.get("options") or {}).items()})
    assert made.status_code == 303, made.get_data(as_text=True)
    return str(made.headers["Location"]).split("?")[0], data


def form_of(ev: dict[str, Any], page: str, ev_id: str = "") -> dict[str, object]:
    form: dict[str, object] = {"csrf_token": csrf_of(page), "base": version(page),
                               "kind": ev["kind"]}
    for key in ("side", "unit"):
        if key in ev:
            form[key] = ev[key]
    for key, value in ev.items():
        if key not in ("kind", "side", "unit", "id"):
            form[f"v_{key}"] = ("yes" if value else "no") if isinstance(value, bool) else value
    if ev_id:
        form["id"] = ev_id
    return form


def version(page: str) -> int:
    found = re.search(r'id="board" data-version="(\d+)"', page)
    assert found is not None, page[:500]
    return int(found[1])


def message(page: str) -> str:
    found = re.search(r'id="table-message">([^<]+)<', page)
    return " ".join(html.unescape(found[1]).split()) if found else ""


def tap(client: FlaskClient, match: str, ev: dict[str, Any], page: str,
        ev_id: str = "") -> tuple[int, str]:
    answer = client.post(match + "/event", data=form_of(ev, page, ev_id), headers=TABLE)
    return answer.status_code, answer.get_data(as_text=True)


def rows(app: Flask) -> dict[str, list[tuple[Any, ...]]]:
    engine = app.extensions["listbuilder.store"].engine
    with engine.connect() as connection:
        return {t.__tablename__: sorted(tuple(r) for r in connection.execute(
            t.__table__.select()).all()) for t in (MatchRow, MatchEventRow)}


def replayed(tmp_path: Path, text: str) -> dict[str, Any]:
    path = tmp_path / "exported.yaml"
    path.write_text(text, encoding="utf-8")
    done = CliRunner().invoke(main, ["match", str(path), "--json"])
    assert done.exit_code == 0, done.output
    return dict(json.loads(done.output))


@pytest.mark.parametrize("game", GAMES)
def test_a_game_played_through_the_pages_exports_a_log_that_replays_to_what_they_showed(
        client: FlaskClient, game: str, tmp_path: Path) -> None:
    match, data = started(client, game)
    page = client.get(match).get_data(as_text=True)
    played = data["events"][:20]
    for ev in played:
        status, page = tap(client, match, ev, page)
        assert status == 200 and not message(page), (ev, message(page))
    page = html.unescape(page)
    exported = client.get(match + "/match.yaml")
    assert exported.status_code == 200 and "attachment" in exported.headers[
        "Content-Disposition"]
    back = yaml.safe_load(exported.get_data(as_text=True))
    assert back["events"] == [{k: v for k, v in ev.items() if k != "id"} for ev in played]
    state = replayed(tmp_path, exported.get_data(as_text=True))
    assert state["events"] == len(played)
    shown = re.search(r'id="headline">([^<]*)<', page)
    assert shown is not None and " ".join(shown[1].split()) == state["reason"]
    for label, values in state["scores"].items():
        cells = re.search(rf'<th scope="row">{re.escape(label)}</th>((?:<td>[^<]*</td>)+)',
                          page)
        assert cells is not None, label
        assert re.findall(r"<td>([^<]*)</td>", cells[1]) == [str(v) for v in values]


def test_a_tap_the_rules_refuse_says_the_rule_and_the_fix_and_stores_nothing(
        app: Flask, client: FlaskClient) -> None:
    match, _data = started(client, "op40k")
    page = client.get(match).get_data(as_text=True)
    before = rows(app)
    # a unit acting before anyone won the roll-off for the first turn
    status, answer = tap(client, match, {"kind": "activate", "side": 1, "unit": 1,
                                         "action": "Hold"}, page)
    assert status == 422
    assert message(answer).startswith("Not recorded: ")
    assert rows(app) == before
    # a value of the wrong kind, and a kind the game does not have
    status, answer = tap(client, match, {"kind": "shot", "side": 1, "unit": 1,
                                         "models": "many"}, page)
    assert status == 400 and "'models' is a whole number" in message(answer)
    status, answer = tap(client, match, {"kind": "teleport", "side": 1}, page)
    assert status == 422 and "there is no event 'teleport'" in message(answer)
    assert rows(app) == before


def test_a_tap_sent_twice_is_kept_once(app: Flask, client: FlaskClient) -> None:
    """The phone sends its id with each tap: an answer lost on the way and the tap sent again
    (table.js) must not wound a unit twice."""
    match, data = started(client, "warstuff")
    page = client.get(match).get_data(as_text=True)
    first = data["events"][0]
    for _ in range(3):
        status, _answer = tap(client, match, first, page, ev_id="tap-0001")
        assert status == 200
    assert len(rows(app)["match_events"]) == 1
    assert yaml.safe_load(client.get(match + "/match.yaml").get_data(as_text=True))[
        "events"] == [{**first, "id": "tap-0001"}]


def logged(client: FlaskClient, match: str) -> list[dict[str, Any]]:
    """The match's events as its exported log has them, ids included."""
    return list(yaml.safe_load(client.get(match + "/match.yaml").get_data(as_text=True))
                ["events"] or [])


def test_an_undone_tap_stays_undone_when_its_phone_sends_it_again(
        app: Flask, client: FlaskClient) -> None:
    """A phone whose answer was lost sends its tap again with the same id. When the tap was
    undone meanwhile, the retry is answered with the board as it stands: before, it put the
    tap back and undid the other player's undo."""
    match, data = started(client, "warstuff")
    page = client.get(match).get_data(as_text=True)
    first, second = data["events"][:2]
    status, after = tap(client, match, first, page, ev_id="tap-x")
    assert status == 200 and [e["id"] for e in logged(client, match)] == ["tap-x"]
    undone = client.post(match + "/undo", data={"csrf_token": csrf_of(after),
                                                "base": version(after)}, headers=TABLE)
    assert undone.status_code == 200 and logged(client, match) == []
    board = undone.get_data(as_text=True)
    status, retried = tap(client, match, first, page, ev_id="tap-x")  # the lost answer's retry
    assert status == 200 and not message(retried)
    assert version(retried) == version(board) and logged(client, match) == []
    # still spent later on, with other taps in between
    status, page = tap(client, match, first, retried, ev_id="tap-y")
    assert status == 200
    status, page = tap(client, match, second, page, ev_id="tap-z")
    assert status == 200
    status, _ = tap(client, match, first, page, ev_id="tap-x")
    assert status == 200 and [e["id"] for e in logged(client, match)] == ["tap-y", "tap-z"]


def test_retries_racing_an_undo_never_bring_the_tap_back(app: Flask) -> None:
    """The race reported: 8 threads, four phones' retries of one tap and four undos of it
    based on the board that showed it. One undo wins; no retry after it records the tap."""
    owner = app.test_client()
    match, data = started(owner, "warstuff")
    page = owner.get(match).get_data(as_text=True)
    status, shown = tap(owner, match, data["events"][0], page, ev_id="tap-race")
    assert status == 200
    clients = [app.test_client() for _ in range(8)]
    pages = [c.get(match).get_data(as_text=True) for c in clients]
    statuses: list[tuple[str, int]] = []

    def work(n: int) -> None:
        client, own = clients[n], pages[n]
        if n % 2:
            answer = client.post(match + "/undo", data={"csrf_token": csrf_of(own),
                                                        "base": version(shown)}, headers=TABLE)
            statuses.append(("undo", answer.status_code))
        else:
            for _ in range(3):
                got, _body = tap(client, match, data["events"][0], own, ev_id="tap-race")
                statuses.append(("retry", got))

    assert at_once(work, 8) == []
    assert sorted(s for kind, s in statuses if kind == "undo") == [200, 409, 409, 409]
    assert all(s == 200 for kind, s in statuses if kind == "retry")
    assert logged(owner, match) == []


def test_a_tap_from_the_other_phone_with_a_spent_id_is_refused_in_words(
        app: Flask, client: FlaskClient) -> None:
    """Ids are the phones' own: side 2's tap that comes with an id side 1 spent is not the
    same tap sent again. It was dropped silently with 200; now it is refused, saying so."""
    match, _data = started(client, "op40k")
    page = client.get(match).get_data(as_text=True)
    opponent = re.search(r'id="opponent-link" class="copyable" type="text" readonly '
                         r'value="http://localhost([^"]+)"', page)
    assert opponent is not None
    status, page = tap(client, match, {"kind": "first-turn", "side": 1}, page, ev_id="same")
    assert status == 200
    side2 = app.test_client()
    theirs = side2.get(opponent[1]).get_data(as_text=True)
    before = rows(app)
    status, answer = tap(side2, opponent[1], {"kind": "round-end"}, theirs, ev_id="same")
    assert status == 409
    assert message(answer) == ("Not recorded: this tap came with the id of a tap the other "
                               "phone made, so it was not kept. Tap it again to record it.")
    assert rows(app) == before
    with app.extensions["listbuilder.store"].engine.connect() as connection:
        spent = connection.execute(MatchSpentIdRow.__table__.select()).all()
    assert [(r.event_id, r.side) for r in spent] == [("same", 1)]


def test_undo_takes_back_only_the_event_it_showed(app: Flask, client: FlaskClient) -> None:
    match, data = started(client, "actionhammer")
    page = client.get(match).get_data(as_text=True)
    for ev in data["events"][:3]:
        _status, page = tap(client, match, ev, page)
    shown = version(page)
    assert "Undo: " in page
    # the other phone records one more meanwhile
    other = client.get(match).get_data(as_text=True)
    status, _ = tap(client, match, data["events"][3], other)
    assert status == 200
    refused = client.post(match + "/undo", data={"csrf_token": csrf_of(page), "base": shown},
                          headers=TABLE)
    assert refused.status_code == 409
    assert "the match changed on the other phone" in message(refused.get_data(as_text=True))
    assert len(rows(app)["match_events"]) == 4
    now = refused.get_data(as_text=True)
    undone = client.post(match + "/undo", data={"csrf_token": csrf_of(now),
                                                "base": version(now)}, headers=TABLE)
    assert undone.status_code == 200 and len(rows(app)["match_events"]) == 3
    back = yaml.safe_load(client.get(match + "/match.yaml").get_data(as_text=True))
    assert back["events"] == data["events"][:3]


def test_the_board_answers_204_until_the_match_changes(client: FlaskClient) -> None:
    match, data = started(client, "hammerwars")
    page = client.get(match).get_data(as_text=True)
    seen = version(page)
    assert client.get(f"{match}/board?v={seen}").status_code == 204
    tap(client, match, data["events"][0], page)
    fresh = client.get(f"{match}/board?v={seen}")
    assert fresh.status_code == 200 and version(fresh.get_data(as_text=True)) == seen + 1
    assert fresh.headers["Cache-Control"] == "no-store"


def test_each_link_is_a_key_to_its_own_side_only(app: Flask, client: FlaskClient) -> None:
    """Side 1 sees side 2's link (to hand it over) and the spectators'; side 2 sees only the
    spectators'; a spectator changes nothing, and the database keeps no side's link."""
    match, _data = started(client, "op40k")
    page = client.get(match).get_data(as_text=True)
    opponent = re.search(r'id="opponent-link" class="copyable" type="text" readonly '
                         r'value="http://localhost([^"]+)"', page)
    watch = re.search(r'id="watch-link" class="copyable" type="text" readonly '
                      r'value="http://localhost([^"]+)"', page)
    assert opponent is not None and watch is not None
    side2 = app.test_client()
    theirs = side2.get(opponent[1]).get_data(as_text=True)
    assert 'id="opponent-link"' not in theirs and match not in theirs
    assert "(you)" in theirs and 'name="kind"' in theirs
    status, theirs = tap(side2, opponent[1], {"kind": "first-turn", "side": 2}, theirs)
    assert status == 200
    spectator = app.test_client()
    watching = spectator.get(watch[1]).get_data(as_text=True)
    assert 'name="kind"' not in watching and "/undo" not in watching
    assert "first-turn" not in watching and "Won the roll-off" in watching  # the log
    before = rows(app)
    # the spectator's own session has a CSRF token (any page with a form gives it one)
    own = spectator.get("/").get_data(as_text=True)
    forged = {"csrf_token": csrf_of(own), "base": version(watching), "kind": "round-end"}
    assert spectator.post(watch[1] + "/event", data=forged, headers=TABLE).status_code == 403
    assert spectator.post(watch[1] + "/undo", data={"csrf_token": csrf_of(own),
                                                    "base": version(watching)}).status_code == 403
    assert rows(app) == before
    stored = " ".join(map(str, rows(app)["matches"]))
    for token in (match.rsplit("/", 1)[1], opponent[1].rsplit("/", 1)[1]):
        assert token not in stored


def test_a_post_without_the_pages_csrf_token_records_nothing(app: Flask,
                                                             client: FlaskClient) -> None:
    match, data = started(client, "warstuff")
    page = client.get(match).get_data(as_text=True)
    before = rows(app)
    form = form_of(data["events"][0], page)
    del form["csrf_token"]
    assert client.post(match + "/event", data=form).status_code == 400
    assert rows(app) == before


def test_a_body_that_is_not_a_form_is_named_as_such_not_as_an_expired_form(
        app: Flask, client: FlaskClient) -> None:
    """A JSON body, or a form whose bytes are not UTF-8, has no CSRF token the server can
    read: it was answered "The form had expired", which sent the player to reload a page
    that was fine."""
    match, data = started(client, "warstuff")
    page = client.get(match).get_data(as_text=True)
    before = rows(app)
    as_json = client.post(match + "/event", json=form_of(data["events"][0], page),
                          headers=TABLE)
    words = html.unescape(as_json.get_data(as_text=True))
    assert as_json.status_code == 415 and "had expired" not in words
    assert "takes a form's fields" in words and "not application/json" in words
    token = csrf_of(page).encode()
    not_utf8 = client.post(match + "/event", headers=TABLE,
                           data=b"csrf_token=" + token[:8] + b"\xff\xfe" + token[8:]
                           + b"&base=1&kind=first-turn&side=1",
                           content_type="application/x-www-form-urlencoded")
    words = html.unescape(not_utf8.get_data(as_text=True))
    assert not_utf8.status_code == 400 and "had expired" not in words
    assert "was not valid UTF-8" in words
    assert rows(app) == before


def test_a_nul_byte_in_a_field_is_stripped_before_anything_reads_it(
        app: Flask, client: FlaskClient) -> None:
    match, _data = started(client, "warstuff")
    page = client.get(match).get_data(as_text=True)
    status, answer = tap(client, match, {"kind": "tele\x00port", "side": 1}, page)
    assert status == 422 and "\x00" not in answer
    assert "there is no event 'teleport'" in message(answer)
    odds = client.get(match + "/odds?a=1.1&d=2.1&s_x\x00=1\x00")
    assert odds.status_code == 200 and "\x00" not in odds.get_data(as_text=True)


def test_starting_says_what_is_wrong_and_keeps_what_was_typed(client: FlaskClient) -> None:
    data = example("op40k")
    mine = imported(client, data["players"][0]["roster"])
    other_game = imported(client, example("warstuff")["players"][0]["roster"])
    cases = [
        ({"source": "link", "link": "https://example.org/s/nothing-here-at-all"},
         "No roster has this share link"),
        ({"source": "link", "link": mine}, "That is an edit link"),
        ({"source": "link", "link": share_of(client, other_game)},
         "That is a WarStuff roster"),
        ({"source": "link", "link": ""}, "Paste their roster's share link"),
        ({"source": "file"}, "Choose their roster file"),
    ]
    for fields, words in cases:
        answer = start(client, mine, me="Ann", opponent="Typed Name", **fields)
        text = " ".join(html.unescape(answer.get_data(as_text=True)).split())
        assert answer.status_code == 422 and words in text, (fields, text[:300])
        assert 'value="Typed Name"' in text
    broken = start(client, mine, me="Ann", source="file",
                   file=(io.BytesIO(b"format: listbuilder-roster/1\nsystem: op40k\n"
                                    b"entries: [{unit: Nobody}]\n"), "theirs.yaml"))
    text = " ".join(html.unescape(broken.get_data(as_text=True)).split())
    assert broken.status_code == 422 and "Their roster file was not read: theirs.yaml" in text
    nameless = start(client, mine, me="", source="solo")
    assert nameless.status_code == 422 and "Enter a name of 1 to 80 characters" in \
        nameless.get_data(as_text=True)


def test_a_solo_match_and_one_from_a_file(app: Flask, client: FlaskClient) -> None:
    data = example("hammerwars")
    mine = imported(client, data["players"][0]["roster"])
    solo = start(client, mine, me="Ann", source="solo")
    assert solo.status_code == 303
    page = client.get(solo.headers["Location"]).get_data(as_text=True)
    assert 'id="opponent-link"' not in page and "Matchup grid" not in page
    by_file = start(client, mine, me="Ann", opponent="Ben", source="file",
                    file=(io.BytesIO(data["players"][1]["roster"].encode()), "ben.yaml"))
    assert by_file.status_code == 303
    page = client.get(by_file.headers["Location"]).get_data(as_text=True)
    assert "Ann vs Ben" in page and 'id="opponent-link"' in page
    store: MatchStore = app.extensions["listbuilder.matches"]
    assert [m[6] for m in rows(app)["matches"]] == [1, 1]  # version: nothing played yet
    assert store.by_token("not-a-link") is None


def test_an_option_the_game_refuses_is_named_on_the_form(client: FlaskClient) -> None:
    data = example("actionhammer")
    mine = imported(client, data["players"][0]["roster"])
    answer = start(client, mine, me="Ann", source="solo", opt_objectives="9")
    text = " ".join(answer.get_data(as_text=True).split())
    assert answer.status_code == 422
    assert "enter a whole number from 3 to 5" in text


def test_the_odds_read_the_units_as_they_stand(client: FlaskClient) -> None:
    """Quick-resolve from the match page: the target's models left come from the log, and
    the target's taps follow, to record the result."""
    match, data = started(client, "op40k")
    page = client.get(match).get_data(as_text=True)
    fresh = client.get(match + "/odds?a=2.1&d=1.1").get_data(as_text=True)
    for ev in data["events"][:12]:
        _status, page = tap(client, match, ev, page)
    after = client.get(match + "/odds?a=2.1&d=1.1")
    assert after.status_code == 200
    text = after.get_data(as_text=True)
    assert 'id="odds-summary"' in text and 'id="odds-summary"' in fresh
    assert text != fresh  # the Boyz have lost models since
    assert "Record what happened to the target" in text
    same_side = client.get(match + "/odds?a=1.1&d=1.2").get_data(as_text=True)
    assert "pick a unit of the other side" in same_side


def test_the_matchup_grid_and_the_summary(client: FlaskClient) -> None:
    match, data = started(client, "warstuff")
    grid = client.get(match + "/matchup")
    assert grid.status_code == 200
    cells = re.findall(r"<td", grid.get_data(as_text=True))
    mine, theirs = (len(yaml.safe_load(p["roster"])["entries"]) for p in data["players"])
    assert len(cells) == mine * theirs
    page = client.get(match).get_data(as_text=True)
    for ev in data["events"]:
        _status, page = tap(client, match, ev, page)
    summary = client.get(match + "/summary").get_data(as_text=True)
    assert 'id="result"' in summary and "Timeline" in summary
    assert summary.count("<li><span class=\"muted\">") >= len(data["events"])


def test_no_get_of_a_match_changes_it(app: Flask, client: FlaskClient) -> None:
    match, data = started(client, "spaceempires")
    page = client.get(match).get_data(as_text=True)
    tap(client, match, data["events"][0], page)
    before = rows(app)
    for url in ("", "/board", "/board?v=1", "/summary", "/matchup", "/match.yaml",
                "/odds?a=1.1&d=2.1"):
        assert client.get(match + url).status_code < 500, url
    assert rows(app) == before


def test_conceding_is_folded_away_and_ends_the_game_for_both_phones(
        client: FlaskClient) -> None:
    match, data = started(client, "op40k")
    page = client.get(match).get_data(as_text=True)
    fold = re.search(r'<details class="ending" id="end-2">(.*?)</details>', page, re.S)
    assert fold is not None and 'name="kind" value="concede"' in fold[1]
    assert page.count('value="concede"') == 2  # one a side, each in its own fold
    status, page = tap(client, match, {"kind": "concede", "side": 2}, page)
    assert status == 200
    winner = data["players"][0]["name"]
    assert f"Game over: {winner} won" in html.unescape(page)
    assert 'name="kind"' not in page  # no tap is left to make
    summary = html.unescape(client.get(match + "/summary").get_data(as_text=True))
    assert f"{winner} won: {data['players'][1]['name']} conceded" in summary
