"""Printing from the browser (listbuilder.web.prints.views) through the test client: the Print
menu on the roster pages and each system's print page, with every option labelled; PDFs read
back with pypdf and pdfplumber (paper size, pages, cards placed, names printed); a print by the
share link; problems in words with the form filled as sent (422, never a 500); unknown links
and systems answered with a page (404); safe file names; the cards as images (zips read back
with Pillow)."""

from __future__ import annotations

import html
import io
import math
import re
import zipfile
from collections.abc import Mapping
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlencode

import pdfplumber
import pytest
from flask import Flask
from flask.testing import FlaskClient
from PIL import Image
from printtools import printing_client
from pypdf import PdfReader
from pypdf.generic import ContentStream
from webtools import Player

from listbuilder.engine.library import Library
from listbuilder.engine.registry import all_systems, get_system
from listbuilder.printing import PrintError, PrintOptions, printables
from listbuilder.printing.geometry import CARDS, PAPERS, grid, pt
from listbuilder.web.prints.answers import download_name
from listbuilder.web.prints.forms import LABELS, roster_form
from listbuilder.web.prints.views import print_preview_url

pytestmark = pytest.mark.print

ROOT = Path(__file__).resolve().parents[3]
OPTION_NAMES = set(PrintOptions.__dataclass_fields__)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """Prints as a player's page gets them: in line first, then the PDF (printtools)."""
    return printing_client(app)


def example(system_id: str) -> str:
    return (ROOT / "examples" / system_id / "legal.yaml").read_text(encoding="utf-8")


def save(app: Flask, system_id: str, text: str) -> tuple[str, str]:
    """Store a roster as the builder would; its edit token and share token."""
    stored, token = app.extensions["listbuilder.store"].create(system_id, "x", text)
    return token, stored.share_token


# -- reading pages and PDFs back --------------------------------------------------------------

class Forms(HTMLParser):
    """The forms of a page as a browser sees them: what each would send (its first submit
    button, which sends nothing), every control's name (its buttons' too), and whether each
    control has a label."""

    def __init__(self, page: str) -> None:
        super().__init__()
        self.forms: list[dict[str, object]] = []
        self._labels = 0
        self._label_for: set[str] = set()
        self._select: str | None = None
        self._selects: list[tuple[str, str]] = []  # name, id
        self.feed(page)
        for name, element_id in self._selects:
            assert element_id in self._label_for, f"select {name} has no label"

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.forms.append({"action": a.get("action", ""), "method": a.get("method", ""),
                               "sends": {}, "names": set(), "unlabelled": []})
        elif tag == "label":
            self._labels += 1
            if "for" in a:
                self._label_for.add(a["for"])
        elif self.forms and tag == "button" and a.get("name"):
            names = self.forms[-1]["names"]
            assert isinstance(names, set)
            names.add(a["name"])  # sent only by a click on this button
        elif self.forms and tag in ("input", "select"):
            form = self.forms[-1]
            names, sends = form["names"], form["sends"]
            assert isinstance(names, set) and isinstance(sends, dict)
            name = a.get("name", "")
            names.add(name)
            if tag == "select":
                self._select = name
                self._selects.append((name, a.get("id", "")))
            elif a.get("type") in ("radio", "checkbox"):
                if not self._labels:
                    unlabelled = form["unlabelled"]
                    assert isinstance(unlabelled, list)
                    unlabelled.append(name)
                if "checked" in a:
                    sends[name] = a.get("value", "on")
            elif a.get("type") != "hidden":
                sends[name] = a.get("value", "")
        elif tag == "option" and self._select and "selected" in a:
            sends = self.forms[-1]["sends"]
            assert isinstance(sends, dict)
            sends[self._select] = a.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "label":
            self._labels -= 1
        elif tag == "select":
            self._select = None

    def by_action(self, path: str) -> dict[str, object]:
        (form,) = [f for f in self.forms if str(f["action"]).split("#")[0] == path]
        return form


def sends(form: Mapping[str, object]) -> dict[str, str]:
    value = form["sends"]
    assert isinstance(value, dict)
    return value


def page_sizes(pdf: bytes) -> list[tuple[float, float]]:
    return [(float(p.mediabox.width), float(p.mediabox.height))
            for p in PdfReader(io.BytesIO(pdf)).pages]


def placed(pdf: bytes) -> list[int]:
    """Per page, how many cards (form XObjects) are drawn on it."""
    reader = PdfReader(io.BytesIO(pdf))
    out = []
    for page in reader.pages:
        forms = page["/Resources"].get("/XObject", {})
        ops = ContentStream(page.get_contents(), reader).operations
        out.append(sum(1 for operands, op in ops if op == b"Do"
                       and forms[operands[0]].get_object()["/Subtype"] == "/Form"))
    return out


def text_of(pdf: bytes) -> str:
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        return "\n".join(page.extract_text() or "" for page in doc.pages)


def paper_pt(paper: str) -> tuple[float, float]:
    w, h = PAPERS[paper]
    return pt(w), pt(h)


def is_pdf(response) -> bytes:  # type: ignore[no-untyped-def]
    assert response.status_code == 200, response.get_data(as_text=True)[:2000]
    assert response.mimetype == "application/pdf"
    pdf: bytes = response.get_data()
    assert pdf.startswith(b"%PDF-")
    return pdf


def file_name(response) -> str:  # type: ignore[no-untyped-def]
    found = re.fullmatch(r'attachment; filename="([^"]+)"',
                         response.headers["Content-Disposition"])
    assert found, response.headers["Content-Disposition"]
    return found[1]


def page_text(response) -> str:  # type: ignore[no-untyped-def]
    return html.unescape(re.sub(r"<[^>]+>", " ", response.get_data(as_text=True)))


# -- the menu on the roster pages -------------------------------------------------------------

def test_the_roster_page_has_a_print_menu_with_every_option_labelled(app: Flask,
                                                                     client: FlaskClient) -> None:
    token, _ = save(app, "actionhammer", example("actionhammer"))
    page = client.get(f"/r/{token}").get_data(as_text=True)
    assert '<details class="card print-menu" id="print">' in page
    form = Forms(page).by_action(f"/r/{token}/print")
    assert form["method"] == "get"
    assert form["names"] == OPTION_NAMES
    assert form["unlabelled"] == []
    defaults = PrintOptions()
    # what the untouched form sends prints the usual print
    assert PrintOptions.from_strings(sends(form)) == defaults
    assert sends(form) == {"what": defaults.what, "paper": defaults.paper,
                           "card": defaults.card, "duplex": defaults.duplex}
    for name in OPTION_NAMES:
        assert html.escape(LABELS[name], quote=True) in page
    assert 'href="/systems/actionhammer/print"' in page


def test_the_shared_page_prints_by_the_share_link(app: Flask, client: FlaskClient) -> None:
    token, share = save(app, "warstuff", example("warstuff"))
    page = client.get(f"/s/{share}").get_data(as_text=True)
    form = Forms(page).by_action(f"/s/{share}/print")
    assert form["names"] == OPTION_NAMES
    assert token not in page  # the read-only page never shows the edit link
    response = client.get(f"/s/{share}/print?" + urlencode(sends(form) | {"what": "sheet"}))
    pdf = is_pdf(response)
    assert "Border Patrol" in text_of(pdf)
    assert file_name(response) == "border-patrol-warstuff-sheet.pdf"
    assert all(size == pytest.approx(paper_pt("a4"), abs=0.5) for size in page_sizes(pdf))


# -- roster PDFs ------------------------------------------------------------------------------

def test_letter_and_mini_cards(app: Flask, client: FlaskClient, library: Library) -> None:
    token, _ = save(app, "actionhammer", example("actionhammer"))
    response = client.get(f"/r/{token}/print?paper=letter&card=mini&what=cards")
    pdf = is_pdf(response)
    assert response.headers["Cache-Control"] == "no-store"
    assert file_name(response) == "cobalt-brigade-vanguard-actionhammer-cards.pdf"
    assert all(size == pytest.approx((612, 792), abs=0.5) for size in page_sizes(pdf))
    system = get_system("actionhammer")
    catalog = library.catalog(system)
    roster = library.read_roster(example("actionhammer"), "x").roster
    cards = system.cards().unit_cards(catalog, roster)
    per_page = grid("letter", CARDS["mini"]).per_page
    counts = placed(pdf)
    assert sum(counts) >= len(cards) >= 4
    assert all(n <= per_page for n in counts)
    assert len(counts) == math.ceil(sum(counts) / per_page)
    text = text_of(pdf)
    for card in cards:
        assert card.profile.name in text


def test_the_usual_print_is_the_sheet_then_the_cards_on_a4(app: Flask,
                                                           client: FlaskClient) -> None:
    token, _ = save(app, "spaceempires", example("spaceempires"))
    response = client.get(f"/r/{token}/print")
    pdf = is_pdf(response)
    assert file_name(response).endswith("-spaceempires-cards-and-sheet.pdf")
    assert all(size == pytest.approx(paper_pt("a4"), abs=0.5) for size in page_sizes(pdf))
    counts = placed(pdf)
    assert counts[0] == 0 and sum(counts) > 0  # the sheet is a page of its own, cards follow
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        first = doc.pages[0].extract_text() or ""
    roster_name = re.search(r"^name: (.+)$", example("spaceempires"), re.M)
    assert roster_name is not None
    assert roster_name[1].strip() in first


def test_one_card_per_entry_and_backs_from_the_menu(app: Flask, client: FlaskClient) -> None:
    text = example("warstuff").replace("  - unit: Goblin Warrior\n    count: 1\n",
                                       "  - unit: Goblin Warrior\n  - unit: Goblin Warrior\n")
    token, _ = save(app, "warstuff", text)
    merged = placed(is_pdf(client.get(f"/r/{token}/print?what=cards")))
    apart = placed(is_pdf(client.get(f"/r/{token}/print?what=cards&merge=no")))
    assert sum(apart) == sum(merged) + 1
    backs = placed(is_pdf(client.get(f"/r/{token}/print?what=cards&duplex=long")))
    assert len(backs) == 2 * len(merged) and backs[1] == backs[0]


def test_unknown_links_are_answered_with_a_page(client: FlaskClient) -> None:
    for url in ("/r/no-such-token/print", "/s/no-such-share/print?paper=letter"):
        response = client.get(url)
        assert response.status_code == 404
        assert response.mimetype == "text/html"
        assert "No roster has this" in page_text(response)


# -- problems ---------------------------------------------------------------------------------

def test_bad_options_are_named_in_words_with_the_form_filled_as_sent(app: Flask,
                                                                     client: FlaskClient) -> None:
    token, _ = save(app, "actionhammer", example("actionhammer"))
    sent = {"what": "cards", "paper": "a3", "card": "mini", "duplex": "long",
            "gutter_fold": "yes", "cut_marks": "maybe", "merge": "no"}
    response = client.get(f"/r/{token}/print?" + urlencode(sent))
    assert response.status_code == 422
    assert response.mimetype == "text/html"
    words = page_text(response)
    with pytest.raises(PrintError) as refused:
        PrintOptions.from_strings(sent)
    assert len(refused.value.problems) == 3
    for problem in refused.value.problems:  # each, after the option's name
        assert problem.split(": ", 1)[-1] in words
    assert "Paper: 'a3' is not one of" in words
    assert "Cut marks: 'maybe' is not yes or no" in words
    form = Forms(response.get_data(as_text=True)).by_action(f"/r/{token}/print")
    # every valid choice kept; the paper that can't be printed back to the usual one
    assert sends(form) == {"what": "cards", "paper": "a4", "card": "mini", "duplex": "long",
                           "gutter_fold": "yes", "merge": "no"}
    assert f'href="/r/{token}"' in response.get_data(as_text=True)  # back to the roster


def test_a_print_form_reads_the_query_through_its_fields(app: Flask) -> None:
    """Each field takes the words the printer takes; anything else keeps the field at its
    default, with an error in the printer's words. A tick on "One card per entry" sends no."""
    with app.test_request_context():
        form = roster_form("/r/x/print", {"paper": " LETTER ", "card": "a3", "merge": "",
                                          "cut_marks": "maybe", "bleed": "on"})
    assert form.paper.data == "letter" and not form.paper.errors
    assert form.card.data == "poker" and form.card.errors == [
        "'a3' is not one of poker, mini, tarot"]
    assert form.merge.data and form.merge.sends == "no"  # "" is no: one card per entry
    assert not form.cut_marks.data and form.cut_marks.errors == ["'maybe' is not yes or no"]
    assert form.bleed.data and form.bleed.id == "print-bleed"
    assert [f.name for f in form.choices] == ["what", "paper", "card", "duplex"]
    assert print_preview_url(form) == ("/r/x/print/preview.png?what=all&paper=letter"
                                       "&card=poker&duplex=none&bleed=yes&merge=no")


def test_hostile_query_text_is_escaped(app: Flask, client: FlaskClient) -> None:
    token, share = save(app, "warstuff", example("warstuff"))
    response = client.get(f"/s/{share}/print?" + urlencode(
        {"<script>x</script>": "1", "paper": "<img src=x onerror=alert(1)>" * 5}))
    assert response.status_code == 422
    body = response.get_data(as_text=True)
    assert "<script>x" not in body and "<img src=x" not in body
    assert "unknown print option" in page_text(response)
    assert token not in body


def test_a_roster_with_nothing_to_print_says_so(player: Player) -> None:
    token = player.start("warstuff", name="Empty", factions=("Fantasy",))
    response = player.client.get(f"/r/{token}/print?what=cards&paper=letter")
    assert response.status_code == 422
    assert "'Empty' has no units to print" in page_text(response)
    form = Forms(response.get_data(as_text=True)).by_action(f"/r/{token}/print")
    assert sends(form)["paper"] == "letter"
    sheet = player.client.get(f"/r/{token}/print?what=sheet")
    assert "Empty" in text_of(is_pdf(sheet))


def test_a_stored_roster_whose_unit_left_the_data_still_prints(app: Flask,
                                                               client: FlaskClient) -> None:
    text = example("warstuff").replace("  - unit: Goblin Warrior\n",
                                       "  - unit: Goblin Warlord of Nowhere\n")
    token, _ = save(app, "warstuff", text)
    pdf = is_pdf(client.get(f"/r/{token}/print"))
    assert "Human Warrior" in text_of(pdf)


def test_file_names_are_plain_ascii(app: Flask, client: FlaskClient) -> None:
    text = example("warstuff").replace("name: Border Patrol",
                                       "name: 'Élan \"vital\" / ../etc <b>'")
    token, _ = save(app, "warstuff", text)
    response = client.get(f"/r/{token}/print?what=sheet")
    is_pdf(response)
    assert file_name(response) == "elan-vital-etc-b-warstuff-sheet.pdf"
    assert download_name("", "???") == "print"
    assert download_name("x" * 200) == "x" * 60
    assert re.fullmatch(r"[a-z0-9-]+", download_name("Ørkz ☠ Wäagh", "spaceempires"))


# -- each system's own prints -----------------------------------------------------------------

def test_every_system_has_a_print_page_linked_from_home(client: FlaskClient,
                                                        library: Library) -> None:
    home = client.get("/").get_data(as_text=True)
    for system in all_systems():
        assert f'href="/systems/{system.id}/print"' in home
        response = client.get(f"/systems/{system.id}/print")
        assert response.status_code == 200
        page = response.get_data(as_text=True)
        offer = printables(library.catalog(system), system)
        forms = Forms(page)
        actions = {str(f["action"]).split("#")[0] for f in forms.forms}
        expected = {f"/systems/{system.id}/print/{kind}" for kind, offered in
                    (("rules", offer.rules), ("deck", offer.deck),
                     ("chits", offer.chit_factions)) if offered}
        assert expected <= actions
        assert not any(f"/print/{k}" in a for a in actions - expected
                       for k in ("rules", "deck", "chits"))
        assert all(f["unlabelled"] == [] for f in forms.forms)
        for faction in offer.chit_factions:
            assert f'<option value="{faction}"' in page
    assert client.get("/systems/chess/print").status_code == 404


@pytest.mark.parametrize("system_id", [s.id for s in all_systems()])
def test_every_rules_sheet_prints_on_one_page_of_either_paper(client: FlaskClient,
                                                              system_id: str) -> None:
    system = get_system(system_id)
    for paper in PAPERS:
        response = client.get(f"/systems/{system_id}/print/rules?paper={paper}&ink_saver=yes")
        pdf = is_pdf(response)
        assert file_name(response) == f"{system_id}-rules.pdf"
        assert page_sizes(pdf) == [pytest.approx(paper_pt(paper), abs=0.5)]
        assert system.name.split(" (")[0] in text_of(pdf)


def test_the_space_empires_deck_is_its_49_cards(client: FlaskClient, library: Library) -> None:
    system = get_system("spaceempires")
    catalog = library.catalog(system)
    response = client.get("/systems/spaceempires/print/deck?cut_marks=yes")
    pdf = is_pdf(response)
    assert file_name(response) == "spaceempires-action-deck.pdf"
    counts = placed(pdf)
    assert sum(counts) == printables(catalog, system).deck_cards == 49
    assert sum(c.count for c in catalog.decks[0].cards) == 49
    assert counts == [9, 9, 9, 9, 9, 4]
    assert all(size == pytest.approx(paper_pt("a4"), abs=0.5) for size in page_sizes(pdf))
    text = text_of(pdf)
    assert all(card.name in text for card in catalog.decks[0].cards)


def test_the_hammer_wars_set_is_its_11_unit_cards(client: FlaskClient,
                                                  library: Library) -> None:
    system = get_system("hammerwars")
    catalog = library.catalog(system)
    pdf = is_pdf(client.get("/systems/hammerwars/print/deck?paper=letter&card=tarot"))
    counts = placed(pdf)
    assert sum(counts) == 11
    assert all(n <= 4 for n in counts)
    assert all(size == pytest.approx((612, 792), abs=0.5) for size in page_sizes(pdf))
    deck = system.cards().card_set(catalog)
    assert deck is not None
    text = text_of(pdf)
    assert all(card.profile.name in text for card in deck.units)


def test_a_factions_chits(client: FlaskClient, library: Library) -> None:
    catalog = library.catalog(get_system("spaceempires"))
    response = client.get("/systems/spaceempires/print/chits?faction=orks&paper=letter")
    pdf = is_pdf(response)
    assert file_name(response) == "spaceempires-orks-chits.pdf"
    pile = catalog.pile("Orks")
    assert sum(placed(pdf)) == sum(u.pile for u in pile) > 0
    assert all(size == pytest.approx((612, 792), abs=0.5) for size in page_sizes(pdf))


def test_system_prints_that_cant_be_made_are_explained(client: FlaskClient) -> None:
    no_deck = client.get("/systems/warstuff/print/deck")
    assert no_deck.status_code == 422
    assert "WarStuff has no card deck of its own" in page_text(no_deck)
    no_chits = client.get("/systems/op40k/print/chits?faction=Orks")
    assert no_chits.status_code == 422
    assert "is not played with chits" in page_text(no_chits)

    unknown = client.get("/systems/spaceempires/print/chits?faction=Elves&paper=letter"
                         "&ink_saver=perhaps")
    assert unknown.status_code == 422
    words = page_text(unknown)  # every problem at once: the faction's and the options'
    assert "'Elves' has no chit pile" in words and "Orks" in words
    assert "Ink saver: 'perhaps' is not yes or no" in words
    chits_form = Forms(unknown.get_data(as_text=True)).by_action(
        "/systems/spaceempires/print/chits")
    assert sends(chits_form)["paper"] == "letter"

    missing = client.get("/systems/spaceempires/print/chits")
    assert missing.status_code == 422
    assert "pick the faction whose chits to print" in page_text(missing)


def test_a_refused_system_print_keeps_its_form_as_sent(client: FlaskClient) -> None:
    response = client.get("/systems/spaceempires/print/deck?"
                          "card=tarot&bleed=yes&cut_marks=on&gutter_fold=1&paper=letter")
    assert response.status_code == 422
    words = page_text(response)
    assert "choose bleed or gutter-fold" in words and "drop the cut marks" in words
    forms = Forms(response.get_data(as_text=True))
    deck = forms.by_action("/systems/spaceempires/print/deck")
    assert sends(deck) == {"paper": "letter", "card": "tarot", "duplex": "none",
                           "gutter_fold": "yes", "cut_marks": "yes", "bleed": "yes"}
    rules = forms.by_action("/systems/spaceempires/print/rules")
    assert sends(rules) == {"paper": "a4"}  # the other prints stay as they were
    # the problems stand above the form that was refused, which the page scrolls to
    body = response.get_data(as_text=True)
    assert body.index('id="print-deck-problems"') > body.index('id="print-deck"')
    assert 'action="/systems/spaceempires/print/deck#print-deck"' in body



# -- cards as images --------------------------------------------------------------------------

def is_zip(response) -> zipfile.ZipFile:  # type: ignore[no-untyped-def]
    assert response.status_code == 200, response.get_data(as_text=True)[:2000]
    assert response.mimetype == "application/zip"
    assert response.headers["Cache-Control"] == "no-store"
    archive = zipfile.ZipFile(io.BytesIO(response.get_data()))
    assert archive.testzip() is None
    return archive


def png_size(archive: zipfile.ZipFile, name: str) -> tuple[int, int]:
    picture = Image.open(io.BytesIO(archive.read(name)))
    assert picture.format == "PNG"
    return picture.size


def test_the_print_menu_downloads_the_cards_as_images(app: Flask, client: FlaskClient) -> None:
    token, _ = save(app, "actionhammer", example("actionhammer"))
    page = client.get(f"/r/{token}").get_data(as_text=True)
    assert '<button type="submit" class="button" name="format" value="png"' in page
    assert 'name="format" value="tts"' in page
    form = Forms(page).by_action(f"/r/{token}/print")
    # the menu as it stands (cards and the sheet) with a click on each image button
    png = client.get(f"/r/{token}/print?" + urlencode(sends(form) | {"format": "png"}))
    archive = is_zip(png)
    assert file_name(png) == "cobalt-brigade-vanguard-actionhammer-cards-png.zip"
    listed = archive.read("cards.csv").decode().splitlines()
    # five unit cards and the quick reference, on two cards at the print's one text size
    assert listed[0] == "copies,front,back,card" and len(listed) == 1 + 7
    assert png_size(archive, "001-line-troopers.png") == (744, 1039)  # poker at 300 dpi
    tts = client.get(f"/r/{token}/print?" + urlencode(sends(form) | {"format": "tts",
                                                                       "card": "mini"}))
    archive = is_zip(tts)
    assert file_name(tts) == "cobalt-brigade-vanguard-actionhammer-cards-tts.zip"
    assert set(archive.namelist()) == {"deck-1.png", "deck-1-backs.png", "README.txt"}
    width, height = png_size(archive, "deck-1.png")
    # eight mini cards (five units, the quick reference on three), four by two
    assert width <= 4096 and height <= 4096 and width / height == pytest.approx(4 * 44 / (2 * 68),
                                                                              abs=0.01)
    # the picture beside the form stays the PDF's first page, whatever the format sent
    preview = client.get(f"/r/{token}/print/preview.png?format=tts")
    assert preview.status_code == 200 and preview.mimetype == "image/png"


def test_a_deck_and_chits_download_as_images_and_the_rules_sheet_does_not(
        client: FlaskClient) -> None:
    forms = Forms(client.get("/systems/spaceempires/print").get_data(as_text=True))
    assert "format" in forms.by_action("/systems/spaceempires/print/deck")["names"]
    assert "format" in forms.by_action("/systems/spaceempires/print/chits")["names"]
    assert "format" not in forms.by_action("/systems/spaceempires/print/rules")["names"]
    deck = client.get("/systems/spaceempires/print/deck?format=tts")
    archive = is_zip(deck)
    assert file_name(deck) == "spaceempires-action-deck-tts.zip"
    assert "deck-1.png: 49 cards, 10 across and 5 down" in archive.read("README.txt").decode()
    chits = client.get("/systems/spaceempires/print/chits?faction=orks&format=png")
    archive = is_zip(chits)
    assert file_name(chits) == "spaceempires-orks-chits-png.zip"
    assert png_size(archive, "back.png") == (295, 295)  # a 25 mm chit at 300 dpi
    rules = client.get("/systems/spaceempires/print/rules?format=png")
    assert rules.status_code == 422
    assert "File type: the rules sheet is a page, printed as pdf only" in page_text(rules)
    wrong = client.get("/systems/spaceempires/print/deck?format=gif")
    assert wrong.status_code == 422
    assert "File type: 'gif' is not one of pdf, png, tts" in page_text(wrong)


def test_a_roster_sheet_is_never_an_image(app: Flask, client: FlaskClient) -> None:
    token, _ = save(app, "warstuff", example("warstuff"))
    response = client.get(f"/r/{token}/print?what=sheet&format=png")
    assert response.status_code == 422
    assert "File type: png makes images of cards, and the roster sheet is a page" in \
        page_text(response)


def test_the_roster_header_links_to_print_and_quick_resolve(app: Flask,
                                                           client: FlaskClient) -> None:
    token, _ = save(app, "warstuff", example("warstuff"))
    page = client.get(f"/r/{token}").get_data(as_text=True)
    assert '<a href="#print">Print</a>' in page and 'id="print"' in page
    assert '<a href="#resolve">Quick resolve</a>' in page and 'id="resolve"' in page
