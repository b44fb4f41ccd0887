"""Each system's card carries, in one line, the unit's own numbers for the core rules a player
checks most, and the quick-reference card printed after the cards says what those rules are:
read back from the PDF, card by card."""

from __future__ import annotations

import io
import re
from dataclasses import replace
from pathlib import Path

import pdfplumber
import pytest

from listbuilder.engine.cards import REFERENCE, UnitCard
from listbuilder.engine.library import Library
from listbuilder.engine.profile import Profile
from listbuilder.printing.options import PrintOptions
from listbuilder.printing.render import print_roster

from .pdfcheck import placements

pytestmark = pytest.mark.print

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
    """The text of each card as printed, a card that runs on joined to its continuation (and
    the quick-reference cards to the first of them).
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
                # a quick reference on several cards is one text, as a continued card is
                if out and (re.match(r".{1,80}? \(continued\)", text) or (
                        text.startswith(REFERENCE) and out[-1].startswith(REFERENCE))):
                    out[-1] += " " + text
                else:
                    out.append(text)
    return [flat(t) for t in out]


def stats(profile: Profile) -> dict[str, str]:
    return {s.label: s.value for s in profile.stats}


def read(library: Library, text: str) -> tuple[tuple[UnitCard, ...], list[str]]:
    loaded = library.read_roster(text)
    cards = loaded.system.cards().unit_cards(loaded.catalog, loaded.roster)
    pdf = print_roster(loaded.catalog, loaded.system, loaded.roster,
                       PrintOptions(what="cards", card="poker")).pdf
    return cards, printed_cards(pdf)


def card_text(printed: list[str], card: UnitCard) -> str:
    # a name that wraps in the card's band has the copies badge (×2) between its lines
    (found,) = [t for t in printed
                if re.sub(r" ×\d+", "", t).startswith(flat(card.profile.name))]
    return found


def reminder_line(card: UnitCard) -> str:
    return " · ".join(flat(f"{r.name} {r.text}") for r in card.reminders)


def reference(printed: list[str]) -> str:
    (found,) = [t for t in printed if t.startswith(REFERENCE)]
    return found


@pytest.mark.parametrize("example", ["hammerwars/legal", "op40k/legal", "actionhammer/legal",
                                     "spaceempires/legal", "warstuff/legal"])
def test_every_card_prints_its_reminder_line_and_one_card_the_core_rules(
        library: Library, example: str) -> None:
    """Each unit card holds its own numbers for the core rules in one line; what the rules
    say is printed once, on the quick-reference card after them."""
    loaded = library.read_roster((ROOT / "examples" / f"{example}.yaml").read_text())
    cards, printed = read(library, (ROOT / "examples" / f"{example}.yaml").read_text())
    assert len(printed) == len(cards) + 1
    for card in cards:
        assert card.reminders
        assert reminder_line(card) in card_text(printed, card), card.profile.name
    core = loaded.system.cards().core_rules(loaded.catalog, cards)
    assert core
    for rule in core:
        assert flat(f"{rule.name}: {rule.text}") in reference(printed)
        # said once, not on every card
        assert not any(flat(rule.text) in card_text(printed, c) for c in cards)


def test_hammer_wars_card_says_how_far_each_action_goes(library: Library) -> None:
    cards, printed = read(library, (ROOT / "examples/hammerwars/legal.yaml").read_text())
    for card in cards:
        text = card_text(printed, card)
        move = int(stats(card.profile)["Move"].rstrip('"'))
        # Run forbids shooting, not melee (the seed: "May not shoot")
        assert f'Walk {move}", may shoot · Run {2 * move}", no shooting' in text
        assert "no attack" not in text
    ref = reference(printed)
    assert "at one enemy within the unit's Range and in sight (Range 0: in base contact)" in ref
    assert "-1 if the target is in cover" in ref


def test_one_page_40k_cards_say_what_quality_is_rolled_for(library: Library) -> None:
    cards, printed = read(library, VEHICLES)
    tank, squad = (card_text(printed, c) for c in cards)
    armour = stats(cards[0].profile)["Quality"]
    assert f"Quality {armour} to hit, to block and for Shaken tests" in tank
    quality = stats(cards[1].profile)["Quality"]
    assert f"Quality {quality} to hit, to block and for morale" in squad
    ref = reference(printed)
    assert 'Move: 10", shoot one weapon at one unit' in ref
    assert "front the lower of 2, side one die, rear the higher of 2" in ref
    assert "1-3 Shaken, 4-5 Immobilised, 6 Destroyed" in ref
    assert 'Assault: 12", into contact and fight' in ref
    assert 'or it flees 2D6"' in ref


def test_actionhammer_card_says_its_save_and_morale_point(library: Library) -> None:
    loaded = library.read_roster((ROOT / "examples/actionhammer/legal.yaml").read_text())
    cards, printed = read(library, (ROOT / "examples/actionhammer/legal.yaml").read_text())
    entries = {e.unit: e for e in loaded.roster.entries}
    for card in cards:
        text = card_text(printed, card)
        s = stats(card.profile)
        save = int(s["Save"].rstrip("+"))
        assert f"Save {save}+ ({max(2, save - 1)}+ vs shots in cover)" in text
        # a Leader and its Bodyguard test together, on their best Morale
        entry = entries[card.profile.name]
        host = next((e for e in loaded.roster.entries if entry.joins and e.label == entry.joins),
                    entry)
        group = [host, *(e for e in loaded.roster.entries if e.joins and e.joins == host.label)]
        models = sum(e.count for e in group)
        best = min(int(stats(c.profile)["Morale"].rstrip("+")) for c in cards
                   if c.profile.name in {e.unit for e in group})
        if models > 1:
            below = f"{models // 2} model{'s' if models // 2 != 1 else ''}"
            assert f"Morale {best}+ at {below} or fewer" in text
    assert "Stances: To hit: the unit's own attacks / enemies attacking it. Regular 0/0 · " \
           "Attacking +1/+1" in reference(printed)


def test_space_empires_card_names_its_types_and_the_cards_that_lift_it(
        library: Library) -> None:
    cards, printed = read(library,
                          (ROOT / "examples/spaceempires/legal-big-empire.yaml").read_text())
    for card in cards:
        text = card_text(printed, card)
        types = stats(card.profile)["Type"]
        if "S" in types:
            force = int(stats(card.profile)["Force"])
            assert text.count("Bombards at Force") == 1
            assert f"Bombards at Force {force / 2:g}" in text
            assert "Space Combat +5" in text
        if "L" in types:
            assert "Cards Leadership +5 each" in text
        # a type the card's keywords print ("INFANTRY") is not said again in the reminder,
        # and the Force is a stat, not repeated in the cost line
        named = {n for r in card.reminders for n in r.name.split(" & ")}
        assert not named & set(card.profile.keywords), card.profile.name
        assert not re.search(r"Force \d", card.profile.cost)
    assert "S Space, L Leaders, P Psychic, I Infantry" in reference(printed)


def test_op40k_quick_reference_says_one_damage_roll_and_morale_after_any_attack(
        library: Library) -> None:
    """As the seed and our resolver have it, read back from the printed quick-reference
    card: a vehicle that fails to block one hit or more rolls once on the damage table, and
    any attack (not only shooting) that halves a unit makes it test."""
    _, printed = read(library, (ROOT / "examples/op40k/legal.yaml").read_text())
    ref = reference(printed)
    assert "when any attack leaves it at half its models or fewer" in ref
    assert "When a vehicle fails to block one hit or more, roll once on the damage table" in ref
    assert "For each hit" not in ref and "when shooting halves" not in ref


def test_a_fearless_actionhammer_card_prints_no_morale_test(library: Library) -> None:
    """Sergeant Hale is Fearless and never tests (as quick resolve has it), so his card has no
    "Morale 3+ at 1 Wounds or fewer"; a single model's threshold is in words that agree."""
    from listbuilder.systems.actionhammer.cards import reminders

    catalog = library.catalog("actionhammer")
    hale = catalog.find_unit("Sergeant Hale")
    assert hale is not None and "Fearless" in hale.special_rules
    lines = reminders(catalog, hale.fielded(1))
    assert [r.name for r in lines] == [f"Save {hale.save}+"]
    one = replace(hale, special_rules=(), wounds=3)
    (_, morale) = reminders(catalog, one.fielded(1))
    assert morale.text == "at 1 Wound or fewer"


def test_the_quick_reference_cards_back_says_rules_not_unit_card(library: Library) -> None:
    """Printed with backs, the quick-reference card's back said "Unit card"."""
    loaded = library.read_roster((ROOT / "examples/op40k/legal.yaml").read_text())
    cards = loaded.system.cards().unit_cards(loaded.catalog, loaded.roster)
    pdf = print_roster(loaded.catalog, loaded.system, loaded.roster,
                       PrintOptions(what="cards", card="poker", duplex="long")).pdf
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        text = flat(" ".join(page.extract_text() or "" for page in doc.pages))
        words = [w for page in doc.pages for w in page.extract_words()]
    assert text.count("Unit card") == len(cards)  # one back each, the reference's not among them
    # on the reference's back, "Rules" stands just above its name, in the same column
    names = [w for w in words if w["text"] == REFERENCE.split()[0]]
    assert any(r["text"] == "Rules" and 0 < n["top"] - r["top"] < 30
               and abs((r["x0"] + r["x1"]) - (n["x0"] + n["x1"])) < 60
               for n in names for r in words)
