"""Security review, issue 37, item 8: behind nginx, an upload over 1 MB got nginx's bare
"413 Request Entity Too Large" instead of the app's page saying what fits. Now nginx lets
through twice the app's limit, so the app answers a body between the two itself, and answers
a larger one with the same page, fetched from the app (`error_page 413`), status kept.

Real processes on loopback: `listbuilder serve --front` (gunicorn and Debian's nginx, with the
site file `proxy-config` writes)."""

from __future__ import annotations

import http.client
import re

import pytest

from listbuilder.settings import Config
from listbuilder.web.site.errors import MESSAGES

pytestmark = pytest.mark.slow

MB = 1_000_000
EXPLAINED = MESSAGES[413]  # "That upload is too large: a roster file is at most 640 KB, ..."


def send(port: int, path: str, form: str, size: int) -> tuple[int, dict[str, str], str]:
    """A player's browser sending a file of `size` bytes with the form on `form`'s page
    (its CSRF token and session cookie): status, headers and page of the answer."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request("GET", form)
        page = connection.getresponse()
        html = page.read().decode()
    finally:
        connection.close()
    csrf = re.search(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"', html)
    assert csrf is not None, f"no form on {form}"
    cookie = (page.getheader("Set-Cookie") or "").split(";", 1)[0]
    boundary = "lbboundary7f3a"
    fields = {"csrf_token": csrf[1], "import-system": "actionhammer"}
    body = b"".join(f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n'
                    f"{v}\r\n".encode() for k, v in fields.items())
    name = "import-file" if path.startswith("/studio") else "file"
    body += (f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
             f'filename="army.yaml"\r\nContent-Type: application/yaml\r\n\r\n').encode()
    body += b"a: " + b"x" * size + f"\r\n--{boundary}--\r\n".encode()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request("POST", path, body=body, headers={
            "Content-Type": f"multipart/form-data; boundary={boundary}", "Cookie": cookie,
            "Referer": f"http://127.0.0.1:{port}{form}"})
        answer = connection.getresponse()
        return (answer.status, {k.lower(): v for k, v in answer.getheaders()},
                answer.read().decode())
    finally:
        connection.close()


def test_uploads_over_the_limit_get_the_apps_page_saying_what_fits_behind_nginx(
        front: int) -> None:
    port = front
    assert 1.5 * MB > Config.MAX_CONTENT_LENGTH  # past the app's limit, short of nginx's
    for path, form in (("/import", "/"), ("/studio/import", "/studio")):
        for size in (int(1.5 * MB), 3 * MB):  # the app refuses; nginx refuses
            status, headers, page = send(port, path, form, size)
            assert status == 413, (path, size, page[:300])
            assert EXPLAINED.replace("'", "&#39;") in page, (path, size, page[:300])
            assert "<center>nginx</center>" not in page
            assert headers["content-type"].startswith("text/html")
            assert "content-security-policy" in headers  # the app's own answer
    # the server is none the worse
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", "/")
        assert connection.getresponse().status == 200
    finally:
        connection.close()


def test_the_too_large_page_itself_is_a_413_whoever_asks(
        front: int) -> None:
    """The address nginx fetches the page from answers it to anyone, as a page, never 500."""
    port = front
    for method in ("GET", "POST"):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            connection.request(method, "/errors/too-large",
                               body=b"x" * 10 if method == "POST" else None)
            answer = connection.getresponse()
            page = answer.read().decode()
        finally:
            connection.close()
        assert answer.status == 413 and EXPLAINED.replace("'", "&#39;") in page
