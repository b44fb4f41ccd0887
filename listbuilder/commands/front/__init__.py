"""nginx in front of gunicorn: the site file a host puts behind TLS (`listbuilder
proxy-config`), and the buffering front `listbuilder serve --front` starts itself.

gunicorn's threads read a request as it arrives, so a client that trickles its headers or body
holds a thread for as long as it likes: four such clients stopped a two-worker server. nginx
reads every request whole before handing it on, with timeouts, and costs a slow client a few kB.
Both uses render the same site template (`site.conf.j2`), so the configuration the tests run
is the one the docs ship.
"""

from __future__ import annotations

import encodings.idna  # noqa: F401  (before the front thread: see start_when_listening)
import getpass
import os
import shutil
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

from jinja2 import Environment, StrictUndefined

from listbuilder.processes import die_with_parent

_TEMPLATES = files(__name__)
NGINX_HINT = ("nginx is not installed: install it (Debian: apt-get install nginx), or leave out "
              "--front and put your own proxy in front")


@dataclass(frozen=True)
class Site:
    """One server block: where nginx listens and where it sends requests."""

    listen: str  # "443", "127.0.0.1:5000", "[::]:443"
    upstream: str  # "127.0.0.1:8000" or "unix:/path/to/socket"
    lanes: tuple[str, ...] = ()  # each worker's own address (`listbuilder serve --lanes`)
    server_name: str = "_"
    certificate: str | None = None  # with its key: TLS
    certificate_key: str | None = None
    redirect_from: str | None = None  # a plain-HTTP port that only redirects to HTTPS
    access_log: str = "off"  # or "<path> listbuilder"
    error_log: str = "stderr"
    command: str = ""  # the command that made it, quoted in its first lines

    @property
    def tls(self) -> bool:
        return self.certificate is not None


def _render(template: str, **values: object) -> str:
    # nginx's syntax, not HTML: nothing to escape; every value comes from the host
    env = Environment(undefined=StrictUndefined, keep_trailing_newline=True, autoescape=False)
    return env.from_string(_TEMPLATES.joinpath(template).read_text(encoding="utf-8")).render(
        **values)


def site_config(site: Site) -> str:
    """The nginx site file for `site`: upstream, log format without tokens, server block."""
    if (site.certificate is None) != (site.certificate_key is None):
        raise ValueError("TLS needs both a certificate and its key")
    return _render("site.conf.j2", tls=site.tls, **{
        k: v for k, v in vars(site).items()})


def main_config(prefix: Path, site_file: Path) -> str:
    """A whole nginx.conf running in the foreground, its files under `prefix`."""
    user = getpass.getuser() if os.geteuid() == 0 else None  # else workers run as nobody
    return _render("main.conf.j2", prefix=prefix, site=site_file, user=user)


def find_nginx() -> str | None:
    path = os.environ.get("PATH", "") + os.pathsep + "/usr/sbin:/sbin"
    return shutil.which("nginx", path=path)


class FrontError(RuntimeError):
    """nginx could not start; the message says why and what to do."""


class Front:
    """nginx started by the server, in the foreground, ended with it."""

    def __init__(self, site: Site, prefix: Path) -> None:
        self.site = site
        self.prefix = prefix
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, wait: float = 5.0) -> None:
        """Start nginx; FrontError if it does not come up (its own message is on stderr)."""
        nginx = find_nginx()
        if nginx is None:
            raise FrontError(NGINX_HINT)
        self.prefix.mkdir(parents=True, exist_ok=True)
        site_file = self.prefix / "site.conf"
        conf = self.prefix / "nginx.conf"
        site_file.write_text(site_config(self.site), encoding="utf-8")
        conf.write_text(main_config(self.prefix, site_file), encoding="utf-8")
        pid_file = self.prefix / "nginx.pid"
        pid_file.unlink(missing_ok=True)  # a killed server's
        parent = os.getpid()

        def child_setup() -> None:
            die_with_parent(signal.SIGTERM)  # SIGTERM: nginx's fast stop, workers included
            if os.getppid() != parent:  # the server ended before the line above
                os._exit(1)

        self.process = subprocess.Popen(
            [nginx, "-p", str(self.prefix), "-c", str(conf), "-e", "stderr"],
            stdin=subprocess.DEVNULL, preexec_fn=child_setup)  # its errors: our stderr
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise FrontError(f"nginx did not start (exit {self.process.returncode}); its "
                                 f"message is above (a port in use? another server running?)")
            if pid_file.exists():
                return
            time.sleep(0.05)
        raise FrontError(f"nginx did not start within {wait:g} s")

    def start_when_listening(self, ports: list[int], failed: Callable[[str], None]) -> None:
        """Start nginx from a thread of its own once 127.0.0.1 takes connections on every one
        of `ports` (gunicorn's workers, each binding its own sockets), so that no player meets
        a 502 while the workers boot, nor a lane left aside; `failed(message)` if it can't.

        The thread then lives as long as the server: the kernel signals nginx when the thread
        that started it ends (die_with_parent), not only the process.

        Its first connect would import the idna codec (a host given as text goes through it),
        and gunicorn forks workers meanwhile: a worker forked while that import held its
        module lock kept the lock held for ever, and every request of that worker hung on
        werkzeug's own `encode("idna")` (seen once in CI: a worker answering nothing for 12
        minutes). So the codec is imported with this module, before any thread starts."""

        def run() -> None:
            deadline = time.monotonic() + 120
            while not all(map(_accepts, ports)) and time.monotonic() < deadline:
                time.sleep(0.05)
            try:
                self.start()
            except FrontError as refused:
                failed(str(refused))
            threading.Event().wait()

        threading.Thread(target=run, name="front", daemon=True).start()

    def stop(self, timeout: float = 10.0) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGQUIT)  # graceful: answers under way are finished
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def _accepts(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False
