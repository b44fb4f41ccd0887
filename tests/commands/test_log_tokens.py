"""Security review, issue 37, item 6: edit tokens of packs (`/studio/p/<token>`) and list links
(`/l/<token>`) were written whole to gunicorn's and nginx's access logs, in the request line and
the Referer; only `/r/` and `/s/` were masked. Whoever reads a log must find no token of any
kind in it: a real server (gunicorn with its access log; then nginx in front, `serve --front`,
its log format the one `proxy-config` writes) is used through every link kind, by GET and POST,
with the Referer a browser sends, and its whole output is searched for each token used."""

from __future__ import annotations

import http.client
import re
import signal
import subprocess
import sys
import textwrap
import urllib.parse
from pathlib import Path

import pytest
from servetools import CLI, environment, free_port, need_nginx, wait_until_answering

pytestmark = pytest.mark.slow


class Visitor:
    """A browser without JavaScript: cookies kept, redirects followed, and the Referer a
    browser sends (the page it was on, tokens and all: Referrer-Policy same-origin)."""

    def __init__(self, port: int) -> None:
        self.origin = f"http://127.0.0.1:{port}"
        self.port = port
        self.cookies: dict[str, str] = {}
        self.html = ""
        self.path = "/"

    def go(self, method: str, path: str, form: dict[str, str] | None = None) -> int:
        body = urllib.parse.urlencode(form) if form is not None else None
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
                   "Referer": self.origin + self.path}
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            self.html = response.read().decode()
            for value in response.msg.get_all("Set-Cookie") or []:
                name, _, rest = value.partition("=")
                self.cookies[name] = rest.split(";", 1)[0]
        finally:
            connection.close()
        self.path = path
        if response.status in (302, 303):
            return self.go("GET", urllib.parse.urlsplit(response.getheader("Location", "")).path)
        return response.status

    def post(self, path: str, **form: str) -> int:
        return self.go("POST", path, {"csrf_token": self.csrf(), **form})

    def csrf(self) -> str:
        found = re.search(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"', self.html)
        assert found is not None, f"no CSRF token on {self.path}"
        return found[1]

    def found(self, pattern: str) -> str:
        match = re.search(pattern, self.html)
        assert match is not None, f"{pattern} not on {self.path}"
        return match[1]


def use_every_link_kind(port: int) -> dict[str, str]:
    """A player's visit using every kind of link, each also with its slash percent-encoded
    and as the Referer of the next request; the tokens used, by kind."""
    v = Visitor(port)
    assert v.go("GET", "/new/actionhammer") == 200
    assert v.post("/new/actionhammer", name="Logged", factions="Cobalt Brigade",
                  points_limit="1000") == 200
    edit = v.path
    assert edit.startswith("/r/")
    share = v.found(r'href="(/s/[A-Za-z0-9_-]+)"')
    assert v.post(f"{edit}/keep") == 200
    assert v.go("GET", f"{edit}/export.yaml") == 200
    assert v.go("GET", edit.replace("/r/", "/r%2F") + "/export.yaml") == 200
    assert v.go("GET", share) == 200
    # quick resolve carries a share link and a share token in its query
    query = urllib.parse.urlencode({"link": v.origin + share, "te_for": share[3:],
                                    "target": "Line Troopers"})
    assert v.go("GET", f"{share}/resolve?{query}") in (200, 422)
    assert v.go("GET", f"{edit}/resolve?{query}") in (200, 422)

    assert v.go("GET", "/studio") == 200
    assert v.post("/studio/new", system="actionhammer", name="Logged pack") == 200
    pack = v.path
    assert pack.startswith("/studio/p/")
    pack_share = v.found(r'id="pack-share-link" class="link" readonly value="[^"]*(/studio/s/'
                         r'[A-Za-z0-9_-]+)"')
    assert v.go("GET", f"{pack}/export.yaml") == 200
    assert v.go("GET", pack.replace("/studio/p/", "/studio%2Fp%2F") + "/export.yaml") == 200
    assert v.go("GET", pack) == 200
    assert v.post(f"{pack}/keep") == 200
    assert v.go("GET", pack_share) == 200
    assert v.go("GET", f"{edit}/packs") == 200
    assert v.post(f"{edit}/packs/add", version=v.found(r'name="version" [^>]*value="(\d+)"'),
                  link=v.origin + pack_share) == 200

    # a match at the table: both sides' private links and the spectators'
    assert v.go("GET", f"{edit}/play") == 200
    assert v.post(f"{edit}/play", me="Ann", source="link", link=v.origin + share) == 200
    side1 = v.path
    assert side1.startswith("/m/")
    side2 = v.found(r'id="opponent-link" class="copyable" type="text" readonly '
                    r'value="[^"]*(/m/[A-Za-z0-9_-]+)"')
    watch = v.found(r'id="watch-link" class="copyable" type="text" readonly '
                    r'value="[^"]*(/m/[A-Za-z0-9_-]+)"')
    assert v.post(f"{side1}/event", base="1", kind="first-turn", side="1") == 200
    assert v.go("GET", f"{side1}/board?v=1") == 200
    assert v.go("GET", side1.replace("/m/", "/m%2F") + "/match.yaml") == 200
    assert v.go("GET", f"{side2}/summary") == 200
    assert v.go("GET", watch) == 200

    # an event: the organiser's link, the public one, a player's own, a list's verify code
    assert v.go("GET", "/events/new") == 200
    assert v.post("/events/new", name="Logged night", system="actionhammer", kind="league",
                  deadline="2030-01-01T12:00") == 200
    organiser = v.path
    assert organiser.startswith("/e/")
    public = v.found(r'id="public-link" type="text" readonly value="[^"]*(/e/[A-Za-z0-9_-]+)"')
    assert v.go("GET", public) == 200
    assert v.post(f"{public}/hand-in", player="Ann", link=v.origin + edit) == 200
    player = v.path
    assert player.startswith("/p/")
    code = v.found(r'href="/v/([A-Za-z0-9_-]+)"')
    assert v.go("GET", f"/v/{code}") == 200
    assert v.go("GET", f"{public}/standings.json") == 200
    assert v.go("GET", organiser.replace("/e/", "/e%2F")) == 200

    assert v.go("GET", "/") == 200
    assert v.post("/mine/link") == 200
    listed = v.found(r'id="list-link" class="copyable" type="text" readonly value="[^"]*'
                     r'(/l/[A-Za-z0-9_-]+)"')
    other = Visitor(port)  # the player's phone, sent there by the link
    other.path = listed
    assert other.go("GET", listed) == 200
    assert other.go("GET", listed.replace("/l/", "/l%2F")) == 200
    assert other.post(f"{listed}/join") == 200
    assert other.go("GET", "/") == 200
    return {"edit": edit[3:], "share": share[3:], "pack edit": pack[10:],
            "pack share": pack_share[10:], "list": listed[3:], "match side 1": side1[3:],
            "match side 2": side2[3:], "match watch": watch[3:], "event organiser": organiser[3:],
            "event public": public[3:], "event player": player[3:], "list code": code}


def serve_and_visit(tmp_path: Path, *flags: str) -> tuple[str, dict[str, str]]:
    env = environment(tmp_path)
    done = subprocess.run([*CLI, "db", "upgrade"], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    port = free_port()
    proc = subprocess.Popen([*CLI, "serve", "--port", str(port), "--workers", "1",
                             "--threads", "2", "--access-log", *flags], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        wait_until_answering(proc, port)
        tokens = use_every_link_kind(port)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            # the stop's own deadlines add to 45 s (gunicorn's graceful 20, nginx's 10, the
            # print worker's 15): a loaded machine may use them
            log = proc.communicate(timeout=120)[0].decode()
        except subprocess.TimeoutExpired:
            proc.kill()  # reaped here, not left to warn in whichever test runs next
            proc.communicate()
            raise
    return log, tokens


def leaked(log: str, tokens: dict[str, str]) -> dict[str, list[str]]:
    """Each token kind that appears in the log, with the lines it appears in."""
    return {kind: [line for line in log.splitlines() if token in line]
            for kind, token in tokens.items() if token in log}


def test_gunicorns_logs_hold_no_token_of_any_link_kind(tmp_path: Path) -> None:
    log, tokens = serve_and_visit(tmp_path)
    assert leaked(log, tokens) == {}
    assert "Traceback" not in log, log
    # the requests were logged, each link kind by its shape
    for line in ('"GET /studio/p/.../export.yaml HTTP/1.1" 200',
                 '"POST /studio/p/.../keep HTTP/1.1" 302', '"GET /l/... HTTP/1.1" 200',
                 '"POST /l/.../join HTTP/1.1" 302', '"GET /studio/s/... HTTP/1.1" 200',
                 '"GET /s/.../resolve?link=http://127.0.0.1:'):
        assert line in log, f"{line} not in the log:\n{log}"
    assert log.count('"GET /studio/p/.../export.yaml HTTP/1.1" 200') == 2  # and %2F-encoded
    assert '"http://127.0.0.1:' in log  # the Referer is written, its tokens hidden


def test_nginxs_log_in_front_holds_no_token_of_any_link_kind(tmp_path: Path) -> None:
    need_nginx()
    log, tokens = serve_and_visit(tmp_path, "--front")
    assert leaked(log, tokens) == {}
    assert "Traceback" not in log, log
    for line in ('"GET /studio/p/.../export.yaml" 200', '"GET /studio%2Fp%2F.../export.yaml" 200',
                 '"POST /studio/p/.../keep" 302', '"GET /l/..." 200', '"GET /l%2F..." 200',
                 '"POST /l/.../join" 302', '"GET /studio/s/..." 200',
                 '"GET /s/.../resolve?link=http%3A%2F%2F127.0.0.1%3A'):
        assert line in log, f"{line} not in the log:\n{log}"


@pytest.mark.parametrize("kind", ["record", "exception", "werkzeug"])
def test_the_apps_own_log_lines_hold_no_token(kind: str) -> None:
    """What the server's processes log besides the access log (gunicorn's error log, the
    app's errors, a library's lines) goes through the same hiding once `serve` starts:
    run in a process of its own, as the server is."""
    edit = "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde"
    share = "5wFH3_xHAKBELduBnniT5Q"
    code = textwrap.dedent(f"""
        import logging, sys
        from listbuilder.commands.server import hide_tokens_in_logs
        logging.basicConfig(stream=sys.stdout, level=logging.INFO)
        hide_tokens_in_logs()
        hide_tokens_in_logs()  # twice changes nothing
        log = logging.getLogger("listbuilder.web.site.errors")
        if {kind!r} == "record":
            log.error("Error handling request %s", "/studio%2Fp%2F{edit}/form?te_for={share}")
        elif {kind!r} == "exception":
            try:
                raise KeyError("no roster at /r/{edit} for {share}")
            except KeyError:
                log.exception("unexpected error on %s", "http://h/l/{edit}")
        else:
            logging.getLogger("werkzeug").info(
                '127.0.0.1 - - "%s" %s -', "POST /l/{edit}/join HTTP/1.1", 302)
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    out = done.stdout + done.stderr
    assert edit not in out and share not in out, out
    assert {"record": "/studio/p/.../form?te_for=...", "exception": "KeyError",
            "werkzeug": "POST /l/.../join HTTP/1.1"}[kind] in out, out
