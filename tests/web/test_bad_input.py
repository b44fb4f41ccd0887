"""Bad input is always answered (issue 21, item 7): a size that is no size is said beside its
box; a broken roster file lists every problem at once; WarStuff's creator gives its advice as
the cost changes; Space Empires shows its defaults and asks before a re-draw breaks the empire.
Posted as a browser without JavaScript would, and as htmx does."""

from __future__ import annotations

import html
import io
import re

import pytest
import yaml
from flask.testing import EnvironBuilder, FlaskClient
from webtools import Player, csrf_of, version_of

from listbuilder.engine.library import Library
from listbuilder.engine.model import Roster, RosterEntry
from listbuilder.engine.registry import get_system
from listbuilder.engine.report import report
from listbuilder.web.builder import views as builder

SAID = "Size: 10 to 30 models for Ork Boyz. Not saved: the roster keeps size 15."


def box_error(page: str, index: int = 0) -> str | None:
    found = re.search(rf'<small class="error" id="count-{index}-error" role="alert">(.*?)'
                      rf'</small>', page, re.S)
    return html.unescape(found[1]) if found else None


@pytest.mark.parametrize("bad", ["0", "-3", "", "99999", "2.5", "lots"])
def test_a_size_that_is_no_size_is_refused_beside_its_box(player: Player, bad: str) -> None:
    player.start("op40k", "Waaagh", ("Orks",), 500)
    player.post("add", unit="Ork Boyz")
    before = player.saved_text()
    response = player.post("entry", index=0, unit="Ork Boyz", count=bad, anchor="entry-0")
    assert response.status_code == 422
    assert box_error(player.html) == SAID  # beside the box, in the script's words
    box = re.search(r'<input id="count-0"[^>]*>', player.html, re.S)
    assert box is not None and 'aria-describedby="count-0-help count-0-error"' in box[0]
    assert f'data-refused="{SAID}"' in box[0]  # what the script says before sending
    assert 'value="15"' in box[0]  # the box shows the size the roster keeps
    notice = re.search(r'<div class="notice error".*?</div>', player.html, re.S)
    assert notice is not None and SAID in html.unescape(notice[0])
    assert "Must be 1 to" not in player.html
    assert '<details id="entry-0-box" open>' in player.html  # unfolded at the box
    assert player.saved_text() == before


def test_the_refusal_with_htmx_draws_the_message_into_the_entry(player: Player) -> None:
    player.start("op40k", "Waaagh", ("Orks",), 500)
    player.post("add", unit="Ork Boyz")
    page = player.html
    response = player.post("entry", htmx=True, index=0, unit="Ork Boyz", count="0",
                           anchor="entry-0")
    body = response.get_data(as_text=True)
    assert response.status_code == 422 and box_error(body) == SAID
    player.html = page
    response = player.post("entry", htmx=True, index=0, unit="Ork Boyz", count="20",
                           anchor="entry-0")
    body = response.get_data(as_text=True)
    assert response.status_code == 200 and box_error(body) is None and "size 20" in body


def test_every_boxes_words_name_its_range_and_what_is_kept(player: Player) -> None:
    player.start("actionhammer", "Cobalt", ("Cobalt Brigade",), 2000)
    player.post("add", unit="Line Troopers")
    box = re.search(r'<input id="count-0"[^>]*>', player.html, re.S)
    assert box is not None
    said = re.search(r'data-refused="([^"]*)"', box[0])
    assert said is not None
    assert re.fullmatch(r"Models: \d+ to \d+ for Line Troopers\. Not saved: the roster keeps "
                        r"\d+ models\.", html.unescape(said[1])), said[1]
    player.start("warstuff", "Patrol", (), 150)
    player.post("add", unit="Human Warrior")
    assert 'data-refused="Copies: 1 to 10000 for Human Warrior. Not saved: the roster keeps ' \
           '1 copy."' in player.html


def test_a_size_outside_the_units_range_is_still_saved_and_flagged(player: Player) -> None:
    """5 is a size, if not a legal one for Ork Boyz: kept, with the rule's own violation (a
    roster may be unfinished); only what is no size at all is refused."""
    player.start("op40k", "Waaagh", ("Orks",), 500)
    player.post("add", unit="Ork Boyz")
    assert player.post("entry", index=0, unit="Ork Boyz", count=5).status_code == 302
    assert yaml.safe_load(player.saved_text())["entries"][0]["count"] == 5
    assert "roster.count-bounds" in player.html and box_error(player.html) is None


BROKEN = ("format: 1\nsystem: op40k\nname: Waaagh\nfactions: [Orks]\nentries:\n"
          "  - unit: Ork Boyz\n    count: lots\n  - unit: Ork Boyzz\n")


def upload(client: FlaskClient, url: str, data: bytes, **fields: object) -> tuple[int, str]:
    page = client.get("/").get_data(as_text=True)
    body = {"csrf_token": csrf_of(page), "file": (io.BytesIO(data), "waaagh.yaml"), **fields}
    builder = EnvironBuilder(client.application, path=url, method="POST", data=body)
    try:
        response = client.open(builder)
    finally:
        builder.close()
    return response.status_code, html.unescape(response.get_data(as_text=True))


def both_problems(page: str) -> None:
    shape = ("waaagh.yaml:7: entries[0].count: expected a whole number from 1 to 10,000, "
             "found the text 'lots'")
    name = "waaagh.yaml:8: entries[1].unit: unknown unit 'Ork Boyzz' (did you mean 'Ork Boyz'?)"
    assert shape in page and name in page
    assert page.index(shape) < page.index(name)  # in the file's order


def test_a_broken_file_opened_lists_every_problem_and_keeps_the_text(
        client: FlaskClient) -> None:
    status, page = upload(client, "/import", BROKEN.encode())
    assert status == 422
    both_problems(page)
    assert "waaagh.yaml was not opened" in page
    kept = re.search(r'<textarea id="upload-text" readonly rows="10">(.*?)</textarea>', page,
                     re.S)
    assert kept is not None and kept[1] == BROKEN  # what was sent, to fix and send again


def test_a_broken_file_imported_lists_every_problem_and_keeps_the_roster(
        player: Player) -> None:
    player.start("op40k", "Waaagh", ("Orks",), 500)
    player.post("add", unit="Nobz")
    before = player.saved_text()
    status, page = upload(player.client, f"/r/{player.token}/import", BROKEN.encode(),
                          version=version_of(player.html))
    assert status == 422
    both_problems(page)
    assert "waaagh.yaml was not imported; the roster is unchanged" in page
    assert player.saved_text() == before


def test_the_creator_gives_the_cost_advice_as_the_cost_changes(
        player: Player, client: FlaskClient) -> None:
    player.start("warstuff", "Patrol", ("Fantasy",), 150)
    url = f"/r/{player.token}/design-cost"
    costly = html.unescape(client.get(url, query_string={
        "name": "Champion", "quality": 5, "rules": ["Elite"]}).get_data(as_text=True))
    assert "Costs <strong>80 pts</strong> a copy" in costly
    assert ("Champion costs 80 pts; the designers advise at most 75 pts a unit for balanced "
            "games.") in costly
    # advice, not a refusal, with the reading it comes from
    assert '<li class="warning" data-rule="warstuff.unit-over-advised">' in costly
    assert 'href="/rules-notes#warband-size-and-the-75-pts-advice"' in costly
    cheaper = client.get(url, query_string={"name": "Champion", "quality": 5, "rules": []})
    assert "advise" not in cheaper.get_data(as_text=True)  # gone when the cost comes down
    # the page drawn without script (Work out the cost) says the same, before saving
    player.post("design", name="Champion", quality=5, rules=["Elite"], preview="1")
    creator = re.search(r'<div id="design-cost".*?</div>', player.html, re.S)
    assert creator is not None and "the designers advise at most 75 pts" in creator[0]
    assert "designs" not in yaml.safe_load(player.saved_text())


def test_space_empires_boxes_show_their_defaults(player: Player) -> None:
    player.start("spaceempires", "Waaagh", ("Orks",))
    for key, value in (("poor_planets", 0), ("rich_planets", 0), ("homeworlds", 1),
                       ("treasury", 0)):
        box = re.search(rf'<input id="choice-{key}"[^>]*>', player.html, re.S)
        assert box is not None and f'value="{value}"' in box[0], key
    assert "(default" not in player.html
    player.post("choices", seed=7, homeworlds=2, rich_planets=0, poor_planets=0, treasury=0)
    box = re.search(r'<input id="choice-homeworlds"[^>]*>', player.html, re.S)
    assert box is not None and 'value="2"' in box[0]  # a value set shows as set


def seeds_for(library: Library, units: tuple[str, ...]) -> tuple[int, int]:
    """A seed that leaves an Orks empire recruiting `units` legal, and one that makes it
    illegal (the draw takes a chit the recruits need)."""
    system = get_system("spaceempires")
    catalog = library.catalog(system)
    legal = illegal = None
    for seed in range(1000):
        roster = Roster(system=system.id, name="x", factions=("Orks",),
                        choices={"seed": seed}, entries=tuple(RosterEntry(unit=u) for u in units))
        state = report(system, catalog, roster).status.state
        if state == "legal" and legal is None:
            legal = seed
        if state == "illegal" and illegal is None:
            illegal = seed
        if legal is not None and illegal is not None:
            return legal, illegal
    raise AssertionError("no seeds found")


def saved_seed(player: Player) -> int:
    seed = yaml.safe_load(player.saved_text())["choices"]["seed"]
    assert isinstance(seed, int)
    return seed


@pytest.mark.parametrize("htmx", [False, True])
def test_a_redraw_that_breaks_the_empire_asks_first(
        player: Player, library: Library, monkeypatch: pytest.MonkeyPatch, htmx: bool) -> None:
    good, bad = seeds_for(library, ("Bikeboyz",))
    player.start("spaceempires", "Waaagh", ("Orks",))
    player.post("choices", seed=good, homeworlds=1, rich_planets=0, poor_planets=0, treasury=0)
    player.post("add", unit="Bikeboyz")
    assert "<strong>Legal</strong>" in player.html
    page, before = player.html, player.saved_text()
    monkeypatch.setattr(builder, "new_seed", lambda: bad)
    response = player.post("redraw", htmx=htmx, key="seed")
    answer = html.unescape(response.get_data(as_text=True))
    assert response.status_code == 200 and player.saved_text() == before  # not kept silently
    assert "Not saved yet: the new draw makes the roster illegal" in answer
    assert f"Starting draw (seed {bad}): Space units: " in answer
    assert "Bikeboyz: 1 drawn at start + 1 recruited = 2 chits; the pile holds 1" in answer
    form = re.search(r'<form method="post" action="([^"]+)"[^>]*>((?:(?!</form>).)*Keep this '
                     r'draw</button>.*?)</form>', answer, re.S)
    assert form is not None and form[1] == f"/r/{player.token}/redraw"
    assert f'<input type="hidden" name="seed" value="{bad}">' in form[2]
    assert '<input type="hidden" name="key" value="seed">' in form[2]
    assert ">Keep the old draw</a>" in form[2]
    # "Keep the old draw": nothing was saved; "Keep this draw": saved as asked
    player.html = page
    response = player.post("redraw", htmx=htmx, key="seed", seed=bad)
    assert response.status_code in (200, 302) and saved_seed(player) == bad
    assert "Not saved yet" not in player.html


def test_a_redraw_that_keeps_the_empire_legal_is_saved_at_once(
        player: Player, library: Library, monkeypatch: pytest.MonkeyPatch) -> None:
    good, bad = seeds_for(library, ("Bikeboyz",))
    player.start("spaceempires", "Waaagh", ("Orks",))
    player.post("choices", seed=bad, homeworlds=1, rich_planets=0, poor_planets=0, treasury=0)
    player.post("add", unit="Bikeboyz")
    assert "<strong>Legal</strong>" not in player.html
    monkeypatch.setattr(builder, "new_seed", lambda: good)
    player.post("redraw", key="seed")
    assert saved_seed(player) == good and "<strong>Legal</strong>" in player.html
    # an empire already illegal is re-drawn as before, whatever the draw
    monkeypatch.setattr(builder, "new_seed", lambda: bad)
    player.post("choices", seed=good, homeworlds=0, rich_planets=0, poor_planets=0, treasury=0)
    assert "<strong>Legal</strong>" not in player.html
    player.post("redraw", key="seed")
    assert saved_seed(player) == bad
