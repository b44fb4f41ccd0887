"""Print work from the browser is bounded and done once: a print that would lay out more
distinct cards than the bound is refused in words, and the same print asked again comes from
the shared cache without being laid out again (a changed roster, option or layout is a new
print). The queue's own bound: test_print_queue.py."""

from __future__ import annotations

import html

import pytest
from flask import Flask
from flask.testing import FlaskClient
from printtools import printing_client

from listbuilder.printing import render
from listbuilder.web import print_cache

BIG = """format: 1
system: op40k
name: Big Waaagh
points_limit: 5000
factions: [Orks]
entries:
""" + "".join(f"  - unit: Ork Boyz\n    count: {10 + i}\n" for i in range(6))


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """Prints as a player's page gets them: in line first, then the PDF (printtools)."""
    return printing_client(app)


def save(app: Flask, text: str) -> str:
    _, token = app.extensions["listbuilder.store"].create("op40k", "x", text)
    return token


@pytest.fixture
def layouts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Counts the roster layouts really made (the real renderer still runs)."""
    made: list[str] = []
    real = render.print_roster

    def counting(*args, **kwargs):  # type: ignore[no-untyped-def]
        made.append(args[2].name)
        return real(*args, **kwargs)

    monkeypatch.setattr(render, "print_roster", counting)
    return made


def test_a_print_over_the_card_bound_is_refused_in_words(app: Flask,
                                                         client: FlaskClient) -> None:
    app.config["MAX_PRINT_CARDS"] = 4
    token = save(app, BIG)
    response = client.get(f"/r/{token}/print?what=cards&merge=no")
    page = html.unescape(response.get_data(as_text=True))
    assert response.status_code == 422
    assert "This print would make 6 different cards" in page and "at most 4" in page
    # the roster sheet alone is one document, not cards: it prints
    assert client.get(f"/r/{token}/print?what=sheet").mimetype == "application/pdf"


def test_the_same_print_is_laid_out_once(app: Flask, client: FlaskClient,
                                         layouts: list[str]) -> None:
    token = save(app, BIG)
    first = client.get(f"/r/{token}/print?what=cards")
    second = client.get(f"/r/{token}/print?what=cards")
    assert first.mimetype == second.mimetype == "application/pdf"
    assert first.data == second.data and layouts == ["Big Waaagh"]
    assert app.extensions["listbuilder.store"].print_cache_size()[0] == 1
    client.get(f"/r/{token}/print?what=cards&paper=letter")  # other options: a new print
    assert len(layouts) == 2


def test_a_changed_roster_is_a_new_print(app: Flask, client: FlaskClient,
                                         layouts: list[str]) -> None:
    first = save(app, BIG)
    second = save(app, BIG.replace("Big Waaagh", "Other Waaagh"))
    client.get(f"/r/{first}/print?what=cards")
    client.get(f"/r/{second}/print?what=cards")
    assert layouts == ["Big Waaagh", "Other Waaagh"]


def test_system_prints_come_from_the_cache_too(app: Flask, client: FlaskClient) -> None:
    first = client.get("/systems/spaceempires/print/chits?faction=Orks")
    second = client.get("/systems/spaceempires/print/chits?faction=Orks")
    assert first.mimetype == "application/pdf" and first.data == second.data
    assert app.extensions["listbuilder.store"].print_cache_size()[0] == 1


def test_the_layout_revision_follows_the_layout_files(tmp_path) -> None:  # type: ignore[no-untyped-def]
    names = {name for name, _ in print_cache.layout_files()}
    # the shared layout files and each system's own, read from the packages
    assert {"templates/print/unit_card.html", "static/css/print.css", "printing/layout.py",
            "warstuff/cards.py", "warstuff/templates/rules.html"} <= names
    card = tmp_path / "card.html"
    card.write_text("<p>one</p>")
    before = print_cache.revision_of([("templates/print/card.html", card)])
    card.write_text("<p>two</p>")
    assert print_cache.revision_of([("templates/print/card.html", card)]) != before
