"""A player sees a print before downloading it: the roster's Print menu and each system's print
page show the first page of the very PDF their form downloads, drawn on the server."""

from __future__ import annotations

import html
import io
import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from PIL import Image
from printtools import printing_client

from listbuilder.printing.preview import PREVIEW_WIDTH, first_page_png

pytestmark = pytest.mark.print

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """Prints as a player's page gets them: in line first, then the PDF (printtools)."""
    return printing_client(app)


def save(app: Flask, system_id: str) -> tuple[str, str]:
    text = (ROOT / "examples" / system_id / "legal.yaml").read_text(encoding="utf-8")
    stored, token = app.extensions["listbuilder.store"].create(system_id, "x", text)
    return token, stored.share_token


def preview_src(page: str, action: str) -> str:
    """The preview picture's address for the form that prints at `action`."""
    found = re.findall(r'<img src="([^"]+)"', page)
    mine = [html.unescape(src) for src in found if html.unescape(src).startswith(action + "/")]
    assert len(mine) == 1, found
    return mine[0]


def picture(response) -> Image.Image:  # type: ignore[no-untyped-def]
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    assert response.mimetype == "image/png"
    return Image.open(io.BytesIO(response.get_data()))


def test_the_print_menu_shows_the_first_page_of_the_pdf_it_downloads(
        app: Flask, client: FlaskClient) -> None:
    token, share = save(app, "actionhammer")
    page = client.get(f"/r/{token}").get_data(as_text=True)
    src = preview_src(page, f"/r/{token}/print")
    assert 'loading="lazy"' in page  # a closed menu fetches nothing
    shown = client.get(src)
    image = picture(shown)
    assert image.width == PREVIEW_WIDTH
    assert image.height == pytest.approx(PREVIEW_WIDTH * 297 / 210, abs=2)  # A4, portrait
    # the same PDF as the download the form makes with the same values
    pdf = client.get(src.replace("/preview.png", "")).get_data()
    assert shown.get_data() == first_page_png(pdf)
    # the read-only page previews by its share link
    shared = client.get(f"/s/{share}").get_data(as_text=True)
    assert picture(client.get(preview_src(shared, f"/s/{share}/print"))).width == PREVIEW_WIDTH


@pytest.mark.parametrize(("system_id", "kind"), [
    ("spaceempires", "deck"), ("spaceempires", "chits"), ("hammerwars", "deck"),
    ("warstuff", "rules")])
def test_each_print_on_a_system_page_shows_its_first_page(client: FlaskClient, system_id: str,
                                                          kind: str) -> None:
    page = client.get(f"/systems/{system_id}/print").get_data(as_text=True)
    src = preview_src(page, f"/systems/{system_id}/print/{kind}")
    image = picture(client.get(src)).convert("L")
    assert image.getextrema()[0] < 80  # something dark is printed on it


def test_a_preview_of_a_print_that_cant_be_made_says_why(client: FlaskClient) -> None:
    refused = client.get("/systems/spaceempires/print/chits/preview.png?faction=Elves")
    assert refused.status_code == 422 and "Elves" in refused.get_data(as_text=True)
    assert client.get("/systems/spaceempires/print/nothing/preview.png").status_code == 404
