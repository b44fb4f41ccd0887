"""Server time of the roster page and of one change, per system, through Flask's test client.

Run: .venv/bin/python benchmarks/web.py [--repeat N]
Each system: start a roster, add a unit, then time N page loads and N htmx "add" posts, and
weigh the answers: an htmx change is answered with only the parts it changed, a browser
without JavaScript gets the whole page (which every change answered with before).
"""

from __future__ import annotations

import re
import statistics
import tempfile
import time
from pathlib import Path

import click

from listbuilder.web import create_app
from listbuilder.web.config import TestConfig

CASES = (
    ("warstuff", (), 150, "Human Warrior"),
    ("op40k", ("Orks",), 500, "Ork Boyz"),
    ("hammerwars", ("Lizardmen",), None, "Assault Infantry"),
    ("actionhammer", ("Cobalt Brigade",), 2000, "Line Troopers"),
    ("spaceempires", ("Orks",), None, "Warboss"),
)


def hidden(html: str, name: str) -> str:
    found = re.search(rf'name="{name}" (?:type="hidden" )?value="([^"]+)"', html) or re.search(
        rf'id="{name}" name="{name}" type="hidden" value="([^"]+)"', html)
    if found is None:
        raise SystemExit(f"no {name} on the page: has the form changed?")
    return found[1]


@click.command(help=__doc__, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--repeat", type=int, default=20)
def main(repeat: int) -> None:
    tmp = Path(tempfile.mkdtemp())
    config = {k: getattr(TestConfig, k) for k in dir(TestConfig) if k.isupper()}
    config["DATABASE_URL"] = f"sqlite:///{tmp / 'rosters.db'}"
    app = create_app(config, instance_path=tmp / "instance")
    print(f"median of {repeat}, Flask test client, SQLite file in {tmp}")
    for system, factions, limit, unit in CASES:
        client = app.test_client()
        page = client.get(f"/new/{system}").get_data(as_text=True)
        form: dict[str, object] = {"csrf_token": hidden(page, "csrf_token"), "name": "Bench",
                                   "factions": list(factions)}
        if limit:
            form["points_limit"] = limit
        token = client.post(f"/new/{system}", data=form).headers["Location"].rsplit("/", 1)[1]
        html = client.get(f"/r/{token}").get_data(as_text=True)
        gets, posts, sent = [], [], []
        for _ in range(repeat):
            start = time.perf_counter()
            html = client.get(f"/r/{token}").get_data(as_text=True)
            gets.append(time.perf_counter() - start)
        for _ in range(repeat):
            body = {"csrf_token": hidden(html, "csrf_token"), "version": hidden(html, "version"),
                    "unit": unit}
            start = time.perf_counter()
            answer = client.post(f"/r/{token}/add", data=body, headers={"HX-Request": "true"})
            posts.append(time.perf_counter() - start)
            sent.append(len(answer.get_data()))
            html = client.get(f"/r/{token}").get_data(as_text=True)
        print(f"{system:13} roster page {statistics.median(gets) * 1000:6.1f} ms   "
              f"one change (htmx) {statistics.median(posts) * 1000:6.1f} ms   "
              f"answer {statistics.median(sent) / 1024:5.1f} KB (whole page "
              f"{len(html) / 1024:5.1f} KB) after {repeat + 1} adds")


if __name__ == "__main__":
    main()
