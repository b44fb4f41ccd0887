"""The builder as an app that works offline (static/js/sw.js, web/site/offline.py), in real
Chromium: with its network cut and the server itself stopped, a roster opened before (its edit
and share pages), its last printed PDF and every game's rules sheet still open; a change made
then is kept and saved once the server is back; a page never opened says so and lists what
is kept."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browsertools import opened, until
from test_network_browser import BAR, add_button, entries, new_roster, settled
from werkzeug.serving import make_server

from listbuilder.engine.registry import all_systems
from listbuilder.jobs.worker import WorkerThread
from listbuilder.settings import TestConfig
from listbuilder.web import create_app

pytestmark = pytest.mark.browser


class Site:
    """The app on a port of its own, which the test can stop and start again (a server that
    goes away, as the store's Wi-Fi does)."""

    def __init__(self, tmp: Path) -> None:
        (tmp / "no-custom-data").mkdir()
        config: dict[str, Any] = {k: getattr(TestConfig, k) for k in dir(TestConfig)
                                  if k.isupper()}
        config.update(DATABASE_URL=f"sqlite:///{tmp / 'rosters.sqlite3'}",
                      LISTBUILDER_DATA=str(tmp / "no-custom-data"))
        self.app = create_app(config, instance_path=tmp / "instance")
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.httpd: Any = None
        self.thread: threading.Thread | None = None

    def start(self) -> None:
        self.httpd = make_server("127.0.0.1", self.port, self.app, threaded=True)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        if self.httpd is not None:
            self.httpd.shutdown()
            self.httpd.server_close()
            self.httpd = None
        if self.thread is not None:
            self.thread.join(timeout=10)


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    running = Site(tmp_path)
    running.start()
    # the print worker, a thread of the test's: it stays when the web server goes away
    printer = WorkerThread(running.app.extensions["listbuilder.printer"]).start()
    try:
        yield running
    finally:
        running.stop()
        printer.stop()
        running.app.extensions["listbuilder.store"].close()


FETCH = """async url => {
  for (let i = 0; i < 240; i++) {
    const answer = await fetch(url, {credentials: 'same-origin'});
    if (answer.status === 202 || answer.status === 503) {
      await new Promise(r => setTimeout(r, 500));
      continue;
    }
    const body = await answer.arrayBuffer();
    return [answer.status, answer.headers.get('content-type'), body.byteLength,
            new TextDecoder().decode(body.slice(0, 5))];
  }
  return [0, '', 0, ''];
}"""


def test_opened_rosters_prints_and_rules_sheets_open_offline(context: Any, site: Site,
                                                               screenshots: Path) -> None:
    page = context.new_page()
    page.goto(site.url + "/")
    until(page, "() => !!navigator.serviceWorker.controller", timeout=30)
    url = new_roster(page, site.url, "Kept offline")
    page.goto(url)  # as a player comes back to it: the worker keeps the page
    opened(page, "#units-title", state="attached")
    until(page, "() => [...document.querySelectorAll('#main form[hx-post]')]"
                ".every(f => (f['htmx-internal-data'] || {}).initHash)")
    with page.expect_response(lambda r: r.request.method == "POST"):
        add_button(page, "Ork Boyz").click()
    settled(page)
    share = str(page.locator("input.copyable").first.input_value())
    assert "/s/" in share
    page.goto(share)
    opened(page, "main")
    page.goto(url)
    opened(page, "#units-title", state="attached")
    prints = f"{url}/print?what=cards"
    assert page.evaluate(FETCH, prints)[:2] == [200, "application/pdf"]
    rules = [f"/systems/{s.id}/print/rules" for s in all_systems()]
    # every game's rules sheet, kept from the start (the worker asks for them in the background)
    until(page, "async want => { const c = await caches.open('lb-prints');"
                " const kept = (await c.keys()).map(r => new URL(r.url).pathname);"
                " return want.every(u => kept.includes(u)); }", arg=rules, timeout=300)
    until(page, "async () => { const c = await caches.open('lb-pages');"
                " const r = await c.match(location.href, {ignoreSearch: true});"
                " return r && (await r.text()).includes('Ork Boyz'); }", timeout=20)

    site.stop()  # the server is gone...
    context.set_offline(True)  # ...and so is the network
    page.goto(url)
    opened(page, "#units-title", state="attached")
    assert entries(page) == ["Ork Boyz"]  # as last saved, not as first loaded
    until(page, "() => !document.querySelector('#connection').hidden")
    assert "No connection" in page.locator(BAR).inner_text()
    page.screenshot(path=str(screenshots / "offline-roster.png"))
    for sheet in rules:
        status, kind, size, head = page.evaluate(FETCH, sheet)
        assert (status, kind, head) == (200, "application/pdf", "%PDF-") and size > 10_000
    assert page.evaluate(FETCH, prints)[:2] == [200, "application/pdf"]
    # the last print of the roster, whichever options are asked now
    assert page.evaluate(FETCH, f"{url}/print?what=cards&card=mini")[:2] == \
        [200, "application/pdf"]
    page.goto(share)
    assert "Ork Boyz" in page.locator("main").inner_text()
    page.goto(site.url + "/notes")  # never opened here
    assert "No connection" in page.locator("main").inner_text()
    # offline.js lists what is kept once the worker's store answers, after the page loads
    # (read at once, a loaded CI machine saw the placeholder)
    until(page, "() => document.querySelector('#offline-kept').textContent"
                ".includes('Kept offline')")

    # a change made with no connection is kept, and saved when the server is back
    page.goto(url)
    opened(page, "#units-title", state="attached")
    until(page, "() => [...document.querySelectorAll('#main form[hx-post]')]"
                ".every(f => (f['htmx-internal-data'] || {}).initHash)")
    add_button(page, "Nobz").click()
    until(page, "() => document.querySelector('#connection').innerText.includes('Add Nobz')")
    site.start()
    context.set_offline(False)
    until(page, "() => document.querySelectorAll('.entry-name').length === 2", timeout=30)
    assert entries(page) == ["Ork Boyz", "Nobz"]
    fresh = context.new_page()
    fresh.goto(url)
    assert entries(fresh) == ["Ork Boyz", "Nobz"]


def test_the_app_can_be_installed(context: Any, server: str) -> None:
    page = context.new_page()
    page.goto(server + "/")
    manifest = page.evaluate("async () => { const link = document.querySelector("
                             "'link[rel=manifest]'); const a = await fetch(link.href);"
                             " return [a.headers.get('content-type'), await a.json()]; }")
    kind, body = manifest
    assert kind.startswith("application/manifest+json")
    assert body["display"] == "standalone" and body["start_url"] == "/"
    sizes = {icon["sizes"] for icon in body["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in body["icons"]:
        status, kind, size, _ = page.evaluate(FETCH, icon["src"])
        assert (status, kind) == (200, "image/png") and size > 500
    until(page, "() => navigator.serviceWorker.getRegistration().then(r => !!(r && r.active))",
          timeout=30)
