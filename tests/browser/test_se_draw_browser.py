"""Space Empires' Draw in real Chromium (issue 50 item 5): on a 375 px phone a player picks the
five cards drawn in the side's picker (a number box a card) and records them with ONE tap; the
other phone sees the hand drawn. The picker fits the phone: no sideways scroll, every card's
name whole, each box beside its name."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from browsertools import until
from test_accessibility import serious
from test_table_browser import page_errors, reaches, refused_answers, sent, start_match, version

pytestmark = pytest.mark.browser

Page = Any
SIZE = {"width": 375, "height": 740}
HAND = {"Tactical Move": 2, "Leadership": 1, "Recon": 1, "Terraform": 1}
DRAWN = "Tactical Move, Tactical Move, Leadership, Recon, Terraform"  # in the picker's order



def picker(page: Page, side: int) -> Any:
    return page.locator(f"#board form.tap:has(input[name=kind][value=draw-cards])"
                        f":has(input[name=side][value='{side}'])")


def layout(page: Page, side: int) -> dict[str, Any]:
    """The picker's boxes as the phone lays them out: the page's width, the picker's edges,
    and each card's row: its name's box, whether the name is cut, its number box's edges."""
    return dict(page.evaluate(
        """side => {
          const form = [...document.querySelectorAll('#board form.tap')].find(f =>
            f.kind.value === 'draw-cards' && f.side && f.side.value === String(side));
          const box = e => { const r = e.getBoundingClientRect();
                             return {left: r.left, right: r.right, top: r.top,
                                     bottom: r.bottom}; };
          return {
            scrollWidth: document.documentElement.scrollWidth,
            picker: box(form.querySelector('fieldset.counts')),
            button: {...box(form.querySelector('button')),
                     text: form.querySelector('button').textContent.trim(),
                     disabled: form.querySelector('button').disabled},
            rows: [...form.querySelectorAll('.count-row')].map(row => {
              const label = row.querySelector('label');
              const word = row.querySelector('.count-word');
              return {word: word.textContent.trim(), label: box(label), input:
                      box(row.querySelector('input')),
                      cut: label.scrollWidth > label.clientWidth + 1
                           || word.getClientRects().length === 0};
            }),
          };
        }""", side))


def test_a_hand_is_drawn_in_one_tap_on_a_small_phone(
        server: str, small_phones: tuple[Any, Any], screenshots: Path) -> None:
    one, two = small_phones[0].new_page(), small_phones[1].new_page()
    errors = page_errors(one) + page_errors(two)
    refusals = [refused_answers(one), refused_answers(two)]
    match = start_match(server, one, two, "spaceempires")
    at = version(match.one)
    page = match.one
    form = picker(page, 1)
    form.scroll_into_view_if_needed()

    shown = layout(page, 1)
    assert shown["scrollWidth"] <= SIZE["width"]
    assert shown["picker"]["left"] >= 0 and shown["picker"]["right"] <= SIZE["width"]
    assert len(shown["rows"]) == 18  # every kind of card the full deck holds
    for row in shown["rows"]:
        assert not row["cut"], row
        assert row["label"]["left"] >= 0 and row["label"]["right"] <= row["input"]["left"], row
        assert row["input"]["right"] <= SIZE["width"] and \
            row["input"]["bottom"] - row["input"]["top"] >= 44, row
    assert shown["button"]["text"] == "Draw the cards picked" and shown["button"]["disabled"]
    assert serious(page, "Space Empires' Draw picker") == []  # each box named by its card

    for card, n in HAND.items():
        form.locator(f"input[name='t_cards.{card}']").fill(str(n))
    assert form.locator(".counts-picked").inner_text() == "· 5 picked"
    button = form.locator("button[type=submit]")
    assert button.inner_text() == "Draw 5 cards" and button.is_enabled()
    form.locator("input[name='t_cards.Barrage']").fill("1")  # a sixth: the rules allow 5
    assert "6 picked: too many" in form.locator(".counts-picked").inner_text()
    assert button.is_disabled()
    form.locator("input[name='t_cards.Barrage']").fill("0")
    assert button.is_enabled()
    button.scroll_into_view_if_needed()
    shown = layout(page, 1)
    assert shown["button"]["bottom"] - shown["button"]["top"] >= 44
    assert shown["button"]["right"] <= SIZE["width"]
    page.screenshot(path=str(screenshots / "se-draw-phone-375.png"))
    page.screenshot(path=str(screenshots / "se-draw-phone-375-full.png"), full_page=True)

    button.click()  # the one tap
    sent(page)
    assert version(page) == at + 1
    assert picker(page, 1).count() == 0  # Ann has drawn her five

    other = match.two
    reaches(other, at + 1)
    until(other, "() => document.querySelector('#next').textContent.includes('draw 5 more')")
    assert other.locator("#next").inner_text().startswith("Ben: draw 5 more cards")
    log = other.locator("#board details.log")
    log.locator("summary").click()
    assert f"Ann · Draw cards ({DRAWN})" in log.inner_text()
    theirs = layout(other, 2)
    assert "Terraform" not in [r["word"] for r in theirs["rows"]]  # the only one is Ann's
    assert theirs["scrollWidth"] <= SIZE["width"]
    other.screenshot(path=str(screenshots / "se-draw-other-phone-375.png"))

    events = yaml.safe_load(page.request.get(match.mine + "/match.yaml").text())["events"]
    assert [(e["kind"], e["side"], e["cards"]) for e in events] == [("draw-cards", 1, DRAWN)]
    assert refusals == [[], []] and errors == [], (refusals, errors)
