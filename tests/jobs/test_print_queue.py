"""Prints are Huey tasks laid out by workers, never in a request's thread (listbuilder.jobs): a
print not in the cache is answered at once (202) with a page saying its place in line, which
asks again by itself; once a worker made it, the same address answers the PDF. The same print
asked twice is one job; past the queue's bound a print is turned away (503); a print whose
worker died is put back in line; a print that can't be made shows its problems; finished jobs
are swept. On SQLite and PostgreSQL alike (the app fixture runs each test on both); here the
test's thread plays the worker (`run_next`), test_print_workers.py runs real ones."""

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
from printtools import a_worker_is_alive, empty_queue, run_next
from pypdf import PdfReader
from sqlalchemy import select, update

from listbuilder.jobs import ledger as print_line
from listbuilder.jobs import printer as print_queue
from listbuilder.jobs.ledger import (
    DONE,
    FAILED,
    JOBS,
    PREVIEW_EXPIRES,
    RUNNING,
    WAITING,
    InLine,
)
from listbuilder.jobs.print_job import PrintJob
from listbuilder.jobs.worker import WorkerThread
from listbuilder.printing import render
from listbuilder.store.database import now
from listbuilder.web.prints.line_words import ordinal, place_words
from listbuilder.web.prints.queue import printer_of, run_jobs

pytestmark = pytest.mark.print

ROOT = Path(__file__).resolve().parents[2]
SHEET = "what=sheet"  # a print quick to make: the roster sheet alone


@pytest.fixture(autouse=True)
def no_jobs(app: Flask) -> Iterator[None]:
    empty_queue(app)
    a_worker_is_alive(app)
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
    # nothing was laid out by asking: a worker lays the first out, and the others move up
    assert run_next(app)
    assert in_line(client.get(f"/r/{second}/print?{SHEET}")) == "1st in line"
    assert in_line(client.get("/systems/spaceempires/print/rules")) == "2nd in line"


def test_the_pdf_arrives_at_the_same_address_once_a_worker_made_it(
        app: Flask, client: FlaskClient) -> None:
    token, _ = save(app, "actionhammer")
    url = f"/r/{token}/print?what=cards&paper=letter"
    in_line(client.get(url))
    assert run_next(app) and not run_next(app)  # one task, and then none
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
    assert run_next(app)  # one made: room for one more
    is_pdf(client.get(f"/r/{token}/print?{SHEET}"))
    assert in_line(client.get(f"/r/{token}/print?{SHEET}&ink_saver=yes")) == "2nd in line"


def killed_while_laying_out(app: Flask, key: str) -> None:
    """A worker takes a doorbell off the queue, starts the print, and is killed: the bell is
    lost (Huey delivers at most once), the row says it is being laid out."""
    assert printer_of(app).huey.dequeue() is not None
    taken = printer_of(app).ledger.take_next("elsewhere:1")
    assert taken is not None and taken[0] == key


def age_heartbeats(app: Flask, seconds: float) -> None:
    with app.extensions["listbuilder.store"].engine.begin() as connection:
        connection.execute(update(JOBS).values(
            heartbeat=now() - timedelta(seconds=seconds)))


def only_key(app: Flask) -> str:
    with app.extensions["listbuilder.store"].engine.connect() as connection:
        return str(connection.execute(select(JOBS.c.key)).scalar_one())


def test_a_print_whose_worker_died_is_put_back_in_line(app: Flask, client: FlaskClient) -> None:
    token, _ = save(app)
    url = f"/r/{token}/print?{SHEET}"
    in_line(client.get(url))
    killed_while_laying_out(app, only_key(app))
    assert in_line(client.get(url)) == "being laid out now"
    printer = printer_of(app)
    assert printer.recover() == 0 and not run_next(app)  # its worker may still be alive
    assert printer.ledger.beat(["elsewhere:1"]) == 1  # (its beat is what says so)
    age_heartbeats(app, 31)  # ...until it has not beaten for the timeout
    assert printer.recover() == 1  # back in line, with a task of its own again
    assert printer.recover() == 0  # once: another worker looking finds nothing to do
    assert in_line(client.get(url)) == "1st in line"
    assert run_next(app) and not run_next(app)
    is_pdf(client.get(url))
    assert jobs(app) == [("roster", DONE, 2)]


TRUTH_SECONDS = 10  # the issue: a print page tells the truth within 10 s


def test_a_print_whose_worker_stopped_beating_says_so_before_it_is_put_back(
        app: Flask, client: FlaskClient) -> None:
    """A page said "being laid out now" until the job timeout (30 s) put the print back. The
    beat that lapsed for TRUTH_SECONDS is told at once; the print is still taken back only at
    the timeout (a busy machine's late beat must not lose a live worker its print)."""
    token, _ = save(app)
    url = f"/r/{token}/print?{SHEET}"
    in_line(client.get(url))
    killed_while_laying_out(app, only_key(app))
    assert in_line(client.get(url)) == "being laid out now"
    age_heartbeats(app, TRUTH_SECONDS)
    assert in_line(client.get(url)) == "going back in line: the printer laying it out stopped"
    printer = printer_of(app)
    assert printer.recover() == 0  # not before the job timeout
    assert jobs(app) == [("roster", RUNNING, 1)]
    printer.huey.delete(print_queue.SEEN_KEY)  # and no worker alive to take it back
    assert in_line(client.get(url)) == (
        "waiting for a printer to start: the one laying it out stopped")
    a_worker_is_alive(app)
    assert printer.ledger.beat(["elsewhere:1"]) == 1  # its worker was only late
    assert in_line(client.get(url)) == "being laid out now"
    age_heartbeats(app, 31)
    assert printer.recover() == 1
    assert in_line(client.get(url)) == "1st in line"


def test_workers_stopped_lately_are_told_within_ten_seconds(app: Flask,
                                                            client: FlaskClient) -> None:
    """The last worker's sign of life TRUTH_SECONDS old: the page said "1st in line" until the
    job timeout (30 s); it says the print waits for a printer to start."""
    printer = printer_of(app)
    printer.huey.put(print_queue.SEEN_KEY, time.time() - TRUTH_SECONDS)
    token, _ = save(app)
    assert in_line(client.get(f"/r/{token}/print?{SHEET}")) == (
        "1st in line, waiting for a printer to start")
    assert not printer.state().workers_seen
    a_worker_is_alive(app)
    assert in_line(client.get(f"/r/{token}/print?{SHEET}")) == "1st in line"


def test_a_print_that_killed_its_worker_too_often_is_given_up_in_words(
        app: Flask, client: FlaskClient) -> None:
    token, _ = save(app)
    url = f"/r/{token}/print?{SHEET}"
    in_line(client.get(url))
    for _ in range(print_line.MAX_ATTEMPTS):
        killed_while_laying_out(app, only_key(app))
        age_heartbeats(app, 31)
        printer_of(app).recover()
    assert not run_next(app)
    answer = client.get(url)
    assert answer.status_code == 422
    assert "stopped the server's printer 3 times" in words(answer)
    assert jobs(app) == [("roster", FAILED, 3)]


def test_a_print_is_taken_by_one_worker_however_many_look_at_once(
        app: Flask, client: FlaskClient) -> None:
    token, _ = save(app)
    in_line(client.get(f"/r/{token}/print?{SHEET}"))
    key = only_key(app)
    ledger = printer_of(app).ledger
    taken: list[object] = []
    errors = at_once(lambda n: taken.append(ledger.take_next(f"worker:{n}")), 4)
    assert errors == []
    assert [t[0] for t in taken if isinstance(t, tuple)] == [key]
    assert jobs(app) == [("roster", RUNNING, 1)]
    assert run_next(app)  # its doorbell, rung after another took the row: does nothing
    assert jobs(app) == [("roster", RUNNING, 1)]


def test_a_doorbell_rung_twice_prints_once(app: Flask, client: FlaskClient,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    token, _ = save(app)
    url = f"/r/{token}/print?{SHEET}"
    in_line(client.get(url))
    printer = printer_of(app)
    printer._ring()  # a second bell for one print waiting (as a sweep or a retake may ring)
    made: list[str] = []
    real = PrintJob.make
    monkeypatch.setattr(PrintJob, "make",
                        lambda job, library: made.append(job.kind) or real(job, library))
    assert run_jobs(app) == 2
    assert made == ["roster"] and jobs(app) == [("roster", DONE, 1)]
    is_pdf(client.get(url))


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
        run_jobs(app)  # the task's retries fail too (the error stays while they run)
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
    # a download of a print queued for its preview moves up too, among the downloads in the
    # client's turn (behind the download it asked for before)
    assert in_line(client.get(f"/r/{token}/print?{SHEET}&paper=letter")) == "2nd in line"
    assert in_line(client.get(f"/r/{token}/print?what=cards")) == "1st in line"
    with app.extensions["listbuilder.store"].engine.connect() as connection:
        line = [(r.job, r.rank) for r in connection.execute(
            select(JOBS).order_by(JOBS.c.rank, JOBS.c.turn, JOBS.c.id))]
    assert [rank for _, rank in line] == [0, 0, 1]
    assert '"what": "cards"' in line[0][0] and '"paper": "letter"' in line[1][0]
    assert run_next(app) and run_next(app)  # workers take them as the page said
    is_pdf(client.get(f"/r/{token}/print?what=cards"))
    is_pdf(client.get(f"/r/{token}/print?{SHEET}&paper=letter"))  # before the a4 preview
    assert [status for _, status, _ in jobs(app)] == [WAITING, DONE, DONE]  # the a4 preview
    assert run_jobs(app) == 1  # a bell a print: the a4 preview's is the one left
    assert [status for _, status, _ in jobs(app)] == [DONE, DONE, DONE]


def test_a_preview_nobody_waits_for_any_more_expires(app: Flask, client: FlaskClient) -> None:
    token, _ = save(app)
    url = f"/r/{token}/print/preview.png?{SHEET}"
    assert client.get(url).status_code == 202
    download = f"/r/{token}/print?{SHEET}&paper=letter"
    assert in_line(client.get(download)) == "1st in line"
    with app.extensions["listbuilder.store"].engine.begin() as connection:  # long ago
        connection.execute(update(JOBS).values(
            created=now() - timedelta(seconds=PREVIEW_EXPIRES + 1)))
    assert run_jobs(app) == 2  # the download is made; the preview is dropped, not laid out
    assert [(kind, status) for kind, status, _ in jobs(app)] == [("roster", DONE)]
    is_pdf(client.get(download))
    assert client.get(url).status_code == 202 and len(jobs(app)) == 2  # asked again: queued


def test_a_worker_stopping_hands_its_print_back(app: Flask, client: FlaskClient) -> None:
    from huey import signals

    token, _ = save(app)
    url = f"/r/{token}/print?{SHEET}"
    in_line(client.get(url))
    printer = printer_of(app)
    task = printer.huey.dequeue()
    assert printer.ledger.take_next(print_line.worker_name()) is not None
    printer.huey._emit(signals.SIGNAL_INTERRUPTED, task)  # as Huey does at a hard stop
    assert in_line(client.get(url)) == "1st in line"
    assert run_next(app)
    is_pdf(client.get(url))
    assert jobs(app) == [("roster", DONE, 2)]


def test_with_no_worker_alive_the_page_says_the_print_waits_for_one(
        app: Flask, client: FlaskClient) -> None:
    printer_of(app).huey.delete(print_queue.SEEN_KEY)
    token, _ = save(app)
    url = f"/r/{token}/print?{SHEET}"
    assert in_line(client.get(url)) == "1st in line, waiting for a printer to start"
    state = printer_of(app).state()
    assert (state.waiting, state.running, state.workers_seen) == (1, 0, False)
    worker = WorkerThread(printer_of(app)).start()  # a worker starts: it says so at once
    try:
        for _ in range(600):  # its thread makes the print; the test only waits for it
            if [s for _, s, _ in jobs(app)] == [DONE]:
                break
            time.sleep(0.1)
        is_pdf(client.get(url))
    finally:
        worker.stop()
    assert printer_of(app).state().workers_seen


def test_finished_jobs_are_swept(app: Flask, client: FlaskClient) -> None:
    token, _ = save(app)
    in_line(client.get(f"/r/{token}/print?{SHEET}"))
    in_line(client.get(f"/r/{token}/print?{SHEET}&paper=letter"))
    assert run_next(app)
    printer = printer_of(app)
    assert printer.sweep() == 0  # just finished: kept a while
    with app.extensions["listbuilder.store"].engine.begin() as connection:
        connection.execute(update(JOBS).where(JOBS.c.status == DONE).values(
            finished=now() - print_line.KEEP_FINISHED - timedelta(seconds=1)))
    assert printer.sweep() == 1
    assert [status for _, status, _ in jobs(app)] == [WAITING]  # a waiting job stays


def test_places_in_words() -> None:
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th"]
    assert place_words(InLine(0)) == "being laid out now"
    assert place_words(InLine(3)) == "3rd in line"
    assert place_words(InLine(2, workers=False)) == (
        "2nd in line, waiting for a printer to start")
    assert not InLine(0, stopped=True).now
    assert place_words(InLine(0, stopped=True)) == (
        "going back in line: the printer laying it out stopped")


def test_servers_starting_at_once_make_the_queues_tables_once(pg_database: str) -> None:
    """Web servers and workers starting together on a new PostgreSQL database each make
    Huey's tables if they are missing: without a lock all but one died of a duplicate key in
    PostgreSQL's catalog (2-3 of 4 processes, 6 tries of 6)."""
    from listbuilder.jobs.broker import make_huey

    def start(_: int) -> None:
        huey = make_huey(pg_database)
        huey.storage.close()

    assert at_once(start, 4) == []
    huey = make_huey(pg_database)
    try:
        assert huey.pending_count() == 0  # the tables are there, whole
    finally:
        huey.storage.close()
