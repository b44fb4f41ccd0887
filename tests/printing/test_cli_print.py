"""The print, deck, chits and rules commands as a player uses them."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from listbuilder.commands.cli import main

from .pdfcheck import page_sizes, placements

pytestmark = pytest.mark.print

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.chdir(tmp_path)  # output/ is made here
    monkeypatch.setenv("LISTBUILDER_DATA", str(tmp_path / "no-custom-data"))
    return CliRunner()


def test_print_writes_to_output_by_default(runner: CliRunner, tmp_path: Path) -> None:
    roster = ROOT / "examples" / "actionhammer" / "legal.yaml"
    result = runner.invoke(main, ["print", str(roster), "--what", "cards", "--paper", "letter",
                                  "--card", "mini", "--cut-marks", "--duplex", "long",
                                  "--ink-saver"])
    assert result.exit_code == 0, result.output
    pdf = tmp_path / "output" / "legal-cards.pdf"
    assert f"Wrote {Path('output') / 'legal-cards.pdf'}" in result.stdout
    data = pdf.read_bytes()
    assert len(page_sizes(data)) == 2  # fronts and backs
    assert page_sizes(data)[0] == pytest.approx((612, 792), abs=0.5)
    assert "\r" not in result.stderr  # no progress lines when stderr is not a terminal


def test_print_to_a_chosen_file_warns_about_an_illegal_roster(runner: CliRunner,
                                                              tmp_path: Path) -> None:
    roster = ROOT / "examples" / "hammerwars" / "illegal.yaml"
    result = runner.invoke(main, ["print", str(roster), "-o", "mine/sheet.pdf",
                                  "--what", "sheet"])
    assert result.exit_code == 0, result.output
    assert "breaks" in result.stderr and "printing it anyway" in result.stderr
    assert (tmp_path / "mine" / "sheet.pdf").exists()


def test_print_reports_a_broken_roster_with_its_line(runner: CliRunner, tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: 1\nsystem: warstuff\nname: X\nentries:\n  - unit: Dragn\n")
    result = runner.invoke(main, ["print", str(bad)])
    assert result.exit_code == 2
    assert "bad.yaml:5" in result.stderr and "Dragn" in result.stderr
    assert not (tmp_path / "output").exists()


def test_options_that_clash_are_refused(runner: CliRunner) -> None:
    roster = ROOT / "examples" / "warstuff" / "legal.yaml"
    result = runner.invoke(main, ["print", str(roster), "--bleed", "--gutter-fold"])
    assert result.exit_code == 2
    assert "error: bleed prints each card on a page of its own" in result.stderr


def test_deck_prints_the_49_action_cards(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(main, ["deck", "spaceempires"])
    assert result.exit_code == 0, result.output
    data = (tmp_path / "output" / "spaceempires-deck.pdf").read_bytes()
    assert sum(len(p) for p in placements(data)) == 49
    assert "49 cards (18 distinct), 6 pages" in result.stdout


def test_deck_of_hammer_wars_is_its_eleven_cards(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(main, ["deck", "hammerwars", "-o", "hw.pdf"])
    assert result.exit_code == 0, result.output
    assert sum(len(p) for p in placements((tmp_path / "hw.pdf").read_bytes())) == 11


def test_deck_of_a_system_without_one(runner: CliRunner) -> None:
    result = runner.invoke(main, ["deck", "op40k"])
    assert result.exit_code == 2
    assert "no card deck" in result.stderr


def test_chits_of_a_faction(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(main, ["chits", "spaceempires", "--faction", "tyranids"])
    assert result.exit_code == 0, result.output
    assert "chits" in result.stdout
    assert (tmp_path / "output" / "spaceempires-tyranids-chits.pdf").exists()
    wrong = runner.invoke(main, ["chits", "spaceempires", "--faction", "Elves"])
    assert wrong.exit_code == 2 and "Eldar, Imperial, Orks, Tyranids" in wrong.stderr


def test_rules_sheet(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(main, ["rules", "warstuff", "--paper", "letter"])
    assert result.exit_code == 0, result.output
    data = (tmp_path / "output" / "warstuff-rules.pdf").read_bytes()
    assert page_sizes(data) == [pytest.approx((612, 792), abs=0.5)]
    unknown = runner.invoke(main, ["rules", "chess"])
    assert unknown.exit_code == 2 and "unknown system" in unknown.output


def test_print_cards_as_png_images_in_a_zip_named_by_its_format(runner: CliRunner,
                                                                tmp_path: Path) -> None:
    roster = ROOT / "examples" / "actionhammer" / "legal.yaml"
    result = runner.invoke(main, ["print", str(roster), "--format", "png"])
    assert result.exit_code == 0, result.output
    written = Path("output") / "legal-cards-png.zip"  # the cards alone, though --what is all
    # five unit cards, the quick reference on two (at the cards' one size), a back each face
    assert f"Wrote {written}: 7 cards (6 distinct), 13 images" in result.stdout
    with zipfile.ZipFile(tmp_path / written) as archive:
        names = archive.namelist()
    assert "cards.csv" in names and "001-line-troopers.png" in names
    assert len([n for n in names if n.endswith(".png")]) == 13  # each front and its back


def test_deck_and_chits_for_tabletop_simulator(runner: CliRunner, tmp_path: Path) -> None:
    deck = runner.invoke(main, ["deck", "spaceempires", "--format", "tts", "-o", "tts/deck.zip"])
    assert deck.exit_code == 0, deck.output
    assert "49 cards (18 distinct), 2 images" in deck.stdout
    with zipfile.ZipFile(tmp_path / "tts" / "deck.zip") as archive:
        assert sorted(archive.namelist()) == ["README.txt", "back.png", "deck-1.png"]
    chits = runner.invoke(main, ["chits", "spaceempires", "--faction", "Orks", "--format", "tts"])
    assert chits.exit_code == 0, chits.output
    with zipfile.ZipFile(tmp_path / "output" / "spaceempires-orks-chits-tts.zip") as archive:
        assert {"deck-1.png", "deck-2.png", "back.png"} <= set(archive.namelist())


def test_a_zip_is_never_written_under_a_pdf_name(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(main, ["deck", "spaceempires", "--format", "png", "-o", "deck.pdf"])
    assert result.exit_code == 2
    assert "error: deck.pdf: a png print is a .zip file; name it deck.zip" in result.stderr
    assert not (tmp_path / "deck.pdf").exists()
    roster = ROOT / "examples" / "warstuff" / "legal.yaml"
    sheet = runner.invoke(main, ["print", str(roster), "--what", "sheet", "--format", "tts"])
    assert sheet.exit_code == 2
    assert "error: format: tts makes images of cards" in sheet.stderr
    wrong = runner.invoke(main, ["deck", "spaceempires", "--format", "gif"])
    assert wrong.exit_code == 2 and "'gif' is not one of" in wrong.stderr
