"""Printed cards read back from the PDF: sheets, counts, texts, marks, backs, blank gutters."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from listbuilder.engine.cards import REFERENCE
from listbuilder.engine.library import Library
from listbuilder.engine.registry import get_system
from listbuilder.printing.geometry import BLEED, CARDS, PAPERS, grid, pt
from listbuilder.printing.options import PrintError, PrintOptions
from listbuilder.printing.render import (
    FLOOR_PT,
    Printed,
    emblem,
    print_chits,
    print_deck,
    print_roster,
)

from .pdfcheck import (
    Check,
    all_text,
    geometry_problems,
    page_sizes,
    page_strokes,
    pixels,
    placements,
    texts_in_boxes,
)

pytestmark = pytest.mark.print

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "actionhammer" / "legal.yaml"


def size_pt(paper: str) -> tuple[float, float]:
    w, h = PAPERS[paper]
    return pt(w), pt(h)


@pytest.fixture(scope="module")
def deck(library: Library) -> Printed:
    system = get_system("spaceempires")
    return print_deck(library.catalog(system), system, PrintOptions(cut_marks=True))


@pytest.fixture(scope="module")
def roster(library: Library):
    return library.read_roster(EXAMPLE.read_text(), str(EXAMPLE))


@pytest.fixture(scope="module")
def duplex(roster) -> Printed:
    return print_roster(roster.catalog, roster.system, roster.roster,
                        PrintOptions(what="cards", duplex="long"))


def test_the_action_deck_is_49_cards_of_18_kinds_nine_to_a_sheet(deck: Printed,
                                                                   library: Library) -> None:
    placed = placements(deck.pdf)
    assert [len(p) for p in placed] == [9, 9, 9, 9, 9, 4]
    assert sum(len(p) for p in placed) == 49
    assert len({p.form for page in placed for p in page}) == 18  # each kind laid out once
    assert all(size == pytest.approx(size_pt("a4"), abs=0.5) for size in page_sizes(deck.pdf))
    kinds = library.catalog("spaceempires").decks[0].cards
    names: Counter[str] = Counter()
    for i, page in enumerate(placed):
        for text in texts_in_boxes(deck.pdf, i, page):
            (card,) = [c for c in kinds if text.startswith(c.name + " ")]
            names[card.name] += 1
            assert f"{card.count} in the deck" in text
    assert names == Counter({c.name: c.count for c in kinds})


def test_cards_are_centred_and_whole_on_the_page(deck: Printed) -> None:
    page_w, page_h = size_pt("a4")
    layout = grid("a4", CARDS["poker"])
    first = placements(deck.pdf)[0]
    assert first[0].w == pytest.approx(pt(63), abs=0.05)
    assert first[0].h == pytest.approx(pt(88), abs=0.05)
    for box in first:
        assert box.x >= 0 and box.x + box.w <= page_w
        assert box.y >= 0 and box.y + box.h <= page_h
    left = min(b.x for b in first)
    right = page_w - max(b.x + b.w for b in first)
    # centred, but for the room a crop mark takes: A4's 15 mm beside three poker cards is
    # 9 mm at the left for the marks and 6 mm at the right (docs/printing.md, "Crop marks")
    assert (left, right) == pytest.approx((pt(9), pt(6)), abs=0.05)
    assert left == pytest.approx(pt(layout.left), abs=0.05)
    top, bottom = page_h - max(b.y + b.h for b in first), min(b.y for b in first)
    assert top == pytest.approx(bottom, abs=0.05)


def test_crop_marks_only_when_asked_and_only_outside_the_grid(deck: Printed,
                                                              duplex: Printed) -> None:
    assert all(strokes == [] for strokes in page_strokes(duplex.pdf))
    strokes = page_strokes(deck.pdf)[0]
    boxes = placements(deck.pdf)[0]
    # every column edge top and bottom, every row edge at the left: the right margin, 6 mm,
    # holds no mark 3 mm long (docs/printing.md, "Crop marks")
    assert len(strokes) == 2 * 6 + 6
    left, right = min(b.x for b in boxes), max(b.x + b.w for b in boxes)
    bottom, top = min(b.y for b in boxes), max(b.y + b.h for b in boxes)
    for x1, y1, x2, y2 in strokes:
        outside = (max(y1, y2) <= bottom or min(y1, y2) >= top
                   or max(x1, x2) <= left or min(x1, x2) >= right)
        assert outside, (x1, y1, x2, y2)


def test_letter_paper(library: Library) -> None:
    system = get_system("spaceempires")
    printed = print_deck(library.catalog(system), system, PrintOptions(paper="letter"))
    # poker cards lie across a Letter page: eight to a sheet, each a gutter from the next
    assert all(size == pytest.approx((792, 612), abs=0.5) for size in page_sizes(printed.pdf))
    assert sum(len(p) for p in placements(printed.pdf)) == 49


def test_chits_match_the_pile(library: Library) -> None:
    system = get_system("spaceempires")
    catalog = library.catalog(system)
    printed = print_chits(catalog, system, "Orks")
    pile = {u.name: u.pile for u in catalog.pile("Orks")}
    placed = placements(printed.pdf)
    assert sum(len(p) for p in placed) == sum(pile.values())
    found: Counter[str] = Counter()
    for i, page in enumerate(placed):
        for text in texts_in_boxes(printed.pdf, i, page):
            words = text.split()  # the faction's mark, between the bottom corners, goes last
            mark = len(words) - 1 - words[::-1].index(emblem("Orks"))
            text = " ".join(words[:mark] + words[mark + 1:])
            name = max((n for n in pile if text.startswith(n)), key=len)
            found[name] += 1
            chit = next(u for u in catalog.pile("Orks") if u.name == name)
            assert str(chit.force) in text.split()
            assert "".join(chit.types) in text.split()
    assert found == Counter(pile)


def test_unknown_faction_and_systems_without_chits_or_decks(library: Library) -> None:
    system = get_system("spaceempires")
    with pytest.raises(PrintError, match="Orks"):
        print_chits(library.catalog(system), system, "Elves")
    warstuff = get_system("warstuff")
    with pytest.raises(PrintError, match="not played with chits"):
        print_chits(library.catalog(warstuff), warstuff, "Fantasy")
    with pytest.raises(PrintError, match="no card deck"):
        print_deck(library.catalog(warstuff), warstuff)


def test_each_card_shows_its_name_and_numbers(roster, duplex: Printed) -> None:
    cards = roster.system.cards().unit_cards(roster.catalog, roster.roster)
    fronts = placements(duplex.pdf)[0]
    texts: list[str] = []
    for text in texts_in_boxes(duplex.pdf, 0, fronts):
        if texts and (" (continued)" in text[:60] or (  # a long card runs on: one text
                text.startswith(REFERENCE) and texts[-1].startswith(REFERENCE))):
            texts[-1] += " " + text  # (the quick reference on several cards: one too)
        else:
            texts.append(text)
    assert len(texts) == len(cards) + 1 and texts[-1].startswith(REFERENCE)
    for card, text in zip(cards, texts[:-1], strict=True):
        assert text.startswith(card.profile.name)
        for stat in card.profile.stats:
            assert stat.value in text, (card.profile.name, stat)
        assert card.cost in text
        flat = " ".join(text.split())
        words = flat.split()
        for row in card.profile.tables[0].rows:  # every cell of every weapon (names may wrap)
            for cell in row:
                assert all(w in words for w in cell.replace(",", " ").split()), (
                    card.profile.name, cell)


def test_duplex_backs_follow_their_fronts_with_columns_mirrored(duplex: Printed) -> None:
    page_w, _ = size_pt("a4")
    fronts, backs = placements(duplex.pdf)[:2]
    front_names = [t.split(" ")[0] for t in texts_in_boxes(duplex.pdf, 0, fronts)]
    back_texts = texts_in_boxes(duplex.pdf, 1, backs)
    assert len(backs) == len(fronts) == duplex.cards
    for front, name in zip(fronts, front_names, strict=True):
        mirrored = [b for b in backs
                    if b.x == pytest.approx(page_w - front.x - front.w, abs=0.05)
                    and b.y == pytest.approx(front.y, abs=0.05)]
        assert len(mirrored) == 1
        assert name in back_texts[backs.index(mirrored[0])]


def test_short_edge_duplex_mirrors_rows(roster) -> None:
    printed = print_roster(roster.catalog, roster.system, roster.roster,
                           PrintOptions(what="cards", duplex="short"))
    _, page_h = size_pt("a4")
    fronts, backs = placements(printed.pdf)[:2]
    for front, back in zip(fronts, backs, strict=True):
        assert back.x == pytest.approx(front.x, abs=0.05)
        assert back.y == pytest.approx(page_h - front.y - front.h, abs=0.05)


def test_nothing_is_drawn_outside_the_cards(duplex: Printed) -> None:
    image = pixels(duplex.pdf, 0)
    page_h = image.shape[0]
    inside = image.copy() * 0
    for box in placements(duplex.pdf)[0]:
        top, bottom = int(page_h - (box.y + box.h)) - 1, int(page_h - box.y) + 2
        inside[max(0, top):bottom, max(0, int(box.x) - 1):int(box.x + box.w) + 2] = 1
    assert (image[inside == 0] >= 250).all()  # gutters and margins stay blank
    assert (image[inside == 1] < 128).any()  # and the cards are printed


def test_gutters_stay_blank_with_crop_marks(deck: Printed) -> None:
    image = pixels(deck.pdf, 0)
    layout = grid("a4", CARDS["poker"])
    scale = image.shape[1] / layout.page_w
    for col in range(layout.cols - 1):  # the vertical gutters, between the grid's top and bottom
        x0 = int((layout.at(0, col).right + 0.4) * scale)
        x1 = int((layout.at(0, col + 1).x - 0.4) * scale)
        y0, y1 = int(layout.top * scale) + 1, int((layout.top + layout.height) * scale) - 1
        assert (image[y0:y1, x0:x1] >= 250).all()


def test_bleed_prints_one_card_per_page_with_a_trim_box(roster) -> None:
    import io

    import pikepdf

    printed = print_roster(roster.catalog, roster.system, roster.roster,
                           PrintOptions(what="cards", bleed=True, duplex="long"))
    pdf = pikepdf.open(io.BytesIO(printed.pdf))
    cards = roster.system.cards().unit_cards(roster.catalog, roster.roster)
    _, _, longest = printed.longest  # the longest may run onto a continuation card
    # and the quick-reference card (or cards) after them, its front on every other page
    references = sum(texts_in_boxes(printed.pdf, n, boxes)[0].startswith(REFERENCE)
                     for n, boxes in enumerate(placements(printed.pdf)) if n % 2 == 0)
    assert references >= 1
    assert printed.cards == len(cards) + references + longest - 1
    assert len(pdf.pages) == 2 * printed.cards  # each front followed by its back
    for page in pdf.pages:
        w, h = float(page.mediabox[2]), float(page.mediabox[3])
        assert (w, h) == pytest.approx((pt(63 + 2 * BLEED), pt(88 + 2 * BLEED)), abs=0.05)
        trim = [float(v) for v in page.obj.TrimBox]
        assert trim == pytest.approx([pt(BLEED), pt(BLEED), w - pt(BLEED), h - pt(BLEED)],
                                     abs=0.05)


@pytest.mark.parametrize("card", ["poker", "mini"])
def test_bleed_keeps_every_line_in_the_safe_zone_continuations_too(read, card: str) -> None:
    """A print-shop file's text stays 3 mm inside the trim, measured against each page's
    TrimBox: the last line of a long card once ran across the trim and a continuation's
    heading printed over its first line."""
    from .test_layout import LONG_ROSTER

    loaded = read(LONG_ROSTER)
    printed = print_roster(loaded.catalog, loaded.system, loaded.roster,
                           PrintOptions(what="cards", card=card, bleed=True))
    assert printed.longest[2] >= 2  # the case that went wrong: a card that continues
    assert geometry_problems(printed.pdf, Check(bleed=True)) == []


def test_gutter_fold_prints_backs_beside_their_fronts(roster) -> None:
    printed = print_roster(roster.catalog, roster.system, roster.roster,
                           PrintOptions(what="cards", gutter_fold=True))
    (w, h), *_ = page_sizes(printed.pdf)
    assert w > h
    boxes = placements(printed.pdf)[0]
    assert len(boxes) == 2 * min(printed.cards, 4)  # four rows a page
    fold = w / 2
    fronts = [b for b in boxes if b.x + b.w <= fold]
    backs = [b for b in boxes if b.x >= fold]
    assert len(fronts) == len(backs) == len(boxes) // 2
    for front in fronts:
        assert any(b.x - fold == pytest.approx(fold - front.x - front.w, abs=0.05)
                   and b.y == pytest.approx(front.y, abs=0.05) for b in backs)
    strokes = page_strokes(printed.pdf)[0]
    assert strokes and all(x1 == pytest.approx(fold) for x1, _, _, _ in strokes)


def test_ink_saver_drops_the_fills(roster, duplex: Printed) -> None:
    printed = print_roster(roster.catalog, roster.system, roster.roster,
                           PrintOptions(what="cards", ink_saver=True))
    # the band at the top of the first card: a dark fill in colour, outlines and text only
    band = placements(printed.pdf)[0][0]
    first = placements(duplex.pdf)[0][0]
    assert (first.x, first.y, first.w, first.h) == (band.x, band.y, band.w, band.h)
    top, left = round(pixels(printed.pdf, 0).shape[0] - band.y - band.h), round(band.x)
    colour, saver = (pixels(pdf, 0)[top + 2:top + 14, left + 2:left + round(band.w) - 2]
                     for pdf in (duplex.pdf, printed.pdf))
    assert (colour < 90).mean() > 0.6
    assert (saver < 90).mean() < 0.2
    assert all_text(printed.pdf).count("Line Troopers") >= 1


@pytest.mark.parametrize("card", ["mini", "tarot"])
def test_other_card_sizes(roster, card: str) -> None:
    printed = print_roster(roster.catalog, roster.system, roster.roster,
                           PrintOptions(what="cards", card=card))
    w, h = CARDS[card]
    boxes = [b for page in placements(printed.pdf) for b in page]
    name, size, cards = printed.longest
    assert len(boxes) == printed.cards >= 4 + cards - 1  # long cards run onto continuations
    assert all((b.w, b.h) == pytest.approx((pt(w), pt(h)), abs=0.05) for b in boxes)
    assert size >= FLOOR_PT  # and stays legible
    text = all_text(printed.pdf)
    for card in roster.system.cards().unit_cards(roster.catalog, roster.roster):
        assert card.profile.name in text
    assert (f"{name} (continued)" in text) == (cards > 1)


def test_identical_entries_share_a_card_unless_asked(read) -> None:
    loaded = read("""
format: 1
system: op40k
name: Boyz
points_limit: 500
factions: [Orks]
entries:
  - {unit: Ork Boyz, count: 10}
  - {unit: Ork Boyz, count: 10}
""")
    merged = print_roster(loaded.catalog, loaded.system, loaded.roster,
                          PrintOptions(what="cards"))
    apart = print_roster(loaded.catalog, loaded.system, loaded.roster,
                         PrintOptions(what="cards", merge=False))
    # and after the unit cards, the quick-reference card (or cards)
    def units(printed: Printed) -> list[str]:
        return [t for n, boxes in enumerate(placements(printed.pdf))
                for t in texts_in_boxes(printed.pdf, n, boxes) if not t.startswith(REFERENCE)]

    assert len(units(merged)) == 1
    assert "×2" in all_text(merged.pdf)
    assert len(units(apart)) == 2
    assert "×2" not in all_text(apart.pdf)


def test_a_card_too_long_for_any_legible_size_continues_on_a_second_card(read) -> None:
    rules = ["Armored", "Brutal", "Camouflaged", "Deadly", "Death Blow", "Elite", "Entangle",
             "Fear", "Fearless", "Fire", "Flying", "Frenzy", "Healer", "Hit & Run", "Leader",
             "Pathfinder", "Poison", "Power Shot", "Power Strike", "Regeneration", "Scout",
             "Sweep Attack", "Tough", "Trapper", "Vanguard", "Vicious"]
    loaded = read(f"""
format: 1
system: warstuff
name: Everything
points_limit: 300
designs:
  - {{name: Walking Rulebook, quality: 5, rules: [{", ".join(rules)}]}}
entries:
  - {{unit: Walking Rulebook}}
""")
    printed = print_roster(loaded.catalog, loaded.system, loaded.roster,
                           PrintOptions(what="cards", card="poker"))
    name, size, cards = printed.longest
    assert (name, size) == ("Walking Rulebook", FLOOR_PT)
    assert cards >= 2
    boxes = [b for page in placements(printed.pdf) for b in page]
    assert len(boxes) == cards + 1  # the quick-reference card after it
    text = all_text(printed.pdf)
    assert "Walking Rulebook (continued)" in text
    for rule in rules:  # every rule is printed: nothing is cut off
        assert rule in text
    vicious = loaded.catalog.rule("Vicious").text
    assert vicious.split()[-1] in text.split()[-40:] or vicious[-12:] in text.replace("\n", " ")
    # every card's frame is whole: its left and right edges dark from top to bottom, beside
    # the text too (the text's white box once hid them on continuation cards)
    image = pixels(printed.pdf, 0, dpi=144)
    scale = 2.0
    page_h = image.shape[0] / scale
    for box in placements(printed.pdf)[0]:
        top = round((page_h - box.y - box.h) * scale) + 3
        bottom = round((page_h - box.y) * scale) - 3
        for x in (box.x, box.x + box.w):
            edge = image[top:bottom, max(0, round(x * scale) - 2):round(x * scale) + 2]
            assert (edge.min(axis=1) < 128).all(), (box, x)


def test_a_long_unbroken_name_wraps_inside_its_card(read) -> None:
    name = "Supercalifragilisticexpialidocious" * 2 + "Grenadier"
    loaded = read(f"""
format: 1
system: warstuff
name: Long
points_limit: 150
designs:
  - {{name: {name}, quality: 2, rules: [Fast]}}
entries:
  - {{unit: {name}}}
""")
    printed = print_roster(loaded.catalog, loaded.system, loaded.roster,
                           PrintOptions(what="cards", card="mini"))
    box, _reference = placements(printed.pdf)[0]
    (inside,) = texts_in_boxes(printed.pdf, 0, [box])
    assert name in inside.replace(" ", "")  # every letter inside the card's box


@pytest.mark.parametrize("bleed", [False, True])
def test_backs_fit_their_card_whatever_the_size(library: Library, bleed: bool) -> None:
    system = get_system("spaceempires")
    catalog = library.catalog(system)
    for printed in (print_chits(catalog, system, "Eldar", PrintOptions(duplex="short",
                                                                      bleed=bleed)),
                    print_deck(catalog, system, PrintOptions(duplex="long", card="mini",
                                                             bleed=bleed))):
        assert "(continued)" not in all_text(printed.pdf)
        assert printed.longest[2] == 1
        placed = placements(printed.pdf)
        heights = {round(b.h, 1) for page in placed for b in page}
        assert len(heights) == 1  # fronts and backs alike, the card's own height
        # a back is filled edge to edge: it never ran over and shrank to its content
        image = pixels(printed.pdf, 1, dpi=144)
        page_h = image.shape[0] / 2
        for box in placed[1]:
            for y in (box.y + box.h - 2.5, box.y + 2.5):  # just inside top and bottom
                row = int((page_h - y) * 2)
                band = image[row, int((box.x + box.w / 4) * 2):int((box.x + 3 * box.w / 4) * 2)]
                assert band.mean() < 100, (box, y)


def test_duplex_backs_run_into_the_gutters_but_not_past_them(duplex: Printed) -> None:
    """A back printed a little off its front shows its own colour, not a white sliver."""
    layout = grid("a4", CARDS["poker"])
    backs = pixels(duplex.pdf, 1)  # one pixel a point
    first, second = layout.back_cell(0, "long"), layout.back_cell(1, "long")
    middle_y = round(pt(first.y + first.h / 2))
    gutter_x = round(pt((second.right + first.x) / 2))  # columns are mirrored: 1 left of 0
    assert backs[middle_y, gutter_x] < 90  # the gutter between two backs is dark
    # beyond half a gutter: white paper (the backs' block is mirrored like them: with the
    # fronts 9 mm from the left edge, it stands 6 mm from it)
    edge = round(pt(min(layout.back_cell(i, "long").x for i in range(layout.per_page))
                    - layout.gutter_x))
    assert backs[middle_y, edge] > 200


def test_weapon_profiles_print_as_aligned_columns(roster, duplex: Printed) -> None:
    """Each number stands under its heading: a player runs a finger down a column."""
    import io

    import pdfplumber

    # the Strider Walker: Twin Autocannon 36", Crushing Feet Melee (the Line Troopers' six
    # columns do not hold their words at the print's size on a poker card: a line a weapon)
    boxes = placements(duplex.pdf)[0]
    (card,) = [b for b, text in zip(boxes, texts_in_boxes(duplex.pdf, 0, boxes), strict=True)
               if text.startswith("Strider Walker")]
    with pdfplumber.open(io.BytesIO(duplex.pdf)) as doc:
        page = doc.pages[0]
        top = float(page.height) - card.y - card.h
        words = page.crop((card.x, top, card.x + card.w, top + card.h)).extract_words()
    x = {w["text"]: w["x0"] for w in reversed(words)}  # each word's first place on the card
    assert x['36"'] == pytest.approx(x["Melee"], abs=0.3) == pytest.approx(x["RANGE"], abs=0.3)
    assert x["6"] == pytest.approx(x["ATT"], abs=0.3)
    assert x["-1"] == pytest.approx(x["-2"], abs=0.3) == pytest.approx(x["AP"], abs=0.3)
    assert x["Twin"] == pytest.approx(x["Crushing"], abs=0.3)
    assert x["Twin"] < x["RANGE"] < x["ATT"] < x["AP"]


def test_a_card_gives_up_its_flavour_line_before_running_onto_a_second_card(read) -> None:
    """A card whose numbers and rules fit one card at the smallest size it may take, and
    whose one-line description does not, drops that line instead of running onto a card
    holding it alone; a card that fits with it keeps it, and one too long even without it
    keeps it on its continuation, unless set closer it fits one card. The Recon Marshal's mini
    card in full (not as a mini print names its rules), laid out with the smallest size set at
    6.6, 7.0, 7.4 and 8.0 pt."""
    from listbuilder.printing.layout import Stock, lay_out
    from listbuilder.printing.render import _context, unit_faces

    loaded = read(EXAMPLE.read_text())
    flavour = "ranges ahead of the line"
    cards = loaded.system.cards().unit_cards(loaded.catalog, loaded.roster)
    (marshal,) = [f for f, _ in unit_faces(loaded.system, cards) if f.title == "Recon Marshal"]
    context = _context(loaded.system, PrintOptions(card="mini"), "Flavour")

    def laid(floor: float) -> tuple[int, str]:
        out = lay_out([marshal], Stock(44.0, 68.0, 0.0, floor, floor, floor), context)
        return len(out.pages[0]), all_text(out.pdf).replace("\n", " ")

    assert laid(6.6) == (1, laid(6.6)[1]) and flavour in laid(6.6)[1]
    cards_taken, text = laid(7.0)
    assert cards_taken == 1 and flavour not in text and "Scout Carbine" in text
    # a little larger, too long without the line as well, and two lines over a second card:
    # set closer at the same size (lines, padding), it is one card, its line kept
    cards_taken, text = laid(7.4)
    assert cards_taken == 1 and flavour in text
    cards_taken, text = laid(8.0)
    assert cards_taken == 2 and flavour in text


def test_a_card_names_a_keyword_its_subtitle_names_only_once(read) -> None:
    """One Page 40k vehicles said "Vehicle" in the subtitle and again as a keyword line under
    the rules, and on mini cards that repeated line alone ran onto a second card (Trukk,
    Battlewagon). The line now lists only keywords the subtitle does not name."""
    loaded = read("""
format: 1
system: op40k
name: Trukks
factions: [Orks]
entries:
  - {unit: Trukk}
  - {unit: Battlewagon}
""")
    trukk = loaded.system.profile(loaded.catalog, loaded.catalog.find_unit("Trukk"))
    assert trukk.subtitle == "Orks · Vehicle" and trukk.keywords == ("Vehicle",)
    assert trukk.keywords_shown == ()
    printed = print_roster(loaded.catalog, loaded.system, loaded.roster,
                           PrintOptions(what="cards", card="mini", paper="letter"))
    texts = [t for i, page in enumerate(placements(printed.pdf))
             for t in texts_in_boxes(printed.pdf, i, page) if not t.startswith(REFERENCE)]
    assert len(texts) == 2 and "(continued)" not in " ".join(texts)
    assert [t.upper().count("VEHICLE") for t in texts] == [1, 1]  # the subtitle's
