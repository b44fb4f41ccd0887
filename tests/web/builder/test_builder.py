"""The roster page behind the edit link: every change, posted as a browser without JavaScript
would (and as htmx does), with its bad posts."""

from __future__ import annotations

import re

import yaml
from flask.testing import FlaskClient
from webtools import Player, csrf_of, version_of

from listbuilder.engine.library import Library
from listbuilder.engine.report import report


def entries(player: Player) -> list[dict[str, object]]:
    return yaml.safe_load(player.saved_text()).get("entries", [])


def test_start_opens_the_roster_page_with_links_and_units(player: Player) -> None:
    player.start("op40k", "Waaagh", ("Orks",), 500)
    page = player.html
    assert "Waaagh" in page and "One Page 40k" in page
    assert f"/r/{player.token}" in page and "/s/" in page  # edit and share links
    assert "Ork Boyz" in page and "Add units" in page
    assert "print-slot" in page and "resolve-slot" in page


def test_add_update_move_and_remove_entries(player: Player) -> None:
    player.start("op40k", "Waaagh", ("Orks",), 500)
    player.post("add", unit="Ork Boyz")
    player.post("add", unit="Nobz")
    got = entries(player)
    assert [e["unit"] for e in got] == ["Ork Boyz", "Nobz"]
    assert got[0]["count"] == 15  # the printed size is the starting size
    player.post("entry", index=0, unit="Ork Boyz", count=20, upgrades=["Boss Nob"])
    assert entries(player)[0] == {"unit": "Ork Boyz", "count": 20, "upgrades": ["Boss Nob"],
                                  "pts": entries(player)[0]["pts"]}
    player.post("move", index=1, unit="Nobz", step=-1)
    assert [e["unit"] for e in entries(player)] == ["Nobz", "Ork Boyz"]
    player.post("remove", index=0, unit="Nobz")
    assert [e["unit"] for e in entries(player)] == ["Ork Boyz"]


def test_htmx_change_answers_with_only_what_changed(player: Player) -> None:
    player.start("warstuff", "Patrol", (), 150)
    response = player.post("add", htmx=True, unit="Human Warrior")
    assert response.status_code == 200 and response.headers["HX-Reswap"] == "none"
    assert 'id="main"' not in player.html and "Human Warrior" in player.html
    assert 'hx-swap-oob="beforeend:#entry-list"' in player.html


def test_a_violation_appears_beside_its_entry_and_clears(player: Player) -> None:
    player.start("op40k", "Waaagh", ("Orks",), 500)
    player.post("add", unit="Ork Boyz")
    player.post("entry", index=0, unit="Ork Boyz", count=40)
    entry_html = re.search(r'<li class="entry has-error" id="entry-0".*?</li>\s*</ol>',
                           player.html, re.S)
    assert entry_html is not None and "roster.count-bounds" in entry_html[0]
    assert "Not legal yet" in player.html
    player.post("entry", index=0, unit="Ork Boyz", count=20)
    assert "roster.count-bounds" not in player.html and "<strong>Legal</strong>" in player.html


def test_bad_count_is_refused_with_a_message_and_nothing_changes(player: Player) -> None:
    player.start("op40k", "Waaagh", ("Orks",), 500)
    player.post("add", unit="Ork Boyz")
    before = player.saved_text()
    for bad in ("0", "abc", "", "10001"):
        response = player.post("entry", index=0, unit="Ork Boyz", count=bad)
        assert response.status_code == 422
        assert "Not changed" in player.html
    assert player.saved_text() == before


def test_an_entry_that_moved_is_not_changed(player: Player) -> None:
    player.start("op40k", "Waaagh", ("Orks",), 500)
    player.post("add", unit="Ork Boyz")
    response = player.post("remove", index=0, unit="Nobz")
    assert response.status_code == 422 and "no longer at that place" in player.html
    response = player.post("remove", index=7, unit="Ork Boyz")
    assert response.status_code == 422
    assert [e["unit"] for e in entries(player)] == ["Ork Boyz"]


def test_unknown_unit_is_refused(player: Player) -> None:
    player.start("op40k", "Waaagh", ("Orks",), 500)
    response = player.post("add", unit="Dragon")
    assert response.status_code == 422 and "is not a unit of" in player.html


def test_settings_change_name_factions_and_limit(player: Player) -> None:
    player.start("actionhammer", "Brigade", ("Cobalt Brigade",), 2000)
    player.post("settings", name="Both", factions=["Cobalt Brigade", "Ashen Horde"],
                points_limit=1000)
    data = yaml.safe_load(player.saved_text())
    assert data["name"] == "Both" and data["points_limit"] == 1000
    assert data["factions"] == ["Cobalt Brigade", "Ashen Horde"]
    response = player.post("settings", name="", factions=["Nobody"], points_limit=-5)
    assert response.status_code == 422
    assert yaml.safe_load(player.saved_text())["name"] == "Both"
    response = player.post("settings", name="x" * 81, factions=[], points_limit=1000)
    assert response.status_code == 422


def test_hammer_wars_goal_and_stacking(player: Player) -> None:
    player.start("hammerwars", "Temple Guard", ("Lizardmen",))
    assert "hammerwars.goal-missing" in player.html
    assert '<option value="Duty"' in player.html and '<option value="Oppression"' in player.html
    player.post("choices", goal="Duty")
    assert yaml.safe_load(player.saved_text())["choices"] == {"goal": "Duty"}
    assert "hammerwars.goal-missing" not in player.html
    player.post("add", unit="Assault Infantry")
    player.post("add", unit="Assault Infantry")
    assert entries(player) == [{"unit": "Assault Infantry", "count": 2, "pts": 2}]
    response = player.post("choices", goal="Nonsense")
    assert response.status_code == 422


def test_space_empires_start_draws_and_redraws(player: Player) -> None:
    player.start("spaceempires", "Waaagh", ("Orks",))
    seed = yaml.safe_load(player.saved_text())["choices"]["seed"]
    assert isinstance(seed, int)
    assert "Starting draw (seed" in player.html and "Revenue" in player.html
    seeds = {seed}
    for _ in range(3):
        player.post("redraw", key="seed")
        seeds.add(yaml.safe_load(player.saved_text())["choices"]["seed"])
    assert len(seeds) > 1
    response = player.post("redraw", key="treasury")
    assert response.status_code == 422
    player.post("choices", seed=7, homeworlds=1, rich_planets=2, poor_planets="",
                treasury=3)
    assert yaml.safe_load(player.saved_text())["choices"] == {
        "seed": 7, "homeworlds": 1, "rich_planets": 2, "treasury": 3}
    assert player.post("choices", seed=7, treasury=-1).status_code == 422


def test_actionhammer_leader_joins_a_bodyguard(player: Player) -> None:
    player.start("actionhammer", "Brigade", ("Cobalt Brigade",), 2000)
    player.post("add", unit="Line Troopers")
    player.post("add", unit="Brigade Captain")
    assert 'id="join-1"' in player.html and 'id="join-0"' not in player.html
    player.post("join", index=1, unit="Brigade Captain", target="0:Line Troopers")
    got = entries(player)
    assert got[0]["label"] == "line-troopers" and got[1]["joins"] == "line-troopers"
    assert "Joined by Brigade Captain" in player.html
    player.post("join", index=1, unit="Brigade Captain", target="")
    assert "joins" not in entries(player)[1]
    assert player.post("join", index=1, unit="Brigade Captain",
                       target="1:Brigade Captain").status_code == 422
    assert player.post("join", index=1, unit="Brigade Captain",
                       target="x:Line Troopers").status_code == 422
    # removing the Bodyguard leaves the Leader on its own, never pointing at nothing
    player.post("join", index=1, unit="Brigade Captain", target="0:Line Troopers")
    player.post("remove", index=0, unit="Line Troopers")
    assert entries(player) == [{"unit": "Brigade Captain", "count": 1,
                                "pts": entries(player)[0]["pts"]}]


def test_warstuff_creator_designs_and_cost(player: Player, client: FlaskClient) -> None:
    player.start("warstuff", "Patrol", ("Fantasy",), 150)
    cost = client.get(f"/r/{player.token}/design-cost",
                      query_string={"name": "Ranger", "quality": 3,
                                    "rules": ["Pathfinder", "Shooter (Medium)"]})
    assert cost.status_code == 200 and "45 pts" in cost.get_data(as_text=True)
    clash = client.get(f"/r/{player.token}/design-cost",
                       query_string={"quality": 3, "rules": ["Fast", "Slow"]})
    assert "both Fast and Slow" in clash.get_data(as_text=True)
    preview = player.post("design", name="Ranger", quality=3, rules=["Pathfinder"], preview="1")
    assert preview.status_code == 200 and "35 pts" in player.html
    assert "designs" not in yaml.safe_load(player.saved_text())
    player.post("design", name="Ranger", quality=3, rules=["Pathfinder", "Shooter (Medium)"],
                add_entry="1")
    data = yaml.safe_load(player.saved_text())
    assert data["designs"] == [{"name": "Ranger", "quality": 3,
                                "rules": ["Pathfinder", "Shooter (Medium)"]}]
    assert data["entries"] == [{"unit": "Ranger", "count": 1, "pts": 45}]
    player.post("design/field", name="Ranger")
    assert entries(player)[0]["count"] == 2
    player.post("design", name="Ranger Captain", quality=4, rules=["Pathfinder"],
                replacing="Ranger")
    data = yaml.safe_load(player.saved_text())
    assert data["designs"][0]["name"] == "Ranger Captain"
    assert data["entries"] == [{"unit": "Ranger Captain", "count": 2, "pts": 90}]
    assert player.post("design", name="", quality="").status_code == 422
    player.post("design/remove", name="Ranger Captain")
    data = yaml.safe_load(player.saved_text())
    assert "designs" not in data and data["entries"] == []
    assert player.post("design/remove", name="Ranger Captain").status_code == 422


def test_copy_a_quickplay_unit_into_the_creator(player: Player) -> None:
    player.start("warstuff", "Patrol", (), 150)
    player.get(f"/r/{player.token}", query_string={"copy_unit": "Knight|Fantasy"})
    assert 'value="Knight (mine)"' in player.html
    player.get(f"/r/{player.token}", query_string={"preview": "Knight|Fantasy"})
    assert "Copy into the unit creator" in player.html


def test_designs_are_refused_where_the_system_has_none(player: Player) -> None:
    player.start("op40k", "Waaagh", ("Orks",), 500)
    assert player.post("design", name="X", quality=3).status_code == 404


def test_browse_search_category_cost_and_preview(player: Player) -> None:
    player.start("op40k", "Waaagh", ("Orks",), 500)
    player.get(f"/r/{player.token}", query_string={"q": "trukk"})
    assert "Trukk" in player.html and "Ork Boyz</a>" not in player.html
    player.get(f"/r/{player.token}", query_string={"category": "vehicle"})
    assert "Battlewagon" in player.html and "Nobz</a>" not in player.html
    player.get(f"/r/{player.token}", query_string={"max_cost": 40})
    listed = re.findall(r'class="unit-name"[^>]*>([^<]+)</a>', player.html)
    assert listed and "Battlewagon" not in listed
    player.get(f"/r/{player.token}", query_string={"preview": "Nobz"})
    assert 'id="preview-title">Nobz<' in player.html
    # a bad filter is ignored, never an error
    response = player.get(f"/r/{player.token}", query_string={"max_cost": "lots",
                                                              "q": "x" * 500})
    assert response.status_code == 200


def test_an_entry_previews_as_fielded(player: Player) -> None:
    """An entry's "Profile of ... as fielded" shows its card's profile: its size, and the
    weapons its upgrades leave each model, with no Add button (it is in the roster)."""
    player.start("op40k", "Waaagh", ("Orks",), 500)
    player.post("add", unit="Ork Boyz")
    player.post("entry", index=0, unit="Ork Boyz", count=15, upgrades=["Shootas", "Boss Nob"],
                anchor="entry-0")
    assert "Profile of Ork Boyz as fielded" in player.html
    assert "carrying 15x Shoota, 14x Choppa, 1x Power Klaw" in player.html
    player.get(f"/r/{player.token}", query_string={"preview": "entry-0"})
    preview = player.html.split('id="preview"', 1)[1].split('id="unit-list"', 1)[0]
    assert "15x Shoota" in preview and "1x Power Klaw" in preview and "Slugga" not in preview
    assert "Add Ork Boyz" not in preview
    player.get(f"/r/{player.token}", query_string={"preview": "entry-9"})  # no such entry
    assert 'id="preview-title"' not in player.html


def test_user_text_is_escaped(player: Player) -> None:
    player.start("warstuff", "<script>alert(1)</script>", (), 150)
    assert "<script>alert(1)</script>" not in player.html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in player.html


def test_stale_page_is_refused_and_the_change_can_be_applied_again(
        player: Player, client: FlaskClient) -> None:
    player.start("op40k", "Waaagh", ("Orks",), 500)
    stale = player.html
    player.post("add", unit="Ork Boyz")  # another tab saves first
    player.html = stale
    response = player.post("add", unit="Nobz")
    assert response.status_code == 409
    assert "changed since this page was loaded" in player.html
    assert [e["unit"] for e in entries(player)] == ["Ork Boyz"]  # nothing overwritten
    retry = re.search(r'<form method="post" action="(/r/[^"]+/add)"[^>]*>(.*?)</form>',
                      player.html, re.S)
    assert retry is not None and 'value="Nobz"' in retry[2]
    player.post("add", unit="Nobz")  # the retry form carries the latest version
    assert [e["unit"] for e in entries(player)] == ["Ork Boyz", "Nobz"]


def test_a_change_sent_again_after_its_answer_was_lost_is_applied_once(
        player: Player, client: FlaskClient) -> None:
    """The page's script gives each change an id (static/js/edits.js) and sends it again,
    same id, when the connection dropped before the answer came: the server saved it the
    first time, so the second sending answers with the roster as saved."""
    player.start("op40k", "Waaagh", ("Orks",), 500)
    page = player.html
    first = player.post("add", htmx=True, unit="Nobz", edit="a1b2c3d4e5f6a7b8")
    assert first.status_code == 200
    player.html = page  # the answer never reached the page: it sends the same change again
    again = player.post("add", htmx=True, unit="Nobz", edit="a1b2c3d4e5f6a7b8")
    assert again.status_code == 200
    said = again.get_data(as_text=True)
    assert "the server had saved it when it was first sent" in said
    assert "Nobz" in said  # the page, still at version 1, gets the entry it lacks
    assert [e["unit"] for e in entries(player)] == ["Nobz"]
    player.get(f"/r/{player.token}")
    assert version_of(player.html) == 2  # saved once
    # a new change, with an id of its own, is applied as usual
    player.post("add", htmx=True, unit="Trukk", edit="b1b2c3d4e5f6a7b8")
    assert [e["unit"] for e in entries(player)] == ["Nobz", "Trukk"]
    # an id that is not one the script makes is ignored: the change is checked as any other
    player.get(f"/r/{player.token}")
    stale = player.html
    player.post("add", unit="Gretchin", edit="x")
    player.html = stale
    assert player.post("add", unit="Gretchin", edit="x").status_code == 409


def test_missing_csrf_or_version_is_refused(player: Player, client: FlaskClient) -> None:
    player.start("op40k", "Waaagh", ("Orks",), 500)
    response = client.post(f"/r/{player.token}/add", data={"version": 1, "unit": "Nobz"})
    assert response.status_code == 400 and "expired" in response.get_data(as_text=True)
    response = client.post(f"/r/{player.token}/add",
                           data={"csrf_token": csrf_of(player.html), "unit": "Nobz"})
    assert response.status_code == 400
    assert entries(player) == []


def test_unknown_edit_link_is_a_404(client: FlaskClient) -> None:
    response = client.get("/r/not-a-token")
    assert response.status_code == 404 and "edit link" in response.get_data(as_text=True)
    assert client.get("/r/x/export.yaml").status_code == 404
    assert client.get("/r/" + "x" * 300).status_code == 404


def test_get_on_a_change_is_a_405_page(player: Player, client: FlaskClient) -> None:
    player.start("op40k", "Waaagh", ("Orks",), 500)
    response = client.get(f"/r/{player.token}/add")
    assert response.status_code == 405 and "Listbuilder" in response.get_data(as_text=True)


def test_export_and_plain_text(player: Player, client: FlaskClient) -> None:
    player.start("op40k", "Waaagh!", ("Orks",), 500)
    player.post("add", unit="Ork Boyz")
    response = client.get(f"/r/{player.token}/export.yaml")
    assert response.headers["Content-Disposition"] == (
        "attachment; filename=\"Waaagh.yaml\"; filename*=UTF-8''Waaagh.yaml")
    assert response.get_data(as_text=True).startswith("# Listbuilder roster (One Page 40k")
    text = client.get(f"/r/{player.token}/roster.txt").get_data(as_text=True)
    assert "Ork Boyz (size 15): " in text and "Total: " in text
    assert "Ork Boyz (size 15)" in player.html  # the copyable text on the page


def test_the_roster_page_remembers_the_roster_on_the_home_page(player: Player) -> None:
    player.start("op40k", "Remember me", ("Orks",), 500)
    player.get("/")
    assert "Remember me" in player.html and f"/r/{player.token}" in player.html


def post_file(player: Player, data: bytes, name: str = "r.yaml"):  # type: ignore[no-untyped-def]
    import io

    from flask.testing import EnvironBuilder
    from webtools import version_of

    body = {"csrf_token": csrf_of(player.html), "version": version_of(player.html),
            "file": (io.BytesIO(data), name)}
    builder = EnvironBuilder(player.client.application, path=f"/r/{player.token}/import",
                             method="POST", data=body)
    try:
        response = player.client.open(builder)
    finally:
        builder.close()
    if response.status_code == 302:
        player.get(response.headers["Location"])
    else:
        player.html = response.get_data(as_text=True)
    return response


def test_replace_from_a_file_and_a_bad_file_changes_nothing(player: Player) -> None:
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    player.start("op40k", "Mine", ("Orks",), 500)
    player.post("add", unit="Nobz")
    before = player.saved_text()
    bad = b"format: 1\nsystem: op40k\nname: X\nfactions: [Orks]\nentries:\n  - unit: Nobzz\n"
    response = post_file(player, bad, "bad.yaml")
    assert response.status_code == 422 and "bad.yaml:6: entries[0].unit" in player.html
    assert "did you mean" in player.html and player.saved_text() == before
    other = (root / "examples" / "warstuff" / "legal.yaml").read_bytes()
    assert post_file(player, other).status_code == 422 and "WarStuff roster" in player.html
    assert player.saved_text() == before
    good = (root / "examples" / "op40k" / "legal.yaml").read_bytes()
    assert post_file(player, good).status_code == 302
    assert "Waaagh! Vanguard" in player.saved_text()


def test_opening_after_the_data_changed_says_what_changed(player: Player, app) -> None:  # type: ignore[no-untyped-def]
    player.start("op40k", "Old", ("Orks",), 500)
    player.post("add", unit="Nobz")
    store = app.extensions["listbuilder.store"]
    saved = store.by_edit_token(player.token)
    old = saved.text.replace(saved.text.split("data_revision: ")[1].split("\n")[0], "0ld0ld0ld0ld")
    old = old.replace("pts: ", "pts: 1")  # the cost recorded back then
    store.save(saved.id, saved.version, saved.name, old)
    player.get(f"/r/{player.token}")
    assert "The game data changed since this roster was saved" in player.html
    assert "Nobz: 1" in player.html and " -&gt; " in player.html
    player.post("acknowledge")
    assert "The game data changed" not in player.html


def test_a_stored_roster_that_no_longer_reads_is_shown_not_lost(player: Player, app) -> None:  # type: ignore[no-untyped-def]
    player.start("op40k", "Old", ("Orks",), 500)
    store = app.extensions["listbuilder.store"]
    saved = store.by_edit_token(player.token)
    store.save(saved.id, saved.version, saved.name, "format: 9\nname: <b>x</b>\n")
    response = player.get(f"/r/{player.token}")
    assert response.status_code == 422 and "This roster can't be opened" in player.html
    assert "&lt;b&gt;x&lt;/b&gt;" in player.html


def test_the_unit_filter_is_kept_across_a_change(player: Player) -> None:
    from webtools import version_of

    player.start("op40k", "Waaagh", ("Orks",), 500)
    player.get(f"/r/{player.token}", query_string={"q": "nob"})
    response = player.client.post(f"/r/{player.token}/add?q=nob", data={
        "csrf_token": csrf_of(player.html), "version": version_of(player.html),
        "unit": "Nobz"})
    assert response.status_code == 302 and "q=nob" in response.headers["Location"]
    page = player.get(response.headers["Location"]).get_data(as_text=True)
    assert 'value="nob"' in page and "Trukk</a>" not in page
    assert f'action="/r/{player.token}/remove?q=nob"' in page


def test_the_builder_offers_only_units_a_leader_may_join(library: Library) -> None:
    """Joins lists units of the Leader's faction, of two models or more, with its Move and no
    other Leader; each unit left out says why."""
    loaded = library.read_roster(
        "format: 1\nsystem: actionhammer\nname: Test\npoints_limit: 2000\n"
        "factions: [Cobalt Brigade]\nentries:\n"
        "  - unit: Line Troopers\n    count: 5\n    label: line\n"
        "  - unit: Brigade Captain\n    joins: line\n"
        "  - unit: Field Commissar\n"
        "  - unit: Strider Walker\n"
        "  - unit: Shock Squad\n    count: 5\n"
        "  - unit: Recon Marshal\n", "r.yaml")
    view = report(loaded.system, loaded.catalog, loaded.roster)
    commissar, marshal = view.entries[2], view.entries[5]
    offered = [name for _, name in commissar.join_targets]
    assert offered == ["Shock Squad (line 5)"]
    refused = dict(commissar.join_refused)
    assert refused["Line Troopers (line 1)"] == "Brigade Captain leads it already"
    assert "Strider Walker is 1 model, always" in refused["Strider Walker (line 4)"]
    assert "Brigade Captain is a Leader" in refused["Brigade Captain (line 2)"]
    assert marshal.join_targets == []  # no unit with Move 10"
    assert 'Move 8" and Recon Marshal Move 10"' in dict(marshal.join_refused)[
        "Shock Squad (line 5)"]
    captain = view.entries[1]
    assert [name for _, name in captain.join_targets] == [
        "Line Troopers (line 1)", "Shock Squad (line 5)"]  # its own Bodyguard stays offered


def test_duplicate_an_entry_with_its_size_and_upgrades(player: Player) -> None:
    player.start("op40k", "Waaagh", ("Orks",), 1000)
    player.post("add", unit="Ork Boyz")
    player.post("add", unit="Nobz")
    player.post("entry", index=0, unit="Ork Boyz", count=22, upgrades=["Boss Nob", "Shootas"])
    version = version_of(player.html)
    response = player.post("duplicate-entry", index=0, unit="Ork Boyz", anchor="entry-1")
    assert response.status_code == 302  # without JavaScript: the page again, at the copy
    assert response.headers["Location"].endswith("open=entry-1#entry-1")
    got = entries(player)
    assert [e["unit"] for e in got] == ["Ork Boyz", "Ork Boyz", "Nobz"]
    assert got[1] == got[0] and got[1]["count"] == 22
    assert got[1]["upgrades"] == ["Boss Nob", "Shootas"]
    assert version_of(player.html) == version + 1
    assert 'id="duplicate-1"' in player.html and 'aria-label="Duplicate Ork Boyz"' in player.html
    # with htmx: saved, said, and the copy drawn unfolded
    response = player.post("duplicate-entry", htmx=True, index=2, unit="Nobz", anchor="entry-3")
    assert response.status_code == 200 and "Saved: duplicating Nobz." in player.html
    assert re.search(r'<details id="entry-3-box" open>', player.html)
    # an entry that is no longer there: refused, nothing lost
    before = player.saved_text()
    for index, unit in ((9, "Nobz"), (0, "Nobz"), (-1, "Nobz")):
        response = player.post("duplicate-entry", index=index, unit=unit)
        assert response.status_code == 422 and "Not changed: duplicating Nobz" in player.html
    assert player.saved_text() == before


def test_a_duplicated_leader_leaves_its_bodyguard_to_the_original(player: Player) -> None:
    player.start("actionhammer", "Brigade", ("Cobalt Brigade",), 2000)
    player.post("add", unit="Line Troopers")
    player.post("add", unit="Brigade Captain")
    player.post("join", index=1, unit="Brigade Captain", target="0:Line Troopers")
    player.post("duplicate-entry", index=0, unit="Line Troopers")
    player.post("duplicate-entry", index=2, unit="Brigade Captain")
    got = entries(player)
    assert [(e["unit"], e.get("label"), e.get("joins")) for e in got] == [
        ("Line Troopers", "line-troopers", None), ("Line Troopers", None, None),
        ("Brigade Captain", None, "line-troopers"), ("Brigade Captain", None, None)]


def test_duplicate_is_not_offered_where_an_entry_counts_copies(player: Player) -> None:
    player.start("hammerwars", "Temple Guard", ("Lizardmen",))
    player.post("add", unit="Assault Infantry")
    assert 'id="remove-0"' in player.html and 'id="duplicate-0"' not in player.html
    response = player.post("duplicate-entry", index=0, unit="Assault Infantry")
    assert response.status_code == 422 and "raise its count" in player.html
    assert entries(player) == [{"unit": "Assault Infantry", "count": 1, "pts": 1}]


def test_reorder_moves_an_entry_to_any_place_in_one_version(player: Player) -> None:
    player.start("op40k", "Waaagh", ("Orks",), 5000)
    names = ["Ork Boyz", "Nobz", "Trukk", "Gretchin", "Ork Boyz", "Nobz", "Trukk", "Gretchin"]
    for name in names:
        player.post("add", unit=name)
    version = version_of(player.html)
    response = player.post("reorder", htmx=True, index=7, unit="Gretchin", to=0)
    assert response.status_code == 200 and "Saved: moving Gretchin to line 1." in player.html
    assert [e["unit"] for e in entries(player)] == ["Gretchin", *names[:7]]
    player.get(f"/r/{player.token}")
    assert version_of(player.html) == version + 1
    # each entry's handle names it; the one form the script sends is on the page
    assert 'id="handle-0"' in player.html and 'aria-label="Move Gretchin"' in player.html
    assert f'action="/r/{player.token}/reorder"' in player.html
    # without JavaScript the same post answers with the page, at the list
    response = player.post("reorder", index=0, unit="Gretchin", to=7)
    assert response.status_code == 302
    assert [e["unit"] for e in entries(player)] == names


def test_reorder_to_a_bad_place_is_refused_and_nothing_is_lost(player: Player) -> None:
    player.start("op40k", "Waaagh", ("Orks",), 1000)
    for name in ("Ork Boyz", "Nobz", "Trukk"):
        player.post("add", unit=name)
    before = player.saved_text()
    for data, says in (({"index": 0, "unit": "Ork Boyz", "to": 3}, "There is no line 4"),
                       ({"index": 3, "unit": "Ork Boyz", "to": 0}, "no longer at that place"),
                       ({"index": 1, "unit": "Ork Boyz", "to": 0}, "no longer at that place"),
                       ({"index": 0, "unit": "Ork Boyz", "to": -1}, "Pick a place in the list"),
                       ({"index": 0, "unit": "Ork Boyz", "to": "x"}, "Give a whole number"),
                       ({"index": 0, "unit": "Ork Boyz"}, "Say where to move it")):
        response = player.post("reorder", **data)
        assert response.status_code == 422, data
        assert "Not changed: moving Ork Boyz" in player.html and says in player.html, data
    assert player.saved_text() == before


def test_reorder_keeps_a_leader_with_its_bodyguard(player: Player) -> None:
    player.start("actionhammer", "Brigade", ("Cobalt Brigade",), 2000)
    for name in ("Line Troopers", "Shock Squad", "Brigade Captain"):
        player.post("add", unit=name)
    player.post("join", index=2, unit="Brigade Captain", target="0:Line Troopers")
    assert 'id="handle-0"' in player.html and 'id="handle-2"' not in player.html  # joined
    player.post("reorder", index=0, unit="Line Troopers", to=2)
    got = entries(player)
    assert [(e["unit"], e.get("label"), e.get("joins")) for e in got] == [
        ("Shock Squad", None, None), ("Brigade Captain", None, "line-troopers"),
        ("Line Troopers", "line-troopers", None)]
    assert "Joined by Brigade Captain" in player.html
