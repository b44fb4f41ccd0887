"""`listbuilder serve`: the app factory served by gunicorn, several worker processes with a few
threads each. (Werkzeug's development server is only for `--debug`.)

The app is built once in gunicorn's master before any worker is forked, so a database behind
the code's migrations stops the start with one clear message, and the workers share the
loaded catalogs. Nothing a player relies on lives in one worker: rosters and the print cache
are in the database, the "my rosters" list and CSRF tokens in the cookie signed with the one
secret key. Each worker, once forked, drops the database connections it inherited. No worker
lays out a print: prints are queued for `listbuilder worker` processes (listbuilder.jobs),
which `serve` starts beside itself unless told `--printers 0`.
The master holds the database's serving lock (`store/admin/liveness.py`, taken by
`cli.serve`), which every worker inherits: `listbuilder db restore` refuses while any of them
lives.
"""

from __future__ import annotations

import gc
import logging
import os
import re
import signal
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from flask import Flask
from gunicorn.app.base import BaseApplication  # type: ignore[import-untyped]
from gunicorn.glogging import Logger  # type: ignore[import-untyped]
from gunicorn.sock import TCP6Socket, TCPSocket  # type: ignore[import-untyped]

from listbuilder.commands.front import Front, FrontError, Site
from listbuilder.processes import die_with_parent

DEFAULT_THREADS = 2
MAX_PORT = 65535


def default_workers() -> int:
    """LISTBUILDER_WORKERS, else one worker process a core."""
    return _from_env("LISTBUILDER_WORKERS") or os.cpu_count() or 1


def default_threads() -> int:
    """LISTBUILDER_THREADS, else 2: a second thread answers edits while the first waits on the
    database. More do not help: a request is Python holding the
    interpreter lock, and each thread more made an edit cost more CPU (4 threads: about 10%,
    with a p95 under load almost twice as long; benchmarks/web_load.py)."""
    return _from_env("LISTBUILDER_THREADS") or DEFAULT_THREADS


def default_lanes() -> int | None:
    """LISTBUILDER_LANES: the first of the workers' own ports, if any."""
    return _from_env("LISTBUILDER_LANES")


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
                 access_log: bool = False, front: Front | None = None,
                 lanes: tuple[tuple[str, int], ...] = ()) -> None:
        self.application = app
        self.front = front
        self.lanes = lanes  # each worker's own address, besides the shared one: see _post_fork
        self.front_failed = ""  # why the front did not start
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
            "pre_fork": _pre_fork,
            "post_fork": _post_fork,
            "when_ready": _when_ready,
            "on_exit": _on_exit,
        }
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self) -> Flask:
        return self.application

    def run(self) -> None:
        hide_tokens_in_logs()
        super().run()


# Links are keys: whoever reads a token in a log holds the roster, list or pack it opens, and
# logs are kept and read by more people than an owner would hand a link to. Two rules, so
# that a link kind added later is hidden without anyone remembering this place:
# - the segment after a one-letter one: /r/, /s/, /l/, /e/, /p/, /v/, /studio/p/ (every link
#   kind there is), whatever its length;
# - any run of 20 or more letters, digits, - and _, in the path or the query: every token
#   the app makes is 22 or 43 of them (a quick resolve's `te_for=`, a `link=` in a query).
# A one-letter host (`http://h/`) is not a segment.
_AFTER_LETTER = re.compile(r"(?<!/)(/[A-Za-z]/)[^/?#&\s\"']+")
_LONG = re.compile(r"[A-Za-z0-9_-]{20,}")
# a word of a log line that holds an address, a path or a query
_ADDRESS = re.compile(r"[^\s\"'<>]*[/?=&%][^\s\"'<>]*")
# Outside addresses a long word is hidden too (an error quoting a bare token), unless it is
# plainly a name: snake_case, CamelCase, UPPER_CASE (a traceback's functions and errors). A
# random token of 22 characters takes one of these shapes rarely (a trial: 1 in 200,000).
_NAME = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*|(?:[A-Z][a-z]{2,})+"
                   r"|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def hide_tokens(text: str) -> str:
    """An address, request line or query with every token replaced by '...'. The text is read
    as the app reads it, percent-decoded: `/r%2F<token>` reaches the same roster. A control
    character it decodes to is written as `\\xNN`: a `%0A` must not start a forged line."""
    plain = _LONG.sub("...", _AFTER_LETTER.sub(r"\1...", unquote(text)))
    return _CONTROL.sub(lambda c: f"\\x{ord(c[0]):02x}", plain)


def hide_tokens_in(message: str) -> str:
    """A log line with the tokens of every address in it hidden (`hide_tokens`), and any
    other long word that is not plainly a name."""
    addresses = _ADDRESS.sub(lambda found: hide_tokens(found[0]), message)
    return _LONG.sub(lambda word: word[0] if _NAME.fullmatch(word[0]) else "...", addresses)


class _TokenHidingAtoms(dict[str, Any]):
    """An access log line's values, as gunicorn's SafeAtoms gives them ('-' when missing,
    quotes escaped), each with `hide_tokens` applied when the line's format asks for it: the
    request line, the Referer, a redirect's Location, any header. Hidden before the quotes
    are escaped, since decoding may make new ones."""

    def __getitem__(self, key: str) -> Any:
        value = self.get(key.lower() if key.startswith("{") else key, "-")
        return hide_tokens(value).replace('"', '\\"') if isinstance(value, str) else value


_EXCEPTIONS = logging.Formatter()


class _TokenHidingRecords:
    """A log record factory that writes each record's message, traceback and stack with its
    addresses' tokens hidden (`hide_tokens_in`), around the factory it replaces."""

    def __init__(self, make: Callable[..., logging.LogRecord]) -> None:
        self.make = make

    def __call__(self, *args: Any, **kwargs: Any) -> logging.LogRecord:
        made = self.make(*args, **kwargs)
        if made.name == "gunicorn.access":
            return made  # its values are hidden one by one (_TokenHidingAtoms)
        try:
            message = made.getMessage()
        except Exception:  # arguments that don't fit the message: a log call must not fail
            message = f"{made.msg!r} {made.args!r}"
        made.msg, made.args = hide_tokens_in(message), ()
        if made.exc_info and not made.exc_text:
            made.exc_text = hide_tokens_in(_EXCEPTIONS.formatException(made.exc_info))
        if made.stack_info:
            made.stack_info = hide_tokens_in(made.stack_info)
        return made


def hide_tokens_in_logs() -> None:
    """From now on, every log line of this process and the ones it forks (gunicorn's error log,
    the app's and any library's: an error quoting the address it failed on) is written with
    its addresses' tokens hidden. The access log hides its own (`TokenHidingLogger`)."""
    current = logging.getLogRecordFactory()
    if not isinstance(current, _TokenHidingRecords):
        logging.setLogRecordFactory(_TokenHidingRecords(current))


class TokenHidingLogger(Logger):  # type: ignore[misc]
    """gunicorn's access log without tokens (`hide_tokens`) in any value it writes."""

    atoms_wrapper_class = _TokenHidingAtoms

    def info(self, msg: str, *args: Any, **kwargs: Any) -> None:
        # Each worker binds its own socket (reuse_port), so the master has none to name
        if msg.startswith("Listening at:") and args and not args[0]:
            args = (", ".join(self.cfg.bind), *args[1:])
        super().info(msg, *args, **kwargs)


def _pre_fork(server: Any, worker: Any) -> None:
    # the lane no live worker has (a worker restarted takes the one its predecessor had)
    lanes = server.app.lanes
    if lanes:
        held = [getattr(w, "lane", None) for w in server.WORKERS.values()]
        worker.lane = min(range(len(lanes)), key=lambda i: (held.count(i), i))
    # What the master built (the app, the catalogs, the templates: some 130,000 objects) lives
    # as long as the server: out of the collector's reach, a worker's full collections no
    # longer walk it (one took 51 ms of an edit loop's 2.7 s, 3.5% of its CPU with the young
    # ones) and the pages holding it stay shared with the master instead of being copied.
    # Garbage is collected first, so none is kept for ever.
    gc.collect()
    gc.freeze()


def _post_fork(server: Any, worker: Any) -> None:
    # A worker ends at once with its master, however the master ends: orphans kept the port
    # (each worker has its own socket) and a server killed outright could not be started again
    # for 20-27 s. Nothing is lost: a save is one transaction, whole or not at all.
    die_with_parent(signal.SIGKILL)
    if os.getppid() != server.pid:  # the master died before the line above
        os._exit(1)
    lane = getattr(worker, "lane", None)
    if lane is not None:
        _listen_on_lane(server, worker, server.app.lanes[lane])
    app: Flask = server.app.application
    # connections opened in the master (the schema check) must not be shared with it
    app.extensions["listbuilder.store"].engine.dispose(close=False)


def _listen_on_lane(server: Any, worker: Any, address: tuple[str, int]) -> None:
    # A lane is this worker's own address, for a proxy that balances by requests in flight
    # (nginx's least_conn). On the shared port the kernel deals connections to workers at
    # random and each stays with its worker: 100 players never pausing were split 58/42 and
    # p95 went from 241 to 336 ms. SO_REUSEPORT (as gunicorn sets it) lets a worker restarted
    # take its lane while its predecessor still closes.
    kind = TCP6Socket if ":" in address[0] else TCPSocket
    try:
        worker.sockets.append(kind(address, server.cfg, server.log))
        server.log.info("Worker %s also listens at %s (its lane)", os.getpid(),
                        _address(*address))
    except OSError as refused:
        # the shared port still serves; the proxy sends this lane's share to the others
        server.log.error("Worker %s cannot listen on its lane %s: %s", os.getpid(),
                         _address(*address), refused)


def _when_ready(server: Any) -> None:
    front: Front | None = server.app.front
    if front is None:
        return
    port = int(server.cfg.bind[0].rsplit(":", 1)[1])
    ports = [port, *(lane_port for _, lane_port in server.app.lanes)]

    def failed(message: str) -> None:
        server.log.error("%s", message)
        server.app.front_failed = message
        os.kill(server.pid, signal.SIGTERM)  # stop the workers too: nobody can reach them

    front.start_when_listening(ports, failed)


def _on_exit(server: Any) -> None:
    front: Front | None = server.app.front
    if front is not None:
        front.stop()


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


def _address(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def free_loopback_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def free_lanes(workers: int, besides: int = 0) -> int:
    """The first of `workers` free loopback ports in a row, none of them `besides`: lanes for
    `serve --front` and for the tests' and benchmarks' `serve --lanes`."""
    while True:
        first = free_loopback_port()
        ports = lane_ports(first, workers)
        if besides not in ports and lanes_fit(ports) and all(
                port_free("127.0.0.1", p) for p in ports[1:]):
            return first


def lane_ports(first: int, workers: int) -> list[int]:
    """The lanes' ports from the first: one a worker, in a row."""
    return list(range(first, first + workers))


def lanes_fit(ports: list[int]) -> bool:
    """Whether lanes (`lane_ports`) end at a port there is: 65535 at most."""
    return not ports or ports[-1] <= MAX_PORT


def _lane_addresses(host: str, first: int, workers: int) -> tuple[tuple[str, int], ...]:
    return tuple((host, p) for p in lane_ports(first, workers))


def serve(app: Flask, host: str, port: int, workers: int, threads: int,
          access_log: bool = False, front: bool = False, lanes: int | None = None) -> None:
    """Serve until SIGTERM or SIGINT (Ctrl+C); both stop the workers and their layout
    processes, and the front.

    With `lanes`, each worker also listens on host:lanes+i of its own, for a proxy that
    balances by requests in flight (`listbuilder proxy-config --lanes`).
    With `front`, nginx listens on host:port and buffers every request before gunicorn, on a
    loopback port of its own, sees it (`listbuilder.commands.front`), and balances the workers'
    lanes. Raises FrontError if it can't."""
    if not front:
        own = _lane_addresses(host, lanes, workers) if lanes else ()
        Server(app, _address(host, port), workers, threads, access_log, lanes=own).run()
        return
    inner = free_loopback_port()
    own = _lane_addresses("127.0.0.1", free_lanes(workers, besides=inner), workers)
    log = "/dev/stdout listbuilder" if access_log else "off"
    buffering = Front(Site(listen=_address(host, port), upstream=f"127.0.0.1:{inner}",
                           lanes=tuple(_address(*a) for a in own),
                           access_log=log, command="listbuilder serve --front"),
                      Path(app.instance_path) / "front")
    # nginx logs the requests (without tokens); gunicorn's own log would say 127.0.0.1
    running = Server(app, f"127.0.0.1:{inner}", workers, threads, False, buffering, own)
    try:
        running.run()
    finally:
        buffering.stop()
        if running.front_failed:
            raise FrontError(running.front_failed)
