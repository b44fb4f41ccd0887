"""Issue 38: a whole number the builder's settings refuse speaks with one voice. Whatever is
wrong with it (nothing, text, 23 digits, out of range) one sentence names the box, its range
and the fix; it is beside the box (marked invalid, linked with aria-describedby) and in the
notice, the box keeps what was typed, and nothing is saved. An empty points limit is refused
(it used to remove the limit); Space Empires' seed and planets have ranges."""

from __future__ import annotations

import html
import re

import pytest
import yaml
from webtools import Player, csrf_of

LIMIT = "Points limit: enter a whole number from 1 to 1,000,000, the game's size in points."
SEED = "Seed: enter a whole number from 0 to 999,999,999, or Re-draw below for a random one."
POOR = "Poor planets: enter a whole number from 0 to 48."


def box(page: str, box_id: str) -> str:
    found = re.search(rf'<input [^>]*id="{box_id}"[^>]*>', page, re.S)
    assert found is not None, box_id
    return html.unescape(found[0])


def said_beside(page: str, box_id: str) -> str:
    """What the page says under the box, by the id the box's aria-describedby names."""
    described = re.search(r'aria-describedby="([^"]*)"', box(page, box_id))
    assert described is not None
    error = f"{box_id}-error"
    assert error in described[1].split(), described[1]
    found = re.search(rf'<small [^>]*id="{error}"[^>]*>(.*?)</small>', page, re.S)
    assert found is not None
    return html.unescape(found[1]).strip()


def notice(page: str) -> str:
    found = re.search(r'<div id="notices".*?</div>\s*</div>', page, re.S)
    assert found is not None
    return html.unescape(re.sub(r"<[^>]+>", " ", found[0]))


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize("typed", ["", "abc", "0", "2.5", "1e5", "12345678901234567890123",
                                   "1000001"])
def test_a_points_limit_refused_is_said_beside_its_box_and_kept(
        player: Player, typed: str, htmx: bool) -> None:
    player.start("op40k", "Waaagh", ("Orks",), 500)
    before = player.saved_text()
    response = player.post("settings", htmx=htmx, name="Waaagh", factions=["Orks"],
                           points_limit=typed)
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert said_beside(page, "points_limit") == LIMIT
    limit = box(page, "points_limit")
    assert 'aria-invalid="true"' in limit and f'value="{typed}"' in limit
    assert 'type="text"' in limit and 'inputmode="numeric"' in limit and "min=" not in limit
    assert LIMIT in notice(page)  # the same words at the top, named once
    assert "Points limit: Points limit" not in html.unescape(page)
    assert re.search(r'<details class="card" id="settings"[^>]* open>', page)  # shown
    assert player.saved_text() == before  # the limit stays 500


def test_the_range_is_under_the_box_before_anything_is_typed(player: Player) -> None:
    player.start("op40k", "Waaagh", ("Orks",), 500)
    assert 'aria-invalid' not in box(player.html, "points_limit")
    assert "1 to 1,000,000; 500 pts is usual for One Page 40k" in player.html
    new = player.client.get("/new/op40k").get_data(as_text=True)
    assert 'value="500"' in box(new, "points_limit")
    assert "1 to 1,000,000; 500 pts is usual for One Page 40k" in new


def test_a_new_roster_with_an_empty_limit_is_refused_in_the_same_words(player: Player) -> None:
    player.get("/new/op40k")
    response = player.client.post("/new/op40k", data={
        "csrf_token": csrf_of(player.html), "name": "Waaagh", "factions": "Orks",
        "points_limit": ""})
    page = response.get_data(as_text=True)
    assert response.status_code == 422 and said_beside(page, "points_limit") == LIMIT
    assert 'value=""' in box(page, "points_limit")


def test_a_good_limit_is_saved_and_the_message_goes(player: Player) -> None:
    player.start("op40k", "Waaagh", ("Orks",), 500)
    player.post("settings", htmx=True, name="Waaagh", factions=["Orks"], points_limit="")
    response = player.post("settings", htmx=True, name="Waaagh", factions=["Orks"],
                           points_limit="750")
    assert response.status_code == 200
    assert yaml.safe_load(player.saved_text())["points_limit"] == 750
    # the answer draws the settings again: no message, the box as saved
    page = response.get_data(as_text=True)
    assert "points_limit-error" not in page and 'value="750"' in box(page, "points_limit")


def test_a_game_without_points_shows_no_limit_after_a_refusal(player: Player) -> None:
    player.start("spaceempires", "Empire", ("Orks",))
    response = player.post("settings", name="", factions=["Orks"])
    assert response.status_code == 422
    assert 'id="points_limit"' not in player.html
    assert said_beside(player.html, "name") == \
        "Roster name: enter a name of 1 to 80 characters."


@pytest.mark.parametrize("htmx", [False, True])
def test_space_empires_choices_say_their_range_beside_the_box(player: Player,
                                                              htmx: bool) -> None:
    player.start("spaceempires", "Empire", ("Orks",))
    before = player.saved_text()
    response = player.post("choices", htmx=htmx, seed="12345678901234567890123",
                           poor_planets="99999", rich_planets="abc", homeworlds="1",
                           treasury="")
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert said_beside(page, "choice-seed") == SEED
    assert said_beside(page, "choice-poor_planets") == POOR
    assert said_beside(page, "choice-rich_planets") == \
        "Rich planets: enter a whole number from 0 to 48."
    for key, typed in (("seed", "12345678901234567890123"), ("poor_planets", "99999"),
                       ("rich_planets", "abc")):
        assert f'value="{typed}"' in box(page, f"choice-{key}"), key
        assert 'aria-invalid="true"' in box(page, f"choice-{key}")
    # a box with nothing wrong is not marked
    assert "aria-invalid" not in box(page, "choice-homeworlds")
    words = notice(page)
    assert SEED in words and POOR in words
    assert player.saved_text() == before
    # the range is under each box from the start
    player.get(f"/r/{player.token}")
    assert "Poor planets you control: 0 to 48." in player.html
    assert "The number that fixes your random starting draw: 0 to 999,999,999." in player.html


def test_an_empty_seed_is_refused_and_an_empty_count_is_its_default(player: Player) -> None:
    player.start("spaceempires", "Empire", ("Orks",))
    response = player.post("choices", seed="", homeworlds="1", poor_planets="",
                           rich_planets="2", treasury="")
    assert response.status_code == 422 and said_beside(player.html, "choice-seed") == SEED
    player.post("choices", seed="7", homeworlds="1", poor_planets="", rich_planets="2",
                treasury="")
    assert yaml.safe_load(player.saved_text())["choices"] == {
        "seed": 7, "homeworlds": 1, "rich_planets": 2}
