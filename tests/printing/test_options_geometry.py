"""Print options from strings, and where cards go on a sheet."""

from __future__ import annotations

from pathlib import Path

import pytest

from listbuilder.printing.geometry import (
    CARDS,
    CHIT,
    CHIT_GUTTER,
    FOLD_GAP,
    GUTTER,
    MARGIN,
    PAPERS,
    fold_sheet,
    grid,
)
from listbuilder.printing.options import PrintError, PrintOptions


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


@pytest.mark.parametrize(("paper", "card", "per_page"), [
    ("a4", "poker", 9), ("letter", "poker", 9), ("a4", "mini", 16), ("letter", "mini", 12),
    ("a4", "tarot", 4), ("letter", "tarot", 4)])
def test_cards_per_sheet_follow_from_card_and_paper(paper: str, card: str,
                                                    per_page: int) -> None:
    layout = grid(paper, CARDS[card])
    assert layout.per_page == per_page
    page_w, page_h = PAPERS[paper]
    # centred, and inside the margins
    assert layout.left == pytest.approx(page_w - (layout.left + layout.width))
    assert layout.top == pytest.approx(page_h - (layout.top + layout.height))
    assert min(layout.left, layout.top) >= MARGIN - 1e-9
    # one more column or row would not fit
    assert layout.width + layout.gutter_x + layout.card_w > page_w - 2 * MARGIN
    assert layout.height + layout.gutter_y + layout.card_h > page_h - 2 * MARGIN
    # cards share their cut lines only where that makes room for one more row or column
    assert layout.gutter_x == GUTTER
    assert layout.gutter_y == (0.0 if (paper, card) == ("letter", "poker") else GUTTER)


def test_chits_fill_a_sheet_edge_to_edge() -> None:
    layout = grid("a4", CHIT, CHIT_GUTTER)
    assert (layout.cols, layout.rows) == (8, 11)
    # the largest pile, 85 chits (Tyranids), is one sheet of either paper
    assert min(layout.per_page, grid("letter", CHIT, CHIT_GUTTER).per_page) >= 85
    assert layout.cell(0).right == layout.cell(1).x  # one cut between two chits


def test_backs_mirror_columns_for_long_edge_and_rows_for_short_edge() -> None:
    layout = grid("a4", CARDS["poker"])
    first = layout.cell(0)
    assert layout.back_cell(0, "long") == layout.at(0, 2)
    assert layout.back_cell(0, "short") == layout.at(2, 0)
    assert layout.back_cell(4, "long") == layout.cell(4)  # the middle stays put
    # a long-edge flip turns x into page_w - x: the back lands exactly behind the front
    back = layout.back_cell(0, "long")
    assert back.x == pytest.approx(layout.page_w - first.right)


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
