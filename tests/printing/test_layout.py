"""The card layout's own decisions: weapon lines, the lean default stylesheet, and how a long
card is refitted in as few rounds as possible."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pdfplumber
import pytest
import weasyprint

from listbuilder.engine.profile import Table
from listbuilder.printing import layout
from listbuilder.printing.fetcher import StaticFetcher
from listbuilder.printing.options import PrintOptions
from listbuilder.printing.render import FLOOR_PT, print_roster, warm_up

from .pdfcheck import all_text

pytestmark = pytest.mark.print


def test_a_table_row_prints_as_one_line_with_its_labels() -> None:
    weapons = Table("Weapons", ("Weapon", "Range", "Att", "Sk", "AP", "Features"),
                    (("Hand Cannon", '12"', "1", "3+", "-1", ""),
                     ("Rusted Greataxe", "Melee", "5", "3+", "-2", "Keen")),
                    labels=("", "", "Att", "Sk", "AP", ""))
    assert weapons.lines() == (("Hand Cannon", ('12"', "Att 1", "Sk 3+", "AP -1")),
                               ("Rusted Greataxe", ("Melee", "Att 5", "Sk 3+", "AP -2",
                                                    "Keen")))
    # without labels: the first cell alone, every other cell after its header
    attacks = Table("Attacks", ("Dice", "Light", "Heavy"), (("2", "3+", "6+"),))
    assert attacks.lines() == (("2", ("Light 3+", "Heavy 6+")),)


def test_cards_start_from_the_lean_defaults_not_weasyprints_full_sheet() -> None:
    # the hook overridden is WeasyPrint's own: if a release renames it, this fails loudly
    # rather than every card silently taking a fifth longer
    assert callable(getattr(weasyprint.HTML, "_ua_stylesheets", None))
    with layout.STYLES.borrow() as styles:
        document = styles.document(
            "<html><head><title>hidden</title></head><body><h1>Heading</h1>"
            "<p><b>Bold</b> and <i>slanted</i></p><ul><li>first</li></ul></body></html>",
            layout.PAGE_CSS, StaticFetcher())
        lean = styles.get(layout.UA_CSS[layout.PAGE_CSS])
        pdf = document.write_pdf()
    assert document._html._ua_stylesheets() == lean
    assert weasyprint.HTML(string="<p>x</p>")._ua_stylesheets() != lean
    text = all_text(pdf)
    assert "hidden" not in text  # head stays hidden
    assert "Heading" in text and "first" in text and "•" in text  # list markers still drawn
    with pdfplumber.open(io.BytesIO(pdf)) as read_back:
        font_of = {w["text"]: w["fontname"]
                   for w in read_back.pages[0].extract_words(extra_attrs=["fontname"])}
    assert "Bold" in font_of["Bold"] and "Bold" in font_of["Heading"]  # <b>, <h1> still bold
    assert "Italic" in font_of["slanted"]  # <i> still slanted
    assert "Bold" not in font_of["and"]



def test_cards_leave_out_the_margin_boxes_and_sheets_keep_their_footer_aligned(read) -> None:
    from listbuilder.printing.render import print_sheet

    with layout.STYLES.borrow() as styles:
        card = styles.document("<p>x</p>", layout.CARD_CSS, StaticFetcher())
        card_ua = styles.get(layout.UA_CSS[layout.CARD_CSS])
        sheet_ua = styles.get(layout.UA_CSS[layout.PAGE_CSS])
    assert card._html._ua_stylesheets() == card_ua and len(sheet_ua) == len(card_ua) + 1
    # the sheet's page footer still sits right, as the margin boxes' defaults put it
    loaded = read(LONG_ROSTER)
    printed = print_sheet(loaded.catalog, loaded.system, loaded.roster, PrintOptions())
    with pdfplumber.open(io.BytesIO(printed.pdf)) as doc:
        page = doc.pages[0]
        words = page.extract_words()
        footer = [w for w in words if w["text"] == "Listbuilder"][-1]
        ones = [w for w in words if w["top"] == footer["top"]]
    assert page.width - max(w["x1"] for w in ones) < 12 * 72 / 25.4  # within the 11 mm margin
    assert footer["x0"] > page.width / 2

FLOOR = 6.0  # the refit's arithmetic, on a stock whose smallest text is 6 pt (chits')


@pytest.mark.parametrize(("size", "overflow"), [(8.4, 1.226), (7.0, 1.01), (8.4, 1.106)])
def test_a_refit_tries_the_guess_and_a_step_below_it(size: float, overflow: float) -> None:
    first, second = layout._candidates(size, overflow, FLOOR)
    assert FLOOR <= second < first < size
    assert second == pytest.approx(first * layout.REFIT_STEP, abs=0.01)


def test_a_face_far_too_long_goes_straight_to_a_continuation() -> None:
    assert layout._candidates(7.0, 1.6, FLOOR) == []  # its guess is ~5.1 pt
    assert layout._candidates(6.2, 1.3, FLOOR) == []
    assert layout._candidates(6.2, 1.05, FLOOR) == [6.0]  # the floor is worth a try
    # a card's floor (7.5 pt): the same
    assert layout._candidates(9.0, 1.6, FLOOR_PT) == []
    assert layout._candidates(7.8, 1.05, FLOOR_PT) == [FLOOR_PT]


@pytest.mark.parametrize(("size", "fill", "grown"), [(7.0, 0.3, 10.5), (7.0, 0.7, 8.46),
                                                     (7.0, 0.85, None), (10.5, 0.2, None)])
def test_a_sparse_face_grows_towards_a_full_card_up_to_the_maximum(
        size: float, fill: float, grown: float | None) -> None:
    assert layout._grow(size, fill, 10.5) == (pytest.approx(grown, abs=0.01) if grown else None)


# A design carrying every special rule (a face too long for one poker card even at 6 pt) and a
# short unit.
EVERY_RULE = ("Armored", "Brutal", "Camouflaged", "Deadly", "Death Blow", "Elite", "Entangle",
              "Fear", "Fearless", "Fire", "Flying", "Frenzy", "Healer", "Hit & Run", "Leader",
              "Pathfinder", "Poison", "Power Shot", "Power Strike", "Regeneration", "Scout",
              "Sweep Attack", "Tough", "Trapper", "Vanguard", "Vicious")
LONG_ROSTER = f"""
format: 1
system: warstuff
name: Long
points_limit: 500
designs:
  - {{name: Walking Rulebook, quality: 5, rules: [{", ".join(EVERY_RULE)}]}}
entries:
  - {{unit: Walking Rulebook}}
  - {{unit: Human Warrior}}
"""

def test_a_card_too_long_for_the_floor_is_laid_out_once_on_continuation_cards(
        read, monkeypatch: pytest.MonkeyPatch) -> None:
    loaded = read(LONG_ROSTER)
    renders: list[tuple[bool, list[float]]] = []
    real = layout._render

    def counting(entries, *args, **kwargs):  # type: ignore[no-untyped-def]
        renders.append((bool(kwargs.get("continued")), [size for _, size in entries]))
        return real(entries, *args, **kwargs)

    monkeypatch.setattr(layout, "_render", counting)
    monkeypatch.setenv("LISTBUILDER_PRINT_WORKERS", "1")
    printed = print_roster(loaded.catalog, loaded.system, loaded.roster,
                           PrintOptions(what="cards"))
    name, size, cards = printed.longest
    assert (name, size) == ("Walking Rulebook", FLOOR_PT) and cards >= 2
    # its text should not fit even at the floor: no try on one card, one continued layout
    assert [r for r in renders if r[0]] == [(True, [FLOOR_PT])]
    rounds = [sizes for continued, sizes in renders if not continued]
    # the short faces (the other unit, the quick-reference card): first sizes, a refit at most
    assert 1 <= len(rounds) <= 3
    assert all(len(sizes) <= 2 and min(sizes) >= FLOOR_PT for sizes in rounds)


def test_styles_are_lent_one_print_at_a_time_and_reused() -> None:
    # a second print meanwhile gets a set of its own
    with layout.STYLES.borrow() as first, layout.STYLES.borrow() as second:
        assert second is not first
    with layout.STYLES.borrow() as again:  # and later prints reuse the warm sets
        assert again in (first, second)


def test_warm_up_leaves_a_warm_set_for_the_next_print() -> None:
    assert warm_up() > 0
    with layout.STYLES.borrow() as styles:
        assert layout.CARD_CSS in styles.sheets and layout.PAGE_CSS in styles.sheets


def test_a_far_longer_face_weighs_more_when_faces_are_shared_out() -> None:
    faces = [layout.Face(["print/back.html"], "x" * n, "back", "x") for n in (100, 110, 90, 300)]
    assert layout._weights(faces) == [102, 112, 92, 302 * layout.LONG_WEIGHT]


def test_a_unit_card_starts_at_the_size_its_text_should_fit(read) -> None:
    from listbuilder.printing.render import _context, _stock, unit_faces

    loaded = read(LONG_ROSTER)
    options = PrintOptions(what="cards")
    stock = _stock(options)
    context = _context(loaded.system, options, "Start")
    cards = loaded.system.cards().unit_cards(loaded.catalog, loaded.roster)
    (long, _), (short, _) = unit_faces(loaded.system, cards)
    long_pt, short_pt = (layout._start(face, stock, context) for face in (long, short))
    assert long_pt < short_pt <= stock.font_pt  # more text, smaller start
    back = layout.Face(["print/back.html"], long.item, "back", "x")
    assert layout._start(back, stock, context) == stock.font_pt  # not a unit card: the largest


def test_the_straight_reference_prints_the_same_cards(read) -> None:
    """benchmarks/print.py times the cards laid out straight through WeasyPrint (every copy
    in place) beside the imposed print: that reference must print the same unit cards."""
    import io

    import pdfplumber

    from listbuilder.printing.geometry import GUTTER
    from listbuilder.printing.render import _context, _stock, unit_faces
    from listbuilder.printing.straight import render_straight

    loaded = read(LONG_ROSTER)
    options = PrintOptions(what="cards")
    cards = loaded.system.cards().unit_cards(loaded.catalog, loaded.roster)
    pdf = render_straight(unit_faces(loaded.system, cards), _stock(options), "a4", GUTTER,
                          _context(loaded.system, options, "Straight"))
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        text = " ".join(page.extract_text() or "" for page in doc.pages)
    assert all(card.profile.name in text for card in cards)


def test_a_face_is_drawn_once_before_it_is_laid_out(read, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its starting size, the sheet's shared size and its cache key all read one drawing:
    no template reads the shared size, the one thing that differs between them."""
    from dataclasses import replace

    from listbuilder.printing.render import _context, _stock, unit_faces

    loaded = read(LONG_ROSTER)
    options = PrintOptions(what="cards")
    stock, context = _stock(options), _context(loaded.system, options, "Once")
    cards = loaded.system.cards().unit_cards(loaded.catalog, loaded.roster)
    faces = [face for face, _ in unit_faces(loaded.system, cards)]
    for face in faces:
        drawn = [layout._draw_face(tuple(face.template), face.item, replace(stock, sheet_pt=pt),
                                   "end", tuple(sorted(context.items()))) for pt in (0.0, 6.5)]
        assert drawn[0] == drawn[1]
    draws: list[object] = []
    real = layout._draw_face
    monkeypatch.setattr(layout, "_draw_face", lambda *key: draws.append(key) or real(*key))
    layout._drawn_face.cache_clear()
    shared = layout.sheet_size(faces, stock, context)
    keys = [layout._key(face, shared, context) for face in faces]
    assert shared.sheet_pt and len(set(keys)) == len(faces) == len(draws)


def test_the_longest_cards_benchmark_runs(tmp_path) -> None:
    """`benchmarks/print.py --longest mini` crashed on a card attribute that had gone
    (issue 38); it names each system's cards with the smallest text."""
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, str(root / "benchmarks" / "print.py"), "--longest",
                           "mini"], capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "unit cards on mini cards; the ones with the smallest text:" in done.stdout
    assert re.search(r"^  \d+\.\d\d pt, \d card\(s\): .+ \(.+\)$", done.stdout, re.M)


def test_the_quick_reference_fills_each_card_before_the_next_in_order() -> None:
    """Its rules in order, each card taking as many as fit before the next starts; a rule
    taller than a card alone; a card that ran over when laid out (`most`) gives its last rule
    to the next card, and the cards after it are filled again."""
    heights = [129.0, 129.0, 100.6, 86.5, 129.0, 29.8, 44.0, 29.8, 44.0, 44.0, 42.0, 72.3]
    assert layout._pack(heights, 193.4) == [(0, 1), (1, 2), (2, 4), (4, 6), (6, 10),
                                            (10, 12)]
    assert layout._pack([50.0, 300.0, 50.0, 50.0], 120.0) == [(0, 1), (1, 2), (2, 4)]
    assert layout._pack(heights, 193.4, {6: 3}) == [(0, 1), (1, 2), (2, 4), (4, 6), (6, 9),
                                                    (9, 12)]
