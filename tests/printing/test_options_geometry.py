"""Print options from strings, and where cards go on a sheet."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from listbuilder.printing.geometry import (
    BLEED,
    CARDS,
    CHIT,
    CHIT_GUTTER,
    FOLD_GAP,
    GUTTER,
    MARGIN,
    MARK_ROOM,
    PAPERS,
    SAFE,
    Box,
    fold_sheet,
    grid,
)
from listbuilder.printing.options import PrintError, PrintOptions

pytestmark = pytest.mark.print

ROOT = Path(__file__).resolve().parents[2]


def test_defaults_are_the_usual_print() -> None:
    options = PrintOptions()
    assert (options.paper, options.card, options.duplex, options.what) == ("a4", "poker",
                                                                            "none", "all")
    assert options.merge and not options.backs


def test_from_strings_reads_form_values() -> None:
    options = PrintOptions.from_strings({"paper": "Letter", "card": "mini", "cut-marks": "on",
                                         "duplex": "short", "ink_saver": "yes", "merge": "0"})
    assert options == PrintOptions(paper="letter", card="mini", cut_marks=True, duplex="short",
                                   ink_saver=True, merge=False)
    assert options.backs


def test_from_strings_reports_every_problem_at_once() -> None:
    with pytest.raises(PrintError) as caught:
        PrintOptions.from_strings({"paper": "a3", "bleed": "maybe", "colour": "red"})
    text = "\n".join(caught.value.problems)
    assert "paper: 'a3' is not one of a4, letter" in text
    assert "bleed: 'maybe' is not yes or no" in text
    assert "colour: unknown print option" in text
    assert len(caught.value.problems) == 3


@pytest.mark.parametrize(("kwargs", "word"), [
    ({"gutter_fold": True, "duplex": "long"}, "gutter-fold"),
    ({"bleed": True, "gutter_fold": True}, "bleed"),
    ({"bleed": True, "cut_marks": True}, "cut marks"),
])
def test_options_that_cannot_go_together(kwargs: dict[str, object], word: str) -> None:
    with pytest.raises(PrintError, match=word):
        PrintOptions(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(("paper", "card", "per_page", "landscape"), [
    ("a4", "poker", 9, False), ("letter", "poker", 8, True), ("a4", "mini", 16, False),
    ("letter", "mini", 12, False), ("a4", "tarot", 4, False), ("letter", "tarot", 4, False)])
def test_cards_per_sheet_follow_from_card_and_paper(paper: str, card: str, per_page: int,
                                                    landscape: bool) -> None:
    layout = grid(paper, CARDS[card])
    assert layout.per_page == per_page
    assert layout.landscape == landscape  # poker on Letter: 4 x 2 across, not 3 x 2 upright
    page_w, page_h = PAPERS[paper][::-1] if landscape else PAPERS[paper]
    assert (layout.page_w, layout.page_h) == (page_w, page_h)
    # centred where both margins hold a crop mark (MARK_ROOM, 9 mm); else 9 mm on the top or
    # left side for its marks, the rest on the other, never less than the safe band
    for near, slack in ((layout.left, page_w - layout.width),
                        (layout.top, page_h - layout.height)):
        far = slack - near
        assert near == pytest.approx(far) or (near == pytest.approx(MARK_ROOM)
                                              and SAFE <= far < MARK_ROOM)
        assert min(near, far) >= SAFE - 1e-9 and max(near, far) >= MARK_ROOM - 1e-9
    # one more column or row would not fit
    assert layout.width + layout.gutter_x + layout.card_w > page_w - 2 * MARGIN
    assert layout.height + layout.gutter_y + layout.card_h > page_h - 2 * MARGIN
    assert layout.gutter_x == layout.gutter_y == GUTTER  # no two cards share a cut line


def _apart(boxes: list[Box]) -> float:
    """The least room between two of the boxes: along x or y, whichever they are apart on."""
    return min(max(b.x - a.right, a.x - b.right, b.y - a.bottom, a.y - b.bottom)
               for i, a in enumerate(boxes) for b in boxes[i + 1:])


SHEETS = [(paper, name) for paper in PAPERS for name in (*CARDS, "chit")]


@pytest.mark.parametrize(("paper", "name"), SHEETS, ids=[f"{p}-{n}" for p, n in SHEETS])
def test_no_two_cards_share_a_cut_on_any_sheet(paper: str, name: str) -> None:
    """A cut a little off must land in a gutter, never on the next card: on a shared cut the
    dark header of the card below shows along the card above. Every pair of cards on every
    sheet (grid, its backs, gutter-fold, a print shop's sheet of chits) is a gutter apart."""
    size = CHIT if name == "chit" else CARDS[name]
    layout = grid(paper, size, CHIT_GUTTER if name == "chit" else GUTTER)
    cells = [layout.cell(i) for i in range(layout.per_page)]
    assert _apart(cells) >= GUTTER - 1e-9
    for duplex in ("long", "short"):
        backs = [layout.back_cell(i, duplex) for i in range(layout.per_page)]
        assert _apart(backs) >= GUTTER - 1e-9
        # each back where its front lands once the sheet is turned over
        flip_rows = (duplex == "short") != layout.landscape
        for front, back in zip(cells, backs, strict=True):
            assert ((back.x, back.bottom) == pytest.approx((front.x, layout.page_h - front.y))
                    if flip_rows else
                    (back.right, back.y) == pytest.approx((layout.page_w - front.x, front.y)))
    fold = fold_sheet(paper, size)
    if fold.per_page > 1:
        assert _apart(fold.boxes()) >= GUTTER - 1e-9
    if name == "chit":  # with bleed: each chit's trim a bleed from its cell's edge
        bled = grid(paper, (size[0] + 2 * BLEED, size[1] + 2 * BLEED), 0.0)
        trims = [Box(b.x + BLEED, b.y + BLEED, *size) for b in
                 (bled.cell(i) for i in range(bled.per_page))]
        assert _apart(trims) >= 2 * BLEED - 1e-9


def test_chits_are_cut_apart_like_cards() -> None:
    layout = grid("a4", CHIT, CHIT_GUTTER)
    assert CHIT == (25.0, 25.0)
    assert (layout.cols, layout.rows, layout.per_page) == (7, 10, 70)
    assert grid("letter", CHIT, CHIT_GUTTER).per_page == 63
    assert layout.cell(1).x - layout.cell(0).right == GUTTER  # each chit on its own cut lines
    # the largest square that still holds 7 columns on A4: a millimetre more loses a column
    assert grid("a4", (CHIT[0] + 1, CHIT[1] + 1), CHIT_GUTTER).per_page < layout.per_page


DOCS = ROOT / "docs" / "printing.md"


def test_the_docs_state_the_sizes_and_counts_the_print_makes() -> None:
    """docs/printing.md says how big a chit is and how many go on a sheet, and how many cards
    of each size: the numbers it gives are the ones the geometry makes."""
    text = " ".join(DOCS.read_text().split())
    chit = re.search(r"Chits are (\d+) mm squares.*?\((\d+) on A4, (\d+) on Letter\b", text)
    assert chit, "docs/printing.md no longer says how big chits are and how many to a sheet"
    assert float(chit[1]) == CHIT[0] == CHIT[1]
    assert (int(chit[2]), int(chit[3])) == (grid("a4", CHIT, CHIT_GUTTER).per_page,
                                            grid("letter", CHIT, CHIT_GUTTER).per_page)
    bled = re.search(r"with bleed, (\d+) on A4 and (\d+) on Letter", text)
    assert bled, "docs/printing.md no longer says how many bled chits go on a sheet"
    assert (int(bled[1]), int(bled[2])) == tuple(
        grid(paper, (CHIT[0] + 2 * BLEED, CHIT[1] + 2 * BLEED), 0.0).per_page
        for paper in ("a4", "letter"))
    cards = re.search(r"cards per sheet follow from card and paper \(([^)]*)\)", text)
    assert cards, "docs/printing.md no longer gives the cards per sheet"
    stated: dict[tuple[str, str], int] = {}
    for part in cards[1].split(";"):
        card, counts = part.strip().split(":")
        for count in counts.split(","):
            words = count.split()
            papers = ["a4", "letter"] if words[1:] == ["on", "both", "papers"] or len(
                words) == 1 else [words[-1].lower()]
            for paper in papers:
                stated[(card.strip(), paper)] = int(words[0])
    assert stated == {(card, paper): grid(paper, size).per_page
                      for card, size in CARDS.items() for paper in PAPERS}


def test_backs_mirror_columns_for_long_edge_and_rows_for_short_edge() -> None:
    layout = grid("a4", CARDS["poker"])
    first = layout.cell(0)
    # A4 holds poker cards 9 mm from the left edge (a crop mark's room) and 6 mm from the
    # right: a long-edge flip turns x into page_w - x, so the backs stand 6 mm from the left
    # edge, each exactly behind its front, the columns mirrored
    assert (first.x, layout.page_w - layout.cell(2).right) == pytest.approx((9.0, 6.0))
    back = layout.back_cell(0, "long")
    assert back.x == pytest.approx(layout.page_w - first.right)
    assert (back.x, back.y) == pytest.approx((layout.cell(2).x - 3.0, first.y))
    assert layout.back_cell(0, "short") == layout.at(2, 0)  # rows centred: they just turn over


def test_a_landscape_sheet_turns_over_its_long_edge_along_its_rows() -> None:
    """Poker cards on Letter lie across the page: the paper's long edge is the page's top, so
    a long-edge flip turns the rows over and keeps the columns (a short-edge flip the other
    way round): each back lands exactly behind its front."""
    layout = grid("letter", CARDS["poker"])
    assert layout.landscape and (layout.cols, layout.rows) == (4, 2)
    for i in range(layout.per_page):
        front = layout.cell(i)
        long, short = layout.back_cell(i, "long"), layout.back_cell(i, "short")
        assert (long.x, long.y) == pytest.approx((front.x, layout.page_h - front.bottom))
        assert (short.x, short.y) == pytest.approx((layout.page_w - front.right, front.y))


def test_gutter_fold_puts_each_back_opposite_its_front() -> None:
    sheet = fold_sheet("a4", CARDS["poker"])
    assert sheet.page_w > sheet.page_h  # landscape holds more poker cards
    assert sheet.per_page == 4
    for i in range(sheet.per_page):
        front, back = sheet.front(i), sheet.back(i)
        assert front.y == back.y
        assert sheet.fold_x - front.right == pytest.approx(back.x - sheet.fold_x)
        assert back.x - front.right >= FOLD_GAP - 1e-9


def test_importing_printing_loads_no_pdf_library_and_says_what_each_system_prints(
        tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    code = ("import sys\n"
            "from listbuilder.engine.library import Library\n"
            "from listbuilder.engine.registry import all_systems\n"
            "from listbuilder.printing import printables\n"
            "lib = Library()\n"
            "for s in all_systems():\n"
            "    p = printables(lib.catalog(s), s)\n"
            "    print(s.id, p.deck, p.deck_cards, ','.join(p.chit_factions), p.rules)\n"
            "print('weasyprint' in sys.modules, 'pikepdf' in sys.modules)\n")
    env = {**os.environ, "LISTBUILDER_DATA": str(tmp_path)}  # the built-in data only
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env=env).stdout.splitlines()
    assert out[-1] == "False False"
    assert "hammerwars Unit cards 11  True" in out
    assert "spaceempires Action deck 49 Eldar,Imperial,Orks,Tyranids True" in out
    assert "warstuff None 0  True" in out
