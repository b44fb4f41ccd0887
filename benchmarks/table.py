"""The match tracker's server time (issue 40): each game's example log played tap by tap
through the app (a real SQLite file, the CSRF check, the rules replaying the log), then the
match page, the board a phone asks for when the match changed, and the poll that finds
nothing new (204).

Run: .venv/bin/python benchmarks/table.py
A tap is answered with the whole board; both phones poll every 2.5 s, so the 204 is what a
quiet table costs.
"""

from __future__ import annotations

import io
import re
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

from listbuilder.web import create_app
from listbuilder.web.config import TestConfig

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("hammerwars", "op40k", "warstuff", "actionhammer", "spaceempires")


def _csrf(html: str) -> str:
    found = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', html)
    assert found is not None
    return found[1]


def _timed(call: Any, *args: Any, **kwargs: Any) -> tuple[Any, float]:
    began = time.perf_counter()
    out = call(*args, **kwargs)
    return out, time.perf_counter() - began


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="table-bench-"))
    config = {k: getattr(TestConfig, k) for k in dir(TestConfig) if k.isupper()}
    app = create_app({**config, "DATABASE_URL": f"sqlite:///{folder}/bench.sqlite3"},
                     instance_path=folder)
    client = app.test_client()
    print(f"{'game':<13} {'taps':>4} {'tap median':>11} {'tap max':>8} {'page':>6} "
          f"{'board':>6} {'poll 204':>9}")
    for game in GAMES:
        data = yaml.safe_load((ROOT / "examples" / game / "match.yaml").read_text("utf-8"))
        edits = []
        for player in data["players"]:
            home = client.get("/").get_data(as_text=True)
            made = client.post("/import", data={
                "csrf_token": _csrf(home),
                "file": (io.BytesIO(player["roster"].encode()), "roster.yaml")},
                content_type="multipart/form-data")
            edits.append(made.headers["Location"])
        page = client.get(edits[1]).get_data(as_text=True)
        share = re.search(r'id="share-link"[^>]*value="([^"]+)"', page)
        assert share is not None
        page = client.get(edits[0] + "/play").get_data(as_text=True)
        options = {f"opt_{k}": v for k, v in (data.get("options") or {}).items()}
        match = client.post(edits[0] + "/play", data={
            "csrf_token": _csrf(page), "me": "A", "opponent": "B", "source": "link",
            "link": share[1], **options}).headers["Location"].split("?")[0]
        token = _csrf(client.get(match).get_data(as_text=True))
        taps = []
        for ev in data["events"]:
            form: dict[str, Any] = {"csrf_token": token, "base": "1", "kind": ev["kind"]}
            for key, value in ev.items():
                if key in ("side", "unit"):
                    form[key] = value
                elif key not in ("kind", "id"):
                    form[f"v_{key}"] = ("yes" if value else "no") if isinstance(value, bool) \
                        else value
            answer, took = _timed(client.post, match + "/event", data=form,
                                  headers={"X-Table": "1"})
            assert answer.status_code == 200, answer.get_data(as_text=True)[:300]
            taps.append(took)
        shown, page_time = _timed(client.get, match)
        version = re.search(r'data-version="(\d+)"', shown.get_data(as_text=True))
        assert version is not None
        _, board_time = _timed(client.get, match + "/board?v=0")
        polls = [_timed(client.get, f"{match}/board?v={version[1]}")[1] for _ in range(20)]
        print(f"{game:<13} {len(taps):>4} {statistics.median(taps) * 1000:>8.1f} ms "
              f"{max(taps) * 1000:>5.1f} ms {page_time * 1000:>3.0f} ms "
              f"{board_time * 1000:>3.0f} ms {statistics.median(polls) * 1000:>6.1f} ms")


if __name__ == "__main__":
    main()
