"""Prints are laid out beside the edits, never in a request's thread (prints.queue): a print not
in the cache is answered at once (202) with a page saying its place in line, which asks again
by itself; once a runner made it, the same address answers the PDF. The same print asked twice
is one job; past the queue's bound a print is turned away (503); a job whose runner died is
taken again; a print that can't be made shows its problems; finished jobs are swept. On SQLite
and PostgreSQL alike (the app fixture runs each test on both)."""

from __future__ import annotations

import html
import io
import re
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from at_once import at_once
from flask import Flask
from flask.testing import FlaskClient
from printtools import empty_queue
from pypdf import PdfReader
from sqlalchemy import select, update

from listbuilder.printing import render
from listbuilder.web.prints import queue as print_queue
from listbuilder.web.prints.queue import (
    DONE,
    FAILED,
    JOBS,
    RUNNING,
    WAITING,
    InLine,
    ordinal,
    queue_of,
    run_jobs,
    run_next_job,
)

ROOT = Path(__file__).resolve().parents[2]
SHEET = "what=sheet"  # a print quick to make: the roster sheet alone


@pytest.fixture(autouse=True)
def no_jobs(app: Flask) -> Iterator[None]:
    empty_queue(app)
    yield
    empty_queue(app)


def save(app: Flask, system_id: str = "warstuff", name: str = "") -> tuple[str, str]:
    text = (ROOT / "examples" / system_id / "legal.yaml").read_text(encoding="utf-8")
    if name:
        text = re.sub(r"^name: .*$", f"name: {name}", text, count=1, flags=re.M)
    stored, token = app.extensions["listbuilder.store"].create(system_id, "x", text)
    return token, stored.share_token


def jobs(app: Flask) -> list[tuple[str, str, int]]:
    """(kind, status, attempts) of each job, in line order."""
    with app.extensions["listbuilder.store"].engine.connect() as connection:
        return [(r.kind, r.status, r.attempts) for r in
                connection.execute(select(JOBS).order_by(JOBS.c.id))]


def words(response) -> str:  # type: ignore[no-untyped-def]
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.get_data(as_text=True)))
                    .split())


def in_line(response) -> str:  # type: ignore[no-untyped-def]
    """The place a waiting page gives, checking it is one."""
    assert response.status_code == 202, response.get_data(as_text=True)[:500]
    assert response.mimetype == "text/html"
    assert response.headers["Retry-After"] == "1"
    assert response.headers["Cache-Control"] == "no-store"
    body = response.get_data(as_text=True)
    # asks again by itself, no script, at its own address without a fragment (a refresh of
    # an address ending in #print is a move within the page to Chromium)
    refresh = re.search(r'<meta http-equiv="refresh" content="1; url=([^"]+)">', body)
    assert refresh and "#" not in refresh[1] and "/print" in refresh[1], body[:800]
    assert "style=" not in body and "<script>" not in body  # the site's CSP allows neither
    found = re.search(r"Your print is ([^.<]+)\.", body)
    assert found, body
    return found[1]


def is_pdf(response) -> PdfReader:  # type: ignore[no-untyped-def]
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    assert response.mimetype == "application/pdf"
    return PdfReader(io.BytesIO(response.get_data()))


def test_a_print_is_answered_at_once_with_its_place_in_line(app: Flask,
                                                            client: FlaskClient) -> None:
    first, _ = save(app, name="First")
    second, _ = save(app, name="Second")
    answer = client.get(f"/r/{first}/print?{SHEET}")
    assert in_line(answer) == "1st in line"
    assert f'href="/r/{first}"' in answer.get_data(as_text=True)  # back to the roster
    assert "Printing First" in words(answer)
    assert in_line(client.get(f"/r/{second}/print?{SHEET}")) == "2nd in line"
    assert in_line(client.get("/systems/spaceempires/print/rules")) == "3rd in line"
    assert [(kind, status) for kind, status, _ in jobs(app)] == [
        ("roster", WAITING), ("roster", WAITING), ("rules", WAITING)]
    # nothing was laid out by asking: the runner lays the first out, and the others move up
    assert run_next_job(app)
    assert in_line(client.get(f"/r/{second}/print?{SHEET}")) == "1st in line"
    assert in_line(client.get("/systems/spaceempires/print/rules")) == "2nd in line"


def test_the_pdf_arrives_at_the_same_address_once_the_runner_made_it(
        app: Flask, client: FlaskClient) -> None:
    token, _ = save(app, "actionhammer")
    url = f"/r/{token}/print?what=cards&paper=letter"
    in_line(client.get(url))
    assert run_next_job(app) and not run_next_job(app)  # one job, and then none
    answer = client.get(url)
    pdf = is_pdf(answer)
    assert answer.headers["Content-Disposition"] == (
        'attachment; filename="cobalt-brigade-vanguard-actionhammer-cards.pdf"')
    box = pdf.pages[0].mediabox  # Letter: poker cards go landscape there, 4x2 with gutters
    assert sorted((float(box.width), float(box.height))) == pytest.approx([612, 792], abs=0.5)
    assert "Line Troopers" in "".join(page.extract_text() for page in pdf.pages)
    assert jobs(app) == [("roster", DONE, 1)]


def test_a_print_in_the_cache_is_answered_at_once(app: Flask, client: FlaskClient) -> None:
    token, share = save(app)
    in_line(client.get(f"/r/{token}/print?{SHEET}"))
    run_jobs(app)
    empty_queue(app)  # the job long swept: the PDF is in the shared cache
    made = client.get(f"/r/{token}/print?{SHEET}")
    is_pdf(made)
    # by the share link too: the same roster and options are the same print
    assert client.get(f"/s/{share}/print?{SHEET}").get_data() == made.get_data()
    assert jobs(app) == []


def test_the_same_print_asked_twice_is_one_job(app: Flask, client: FlaskClient) -> None:
    token, share = save(app)
    for url in (f"/r/{token}/print?{SHEET}", f"/s/{share}/print?{SHEET}",
                f"/r/{token}/print?{SHEET}&paper=a4"):  # the default paper, said: the same
        assert in_line(client.get(url)) == "1st in line"
    errors = at_once(lambda _: app.test_client().get(f"/r/{token}/print?{SHEET}"), 4)  # at once
    assert errors == [] and len(jobs(app)) == 1
    other = client.get(f"/r/{token}/print?{SHEET}&paper=letter")  # other options: a new print
    assert in_line(other) == "2nd in line"
    assert run_jobs(app) == 2


def test_past_the_queues_bound_a_print_is_turned_away_in_words(app: Flask,
                                                              client: FlaskClient) -> None:
    app.config["PRINT_QUEUE"] = 2
    token, _ = save(app)
    in_line(client.get(f"/r/{token}/print?{SHEET}"))
    in_line(client.get(f"/r/{token}/print?{SHEET}&paper=letter"))
    answer = client.get(f"/r/{token}/print?{SHEET}&ink_saver=yes")
    assert answer.status_code == 503
    assert answer.headers["Retry-After"] == "30"
    assert "The printer is busy: 2 prints are waiting already" in words(answer)
    assert '<meta http-equiv="refresh" content="30">' in answer.get_data(as_text=True)
    assert len(jobs(app)) == 2
    # a print already in line, or made, is still answered
    assert in_line(client.get(f"/r/{token}/print?{SHEET}")) == "1st in line"
    assert client.get("/systems/warstuff/print/rules").status_code == 503
    assert run_next_job(app)  # one made: room for one more
    is_pdf(client.get(f"/r/{token}/print?{SHEET}"))
    assert in_line(client.get(f"/r/{token}/print?{SHEET}&ink_saver=yes")) == "2nd in line"


def test_a_job_whose_runner_died_is_taken_again(app: Flask, client: FlaskClient) -> None:
    token, _ = save(app)
    url = f"/r/{token}/print?{SHEET}"
    in_line(client.get(url))
    queue = queue_of(app)
    assert queue.claim(timeout=30) is not None  # a worker took it, then was killed
    assert in_line(client.get(url)) == "being laid out now"
    assert not run_next_job(app)  # its runner may still be alive: not taken yet
    with queue.engine.begin() as connection:  # ...until it has not beaten for the timeout
        connection.execute(update(JOBS).values(
            heartbeat=print_queue._now() - timedelta(seconds=31)))
    assert run_next_job(app)
    is_pdf(client.get(url))
    assert jobs(app) == [("roster", DONE, 2)]


def test_a_job_that_killed_its_runner_too_often_is_given_up_in_words(
        app: Flask, client: FlaskClient) -> None:
    token, _ = save(app)
    url = f"/r/{token}/print?{SHEET}"
    in_line(client.get(url))
    queue = queue_of(app)
    for _ in range(print_queue.MAX_ATTEMPTS):
        assert queue.claim(timeout=30) is not None
        with queue.engine.begin() as connection:
            connection.execute(update(JOBS).values(
                heartbeat=print_queue._now() - timedelta(seconds=31)))
    assert not run_next_job(app)
    answer = client.get(url)
    assert answer.status_code == 422
    assert "stopped the server's printer 3 times" in words(answer)
    assert jobs(app) == [("roster", FAILED, 3)]


def test_two_runners_never_take_the_same_job(app: Flask, client: FlaskClient) -> None:
    token, _ = save(app)
    in_line(client.get(f"/r/{token}/print?{SHEET}"))
    queue = queue_of(app)
    taken: list[object] = []
    errors = at_once(lambda _: taken.append(queue.claim(timeout=30)), 4)
    assert errors == []
    assert len([t for t in taken if t is not None]) == 1
    assert jobs(app) == [("roster", RUNNING, 1)]


def test_a_print_that_cant_be_made_shows_its_problems_with_the_form(
        app: Flask, client: FlaskClient) -> None:
    text = "format: 1\nsystem: warstuff\nname: Empty\nfactions: [Fantasy]\n"
    _, token = app.extensions["listbuilder.store"].create("warstuff", "Empty", text)
    url = f"/r/{token}/print?what=cards&paper=letter"
    in_line(client.get(url))  # that it has no cards is found laying it out
    run_jobs(app)
    answer = client.get(url)
    assert answer.status_code == 422
    assert "'Empty' has no units to print" in words(answer)
    assert 'value="letter" checked' in answer.get_data(as_text=True)  # the form as sent
    assert jobs(app) == [("roster", FAILED, 1)]


def test_an_error_of_ours_is_a_500_and_asking_again_tries_again(
        app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    token, _ = save(app)
    url = f"/r/{token}/print?{SHEET}"
    in_line(client.get(url))
    with monkeypatch.context() as patched:
        patched.setattr(render, "print_roster", lambda *a, **k: 1 / 0)
        run_jobs(app)
    failed = client.get(url)
    assert failed.status_code == 500 and "failed on our side" in words(failed)
    assert in_line(client.get(url)) == "1st in line"  # asked again: queued again
    run_jobs(app)
    is_pdf(client.get(url))


def test_a_preview_in_line_says_so_without_a_picture(app: Flask, client: FlaskClient) -> None:
    token, _ = save(app)
    url = f"/r/{token}/print/preview.png?{SHEET}"
    waiting = client.get(url)
    assert waiting.status_code == 202 and waiting.mimetype == "text/plain"
    assert waiting.headers["Retry-After"] == "1"
    run_jobs(app)
    asked = client.head(url)  # what the page's script asks before loading the picture again
    assert asked.status_code == 200 and asked.mimetype == "image/png"
    shown = client.get(url)
    assert shown.status_code == 200 and shown.get_data().startswith(b"\x89PNG")
    # the download of the same print needs no layout: the preview's print is in the cache
    is_pdf(client.get(f"/r/{token}/print?{SHEET}"))


def test_a_download_goes_ahead_of_the_previews(app: Flask, client: FlaskClient) -> None:
    # the print page asks for previews at each option changed, then the player downloads:
    # the download is made first, and the place it is told is among downloads only
    token, _ = save(app)
    for paper in ("a4", "letter"):
        assert client.get(f"/r/{token}/print/preview.png?{SHEET}&paper={paper}"
                          ).status_code == 202
    assert in_line(client.get(f"/r/{token}/print?what=cards")) == "1st in line"
    # a download of a print queued for its preview moves up too, keeping its turn among the
    # downloads (it was asked for first)
    assert in_line(client.get(f"/r/{token}/print?{SHEET}&paper=letter")) == "1st in line"
    assert in_line(client.get(f"/r/{token}/print?what=cards")) == "2nd in line"
    with app.extensions["listbuilder.store"].engine.connect() as connection:
        line = [(r.job, r.rank) for r in connection.execute(
            select(JOBS).order_by(JOBS.c.rank, JOBS.c.id))]
    assert [rank for _, rank in line] == [0, 0, 1]
    assert '"paper": "letter"' in line[0][0] and '"what": "cards"' in line[1][0]
    assert run_next_job(app) and run_next_job(app)
    is_pdf(client.get(f"/r/{token}/print?what=cards"))  # made before the a4 preview
    assert [status for _, status, _ in jobs(app)] == [WAITING, DONE, DONE]  # the a4 preview
    assert run_jobs(app) == 1


def test_finished_jobs_are_swept(app: Flask, client: FlaskClient) -> None:
    token, _ = save(app)
    in_line(client.get(f"/r/{token}/print?{SHEET}"))
    in_line(client.get(f"/r/{token}/print?{SHEET}&paper=letter"))
    assert run_next_job(app)
    queue = queue_of(app)
    assert queue.sweep() == 0  # just finished: kept a while
    with queue.engine.begin() as connection:
        connection.execute(update(JOBS).where(JOBS.c.status == DONE).values(
            finished=print_queue._now() - print_queue.KEEP_FINISHED - timedelta(seconds=1)))
    assert queue.sweep() == 1
    assert [status for _, status, _ in jobs(app)] == [WAITING]  # a waiting job stays


def test_a_served_app_runs_its_own_runner(app: Flask, client: FlaskClient) -> None:
    """Behind a real HTTP server (one that names itself in SERVER_SOFTWARE, as Werkzeug's and
    gunicorn's do) the first print starts the process's runner thread, which makes it."""
    token, _ = save(app)
    url = f"/r/{token}/print?{SHEET}"
    served = {"SERVER_SOFTWARE": "Werkzeug/test"}
    try:
        in_line(client.get(url, environ_base=served))
        runner = print_queue._RUNNERS[id(app)]
        assert runner.alive()
        for _ in range(600):  # the runner's thread makes it; the test only waits for it
            if [s for _, s, _ in jobs(app)] == [DONE]:
                break
            time.sleep(0.1)
        is_pdf(client.get(url))
    finally:
        print_queue.stop_runner(app)
    assert not runner.alive()


def test_places_in_words() -> None:
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th"]
    assert InLine(0).words == "being laid out now" and InLine(3).words == "3rd in line"
