"""The quick-resolve panel and page (listbuilder.web.resolve.views) through the test client:
every system answers a pair from a real saved roster, as the engine does; two attackers side by
side; options from the option data; bad input answered in words next to the field; names
escaped everywhere, the chart included."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from flask import Flask, render_template
from flask.testing import FlaskClient
from markupsafe import escape
from webtools import csrf_of

from listbuilder.engine.library import Library
from listbuilder.engine.model import Catalog, Roster
from listbuilder.engine.registry import all_systems, get_system
from listbuilder.engine.resolve import (
    Side,
    find_side,
    quick_resolve,
    side_from_entry,
    situation_options,
)
from listbuilder.engine.system import RuleSystem
from listbuilder.web import services
from listbuilder.web.builder.page import roster_context
from listbuilder.web.resolve.present import build_panel
from listbuilder.web.rosters import open_stored

ROOT = Path(__file__).resolve().parents[3]
TARGETS = {  # a target from each catalog that the examples' first unit can hurt
    "hammerwars": "Assault Specialist",
    "op40k": "Veterans",
    "warstuff": "Orc Warrior",
    "actionhammer": "Reaver Mob",
    "spaceempires": "Predator Tanks",
}
HOSTILE = "<script>alert(1)</script>"
HOSTILE_ROSTER = f"""format: 1
system: warstuff
name: Evil {HOSTILE}
points_limit: 150
factions: [Fantasy]
designs:
  - name: "{HOSTILE}"
    quality: 3
    rules: [Shooter (Medium)]
entries:
  - unit: "{HOSTILE}"
  - unit: Human Warrior
"""


def esc(text: str) -> str:
    """Text as the templates write it (Jinja's escaping)."""
    return str(escape(text))


def example(system_id: str) -> str:
    return (ROOT / "examples" / system_id / "legal.yaml").read_text(encoding="utf-8")


def save(app: Flask, text: str) -> tuple[str, str]:
    """Store a roster as the builder would; its edit token and share token."""
    system_id = re.search(r"^system: (\w+)", text, re.M)
    assert system_id is not None
    stored, token = app.extensions["listbuilder.store"].create(system_id[1], "x", text)
    return token, stored.share_token


def roster_of(library: Library, text: str) -> Roster:
    return library.read_roster(text, "test.yaml").roster


def entry_value(roster: Roster, index: int) -> str:
    return f"{index}:{roster.entries[index].unit}"


def resolve(client: FlaskClient, token: str, htmx: bool = False, **args: object):  # type: ignore[no-untyped-def]
    """GET the resolve page; o_KEY / o1_KEY / o2_KEY stand for the fields o-KEY, o1-KEY..."""
    query = urlencode([(re.sub(r"^(o\d?)_", r"\1-", k), v) for k, values in args.items()
                       for v in (values if isinstance(values, list) else [values])])
    headers = {"HX-Request": "true"} if htmx else {}
    return client.get(f"/r/{token}/resolve?{query}", headers=headers)


def text_of(response) -> str:  # type: ignore[no-untyped-def]
    return str(response.get_data(as_text=True))


def summaries(page: str) -> list[str]:
    return [html.unescape(s) for s in re.findall(r'<p class="rs-summary">([^<]*)</p>', page)]


def shown_of(page: str) -> str:
    found = re.search(r'name="shown" value="([^"]*)"', page)
    assert found is not None
    return html.unescape(found[1])


# -- the panel on the roster page ----------------------------------------------------------------

@pytest.mark.parametrize("system_id", [s.id for s in all_systems()])
def test_roster_page_offers_every_unit_as_attacker(app: Flask, client: FlaskClient,
                                                   library: Library, system_id: str) -> None:
    token, _ = save(app, example(system_id))
    page = text_of(client.get(f"/r/{token}"))
    system = get_system(system_id)
    catalog = library.catalog(system)
    roster = roster_of(library, example(system_id))
    assert 'id="resolve-panel"' in page
    form = re.search(r'<form method="get" action="([^"]+)"[^>]*class="rs-form"', page)
    assert form is not None and form[1] == f"/r/{token}/resolve#resolve-panel"
    for i in range(len(roster.entries)):
        label = side_from_entry(system, catalog, roster, i).label
        assert f'<option value="{esc(entry_value(roster, i))}">' \
               f"{esc(label)}</option>" in page
    # the target list is the catalog, by the names the resolver reads
    assert f'<option value="{esc(TARGETS[system_id])}">' in page
    assert 'for="rs-target">Target unit</label>' in page
    assert "Pick a target to see the odds." in page


def test_a_name_several_factions_share_is_offered_once_when_they_fight_alike(
        library: Library) -> None:
    """WarStuff's Knight is in Fantasy and Medieval with one profile: the target list offers
    "Knight" once (what the resolver takes); Space Empires' Dreadnaughts differ between Eldar
    and Imperial, so each is offered by its faction."""
    from listbuilder.web.resolve.present import catalog_targets

    ws = {t.value: t.text for t in catalog_targets(library.catalog(get_system("warstuff")))}
    assert ws["Knight"] == "Fantasy, Medieval"
    assert not [v for v in ws if v.startswith("Knight (")]
    se = [t.value for t in catalog_targets(library.catalog(get_system("spaceempires")))]
    assert {"Dreadnaughts (Eldar)", "Dreadnaughts (Imperial)"} <= set(se)
    assert "Dreadnaughts" not in se
    for name in ("Knight", "Dreadnaughts (Eldar)"):  # each value offered is one it resolves
        system = get_system("warstuff" if name == "Knight" else "spaceempires")
        assert find_side(system, library.catalog(system), name).unit.name == name.split(" (")[0]


def test_a_roster_without_units_says_what_to_do(app: Flask, client: FlaskClient) -> None:
    token, _ = save(app, "format: 1\nsystem: op40k\nname: Empty\nfactions: [Orks]\n")
    page = text_of(client.get(f"/r/{token}"))
    assert "Add a unit to the roster to see what it does to a target." in page
    assert 'class="rs-form"' not in page


# -- answers -------------------------------------------------------------------------------------

@pytest.mark.parametrize("system_id", [s.id for s in all_systems()])
def test_every_system_resolves_a_unit_of_its_roster(app: Flask, client: FlaskClient,
                                                    library: Library, system_id: str) -> None:
    token, _ = save(app, example(system_id))
    system = get_system(system_id)
    catalog = library.catalog(system)
    roster = roster_of(library, example(system_id))
    response = resolve(client, token, a1=entry_value(roster, 0), target=TARGETS[system_id])
    page = text_of(response)
    assert response.status_code == 200, page
    attacker = side_from_entry(system, catalog, roster, 0)
    defender = find_side(system, catalog, TARGETS[system_id])
    expected = quick_resolve(system, catalog, attacker, defender, {})
    assert summaries(page) == [expected.summary]
    assert page.count("<svg ") == 1 and "</svg>" in page
    assert esc(expected.outcome.title) in page
    for option in situation_options(system, catalog, attacker, defender):
        assert f'name="o-{option.key}"' in page
    for chance in expected.chances:
        assert esc(chance.label) in page
    for step in expected.steps:
        assert esc(step) in page


def test_an_option_changes_the_answer_as_the_engine_says(app: Flask, client: FlaskClient,
                                                        library: Library) -> None:
    token, _ = save(app, example("hammerwars"))
    system = get_system("hammerwars")
    catalog = library.catalog(system)
    roster = roster_of(library, example("hammerwars"))
    attacker = side_from_entry(system, catalog, roster, 2)
    defender = find_side(system, catalog, "Support Specialist")
    base = dict(a1=entry_value(roster, 2), target="Support Specialist")
    # a ticked box sends its hidden "no" and then "yes"; an unticked one only "no"
    ticked = text_of(resolve(client, token, **base, o_cover=["no", "yes"]))
    plain = text_of(resolve(client, token, **base, o_cover=["no"]))
    with_cover = quick_resolve(system, catalog, attacker, defender, {"cover": True})
    without = quick_resolve(system, catalog, attacker, defender, {"cover": False})
    assert with_cover.steps != without.steps  # the setting matters for this pair
    assert summaries(ticked) == [with_cover.summary]
    assert summaries(plain) == [without.summary]
    assert all(esc(s) in ticked for s in with_cover.steps)
    assert re.search(r'id="rs-o-cover" name="o-cover" value="yes" checked', ticked)
    assert not re.search(r'id="rs-o-cover" name="o-cover" value="yes" checked', plain)


def test_a_yes_by_default_setting_can_be_turned_off(app: Flask, client: FlaskClient,
                                                    library: Library) -> None:
    """Space Empires' bombard is yes unless said otherwise: an unticked box still says no."""
    token, _ = save(app, example("spaceempires"))
    roster = roster_of(library, example("spaceempires"))
    base = dict(a1=entry_value(roster, 0), target="Predator Tanks", o_battle="ground")
    label = "Attacker&#39;s ships bombard: <strong>{}</strong>"
    assert label.format("yes") in text_of(resolve(client, token, **base))
    assert label.format("no") in text_of(resolve(client, token, **base, o_bombard=["no"]))
    assert label.format("yes") in text_of(resolve(client, token, **base,
                                                  o_bombard=["no", "yes"]))


Attackers = tuple[Side[Any], Side[Any]]


def two_attackers(app: Flask, library: Library
                  ) -> tuple[str, RuleSystem[Any, Any], Catalog, Roster, Attackers, Side[Any]]:
    """An ActionHammer roster saved, its first and fourth entries as attackers and a Reaver Mob
    as their target: the token, the game, its catalog, the roster, the attackers, the target."""
    token, _ = save(app, example("actionhammer"))
    system = get_system("actionhammer")
    catalog = library.catalog(system)
    roster = roster_of(library, example("actionhammer"))
    attackers = (side_from_entry(system, catalog, roster, 0),
                 side_from_entry(system, catalog, roster, 3))
    return token, system, catalog, roster, attackers, find_side(system, catalog, "Reaver Mob")


def test_two_attackers_side_by_side_against_one_target(app: Flask, client: FlaskClient,
                                                       library: Library) -> None:
    token, system, catalog, roster, (first, second), defender = two_attackers(app, library)
    response = resolve(client, token, a1=entry_value(roster, 0), a2=entry_value(roster, 3),
                       target="Reaver Mob", o_cover=["no", "yes"])
    page = text_of(response)
    assert response.status_code == 200, page
    expected = [quick_resolve(system, catalog, side, defender, {"cover": True})
                for side in (first, second)]
    assert summaries(page) == [r.summary for r in expected]
    assert 'class="rs-results rs-two"' in page
    assert page.count("<svg ") == 2
    ids = re.findall(r' id="([^"]+)"', page)
    assert len(ids) == len(set(ids)), "every id on the page is unique, the charts' too"
    assert 'aria-labelledby="rs-chart-2-t rs-chart-2-d"' in page
    # options alike for both attackers are set once; the others in each attacker's column
    one = situation_options(system, catalog, first, defender)
    two = situation_options(system, catalog, second, defender)
    assert any(o not in two for o in one)
    for option in one:
        assert f'name="{"o" if option in two else "o1"}-{option.key}"' in page
    for option in two:
        assert f'name="{"o" if option in one else "o2"}-{option.key}"' in page


def test_one_attackers_own_setting_changes_only_its_column(app: Flask, client: FlaskClient,
                                                           library: Library) -> None:
    token, system, catalog, roster, (first, second), defender = two_attackers(app, library)
    page = text_of(resolve(client, token, a1=entry_value(roster, 0), a2=entry_value(roster, 3),
                           target="Reaver Mob", o2_attacker_models="2"))
    assert summaries(page) == [
        quick_resolve(system, catalog, first, defender, {}).summary,
        quick_resolve(system, catalog, second, defender, {"attacker_models": 2}).summary]
    assert re.search(r'<select id="rs-o2-attacker_models" name="o2-attacker_models"[^>]*>'
                     r'.*?<option value="2" selected>', page, re.S)


def test_htmx_gets_the_panel_alone_and_the_spoken_summary(app: Flask, client: FlaskClient,
                                                          library: Library) -> None:
    token, _ = save(app, example("op40k"))
    roster = roster_of(library, example("op40k"))
    page = text_of(resolve(client, token, htmx=True, a1=entry_value(roster, 0),
                           target="Veterans"))
    assert "<html" not in page and page.lstrip().startswith('<section id="resolve-panel"')
    said = re.search(r'<p id="rs-said" class="sr-only" hx-swap-oob="innerHTML">([^<]*)</p>',
                     page)
    assert said is not None and summaries(page)[0] in html.unescape(said[1])


def test_back_in_the_browser_gets_the_whole_page(app: Flask, client: FlaskClient,
                                                 library: Library) -> None:
    """htmx restoring a page from history asks with HX-Request too; it needs the whole page.
    The answer varies with that header, so no cache hands the panel alone to a page load."""
    token, _ = save(app, example("op40k"))
    roster = roster_of(library, example("op40k"))
    response = client.get(f"/r/{token}/resolve?" + urlencode(
        {"a1": entry_value(roster, 0), "target": "Veterans"}),
        headers={"HX-Request": "true", "HX-History-Restore-Request": "true"})
    assert text_of(response).lstrip().lower().startswith("<!doctype html>")
    assert "HX-Request" in response.headers["Vary"]
    assert "HX-Request" in resolve(client, token, htmx=True).headers["Vary"]


def test_the_full_page_without_javascript_keeps_the_form_and_a_way_back(
        app: Flask, client: FlaskClient, library: Library) -> None:
    token, _ = save(app, example("op40k"))
    roster = roster_of(library, example("op40k"))
    page = text_of(resolve(client, token, a1=entry_value(roster, 0), target="Veterans"))
    assert page.lstrip().lower().startswith("<!doctype html>")
    assert f'href="/r/{token}"' in page and "back to the roster" in page
    assert 'value="Veterans"' in page  # the form shows what was asked
    assert 'id="rs-said"' in page


def test_no_target_yet_is_a_prompt_not_an_error(app: Flask, client: FlaskClient) -> None:
    token, _ = save(app, example("warstuff"))
    response = client.get(f"/r/{token}/resolve")
    assert response.status_code == 200
    assert "Pick a target to see the odds." in text_of(response)


# -- settings follow the pick ----------------------------------------------------------------------

def test_settings_tied_to_the_old_pick_start_again_from_the_new_defaults(
        app: Flask, client: FlaskClient, library: Library) -> None:
    """A target's 'lives left' set for one target is not carried to another with other lives;
    a setting that means the same for the new pair (cover) is kept."""
    token, _ = save(app, example("hammerwars"))
    system = get_system("hammerwars")
    catalog = library.catalog(system)
    roster = roster_of(library, example("hammerwars"))
    attacker = side_from_entry(system, catalog, roster, 0)
    first = text_of(resolve(client, token, a1=entry_value(roster, 0), target="Ranged Heavy"))
    lives = {o.key: o for o in situation_options(system, catalog, attacker,
                                                 find_side(system, catalog, "Ranged Heavy"))}
    new = {o.key: o for o in situation_options(system, catalog, attacker,
                                               find_side(system, catalog, "Assault Hero"))}
    assert lives["lives"] != new["lives"] and lives["cover"] == new["cover"]
    page = text_of(resolve(client, token, a1=entry_value(roster, 0), target="Assault Hero",
                           shown=shown_of(first), o_lives="2", o_cover=["no", "yes"]))
    default = new["lives"].text(new["lives"].default)
    assert re.search(rf'name="o-lives"[^>]*>.*?<option value="{default}" selected>', page, re.S)
    assert 'name="o-cover" value="yes" checked' in page
    expected = quick_resolve(system, catalog, attacker, find_side(system, catalog,
                                                                  "Assault Hero"),
                             {"cover": True})
    assert summaries(page) == [expected.summary]


def test_a_hand_made_address_takes_every_setting_as_given(app: Flask, client: FlaskClient,
                                                          library: Library) -> None:
    token, _ = save(app, example("hammerwars"))
    system = get_system("hammerwars")
    catalog = library.catalog(system)
    roster = roster_of(library, example("hammerwars"))
    page = text_of(resolve(client, token, a1=entry_value(roster, 0), target="Ranged Heavy",
                           o_lives="2"))
    expected = quick_resolve(system, catalog, side_from_entry(system, catalog, roster, 0),
                             find_side(system, catalog, "Ranged Heavy"), {"lives": 2})
    assert summaries(page) == [expected.summary]


def test_a_moved_entry_is_found_by_its_unit_name(app: Flask, client: FlaskClient,
                                                 library: Library) -> None:
    """The pick names the entry's place and unit; if another tab moved it, the unit decides."""
    token, _ = save(app, example("op40k"))
    system = get_system("op40k")
    catalog = library.catalog(system)
    roster = roster_of(library, example("op40k"))
    stale = f"3:{roster.entries[1].unit}"
    page = text_of(resolve(client, token, a1=stale, target="Veterans"))
    expected = quick_resolve(system, catalog, side_from_entry(system, catalog, roster, 1),
                             find_side(system, catalog, "Veterans"))
    assert summaries(page) == [expected.summary]
    assert f'<option value="{entry_value(roster, 1)}" selected>' in page


# -- targets from another roster -----------------------------------------------------------------

def test_a_target_from_another_roster_by_its_share_link(app: Flask, client: FlaskClient,
                                                        library: Library) -> None:
    token, _ = save(app, example("actionhammer"))
    other_text = (ROOT / "examples" / "actionhammer" / "two-factions.yaml").read_text(
        encoding="utf-8")
    _, share = save(app, other_text)
    system = get_system("actionhammer")
    catalog = library.catalog(system)
    roster, other = roster_of(library, example("actionhammer")), roster_of(library, other_text)
    link = f"http://localhost/s/{share}"
    page = text_of(resolve(client, token, a1=entry_value(roster, 0), source="roster",
                           link=link))
    for i in range(len(other.entries)):
        label = side_from_entry(system, catalog, other, i).label
        assert f"{esc(label)}</option>" in page
    assert f'<label for="rs-te">Unit of {esc(other.name)}</label>' in page
    last = len(other.entries) - 1
    page = text_of(resolve(client, token, a1=entry_value(roster, 0), source="roster",
                           link=link, te=entry_value(other, last)))
    expected = quick_resolve(system, catalog, side_from_entry(system, catalog, roster, 0),
                             side_from_entry(system, catalog, other, last))
    assert summaries(page) == [expected.summary]
    # a unit picked from one roster is not looked for in the next roster pasted
    _, third = save(app, example("actionhammer"))
    fresh = text_of(resolve(client, token, a1=entry_value(roster, 0), source="roster",
                            link=f"/s/{third}", te=entry_value(other, last), te_for=share))
    assert "not in the roster any more" not in fresh
    assert f'<input type="hidden" name="te_for" value="{third}">' in fresh
    assert summaries(fresh) == [quick_resolve(
        system, catalog, side_from_entry(system, catalog, roster, 0),
        side_from_entry(system, catalog, roster, 0)).summary]
    # the token alone works as well as the whole address
    alone = text_of(resolve(client, token, a1=entry_value(roster, 0), source="roster",
                            link=share, te=entry_value(other, last)))
    assert summaries(alone) == [expected.summary]


def test_this_browsers_other_rosters_are_offered_as_links(app: Flask, client: FlaskClient) -> None:
    token, _ = save(app, example("op40k"))
    other, other_share = save(app, (ROOT / "examples/op40k/imperial_guard.yaml").read_text(
        encoding="utf-8"))
    elsewhere, elsewhere_share = save(app, example("warstuff"))
    for t in (other, elsewhere, token):  # each kept on this browser's list, as asked
        page = client.get(f"/r/{t}").get_data(as_text=True)
        client.post(f"/r/{t}/keep", data={"csrf_token": csrf_of(page)})
    page = text_of(client.get(f"/r/{token}"))
    mine = re.search(r'<datalist id="rs-mine">(.*?)</datalist>', page, re.S)
    assert mine is not None
    assert f"/s/{other_share}" in mine[1] and f"/s/{elsewhere_share}" not in mine[1]


# -- bad input: words next to the field, never a 500 ---------------------------------------------

@pytest.mark.parametrize(("args", "field", "words"), [
    ({"target": "Predatr"}, "rs-target", "did you mean &#39;Predator&#39;?"),
    ({"target": "x" * 5000}, "rs-target", "No unit"),
    ({"target": "0x Ork Boyz"}, "rs-target", "a count is 1 to"),
    ({"target": "Veterans", "o_elevation": "maybe"}, "rs-o-elevation", "is not allowed"),
    ({"target": "Veterans", "o_attacker_models": "999"}, "rs-o-attacker_models",
     "is not allowed; use 1 to"),
    ({"target": "Veterans", "o_action": "Dance"}, "rs-o-action", "use Hold"),
    ({"a1": "42:Nobody", "target": "Veterans"}, "rs-a1", "is not in the roster any more"),
    ({"a2": "x", "target": "Veterans"}, "rs-a2", "is not in the roster any more"),
    ({"source": "roster", "link": "not a link!"}, "rs-link", "That is not a share link"),
    ({"source": "roster", "link": "http://localhost/r/abcdef"}, "rs-link",
     "That is an edit link"),
    ({"source": "roster", "link": "http://localhost/s/nope"}, "rs-link",
     "No roster has this share link"),
])
def test_bad_input_is_answered_next_to_its_field(app: Flask, client: FlaskClient,
                                                 args: dict[str, str], field: str,
                                                 words: str) -> None:
    token, _ = save(app, example("op40k"))
    response = resolve(client, token, **args)
    page = text_of(response)
    assert response.status_code == 422, page
    error = re.search(rf'<small id="{field}-error" class="error" role="alert">([^<]*)</small>',
                      page)
    assert error is not None, page[page.find("rs-form"):][:3000]
    assert words in error[1]
    assert re.search(rf'id="{field}"[^>]*aria-describedby="[^"]*{field}-error', page)
    if field != "rs-a2":  # a wrong second attacker leaves the first one's answer
        assert summaries(page) == []


def test_a_share_link_of_another_game_is_refused_in_words(app: Flask, client: FlaskClient) -> None:
    token, _ = save(app, example("op40k"))
    _, share = save(app, example("warstuff"))
    response = resolve(client, token, source="roster", link=f"/s/{share}")
    assert response.status_code == 422
    assert ("That is a WarStuff roster; the target has to come from a One Page 40k (1st "
            "edition) roster.") in text_of(response)


def test_an_engine_refusal_is_shown_in_the_column(app: Flask, client: FlaskClient,
                                                  library: Library) -> None:
    """One Page 40k units never fight as one: the resolver says so, the page shows it."""
    token, _ = save(app, example("op40k"))
    roster = roster_of(library, example("op40k"))
    response = resolve(client, token, a1=entry_value(roster, 0), target="Veterans + Ogryns")
    page = text_of(response)
    assert response.status_code == 422
    assert "never join" in page and summaries(page) == []


def test_the_form_is_a_get_so_posting_is_refused_in_words(app: Flask, client: FlaskClient) -> None:
    token, _ = save(app, example("op40k"))
    response = client.post(f"/r/{token}/resolve", data={"target": "Veterans"})
    assert response.status_code == 405
    assert "does not take that kind of request" in text_of(response)


def test_unknown_links_are_404_pages_in_words(client: FlaskClient) -> None:
    for url in ("/r/nope/resolve", "/s/nope/resolve"):
        response = client.get(url)
        assert response.status_code == 404
        assert "Check that the whole link was copied" in text_of(response)


# -- escaping ------------------------------------------------------------------------------------

def test_hostile_names_are_escaped_in_page_and_chart(app: Flask, client: FlaskClient,
                                                     library: Library) -> None:
    token, share = save(app, HOSTILE_ROSTER)
    roster = roster_of(library, HOSTILE_ROSTER)
    escaped = esc(HOSTILE)
    typed = f'"><img src=x onerror=alert(1)>{HOSTILE}'
    pages = [text_of(client.get(f"/r/{token}")),
             text_of(resolve(client, token, a1=entry_value(roster, 0), target="Orc Warrior")),
             text_of(resolve(client, token, a1=entry_value(roster, 1), source="roster",
                             link=f"/s/{share}", te=entry_value(roster, 0))),
             text_of(resolve(client, token, a1=entry_value(roster, 0), target=typed))]
    for page in pages:
        assert HOSTILE not in page and "<img src=x" not in page
        assert escaped in page  # the design's name, shown as text
    assert f'value="{esc(typed)}"' in pages[-1]  # what was typed comes back as text too
    page = text_of(resolve(client, token, a1=entry_value(roster, 0), target="Orc Warrior"))
    svg = page[page.index("<svg "):page.index("</svg>")]
    assert f"<title id=\"rs-chart-1-t\">{escaped} against Orc Warrior" in svg
    assert "<script" not in svg
    # as the target, from the other roster: in the chart's title and the column heading
    page = text_of(resolve(client, token, a1=entry_value(roster, 1), source="roster",
                           link=f"/s/{share}", te=entry_value(roster, 0)))
    svg = page[page.index("<svg "):page.index("</svg>")]
    assert f"against {escaped}" in svg and "<script" not in svg
    assert summaries(page)


# -- the read-only page --------------------------------------------------------------------------

def test_the_share_link_has_a_resolve_page_too(app: Flask, client: FlaskClient,
                                               library: Library) -> None:
    token, share = save(app, example("warstuff"))
    roster = roster_of(library, example("warstuff"))
    response = client.get(f"/s/{share}/resolve?" + urlencode(
        {"a1": entry_value(roster, 0), "target": "Orc Warrior"}))
    page = text_of(response)
    assert response.status_code == 200
    assert summaries(page) and token not in page  # the edit link never shows here
    assert f'action="/s/{share}/resolve#resolve-panel"' in page
    assert f'href="/s/{share}"' in page


def test_the_panel_form_reads_the_query_through_its_fields(library: Library) -> None:
    """The last value of each field (a tick box sends its hidden "no" first), parsed by its
    option; a value the option can't take stays as typed, with the reason. Panels that show
    the same are equal: the roster page keeps an equal panel from the page before."""
    system = get_system("warstuff")
    catalog = library.catalog(system)
    roster = roster_of(library, example("warstuff"))
    args = {"a1": [entry_value(roster, 1)], "target": ["  Orc Warrior "],
            "o-cover": ["no", "yes"]}
    panel = build_panel(system, catalog, roster, args)
    assert panel.form is not None and panel.situation is not None
    assert panel.form.target.data == "Orc Warrior" and panel.form.a1.data == args["a1"][0]
    cover = panel.situation["o-cover"]
    assert cover.data is True and cover.checked and cover.id == "rs-o-cover"
    assert not panel.has_errors
    assert panel.situation == build_panel(system, catalog, roster, args).situation
    bad = build_panel(system, catalog, roster, {**args, "o-cover": ["perhaps"]})
    assert bad.situation is not None and bad.situation != panel.situation
    assert bad.situation["o-cover"].text == "perhaps" and bad.situation["o-cover"].error
    assert bad.has_errors and not bad.columns[0].result
    # as the roster page shows it: no target yet
    first = {"a1": args["a1"]}
    assert build_panel(system, catalog, roster, first) == build_panel(system, catalog, roster,
                                                                      first)


def test_a_system_without_quick_resolve_has_no_panel(app: Flask, client: FlaskClient,
                                                     library: Library,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The roster page shows the panel when the view says the system has quick resolve."""
    token, _ = save(app, example("warstuff"))
    system = get_system("warstuff")
    empty = build_panel(system, library.catalog(system), Roster(system="warstuff", name="x"), {})
    assert empty.offered and not empty.available  # a panel saying to add a unit
    monkeypatch.setattr(type(get_system("warstuff")), "resolver", lambda self: None)
    page = text_of(client.get(f"/r/{token}"))
    assert 'id="resolve-panel"' not in page and 'id="rs-said"' not in page
    assert 'id="units"' in page  # the rest of the page is there


def test_the_panel_fits_the_share_pages_context(app: Flask) -> None:
    """web/builder/templates/shared.html can include resolve/panel.html as the roster page does."""
    token, share = save(app, example("warstuff"))
    with app.test_request_context(f"/s/{share}"):
        opened = open_stored(services.library(), services.by_share_token(share))
        page = render_template("resolve/panel.html", share=share,
                               **roster_context(opened, token=None))
    assert f'action="/s/{share}/resolve#resolve-panel"' in page
    assert token not in page and 'name="a1"' in page


def test_the_share_page_offers_the_panel_without_the_edit_token(app: Flask) -> None:
    token, share = save(app, example("warstuff"))
    page = app.test_client().get(f"/s/{share}").get_data(as_text=True)
    assert f'action="/s/{share}/resolve#resolve-panel"' in page
    assert token not in page


def test_the_columns_title_names_the_size_set_in_the_panel(app: Flask, client: FlaskClient,
                                                           library: Library) -> None:
    """Reported: `defender_models=10` showed "5x Line Troopers" over the answer."""
    token, _ = save(app, example("actionhammer"))
    roster = roster_of(library, example("actionhammer"))
    page = text_of(resolve(client, token, a1=entry_value(roster, 3), target="5x Line Troopers",
                           o_defender_models=10))
    title = re.search(r'<h3 id="rs-col-1-title">(.*?)</h3>', page, re.S)
    assert title is not None
    assert "10x Line Troopers" in title[1] and "5x Line Troopers" not in title[1]
