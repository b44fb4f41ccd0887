"""The studio's form view through the test client, as a browser without JavaScript uses it:
boxes made from the game's schema, Add and Remove drawing the form again, a save with the
YAML view's version check, values that don't parse kept and named beside their box, and the
switch between the views losing nothing."""

from __future__ import annotations

import html
import re

from flask.testing import FlaskClient
from studiotools import boxes, form_page, pack_version, textarea
from webtools import csrf_of

from listbuilder.engine.library import Library
from listbuilder.engine.packs import MAX_PACK_BYTES
from listbuilder.engine.registry import get_system


def post(client: FlaskClient, link: str, page: str, action: str, **changes: str):  # type: ignore[no-untyped-def]
    data = boxes(page) | changes
    data["action"] = action
    return client.post(link + "/form", data=data)


def test_the_form_view_shows_the_pack_as_boxes_shaped_by_its_game(client: FlaskClient) -> None:
    _link, page = form_page(client)
    shown = boxes(page)
    assert shown["datasheets-1-save"] == "5" and shown["datasheets-0-keywords"] == \
        "Leader, Infantry"
    assert re.search(r'<input type="number"[^>]*name="datasheets-1-save"[^>]*min="2" max="6"',
                     page)
    assert re.search(r'<input type="text"[^>]*name="datasheets-0-name"[^>]*maxlength="80"', page)
    assert '<legend>Weapon 2: Blade</legend>' in page
    assert re.search(r'value="add:datasheets-0-weapons"[^>]*>Add a weapon</button>', page)
    assert "Inches (1 to 200), or Melee." in page
    assert 'aria-pressed="true">Form</button>' in page and "No problems" in page
    assert "<script>" not in page and ' style="' not in page  # the CSP forbids them
    hammer = form_page(client, "hammerwars")[1]
    armor = re.search(r'<select id="pf-units-0-armor"[^>]*>(.*?)</select>', hammer, re.S)
    assert armor is not None
    assert re.findall(r"<option[^>]*>(\w+)</option>", armor[1]) == ["Light", "Medium", "Heavy"]
    assert "<option selected>Medium</option>" in armor[1]
    assert boxes(hammer)["units-0-attacks-0-light"] == "3"


def test_a_unit_is_built_with_add_and_saved_without_javascript(client: FlaskClient) -> None:
    link, page = form_page(client)
    added = post(client, link, page, "add:datasheets")
    page = added.get_data(as_text=True)
    assert added.status_code == 200 and "Not saved yet" in page
    assert re.search(r'id="pf-datasheets-2-name"[^>]*autofocus', page)  # where to type next
    unit = {"datasheets-2-name": "Grots", "datasheets-2-faction": "My Faction",
            "datasheets-2-move": "6", "datasheets-2-save": "6", "datasheets-2-wounds": "1",
            "datasheets-2-morale": "5", "datasheets-2-control": "1",
            "datasheets-2-models-min": "10", "datasheets-2-models-max": "20",
            "datasheets-2-pts": "5"}
    page = post(client, link, page, "add:datasheets-2-weapons", **unit).get_data(as_text=True)
    assert re.search(r'id="pf-datasheets-2-weapons-0-name"[^>]*autofocus', page)
    assert boxes(page)["datasheets-2-name"] == "Grots"  # what was typed stays
    weapon = {"datasheets-2-weapons-0-name": "Slugga", "datasheets-2-weapons-0-range": "12",
              "datasheets-2-weapons-0-att": "1", "datasheets-2-weapons-0-sk": "5",
              "datasheets-2-weapons-0-ap": "0"}
    page = post(client, link, page, "check", **weapon).get_data(as_text=True)
    assert "No problems" in page and "Grots" in page
    assert re.search(r"Grots</a></th><td>My Faction</td><td>50 pts</td>", page)
    saved = post(client, link, page, "save")
    assert saved.status_code == 302 and saved.headers["Location"].endswith("/form?saved=2")
    text = client.get(link + "/export.yaml").get_data(as_text=True)
    assert text.startswith("# A faction pack for ActionHammer")  # its opening comments kept
    assert "  - name: Grots\n" in text
    assert "      - {name: Slugga, range: 12, att: 1, sk: 5, ap: 0}\n" in text
    yaml_view = client.get(link).get_data(as_text=True)
    assert textarea(yaml_view) == text


def test_remove_leaves_one_item_out(client: FlaskClient) -> None:
    link, page = form_page(client)
    answer = post(client, link, page, "remove:datasheets-0-weapons-0")
    page = answer.get_data(as_text=True)
    assert "Weapon 1: Blade" in page and "Sidearm" not in boxes(page).values()
    assert re.search(r'id="pf-datasheets-0-weapons-add"[^>]*autofocus', page)
    page = post(client, link, page, "remove:datasheets-0").get_data(as_text=True)
    assert boxes(page)["datasheets-0-name"] == "My Troops"


def test_a_bad_value_is_kept_and_named_beside_its_box(client: FlaskClient) -> None:
    link, page = form_page(client)
    data = boxes(page) | {"datasheets-1-save": "abc", "datasheets-1-morale": "9"}
    said = client.post(link + "/form/check", data=data).get_data(as_text=True)
    assert "2 problems to fix" in said
    assert 'data-field="pf-datasheets-1-save"' in said
    assert re.search(r'<a href="#pf-datasheets-1-morale">house-brigade\.yaml:\d+: '
                     r'datasheets\[1\]\.morale: must be 2 to 6, got 9</a>', said)
    saved = client.post(link + "/form", data=data | {"action": "save"})
    assert saved.status_code == 302  # kept as typed, problems and all, as the YAML view keeps
    text = client.get(link + "/export.yaml").get_data(as_text=True)
    assert "    save: abc\n" in text
    line = text.splitlines().index("    save: abc") + 1
    page = client.get(link + "/form").get_data(as_text=True)
    assert f"house-brigade.yaml:{line}: datasheets[1].save:" in page
    box = re.search(r'<input type="text" id="pf-datasheets-1-save"[^>]*>', page)
    assert box is not None and 'value="abc"' in box[0] and 'aria-invalid="true"' in box[0]
    assert "pf-datasheets-1-save-error" in box[0]
    assert re.search(r'<small id="pf-datasheets-1-save-error" class="error" data-mark>', page)


def test_a_stale_save_keeps_what_the_player_typed(client: FlaskClient) -> None:
    link, page = form_page(client)
    first = post(client, link, page, "save", **{"datasheets-1-pts": "11"})
    assert first.status_code == 302
    stale = post(client, link, page, "save", **{"datasheets-1-pts": "12"})
    answer = stale.get_data(as_text=True)
    assert stale.status_code == 409 and "saved elsewhere" in answer
    assert boxes(answer)["datasheets-1-pts"] == "12" and pack_version(answer) == 2
    again = post(client, link, answer, "save")
    assert again.status_code == 302
    assert "    pts: 12\n" in client.get(link + "/export.yaml").get_data(as_text=True)


def test_switching_views_loses_nothing(client: FlaskClient) -> None:
    link, page = form_page(client)
    # unchanged boxes give back the saved text as written, comments and all
    same = post(client, link, page, "yaml").get_data(as_text=True)
    assert textarea(same) == get_system("actionhammer").pack_starter()
    assert "Not saved yet" not in same
    changed = post(client, link, page, "yaml", **{"datasheets-1-pts": "13"})
    said = changed.get_data(as_text=True)
    assert "    pts: 13\n" in textarea(said) and "Not saved yet" in said
    # the YAML view's unsaved text, drawn as boxes
    text = textarea(said).replace("pts: 13", "pts: 14")
    answer = client.post(link + "/form", data={"csrf_token": csrf_of(said), "name": "House",
                                                "text": text, "pack_version": "1",
                                                "action": "form"})
    page = answer.get_data(as_text=True)
    assert boxes(page)["datasheets-1-pts"] == "14" and "Not saved yet" in page


def test_a_text_the_form_cannot_show_is_said_and_carried_unchanged(client: FlaskClient) -> None:
    link, page = form_page(client)
    broken = "datasheets:\n  - name: [unclosed\n"
    answer = client.post(link + "/form", data={"csrf_token": csrf_of(page), "name": "House",
                                                "text": broken, "pack_version": "1",
                                                "action": "form"})
    page = answer.get_data(as_text=True)
    assert "The form can't show this pack: house.yaml:3: (top): not valid YAML" in page
    back = post(client, link, page, "yaml")
    assert textarea(back.get_data(as_text=True)) == broken
    saved = post(client, link, page, "save")
    assert saved.status_code == 302
    assert client.get(link + "/export.yaml").get_data(as_text=True) == broken


def test_what_the_boxes_hold_is_escaped_and_never_run(client: FlaskClient) -> None:
    link, page = form_page(client)
    hostile = '<script>alert(1)</script>"><img src=x onerror=alert(2)>'
    answer = post(client, link, page, "check", **{"datasheets-0-name": hostile,
                                                   "datasheets-0-_extra-<b>": hostile})
    said = answer.get_data(as_text=True)
    assert "<script>alert" not in said and "<img src=x" not in said and "<b>" not in said
    assert html.escape(hostile, quote=True) in said or "&lt;script&gt;" in said
    assert boxes(said)["datasheets-0-name"] == hostile


def test_with_htmx_add_and_remove_answer_only_the_form_its_notices_and_the_check(
        client: FlaskClient) -> None:
    link, page = form_page(client)
    add = re.search(r'<button[^>]*value="add:datasheets"[^>]*>', page)
    assert add is not None and "formnovalidate" in add[0]
    assert f'hx-post="{link.split("localhost")[-1]}/form"' in add[0]
    assert 'hx-target="#pack-form"' in add[0] and 'hx-select="#pack-form"' in add[0]

    data = boxes(page) | {"action": "add:datasheets"}
    added = client.post(link + "/form", data=data, headers={"HX-Request": "true"})
    part = added.get_data(as_text=True)
    assert added.status_code == 200
    assert part.startswith('<form id="pack-form"') and "<html" not in part
    assert re.search(r'id="pf-datasheets-2-name"[^>]*autofocus', part)  # where to type next
    notices = part.split('<div id="pack-notices" hx-swap-oob="outerHTML">', 1)
    assert len(notices) == 2 and notices[1].split("</div></div>")[0].count("Not saved yet") == 1
    # the new, empty unit's problems come with it, each linked to its box
    check = re.search(r'<section id="pack-check"[^>]*hx-swap-oob="outerHTML"', part)
    assert check is not None and 'data-field="pf-datasheets-2-name"' in part
    assert part.count('id="pack-form"') == 1 and part.count('id="pack-check"') == 1

    data = boxes(part) | {"action": "remove:datasheets-2"}
    removed = client.post(link + "/form", data=data, headers={"HX-Request": "true"})
    part = removed.get_data(as_text=True)
    assert removed.status_code == 200 and part.startswith('<form id="pack-form"')
    assert re.search(r'<button[^>]*id="pf-datasheets-add"[^>]*autofocus', part)
    assert "pf-datasheets-2-name" not in part and "No problems" in part
    # without htmx the same buttons draw the whole page, as before
    whole = client.post(link + "/form", data=boxes(page) | {"action": "add:datasheets"})
    assert whole.get_data(as_text=True).startswith("<!doctype html>")


def test_a_units_faction_box_suggests_the_packs_factions_then_the_games(
        client: FlaskClient) -> None:
    link, page = form_page(client)
    assert re.search(r'id="pf-datasheets-0-faction"[^>]*list="pf-faction-names"', page)
    names = re.search(r'<datalist id="pf-faction-names">(.*?)</datalist>', page, re.S)
    assert names is not None
    offered = [html.unescape(n) for n in re.findall(r'<option value="([^"]*)">', names[1])]
    builtin = [f.name for f in Library().catalog("actionhammer").factions]
    assert offered == ["My Faction", *builtin] and "Cobalt Brigade" in offered
    # a faction added in the boxes is offered once the form is drawn again
    data = boxes(page) | {"factions-0-name": "Da Boyz", "action": "add:datasheets"}
    part = client.post(link + "/form", data=data, headers={"HX-Request": "true"})
    names = re.search(r'<datalist id="pf-faction-names">(.*?)</datalist>',
                      part.get_data(as_text=True), re.S)
    assert names is not None and names[1].startswith('<option value="Da Boyz">')
    # a game whose units name no faction has no such box
    hammer = form_page(client, "hammerwars")[1]
    assert 'list="pf-faction-names"' not in hammer


def test_a_pack_over_the_size_limit_is_named_as_such_by_both_live_checks(
        client: FlaskClient) -> None:
    """Neither view reads a text larger than a pack may be: the check says so, and how to fix
    it, instead of loading it."""
    link, page = form_page(client)
    filler = "x" * (MAX_PACK_BYTES + 1)
    said = client.post(link + "/form/check", data=boxes(page) | {"datasheets-0-text": filler})
    assert said.status_code == 200
    text = said.get_data(as_text=True)
    assert "1 problem to fix" in text
    assert f"house-brigade.yaml: (top): larger than {MAX_PACK_BYTES // 1024} KB: split it" in text
    said = client.post(link + "/check", data={"csrf_token": boxes(page)["csrf_token"],
                                              "name": "House Brigade", "pack_version": "1",
                                              "text": "# " + filler})
    assert f"house-brigade.yaml: (top): larger than {MAX_PACK_BYTES // 1024} KB: split it" in \
        said.get_data(as_text=True)
    assert "No problems" in client.get(link).get_data(as_text=True)  # nothing was saved
