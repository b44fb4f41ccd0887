"""`listbuilder serve` (what `make run` calls) serves the builder on the built-in data."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_serve_answers_on_the_given_port(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "LISTBUILDER_INSTANCE": str(tmp_path / "instance"),
           "LISTBUILDER_DATA": str(tmp_path / "no-data")}
    env.pop("DATABASE_URL", None)
    upgrade = subprocess.run([sys.executable, "-c", "from listbuilder.cli import main; main()",
                              "db", "upgrade"], env=env, capture_output=True, text=True)
    assert upgrade.returncode == 0, upgrade.stderr
    proc = subprocess.Popen(
        [sys.executable, "-c", "from listbuilder.cli import main; main()", "serve",
         "--port", str(port)], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        page = ""
        for _ in range(100):  # until it listens; the loop ends on the first answer
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as r:
                    page = r.read().decode()
                break
            except OSError:
                time.sleep(0.1)
        assert "Hammer Wars" in page and "WarStuff" in page
        assert (tmp_path / "instance" / "listbuilder.sqlite3").exists()
        assert (tmp_path / "instance" / "secret_key").exists()
    finally:
        proc.terminate()
        proc.communicate(timeout=10)
