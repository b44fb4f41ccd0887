"""A change made with htmx is answered with only the parts of the page it changed (out-of-band
swaps); applied to the page the player had, they give the page a fresh load shows."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import lxml.html
import pytest
from flask import Flask
from flask.testing import FlaskClient
from markupsafe import Markup
from webtools import Player, csrf_of

from listbuilder.web.builder import parts

# -- the comparison on its own ----------------------------------------------------------------

ITEM = '<li {{ part_id(id) }}>{{ text }}</li>'
LIST = ('<ol {{ part_id("list") }}>{% for id, text in items %}{% include "item.html" %}'
        '{% endfor %}</ol>')
HEAD = '<h2 {{ part_id("head") }}>{{ items|length }} items</h2>'
PARTS = (parts.Part("head", "head.html", lambda c: len(c["items"])),
         parts.Items("list", "list.html", "item.html", lambda c: [
             parts.Item(id, {"id": id, "text": text}, text) for id, text in c["items"]]))


@pytest.fixture()
def small() -> Iterator[Flask]:
    """An app with a heading part and a list part of items, drawn from three templates."""
    from jinja2 import DictLoader

    from listbuilder.web.templating import part_id

    small = Flask("small")
    small.jinja_loader = DictLoader({"item.html": ITEM, "list.html": LIST, "head.html": HEAD})
    small.jinja_env.globals["part_id"] = part_id
    with small.test_request_context("/"):
        yield small


def swaps(before: list[tuple[str, str]], after: list[tuple[str, str]],
          always: tuple[str, ...] = ()) -> list[str]:
    old = parts.reads_of(PARTS, {"items": before})
    out, reads = parts.changes(PARTS, old, {"items": after}, always)
    assert reads == parts.reads_of(PARTS, {"items": after})
    return [str(m) for m in out]


ABC = [("e0", "a"), ("e1", "b"), ("e2", "c")]


def test_only_the_changed_item_is_sent(small: Flask) -> None:
    assert swaps(ABC, [("e0", "a"), ("e1", "B"), ("e2", "c")]) == [
        '<li id="e1" hx-swap-oob="true">B</li>']
    assert swaps(ABC, ABC) == []


def test_items_added_at_the_end_are_appended_and_dropped_ones_deleted(small: Flask) -> None:
    assert swaps(ABC[:1], ABC[:2]) == [
        '<h2 id="head" hx-swap-oob="true">2 items</h2>',
        '<div hx-swap-oob="beforeend:#list"><li id="e1">b</li></div>']
    assert swaps(ABC, ABC[:1]) == [
        '<h2 id="head" hx-swap-oob="true">1 items</h2>',
        '<div id="e1" hx-swap-oob="delete"></div>', '<div id="e2" hx-swap-oob="delete"></div>']


def test_items_moved_or_inserted_send_the_list_whole(small: Flask) -> None:
    whole = '<ol id="list" hx-swap-oob="true"><li id="e1">b</li><li id="e0">a</li></ol>'
    assert swaps(ABC[:2], ABC[1::-1]) == [whole]
    assert swaps(ABC[1:2], ABC[:2])[1].startswith('<ol id="list" hx-swap-oob="true">')


def test_parts_asked_for_are_sent_even_when_they_read_the_same(small: Flask) -> None:
    assert swaps(ABC, ABC, always=("e0", "head", "nothing")) == [
        '<h2 id="head" hx-swap-oob="true">3 items</h2>', '<li id="e0" hx-swap-oob="true">a</li>']


def test_only_the_root_of_a_part_drawn_alone_swaps_itself(small: Flask) -> None:
    """htmx swaps every marked element of an answer, nested ones too: a list sent whole must
    not mark its items."""
    drawn = swaps(ABC[:2], ABC[1::-1])[0]
    assert drawn.count("hx-swap-oob") == 1


# -- through the app --------------------------------------------------------------------------

def apply_swaps(before: str, answer: str) -> lxml.html.HtmlElement:
    """What htmx does with the answer: each out-of-band element replaces the element of its
    id, is appended into the one named, or deletes it; then the script sets every form's
    version to the page's."""
    doc = lxml.html.fromstring(before)
    for swap in lxml.html.fragments_fromstring(answer):
        how = swap.get("hx-swap-oob")
        if swap.tag == "title" or how is None:
            continue
        del swap.attrib["hx-swap-oob"]
        if how == "true":
            old = doc.get_element_by_id(swap.get("id"))
            old.getparent().replace(old, swap)
        elif how == "delete":
            old = doc.get_element_by_id(swap.get("id"))
            old.getparent().remove(old)
        else:
            assert how.startswith("beforeend:#"), how
            target = doc.get_element_by_id(how.split("#", 1)[1])
            for child in list(swap):
                target.append(child)
    version = doc.get_element_by_id("saved-version").get("data-version")
    for field in doc.get_element_by_id("main").xpath(".//input[@name='version']"):
        field.set("value", version)
    return doc


def main_of(doc: lxml.html.HtmlElement) -> str:
    main = doc.get_element_by_id("main")
    for details in main.xpath(".//details[@open]"):
        del details.attrib["open"]  # the entry just changed is shown unfolded
    for said in main.xpath(".//*[@id='said']"):
        said.text = ""  # what a change says to screen readers, not on a fresh page
    html = lxml.html.tostring(main, encoding="unicode")
    html = re.sub(r'(name="csrf_token"[^>]*value=")[^"]+', r"\1", html)  # signed with the time
    return re.sub(r">\s+<", "><", re.sub(r"\s+", " ", html))


def answer(player: Player, action: str, **data: object) -> tuple[int, str]:
    before = player.html
    response = player.post(action, htmx=True, **data)
    body = response.get_data(as_text=True)
    assert response.headers.get("HX-Reswap") == "none" and "<main" not in body, action
    fresh = player.client.get(f"/r/{player.token}").get_data(as_text=True)
    if response.status_code == 200:
        got, want = main_of(apply_swaps(before, body)), main_of(lxml.html.fromstring(fresh))
        assert got == want, _debug_diff(got, want)
    player.html = fresh
    SIZES.append((len(body), len(fresh)))
    return response.status_code, body


SIZES: list[tuple[int, int]] = []  # (answer, whole page) of each change, in bytes


def test_every_kind_of_change_answers_in_parts_that_rebuild_the_page(player: Player) -> None:
    player.start("actionhammer", "Cobalt", ("Cobalt Brigade",), 2000)
    SIZES.clear()
    for unit in ("Line Troopers", "Brigade Captain", "Recon Marshal", "Line Troopers"):
        status, body = answer(player, "add", unit=unit)
        assert status == 200 and 'hx-swap-oob="beforeend:#entry-list"' in body
    status, body = answer(player, "entry", index=0, unit="Line Troopers", count=9,
                          anchor="entry-0")
    assert status == 200 and 'id="entry-0"' in body and 'id="entry-3"' not in body
    assert SIZES[-1][0] < SIZES[-1][1] / 4, SIZES[-1]  # one entry, the totals, the text
    status, body = answer(player, "join", index=2, unit="Recon Marshal", target="0:Line Troopers",
                          anchor="entry-2")
    assert status == 200
    status, body = answer(player, "move", index=3, unit="Line Troopers", step=-1)
    assert status == 200
    status, body = answer(player, "reorder", index=2, unit="Line Troopers", to=0)
    assert status == 200
    # a Leader's copy, on its own, comes last: appended, as an Add is (a copy made higher up
    # sends the list whole, as a move does: EVERY_GAME below)
    status, body = answer(player, "duplicate-entry", index=3, unit="Recon Marshal",
                          anchor="entry-4")
    assert status == 200 and 'hx-swap-oob="beforeend:#entry-list"' in body
    status, body = answer(player, "remove", index=2, unit="Brigade Captain")
    assert status == 200
    status, body = answer(player, "settings", name="Cobalt <b>x</b>",
                          factions=["Cobalt Brigade"], points_limit=1000)
    assert "&lt;b&gt;x&lt;/b&gt;" in body and "<b>x</b>" not in body
    assert re.search(r'id="said" hx-swap-oob="true"[^>]*>Saved: the roster&#39;s name', body)
    assert all(sent < whole / 2 for sent, whole in SIZES), SIZES


# Changes of each game's own kinds, each answer compared with a fresh page (`answer`): right
# only if every part declares all it reads (roster_parts.py) and nothing outside the parts
# changes with the roster.
EVERY_GAME: dict[str, tuple[tuple[str, str, tuple[str, ...], int | None],
                            list[tuple[str, dict[str, object]]]]] = {
    "hammerwars": (("hammerwars", "Temple Guard", ("Lizardmen",), None), [
        ("choices", {"goal": "Duty"}), ("add", {"unit": "Assault Infantry"}),
        ("add", {"unit": "Assault Infantry"}), ("choices", {"goal": "Oppression"}),
        ("remove", {"index": 0, "unit": "Assault Infantry"})]),
    "op40k": (("op40k", "Waaagh", ("Orks",), 500), [
        ("add", {"unit": "Ork Boyz"}), ("add", {"unit": "Nobz"}),
        ("entry", {"index": 0, "unit": "Ork Boyz", "count": 30, "anchor": "entry-0"}),
        ("settings", {"name": "Waaagh 2", "factions": ["Orks"], "points_limit": 300}),
        ("move", {"index": 1, "unit": "Nobz", "step": -1}),
        ("duplicate-entry", {"index": 1, "unit": "Ork Boyz", "anchor": "entry-2"}),
        ("reorder", {"index": 2, "unit": "Ork Boyz", "to": 0}),
        ("remove", {"index": 1, "unit": "Nobz"}), ("remove", {"index": 0, "unit": "Ork Boyz"})]),
    "warstuff": (("warstuff", "Patrol", ("Fantasy",), 150), [
        ("add", {"unit": "Skink Warrior"}),
        ("design", {"name": "Ranger", "quality": 3, "rules": ["Pathfinder"]}),
        ("design/remove", {"name": "Ranger"}),
        ("settings", {"name": "Patrol", "factions": [], "points_limit": 150})]),
    "spaceempires": (("spaceempires", "Waaagh", ("Orks",), None), [
        ("redraw", {"key": "seed"}), ("add", {"unit": "Goffs Ork Boyz"}),
        ("choices", {"seed": 7, "homeworlds": 1, "rich_planets": 2, "treasury": 3}),
        ("remove", {"index": 0, "unit": "Goffs Ork Boyz"})]),
}


def test_no_change_alters_the_page_outside_its_parts(player: Player) -> None:
    for start, steps in EVERY_GAME.values():
        player.start(*start)
        for action, data in steps:
            status, _ = answer(player, action, **data)
            assert status == 200, (start[0], action)


def test_a_refused_change_answers_with_the_notice_and_the_form_put_back(
        player: Player) -> None:
    player.start("op40k", "Waaagh", ("Orks",), 500)
    player.post("add", unit="Ork Boyz")
    status, body = answer(player, "entry", index=0, unit="Ork Boyz", count=0, anchor="entry-0")
    assert status == 422
    ids = re.findall(r'id="([^"]+)" hx-swap-oob="true"', body)
    assert sorted(ids) == ["entry-0", "notices", "saved-version"]
    assert "Not changed" in body and 'value="15"' in body  # the saved count is put back


def test_a_stale_page_still_gets_the_whole_latest_page_to_retry_from(
        player: Player, client: FlaskClient) -> None:
    player.start("op40k", "Waaagh", ("Orks",), 500)
    stale = player.html
    player.post("add", unit="Ork Boyz")
    player.html = stale
    response = player.post("add", htmx=True, unit="Nobz")
    body = response.get_data(as_text=True)
    assert response.status_code == 409 and '<main id="main">' in body
    assert "Apply my change to the latest version" in body and 'value="Nobz"' in body
    response = client.post(f"/r/{player.token}/add", data={"version": 2, "unit": "Nobz"},
                           headers={"HX-Request": "true"})
    assert response.status_code == 400  # no CSRF token: refused as before
    assert csrf_of(stale)



def change_in_place(player: Player, doc: lxml.html.HtmlElement, action: str,
                    data: dict[str, object]) -> lxml.html.HtmlElement:
    """Post a change with htmx and apply its answer to the page the player has, as htmx does."""
    response = player.post(action, htmx=True, **data)
    assert response.status_code == 200, action
    doc = apply_swaps(lxml.html.tostring(doc, encoding="unicode"), response.get_data(as_text=True))
    player.html = lxml.html.tostring(doc, encoding="unicode")
    return doc


def test_changes_in_a_row_rebuild_the_page_as_a_browser_keeps_it(player: Player) -> None:
    """No page load between changes, as in a browser: each answer is worked out against the
    page the last answer left (the app keeps it), and applied to the page as it stands."""
    player.start("op40k", "Waaagh", ("Orks",), 500)
    doc = lxml.html.fromstring(player.html)
    steps = [("add", {"unit": "Ork Boyz"}), ("add", {"unit": "Nobz"}), ("add", {"unit": "Trukk"}),
             ("entry", {"index": 0, "unit": "Ork Boyz", "count": 40, "anchor": "entry-0"}),
             ("entry", {"index": 0, "unit": "Ork Boyz", "count": 20, "upgrades": ["Boss Nob"],
                        "anchor": "entry-0"}),
             ("move", {"index": 2, "unit": "Trukk", "step": -1}),
             ("remove", {"index": 0, "unit": "Ork Boyz"})]
    for action, data in steps:
        doc = change_in_place(player, doc, action, data)
    fresh = player.client.get(f"/r/{player.token}").get_data(as_text=True)
    got, want = main_of(doc), main_of(lxml.html.fromstring(fresh))
    assert got == want, _debug_diff(got, want)


def _debug_diff(a: str, b: str) -> str:
    import difflib
    return "\n".join(difflib.unified_diff(a.replace("><", ">\n<").splitlines(),
                                          b.replace("><", ">\n<").splitlines(), lineterm="", n=1))


def test_a_part_is_drawn_only_when_what_it_reads_changed(
        player: Player, app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    """A part a change could not alter (the settings form when a unit is added, the Print menu
    always, each unit to add whose row reads the same) is not drawn at all; and the page an
    answer leaves reads what a fresh page's parts read, however many changes in a row it
    was worked out from."""
    from listbuilder.web import services
    from listbuilder.web.builder.page import roster_context
    from listbuilder.web.builder.roster_parts import ROSTER_PARTS

    drawn: list[str] = []
    draw = parts.draw
    answered: list[parts.Reads] = []  # what the parts of each answer's page read
    changes = parts.changes

    def spy(template: str, ctx: Any, swapped: str, **more: Any) -> Markup:
        drawn.append(swapped)
        return draw(template, ctx, swapped, **more)

    def reads_kept(*args: Any, **kwargs: Any) -> Any:
        found = changes(*args, **kwargs)
        answered.append(found[1])
        return found

    monkeypatch.setattr(parts, "draw", spy)
    monkeypatch.setattr(parts, "changes", reads_kept)
    player.start("op40k", "Waaagh", ("Orks",), 500)
    doc = lxml.html.fromstring(player.html)
    steps = [("add", {"unit": "Ork Boyz"}), ("add", {"unit": "Nobz"}),
             ("settings", {"name": "Big Waaagh", "factions": ["Orks"], "points_limit": 750}),
             ("entry", {"index": 0, "unit": "Ork Boyz", "count": 30, "anchor": "entry-0"}),
             ("remove", {"index": 1, "unit": "Nobz"})]
    each: list[set[str]] = []
    for action, data in steps:
        drawn.clear()
        doc = change_in_place(player, doc, action, data)
        each.append(set(drawn))
        # worked out as in the change's own request (its anchor unfolds the entry changed)
        with app.test_request_context(f"/r/{player.token}/{action}", method="POST", data=data):
            opened = services.roster_by_edit_token(player.token)
            kept = answered[-1]
            fresh = parts.reads_of(ROSTER_PARTS, {
                **roster_context(opened, player.token), "said": kept and kept["said"]})
        assert kept == fresh, action
    assert "Big Waaagh" in player.html and 'value="750"' in player.html
    assert not any("print-slot" in d or "u-trukk" in d for d in each), each
    assert ["settings-part" in d for d in each] == [False, False, True, False, False]
    assert ["u-nobz" in d for d in each] == [False, True, False, False, True]
    # the quick-resolve panel is drawn whole when it comes (the first unit); after that only
    # its attacker lists, when the roster's units change, so a target picked stays
    assert ["resolve-slot" in d for d in each] == [True, False, False, False, False]
    assert ["rs-attackers" in d for d in each] == [False, True, False, True, True]
    # always: the notices, what a screen reader hears, and the version (in the heading when
    # that is drawn)
    assert all({"said", "notices"} <= d and d & {"saved-version", "roster-title"}
               for d in each), each


def _random_change(rng: random.Random, doc: lxml.html.HtmlElement
                   ) -> tuple[str, dict[str, object]]:
    """A change a player could make on the page as it stands, drawn by `rng`."""
    units = doc.xpath("//ul[@id='unit-rows']//input[@name='unit']/@value")
    entries = doc.xpath("//ol[@id='entry-list']/li")
    kinds = ["add"] * 3 + (["entry"] * 4 + ["remove", "move", "join", "reorder", "duplicate"]
                           if entries else [])
    kind = rng.choice(kinds)
    if kind == "add" or not entries:
        return "add", {"unit": rng.choice(units)}
    li = rng.choice(entries)
    i = int(li.get("id").removeprefix("entry-"))
    unit = li.xpath(".//input[@name='unit']/@value")[0]
    if kind == "remove":
        return "remove", {"index": i, "unit": unit}
    if kind == "move":
        return "move", {"index": i, "unit": unit, "step": rng.choice((-1, 1))}
    if kind == "reorder":  # sometimes to a place that is not there: refused
        return "reorder", {"index": i, "unit": unit, "to": rng.randint(0, len(entries))}
    if kind == "duplicate":  # refused where an entry counts copies
        return "duplicate-entry", {"index": i, "unit": unit, "anchor": f"entry-{i + 1}"}
    targets = li.xpath(f".//select[@id='join-{i}']/option/@value")
    if kind == "join" and targets:
        return "join", {"index": i, "unit": unit, "target": rng.choice(targets),
                        "anchor": f"entry-{i}"}
    count = li.xpath(f".//input[@id='count-{i}']")
    upgrades = li.xpath(".//input[@name='upgrades' and @type='checkbox']/@value")
    low = int(count[0].get("min")) if count else 1
    return "entry", {"index": i, "unit": unit, "anchor": f"entry-{i}",
                     "count": rng.randint(low, low + 12) if count else 1,
                     "upgrades": rng.sample(upgrades, rng.randint(0, len(upgrades)))}


@pytest.mark.parametrize("game", [
    ("op40k", "Waaagh", ("Orks",), 400),
    ("actionhammer", "Cobalt", ("Cobalt Brigade",), 300),
    ("warstuff", "Patrol", ("Fantasy",), 150),
])
def test_random_changes_in_a_row_rebuild_the_page(
        player: Player, game: tuple[str, str, tuple[str, ...], int]) -> None:
    """Sixty changes drawn at random (adds, counts, upgrades, joins, moves, copies, removes, some
    refused), applied in place one after another as a browser does, many parts kept from
    the page before each time: every few changes the page as rebuilt is the page a fresh
    load gives."""
    rng = random.Random(f"{game[0]}-7")
    player.start(*game)
    doc = lxml.html.fromstring(player.html)
    statuses = []
    for step in range(60):
        action, data = _random_change(rng, doc)
        response = player.post(action, htmx=True, **data)
        statuses.append(response.status_code)
        assert response.status_code in (200, 422), (step, action, data)
        doc = apply_swaps(lxml.html.tostring(doc, encoding="unicode"),
                          response.get_data(as_text=True))
        player.html = lxml.html.tostring(doc, encoding="unicode")
        if step % 6 == 5:
            fresh = player.client.get(f"/r/{player.token}").get_data(as_text=True)
            got, want = main_of(doc), main_of(lxml.html.fromstring(fresh))
            assert got == want, (step, action, data, _debug_diff(got, want))
    assert statuses.count(200) >= 40, statuses


def test_the_part_and_form_helpers_mark_nothing_from_outside_safe(app: Flask) -> None:
    """part_id() and hidden_base() return Markup, so whatever they put in must be escaped: an
    id and a version that are not ours."""
    from jinja2.runtime import new_context

    from listbuilder.web.templating import hidden_base, part_id

    env = app.jinja_env
    hostile = '<script>x</script>" onclick="x'
    with app.test_request_context("/"):
        for swapped in ("", hostile):
            context = new_context(env, "t", {}, {"swap_part": swapped, "version": hostile})
            drawn = str(part_id(context, hostile))
            assert "<script>" not in drawn and drawn.count('"') == (4 if swapped else 2)
            fields = str(hidden_base(context))
            assert "<script>" not in fields and fields.count("<input") == 2


def test_the_forms_hidden_fields_are_made_once_a_request_for_each_version(app: Flask) -> None:
    """An answer draws some five forms: their hidden fields are made once for each version it
    shows, each form still carrying its own version and the request's token."""
    import re

    from jinja2.runtime import new_context

    from listbuilder.web.templating import hidden_base

    env = app.jinja_env
    with app.test_request_context("/"):
        drawn = {version: hidden_base(new_context(env, "t", {}, {"version": version}))
                 for version in (3, 4)}
        again = hidden_base(new_context(env, "t", {}, {"version": 3}))
    assert again is drawn[3]
    for version, fields in drawn.items():
        assert f'name="version" value="{version}"' in fields
    tokens = {re.search(r'name="csrf_token" value="([^"]+)"', str(f))[1]  # type: ignore[index]
              for f in drawn.values()}
    assert len(tokens) == 1
    with app.test_request_context("/"):
        later = hidden_base(new_context(env, "t", {}, {"version": 3}))
    assert later is not drawn[3]  # a new request makes its own
