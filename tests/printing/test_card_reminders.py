"""Each system's card carries what a player looks up most while playing the unit, in the unit's
own numbers, and the printed card holds it: read back from the PDF, card by card."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pdfplumber
import pytest

from listbuilder.engine.cards import UnitCard
from listbuilder.engine.library import Library
from listbuilder.engine.profile import Profile
from listbuilder.printing.options import PrintOptions
from listbuilder.printing.render import print_roster

from .pdfcheck import placements

ROOT = Path(__file__).resolve().parents[2]
VEHICLES = """
format: 1
system: op40k
name: Armour
points_limit: 1000
factions: [Imperial Guard]
entries:
  - {unit: Leman Russ, count: 1}
  - {unit: Guardsmen, count: 10}
"""


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def printed_cards(pdf: bytes) -> list[str]:
    """The text of each card as printed, a card that runs on joined to its continuation.
    Words join lines only 1 pt apart: pdfplumber's usual 3 pt tolerance chains neighbouring
    lines of a small-print card into one and interleaves their words."""
    out: list[str] = []
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        for page, boxes in zip(doc.pages, placements(pdf), strict=True):
            height = float(page.height)
            for box in boxes:
                area = page.crop((box.x, height - box.y - box.h, box.x + box.w, height - box.y),
                                 strict=False)
                text = " ".join(w["text"] for w in area.extract_words(y_tolerance=1))
                if out and re.match(r".{1,80}? \(continued\)", text):
                    out[-1] += " " + text
                else:
                    out.append(text)
    return [flat(t) for t in out]


def stats(profile: Profile) -> dict[str, str]:
    return {s.label: s.value for s in profile.stats}


def read(library: Library, text: str) -> tuple[tuple[UnitCard, ...], list[str]]:
    loaded = library.read_roster(text)
    cards = loaded.system.unit_cards(loaded.catalog, loaded.roster)
    pdf = print_roster(loaded.catalog, loaded.system, loaded.roster,
                       PrintOptions(what="cards", card="poker")).pdf
    return cards, printed_cards(pdf)


def card_text(printed: list[str], card: UnitCard) -> str:
    (found,) = [t for t in printed if t.startswith(flat(card.profile.name))]
    return found


def assert_reminders_printed(cards: tuple[UnitCard, ...], printed: list[str]) -> None:
    assert len(printed) == len(cards)
    for card in cards:
        text = card_text(printed, card)
        riders = [r for rider in card.attached for r in rider.reminders]
        for reminder in (*card.reminders, *riders):
            assert flat(f"{reminder.name}: {reminder.text}") in text, (card.profile.name, text)


@pytest.mark.parametrize("example", ["hammerwars/legal", "op40k/legal", "actionhammer/legal",
                                     "spaceempires/legal", "warstuff/legal"])
def test_every_card_prints_its_reminders(library: Library, example: str) -> None:
    cards, printed = read(library, (ROOT / "examples" / f"{example}.yaml").read_text())
    assert all(card.reminders for card in cards)
    assert_reminders_printed(cards, printed)


def test_hammer_wars_card_says_how_far_each_action_goes_and_how_attacks_roll(
        library: Library) -> None:
    cards, printed = read(library, (ROOT / "examples/hammerwars/legal.yaml").read_text())
    for card in cards:
        text = card_text(printed, card)
        move = int(stats(card.profile)["Move"].rstrip('"'))
        reach = int(stats(card.profile)["Range"].rstrip('"'))
        assert f'Walk: {move}" and attack' in text
        assert f'Run: {2 * move}", no attack' in text
        target = f'within {reach}" and in sight' if reach else "in base contact"
        assert f"at one enemy {target}" in text
        assert "-1 if the target is in cover" in text


def test_one_page_40k_cards_say_what_quality_means_and_what_a_vehicle_rolls(
        library: Library) -> None:
    cards, printed = read(library, VEHICLES)
    tank, squad = (card_text(printed, c) for c in cards)
    armour = stats(cards[0].profile)["Quality"]
    assert f"Quality {armour}: Every roll it makes needs {armour}: to hit" in tank
    assert 'Move: 10", shoot one weapon at one unit' in tank
    assert "front the lower of 2, side one die, rear the higher of 2" in tank
    assert "1-3 Shaken, 4-5 Immobilised, 6 Destroyed" in tank
    quality = stats(cards[1].profile)["Quality"]
    assert f"Every roll it makes needs {quality}: a die a model" in squad
    assert 'Assault: 12", into contact and fight' in squad
    assert f'{quality} or it flees 2D6"' in squad


def test_actionhammer_card_says_its_save_morale_point_and_stances(library: Library) -> None:
    loaded = library.read_roster((ROOT / "examples/actionhammer/legal.yaml").read_text())
    cards, printed = read(library, (ROOT / "examples/actionhammer/legal.yaml").read_text())
    entries = {e.unit: e for e in loaded.roster.entries}
    for card in cards:
        text = card_text(printed, card)
        s = stats(card.profile)
        assert f"Save {s['Save']}: each hit on it, a die plus the attack's AP; {s['Save']} " \
               f"saves (+1 against shooting in cover)" in text
        assert "Stances: to hit, its own/enemies': Regular 0/0 · Attacking +1/+1" in text
        # a Leader and its Bodyguard test together, on their best Morale
        entry = entries[card.profile.name]
        joined = [e for e in loaded.roster.entries if e.joins and e.joins == entry.label]
        models = entry.count + sum(e.count for e in joined)
        best = min(int(m.rstrip("+")) for m in (s["Morale"], *(
            stats(r.profile)["Morale"] for r in card.attached)))
        if models > 1:
            below = f"{models // 2} model{'s' if models // 2 != 1 else ''}"
            assert f"Morale {best}+: at {below} or fewer, roll {best}+" in text


def test_space_empires_card_names_its_types_and_the_cards_that_lift_it(
        library: Library) -> None:
    cards, printed = read(library,
                          (ROOT / "examples/spaceempires/legal-big-empire.yaml").read_text())
    for card in cards:
        text = card_text(printed, card)
        types = stats(card.profile)["Type"]
        assert f"Type {types}:" in text
        if "S" in types:
            force = int(stats(card.profile)["Force"])
            assert f"Bombards a ground battle at Force {force / 2:g}" in text
            assert "Space Combat +5" in text
        else:
            assert "a Ground unit" in text
            assert "Rides a transport: Force 0 in a space battle" in text
        if "L" in types:
            assert "Leadership +5 each" in text
