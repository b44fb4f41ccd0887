"""What the YAML bombs of the security review (issue 37, items 2 and 5) cost the server, sent
through the app as an attacker sends them: CPU seconds, peak memory and the answer's size of
each request, with the code as last committed (`before`, a copy of HEAD in a temporary folder)
and as it is now (`after`); then, with the code as it is now, the largest work a request of
each kind can still be made to do (the `worst accepted` inputs).

    .venv/bin/python benchmarks/yaml_bombs.py [--cap 6] [--no-before]

Each side runs in a process of its own (one per code tree, side by side), imports once and
warms each request up with a harmless one, so a figure is the input's own cost. A request
still running after `--cap` CPU seconds is stopped and shown as `> cap`.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "tools"))

from yamlbombs import anchor_bomb, roster_with_packs, unit_pack  # noqa: E402

MB = 1024 * 1024


# -- the inputs -------------------------------------------------------------------------------

def many_units(prefix: str = "", size: int = 128 * 1024, units: int | None = None) -> str:
    """A pack of as many small op40k units as `size` holds (128 KB: about 1,700), or of
    `units` units: what a check or a form page can be made to show without an alias."""
    rows = [f"factions:\n  - {{name: {prefix}Many, text: x}}\nunits:\n"]
    i = 0
    while units is None or i < units:
        row = (f"  - {{name: {prefix}U{i}, faction: {prefix}Many, size: 5, quality: 4, "
               f"pts_per_model: 5}}\n")
        if sum(map(len, rows)) + len(row) > size - 64:
            break
        rows.append(row)
        i += 1
    return "".join(rows)


def wrong_values() -> str:
    """128 KB of 64,000 values a pack can't take: a check's longest list of problems."""
    return ("units:\n  - {name: U, faction: Orks, size: 5, quality: 4, pts_per_model: 5, "
            "upgrades: [" + ",".join(["1"] * 64_000) + "]}\n")


# -- one side: a process with one code tree -------------------------------------------------

class _OverCap(Exception):
    pass


_STOPPED: list[bool] = []  # the app answers 500 to the exception: this says it was ours


def _on_cap(signum: int, frame: Any) -> None:
    _STOPPED.append(True)
    raise _OverCap


def _rss(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _give_back() -> None:
    """Hand memory freed by earlier requests back to the system, so the next one's growth is
    its own and not hidden in what the process already holds."""
    gc.collect()
    with contextlib.suppress(OSError, AttributeError):  # not glibc: figures may read low
        ctypes.CDLL("libc.so.6").malloc_trim(0)


@contextmanager
def _measured(cap: float, out: dict[str, Any]) -> Iterator[None]:
    """CPU seconds and the growth of the resident peak while the block runs, stopped at
    `cap` CPU seconds (the kernel's peak is reset first, where it lets us)."""
    _give_back()
    base = _rss("VmRSS")
    with contextlib.suppress(OSError):
        Path("/proc/self/clear_refs").write_text("5")
    _STOPPED.clear()
    signal.signal(signal.SIGPROF, _on_cap)
    signal.setitimer(signal.ITIMER_PROF, cap)
    start = time.process_time()
    try:
        yield
    except _OverCap:
        pass
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        out["stopped"] = bool(_STOPPED)
        out["cpu"] = time.process_time() - start
        out["mb"] = max(0, _rss("VmHWM") - base) / MB


class Side:
    """The app of one code tree on a temporary database, as a browser without JavaScript
    uses it (no CSRF tokens to carry: they are turned off here)."""

    def __init__(self, folder: Path) -> None:
        from listbuilder.settings import TestConfig
        from listbuilder.web import create_app

        data = folder / "no-custom-data"
        data.mkdir()
        settings = {k: getattr(TestConfig, k) for k in dir(TestConfig) if k.isupper()}
        settings |= {"DATABASE_URL": f"sqlite:///{folder / 'bench.sqlite3'}",
                     "LISTBUILDER_DATA": str(data), "WTF_CSRF_ENABLED": False,
                     "LIMIT_CREATE": "", "LIMIT_IMPORT": "", "LIMIT_PRINT": ""}
        self.app = create_app(settings, instance_path=folder / "instance")
        self.app.logger.disabled = True  # a stopped request's trace is not news
        self.client = self.app.test_client()

    def new_pack(self, system: str) -> str:
        answer = self.client.post("/studio/new", data={"system": system, "name": "Bench"})
        assert answer.status_code == 302, answer.status_code
        return answer.headers["Location"]

    def save_text(self, link: str, text: str) -> None:
        answer = self.client.post(link, data={"name": "Bench", "text": text,
                                              "pack_version": "1"})
        assert answer.status_code == 302, answer.status_code

    def boxes(self, system_id: str, **changes: str) -> dict[str, str]:
        """What the form of a system's starter pack posts, with `changes`."""
        from listbuilder.engine.registry import get_system
        from listbuilder.web.studio.fields import draw, form_spec, form_values, pack_data

        system = get_system(system_id)
        drawn = draw(form_spec(system), pack_data(system.pack_starter(), "bench.yaml"),
                     "bench.yaml")
        return form_values(drawn) | {"name": "Bench", "pack_version": "1", **changes}

    def upload(self, text: str) -> Any:
        import io

        from flask.testing import EnvironBuilder

        builder = EnvironBuilder(self.app, path="/import", method="POST",
                                 data={"file": (io.BytesIO(text.encode()), "bench.yaml")})
        try:
            return self.client.open(builder)
        finally:
            builder.close()


Request = Callable[[Side, bool], Any]  # the side, and whether this is the warm-up


def form_save(bomb: str) -> Request:
    def run(side: Side, warm: bool) -> Any:
        link = side.new_pack("actionhammer")
        box = "datasheets-0-upgrades-0-effects"
        return side.client.post(link + "/form", follow_redirects=True, data=side.boxes(
            "actionhammer", **{box: "[]" if warm else bomb, "action": "save"}))
    return run


def form_page(text: str, system: str = "actionhammer") -> Request:
    def run(side: Side, warm: bool) -> Any:
        from listbuilder.engine.registry import get_system

        link = side.new_pack(system)
        side.save_text(link, get_system(system).pack_starter() if warm else text)
        return link + "/form"
    return run


def check(text: str) -> Request:
    def run(side: Side, warm: bool) -> Any:
        from listbuilder.engine.registry import get_system

        link = side.new_pack("op40k")
        return side.client.post(link + "/check", data={
            "name": "Bench", "pack_version": "1",
            "text": get_system("op40k").pack_starter() if warm else text})
    return run


def roster_import(texts: list[str]) -> Request:
    def run(side: Side, warm: bool) -> Any:
        from listbuilder.engine.registry import get_system

        packs = [get_system("op40k").pack_starter()] if warm else texts
        return side.upload(roster_with_packs(packs))
    return run


def roster_view(texts: list[str]) -> Request:
    def run(side: Side, warm: bool) -> Any:
        from listbuilder.engine import packs

        answer = side.upload(roster_with_packs(texts))
        assert answer.status_code == 302, answer.get_data(as_text=True)[-2000:]
        packs._BUILT.clear()  # a worker that has not met these packs yet
        return answer.headers["Location"]
    return run


def form_post(items: int, key: str, value: str) -> Request:
    """`items` datasheets posted with one box each (`key`): each is drawn with all its 18."""
    def run(side: Side, warm: bool) -> Any:
        link = side.new_pack("actionhammer")
        many = {} if warm else {f"datasheets-{i}-{key}": value for i in range(items)}
        return side.client.post(link + "/form", follow_redirects=True, data=side.boxes(
            "actionhammer", action="save", **many))
    return run


# what each bomb is, and what sends it; the same input on both sides
BOMBS: list[tuple[str, Callable[[], Request]]] = [
    ("studio form save: a 50 KB box, 50,000 characters x 100 aliases",
     lambda: form_save(anchor_bomb(50_000, 100))),
    ("studio form save: a 70 KB box, 50,000 characters x 5,000 aliases",
     lambda: form_save(anchor_bomb(50_000, 5_000))),
    ("saved pack's form page (GET): the 50 KB box's bomb saved in the pack",
     lambda: form_page("bomb: " + anchor_bomb(50_000, 100) + "\n")),
    ("studio check: 119 KB op40k pack, 700 units sharing one aliased list",
     lambda: check(unit_pack())),
    ("roster import: 477 KB roster carrying three such packs",
     lambda: roster_import([unit_pack(prefix=f"P{i} ") for i in range(3)])),
]
# the most work each kind of request can still be made to do, measured on the code as it is
WORST: list[tuple[str, Callable[[], Request]]] = [
    ("studio check: 128 KB pack of 1,700 units (all shown with profiles)",
     lambda: check(many_units())),
    ("studio check: 128 KB pack of 64,000 wrong values",
     lambda: check(wrong_values())),
    ("saved pack's form page (GET): 1,650 units, 19,800 boxes (the most a form draws)",
     lambda: form_page(many_units(units=1_650), "op40k")),
    ("saved pack's form page (GET): 128 KB pack of 1,700 units (too many boxes)",
     lambda: form_page(many_units(), "op40k")),
    ("studio form save: 1,100 datasheets named, then their form (19,800 boxes)",
     lambda: form_post(1_100, "name", "N" * 60)),
    ("studio form save: a 1 MB post of 11,000 names (too many boxes to draw)",
     lambda: form_post(11_000, "name", "N" * 60)),
    ("studio form save: 19,000 empty items (too many boxes to draw)",
     lambda: form_post(19_000, "z", "")),
    ("roster import: three 128 KB packs of 1,700 units each",
     lambda: roster_import([many_units(f"P{i} ", 120 * 1024) for i in range(3)])),
    ("roster page, a worker's first view: those three packs",
     lambda: roster_view([many_units(f"P{i} ", 120 * 1024) for i in range(3)])),
]


def measure(side: Side, request: Request, cap: float) -> dict[str, Any]:
    def send(warm: bool) -> Any:
        got = request(side, warm)
        return side.client.get(got) if isinstance(got, str) else got

    send(True)  # templates, catalogs and the first pack check: not this input's cost
    out: dict[str, Any] = {}
    with _measured(cap, out):
        answer = send(False)
        out["status"], out["bytes"] = answer.status_code, len(answer.data)
    return out


def run_side(which: str, cap: float) -> None:
    rows = BOMBS if which == "before" else BOMBS + WORST
    with tempfile.TemporaryDirectory() as folder:
        side = Side(Path(folder))
        for i, (_label, make) in enumerate(rows):
            print(json.dumps({"row": i, **measure(side, make(), cap)}), flush=True)


# -- the parent: both sides, side by side -----------------------------------------------------

def head_tree(folder: Path) -> Path:
    """The package as last committed, to import instead of the working tree's."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "HEAD", "listbuilder"],
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder


def start(which: str, tree: Path, cap: float) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    return subprocess.Popen([sys.executable, __file__, "--side", which, "--cap", str(cap)],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def results(process: subprocess.Popen[str]) -> dict[int, dict[str, Any]]:
    out, err = process.communicate()
    if process.returncode:
        print(err, file=sys.stderr)
    rows = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    return {r["row"]: r for r in rows}


def shown(r: dict[str, Any] | None, cap: float) -> str:
    if r is None:
        return "(not run)"
    cpu = f"> {cap:.0f} s" if r.get("stopped") else f"{r['cpu']:.2f} s"
    answer = "stopped" if r.get("stopped") else f"{r['status']}, {r['bytes'] / 1024:,.0f} KB"
    return f"{cpu:>9} CPU {r['mb']:6.0f} MB peak  ({answer})"


@click.command(help=__doc__.split("\n\n")[0])
@click.option("--cap", type=float, default=6.0, help="CPU seconds after which a request is "
                                                     "stopped")
@click.option("--before/--no-before", default=True, help="also run the code as committed")
@click.option("--side", type=click.Choice(["before", "after"]), hidden=True)
def main(cap: float, before: bool, side: str | None) -> None:
    if side is not None:
        run_side(side, cap)
        return
    with tempfile.TemporaryDirectory() as folder:
        old = start("before", head_tree(Path(folder)), cap) if before else None
        new = start("after", ROOT, cap)
        now, then = results(new), results(old) if old else {}
    print("Each bomb as the attacker sends it (CPU seconds, growth of the resident peak, the "
          "answer):")
    for i, (label, _make) in enumerate(BOMBS):
        print(f"  {label}")
        if before:
            print(f"    before  {shown(then.get(i), cap)}")
        print(f"    after   {shown(now.get(i), cap)}")
    print("The worst each kind of request can still be made to do, as the code is now:")
    for i, (label, _make) in enumerate(WORST, len(BOMBS)):
        print(f"  {label}")
        print(f"            {shown(now.get(i), cap)}")


if __name__ == "__main__":
    main()
