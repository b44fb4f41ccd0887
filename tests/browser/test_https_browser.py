"""Listbuilder as a club deploys it: Debian's nginx terminating TLS (a self-signed certificate,
on loopback) with the site file `listbuilder proxy-config` prints (the one docs/deploying.md
ships), in front of `listbuilder serve` (gunicorn, two workers), driven by Chromium.

Every form must work over HTTPS: a roster made, edited, imported, printed, deleted and
restored, shared and copied. Behind a proxy every form once answered 400 "The form had
expired": Flask-WTF wants a same-origin Referer over HTTPS and the site sent
`Referrer-Policy: no-referrer`. Cookies are Secure and HSTS is sent."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browsertools import opened
from test_builder_browser import add, start, submit_start

from listbuilder.front import find_nginx, main_config
from listbuilder.server import free_lanes

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "web"))
from test_serve import (  # noqa: E402
    CLI,
    environment,
    free_port,
    wait_until_listening,
)

EXAMPLE = ROOT / "examples" / "actionhammer" / "legal.yaml"
Page = Any


def certificate(folder: Path) -> tuple[Path, Path]:
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    return cert, key


@pytest.fixture(scope="module")
def https(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base address of nginx (TLS) in front of gunicorn; both stopped after."""
    if find_nginx() is None:
        pytest.fail("nginx is not installed: make test installs it", pytrace=False)
    tmp = tmp_path_factory.mktemp("https")
    env = environment(tmp)
    upgrade = subprocess.run([*CLI, "db", "upgrade"], env=env, capture_output=True, text=True)
    assert upgrade.returncode == 0, upgrade.stderr
    app_port, tls_port = free_port(), free_port()
    lanes = ["--lanes", str(free_lanes(2, besides=app_port))]  # as docs/deploying.md has it
    app = subprocess.Popen([*CLI, "serve", "--port", str(app_port), "--workers", "2", *lanes],
                           env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    nginx = None
    try:
        wait_until_listening(app, app_port)
        cert, key = certificate(tmp)
        log = tmp / "access.log"
        site = subprocess.run(
            [*CLI, "proxy-config", "--listen", f"127.0.0.1:{tls_port}",
             "--upstream", f"127.0.0.1:{app_port}", *lanes, "--workers", "2",
             "--server-name", "127.0.0.1",
             "--certificate", str(cert), "--certificate-key", str(key),
             "--redirect-from", "", "--access-log", str(log),
             "--error-log", str(tmp / "error.log")],
            env=env, capture_output=True, text=True, check=True).stdout
        prefix = tmp / "nginx"
        prefix.mkdir()
        (prefix / "site.conf").write_text(site, encoding="utf-8")
        (prefix / "nginx.conf").write_text(main_config(prefix, prefix / "site.conf"))
        nginx = subprocess.Popen([str(find_nginx()), "-p", str(prefix), "-c",
                                  str(prefix / "nginx.conf"), "-e", "stderr"],
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        wait_until_listening(nginx, tls_port)
        yield f"https://127.0.0.1:{tls_port}"
        # nothing in nginx's log gives a roster away
        logged = log.read_text(encoding="utf-8")
        assert "GET /r/..." in logged and "/s/..." in logged
        assert not re.search(r"/[rs]/(?!\.\.\.)", logged), logged
    finally:
        if nginx is not None:
            nginx.send_signal(signal.SIGQUIT)
            nginx.communicate(timeout=30)
        app.send_signal(signal.SIGTERM)
        output = app.communicate(timeout=60)[0].decode()
        assert "Traceback" not in output, output


def refused(page: Page) -> list[str]:
    """Every answer of 400 or more the page meets, kept as it happens."""
    seen: list[str] = []
    page.on("response", lambda r: seen.append(f"{r.status} {r.request.method} {r.url}")
            if r.status >= 400 else None)
    return seen


def test_every_form_works_over_https(tls_context: Any, https: str, tmp_path: Path) -> None:
    page = tls_context.new_page()
    errors = refused(page)
    first = page.goto(https + "/")
    assert first is not None and first.status == 200
    headers = first.all_headers()
    assert headers["strict-transport-security"].startswith("max-age=")
    assert headers["referrer-policy"] == "same-origin"

    # create, then edit (htmx posts)
    start(page, https, "One Page 40k (1st edition)", "Over TLS")
    page.get_by_label("Faction").select_option("Orks")
    submit_start(page)
    add(page, "Nobz")
    add(page, "Ork Boyz")
    assert page.locator(".entry-name").get_by_text("Nobz").count() == 1
    cookies = tls_context.cookies()
    assert cookies and all(c["secure"] and c["httpOnly"] for c in cookies), cookies
    share = page.get_by_label("Share link").input_value()
    assert share.startswith(https + "/s/")

    # import a file
    page.goto(https + "/")
    page.set_input_files("#file", str(EXAMPLE))
    page.get_by_role("button", name="Open file").click()
    opened(page, "#print")
    assert "Cobalt Brigade vanguard" in page.locator("main").inner_text()

    # print (a GET form): the PDF arrives
    page.get_by_role("link", name="Print", exact=True).click()
    menu = page.locator("#print")
    menu.get_by_role("radio", name="Roster sheet only").check()
    with page.expect_download(timeout=60_000) as info:
        menu.get_by_role("button", name="Download PDF").click()
    saved = tmp_path / "sheet.pdf"
    info.value.save_as(saved)
    assert saved.read_bytes().startswith(b"%PDF-")

    # delete from the home page, then undo
    page.goto(https + "/")
    page.get_by_role("link", name="Delete Over TLS").click()
    opened(page, "text=Delete Over TLS?")
    page.get_by_role("button", name="Delete Over TLS").click()
    opened(page, "#deleted")
    page.get_by_role("button", name="Undo: restore Over TLS").click()
    opened(page, ".mine-row >> text=Over TLS")
    assert page.locator("#deleted").count() == 0

    # a stranger opens the share link and copies the roster into their own
    other = tls_context.browser.new_context(ignore_https_errors=True)
    try:
        them = other.new_page()
        their_errors = refused(them)
        them.goto(share)
        them.get_by_role("button", name="Copy to my rosters").click()
        opened(them, "#saved-version")
        assert "/r/" in them.url
        assert all(c["secure"] for c in other.cookies())
        assert their_errors == []
    finally:
        other.close()
    assert errors == []
