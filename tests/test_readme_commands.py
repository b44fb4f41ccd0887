"""Every shell command README.md and docs/*.md show works as written.

The commands are read from the fenced sh, bash, shell and console blocks. `COVERAGE` says how
each one is checked, and a command shown without an entry there (or an entry no page shows any
more) fails `test_every_shown_command_has_a_check`:

- `Run`: run as written through `sh`, in a scratch folder holding what it needs (the examples,
  a docs/ folder, `.venv/bin/listbuilder` linked to the installed console script) with its own
  instance folder; the exit status, pieces of its output and of the files it writes are checked
  (PDFs read back).
- `Serve`: a command that starts the server runs on a free port in place of the one shown,
  after `listbuilder db upgrade` as `make run` does; the home page is fetched, then the server
  is stopped.
- `Make`: `make -n TARGET` shows what the target runs, without running it (it would install
  packages, or run the whole suite).
- `Other`: commands that install, set a variable or run for minutes; what they rely on is
  checked instead, and why they are not run is said.
"""

from __future__ import annotations

import http.client
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
import tomllib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pdfplumber
import pytest

from listbuilder.commands.server import free_lanes

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SHELL_FENCES = ("sh", "bash", "shell", "console")
FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", re.M | re.S)
LB = ".venv/bin/listbuilder"
OPERATORS = ("&&", "||", ";", "|")


def shown_commands(text: str) -> list[str]:
    """The commands of a page's shell blocks, each word quoted as `shlex.quote` would (`&&`
    and the like left bare): continued lines joined, comments dropped, a console block's
    `$ ` prompts only."""
    out = []
    for fence, body in FENCE.findall(text):
        if fence not in SHELL_FENCES:
            continue
        for line in re.sub(r"\\\n\s*", " ", body).splitlines():
            if fence == "console":
                if not line.startswith("$ "):
                    continue
                line = line[2:]
            words = shlex.split(line, comments=True)
            if words:
                out.append(" ".join(w if w in OPERATORS else shlex.quote(w) for w in words))
    return out


def all_shown() -> dict[str, list[str]]:
    """Each command and the pages that show it."""
    found: dict[str, list[str]] = {}
    for page in PAGES:
        for command in shown_commands(page.read_text()):
            found.setdefault(command, []).append(page.name)
    return found


@dataclass(frozen=True)
class Run:
    expect: tuple[str, ...]  # pieces of its standard output
    status: int = 0
    files: Mapping[str, str] = field(default_factory=dict)  # file -> a piece of its text


@dataclass(frozen=True)
class Serve:
    port: int  # the port the command names, replaced by a free one
    lanes: int | None = None  # the first of the workers' lanes it names, likewise


@dataclass(frozen=True)
class Make:
    target: str
    runs: tuple[str, ...]  # lines `make -n` prints


@dataclass(frozen=True)
class Other:
    why: str  # why it is not run here
    check: Callable[[], None]  # what is checked instead


def _fuzz_takes_its_flags() -> None:
    shown = subprocess.run([sys.executable, "benchmarks/fuzz.py", "--help"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout
    assert all(flag in shown for flag in ("--cli", "--server", "--seed", "--attacks"))


def _growth_takes_its_flags() -> None:
    shown = subprocess.run([sys.executable, "benchmarks/growth.py", "--help"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout
    assert "--minutes" in shown and "simulated hour" in shown


def _gallery_takes_its_flags() -> None:
    shown = subprocess.run([sys.executable, "-m", "listbuilder.printing.gallery", "--help"],
                           cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert "--out" in shown and "--width" in shown


def _postgres_extra_exists() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    assert any(need.startswith("psycopg") for need in extras["postgres"])


def _nginx_is_a_system_package() -> None:
    assert re.search(r"\bnginx\b", (ROOT / "scripts" / "system-packages.sh").read_text())


def _proxy_config(*args: str) -> str:
    return subprocess.run([sys.executable, "-c",
                           "from listbuilder.commands.cli import main; main()",
                           "proxy-config", *args], capture_output=True, text=True,
                          check=True).stdout


def _proxy_config_defaults_to_certbot_paths() -> None:
    site = _proxy_config()
    assert "/etc/letsencrypt/live/listbuilder.example.org/fullchain.pem" in site
    assert "/etc/letsencrypt/live/listbuilder.example.org/privkey.pem" in site


def _proxy_config_prints_the_site() -> None:
    cert = "/etc/letsencrypt/live/lists.example.club/fullchain.pem"
    cores = str(os.cpu_count())  # what $(nproc) says
    site = _proxy_config("--server-name", "lists.example.club", "--certificate", cert,
                         "--certificate-key", cert.replace("fullchain", "privkey"),
                         "--lanes", "8001", "--workers", cores)
    assert "server_name lists.example.club;" in site
    # one lane a worker, as `serve --lanes 8001` listens with its default of one a core
    lanes = [f"server 127.0.0.1:{8001 + i} max_fails=1 fail_timeout=5s;"
             for i in range(int(cores))]
    assert "least_conn;" in site and all(lane in site for lane in lanes)
    assert f"ssl_certificate {cert};" in site
    assert "X-Forwarded-Proto" in site and "proxy_request_buffering on;" in site


def _backup_and_restore_run() -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as scratch:
        env = {**os.environ, "LISTBUILDER_INSTANCE": scratch}
        env.pop("DATABASE_URL", None)
        run = [sys.executable, "-c", "from listbuilder.commands.cli import main; main()", "db"]
        file = str(Path(scratch) / "monday.sqlite3")
        for step, said in (("upgrade", "upgraded"), ("backup", "backed up 0 rosters"),
                           ("restore", "restored 0 rosters")):
            done = subprocess.run([*run, step, *([file] if step != "upgrade" else [])],
                                  env=env, capture_output=True, text=True)
            assert done.returncode == 0 and said in done.stdout, done.stderr


def _redis_extra_exists() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    assert any(need.startswith("redis") for need in extras["redis"])


def _ratelimit_storage_is_read() -> None:
    text = (ROOT / "listbuilder" / "settings.py").read_text()
    assert 'os.environ.get("LISTBUILDER_RATELIMIT_STORAGE")' in text


def _database_url_is_read() -> None:
    from listbuilder.settings import Config

    assert hasattr(Config, "DATABASE_URL")
    assert "`DATABASE_URL`" in (ROOT / "README.md").read_text()


def _serve_can_leave_prints_to_other_machines() -> None:
    from click.testing import CliRunner

    from listbuilder.commands.cli import main

    shown = CliRunner().invoke(main, ["serve", "--help"]).output
    assert "--printers" in shown and "0 for none" in shown


def _redis_url_is_read() -> None:
    text = (ROOT / "listbuilder" / "settings.py").read_text()
    assert 'os.environ.get("LISTBUILDER_REDIS_URL")' in text


def _worker_takes_its_concurrency() -> None:
    from click.testing import CliRunner

    from listbuilder.commands.cli import main

    shown = CliRunner().invoke(main, ["worker", "--help"]).output
    assert "--concurrency" in shown and "--nice" in shown


COVERAGE: dict[str, Run | Serve | Make | Other] = {
    "make run": Make("run", ("sh scripts/system-packages.sh", f"{LB} db upgrade",
                             f"{LB} serve --front --host 127.0.0.1 --port 5000")),
    "make test": Make("test", ("sh scripts/system-packages.sh",
                               ".venv/bin/ruff check listbuilder tests benchmarks",
                               ".venv/bin/mypy", ".venv/bin/pytest")),
    f"{LB} systems": Run(("warstuff      WarStuff", "hammerwars    Hammer Wars",
                          "spaceempires  War Hammer Space Empires")),
    f"{LB} catalog warstuff": Run(("WarStuff (data revision", "98 units", "\nMedieval\n",
                                   "  Knight\n")),
    f"{LB} catalog warstuff --json": Run(('"system": "warstuff"', '"name": "Rat Warrior"')),
    f"{LB} validate examples/warstuff/legal.yaml": Run(("Border Patrol (WarStuff): 125/150 pts",
                                                        "\nlegal\n")),
    f"{LB} validate examples/warstuff/legal.yaml --json": Run(('"legal": true',
                                                               '"violations": []')),
    f"{LB} validate examples/warstuff/printed-prices.yaml": Run(
        ("roster.points-limit: 155 pts spent", "Legal at printed prices: 135 pts",
         "(our reading: docs/rules-notes.md#printed-quickplay-points-or-the-formula)",
         "\nillegal\n"), status=1),
    # docs/events.md
    f"{LB} verify examples/op40k/legal.yaml": Run((
        "Waaagh! Vanguard (One Page 40k (1st edition))", "\nsha256: ", "\ndata revision: ",
        "\nlegal\n")),
    f"{LB} export examples/warstuff/legal.yaml -o mine.yaml": Run(
        (), files={"mine.yaml": "name: Border Patrol"}),
    f"{LB} schema -o docs/roster.schema.json": Run(
        (), files={"docs/roster.schema.json": (ROOT / "docs/roster.schema.json").read_text()}),
    f"{LB} resolve warstuff --attacker Knight --defender Troll --set cover=yes": Run(
        ("WarStuff: Knight -> Troll", "Target in cover: yes", "to kill")),
    f"{LB} resolve warstuff --attacker Knight --defender Troll --options": Run(
        ("cover=no  (yes or no)", "wounds=0  (0 to 8)")),
    f"{LB} resolve actionhammer --roster examples/actionhammer/legal.yaml --attacker "
    "'Strider Walker' --defender first-line --json": Run(
        ('"attacker": "Strider Walker"', '"defender": "10x Line Troopers + Brigade Captain"')),
    f"{LB} resolve op40k --roster examples/op40k/legal.yaml --attacker 'Ork Boyz' --against "
    "examples/op40k/imperial_guard.yaml --defender Veterans": Run(
        ("One Page 40k (1st edition): 20x Ork Boyz -> 5x Veterans",)),
    f"{LB} match examples/hammerwars/match.yaml": Run(
        ("Ann vs Ben (Hammer Wars), 79 events", "over: Ben won")),
    f"{LB} match examples/hammerwars/match.yaml --json": Run(
        ('"system": "hammerwars"', '"winner": 2', '"over": true')),
    f"{LB} db upgrade": Run(("upgraded from empty to revision",)),
    f"{LB} serve --port 5000 --workers 2 --threads 2": Serve(5000),
    f"{LB} print examples/op40k/legal.yaml --what all --paper a4 --card poker --cut-marks -o "
    "output/orks.pdf": Run(("Wrote output/orks.pdf",),
                           files={"output/orks.pdf": "Waaagh! Vanguard"}),
    f"{LB} deck spaceempires -o output/deck.pdf": Run(
        ("Wrote output/deck.pdf: 49 cards",), files={"output/deck.pdf": "Tactical Move"}),
    f"{LB} chits spaceempires --faction Orks -o output/orks-chits.pdf": Run(
        ("Wrote output/orks-chits.pdf",), files={"output/orks-chits.pdf": "Goffs Ork Boyz"}),
    f"{LB} rules warstuff -o output/warstuff-rules.pdf": Run(
        ("Wrote output/warstuff-rules.pdf: 1 page",),
        files={"output/warstuff-rules.pdf": "WarStuff: rules reference"}),
    # docs/deploying.md: the installed package's command is on PATH
    "listbuilder db upgrade && listbuilder serve --host 127.0.0.1 --port 8000 --lanes 8001":
        Serve(8000, lanes=8001),
    "listbuilder serve --printers 0 --host 10.0.0.5 --port 8000": Other(
        "it listens on a private address not here; tests/jobs/test_print_workers.py runs web "
        "servers with --printers 0 beside workers of their own",
        _serve_can_leave_prints_to_other_machines),
    "export LISTBUILDER_REDIS_URL=redis://cache.internal:6379/0": Other(
        "it names a Redis not here; tests/jobs/test_print_workers.py runs one", _redis_url_is_read),
    "listbuilder worker --concurrency '$(nproc)'": Other(
        "it runs until stopped; tests/jobs/test_print_workers.py runs workers and kills one",
        _worker_takes_its_concurrency),
    "pip install 'listbuilder[postgres]'": Other(
        "it installs packages; the postgres extra it names is checked", _postgres_extra_exists),
    "export DATABASE_URL=postgresql://listbuilder:secret@db.internal/listbuilder": Other(
        "it sets a variable for a database that is not here; the setting is checked",
        _database_url_is_read),
    "apt-get install nginx certbot python3-certbot-nginx": Other(
        "it installs Debian packages; nginx is among those make test installs and runs",
        _nginx_is_a_system_package),
    "certbot certonly --nginx -d lists.example.club": Other(
        "it asks Let's Encrypt for a certificate of a public name; the paths it writes are "
        "the ones proxy-config takes by default", _proxy_config_defaults_to_certbot_paths),
    "listbuilder proxy-config --server-name lists.example.club --certificate "
    "/etc/letsencrypt/live/lists.example.club/fullchain.pem --certificate-key "
    "/etc/letsencrypt/live/lists.example.club/privkey.pem --lanes 8001 --workers '$(nproc)' "
    "'>' /etc/nginx/sites-enabled/listbuilder.conf": Other(
        "it writes into /etc/nginx; the same command's output is checked, and "
        "tests/browser/test_https_browser.py runs nginx on it", _proxy_config_prints_the_site),
    "nginx -t && systemctl reload nginx": Other(
        "it reloads the machine's nginx; nginx accepts the site file in "
        "tests/browser/test_https_browser.py, which starts it", _nginx_is_a_system_package),
    "listbuilder db backup /srv/backups/listbuilder-monday.sqlite3": Other(
        "it writes under /srv; the same backup is made into a scratch folder",
        _backup_and_restore_run),
    "listbuilder db restore /srv/backups/listbuilder-monday.sqlite3": Other(
        "it reads under /srv; a backup is restored from a scratch folder",
        _backup_and_restore_run),
    "pip install 'listbuilder[redis]'": Other(
        "it installs packages; the redis extra it names is checked", _redis_extra_exists),
    "export LISTBUILDER_RATELIMIT_STORAGE=redis://cache.internal:6379/0": Other(
        "it names a Redis server that is not here; the setting is read "
        "(tests/web/site/test_limits.py counts in Redis when one runs)",
        _ratelimit_storage_is_read),
    # docs/hostile-input.md, docs/printing.md
    ".venv/bin/python benchmarks/fuzz.py --cli 5000 --server 5000 --seed 1": Other(
        "a benchmark of minutes (it prints figures, never asserted); its flags are checked",
        _fuzz_takes_its_flags),
    ".venv/bin/python benchmarks/growth.py": Other(
        "a benchmark of minutes (it prints figures, never asserted); its flags are checked",
        _growth_takes_its_flags),
    ".venv/bin/python benchmarks/fuzz.py --cli 0 --server 0 --attacks": Other(
        "a benchmark (it prints figures, never asserted); its flags are checked",
        _fuzz_takes_its_flags),
    ".venv/bin/python -m listbuilder.printing.gallery": Other(
        "it redraws docs/gallery in this repository; its flags are checked",
        _gallery_takes_its_flags),
}


def _covered(kind: type) -> list[str]:
    return [command for command, check in COVERAGE.items() if isinstance(check, kind)]


def _short(command: str) -> str:
    return command.removeprefix(f"{LB} ")[:60]


def test_every_shown_command_has_a_check() -> None:
    shown = all_shown()
    assert f"{LB} resolve warstuff --attacker Knight --defender Troll --set cover=yes" in shown
    unchecked = {c: pages for c, pages in shown.items() if c not in COVERAGE}
    assert unchecked == {}, "add these to COVERAGE with how they are checked"
    assert sorted(set(COVERAGE) - set(shown)) == [], "no page shows these any more"


def test_shown_commands_are_read_as_a_shell_reads_them() -> None:
    page = ("```sh\nlb a 'b c' \\\n    --d   # a comment\n\nlb e && lb g\n```\n"
            "```console\n$ lb f\nprinted output\n```\n```text\nlb [--synopsis]\n```\n")
    assert shown_commands(page) == ["lb a 'b c' --d", "lb e && lb g", "lb f"]


def _environment(folder: Path) -> dict[str, str]:
    env = {**os.environ, "LISTBUILDER_INSTANCE": str(folder / "instance"),
           "LISTBUILDER_DATA": str(folder / "no-data"),
           "PATH": f"{folder / '.venv' / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}"}
    for name in ("DATABASE_URL", "LISTBUILDER_SECRET_KEY", "LISTBUILDER_WORKERS",
                 "LISTBUILDER_THREADS"):
        env.pop(name, None)
    return env


def _scratch(folder: Path) -> Path:
    """A folder like a checkout: the examples, a docs/ folder, and .venv/bin/listbuilder (the
    console script this suite's Python installed)."""
    shutil.copytree(ROOT / "examples", folder / "examples")
    (folder / "docs").mkdir()
    bin_dir = folder / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "listbuilder").symlink_to(Path(sys.executable).parent / "listbuilder")
    return folder


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _scratch(tmp_path_factory.mktemp("checkout"))


def _text_of(path: Path) -> str:
    if path.suffix == ".pdf":
        with pdfplumber.open(path) as pdf:
            return "\n".join(page.extract_text() or "" for page in pdf.pages)
    return path.read_text()


@pytest.mark.parametrize("command", _covered(Run), ids=_short)
def test_command_runs_as_written(command: str, checkout: Path) -> None:
    check = COVERAGE[command]
    assert isinstance(check, Run)
    done = subprocess.run(["sh", "-c", command], cwd=checkout, env=_environment(checkout),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == check.status, done.stderr
    assert "Traceback" not in done.stderr
    for piece in check.expect:
        assert piece in done.stdout, f"{piece!r} not in:\n{done.stdout[:2000]}"
    for name, piece in check.files.items():
        assert piece in _text_of(checkout / name), name


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _home_page(port: int, server: subprocess.Popen[str]) -> str:
    """The home page once the server answers (it may take a while to start on a busy
    machine; a server that ended instead fails at once)."""
    for _ in range(600):
        assert server.poll() is None, "the server ended before it answered"
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            connection.request("GET", "/")
            answer = connection.getresponse()
            body = answer.read().decode()
            assert answer.status == 200, answer.status
            return body
        except OSError:  # not listening yet, or no answer within the 10 s
            time.sleep(0.1)
        finally:
            connection.close()  # a socket left open fails the test (a ResourceWarning)
    raise AssertionError("the server never answered")


@pytest.fixture
def stopped() -> Iterator[list[subprocess.Popen[str]]]:
    """Servers a test started, stopped (their whole process group) when it ends."""
    started: list[subprocess.Popen[str]] = []
    yield started
    for server in started:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait()


@pytest.mark.parametrize("command", _covered(Serve), ids=_short)
def test_serving_command_serves_the_builder(command: str, tmp_path: Path,
                                            stopped: list[subprocess.Popen[str]]) -> None:
    check = COVERAGE[command]
    assert isinstance(check, Serve)
    folder = _scratch(tmp_path)
    env = _environment(folder)
    if "db upgrade" not in command:  # as `make run` does first
        subprocess.run([LB, "db", "upgrade"], cwd=folder, env=env, check=True,
                       capture_output=True)
    port = _free_port()
    assert f"--port {check.port}" in command
    here = command.replace(f"--port {check.port}", f"--port {port}")
    lanes = None
    if check.lanes is not None:
        assert f"--lanes {check.lanes}" in command
        lanes = free_lanes(os.cpu_count() or 1, besides=port)
        here = here.replace(f"--lanes {check.lanes}", f"--lanes {lanes}")
    with open(tmp_path / "server.log", "w") as log:
        server = subprocess.Popen(["sh", "-c", here], cwd=folder, env=env, text=True,
                                  stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    stopped.append(server)
    page = _home_page(port, server)
    assert f"Listbuilder at http://127.0.0.1:{port}/" in (tmp_path / "server.log").read_text()
    assert "<title>Listbuilder" in page and "<h1>Build a roster</h1>" in page
    assert all(f"<h2>{name}</h2>" in page for name in ("WarStuff", "Hammer Wars"))
    if lanes is not None:  # each worker answers on its own lane too, one a core by default
        for lane in range(lanes, lanes + (os.cpu_count() or 1)):
            assert "<h1>Build a roster</h1>" in _home_page(lane, server)


@pytest.mark.parametrize("command", _covered(Make), ids=_short)
def test_make_target_runs_what_the_page_says(command: str) -> None:
    check = COVERAGE[command]
    assert isinstance(check, Make)
    assert command == f"make {check.target}"
    shown = subprocess.run(["make", "-n", check.target], cwd=ROOT, capture_output=True,
                           text=True, check=True).stdout
    lines = [line.strip() for line in shown.splitlines()]
    for expected in check.runs:
        assert any(line.startswith(expected) for line in lines), f"{expected!r} in {lines}"


@pytest.mark.parametrize("command", _covered(Other), ids=_short)
def test_command_not_run_here_is_checked_otherwise(command: str) -> None:
    check = COVERAGE[command]
    assert isinstance(check, Other) and check.why
    check.check()
