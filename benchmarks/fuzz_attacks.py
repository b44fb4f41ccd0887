"""The attacker's steps of issue 37, run against a server as `make run` starts it (production
limits on, the access log on), each counted so that a regression shows in `fuzz.py`'s figures.

    .venv/bin/python benchmarks/fuzz.py --cli 0 --server 0 --attacks

Every "worked" count below should be 0; the CPU and size figures say how much work the worst
request of each kind cost the server (its process tree's CPU time, read from /proc).
"""

from __future__ import annotations

import http.client
import itertools
import os
import re
import time
from collections import Counter
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path

from fuzz import Browser, csrf_of, start_server, version_of
from yamlbombs import anchor_bomb, roster_with_packs, unit_pack

TICK = os.sysconf("SC_CLK_TCK")
SLOW = 1.0  # CPU seconds: more for one request counts as an attack that worked
# The counts that should be 0: each is an attack that worked.
WORKED = ("1 list link: rosters taken", "2 bombs over 1 s of server CPU",
          "3 pack copies accepted after the limit", "4 another client's print refused",
          "5 checks over 1 s of server CPU", "6 tokens in the log",
          "7 script pack links accepted", "tracebacks in the log")
# ...and those that should not be: an attack's control, which shows the attack was real
CONTROLS = ("7 own pack links accepted",)


def tree_cpu(pid: int) -> float:
    """CPU seconds the server and every process under it have used so far."""
    total, todo, seen = 0, [pid], set()
    while todo:
        current = todo.pop()
        seen.add(current)
        try:
            fields = Path(f"/proc/{current}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
            for child in Path(f"/proc/{current}/task").glob("*/children"):
                todo += [int(c) for c in child.read_text().split() if int(c) not in seen]
        except (OSError, IndexError, ValueError):
            continue
    return total / TICK


class From(Browser):
    """A browser on another address of the loopback network: the limits count by address."""

    def __init__(self, port: int, address: str) -> None:
        self.address = address
        super().__init__(port)

    def connection(self) -> http.client.HTTPConnection:
        # every connection, the ones made again after the server closed one included
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=60,
                                          source_address=(self.address, 0))


def new_roster(browser: Browser, system: str = "warstuff", name: str = "Mine",
               factions: tuple[str, ...] = ("Fantasy",)) -> str:
    page = browser.get(f"/new/{system}")[2]
    status, headers, _, _ = browser.post(f"/new/{system}", {
        "csrf_token": csrf_of(page), "name": name, "factions": list(factions)})
    return headers.get("location", "").rsplit("/", 1)[-1] if status == 302 else ""


def new_pack(browser: Browser, system: str = "op40k", name: str = "Pack") -> str:
    page = browser.get("/studio")[2]
    _, headers, _, _ = browser.post("/studio/new", {"csrf_token": csrf_of(page),
                                                    "system": system, "name": name})
    return headers.get("location", "").rsplit("/", 1)[-1]


def list_link(browser: Browser) -> str:
    browser.post("/mine/link", {"csrf_token": csrf_of(browser.get("/")[2])})
    found = re.search(r'id="list-link"[^>]*value="[^"]*/l/([^"]+)"', browser.get("/")[2])
    return found[1] if found else ""


def measured(pid: int, ask: Callable[[], tuple[int, dict[str, str], str, float]]
             ) -> tuple[int, int, float]:
    """The answer's status and size, and the server's CPU seconds spent on it."""
    before = tree_cpu(pid)
    status, _, body, _ = ask()
    time.sleep(0.2)  # the tick counters move a little after the answer
    return status, len(body), tree_cpu(pid) - before


class _Form(HTMLParser):
    """The values a browser would send back from a page's form fields."""

    def __init__(self) -> None:
        super().__init__()
        self.values: dict[str, str] = {}
        self._text: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        name = found.get("name")
        if tag == "input" and name and found.get("type") not in ("checkbox", "radio", "submit"):
            self.values[name] = found.get("value") or ""
        elif tag == "textarea" and name:
            self._text = name
            self.values[name] = ""

    def handle_data(self, data: str) -> None:
        if self._text:
            self.values[self._text] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "textarea":
            self._text = None


def form_values(page: str) -> dict[str, str]:
    form = _Form()
    form.feed(page)
    return form.values


def carried_pack(link: str) -> str:
    """A roster file carrying op40k's starter pack, with `link` as the pack's link."""
    from listbuilder.engine.registry import get_system

    text = get_system("op40k").pack_starter()
    return ("format: 1\nsystem: op40k\nname: Linked\nfactions: [Orks]\nentries: []\n"
            "packs:\n  - name: House\n    link: '" + link + "'\n    text: |\n"
            + "".join(f"      {line}\n" for line in text.splitlines()))


def pack_version(page: str) -> str:
    found = re.search(r'name="pack_version"[^>]*value="(\d+)"', page)
    return found[1] if found else "1"


def attacks(folder: Path) -> Counter[str]:
    """Run every attack once against a fresh server; the counts and figures found."""
    found: Counter[str] = Counter()
    log = folder / "attacks.log"
    (folder / "no-custom-data").mkdir(exist_ok=True)
    server, port = start_server(folder, log, limits=True, access_log=True)
    tokens: list[str] = []
    try:
        attacker, victim = From(port, "127.0.0.2"), From(port, "127.0.0.3")
        # 1. a stranger's list link opened by a player with two rosters
        bait = new_roster(attacker, name="Bait")
        link = list_link(attacker)
        mine = [new_roster(victim, name=f"Mine {i}") for i in range(2)]
        victim.get(f"/l/{link}")
        home = attacker.get("/")[2]
        found["1 list link: rosters taken"] = sum(t in home for t in mine)
        tokens += [bait, link, *mine]

        # 2. an alias bomb in a studio form box, then one saved in a pack's text and the
        # pack's form page opened
        pack = new_pack(attacker, "actionhammer")
        tokens.append(pack)
        page = attacker.get(f"/studio/p/{pack}/form")[2]
        fields = form_values(page)
        fields.update({"datasheets-0-upgrades-0-effects": anchor_bomb(50_000, 100),
                       "action": "check"})
        status, size, cpu = measured(server.pid, lambda: attacker.post(
            f"/studio/p/{pack}/form", fields))
        found["2 form bomb: answer KB"] = size // 1024
        found["2 form bomb: server CPU ms"] = round(cpu * 1000)
        found["2 bombs over 1 s of server CPU"] += cpu > SLOW
        page = attacker.get(f"/studio/p/{pack}")[2]
        attacker.post(f"/studio/p/{pack}", {
            "csrf_token": csrf_of(page), "name": "Bomb", "pack_version": pack_version(page),
            "text": f"factions: {anchor_bomb(50_000, 100)}\n"})
        status, size, cpu = measured(server.pid, lambda: attacker.get(f"/studio/p/{pack}/form"))
        found["2 saved bomb's form page: server CPU ms"] = round(cpu * 1000)
        found["2 bombs over 1 s of server CPU"] += cpu > SLOW

        # 5. a check of a pack of 700 units sharing one aliased upgrade list, and a roster
        # file carrying three such packs
        op_pack = new_pack(attacker, "op40k")
        tokens.append(op_pack)
        page = attacker.get(f"/studio/p/{op_pack}")[2]
        status, size, cpu = measured(server.pid, lambda: attacker.post(
            f"/studio/p/{op_pack}/check", {"csrf_token": csrf_of(page), "name": "Aliased",
                                           "text": unit_pack(700), "pack_version": "1"},
            htmx=True))
        found["5 aliased 700-unit check: server CPU ms"] = round(cpu * 1000)
        found["5 checks over 1 s of server CPU"] += cpu > SLOW
        carried = roster_with_packs([unit_pack(700, prefix=p) for p in ("A ", "B ", "C ")])
        status, size, cpu = measured(server.pid, lambda: victim.upload(
            "/import", csrf_of(victim.get("/")[2]), carried.encode()))
        found["5 import of three aliased packs: server CPU ms"] = round(cpu * 1000)
        found["5 checks over 1 s of server CPU"] += cpu > SLOW

        # 3. copies after new rosters are refused
        share = re.search(r'id="pack-share-link" class="link" readonly value="[^"]*/studio/s/'
                          r'([^"]+)"', attacker.get(f"/studio/p/{op_pack}")[2])
        while new_roster(attacker, name="Fill"):
            found["3 rosters made before the limit"] += 1
            if found["3 rosters made before the limit"] > 500:
                break
        if share is not None:
            tokens.append(share[1])
            shared = attacker.get(f"/studio/s/{share[1]}")[2]
            for _ in range(20):
                status = attacker.post(f"/studio/s/{share[1]}/copy",
                                       {"csrf_token": csrf_of(shared)})[0]
                found["3 pack copies accepted after the limit"] += status == 302

        # 6. every token used above, looked for in the access log (after the server stops)
        # 7. a roster file whose pack link is a script (beside the same file with our own
        # share link, which must open: else the refusal proves nothing)
        for link, kind in ((f"/studio/s/{share[1] if share else 'x'}", "own"),
                           ("javascript:alert(document.cookie)", "script")):
            text = carried_pack(link)
            status = victim.upload("/import", csrf_of(victim.get("/")[2]), text.encode())[0]
            found[f"7 {kind} pack links accepted"] += status == 302

        # 4. one client's big prints, then another client's 1-card print
        big = new_roster(victim, "op40k", "Big", ("Orks",))
        found["4 big roster made"] = bool(big)
        tokens.append(big)
        roster_page = victim.get(f"/r/{big}")[2]
        units = re.findall(r'name="unit" (?:type="hidden" )?value="([^"]+)"', roster_page)
        for unit in units[:30]:
            roster_page = victim.get(f"/r/{big}")[2]
            victim.post(f"/r/{big}/add", {"csrf_token": csrf_of(roster_page),
                                          "version": version_of(roster_page), "unit": unit})
        flooder = From(port, "127.0.0.4")
        variants = itertools.product(("a4", "letter"), ("poker", "mini", "tarot"),
                                     ("yes", "no"), ("yes", "no"))
        for paper, card, marks, ink in itertools.islice(variants, 20):  # none a cache hit
            status = flooder.get(
                f"/r/{big}/print?what=cards&paper={paper}&card={card}&cut_marks={marks}"
                f"&ink_saver={ink}")[0]
            found[f"4 flooding prints answered {status}"] += 1
        other = From(port, "127.0.0.5")
        small = new_roster(other, name="Small")
        tokens.append(small)
        status = other.get(f"/r/{small}/print?what=sheet")[0]
        found["4 another client's print refused"] = status in (429, 503)
    finally:
        server.terminate()
        server.wait(timeout=60)
    logged = log.read_text(errors="replace")
    found["6 tokens in the log"] = sum(logged.count(t) for t in tokens if t)
    found["tracebacks in the log"] = logged.count("Traceback (most recent call last)")
    return found
