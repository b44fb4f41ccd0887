"""`listbuilder serve`: the app factory served by gunicorn, several worker processes with a few
threads each. (Werkzeug's development server is only for `--debug`.)

The app is built once in gunicorn's master before any worker is forked, so a database behind
the code's migrations stops the start with one clear message, and the workers share the
loaded catalogs. Nothing a player relies on lives in one worker: rosters and the print cache
are in the database, the "my rosters" list and CSRF tokens in the cookie signed with the one
secret key. Each worker, once forked, drops the database connections it inherited and starts
its own warm layout processes for prints (`listbuilder.printing.workers`), stopped with it.
"""

from __future__ import annotations

import os
import re
import socket
import threading
from typing import Any

from flask import Flask
from gunicorn.app.base import BaseApplication  # type: ignore[import-untyped]
from gunicorn.glogging import Logger  # type: ignore[import-untyped]

DEFAULT_THREADS = 2


def default_workers() -> int:
    """LISTBUILDER_WORKERS, else one worker process a core."""
    return _from_env("LISTBUILDER_WORKERS") or os.cpu_count() or 1


def default_threads() -> int:
    """LISTBUILDER_THREADS, else 2: a second thread answers edits while the first waits on a
    print's layout process or the database. More do not help: a request is Python holding the
    interpreter lock, and each thread more made an edit cost more CPU (4 threads: about 10%,
    with a p95 under load almost twice as long; benchmarks/web_load.py)."""
    return _from_env("LISTBUILDER_THREADS") or DEFAULT_THREADS


def _from_env(name: str) -> int | None:
    value = os.environ.get(name, "").strip()
    if not value:
        return None
    if not value.isdigit() or int(value) < 1:
        raise ValueError(f"{name} must be a whole number of at least 1, not {value!r}")
    return int(value)


class Server(BaseApplication):  # type: ignore[misc]  # gunicorn has no type hints
    """gunicorn running an app built beforehand, with our settings and worker hooks."""

    def __init__(self, app: Flask, bind: str, workers: int, threads: int,
                 access_log: bool = False) -> None:
        self.application = app
        self.options: dict[str, Any] = {
            "bind": bind,
            "workers": workers,
            "threads": threads,
            "worker_class": "gthread",
            "preload_app": True,  # built in the master: see the module's docstring
            "accesslog": "-" if access_log else None,
            "logger_class": TokenHidingLogger,
            "errorlog": "-",
            "loglevel": "info",
            "graceful_timeout": 20,  # a print under way may finish; then workers are killed
            "timeout": 60,  # a worker silent this long (a hung thread) is restarted
            "keepalive": 5,  # seconds an idle keep-alive connection stays open
            # each worker listens on its own socket and the kernel deals new connections
            # out among them evenly. On one shared socket the busiest worker, already
            # awake, won most accepts: benchmarks/web_load.py's 50 players' keep-alive
            # connections sat 42 on one worker and 8 on the other, and the 42 waited
            # longest. `port_free` keeps a second server from joining the port unnoticed.
            "reuse_port": True,
            "proc_name": "listbuilder",
            "control_socket_disable": True,  # no gunicornc; two servers would share its path
            "post_fork": _post_fork,
            "worker_exit": _worker_exit,
        }
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self) -> Flask:
        return self.application


_TOKEN = re.compile(r"(/[rs]/)[^/?#\s\"]+")
_HIDDEN = ("r", "U", "f", "{referer}i")


def hide_tokens(text: str) -> str:
    """A request line or address with its edit or share token replaced by '...'."""
    return _TOKEN.sub(r"\1...", text)


class TokenHidingLogger(Logger):  # type: ignore[misc]
    """gunicorn's access log without edit and share tokens: they live in addresses and give
    whoever reads them the roster, and logs are read and kept by more people than a roster's
    owner would hand an edit link to."""

    def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> dict[str, Any]:
        atoms: dict[str, Any] = super().atoms(resp, req, environ, request_time)
        for key in _HIDDEN:
            if isinstance(atoms.get(key), str):
                atoms[key] = hide_tokens(atoms[key])
        return atoms


def _post_fork(server: Any, worker: Any) -> None:
    app: Flask = server.app.application
    # connections opened in the master (the schema check) must not be shared with it
    app.extensions["listbuilder.store"].engine.dispose(close=False)
    start_printing()


def _worker_exit(server: Any, worker: Any) -> None:
    from listbuilder.printing.workers import stop_pool

    stop_pool()


def start_printing() -> bool:
    """This process's warm layout processes, and the renderer's one-time set-up (~0.3 s) done
    now rather than in the first player's print. True if the layout processes run."""
    from listbuilder.printing.render import warm_up
    from listbuilder.printing.workers import start_pool

    started = start_pool()
    threading.Thread(target=warm_up, name="print-warm-up", daemon=True).start()
    return started


def port_free(host: str, port: int) -> bool:
    """Whether nothing listens on host:port. With each worker on its own socket
    (`reuse_port`) gunicorn would not notice another server there, and players' connections
    would be shared out between the two."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        # as gunicorn binds: connections of a server stopped a moment ago don't count
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def serve(app: Flask, host: str, port: int, workers: int, threads: int,
          access_log: bool = False) -> None:
    """Serve until SIGTERM or SIGINT (Ctrl+C); both stop the workers and their layout
    processes."""
    bind = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    Server(app, bind, workers, threads, access_log).run()
