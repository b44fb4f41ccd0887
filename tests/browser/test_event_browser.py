"""An event as a club runs it (issue 52), in Chromium with its scripts on, through the TLS front
(nginx before `listbuilder serve`): an organiser and 8 players, each on a phone of their own,
play 3 rounds. Each player opens a roster file and hands it in by its edit link; the organiser
pairs each round; at each table one player taps Play and the other opens the same match from
their own page, and one of them concedes on the tracker, whose result comes back to the
event. The standings are then checked against a computation by hand. On SQLite (the session's
front) and on PostgreSQL (a front of its own on a fresh database)."""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pdfplumber
import pypdfium2
import pytest
import zxingcpp
from browsertools import SMALL, opened, sized_page
from test_table_browser import sent
from tlsfront import tls_front

pytestmark = pytest.mark.browser

Page = Any
ROOT = Path(__file__).resolve().parents[2]
LEGAL = ROOT / "examples" / "op40k" / "legal.yaml"
PLAYERS = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")
ROUNDS = 3


@pytest.fixture(params=["sqlite", "postgresql"])
def front(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield request.getfixturevalue("https")
        return
    server = request.getfixturevalue("pg_server")
    name = f"events_browser_{id(tmp_path)}"
    url = server.create_database(name)
    try:
        with tls_front(tmp_path, url) as (base, _log):
            yield base
    finally:
        server.drop_database(name)


def make_event(organiser: Page, base: str) -> str:
    """The players' link of a new tournament of ROUNDS rounds."""
    organiser.goto(base + "/events/new")
    organiser.get_by_label("Event name").fill("Winter Cup")
    organiser.get_by_label("Game").select_option("op40k")
    organiser.get_by_label("Number of rounds", exact=True).fill(str(ROUNDS))
    organiser.get_by_label("Lists close at (UTC)").fill("2030-01-01T12:00")
    with organiser.expect_navigation():
        organiser.get_by_role("button", name="Make the event").click()
    assert organiser.locator("#event-made").is_visible()
    return str(organiser.locator("#public-link").input_value())


def hand_in(phone: Page, base: str, public: str, name: str) -> str:
    """Open a roster file on the phone and hand it in by its edit link; the player's page."""
    phone.goto(base + "/")
    phone.set_input_files("#file", str(LEGAL))
    phone.get_by_role("button", name="Open file").click()
    opened(phone, "#units-title", state="attached")
    edit = phone.url.split("?")[0]
    phone.goto(public)
    phone.get_by_label("Your name").fill(name)
    phone.get_by_label("Your roster's edit link").fill(edit)
    with phone.expect_navigation():
        phone.get_by_role("button", name="Hand in this list").click()
    assert "/p/" in phone.url and phone.locator("#handed-in").is_visible()
    return str(phone.url.split("?")[0])


def tables_of(organiser: Page, round_no: int) -> list[tuple[str, str]]:
    """The round's tables as (first player, second player), in table order."""
    rows = organiser.locator(f"#round-{round_no} tbody tr")
    out = []
    for i in range(rows.count()):
        cells = rows.nth(i).locator("td")
        out.append((cells.nth(1).inner_text().strip(), cells.nth(2).inner_text().strip()))
    return out


def play_table(starter: Page, joiner: Page, starter_page: str, joiner_page: str,
               loser_side: int) -> None:
    """The starter taps Play; the joiner opens the same match; side `loser_side` concedes."""
    starter.goto(starter_page)
    with starter.expect_navigation():
        starter.get_by_role("button", name="Play this table on the tracker").click()
    opened(starter, "#board")
    joiner.goto(joiner_page)
    with joiner.expect_navigation():
        joiner.get_by_role("link", name="Open your match").click()
    opened(joiner, "#board")
    assert starter.url != joiner.url
    conceding = starter if _side(starter) == loser_side else joiner
    fold = conceding.locator(f"#board details.ending#end-{loser_side}")
    fold.locator("summary").click()
    fold.locator("form.tap button").first.click()
    sent(conceding)
    conceding.wait_for_function(
        "() => (document.querySelector('#headline')?.textContent || '').startsWith('Game over')")


def _side(board: Page) -> int:
    """Which side this phone plays: its own side's section is marked `mine`."""
    mine = board.locator("#board section.side.mine").first.get_attribute(
        "aria-labelledby") or ""
    found = re.search(r"(\d)", mine)
    assert found is not None, mine
    return int(found[1])


def printed(page: Page, url: str) -> bytes:
    """A print's PDF, asked again while it waits in line (202) as the waiting page does."""
    for _ in range(120):
        answer = page.request.get(url)
        if answer.status != 202:
            assert answer.status == 200, answer.text()[:300]
            return bytes(answer.body())
        page.wait_for_timeout(500)
    raise AssertionError(f"{url} was still in line after a minute")


def by_hand(games: list[tuple[str, str, str]]) -> dict[str, tuple[int, int, int, int]]:
    """Each player's (match points, wins, losses, opponents' match points) from (first,
    second, winner) of every game played."""
    points = {name: 0 for name in PLAYERS}
    wins = dict.fromkeys(PLAYERS, 0)
    losses = dict.fromkeys(PLAYERS, 0)
    met: dict[str, list[str]] = {name: [] for name in PLAYERS}
    for first, second, winner in games:
        loser = second if winner == first else first
        points[winner] += 3
        wins[winner] += 1
        losses[loser] += 1
        met[first].append(second)
        met[second].append(first)
    return {n: (points[n], wins[n], losses[n], sum(points[o] for o in met[n]))
            for n in PLAYERS}


def test_an_organiser_and_eight_players_play_three_rounds_on_phones(
        browser: Any, front: str) -> None:
    with contextlib.ExitStack() as stack:
        organiser = stack.enter_context(sized_page(
            browser, {"width": 1280, "height": 900}, ignore_https_errors=True,
            service_workers="block"))
        phones = {name: stack.enter_context(sized_page(
            browser, SMALL, phone=True, ignore_https_errors=True, service_workers="block"))
                  for name in PLAYERS}
        errors: list[str] = []
        for page in (organiser, *phones.values()):
            page.on("pageerror", lambda error: errors.append(str(error)))
        public = make_event(organiser, front)
        organiser_link = organiser.url.split("?")[0]
        own = {name: hand_in(phone, front, public, name) for name, phone in phones.items()}
        organiser.goto(organiser_link)
        assert organiser.locator("#lists tbody tr").count() == 8

        played: list[tuple[str, str, str]] = []
        for round_no in range(1, ROUNDS + 1):
            organiser.goto(organiser_link)
            with organiser.expect_navigation():
                organiser.get_by_role("button", name=f"Pair round {round_no}").click()
            tables = tables_of(organiser, round_no)
            assert len(tables) == 4 and sorted(n for t in tables for n in t) == sorted(PLAYERS)
            for first, second in tables:
                # the second-listed player starts; the first-listed (side 1) always concedes
                # in odd rounds, side 2 in even ones
                loser = 1 if round_no % 2 else 2
                play_table(phones[second], phones[first], own[second], own[first], loser)
                played.append((first, second, second if loser == 1 else first))
            organiser.goto(organiser_link)
            results = organiser.locator(f"#round-{round_no} td.result").all_inner_texts()
            assert all(" won" in r for r in results), results
        met = [frozenset(game[:2]) for game in played]
        assert len(set(met)) == len(met), "a rematch"

        organiser.goto(organiser_link)
        assert organiser.get_by_role("button", name="Pair round 4").count() == 0
        expected = by_hand(played)
        standing = organiser.request.get(public + "/standings.json").json()
        assert standing["final"] is True and standing["round"] == ROUNDS
        got = {line["player"]: (line["match_points"], line["wins"], line["losses"],
                                line["schedule"]) for line in standing["standings"]}
        assert got == expected
        keys = [(expected[line["player"]][0], line["score"], expected[line["player"]][3])
                for line in standing["standings"]]
        assert keys == sorted(keys, reverse=True)
        # the spectators' page, on a phone, shows the same order
        viewer = phones["Ann"]
        viewer.goto(public)
        shown = [row.locator("td").nth(1).inner_text() for row in
                 viewer.locator("#standings tbody tr").all()]
        assert shown == [line["player"] for line in standing["standings"]]
        assert viewer.evaluate("document.documentElement.scrollWidth") <= SMALL["width"]
        # a player's sealed list, printed through the front: its QR code is the list's page,
        # at the front's own https address
        phones["Ann"].goto(own["Ann"])
        code = re.findall(r'href="/v/([A-Za-z0-9_-]+)"', phones["Ann"].content())[0]
        pdf = printed(organiser, f"{front}/v/{code}/print?what=sheet")
        picture = pypdfium2.PdfDocument(pdf)[0].render(scale=150 / 72).to_pil()
        read = [found.text for found in zxingcpp.read_barcodes(picture)]
        assert read == [f"{front}/v/{code}"]
        viewer.goto(read[0])
        assert "Ann's list for Winter Cup" in viewer.locator("h1").inner_text()
        assert re.fullmatch(r"[0-9a-f]{64}", viewer.locator("#sha256").inner_text())
        # printed, the public page is the pairing sheet and the standings: no form, no links
        organiser.goto(public)
        sheet = pdfplumber.open(io.BytesIO(organiser.pdf(format="A4")))
        with sheet:
            text = "\n".join(page.extract_text() for page in sheet.pages)
            words = [w for page in sheet.pages for w in page.extract_words()]
            width, height = sheet.pages[0].width, sheet.pages[0].height
        assert f"Round {ROUNDS}" in text and "Standings (final)" in text
        assert "Hand in your list" not in text and "Standings as JSON" not in text
        assert all(name in text for name in PLAYERS)
        assert all(w["x0"] > 0 and w["x1"] < width and w["top"] > 0 and w["bottom"] < height
                   for w in words)
        assert errors == []
