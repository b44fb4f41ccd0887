"""Events through their pages (docs/events.md): an organiser makes one, players hand lists in
and play their tables, the organiser pairs rounds and enters results; bad input is answered in
words and loses nothing. On SQLite and PostgreSQL (the `app` fixture's databases)."""

from __future__ import annotations

import hashlib
import html
import re
from datetime import UTC, datetime, timedelta

from eventtools import EXAMPLES, hand_in, make_event, player_key, stored_roster
from flask import Flask
from flask.testing import FlaskClient
from webtools import Player, csrf_of

LEGAL = EXAMPLES / "op40k" / "legal.yaml"


def page_of(client: FlaskClient, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.get_data(as_text=True)


def words(page: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def problem_of(page: str) -> str:
    found = re.search(r'role="alert" id="[a-z-]+-problem">([^<]*)<', page)
    assert found is not None, "no problem shown"
    return html.unescape(found[1])


def pair(client: FlaskClient, organiser: str, present: list[str] | None = None,
         base: int | None = None):  # type: ignore[no-untyped-def]
    page = page_of(client, f"/e/{organiser}")
    shown = int(re.findall(r'name="base" value="(\d+)"', page)[0])
    ticked = present if present is not None else re.findall(r'name="present" value="(\d+)"', page)
    return client.post(f"/e/{organiser}/pair", data={
        "csrf_token": csrf_of(page), "base": base or shown, "present": ticked})


def tables(client: FlaskClient, organiser: str) -> list[tuple[str, str, str, str]]:
    """(game id, first player, second player, result) of every table, newest round first."""
    page = page_of(client, f"/e/{organiser}")
    return re.findall(r'<tr id="table-(\d+)">\s*<td class="table-no">\d+</td>\s*<td>([^<]*)</td>'
                      r'\s*<td>([^<]*)</td>\s*<td class="result">([^<]*)</td>', page)


def enter(client: FlaskClient, organiser: str, game: str, winner: str, score1: str = "",
          score2: str = ""):  # type: ignore[no-untyped-def]
    page = page_of(client, f"/e/{organiser}")
    base = re.findall(r'name="base" value="(\d+)"', page)[0]
    return client.post(f"/e/{organiser}/tables/{game}", data={
        "csrf_token": csrf_of(page), "base": base, "winner": winner, "score1": score1,
        "score2": score2})


def with_players(client: FlaskClient, names: list[str], **event: object) -> tuple[str, str,
                                                                                  dict[str, str]]:
    organiser, public = make_event(client, **event)  # type: ignore[arg-type]
    keys = {name: player_key(hand_in(client, public, stored_roster(client, LEGAL), name))
            for name in names}
    return organiser, public, keys


def test_an_event_runs_from_lists_to_final_standings(client: FlaskClient) -> None:
    """Four players, two rounds, results entered by hand: the standings are the hand's."""
    organiser, public, _ = with_players(client, ["Ann", "Ben", "Cat", "Dan"], rounds=2)
    organiser_page = words(page_of(client, f"/e/{organiser}"))
    assert "Lists (4)" in organiser_page and organiser_page.count("Legal") >= 4
    everyone = re.findall(r'name="present" value="(\d+)"', page_of(client, f"/e/{organiser}"))
    assert pair(client, organiser).status_code == 303
    first = tables(client, organiser)
    assert len(first) == 2 and {n for t in first for n in t[1:3]} == {"Ann", "Ben", "Cat", "Dan"}
    won = {}
    for game, a, b, _ in first:  # the first-listed player wins 10-4
        assert enter(client, organiser, game, "1", "10", "4").status_code == 303
        won[a], won[b] = 3, 0
    assert pair(client, organiser).status_code == 303
    second = [t for t in tables(client, organiser) if t[0] not in {g for g, *_ in first}]
    assert len(second) == 2
    met = {frozenset(t[1:3]) for t in first}
    assert all(frozenset(t[1:3]) not in met for t in second), "a rematch"
    game, a, b, _ = second[0]
    assert enter(client, organiser, game, "0", "7", "7").status_code == 303  # a draw
    game2, c, d, _ = second[1]
    assert enter(client, organiser, game2, "2", "3", "9").status_code == 303

    standing = client.get(f"/e/{public}/standings.json").get_json()
    by_name = {line["player"]: line for line in standing["standings"]}
    # by hand: round 1 winners 3 points and 10, losers 0 and 4; round 2 as entered
    points = {n: won[n] for n in won}
    score = {n: 10 if won[n] else 4 for n in won}
    points[a] += 1
    points[b] += 1
    score[a] += 7
    score[b] += 7
    points[d] += 3
    score[c] += 3
    score[d] += 9
    assert {n: by_name[n]["match_points"] for n in by_name} == points
    assert {n: by_name[n]["score"] for n in by_name} == score
    assert standing["final"] is True and standing["round"] == 2 and standing["rounds"] == 2
    order = [line["player"] for line in standing["standings"]]
    assert order == sorted(order, key=lambda n: (-points[n], -score[n])) or \
        len({(points[n], score[n]) for n in order}) < 4  # ties then go by schedule
    assert standing["standings"][0]["place"] == 1
    # the hand entries are logged, and the pages show the standings in the same order
    log = words(page_of(client, f"/e/{organiser}"))
    assert log.count("entered by hand") == 4 and "(was: no result)" in log
    shown = re.findall(r"<tr><td>\d+</td><td>([^<]+)</td>", page_of(client, f"/e/{public}"))
    assert shown == order
    # every round played: no more pairing (the form is gone; a script's post is refused)
    assert "Pair round" not in page_of(client, f"/e/{organiser}")
    last = pair(client, organiser, everyone)
    assert last.status_code == 409 and "all 2 rounds are played" in problem_of(
        last.get_data(as_text=True))


def test_a_sealed_list_is_the_copy_handed_in_whatever_the_roster_does_later(
        client: FlaskClient) -> None:
    owner = Player(client)
    token = owner.start("op40k", "Sealed army", ("Orks",), 500)
    organiser, public = make_event(client)
    key = player_key(hand_in(client, public, f"http://localhost/r/{token}", "Ann"))
    mine = page_of(client, f"/p/{key}")
    code = re.findall(r"/v/([A-Za-z0-9_-]+)", mine)[0]
    verify = page_of(client, f"/v/{code}")
    sealed_text = html.unescape(re.findall(r"<details><summary>The sealed file</summary><pre>"
                                           r"(.*?)</pre>", verify, re.S)[0])
    assert hashlib.sha256(sealed_text.encode()).hexdigest() in verify
    assert "name: Sealed army" in sealed_text
    owner.post("rename", name="Changed after")  # the roster moves on...
    assert "Changed after" in owner.saved_text()
    again = page_of(client, f"/v/{code}")
    assert "name: Sealed army" in html.unescape(again)  # ...the sealed copy does not
    # handed in again: the copy is replaced, the code kept, one list still
    assert player_key(hand_in(client, public, token, "Ann")) == key
    assert "name: Changed after" in html.unescape(page_of(client, f"/v/{code}"))
    assert "Lists (1)" in words(page_of(client, f"/e/{organiser}"))


def test_the_organisers_page_names_each_problem_and_flags_the_events_own(
        client: FlaskClient) -> None:
    organiser, public = make_event(client, points_limit="100")
    hand_in(client, public, stored_roster(client, EXAMPLES / "op40k" / "illegal.yaml"), "Ill")
    hand_in(client, public, stored_roster(client, LEGAL), "Big")
    page = words(page_of(client, f"/e/{organiser}"))
    assert "Illegal" in page
    assert "Event: 500 pts: over the event's limit of 100 pts" in page or \
        re.search(r"Event: \d+ pts: over the event's limit of 100 pts", page)
    assert "flagged" in page


def test_bad_input_is_answered_in_words_and_keeps_what_was_typed(client: FlaskClient) -> None:
    organiser, public = make_event(client)
    owner = Player(client)
    token = owner.start("op40k", "Mine", ("Orks",), 500)
    share = re.findall(r"/s/([A-Za-z0-9_-]+)", owner.html)[0]
    refused = hand_in(client, public, f"http://localhost/s/{share}", "Typed Name")
    page = refused.get_data(as_text=True)
    assert refused.status_code == 422 and "share link" in problem_of(page)
    assert 'value="Typed Name"' in page  # the form keeps the name typed
    warstuff = Player(client).start("warstuff", "Other game")
    other_game = hand_in(client, public, warstuff, "Ann")
    assert other_game.status_code == 422
    assert problem_of(other_game.get_data(as_text=True)).startswith(
        "That roster is of WarStuff, and this event plays One Page 40k")
    nothing = hand_in(client, public, "not a link at all!", "Ann")
    assert nothing.status_code == 422 and "/r/" in problem_of(nothing.get_data(as_text=True))
    assert "Lists (0)" in words(page_of(client, f"/e/{organiser}"))
    # a round of one player is refused in words
    player_key(hand_in(client, public, token, "Ann"))
    alone = pair(client, organiser)
    assert alone.status_code == 409 and "two players at least" in problem_of(
        alone.get_data(as_text=True))
    # the public link can't pair
    assert client.post(f"/e/{public}/pair", data={}).status_code in (400, 403)
    page = page_of(client, f"/e/{public}")
    assert client.post(f"/e/{public}/pair", data={"csrf_token": csrf_of(page),
                                                  "base": 1}).status_code == 403


def test_a_list_after_the_deadline_is_refused_and_the_one_before_stands(
        app: Flask, client: FlaskClient) -> None:
    organiser, public = make_event(client)
    token = stored_roster(client, LEGAL)
    key = player_key(hand_in(client, public, token, "Ann"))
    events = app.extensions["listbuilder.events"]
    event = events.by_public_token(public)
    engine = app.extensions["listbuilder.store"].engine
    from sqlalchemy import update

    from listbuilder.store.tables import EventRow
    with engine.begin() as connection:  # the deadline passes
        connection.execute(update(EventRow).where(EventRow.id == event.id).values(
            deadline=datetime.now(UTC) - timedelta(minutes=1)))
    page = page_of(client, f"/e/{public}")
    assert "Lists are closed" in words(page) and "Hand in this list" not in page
    token_page = page_of(client, "/")  # the form is gone: a page drawn before, or a script
    late = client.post(f"/e/{public}/hand-in", data={
        "csrf_token": csrf_of(token_page), "link": stored_roster(client, LEGAL), "player": "Late"})
    assert late.status_code == 422
    said = problem_of(late.get_data(as_text=True))
    assert "closed at" in said and "ask the organiser" in said
    again = client.post(f"/e/{public}/hand-in", data={
        "csrf_token": csrf_of(token_page), "link": token, "player": "Ann"})
    assert again.status_code == 422 and "stands" in problem_of(again.get_data(as_text=True))
    assert page_of(client, f"/p/{key}")  # Ann's list is still in
    assert "Lists (1)" in words(page_of(client, f"/e/{organiser}"))


def test_results_for_no_table_a_missing_result_and_a_stale_page_are_refused(
        client: FlaskClient) -> None:
    organiser, _, _ = with_players(client, ["Ann", "Ben", "Cat", "Dan", "Eve"])
    stale_base = int(re.findall(r'name="base" value="(\d+)"',
                                page_of(client, f"/e/{organiser}"))[0])
    assert pair(client, organiser).status_code == 303
    # the same page's pair again (another tab): stale, and the round stands once
    stale = pair(client, organiser, base=stale_base)
    assert stale.status_code == 409 and "moved on" in problem_of(stale.get_data(as_text=True))
    assert len(tables(client, organiser)) == 3  # two tables and a bye
    waiting = pair(client, organiser)
    said = problem_of(waiting.get_data(as_text=True))
    assert waiting.status_code == 409 and "still waits for the result of tables 1 and 2" in said
    none = enter(client, organiser, "99999", "1")
    assert none.status_code == 404 and "no such table" in problem_of(none.get_data(as_text=True))
    bye = next(t for t in tables(client, organiser) if t[2] == "—")
    assert enter(client, organiser, bye[0], "1").status_code == 409
    no_winner = enter(client, organiser, tables(client, organiser)[0][0], "")
    assert no_winner.status_code == 422 and "who won" in problem_of(
        no_winner.get_data(as_text=True))
    # a correction replaces the result, and both entries are logged
    game = tables(client, organiser)[0][0]
    enter(client, organiser, game, "1", "5", "2")
    enter(client, organiser, game, "2", "2", "5")
    log = words(page_of(client, f"/e/{organiser}"))
    assert re.search(r"won 2–5 entered by hand \(was: \w+ won 5–2\)", log), log


def test_a_table_is_played_on_the_tracker_and_its_end_reports_the_result(
        client: FlaskClient) -> None:
    organiser, public, keys = with_players(client, ["Ann", "Ben"])
    pair(client, organiser)
    game, first, second, _ = tables(client, organiser)[0]
    links = {}
    page = page_of(client, f"/p/{keys[second]}")  # the second player taps Play first
    action = re.findall(r'action="(/p/[^"]+/play/\d+)"', page)
    response = client.post(action[0], data={"csrf_token": csrf_of(page)})
    assert response.status_code == 303
    links[second] = response.headers["Location"]
    # the first player's Play (a page drawn before, or a tap at the same moment) joins it
    response = client.post(action[0].replace(keys[second], keys[first]),
                           data={"csrf_token": csrf_of(page)})
    assert response.status_code == 303
    links[first] = response.headers["Location"]
    assert links[first] != links[second]
    # each link is its player's own side
    for name in (first, second):
        board = words(page_of(client, links[name]))
        assert first in board and second in board
    # once made, each page links its player's side of the one match
    for name in (first, second):
        page = page_of(client, f"/p/{keys[name]}")
        assert "Open your match" in page and f'href="{links[name]}"' in page
    # the second player concedes: the first wins, reported to the event
    match_page = page_of(client, links[second])
    client.post(links[second] + "/event", data={
        "csrf_token": csrf_of(match_page), "kind": "concede", "side": "2",
        "base": re.findall(r'name="base" value="(\d+)"', match_page)[0]})
    result = {t[0]: t[3] for t in tables(client, organiser)}[game]
    assert result.startswith(f"{first} won")
    standing = client.get(f"/e/{public}/standings.json").get_json()["standings"]
    assert standing[0]["player"] == first
    assert standing[0]["wins"] == 1 and standing[1]["losses"] == 1


def test_a_league_pairs_each_night_among_the_players_present(client: FlaskClient) -> None:
    organiser, public, _ = with_players(client, ["Ann", "Ben", "Cat", "Dan"], rounds=None)
    page = page_of(client, f"/e/{organiser}")
    ids = dict((name, value) for value, name in re.findall(
        r'name="present" value="(\d+)" id="present-\d+" checked><label for="present-\d+">'
        r'([^<]+)<', page))
    assert pair(client, organiser, [ids["Ann"], ids["Ben"]]).status_code == 303
    night = tables(client, organiser)
    assert [set(t[1:3]) for t in night] == [{"Ann", "Ben"}]
    enter(client, organiser, night[0][0], "1", "1", "0")
    assert pair(client, organiser, [ids["Cat"], ids["Dan"], ids["Ann"]]).status_code == 303
    second = tables(client, organiser)  # the latest night's
    assert len(second) == 2 and {n for t in second for n in t[1:3]} == {"Cat", "Dan", "Ann", "—"}
    # an earlier night is a link away
    earlier = page_of(client, f"/e/{organiser}?round=1")
    assert "<strong aria-current=\"page\">Round 1</strong>" in earlier
    standing = client.get(f"/e/{public}/standings.json").get_json()
    assert standing["league"] is True and standing["final"] is False


def test_a_players_link_is_their_own_and_a_forged_one_opens_nothing(
        client: FlaskClient) -> None:
    _, _, keys = with_players(client, ["Ann"])
    key = keys["Ann"]
    code, mark = key.split(".")
    assert client.get(f"/p/{key}").status_code == 200
    assert client.get(f"/p/{code}.{'A' * len(mark)}").status_code == 404
    assert client.get(f"/p/{code}").status_code == 404
    assert client.get("/v/nonsense").status_code == 404
    assert client.get("/e/nonsense").status_code == 404


def test_making_an_event_says_what_is_wrong_and_keeps_the_form(client: FlaskClient) -> None:
    page = page_of(client, "/events/new")
    response = client.post("/events/new", data={
        "csrf_token": csrf_of(page), "name": "Kept name", "system": "op40k", "kind": "rounds",
        "rounds": "", "deadline": "2026-12-12T09:00", "packs": "http://localhost/studio/p/x"})
    said = response.get_data(as_text=True)
    assert response.status_code == 422 and 'value="Kept name"' in said
    assert "Number of rounds" in words(said)
    response = client.post("/events/new", data={
        "csrf_token": csrf_of(page), "name": "Kept name", "system": "op40k", "kind": "league",
        "deadline": "2026-12-12T09:00", "packs": "http://localhost/studio/p/abcdefghijk"})
    assert response.status_code == 422 and "edit link" in problem_of(
        response.get_data(as_text=True))


def settings(client: FlaskClient, organiser: str, deadline: str, name: str = "Club night",
             base: int | None = None):  # type: ignore[no-untyped-def]
    page = page_of(client, f"/e/{organiser}")
    shown = int(re.findall(r'name="base" value="(\d+)"', page)[0])
    return client.post(f"/e/{organiser}/settings", data={
        "csrf_token": csrf_of(page), "base": base or shown, "name": name,
        "deadline": deadline})


def test_the_organiser_moves_the_deadline_and_renames_the_event_in_the_log(
        client: FlaskClient) -> None:
    organiser, public = make_event(client)
    stale = int(re.findall(r'name="base" value="(\d+)"', page_of(client, f"/e/{organiser}"))[0])
    past = (datetime.now(UTC) - timedelta(minutes=5)).strftime("%Y-%m-%dT%H:%M")
    assert settings(client, organiser, past).status_code == 303  # closed now
    refused = hand_in(client, public, stored_roster(client, LEGAL), "Ann")
    assert refused.status_code == 422 and "closed at" in problem_of(
        refused.get_data(as_text=True))
    later = (datetime.now(UTC) + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
    assert settings(client, organiser, later, "Winter night").status_code == 303
    player_key(hand_in(client, public, stored_roster(client, LEGAL), "Ann"))  # open again
    log = words(page_of(client, f"/e/{organiser}"))
    assert "The event lists now close at" in log
    assert "renamed from 'Club night' to 'Winter night'" in log
    assert "<h1>Winter night</h1>" in page_of(client, f"/e/{public}")
    # a page drawn before these changes changes nothing
    again = settings(client, organiser, later, "Other name", base=stale)
    assert again.status_code == 409 and "moved on" in problem_of(again.get_data(as_text=True))
    # the public link can't
    page = page_of(client, f"/e/{public}")
    assert client.post(f"/e/{public}/settings", data={
        "csrf_token": csrf_of(page), "base": 1, "name": "X", "deadline": later}
    ).status_code == 403
