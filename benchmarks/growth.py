"""How much one hostile client can grow the database in an hour inside the limits: the app
with the production settings (limits on, `listbuilder.settings.Config`, read from the
environment as a server reads them) on a real SQLite file in a temporary folder, and one
client at one address doing the worst it can for a simulated hour, on the clock the limits
read (moved a minute at a time, so the hour runs in two or three minutes).

    .venv/bin/python benchmarks/growth.py [--minutes 60]

Each minute the client sends every request that stores something, kind by kind, until the
limit refuses it (429): its first minute tries each storing endpoint once, then spends the
rest of its allowance on the request of its kind that stores the most, sent at the most it
can store:

- new rosters: copies of the biggest roster the reader takes (about 640 KB: three 128 KB
  packs carried whole, and 256 KB of entries), a copy of the biggest pack, a new roster, a
  new pack, a list link;
- files opened: that roster's file as a new roster, and onto a small one; the pack's file;
- changes: renames of those big rosters while their history has room (each adds a history
  row as big as the roster), a pack saved, a pack taken onto a roster.

The minute after the hour's last, every storing endpoint is asked once more: each answer
must be 429. The report is the file's growth (checkpointed, so the WAL is in it) against the
bound `limits.growth_per_hour` states for these settings (docs/hostile-input.md).
"""

from __future__ import annotations

import io
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import text
from werkzeug.test import TestResponse

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from machine import machine_speed  # noqa: E402

from listbuilder.engine.history import HISTORY_KEPT  # noqa: E402
from listbuilder.engine.library import Library  # noqa: E402
from listbuilder.engine.packs import MAX_PACK_BYTES, MAX_PACKS  # noqa: E402
from listbuilder.engine.roster_file import RosterFileError  # noqa: E402
from listbuilder.store.database import sqlite_url  # noqa: E402
from listbuilder.store.rosters import MAX_TEXT  # noqa: E402
from listbuilder.web import create_app  # noqa: E402
from listbuilder.web.site import limits  # noqa: E402

MB = 1024 * 1024
ADDRESS = "192.0.2.66"  # the hostile client
UPGRADES = 50  # the most one entry may take (the reader's bound)


# -- the biggest roster and pack the reader takes ---------------------------------------------

def long_name(prefix: str) -> str:
    """A name of the most characters one may have (80)."""
    return f"{prefix} ".ljust(80, "x")


def pack_text(number: int, limit: int = MAX_PACK_BYTES - 64) -> str:
    """A One Page 40k pack of nearly the most a pack may be: its faction, a unit with 50
    upgrades, and units to fill it."""
    faction, big = long_name(f"Faction {number}"), long_name(f"Big {number}")
    parts = [f"factions:\n  - name: {faction}\n    text: One line.\nunits:\n",
             f"  - name: {big}\n    faction: {faction}\n    size: 10\n    min_size: 5\n"
             f"    max_size: 20\n    quality: 4\n    pts_per_model: 5\n"
             f"    equipment: [Lasgun]\n    upgrades:\n"]
    parts += [f"      - name: {long_name(f'Upgrade {number} {u}')}\n        pts: 1\n"
              f"        text: x\n" for u in range(UPGRADES)]
    size, filler = sum(map(len, parts)), 0
    while True:
        unit = (f"  - {{name: {long_name(f'Filler {number} {filler}')}, faction: {faction}, "
                f"size: 10, quality: 4, pts_per_model: 5, equipment: [Lasgun]}}\n")
        if size + len(unit) > limit:
            return "".join(parts)
        parts.append(unit)
        size += len(unit)
        filler += 1


def roster_text(entries: int) -> str:
    """A roster carrying three of those packs, with `entries` of their big units, each with
    every upgrade."""
    lines = ["format: 1", "system: op40k", f"name: {long_name('Big')}", "points_limit: 100000",
             "factions: [" + ", ".join(long_name(f"Faction {p}") for p in range(MAX_PACKS)) + "]",
             "entries:"]
    for e in range(entries):
        p = e % MAX_PACKS
        lines += [f"  - unit: {long_name(f'Big {p}')}", "    count: 10", "    upgrades:"]
        lines += [f"      - {long_name(f'Upgrade {p} {u}')}" for u in range(UPGRADES)]
    lines.append("packs:")
    for p in range(MAX_PACKS):
        lines += [f"  - name: {long_name(f'Pack {p}')}", "    text: |"]
        lines += [f"      {line}" for line in pack_text(p).splitlines()]
    return "\n".join(lines) + "\n"


def biggest_roster(library: Library) -> str:
    """The roster file with the most entries the reader still takes."""
    for entries in range(80, 0, -1):
        candidate = roster_text(entries)
        try:
            library.read_roster(candidate, "big.yaml")  # as an upload is read
        except RosterFileError:
            continue
        return candidate
    raise RuntimeError("no roster of this shape reads")


# -- the app, as a server runs it --------------------------------------------------------------

class Clock:
    """The limits' clock, moved a minute at a time."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


def start_app(folder: Path) -> Flask:
    """The production settings (limits on), on an SQLite file in `folder`, its schema made by
    the migrations as `listbuilder db upgrade` makes it."""
    (folder / "no-data").mkdir()
    return create_app({"DATABASE_URL": sqlite_url(folder / "rosters.sqlite3"),
                       "UPGRADE_DATABASE": True, "LISTBUILDER_DATA": str(folder / "no-data"),
                       "PRINT_RUNNER": False}, instance_path=folder / "instance")


def file_bytes(app: Flask, path: Path) -> int:
    """The database file's size with everything written into it."""
    with app.extensions["listbuilder.store"].engine.connect() as connection:
        connection.execute(text("PRAGMA wal_checkpoint(TRUNCATE)"))
    wal = path.with_name(path.name + "-wal")
    return path.stat().st_size + (wal.stat().st_size if wal.exists() else 0)


def text_bytes(app: Flask) -> dict[str, int]:
    """Bytes of text each table holds (what the limits' bound counts)."""
    sums = {"rosters": "text", "roster_history": "text", "packs": "text",
            "pack_versions": "text", "roster_lists": "sealed", "print_jobs": "job"}
    with app.extensions["listbuilder.store"].engine.connect() as connection:
        return {table: int(connection.execute(text(
            f"SELECT coalesce(sum(length({column})), 0) FROM {table}")).scalar_one())
            for table, column in sums.items()}


# -- the hostile client -------------------------------------------------------------------------

@dataclass
class Attacker:
    """One client at one address, with what it made so far."""

    client: FlaskClient
    big_file: str
    big_pack: str
    csrf: str = ""
    big: list[list[Any]] = field(default_factory=list)  # [edit token, version] of big rosters
    small: str = ""  # a roster of its own to take a pack onto
    small_version: int = 1
    pack: str = ""  # a pack of its own to save, and its version
    pack_version: int = 1
    share: str = ""  # the big roster's share link
    pack_share: str = ""  # the big pack's share link
    answers: Counter[str] = field(default_factory=Counter)
    refused_after: Counter[str] = field(default_factory=Counter)

    def post(self, url: str, data: dict[str, Any]) -> TestResponse:
        return self.client.post(url, data={"csrf_token": self.csrf, **data})

    def upload(self, url: str, body: str, name: str, data: dict[str, Any]) -> TestResponse:
        return self.post(url, {**data, "file": (io.BytesIO(body.encode("utf-8")), name)})


def made(answer: TestResponse) -> str:
    """The edit token a creation's redirect names."""
    return str(answer.headers["Location"]).rsplit("/", 1)[1]


def setup(app: Flask, attacker: Attacker) -> None:
    """What the client starts from, made by another address (a club's roster and pack it
    copies): nothing here counts against it."""
    club = app.test_client()
    club.environ_base["REMOTE_ADDR"] = "198.51.100.7"
    page = club.get("/").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"', page)
    assert csrf is not None
    token = made(club.post("/import", data={
        "csrf_token": csrf[1], "file": (io.BytesIO(attacker.big_file.encode()), "big.yaml")}))
    attacker.share = app.extensions["listbuilder.store"].by_edit_token(token).share_token
    pack = made(club.post("/studio/import", data={
        "csrf_token": csrf[1], "import-system": "op40k",
        "import-file": (io.BytesIO(attacker.big_pack.encode()), "big.yaml")}))
    attacker.pack_share = app.extensions["listbuilder.packs"].by_edit_token(pack).share_token
    page = attacker.client.get("/").get_data(as_text=True)
    found = re.search(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"', page)
    assert found is not None
    attacker.csrf = found[1]


Action = Callable[[Attacker], TestResponse]


def new_roster(a: Attacker) -> TestResponse:
    answer = a.post("/new/op40k", {"name": "Small", "factions": ["Orks"],
                                   "points_limit": 1000})
    if answer.status_code == 302 and not a.small:
        a.small = made(answer)
    return answer


def duplicate(a: Attacker) -> TestResponse:
    """A copy of a big roster of its own (it says which only on the home page's list: the
    copies by share link are the ones kept to change)."""
    return a.post(f"/r/{a.big[0][0]}/duplicate", {})


def share_copy(a: Attacker) -> TestResponse:
    answer = a.post(f"/s/{a.share}/copy", {})
    if answer.status_code == 302:
        a.big.append([made(answer), 1])
    return answer


def new_pack(a: Attacker) -> TestResponse:
    answer = a.post("/studio/new", {"system": "op40k", "name": "Pack"})
    if answer.status_code == 302 and not a.pack:
        a.pack = made(answer)
    return answer


def pack_copy(a: Attacker) -> TestResponse:
    return a.post(f"/studio/s/{a.pack_share}/copy", {})


def list_link(a: Attacker) -> TestResponse:
    a.client.delete_cookie("session")  # a fresh browser: each asks for a list link of its own
    page = a.client.get("/").get_data(as_text=True)
    a.csrf = re.findall(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"', page)[0]
    return a.post("/mine/link", {})


def import_file(a: Attacker) -> TestResponse:
    answer = a.upload("/import", a.big_file, "big.yaml", {})
    if answer.status_code == 302:
        a.big.append([made(answer), 1])
    return answer


def import_onto(a: Attacker) -> TestResponse:
    """The file onto a big roster of its own (one whose history has room). Onto the small one
    it would be refused: a file is read with the packs the roster it goes onto carries."""
    roster = next((r for r in a.big if r[1] < HISTORY_KEPT), a.big[-1])
    answer = a.upload(f"/r/{roster[0]}/import", a.big_file, "big.yaml", {"version": roster[1]})
    if answer.status_code == 302:
        roster[1] += 1
    return answer


def import_pack(a: Attacker) -> TestResponse:
    return a.post("/studio/import", {"import-system": "op40k", "import-file": (
        io.BytesIO(a.big_pack.encode("utf-8")), "big.yaml")})


def rename(a: Attacker) -> TestResponse:
    """A change to a big roster whose history has room: a new history row as big as it."""
    roster = next((r for r in a.big if r[1] < HISTORY_KEPT), a.big[-1])
    answer = a.post(f"/r/{roster[0]}/rename", {"name": f"Big {roster[1]}",
                                                "version": roster[1]})
    if answer.status_code == 302:
        roster[1] += 1
    return answer


def save_pack(a: Attacker) -> TestResponse:
    answer = a.post(f"/studio/p/{a.pack}", {"name": "Pack", "pack_version": a.pack_version,
                                            "text": f"{a.big_pack}# {a.pack_version}\n"})
    if answer.status_code == 302:
        a.pack_version += 1
    return answer


def take_pack(a: Attacker) -> TestResponse:
    answer = a.post(f"/r/{a.small}/packs/add", {"version": a.small_version,
                                                "link": f"/studio/s/{a.pack_share}"})
    if answer.status_code == 302:
        a.small_version += 1
    return answer


# Each kind's endpoints, tried once in the first minute; the last of each is the one that
# stores the most, sent with the rest of the allowance.
KINDS: dict[str, list[tuple[str, Action]]] = {
    "create": [("home.new", new_roster), ("studio.new", new_pack),
               ("studio.copy", pack_copy), ("roster_lists.make_link", list_link),
               ("shared.copy", share_copy), ("home.duplicate", duplicate),
               ("shared.copy", share_copy)],
    "save": [("studio.save", save_pack), ("roster_packs.add", take_pack),
             ("home.rename", rename)],
    "import": [("studio.import_pack", import_pack),
               ("builder.replace_from_file", import_onto), ("home.import_file", import_file)],
}


def spend(attacker: Attacker, kind: str, first: bool) -> int:
    """Send the kind's requests until one is refused; how many were taken."""
    actions = KINDS[kind]
    todo = list(actions) if first else []
    taken = 0
    while True:
        name, action = todo.pop(0) if todo else actions[-1]
        answer = action(attacker)
        attacker.answers[f"{kind} {name} {answer.status_code}"] += 1
        if answer.status_code == 429:
            return taken
        if answer.status_code >= 400:
            said = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", answer.get_data(as_text=True)))
            notice = re.search(r"(not imported|Not changed|Not saved)[^.]*\.[^.]*\.", said)
            raise RuntimeError(f"{name} answered {answer.status_code}: "
                               f"{notice[0] if notice else said[:600]}")
        taken += 1


def ask_each_once(attacker: Attacker) -> None:
    """Every storing endpoint once more: each must be refused."""
    for kind, actions in KINDS.items():
        for name, action in actions:
            status = action(attacker).status_code
            attacker.refused_after[f"{kind} {name}"] = status


@click.command(help=__doc__.split("\n\n")[0])
@click.option("--minutes", type=int, default=60, help="minutes of the simulated hour")
def main(minutes: int) -> None:
    speed = machine_speed()
    began = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        app = start_app(folder)
        settings = {kind.setting: app.config.get(kind.setting) for kind in limits.KINDS}
        bound = limits.growth_per_hour(app.config)
        if any(v is None for v in bound.values()):
            raise click.UsageError(f"a storing limit is off, so nothing bounds it: {settings}")
        clock = Clock()
        app.extensions[limits.EXTENSION].storage.clock = clock
        library = app.extensions["listbuilder.library"]
        client = app.test_client()
        client.environ_base["REMOTE_ADDR"] = ADDRESS
        big_file = biggest_roster(library)
        attacker = Attacker(client, big_file, pack_text(MAX_PACKS))
        setup(app, attacker)
        path = folder / "rosters.sqlite3"
        before, texts_before = file_bytes(app, path), text_bytes(app)
        taken: Counter[str] = Counter()
        for minute in range(minutes):
            for kind in KINDS:
                taken[kind] += spend(attacker, kind, first=minute == 0)
            clock.now += 60
        clock.now -= 30  # still inside the hour's windows
        ask_each_once(attacker)
        grown = file_bytes(app, path) - before
        texts = {t: b - texts_before[t] for t, b in text_bytes(app).items()}
        stored = app.extensions["listbuilder.store"].by_edit_token(attacker.big[0][0])
        report(settings, bound, taken, grown, texts, attacker,
               len(big_file.encode()), len(stored.text.encode()))
    print(f"\n{time.monotonic() - began:.0f} s; machine speed {speed:.0f} ms "
          f"(37-41 in this machine's fast spells)")


def report(settings: dict[str, Any], bound: dict[str, int | None], taken: Counter[str],
           grown: int, texts: dict[str, int], attacker: Attacker, file_size: int,
           stored_size: int) -> None:
    print("limits:", ", ".join(f"{k}={v!r}" for k, v in settings.items()))
    print(f"biggest roster file the reader takes: {file_size / 1024:.0f} KB "
          f"(stored as {stored_size / 1024:.0f} KB; the bound assumes {MAX_TEXT // 1024} KB)")
    print("\nrequests taken in the hour, and the bound's share of each kind:")
    for kind, count in taken.items():
        most = bound.get(kind) or 0
        print(f"  {kind:7} {count:5}   bound {most / MB:7.1f} MB")
    print("\nanswers:")
    for key, count in sorted(attacker.answers.items()):
        print(f"  {key:40} {count:5}")
    late = {k: v for k, v in attacker.refused_after.items() if v != 429}
    print(f"\nasked once more after the hour's allowance: {len(attacker.refused_after)} "
          f"endpoints, {len(attacker.refused_after) - len(late)} refused (429)"
          + (f"; NOT refused: {late}" if late else ""))
    print("\ntext added, by table (MB):",
          ", ".join(f"{t} {b / MB:.1f}" for t, b in texts.items() if b))
    total = sum(v for v in bound.values() if v)
    print(f"\ndatabase file grew {grown / MB:.1f} MB in the hour; the stated bound is "
          f"{total / MB:,.0f} MB ({grown / total:.0%} of it)")
    if late or grown > total:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
