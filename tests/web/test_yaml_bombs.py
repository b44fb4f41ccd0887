"""The YAML bombs of the security review (issue 37, items 2 and 5), sent as the attacker sent
them. Each is refused before its aliases are expanded, in words that name the file, line and
key (or the box), and the answer stays small: the work a request does is bounded by what its
text expands to, not by what it looks like. None of these asserts time; each asserts the size
of what was written, which is what the expansion cost."""

from __future__ import annotations

import html
import io
import re

from flask.testing import EnvironBuilder, FlaskClient
from studiotools import boxes, form_page, start, textarea
from webtools import csrf_of
from yamlbombs import anchor_bomb, roster_with_packs, unit_pack

EXPANDED = "once its aliases are expanded (an alias counts its anchor's"
# a page of the studio is about 40 KB; a refused bomb adds itself (kept as typed) at most
# three times over (the box, the pack's text, the problem's words): never its expansion
SMALL = 400_000


def test_a_form_box_holding_an_alias_bomb_is_kept_as_typed_and_named_beside_it(
        client: FlaskClient) -> None:
    # 50 KB that the form's YAML writer expanded to 5 MB (2.9 s of CPU) on every post
    bomb = anchor_bomb(50_000, 100)
    link, page = form_page(client)
    box = "datasheets-0-upgrades-0-effects"
    assert box in boxes(page)
    answer = client.post(link + "/form", data=boxes(page) | {box: bomb, "action": "check"})
    said = answer.get_data(as_text=True)
    assert answer.status_code == 200 and len(said) < SMALL
    assert boxes(said)[box] == bomb  # what the player typed is still in its box
    found = re.search(rf'<li data-field="pf-{box}"[^>]*><a href="#pf-{box}">'
                      r'house-brigade\.yaml:(\d+): datasheets\[0\]\.upgrades\[0\]\.effects\[2\]: '
                      r'the file holds more than 131,072 characters ([^<]*)</a>', said)
    assert found is not None, said[-3000:]
    assert "alias counts its anchor&#39;s text again each time it repeats it" in found[2]
    assert "repeat less, or split it" in found[2]
    # the live check (htmx) says the same, and the save keeps the text as typed, unexpanded
    live = client.post(link + "/form/check", data=boxes(page) | {box: bomb})
    assert len(live.data) < SMALL and f'data-field="pf-{box}"' in live.get_data(as_text=True)
    # a save is refused: saved, the box would hold a quoted text, not what was typed
    saved = client.post(link + "/form", data=boxes(page) | {box: bomb, "action": "save"})
    said = saved.get_data(as_text=True)
    assert saved.status_code == 422 and len(said) < SMALL
    assert "Not saved: a box holds more than a pack can" in said and boxes(said)[box] == bomb
    assert "*a" not in client.get(link + "/export.yaml").get_data(as_text=True)


def test_the_boxes_of_one_post_count_together(client: FlaskClient) -> None:
    # each box alone inside the bound, all of them together 24 times over it: the later ones
    # are kept as typed, so what is written out stays about the size of what was posted
    link, page = form_page(client)
    piece = anchor_bomb(2_000, 60)  # 2 KB that reads as 122,000 characters
    posted = boxes(page) | {f"datasheets-0-_extra-k{i}": piece for i in range(24)}
    answer = client.post(link + "/form", data=posted | {"action": "check"})
    said = answer.get_data(as_text=True)
    assert answer.status_code == 200 and len(said) < SMALL
    refused = re.findall(r'<li data-field="pf-datasheets-0-_extra-k(\d+)"[^>]*><a [^>]*>'
                         r'[^<]*: the file holds more than 131,072 characters', said)
    assert refused == [str(i) for i in range(1, 24)]  # the first fits, alone


def test_a_saved_pack_with_a_bomb_is_not_expanded_by_its_form_page(client: FlaskClient) -> None:
    # saved from the YAML view (70 KB, within a pack's size), the form page wrote it out in
    # full on every GET: 250 MB, 144 s of CPU and 316 MB of memory
    link = start(client)
    page = client.get(link).get_data(as_text=True)
    text = textarea(page) + "bomb: " + anchor_bomb(50_000, 5_000) + "\n"
    line = text.count("\n")
    saved = client.post(link, data={"csrf_token": csrf_of(page), "name": "House Brigade",
                                     "text": text, "pack_version": "1"})
    assert saved.status_code == 302  # kept as typed, problems and all
    form = client.get(link + "/form")
    said = form.get_data(as_text=True)
    assert form.status_code == 200 and len(said) < SMALL
    assert re.search(rf"The form can't show this pack: house-brigade\.yaml:{line}: bomb\[\d\]: "
                     rf"the file holds more than 131,072 characters {re.escape(EXPANDED)}",
                     html.unescape(said))
    assert boxes(said)["text"] == text  # carried along unchanged, to fix in the YAML view
    view = client.get(link).get_data(as_text=True)  # the YAML view's check says the same
    assert len(view) < SMALL
    assert re.search(rf"house-brigade\.yaml:{line}: bomb\[\d\]: the file holds more", view)


def test_the_check_refuses_a_pack_of_units_sharing_one_aliased_upgrade_list(
        client: FlaskClient) -> None:
    # 119 KB that read as half a million values: 2.6 s per check, and a page of 700 units
    link = start(client, "op40k")
    page = client.get(link).get_data(as_text=True)
    answer = client.post(link + "/check", data={"csrf_token": csrf_of(page), "name": "Bombers",
                                                "pack_version": "1", "text": unit_pack()})
    said = answer.get_data(as_text=True)
    assert answer.status_code == 200 and len(said) < 20_000
    assert "1 problem to fix" in said
    assert re.search(r"bombers\.yaml:\d+: units\[\d+\]\.upgrades: the file holds more than "
                     r"131,072 characters once its aliases are expanded", said)


def test_a_roster_carrying_bomb_packs_is_refused_with_the_packs_line(
        client: FlaskClient) -> None:
    # three such packs in one roster file: 5-6 s to import, then 5-8 s on each worker's
    # first view of the roster
    text = roster_with_packs([unit_pack(prefix=f"P{i} ") for i in range(3)])
    page = client.get("/").get_data(as_text=True)
    builder = EnvironBuilder(client.application, path="/import", method="POST", data={
        "csrf_token": csrf_of(page), "file": (io.BytesIO(text.encode()), "bombs.yaml")})
    try:
        answer = client.open(builder)
    finally:
        builder.close()
    said = answer.get_data(as_text=True)
    assert answer.status_code == 422
    assert len(said) < len(text) + 60_000  # the text sent, kept to fix: nothing expanded
    assert re.search(r"bombs\.yaml:\d+: packs\[0\]\.text: the pack &#39;Pack 0&#39; does not "
                     r"load: pack-0\.yaml:\d+: units\[\d+\]\.upgrades: the file holds more "
                     r"than 131,072 characters once its aliases are expanded", said)


def test_a_box_holding_an_alias_of_itself_is_named_not_a_500(client: FlaskClient) -> None:
    link, page = form_page(client)
    box = "datasheets-0-upgrades-0-effects"
    answer = client.post(link + "/form", data=boxes(page) | {box: "&x [*x]", "action": "check"})
    said = answer.get_data(as_text=True)
    assert answer.status_code == 200 and "Traceback" not in said
    assert boxes(said)[box] == "&x [*x]"
    assert "the alias *x is inside its own anchor &amp;x, so it repeats without end" in said
