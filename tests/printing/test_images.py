"""Card prints as images (listbuilder.printing.images), read back from the real zips with
Pillow: every card side as a PNG at 300 dpi with its list of copies, and Tabletop Simulator
deck sheets within the game's bounds; each image compared with the printed card it stands for."""

from __future__ import annotations

import csv
import io
import re
import zipfile
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image

from listbuilder.engine.library import Library
from listbuilder.engine.registry import get_system
from listbuilder.printing.geometry import BLEED, CARDS, CHIT, grid
from listbuilder.printing.images import (
    TTS_COLS,
    TTS_MAX_PX,
    TTS_PER_SHEET,
    TTS_ROWS,
    Card,
    file_names,
    px,
    split_sheets,
    tts_grid,
)
from listbuilder.printing.options import PrintError, PrintOptions
from listbuilder.printing.render import Printed, print_chits, print_deck, print_roster, print_rules

pytestmark = pytest.mark.print

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "actionhammer" / "legal.yaml"
POKER_PX = (744, 1039)  # 63 x 88 mm at 300 dpi


# -- reading the zips back --------------------------------------------------------------------

def opened(printed: Printed) -> zipfile.ZipFile:
    assert printed.pdf == b"" and printed.data == printed.images
    archive = zipfile.ZipFile(io.BytesIO(printed.data))
    assert archive.testzip() is None
    return archive


def image(archive: zipfile.ZipFile, name: str) -> Image.Image:
    picture = Image.open(io.BytesIO(archive.read(name)))
    assert picture.format == "PNG"
    return picture.convert("RGB")


def inked(picture: Image.Image) -> float:
    """The share of pixels that are not (nearly) white."""
    pixels = np.asarray(picture.convert("L"))
    return float((pixels < 200).mean())


def difference(a: Image.Image, b: Image.Image) -> float:
    """Mean absolute difference of two same-sized pictures, 0 to 255."""
    assert a.size == b.size
    return float(np.abs(np.asarray(a, dtype=np.int16) - np.asarray(b, dtype=np.int16)).mean())


def words(archive: zipfile.ZipFile) -> str:
    """The README's text, its lines joined (it is wrapped for reading)."""
    return " ".join(archive.read("README.txt").decode().split())


def manifest(archive: zipfile.ZipFile) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(archive.read("cards.csv").decode())))


def cells(sheet: Image.Image, cols: int, rows: int) -> list[Image.Image]:
    w, h = sheet.width // cols, sheet.height // rows
    return [sheet.crop((c * w, r * h, (c + 1) * w, (r + 1) * h))
            for r in range(rows) for c in range(cols)]


def sheets_listed(readme: str) -> list[tuple[str, int, int, int]]:
    """Each sheet the README lists: its file, cards, columns and rows."""
    return [(m[1], int(m[2]), int(m[3]), int(m[4])) for m in re.finditer(
        r"^  (deck-\d+\.png): (\d+) \w+, (\d+) across and (\d+) down", readme, re.M)]


# -- the prints -------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def roster(library: Library):  # type: ignore[no-untyped-def]
    return library.read_roster(EXAMPLE.read_text(), str(EXAMPLE))


def _roster_as(roster, **options: object) -> Printed:  # type: ignore[no-untyped-def]
    return print_roster(roster.catalog, roster.system, roster.roster,
                        PrintOptions(**options))  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def roster_png(roster) -> Printed:  # type: ignore[no-untyped-def]
    return _roster_as(roster, format="png")


@pytest.fixture(scope="module")
def roster_tts(roster) -> Printed:  # type: ignore[no-untyped-def]
    return _roster_as(roster, format="tts")


@pytest.fixture(scope="module")
def deck_png(library: Library) -> Printed:
    system = get_system("spaceempires")
    return print_deck(library.catalog(system), system, PrintOptions(format="png"))


@pytest.fixture(scope="module")
def deck_tts(library: Library) -> Printed:
    system = get_system("spaceempires")
    return print_deck(library.catalog(system), system, PrintOptions(format="tts"))


# -- PNG for print shops ------------------------------------------------------------------------

def test_every_card_side_is_a_png_at_300_dpi_listed_with_its_copies(roster,  # type: ignore[no-untyped-def]
                                                                    roster_png: Printed) -> None:
    archive = opened(roster_png)
    names = archive.namelist()
    pngs = [n for n in names if n.endswith(".png")]
    assert {"README.txt", "cards.csv"} <= set(names)
    cards = roster.system.cards().unit_cards(roster.catalog, roster.roster)
    # every unit card and the quick reference, each with its own back (they name their unit);
    # a quick reference on two cards ('-1of2', '-2of2') shares one back
    fronts = [n for n in pngs if not n.endswith("-back.png")]
    backs = [n for n in pngs if n.endswith("-back.png")]
    references = [n for n in fronts if "-quick-reference" in n]
    assert roster_png.faces == len(cards) + 1 == len(backs)
    assert len(fronts) == len(cards) + len(references) == roster_png.cards
    assert len(pngs) == roster_png.pages
    assert fronts[0] == "001-line-troopers.png" and "001-line-troopers-back.png" in pngs
    for name in pngs:
        picture = Image.open(io.BytesIO(archive.read(name)))
        assert picture.size == POKER_PX, name
        assert picture.info["dpi"] == pytest.approx((300, 300), abs=0.01)
        assert inked(picture) > 0.04, f"{name} is nearly blank"
    listed = manifest(archive)
    assert [row["front"] for row in listed] == fronts
    assert all(row["back"] in pngs for row in listed)
    assert sum(int(row["copies"]) for row in listed) == roster_png.cards
    assert "300 dpi, 744 x 1039 px: 63 x 88 mm" in words(archive)


def test_a_card_image_is_the_printed_card(roster,  # type: ignore[no-untyped-def]
                                          roster_png: Printed) -> None:
    """The first card of the PDF's first sheet, drawn at 300 dpi, is the first PNG."""
    pdf = _roster_as(roster, what="cards").pdf
    box = grid("a4", CARDS["poker"]).cell(0)
    document = pdfium.PdfDocument(pdf)
    try:
        page = document[0]
        bitmap = page.render(scale=300 / 72)
        sheet = bitmap.to_pil().convert("RGB")
        bitmap.close()
        page.close()
    finally:
        document.close()
    left, top = px(box.x), px(box.y)
    printed = sheet.crop((left, top, left + POKER_PX[0], top + POKER_PX[1]))
    archive = opened(roster_png)
    drawn = image(archive, "001-line-troopers.png")
    # the same drawing, apart from where the sheet's grid falls between two pixels (about 5
    # here); another card is several times further (about 33)
    assert difference(printed, drawn) < 10
    assert difference(printed, image(archive, "002-brigade-captain.png")) > 20


def test_a_deck_lists_each_card_once_with_how_many_to_print(deck_png: Printed) -> None:
    archive = opened(deck_png)
    listed = manifest(archive)
    assert len(listed) == deck_png.faces == 18
    assert sum(int(row["copies"]) for row in listed) == deck_png.cards == 49
    assert {row["back"] for row in listed} == {"back.png"}  # one back for the whole deck
    assert listed[0] == {"copies": "12", "front": "001-tactical-move.png", "back": "back.png",
                         "card": "Tactical Move"}
    assert len([n for n in archive.namelist() if n.endswith(".png")]) == 19


def test_bleed_images_are_the_card_and_its_bleed(roster) -> None:  # type: ignore[no-untyped-def]
    printed = _roster_as(roster, format="png", card="mini", bleed=True)
    archive = opened(printed)
    w, h = CARDS["mini"]
    size = (px(w + 2 * BLEED), px(h + 2 * BLEED))
    for name in (n for n in archive.namelist() if n.endswith(".png")):
        assert Image.open(io.BytesIO(archive.read(name))).size == size, name
    assert "with 3 mm of bleed all round: the card is cut to 44 x 68 mm" in words(archive)


def test_file_names_sort_in_print_order_with_continuations_and_backs() -> None:
    cards = [Card("Line Troopers", (0,), 2, 5), Card("Ork Boyz!", (1, 2), 1, 5)]
    named = file_names(cards)
    assert named[0].fronts == ("001-line-troopers.png",)
    assert named[1].fronts == ("002-ork-boyz-1of2.png", "002-ork-boyz-2of2.png")
    assert {n.back for n in named} == {"back.png"}
    own = file_names([Card("A", (0,), 1, 2), Card("B", (1,), 1, 3), Card("C", (4,), 1, 2)])
    assert [n.back for n in own] == ["001-a-back.png", "002-b-back.png", "001-a-back.png"]


# -- Tabletop Simulator ---------------------------------------------------------------------------

def test_a_deck_sheet_fits_the_game_and_each_card_is_the_printed_one(
        deck_tts: Printed, deck_png: Printed) -> None:
    archive = opened(deck_tts)
    assert set(archive.namelist()) == {"deck-1.png", "back.png", "README.txt"}
    readme = archive.read("README.txt").decode()
    ((name, count, cols, rows),) = sheets_listed(readme)
    assert (name, count) == ("deck-1.png", 49)
    assert cols <= TTS_COLS and rows <= TTS_ROWS and cols * rows >= count
    sheet = image(archive, name)
    assert sheet.width <= TTS_MAX_PX and sheet.height <= TTS_MAX_PX
    assert sheet.width % cols == 0 and sheet.height % rows == 0
    cell_w, cell_h = sheet.width // cols, sheet.height // rows
    assert cell_w <= TTS_MAX_PX // TTS_COLS
    assert cell_w / cell_h == pytest.approx(63 / 88, abs=0.005)
    places = cells(sheet, cols, rows)
    assert all(inked(c) > 0.04 for c in places[:count])
    assert all(inked(c) == 0 for c in places[count:])  # places left over stay white
    # the first 12 places are the 12 Tactical Moves, the 13th the first Operational Move
    png = opened(deck_png)
    for place, card in ((0, "001-tactical-move.png"), (11, "001-tactical-move.png"),
                        (12, "002-operational-move.png")):
        full = image(png, card).resize((cell_w, cell_h), Image.Resampling.LANCZOS)
        assert difference(places[place], full) < 4, place
    assert difference(places[0], places[12]) > 4  # and the comparison tells cards apart
    back = image(archive, "back.png")
    assert back.size == POKER_PX and inked(back) > 0.5  # the deck's dark back
    assert "Width, Height and Number" in readme and "Tick Back is hidden" in readme


def test_cards_with_backs_of_their_own_come_with_a_sheet_of_backs(
        roster_tts: Printed, roster_png: Printed) -> None:
    archive = opened(roster_tts)
    assert set(archive.namelist()) == {"deck-1.png", "deck-1-backs.png", "README.txt"}
    ((_, count, cols, rows),) = sheets_listed(archive.read("README.txt").decode())
    assert count == roster_tts.cards == roster_png.cards
    fronts, backs = image(archive, "deck-1.png"), image(archive, "deck-1-backs.png")
    assert fronts.size == backs.size
    png = opened(roster_png)
    names = [row["back"] for row in manifest(png)]
    for place, back in enumerate(cells(backs, cols, rows)[:count]):
        full = image(png, names[place]).resize(back.size, Image.Resampling.LANCZOS)
        assert difference(back, full) < 4, place
    assert "tick Unique backs" in words(archive)


def test_more_cards_than_a_sheet_holds_share_several_sheets(library: Library) -> None:
    system = get_system("spaceempires")
    printed = print_chits(library.catalog(system), system, "Orks", PrintOptions(format="tts"))
    archive = opened(printed)
    listed = sheets_listed(archive.read("README.txt").decode())
    assert printed.cards > TTS_PER_SHEET
    assert [count for _, count, _, _ in listed] == [printed.cards // 2] * 2
    for name, _, cols, rows in listed:
        sheet = image(archive, name)
        assert sheet.size == (cols * px(CHIT[0]), rows * px(CHIT[1]))  # chits at 300 dpi
        assert cols <= TTS_COLS and rows <= TTS_ROWS


def test_sheets_and_grids_keep_to_the_games_bounds() -> None:
    assert [len(r) for r in split_sheets(69)] == [69]
    assert [len(r) for r in split_sheets(70)] == [35, 35]
    assert [len(r) for r in split_sheets(139)] == [47, 47, 45]
    assert split_sheets(0) == []
    for size in (*CARDS.values(), CHIT):
        most = (px(size[0]), px(size[1]))
        for count in range(1, TTS_PER_SHEET + 1):
            sheet = tts_grid(count, size, most)
            assert 2 <= sheet.cols <= TTS_COLS and 2 <= sheet.rows <= TTS_ROWS
            assert sheet.cols * sheet.rows >= count
            assert max(sheet.size) <= TTS_MAX_PX
            assert sheet.cell[0] <= most[0] and sheet.cell[1] <= most[1]
            assert sheet.cell[0] / sheet.cell[1] == pytest.approx(size[0] / size[1], abs=0.01)
    full = tts_grid(69, CARDS["poker"], POKER_PX)
    assert (full.cols, full.rows, full.cell) == (10, 7, (409, 571))  # the 70th place spare
    assert tts_grid(6, CARDS["poker"], POKER_PX).cell == POKER_PX  # few cards: full size


# -- asking for them ----------------------------------------------------------------------------

def test_a_format_is_checked_with_the_other_options() -> None:
    with pytest.raises(PrintError) as bad:
        PrintOptions.from_strings({"format": "gif", "paper": "a3"})
    assert "format: 'gif' is not one of pdf, png, tts" in bad.value.problems
    assert len(bad.value.problems) == 2
    assert PrintOptions.from_strings({"format": " TTS "}).format == "tts"
    assert PrintOptions(format="png").backs and not PrintOptions().backs
    with pytest.raises(PrintError, match="format: png makes images of cards"):
        PrintOptions(format="png", what="sheet")


def test_the_rules_sheet_is_a_pdf_only(library: Library) -> None:
    system = get_system("warstuff")
    with pytest.raises(PrintError, match="format: the rules sheet is a page"):
        print_rules(library.catalog(system), system, PrintOptions(format="tts"))
