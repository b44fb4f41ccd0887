"""Listbuilder as a host installs it: a wheel built from the project's files (those git tracks
or would track: a clean clone's), installed into a fresh virtual environment with pip, beside
the test game of tests/plugin_game (a sixth system from an outside package), and run from a
folder that is not the checkout. Nothing here imports from the checkout: every command runs
in the new environment's own Python.

The wheel once held no data, templates or static files (the code found them by climbing from
its own file to a checkout), so `catalog`, `print`, `deck` and `serve` had nothing to draw."""

from __future__ import annotations

import http.client
import os
import shutil
import signal
import subprocess
import sys
import time
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ("listbuilder/systems/warstuff/data/system.yaml",
           "listbuilder/systems/spaceempires/templates/rules.html",
           "listbuilder/templates/base.html", "listbuilder/static/css/site.css",
           "listbuilder/static/js/htmx.min.js", "listbuilder/rules-notes.md",
           "listbuilder/store/admin/migrations/versions/0001_baseline.py",
           "listbuilder/commands/front/site.conf.j2",
           "listbuilder/systems/actionhammer/studio/starter.yaml",
           "listbuilder/store/admin/migrations/versions/0008_packs.py",
           "listbuilder/static/css/studio.css")


@dataclass(frozen=True)
class Installed:
    venv: Path
    wheel: Path
    work: Path  # an empty folder away from the checkout, where commands run

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        done = subprocess.run([str(self.venv / "bin" / "listbuilder"), *args], cwd=self.work,
                              env=self.env(), capture_output=True, text=True, timeout=300)
        if check:
            assert done.returncode == 0, f"listbuilder {' '.join(args)}:\n{done.stderr}"
        return done

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items()
               if k not in ("PYTHONPATH", "VIRTUAL_ENV", "DATABASE_URL", "LISTBUILDER_DATA",
                            "LISTBUILDER_INSTANCE")}
        env["PATH"] = f"{self.venv / 'bin'}:{env.get('PATH', '')}"
        return env


def _pip(venv: Path, *args: str) -> None:
    done = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "-q", *args],
                          capture_output=True, text=True, timeout=1200)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    tmp = tmp_path_factory.mktemp("wheel")
    source = tmp / "src"
    tracked = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout.split("\0")
    for name in filter(None, tracked):
        if (ROOT / name).is_file():  # symlinks copied as what they point to, as a build does
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(ROOT / name, source / name)
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    dist = tmp / "dist"
    _pip(venv, "wheel", "--no-deps", "-w", str(dist), str(source))
    (wheel,) = dist.glob("listbuilder-*.whl")
    _pip(venv, "install", str(wheel), str(source / "tests" / "plugin_game"))
    work = tmp / "elsewhere"
    work.mkdir()
    shutil.copy(ROOT / "examples" / "warstuff" / "legal.yaml", work / "warband.yaml")
    yield Installed(venv, wheel, work)


def test_the_wheel_carries_data_templates_static_files_and_migrations(
        installed: Installed) -> None:
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    missing = [name for name in SHIPPED if name not in names]
    assert missing == [], f"not in the wheel: {missing}"
    assert not any(name.startswith(("tests/", "examples/", "docs/")) for name in names)


def test_the_installed_commands_work_from_any_folder(installed: Installed) -> None:
    systems = installed.run("systems").stdout
    assert [line.split()[0] for line in systems.splitlines()] == [
        "hammerwars", "op40k", "warstuff", "actionhammer", "spaceempires", "testgame"]
    assert "98 units" in installed.run("catalog", "warstuff").stdout
    assert "3 units" in installed.run("catalog", "testgame").stdout
    assert "legal" in installed.run("validate", "warband.yaml").stdout.splitlines()
    installed.run("print", "warband.yaml", "-o", "warband.pdf")
    installed.run("deck", "spaceempires", "-o", "deck.pdf")
    installed.run("rules", "testgame", "-o", "testgame-rules.pdf")
    for pdf in ("warband.pdf", "deck.pdf", "testgame-rules.pdf"):
        assert (installed.work / pdf).read_bytes().startswith(b"%PDF-")
    upgraded = installed.run("db", "upgrade").stdout
    assert "upgraded from empty" in upgraded
    assert (installed.work / "instance" / "listbuilder.sqlite3").is_file()  # where it ran


def test_the_outside_game_keeps_the_contract(installed: Installed) -> None:
    code = ("from importlib.resources import files\n"
            "from listbuilder.engine.registry import get_system, problems\n"
            "from listbuilder.testing import check_system\n"
            "assert problems() == (), problems()\n"
            "check_system(get_system('testgame'),\n"
            "             files('listbuilder_testgame').joinpath('legal.yaml').read_text())\n"
            "print('kept')\n")
    done = subprocess.run([str(installed.venv / "bin" / "python"), "-c", code],
                          cwd=installed.work, env=installed.env(), capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0 and done.stdout.strip() == "kept", done.stderr


def _get(port: int, path: str, cookies: dict[str, str] | None = None
         ) -> tuple[int, str, bytes]:
    """GET `path`; with `cookies`, as a browser does: sending what it holds and keeping what
    the answer sets (a print asked again from the browser it was queued for is not counted
    again by the limits; a cookie-less poll is a new print each time)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())} \
            if cookies else {}
        connection.request("GET", path, headers=headers)
        answer = connection.getresponse()
        if cookies is not None:
            for header in answer.headers.get_all("Set-Cookie") or []:
                name, _, rest = header.partition("=")
                cookies[name.strip()] = rest.split(";", 1)[0]
        return answer.status, answer.getheader("Content-Type") or "", answer.read()
    finally:
        connection.close()


def test_the_installed_server_serves_pages_static_files_and_prints(installed: Installed) -> None:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    installed.run("db", "upgrade")
    server = subprocess.Popen([str(installed.venv / "bin" / "listbuilder"), "serve", "--port",
                               str(port), "--workers", "1"], cwd=installed.work,
                              env=installed.env(), stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT)
    try:
        for _ in range(300):
            try:
                status, _, home = _get(port, "/")
                break
            except OSError:
                assert server.poll() is None, server.communicate()[0].decode()
                time.sleep(0.1)
        assert status == 200 and b"Skirmish Test" in home and b"WarStuff" in home
        assert _get(port, "/static/css/site.css")[0] == 200
        assert _get(port, "/rules-notes")[0] == 200
        assert _get(port, "/new/testgame")[0] == 200
        browser: dict[str, str] = {}
        for _ in range(120):  # the rules sheet waits in the print queue, then downloads
            status, kind, body = _get(port, "/systems/testgame/print/rules", browser)
            if status != 202:
                break
            time.sleep(0.5)
        assert (status, kind) == (200, "application/pdf") and body.startswith(b"%PDF-")
    finally:
        server.send_signal(signal.SIGTERM)
        output = server.communicate(timeout=60)[0].decode()
    assert "Traceback" not in output, output
