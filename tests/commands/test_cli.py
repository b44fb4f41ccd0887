"""The `listbuilder` command as a player uses it."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from listbuilder.commands.cli import main
from listbuilder.engine.registry import all_systems

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_systems_prints_id_and_name_one_a_line() -> None:
    code, out, _ = run("systems")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == len(all_systems()) == 5
    for line, system in zip(lines, all_systems(), strict=True):
        assert line.split()[0] == system.id and line.endswith(system.name)


def test_catalog_json_counts_the_tables() -> None:
    code, out, _ = run("catalog", "warstuff", "--json")
    assert code == 0
    data = json.loads(out)
    assert (len(data["units"]), len(data["rules"]), len(data["factions"])) == (98, 35, 12)
    assert data["warband_limits"] == [150, 300]


def test_catalog_text_and_unknown_system() -> None:
    code, out, _ = run("catalog", "warstuff")
    assert code == 0 and "98 units" in out and "Dinosaurs" in out
    code, _, err = run("catalog", "chess")
    assert code == 2 and "unknown system 'chess'" in err


def test_validate_exit_codes(tmp_path: Path) -> None:
    code, out, _ = run("validate", str(ROOT / "examples/warstuff/legal.yaml"))
    assert code == 0 and out.rstrip().endswith("legal")
    code, out, _ = run("validate", str(ROOT / "examples/warstuff/illegal.yaml"))
    assert code == 1
    assert "roster.points-limit: 195 pts spent; the limit is 150: remove 45 pts." in out
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: 1\nsystem: warstuff\nname: x\nentries:\n  - unit: Dragn\n")
    code, out, err = run("validate", str(bad))
    assert code == 2 and out == ""
    assert f"{bad}:5: entries[0].unit: unknown unit 'Dragn' (did you mean 'Dragon'?)" in err
    code, _, err = run("validate", str(tmp_path / "missing.yaml"))
    assert code == 2 and "cannot read" in err


def test_validate_json() -> None:
    code, out, _ = run("validate", "--json", str(ROOT / "examples/warstuff/illegal.yaml"))
    data = json.loads(out)
    assert code == 1 and data["legal"] is False and data["points"] == 195
    assert {v["rule"] for v in data["violations"]} >= {"roster.points-limit"}


def test_validate_names_the_reading_and_the_printed_price() -> None:
    code, out, _ = run("validate", str(ROOT / "examples/warstuff/printed-prices.yaml"))
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == "Under the Streets (WarStuff): 155/150 pts"
    assert "  note: Rat Warrior: 30 pts by the formula (printed 25)" in lines
    assert "  note: Rat Ogre: 65 pts by the formula (printed 60)" in lines
    assert ("roster.points-limit: 155 pts spent; the limit is 150: remove 5 pts. Legal at "
            "printed prices: 135 pts. (our reading: "
            "docs/rules-notes.md#printed-quickplay-points-or-the-formula)") in lines
    code, out, _ = run("validate", "--json", str(ROOT / "examples/warstuff/printed-prices.yaml"))
    data = json.loads(out)
    assert data["notes"] == ["Rat Warrior: 30 pts by the formula (printed 25)",
                             "Rat Ogre: 65 pts by the formula (printed 60)"]
    (over,) = data["violations"]
    assert over["reading"] == "printed-quickplay-points-or-the-formula"
    code, out, _ = run("validate", "--json", str(ROOT / "examples/warstuff/legal.yaml"))
    assert code == 0 and json.loads(out)["notes"] == []


def test_validate_names_spend_and_revenue() -> None:
    code, out, _ = run("validate", str(ROOT / "examples/spaceempires/legal.yaml"))
    assert code == 0
    lines = out.splitlines()
    assert lines[0].endswith("): 7 of 7 revenue spent")
    assert "  Revenue: 5 this turn (Poor 0, Rich 0, Homeworld 1)" in lines
    assert "  Spent: 7 of 7 (revenue 5 + treasury 2); 0 left" in lines
    draw = lines.index("Starting draw (seed 2024):")
    assert lines[draw + 1].startswith("  Space units: ")
    assert lines[draw + 2].startswith("  Ground units: ")
    assert not any(line.strip().startswith("Starting") for line in lines[:draw])
    code, out, _ = run("validate", "--json", str(ROOT / "examples/spaceempires/legal.yaml"))
    data = json.loads(out)
    assert data["total"] == "7 of 7 revenue spent"
    assert set(data["sections"]["Starting draw (seed 2024)"]) == {"Space units", "Ground units"}


def test_validate_calls_an_empty_roster_empty() -> None:
    code, out, _ = run("validate", str(ROOT / "examples/op40k/empty.yaml"))
    assert code == 1
    assert out.splitlines()[-1] == "empty: no units yet"
    code, out, _ = run("validate", "--json", str(ROOT / "examples/op40k/empty.yaml"))
    data = json.loads(out)
    assert code == 1 and data["legal"] is False and data["status"] == "empty"
    assert data["violations"] == []


def test_export_round_trips(tmp_path: Path) -> None:
    out_file = tmp_path / "out.yaml"
    code, _, _ = run("export", str(ROOT / "examples/warstuff/legal.yaml"), "-o", str(out_file))
    assert code == 0
    code, again, _ = run("export", str(out_file))
    assert code == 0 and again == out_file.read_text()


def test_proxy_config_writes_the_paths_a_host_typed_as_nginx_will_find_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """nginx reads a relative path from its own folder (/etc/nginx), so `--certificate
    cert.pem` typed beside the certificate failed with "cannot load certificate": relative
    paths are written from where the command ran; absolute ones and links stay as typed."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "live").symlink_to(tmp_path)  # as certbot's live/ folder links each renewal
    site = CliRunner().invoke(main, [
        "proxy-config", "--certificate", "cert.pem", "--certificate-key", "live/key.pem",
        "--access-log", "logs/access.log", "--error-log", "/var/log/nginx/e.log"]).output
    assert f"ssl_certificate {tmp_path / 'cert.pem'};" in site
    assert f"ssl_certificate_key {tmp_path / 'live' / 'key.pem'};" in site
    assert f"access_log {tmp_path / 'logs' / 'access.log'} listbuilder;" in site
    assert "error_log /var/log/nginx/e.log crit;" in site
    off = CliRunner().invoke(main, ["proxy-config", "--access-log", "off"]).output
    assert "access_log off;" in off


def test_proxy_config_balances_the_workers_lanes_by_requests_under_way() -> None:
    site = CliRunner().invoke(main, ["proxy-config", "--upstream", "127.0.0.1:9000",
                                     "--lanes", "9101", "--workers", "3"]).output
    upstream = site[site.index("upstream listbuilder_app {"):site.index("keepalive 32;")]
    assert "least_conn;" in upstream
    servers = [line.strip() for line in upstream.splitlines()
               if line.strip().startswith("server ")]
    assert servers == ["server 127.0.0.1:9101 max_fails=1 fail_timeout=5s;",
                       "server 127.0.0.1:9102 max_fails=1 fail_timeout=5s;",
                       "server 127.0.0.1:9103 max_fails=1 fail_timeout=5s;",
                       "server 127.0.0.1:9000 backup;"]
    assert "--lanes 9101 --workers 3" in site.splitlines()[1]  # the command, to make it again
    plain = CliRunner().invoke(main, ["proxy-config", "--upstream", "127.0.0.1:9000"]).output
    assert "least_conn" not in plain and "server 127.0.0.1:9000;" in plain


def test_proxy_config_refuses_lanes_beside_a_socket_file() -> None:
    done = CliRunner().invoke(main, ["proxy-config", "--upstream", "unix:/run/lb.sock",
                                     "--lanes", "8001"])
    assert done.exit_code == 2
    assert "lanes are ports beside an --upstream host:port, not a socket file" in done.output


def test_proxy_config_refuses_lanes_that_end_past_the_last_port() -> None:
    """As `serve --lanes` does: three workers from 65534 would need port 65536."""
    done = CliRunner().invoke(main, ["proxy-config", "--lanes", "65534", "--workers", "3"])
    assert done.exit_code == 2
    assert "the lanes 65534-65536 (one a worker) end past 65535" in done.output
    assert "choose a lower --lanes" in done.output
    assert "server 127.0.0.1:65536" not in done.output
    fits = CliRunner().invoke(main, ["proxy-config", "--lanes", "65533", "--workers", "3"])
    assert fits.exit_code == 0 and "server 127.0.0.1:65535 max_fails=1" in fits.output


def test_a_command_starts_without_what_only_serving_and_printing_need() -> None:
    """The command line imports a command's libraries when that command runs: Flask,
    SQLAlchemy, Huey, Redis, psycopg, gunicorn and WeasyPrint cost about a second of every
    command's start (`listbuilder db --help` 1,140 -> 440 ms: benchmarks/cli_start.py)."""
    code = ("import json, sys\nfrom listbuilder.commands.cli import main\n"
            "print(json.dumps(sorted({name.split('.')[0] for name in sys.modules})))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=ROOT)
    loaded = set(json.loads(done.stdout))
    assert "listbuilder" in loaded and "click" in loaded
    heavy = {"flask", "sqlalchemy", "huey", "redis", "psycopg", "gunicorn", "weasyprint"}
    assert loaded & heavy == set()


def test_verify_prints_the_hash_the_exported_file_has(tmp_path: Path) -> None:
    """`listbuilder verify` gives the SHA-256 of the list's canonical file: the hash of what
    `listbuilder export` writes, whatever copy of the list it reads."""
    exported = tmp_path / "canonical.yaml"
    assert run("export", str(ROOT / "examples" / "op40k" / "legal.yaml"), "-o",
               str(exported))[0] == 0
    code, out, _ = run("verify", str(ROOT / "examples" / "op40k" / "legal.yaml"))
    assert code == 0
    name, digest, revision, verdict = out.splitlines()
    assert name == "Waaagh! Vanguard (One Page 40k (1st edition))"
    assert digest == "sha256: " + hashlib.sha256(exported.read_bytes()).hexdigest()
    assert revision.startswith("data revision: ") and verdict == "legal"
    assert run("verify", str(exported))[1] == out


def test_verify_names_an_unreadable_file_and_what_is_wrong(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("system: op40k\nentries: [\n")
    code, _, err = run("verify", str(broken))
    assert code == 2 and "broken.yaml" in err
