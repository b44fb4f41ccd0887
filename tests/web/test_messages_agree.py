"""One roster, the same words everywhere: each problem `listbuilder validate` reports, the
builder shows with a link to the same reading and the printed roster sheet prints (without
the link); a design's problems in the WarStuff creator link their reading as the roster's
do; Space Empires' prices say they are paid."""

from __future__ import annotations

import html
import io
import json
import re
from pathlib import Path

import pdfplumber
import pytest
from click.testing import CliRunner
from flask.testing import FlaskClient
from webtools import Player, upload

from listbuilder.commands.cli import main
from listbuilder.engine.library import Library
from listbuilder.engine.registry import get_system
from listbuilder.engine.report import report
from listbuilder.engine.system import message_line
from listbuilder.printing.options import PrintOptions
from listbuilder.printing.render import print_roster

ROOT = Path(__file__).resolve().parents[2]
# every example that breaks a rule; each has at least one problem a reading decides
ILLEGAL = sorted(p for p in (ROOT / "examples").glob("*/*.yaml")
                 if p.stem.startswith("illegal") or p.stem == "printed-prices")
Problem = tuple[str, str, str | None]  # rule, message, reading


def builder_problems(page: str) -> set[Problem]:
    """Each problem listed on a builder page: its rule, its words and the reading it links."""
    found = set()
    for m in re.finditer(r'<li class="(?:error|warning)" data-rule="([^"]+)">(.*?)</li>', page,
                         re.S):
        words, _, link = m[2].partition(' <a class="reading" href="/rules-notes#')
        reading = link.split('"', 1)[0] if link else None
        found.add((m[1], html.unescape(words), reading))
    return found


def _flat(text: str) -> str:
    return re.sub(r"\s+", "", text)  # a PDF's lines break anywhere, even after a hyphen


@pytest.mark.print
@pytest.mark.parametrize("path", ILLEGAL, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_validate_the_builder_and_the_sheet_say_the_same(path: Path, client: FlaskClient,
                                                         library: Library) -> None:
    run = CliRunner().invoke(main, ["validate", str(path), "--json"])
    assert run.exit_code == 1, run.output
    said = {(v["rule"], v["message"], v["reading"]) for v in json.loads(run.output)["violations"]}
    assert any(reading for _, _, reading in said)

    imported = upload(client, path.read_bytes(), path.name)
    assert imported.status_code == 302
    page = client.get(imported.headers["Location"]).get_data(as_text=True)
    assert builder_problems(page) == said

    plain = CliRunner().invoke(main, ["validate", str(path)]).output.splitlines()
    loaded = library.read_roster(path.read_text(), str(path))
    found = report(loaded.system, loaded.catalog, loaded.roster).violations
    for v in found:
        line = message_line(v)
        assert (line.endswith(f" (our reading: docs/rules-notes.md#{v.reading})")
                if v.reading else "our reading" not in line)
        assert any(shown.startswith(f"{v.rule}: {line}") for shown in plain), line

    sheet = print_roster(loaded.catalog, loaded.system, loaded.roster,
                         PrintOptions(what="sheet", paper="a4"))
    with pdfplumber.open(io.BytesIO(sheet.pdf)) as pdf:
        text = _flat(" ".join(p.extract_text() or "" for p in pdf.pages))
    errors = [v for v in found if v.severity == "error"]
    # the same words; which reading decided it is for the builder and the command line, not
    # for a player's printed sheet (issue 20)
    assert errors and all(_flat(v.message) in text for v in errors)
    assert "our reading" not in text and "docs/" not in text


def test_the_creator_links_a_designs_reading(player: Player, client: FlaskClient) -> None:
    player.start("warstuff", "Patrol", ("Fantasy",), 150)
    answer = client.get(f"/r/{player.token}/design-cost",
                        query_string={"name": "Oddity", "quality": 3, "rules": ["Fast", "Slow"]})
    problems = builder_problems(answer.get_data(as_text=True))
    assert ("warstuff.conflicting-rules",
            "Oddity has both Fast and Slow; a unit cannot move both faster and slower than "
            "normal: remove one.", "which-special-rules-contradict-each-other") in problems
    player.post("design", name="Oddity", quality=3, rules=["Fast", "Slow"], preview="1")
    creator = re.search(r'<div id="design-cost".*?</div>', player.html, re.S)
    assert creator is not None and builder_problems(creator[0]) == problems
    assert ('<a class="reading" href="/rules-notes#which-special-rules-contradict-each-other">'
            "Our reading: Which special rules contradict each other?</a>") in creator[0]


def test_space_empires_prices_say_they_are_paid(player: Player, library: Library) -> None:
    system = get_system("spaceempires")
    catalog = library.catalog(system)
    player.start("spaceempires", "Waaagh", ("Orks",))
    rows = re.findall(r'<li class="unit-row[^"]*" id="[^"]+">.*?class="unit-name"[^>]*>([^<]+)'
                      r'</a>.*?<span class="cost">([^<]+)</span>', player.html, re.S)
    assert len(rows) == len(catalog.units_of("Orks"))
    for name, shown in rows:
        chit = next(u for u in catalog.units_of("Orks") if u.name == html.unescape(name))
        assert shown == f"{chit.cost} revenue to recruit"
    name = html.unescape(rows[0][0])
    player.post("add", unit=name)
    entry = re.search(r'id="entry-0".*?<span class="cost">([^<]+)</span>', player.html, re.S)
    cost = next(u for u in catalog.units_of("Orks") if u.name == name).cost
    assert entry is not None and entry[1] == f"{cost} revenue spent"
    assert f"<p class=\"big\">{cost} of 5 revenue spent</p>" in player.html
    text = player.client.get(f"/r/{player.token}/roster.txt").get_data(as_text=True)
    assert f"- {name} (chits 1): {cost} revenue spent" in text


def test_points_systems_keep_plain_prices(player: Player) -> None:
    player.start("op40k", "Waaagh", ("Orks",), 500)
    assert re.search(r'<span class="cost">\d+ pts</span>', player.html)
    assert "to recruit" not in player.html and "spent</span>" not in player.html
