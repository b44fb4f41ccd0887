"""Space Empires' Draw on the tracker's board (issue 50 item 5): one form a side whose draw it
is, a number box a card left in the deck, posted as the page has it (scripts off: a plain form
post) and recorded as one draw-cards event."""

from __future__ import annotations

import html
import re
from typing import Any

import yaml
from flask.testing import FlaskClient
from test_table import TABLE, message, started, version


def draw_form(page: str, side: int) -> str:
    """The board's Draw form for `side`."""
    for form in re.findall(r'<form method="post"[^>]*class="tap">.*?</form>', page, re.S):
        if 'name="kind" value="draw-cards"' in form and \
                f'name="side" value="{side}"' in form:
            return str(form)
    raise AssertionError(f"no Draw form for side {side}")


def boxes(form: str) -> dict[str, tuple[int, int]]:
    """Each card's box in the form: its name -> (value shown, most)."""
    found = re.findall(r'name="t_cards\.([^"]+)" type="number" inputmode="numeric" min="0" '
                       r'max="(\d+)" value="(\d+)"', form)
    return {html.unescape(name): (int(value), int(most)) for name, most, value in found}


def posted(form: str, picks: dict[str, int]) -> dict[str, Any]:
    """The form as a browser without scripts posts it, with `picks` typed in its boxes."""
    data: dict[str, Any] = {html.unescape(n): html.unescape(v) for n, v in re.findall(
        r'<input type="hidden" name="([^"]+)" value="([^"]*)">', form)}
    for name in boxes(form):
        data[f"t_cards.{name}"] = str(picks.get(name, 0))
    return data


def events(client: FlaskClient, match: str) -> list[dict[str, Any]]:
    return list(yaml.safe_load(client.get(match + "/match.yaml").get_data(as_text=True))
                ["events"] or [])


def test_the_board_draws_one_picker_a_side_whose_draw_it_is(client: FlaskClient) -> None:
    match, _ = started(client, "spaceempires")
    page = client.get(match).get_data(as_text=True)
    assert 'name="kind" value="draw"' not in page  # no one-card draws left on the board
    for side in (1, 2):
        form = draw_form(page, side)
        cards = boxes(form)
        assert len(cards) == 18 and all(value == 0 for value, _ in cards.values())
        assert cards["Tactical Move"] == (0, 5) and cards["Recon"] == (0, 2)
        assert cards["Terraform"] == (0, 1)
        assert "Cards drawn, up to 5" in form
        assert ">Draw the cards picked</button>" in form
        assert 'data-many="Draw {} cards"' in form


def test_a_hand_drawn_in_one_post_without_scripts(client: FlaskClient) -> None:
    match, _ = started(client, "spaceempires")
    page = client.get(match).get_data(as_text=True)
    at = version(page)
    picks = {"Tactical Move": 3, "Recon": 1, "Terraform": 1}
    answer = client.post(match + "/event", data=posted(draw_form(page, 1), picks))
    assert answer.status_code == 303  # the page again, as after any tap without scripts
    assert events(client, match) == [
        {"kind": "draw-cards", "side": 1,
         "cards": "Tactical Move, Tactical Move, Tactical Move, Recon, Terraform"}]
    page = client.get(match).get_data(as_text=True)
    assert version(page) == at + 1  # one event for the five cards
    words = html.unescape(page)
    assert "Draw cards (Tactical Move, Tactical Move, Tactical Move, Recon, Terraform)" in words
    # Ann's five are drawn: her picker is gone, Ben's has no Terraform left to pick
    assert not any('name="side" value="1"' in form and "draw-cards" in form for form in
                   re.findall(r'<form method="post"[^>]*class="tap">.*?</form>', page, re.S))
    ben = boxes(draw_form(page, 2))
    assert "Terraform" not in ben and ben["Tactical Move"] == (0, 5)
    assert ben["Recon"] == (0, 1)


def test_a_draw_the_rules_refuse_is_said_and_not_recorded(client: FlaskClient) -> None:
    match, _ = started(client, "spaceempires")
    page = client.get(match).get_data(as_text=True)
    form = draw_form(page, 1)
    answer = client.post(match + "/event", data=posted(form, {"Tactical Move": 5, "Recon": 1}),
                         headers=TABLE)
    assert answer.status_code == 422
    said = message(answer.get_data(as_text=True))
    assert "Ann may draw 5 more cards this Draw Phase, not 6" in said and "Pick 5" in said
    answer = client.post(match + "/event", data=posted(form, {}), headers=TABLE)
    assert answer.status_code == 422 and "no card is picked" in message(
        answer.get_data(as_text=True))
    assert events(client, match) == []


def test_a_picker_post_that_is_not_numbers_is_refused_in_words(client: FlaskClient) -> None:
    match, _ = started(client, "spaceempires")
    page = client.get(match).get_data(as_text=True)
    form = draw_form(page, 1)
    for bad in ({"t_cards.Recon": "lots"}, {"t_cards.Recon, Recon": "1"},
                {"t_cards.": "1"}, {"t_cards.Recon": "-1"}):
        data = {**posted(form, {}), **bad}
        answer = client.post(match + "/event", data=data, headers=TABLE)
        assert answer.status_code == 400, bad
        assert message(answer.get_data(as_text=True)).startswith("That tap was not understood")
    too_many = {**posted(form, {}), **{f"t_cards.Card {i}": "1" for i in range(70)}}
    answer = client.post(match + "/event", data=too_many, headers=TABLE)
    assert answer.status_code == 400
    assert events(client, match) == []
