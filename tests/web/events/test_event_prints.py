"""An event's prints through the test client: a sealed list's sheet carries its code and a
QR code that reads back as its verify page's address; the organiser's zip holds every sealed
file, an index of their hashes and one PDF of every roster sheet."""

from __future__ import annotations

import hashlib
import html
import io
import re
import zipfile

import pdfplumber
import pypdfium2
import pytest
import zxingcpp
from eventtools import EXAMPLES, hand_in, make_event, player_key, stored_roster
from flask import Flask
from printtools import empty_queue, printing_client

LEGAL = EXAMPLES / "op40k" / "legal.yaml"


@pytest.fixture
def client(app: Flask):  # type: ignore[no-untyped-def]
    empty_queue(app)
    return printing_client(app)


def overlaps(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def codes_of(client, organiser: str) -> list[str]:  # type: ignore[no-untyped-def]
    page = client.get(f"/e/{organiser}").get_data(as_text=True)
    return re.findall(r'href="/v/([A-Za-z0-9_-]+)"', page)


def test_a_sealed_print_carries_its_code_and_a_qr_code_of_its_page(client) -> None:  # type: ignore[no-untyped-def]
    organiser, public = make_event(client, name="Winter Cup")
    key = player_key(hand_in(client, public, stored_roster(client, LEGAL), "Ann"))
    page = client.get(f"/p/{key}").get_data(as_text=True)
    code = codes_of(client, organiser)[0]
    assert f'href="/v/{code}/print"' in page
    response = client.get(f"/v/{code}/print?what=sheet")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    pdf = response.get_data()
    scale = 150 / 72
    picture = pypdfium2.PdfDocument(pdf)[0].render(scale=scale).to_pil()
    found = zxingcpp.read_barcodes(picture)
    assert [f.text for f in found] == [f"http://localhost/v/{code}"]
    corners = found[0].position
    xs = [p.x / scale for p in (corners.top_left, corners.top_right, corners.bottom_left,
                                corners.bottom_right)]
    ys = [p.y / scale for p in (corners.top_left, corners.top_right, corners.bottom_left,
                                corners.bottom_right)]
    qr = (min(xs), min(ys), max(xs), max(ys))
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        first = doc.pages[0]
        assert "Sealed for Winter Cup" in first.extract_text()
        words = first.extract_words()
        assert code in [w["text"] for w in words]
        # the QR code is at least 20 mm wide, within the paper's margins, and no word
        # overlaps it or another word of the sheet's head
        assert qr[2] - qr[0] >= 20 / 25.4 * 72 * 0.9
        assert qr[0] > 28 and qr[2] < first.width - 28 and qr[1] > 28
        head = [w for w in words if w["top"] < qr[3] + 10]
        assert len(head) >= 8  # the title, the game, the seal's words
        assert not [w["text"] for w in head if overlaps((w["x0"], w["top"], w["x1"],
                                                         w["bottom"]), qr)]
        boxes = [(w["x0"], w["top"], w["x1"], w["bottom"]) for w in head]
        assert not [(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:]
                    if overlaps(a, b)]
    # the address read is the list's page, showing its player, hash and verdict
    verify = client.get(found[0].text.removeprefix("http://localhost")).get_data(as_text=True)
    sealed = re.findall(r"<details><summary>The sealed file</summary><pre>(.*?)</pre>", verify,
                        re.S)[0]
    digest = hashlib.sha256(html.unescape(sealed).encode()).hexdigest()
    shown = html.unescape(verify)
    assert "Ann's list for Winter Cup" in shown and "Legal" in shown
    assert f'id="sha256" class="hash">{digest}<' in verify


def test_a_sealed_print_of_cards_keeps_its_sheet_and_seal(client) -> None:  # type: ignore[no-untyped-def]
    organiser, public = make_event(client)
    hand_in(client, public, stored_roster(client, LEGAL), "Ann")
    code = codes_of(client, organiser)[0]
    response = client.get(f"/v/{code}/print?what=cards")
    assert response.status_code == 200
    with pdfplumber.open(io.BytesIO(response.get_data())) as doc:
        assert code in doc.pages[0].extract_text() and len(doc.pages) > 1


def test_the_organisers_zip_holds_every_sealed_file_and_one_pdf_of_sheets(client) -> None:  # type: ignore[no-untyped-def]
    organiser, public = make_event(client, name="Winter Cup")
    for name in ("Ann", "Ben", "Cat"):
        hand_in(client, public, stored_roster(client, LEGAL), name)
    codes = codes_of(client, organiser)
    assert client.get(f"/e/{public}/lists.zip").status_code == 403  # the public link can't
    response = client.get(f"/e/{organiser}/lists.zip")
    assert response.status_code == 200 and response.mimetype == "application/zip"
    assert 'filename="winter-cup-lists.zip"' in response.headers["Content-Disposition"]
    archive = zipfile.ZipFile(io.BytesIO(response.get_data()))
    files = sorted(n for n in archive.namelist() if n.endswith(".yaml"))
    assert [f.split("-", 1)[1].split("-")[0] for f in files] == ["ann", "ben", "cat"]
    index = archive.read("index.txt").decode()
    for file in files:
        text = archive.read(file)
        assert f"{file}  {hashlib.sha256(text).hexdigest()}" in index
    with pdfplumber.open(io.BytesIO(archive.read("roster-sheets.pdf"))) as doc:
        whole = "\n".join(page.extract_text() for page in doc.pages)
    assert all(code in whole for code in codes) and whole.count("Sealed for Winter Cup") == 3
