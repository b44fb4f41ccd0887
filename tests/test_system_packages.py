"""scripts/system-packages.sh, which `make run` and `make test` call first: as root it installs
the missing Debian packages, as anyone else it prints the apt-get command and stops. Run with
stand-ins for dpkg-query, apt-get and id on PATH, so nothing is installed for real."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "system-packages.sh"


def run(tmp_path: Path, uid: int, missing: set[str]) -> tuple[subprocess.CompletedProcess[str],
                                                                list[str]]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    calls = tmp_path / "apt-get.calls"
    stand_ins = {
        "dpkg-query": "#!/bin/sh\n"  # the package is the last argument
                      'for p; do :; done\n'
                      f'case " {" ".join(sorted(missing))} " in *" $p "*) exit 1;; esac\n'
                      "printf 'install ok installed'\n",
        "apt-get": f'#!/bin/sh\necho "$@" >> {calls}\n',
        "id": f"#!/bin/sh\necho {uid}\n",
    }
    for name, text in stand_ins.items():
        (bin_dir / name).write_text(text)
        (bin_dir / name).chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}:/usr/bin:/bin"}
    done = subprocess.run(["sh", str(SCRIPT)], env=env, capture_output=True, text=True,
                          timeout=60)
    return done, calls.read_text().splitlines() if calls.exists() else []


def test_nothing_missing_does_nothing(tmp_path: Path) -> None:
    done, calls = run(tmp_path, uid=1000, missing=set())
    assert (done.returncode, done.stdout, done.stderr, calls) == (0, "", "", [])


def test_another_user_is_told_the_exact_command(tmp_path: Path) -> None:
    done, calls = run(tmp_path, uid=1000, missing={"libharfbuzz-subset0", "postgresql"})
    assert done.returncode == 1 and calls == []
    assert ("sudo apt-get update && sudo apt-get install -y libharfbuzz-subset0 postgresql"
            in done.stderr)


def test_root_installs_what_is_missing(tmp_path: Path) -> None:
    done, calls = run(tmp_path, uid=0, missing={"chromium", "fonts-dejavu-core"})
    assert done.returncode == 0, done.stderr
    assert calls == ["update -qq", "install -y chromium fonts-dejavu-core -qq"]


def test_make_says_what_it_sets_up_and_where_it_serves() -> None:
    """`make run` on a fresh machine was silent for four minutes while pip worked (-q): the
    recipes say what they do first, and pip shows each package it fetches. Read from make's
    own dry run, so the recipe is checked as make expands it."""
    fresh = subprocess.run(["make", "-n", "-B", "run", "PORT=8080"], cwd=ROOT,
                           capture_output=True, text=True, timeout=60)
    assert fresh.returncode == 0, fresh.stderr
    lines = fresh.stdout.splitlines()
    setting_up = next(i for i, line in enumerate(lines) if "Setting up .venv" in line)
    install = next(i for i, line in enumerate(lines) if "pip install" in line and ".[test]" in line)
    assert setting_up < install and " -q " not in lines[install]
    assert any("Serving at http://127.0.0.1:8080" in line and "make run PORT=" in line
               for line in lines)
