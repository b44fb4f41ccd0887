"""Print work from the browser is bounded and done once: a print that would lay out more
distinct cards than the bound is refused in words, and the same print asked again comes from
the shared cache without being laid out again (a changed roster, option or layout is a new
print). The line is fair: one client holds a bounded share of it, and another client's print
is never turned away because of it and waits behind one of its prints at most. The queue's
own workings: test_print_queue.py."""

from __future__ import annotations

import html
import itertools
import re
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from printtools import a_worker_is_alive, empty_queue, printing_client, run_next
from sqlalchemy import select

from listbuilder.jobs.ledger import DOWNLOAD, JOBS, PREVIEW, QueueFull
from listbuilder.jobs.print_job import PrintJob
from listbuilder.printing import render
from listbuilder.web.prints import cache as print_cache
from listbuilder.web.prints.queue import printer_of

pytestmark = pytest.mark.print

BIG = """format: 1
system: op40k
name: Big Waaagh
points_limit: 5000
factions: [Orks]
entries:
""" + "".join(f"  - unit: Ork Boyz\n    count: {10 + i}\n" for i in range(6))


# 100 entries, one card each when identical entries are not merged: the most a print from
# the browser may lay out (MAX_PRINT_CARDS)
HUNDRED_CARDS = """format: 1
system: op40k
name: Hundred Boyz
points_limit: 50000
factions: [Orks]
entries:
""" + "".join(f"  - unit: Ork Boyz\n    count: {10 + i % 10}\n" for i in range(100))
ONE_CARD = """format: 1
system: op40k
name: Lone Nob
points_limit: 500
factions: [Orks]
entries:
  - unit: Nobz
    count: 5
"""


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """Prints as a player's page gets them: in line first, then the PDF (printtools)."""
    return printing_client(app)


def save(app: Flask, text: str) -> str:
    _, token = app.extensions["listbuilder.store"].create("op40k", "x", text)
    return token


@pytest.fixture
def layouts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Counts the roster layouts really made (the real renderer still runs)."""
    made: list[str] = []
    real = render.print_roster

    def counting(*args, **kwargs):  # type: ignore[no-untyped-def]
        made.append(args[2].name)
        return real(*args, **kwargs)

    monkeypatch.setattr(render, "print_roster", counting)
    return made


def test_a_print_over_the_card_bound_is_refused_in_words(app: Flask,
                                                         client: FlaskClient) -> None:
    app.config["MAX_PRINT_CARDS"] = 4
    token = save(app, BIG)
    response = client.get(f"/r/{token}/print?what=cards&merge=no")
    page = html.unescape(response.get_data(as_text=True))
    assert response.status_code == 422
    assert "This print would make 6 different cards" in page and "at most 4" in page
    # the roster sheet alone is one document, not cards: it prints
    assert client.get(f"/r/{token}/print?what=sheet").mimetype == "application/pdf"


def test_the_same_print_is_laid_out_once(app: Flask, client: FlaskClient,
                                         layouts: list[str]) -> None:
    token = save(app, BIG)
    first = client.get(f"/r/{token}/print?what=cards")
    second = client.get(f"/r/{token}/print?what=cards")
    assert first.mimetype == second.mimetype == "application/pdf"
    assert first.data == second.data and layouts == ["Big Waaagh"]
    assert app.extensions["listbuilder.store"].prints.size()[0] == 1
    client.get(f"/r/{token}/print?what=cards&paper=letter")  # other options: a new print
    assert len(layouts) == 2


def test_a_changed_roster_is_a_new_print(app: Flask, client: FlaskClient,
                                         layouts: list[str]) -> None:
    first = save(app, BIG)
    second = save(app, BIG.replace("Big Waaagh", "Other Waaagh"))
    client.get(f"/r/{first}/print?what=cards")
    client.get(f"/r/{second}/print?what=cards")
    assert layouts == ["Big Waaagh", "Other Waaagh"]


def test_system_prints_come_from_the_cache_too(app: Flask, client: FlaskClient) -> None:
    first = client.get("/systems/spaceempires/print/chits?faction=Orks")
    second = client.get("/systems/spaceempires/print/chits?faction=Orks")
    assert first.mimetype == "application/pdf" and first.data == second.data
    assert app.extensions["listbuilder.store"].prints.size()[0] == 1


def test_the_layout_revision_follows_the_layout_files(tmp_path) -> None:  # type: ignore[no-untyped-def]
    names = {name for name, _ in print_cache.layout_files()}
    # the shared layout files and each system's own, read from the packages
    assert {"templates/print/unit_card.html", "static/css/print.css", "printing/layout.py",
            "warstuff/cards.py", "warstuff/templates/rules.html"} <= names
    card = tmp_path / "card.html"
    card.write_text("<p>one</p>")
    before = print_cache.revision_of([("templates/print/card.html", card)])
    card.write_text("<p>two</p>")
    assert print_cache.revision_of([("templates/print/card.html", card)]) != before


# -- a fair line ------------------------------------------------------------------------------

@pytest.fixture
def line(app: Flask) -> Iterator[None]:
    """No job left by another test (the PostgreSQL database is shared, and not emptied of
    jobs between tests)."""
    empty_queue(app)
    a_worker_is_alive(app)
    yield
    empty_queue(app)


def at(app: Flask, address: str) -> FlaskClient:
    """A browser at its own address (no print worker: the test runs the queue)."""
    browser = app.test_client()
    browser.environ_base["REMOTE_ADDR"] = address
    return browser


def words(response) -> str:  # type: ignore[no-untyped-def]
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.get_data(as_text=True)))
                    .split())


def place(response) -> str:  # type: ignore[no-untyped-def]
    assert response.status_code == 202, words(response)[:300]
    found = re.search(r"Your print is ([^.]+)\.", words(response))
    assert found is not None
    return found[1]


def twenty_prints(token: str) -> list[str]:
    """Twenty prints of the roster's cards, each with other options: none is another."""
    options = itertools.product(("a4", "letter"), ("poker", "mini", "tarot"), ("yes", "no"),
                                ("yes", "no"))
    return [f"/r/{token}/print?what=cards&merge=no&paper={paper}&card={card}"
            f"&cut_marks={marks}&ink_saver={ink}"
            for paper, card, marks, ink in itertools.islice(options, 20)]


def test_one_client_filling_the_line_never_turns_another_away(app: Flask, line: None) -> None:
    """Issue 37, 4: 20 prints of a 100-card roster from one client (inside its 60 a minute)
    left another player's 1-card print refused with 503 "16 prints are waiting already"."""
    flooder, player = at(app, "192.0.2.66"), at(app, "198.51.100.7")
    big, small = save(app, HUNDRED_CARDS), save(app, ONE_CARD)
    answers = [flooder.get(url) for url in twenty_prints(big)]
    assert [a.status_code for a in answers[:3]] == [202, 202, 202]
    for turned in answers[3:]:  # its share is full: told so, and when to ask again
        assert turned.status_code == 503 and turned.headers["Retry-After"] == "10"
        assert "Your address has 3 prints waiting already" in words(turned)
        assert "tries again by itself in 10 seconds" in words(turned)
    mine = f"/r/{small}/print?what=cards"
    assert place(player.get(mine)) == "2nd in line"  # behind one of the flooder's, not three
    assert run_next(app)  # a worker lays out the flooder's first
    assert place(player.get(mine)) == "1st in line"
    assert run_next(app)  # the player's, ahead of the flooder's other two
    made = player.get(mine)
    assert made.status_code == 200 and made.mimetype == "application/pdf"
    assert place(flooder.get(twenty_prints(big)[1])) == "1st in line"


def test_a_full_line_lets_in_each_clients_first_print(app: Flask, line: None) -> None:
    """The line's own bound (PRINT_QUEUE) turns away a client's further prints, never its
    first: others filling the line can't keep a player out."""
    app.config["PRINT_QUEUE"] = 2
    first, second = at(app, "192.0.2.1"), at(app, "192.0.2.2")
    token = save(app, ONE_CARD)
    sheets = [f"/r/{token}/print?what=sheet&paper={p}&ink_saver={i}"
              for p, i in itertools.product(("a4", "letter"), ("yes", "no"))]
    assert [first.get(url).status_code for url in sheets[:3]] == [202, 202, 503]
    busy = second.get(sheets[2])
    assert place(busy) == "2nd in line"  # its first: let in past the bound, in its turn
    turned = second.get(sheets[3])  # its second is held to the bound
    assert turned.status_code == 503 and turned.headers["Retry-After"] == "30"
    assert "The printer is busy: 3 prints are waiting already" in words(turned)
    # a preview is a print of another rank: its first is let in too, behind every download
    preview = second.get(f"/r/{token}/print/preview.png?what=sheet&paper=letter&ink_saver=no")
    assert preview.status_code == 202


def test_a_clients_previews_do_not_take_its_downloads_share(app: Flask, line: None) -> None:
    """A print page asks for up to three previews before the player downloads: those wait in
    a share of their own, so the download is let in; a fourth preview is asked again later."""
    browser = at(app, "192.0.2.9")
    token = save(app, ONE_CARD)
    previews = [f"/r/{token}/print/preview.png?what=sheet&paper={p}&ink_saver={i}"
                for p, i in itertools.product(("a4", "letter"), ("yes", "no"))]
    assert [browser.get(url).status_code for url in previews[:3]] == [202, 202, 202]
    later = browser.get(previews[3])
    assert later.status_code == 503 and later.headers["Retry-After"] == "10"  # the page's
    assert place(browser.get(f"/r/{token}/print?what=cards")) == "1st in line"  # script waits


def test_the_line_takes_clients_in_turns(app: Flask, line: None) -> None:
    """Downloads before previews; within them, one print of each client in turn, the oldest
    first: the places the page tells are the order Huey's workers take the tasks in."""
    printer = printer_of(app)
    job = PrintJob("rules", "warstuff")

    def ask(who: str, n: int, rank: int) -> int:
        answer = printer.ask(f"{who}{n}", job, rank=rank, client=who, bound=16, per_client=3)
        assert not isinstance(answer, bytes)
        return answer.place

    asked = [("a", 1, DOWNLOAD), ("a", 2, DOWNLOAD), ("a", 3, DOWNLOAD), ("b", 1, DOWNLOAD),
             ("c", 1, PREVIEW), ("b", 2, DOWNLOAD), ("c", 2, DOWNLOAD)]
    for who, n, rank in asked:
        ask(who, n, rank)
    expected = ["a1", "b1", "c2", "a2", "b2", "a3", "c1"]

    def places() -> list[str]:
        told = {f"{w}{n}": ask(w, n, r) for w, n, r in asked if printer.ledger.find(f"{w}{n}")
                and printer.ledger.find(f"{w}{n}").status == "waiting"}  # type: ignore[union-attr]
        return sorted(told, key=told.__getitem__)

    assert places() == expected

    def taken() -> str:  # the print a worker woken by the next doorbell lays out
        return str(printer.huey.execute(printer.huey.dequeue()))

    assert taken() == "a1" and taken() == "b1"
    assert places() == expected[2:]
    ask("d", 1, DOWNLOAD)  # a newcomer: behind c's first only
    asked.append(("d", 1, DOWNLOAD))
    assert places() == ["c2", "d1", "a2", "b2", "a3", "c1"]
    assert [taken() for _ in range(6)] == ["c2", "d1", "a2", "b2", "a3", "c1"]
    for n in (4, 5, 6):  # a's share: 3 waiting
        ask("a", n, DOWNLOAD)
    with pytest.raises(QueueFull) as full:
        ask("a", 7, DOWNLOAD)
    assert full.value.own and full.value.waiting == 3


def test_the_line_keeps_a_digest_of_the_address(app: Flask, line: None) -> None:
    token = save(app, ONE_CARD)
    for address, paper in (("203.0.113.5", "a4"), ("203.0.113.5", "letter"),
                           ("203.0.113.6", "a4&ink_saver=yes")):
        assert at(app, address).get(f"/r/{token}/print?what=sheet&paper={paper}"
                                     ).status_code == 202
    with app.extensions["listbuilder.store"].engine.connect() as connection:
        rows = connection.execute(select(JOBS.c.client, JOBS.c.job).order_by(JOBS.c.id)).all()
    clients = [client for client, _ in rows]
    assert clients[0] == clients[1] != clients[2]
    assert all(re.fullmatch(r"[0-9a-f]{32}", c) for c in clients)
    assert not any("203.0.113" in c or "203.0.113" in job for c, job in rows)
