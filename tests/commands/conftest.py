"""`make run`'s server for the tests of the commands: a database brought to the code's schema
and `listbuilder serve --front` on a free port (nginx in front of gunicorn)."""

from __future__ import annotations

import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from servetools import (
    CLI,
    environment,
    free_port,
    need_nginx,
    start,
)


@pytest.fixture
def upgraded(tmp_path: Path) -> Path:
    need_nginx()
    done = subprocess.run([*CLI, "db", "upgrade"], env=environment(tmp_path),
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return tmp_path


@pytest.fixture
def front(upgraded: Path) -> Iterator[int]:
    port = free_port()
    proc = start(upgraded, port, "--front")
    try:
        yield port
    finally:
        proc.send_signal(signal.SIGTERM)
        output = proc.communicate(timeout=60)[0].decode()
        assert "Traceback" not in output, output


