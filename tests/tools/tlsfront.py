"""The TLS front a club puts before Listbuilder, for the browser tests: Debian's nginx with a
self-signed certificate on loopback, running the site file `listbuilder proxy-config` prints
(the one docs/deploying.md ships), in front of `listbuilder serve` (gunicorn, two workers and
its own print worker). tests/browser/conftest.py starts one for the session (`https`)."""

from __future__ import annotations

import re
import signal
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from listbuilder.commands.front import find_nginx, main_config
from listbuilder.commands.server import free_lanes

ROOT = Path(__file__).resolve().parents[2]
from servetools import (  # noqa: E402
    CLI,
    environment,
    free_port,
    wait_until_listening,
)

# A link in a logged path: a roster's, a share's, a list's, a match's or a pack's token. Each
# must show as "..." in nginx's access log (site.conf.j2 hides it).
TOKEN_IN_PATH = re.compile(r"/(?:r|s|l|m|e|p|studio/p|studio/s)/(?!\.\.\.)[A-Za-z0-9_.-]{20,}")


def certificate(folder: Path) -> tuple[Path, Path]:
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    return cert, key


@contextmanager
def tls_front(tmp: Path, database_url: str = "") -> Iterator[tuple[str, Path]]:
    """The base address of nginx (TLS) in front of gunicorn, and nginx's access log; both
    stopped after, and neither the log nor the server's output may give a link away or show
    a traceback. On `database_url` (PostgreSQL), else on the instance's SQLite file."""
    if find_nginx() is None:
        raise AssertionError("nginx is not installed: make test installs it")
    env = environment(tmp)
    if database_url:
        env["DATABASE_URL"] = database_url
    upgrade = subprocess.run([*CLI, "db", "upgrade"], env=env, capture_output=True, text=True)
    assert upgrade.returncode == 0, upgrade.stderr
    app_port, tls_port = free_port(), free_port()
    lanes = ["--lanes", str(free_lanes(2, besides=app_port))]  # as docs/deploying.md has it
    app = subprocess.Popen([*CLI, "serve", "--port", str(app_port), "--workers", "2", *lanes],
                           env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    nginx = None
    log = tmp / "access.log"
    try:
        wait_until_listening(app, app_port)
        cert, key = certificate(tmp)
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
        yield f"https://127.0.0.1:{tls_port}", log
    finally:
        if nginx is not None:
            nginx.send_signal(signal.SIGQUIT)
            nginx.communicate(timeout=30)
        app.send_signal(signal.SIGTERM)
        output = app.communicate(timeout=60)[0].decode()
        assert "Traceback" not in output, output
    logged = log.read_text(encoding="utf-8")
    assert not TOKEN_IN_PATH.search(logged), TOKEN_IN_PATH.search(logged)
