"""Cards a player reads at arm's length (issue 20), measured on every system's example rosters
printed at poker size: most of the text at 7.5 pt or more, no sentence repeated from card to
card (core rules are on the quick-reference card), weapon and lookup tables never smaller than
the rules text beside them, and no continuation cards. The figures themselves:
benchmarks/card_reading.py."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pdfplumber
import pytest

from listbuilder.engine.cards import REFERENCE
from listbuilder.engine.library import Library
from listbuilder.engine.registry import get_system
from listbuilder.printing.geometry import CARDS, grid
from listbuilder.printing.options import PrintOptions
from listbuilder.printing.render import FLOOR_PT, print_deck, print_roster

from .conftest import CARD_SIZES, ExamplePrint, example_id
from .pdfcheck import geometry_problems
from .reading import CONTINUED, Card, cards_of, reading
from .sheets import reference_cards, sheets_of, unfilled

pytestmark = pytest.mark.print

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(ROOT.glob("examples/*/legal*.yaml"))


def printed(library: Library, path: Path, card: str = "poker") -> tuple[object, list[Card]]:
    loaded = library.read_roster(path.read_text(), str(path))
    pdf = print_roster(loaded.catalog, loaded.system, loaded.roster,
                       PrintOptions(what="cards", card=card)).pdf
    return loaded, cards_of(pdf)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_poker_card_reads_at_arms_length(library: Library, path: Path) -> None:
    _, cards = printed(library, path)
    found = reading(cards)
    assert found.readable >= 0.9, found.line()
    assert found.repeated <= 0.1, found.line()
    assert found.continued == 0, found.line()


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_tables_are_never_smaller_than_the_rules_beside_them(library: Library,
                                                             path: Path) -> None:
    loaded, cards = printed(library, path)
    units = loaded.system.cards().unit_cards(loaded.catalog, loaded.roster)  # type: ignore[attr-defined]
    checked = 0
    for unit in units:
        # a name that wraps in the card's band has the copies badge (×2) between its lines
        (card,) = [c for c in cards if re.sub(r"×\d+|\s", "", c.text).startswith(
            unit.profile.name.replace(" ", ""))]
        rules = [size for rule in unit.profile.rules
                 if (size := card.line_size(f"{rule.name}:")) is not None]
        cells = [s for table in unit.profile.tables if table.rows
                 if (s := card.size_after(table.headers[0].upper())) is not None]
        if rules and cells:
            checked += 1
            assert min(cells) >= max(rules) - 0.01, (unit.profile.name, cells, rules)
    assert checked or not any(u.profile.rules and u.profile.tables for u in units)


def test_the_quick_reference_card_closes_every_roster_print(library: Library) -> None:
    """After the unit cards: one quick-reference card, or several numbered ones where its
    rules need more than a card at the print's text size."""
    for path in EXAMPLES:
        _, cards = printed(library, path)
        references = [c for c in cards if c.text.startswith(REFERENCE)]
        assert references and cards[-len(references):] == references, path
        if len(references) > 1:
            assert all(f"{k + 1} of {len(references)}" in c.text[:60]
                       for k, c in enumerate(references)), path


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_mini_quick_reference_too_long_for_a_card_is_parted_at_its_rules(
        library: Library, path: Path) -> None:
    """op40k's quick reference ran two lines over a mini card, and those two lines took a card
    of their own ("Quick reference (continued)"). It is printed at the print's one size, on as
    many cards as its rules need, each rule whole on one card (layout._split_reference), its
    last words on the last."""
    loaded = library.read_roster(path.read_text(), str(path))
    pdf = print_roster(loaded.catalog, loaded.system, loaded.roster,
                       PrintOptions(what="cards", card="mini")).pdf
    cards = cards_of(pdf)
    assert not any(CONTINUED.match(c.text) for c in cards), [c.text[:40] for c in cards]
    references = [c for c in cards if c.text.startswith(REFERENCE)]
    assert references and cards[-len(references):] == references
    assert min(s for c in references for s in c.sizes) >= FLOOR_PT - 0.01
    assert geometry_problems(pdf) == []
    if loaded.system.id == "op40k":  # the card that ran over: its last words are on it
        assert "Cover never helps it." in " ".join(c.text for c in references)


def test_a_mini_card_never_parts_a_label_from_its_value(library: Library) -> None:
    """Six weapon columns do not fit a 44 mm card, so each weapon is a line, and "Sk 4+"
    never breaks between its label and its value; a short table (WarStuff's to-hit row) keeps
    its columns there, each number under its heading."""
    _, cards = printed(library, ROOT / "examples/actionhammer/legal.yaml", "mini")
    lines = [text for card in cards if not card.text.startswith(REFERENCE)
             for text, _ in card.lines if " · " in text]
    assert any(" · Sk " in text for text in lines)  # the weapon lines, labelled
    assert not any(text.rstrip().endswith((" Att", " Sk", " AP")) for text in lines)
    _, cards = printed(library, ROOT / "examples/warstuff/legal.yaml", "mini")
    knight = next(c for c in cards if c.text.startswith("Knight"))
    heading = next(i for i, (text, _) in enumerate(knight.lines) if text.startswith("TARGET"))
    assert knight.lines[heading][0].split()[-5:] == ["1", "2", "3", "4", "5"]
    assert knight.lines[heading + 2][0].split()[-5:] == ["3+", "4+", "5+", "6+", "6+"]


def body_pt(card: Card) -> float:
    """The size of a unit card's running text: its name is printed at 1.5 times that
    (print-cards.css), and the name is the one thing every card has."""
    return round(max(card.lines[0][1]) / 1.5, 1)


@pytest.mark.parametrize("card", ["poker", "mini"])
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_unit_cards_of_a_print_share_one_text_size(library: Library, path: Path,
                                                       card: str) -> None:
    """Every unit card of a print at one size, the largest its longest card fits
    (layout.sheet_size); test_card_safety.py holds the quick-reference cards to it too."""
    _, cards = printed(library, path, card)
    units = [c for c in cards if not c.text.startswith(REFERENCE)
             and not re.match(r"^.{1,80}? \(continued\)", c.text)]
    assert len({body_pt(c) for c in units}) == 1, [body_pt(c) for c in units]


OP40K = [ROOT / "examples" / "op40k" / name for name in ("legal.yaml", "imperial_guard.yaml")]
BLOCK = "a die a target's model to block"


@pytest.mark.parametrize("path", OP40K, ids=lambda p: p.stem)
def test_op40k_prints_block_with_a_die_for_each_model_of_the_unit_hit(
        library: Library, path: Path) -> None:
    """The seed rolls one die per model in the target unit to block, shot at or in an
    assault. Every op40k print said "a die to block each hit", at every card size and on the
    roster sheet, while the rules sheet had it right. Read back from each PDF's text."""
    loaded = library.read_roster(path.read_text(), str(path))
    for what, card in (("cards", "poker"), ("cards", "mini"), ("cards", "tarot"),
                       ("sheet", "poker")):
        pdf = print_roster(loaded.catalog, loaded.system, loaded.roster,
                           PrintOptions(what=what, card=card)).pdf
        if what == "cards":  # each card's own text (a sheet of cards side by side)
            texts = [c.text for c in cards_of(pdf) if c.text.startswith(REFERENCE)]
        else:
            with pdfplumber.open(io.BytesIO(pdf)) as doc:  # its rules in two columns
                texts = [page.crop((x0, 0, x0 + page.width / 2, page.height)).extract_text()
                         or "" for page in doc.pages for x0 in (0, page.width / 2)]
        # a word hyphenated at a line's end joined again, lines run together
        text = re.sub(r"-\s*\n\s*", "", "\n".join(texts))
        text = " ".join(text.split())
        assert "block each hit" not in text, (what, card)
        assert BLOCK in text, (what, card, text[:2000])


# -- the quick-reference cards, as a print shop counts them --------------------------------------

def test_the_hammer_wars_set_on_mini_cards_parts_its_quick_reference_alike_plain_and_bled(
        library: Library) -> None:
    """The set's quick reference took six mini cards plain, with "Trample Attack" alone on the
    sixth (a second A4 sheet for it), and five with bleed: its rules were measured laid out
    whole on a page three cards tall, and a rule across that page's break counted the page's
    foot too, which fell elsewhere on a bled face's taller page. Now the same cards both ways,
    each filled before the next starts: four, set closer (five at the lines' usual spacing,
    layout._closer), and the set's 15 cards on one A4 sheet."""
    system = get_system("hammerwars")
    catalog = library.catalog(system)
    plain = print_deck(catalog, system, PrintOptions(card="mini")).pdf
    bled = print_deck(catalog, system, PrintOptions(card="mini", bleed=True)).pdf
    sheets, bled_sheets = sheets_of(plain), sheets_of(bled)
    assert len(sheets.references) == 4 and sheets.references == bled_sheets.references
    assert (sheets.count, sheets.card_count) == (1, 15)
    assert (bled_sheets.count, bled_sheets.card_count) == (15, 15)  # a card a page
    cards = reference_cards(plain)
    assert [[r.name for r in c.rules] for c in cards][-1][-1] == "Trample Attack"
    assert unfilled(cards) == []


SIZES = [pytest.param(path, card, id=f"{example_id(path)}-{card}")
         for path in EXAMPLES for card in CARD_SIZES]


@pytest.mark.parametrize(("path", "card"), SIZES)
def test_plain_and_bled_prints_part_the_quick_reference_alike(example_print: ExamplePrint,
                                                             path: Path, card: str) -> None:
    """The same quick-reference cards, rule for rule, plain and with bleed: where they are
    parted depends on the card's text box and the text size alone (op40k on mini cards parted
    its rules 6-9-12 plain and 6-10-12 with bleed)."""
    plain = sheets_of(example_print(path, card)).references
    assert plain and plain == sheets_of(example_print(path, card, bleed=True)).references


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize(("path", "card"), SIZES)
def test_a_sheet_holds_quick_reference_cards_alone_only_after_full_sheets(
        library: Library, example_print: ExamplePrint, path: Path, card: str,
        paper: str) -> None:
    """The quick-reference cards go into the free places of the unit cards' last sheet before
    a sheet of their own is started."""
    pdf = example_print(path, card) if paper == "a4" else print_on(library, path, card, paper)
    sheets = sheets_of(pdf)
    per_sheet = grid(paper, CARDS[card]).per_page
    assert all(len(sheet) == per_sheet for sheet in sheets.cards[:-1])
    if sheets.ends_on_references_alone():
        assert len(sheets.cards[-2]) == per_sheet


def print_on(library: Library, path: Path, card: str, paper: str) -> bytes:
    loaded = library.read_roster(path.read_text(), str(path))
    return print_roster(loaded.catalog, loaded.system, loaded.roster,
                        PrintOptions(what="cards", card=card, paper=paper)).pdf


def test_op40k_on_mini_cards_takes_a_quick_reference_card_fewer_and_one_letter_sheet(
        library: Library, example_print: ExamplePrint) -> None:
    """op40k's seven units on mini cards took six quick-reference cards, 13 cards: a second
    Letter sheet (12 to a sheet) for its last one, Tough and Transport. Set closer (lines
    1.04 apart instead of 1.18, the size kept: layout._closer), its rules take five, so the
    print is 12 cards on one Letter sheet, every card still at the print's 9 pt."""
    path = ROOT / "examples" / "op40k" / "legal.yaml"
    for paper in ("letter", "a4"):
        sheets = sheets_of(print_on(library, path, "mini", paper))
        assert (sheets.count, sheets.card_count, len(sheets.references)) == (1, 12, 5), paper
    cards = cards_of(example_print(path, "mini"))
    assert {body_pt(c) for c in cards if not c.text.startswith(REFERENCE)} == {9.0}
    assert min(s for c in cards for s in c.sizes) >= FLOOR_PT - 0.01
