"""Every system prints: its example roster's sheet and cards, and its one-page rules sheet."""

from __future__ import annotations

import io
import itertools
import re
from pathlib import Path

import pdfplumber
import pytest

from listbuilder.engine.cards import REFERENCE
from listbuilder.engine.library import Library
from listbuilder.engine.registry import all_systems
from listbuilder.engine.report import report
from listbuilder.printing.options import PrintOptions
from listbuilder.printing.render import RULES_PT, print_roster, print_rules

from .pdfcheck import all_text, page_sizes, placements, texts_in_boxes

pytestmark = pytest.mark.print

ROOT = Path(__file__).resolve().parents[2]
SIZES = {"a4": (595.3, 841.9), "letter": (612.0, 792.0)}


def column_text(pdf: bytes) -> str:
    """A rules sheet's text column by column (read across, columns would interleave)."""
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        page = doc.pages[0]
        w, h = float(page.width), float(page.height)
        parts = [page.crop((i * w / 3, 0, (i + 1) * w / 3, h)).extract_text() or ""
                 for i in range(3)]
    return re.sub(r"\s+", " ", " ".join(parts))


def sheet_text(pdf: bytes) -> str:
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        return doc.pages[0].extract_text() or ""


@pytest.mark.parametrize("system", all_systems(), ids=lambda s: s.id)
def test_the_example_roster_prints_its_sheet_and_cards(library: Library, system) -> None:
    path = ROOT / "examples" / system.id / "legal.yaml"
    loaded = library.read_roster(path.read_text(), str(path))
    cat, roster = loaded.catalog, loaded.roster
    printed = print_roster(cat, system, roster, PrintOptions(what="all", paper="letter"))
    assert printed.refused == ()
    # Letter pages, the card sheets turned landscape (poker cards fit 4x2 with gutters there)
    letter = SIZES["letter"]
    assert all(size in (pytest.approx(letter, abs=0.5), pytest.approx(letter[::-1], abs=0.5))
               for size in page_sizes(printed.pdf))

    sheet = system.cards().roster_sheet(cat, roster)
    first = sheet_text(printed.pdf)
    assert roster.name in first
    assert sheet.total in first
    for line in sheet.lines:
        assert line.name in first and line.cost in first
    for choice in sheet.choices:
        assert choice.name in first
    assert not sheet.problems and "Not legal" not in first

    cards = system.cards().unit_cards(cat, roster)
    boxes = [b for page in placements(printed.pdf) for b in page]
    references = sum(t.startswith(REFERENCE) for n, page in enumerate(placements(printed.pdf))
                     for t in texts_in_boxes(printed.pdf, n, page))
    # each card, the longest's continuations, the quick-reference card (or cards)
    assert references >= 1
    assert len(boxes) == len(cards) + printed.longest[2] - 1 + references
    # card by card (a page read across interleaves cards side by side), lines joined
    text = " ".join(word for n, page in enumerate(placements(printed.pdf))
                    for card_text in texts_in_boxes(printed.pdf, n, page)
                    for word in card_text.split())
    unmarked = re.sub(r"×\d+ ", "", text)  # a count's badge may read inside a long name
    for card in cards:
        assert card.profile.name in unmarked
        assert card.profile.cost in text
        if card.copies > 1:
            assert f"×{card.copies}" in text


def test_the_glossary_holds_only_the_rules_the_roster_uses(library: Library) -> None:
    path = ROOT / "examples" / "actionhammer" / "legal.yaml"
    loaded = library.read_roster(path.read_text(), str(path))
    printed = print_roster(loaded.catalog, loaded.system, loaded.roster,
                           PrintOptions(what="sheet"))
    assert printed.cards == 0 and printed.pages == 1
    text = sheet_text(printed.pdf)
    cards = loaded.system.cards().unit_cards(loaded.catalog, loaded.roster)
    used = {r.name for c in cards for r in c.rules_used()}
    assert used == {"Fearless", "Rally Cry", "Scout"}  # the units' own
    core = {r.name for r in loaded.system.cards().core_rules(loaded.catalog, cards)}
    # Blast: the Frag Grenades upgrade gives every Line Trooper a Blast weapon
    assert core == {"Save", "Morale", "Stances", "Blast", "Keen", "Rapid"}
    assert "Core rules the cards use" in text
    for name in used | core:
        assert f"{name}:" in text
    used |= core
    for rule in loaded.catalog.rules:
        if rule.name not in used:
            assert f"{rule.name}:" not in text


def test_an_illegal_roster_prints_with_its_problems_on_the_sheet(library: Library) -> None:
    path = ROOT / "examples" / "hammerwars" / "illegal.yaml"
    loaded = library.read_roster(path.read_text(), str(path))
    printed = print_roster(loaded.catalog, loaded.system, loaded.roster,
                           PrintOptions(what="sheet"))
    text = sheet_text(printed.pdf)
    assert "Not legal yet" in text
    problems = [v for v in report(loaded.system, loaded.catalog, loaded.roster).violations
                if v.severity == "error"]
    assert problems
    assert problems[0].message.split(":")[0][:30] in text.replace("\n", " ")


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("system", all_systems(), ids=lambda s: s.id)
def test_the_rules_sheet_fits_one_page(library: Library, system, paper: str) -> None:
    catalog = library.catalog(system)
    printed = print_rules(catalog, system, PrintOptions(paper=paper))
    assert printed.pages == 1
    assert page_sizes(printed.pdf) == [pytest.approx(SIZES[paper], abs=0.5)]
    assert printed.longest[1] >= RULES_PT[-1]
    # the sheet fills its page: all three columns hold text
    with pdfplumber.open(io.BytesIO(printed.pdf)) as doc:
        page = doc.pages[0]
        third = float(page.width) / 3
        words = page.extract_words()
        assert all(sum(1 for w in words if k * third <= w["x0"] < (k + 1) * third) > 40
                   for k in range(3))
    text = all_text(printed.pdf)
    assert f"{system.name}: rules reference" in text
    assert printed.refused == ()


def test_rules_sheets_take_their_numbers_from_the_catalog(library: Library) -> None:
    def text(system_id: str) -> str:
        system = next(s for s in all_systems() if s.id == system_id)
        return column_text(print_rules(library.catalog(system), system).pdf)

    hw = library.catalog("hammerwars")
    hammer = text("hammerwars")
    pool = ", ".join(f"{s.models} {s.plural if s.models > 1 else s.category}" for s in hw.pool)
    assert pool in hammer  # 9 Infantry, 5 Specialists, 2 Heroes, 1 Heavy
    assert f"Gain {hw.deployment.pts_per_round} pts and {hw.deployment.xp_per_round} xp" \
        in hammer
    words = set(hammer.replace(",", " ").split())
    for faction in hw.factions:  # table cells wrap, so word by word
        assert set(faction.name.split()) <= words, faction.name
    warstuff = text("warstuff")
    for rule in library.catalog("warstuff").rules:
        assert f"{rule.name} ({rule.cost:+d} pts)" in warstuff
    empires = text("spaceempires")
    deck = library.catalog("spaceempires").decks[0]
    assert f"Total {deck.size}" in empires and deck.size == 49
    action = text("actionhammer")
    assert "1 Leader per full 1000 pts" in action
    op40k = text("op40k")
    assert "4' x 4' table" in op40k and "4 rounds" in op40k


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_op40k_actions_are_set_across_the_top_with_rows_of_a_line_or_three(
        library: Library, paper: str) -> None:
    """The action tables are what a player looks up each activation: set across the top of
    the sheet, not in a third of it, where their "Then" cells wrapped to four or five lines."""
    system = next(s for s in all_systems() if s.id == "op40k")
    catalog = library.catalog(system)
    printed = print_rules(catalog, system, PrintOptions(paper=paper))
    with pdfplumber.open(io.BytesIO(printed.pdf)) as doc:
        page = doc.pages[0]
        words = page.extract_words()
        width = float(page.width)
    heads = sorted((w for w in words if w["text"] == "Then"), key=lambda w: w["x0"])
    assert len(heads) == 2
    assert heads[0]["x0"] < width / 3 < width / 2 < heads[1]["x0"]  # two halves of the page
    actions = [w for w in words if w["text"] == "Action" and abs(w["top"] - heads[0]["top"]) < 1]
    lines_per_row: dict[str, int] = {}
    for head, action, right, rows in ((heads[0], actions[0], width / 2, catalog.unit_actions),
                                      (heads[1], actions[1], width, catalog.vehicle_actions)):
        # below the header, each word at the Action column's edge starts a row (the first
        # after the last row: the next heading, at the table's edge, a cell's padding left)
        starts = sorted((w for w in words if -4 < w["x0"] - action["x0"] < 1
                         and w["top"] > head["bottom"]), key=lambda w: w["top"])
        assert [w["text"] for w in starts[:len(rows)]] == [a.name for a in rows]
        for row, end in itertools.pairwise(starts[:len(rows) + 1]):
            tops = {round(w["top"]) for w in words if w["x0"] >= head["x0"] - 1
                    and w["x1"] <= right and row["top"] - 1 <= w["top"] < end["top"] - 1}
            lines_per_row[row["text"]] = len(tops)
    assert set(lines_per_row) == {a.name for a in (*catalog.unit_actions,
                                                    *catalog.vehicle_actions)}
    assert max(lines_per_row.values()) <= 3, lines_per_row
    assert min(lines_per_row.values()) >= 1
