"""Card faces are parsed by libxml2 (listbuilder/printing/markup.py), not by WeasyPrint's
HTML5 parser: the two must give the same tree for every document a card print lays out, or
the cards would change."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
import tinyhtml5
import weasyprint

from listbuilder.engine.library import Library
from listbuilder.engine.registry import all_systems
from listbuilder.printing import layout, markup
from listbuilder.printing.fetcher import StaticFetcher, static_base_url
from listbuilder.printing.options import PrintOptions
from listbuilder.printing.render import print_chits, print_deck, print_roster

from .pdfcheck import all_text

pytestmark = pytest.mark.print

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(p for p in (ROOT / "examples").glob("*/*.yaml") if p.name != "match.yaml")


def shape(root: ET.Element) -> list[Any]:
    """The document as a layout reads it: each element's start (tag and attributes) and end,
    and the text between them, run together where a comment stood. Whitespace-only text
    around the document's own elements (html, head, body, and after the body's last
    element) is left out: the HTML5 parser moves it about, and it never reaches a layout."""
    body = root.find("body")
    loose = {root, root.find("head"), body, *(body[-1:] if body is not None else [])}
    events: list[Any] = []

    def text(value: str | None, element: ET.Element) -> None:
        if not value or (element in loose and not value.strip()):
            return
        if events and isinstance(events[-1], str):
            events[-1] += value
        else:
            events.append(value)

    def walk(element: ET.Element) -> None:
        if isinstance(element.tag, str):  # a comment adds nothing but its tail
            events.append(("start", element.tag, sorted(element.attrib.items())))
            text(element.text, element)
            for child in element:
                walk(child)
            events.append(("end", element.tag))
        text(element.tail, element)

    walk(root)
    return events


def html5_shape(html: str) -> list[tuple[Any, ...]]:
    return shape(tinyhtml5.parse(html, namespace_html_elements=False))


@pytest.fixture
def card_documents(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every card document's markup that the prints in a test parse."""
    seen: list[str] = []
    parse = markup.parse_html

    def recording(html: str) -> ET.Element:
        seen.append(html)
        return parse(html)

    monkeypatch.setattr(layout, "parse_html", recording)
    return seen


def test_every_example_card_document_parses_as_html5_does(library: Library,
                                                          card_documents: list[str]) -> None:
    """Unit cards of every example roster on every card size, bled and not (mini cards run
    long: continuation and tightly set cards come up), every deck and every chit pile."""
    for path in EXAMPLES:
        loaded = library.read_roster(path.read_text(), str(path))
        if not loaded.roster.entries:
            continue
        for card, bleed in (("poker", False), ("mini", False), ("tarot", False),
                            ("poker", True)):
            print_roster(loaded.catalog, loaded.system, loaded.roster,
                         PrintOptions(what="cards", card=card, bleed=bleed,
                                      duplex="none" if bleed else "long"))
    for system in all_systems():
        catalog = library.catalog(system)
        if system.cards().card_set(catalog) is not None:
            print_deck(catalog, system, PrintOptions(duplex="long"))
        for faction in catalog.factions:
            if system.cards().chits(catalog, faction.name):
                print_chits(catalog, system, faction.name, PrintOptions(duplex="long"))
    kinds = {kind for html in card_documents for kind in ("kind-unit", "kind-play", "kind-chit",
                                                          "kind-back", "cardframe")
             if kind in html}
    assert kinds == {"kind-unit", "kind-play", "kind-chit", "kind-back", "cardframe"}
    assert len(card_documents) > 40
    for html in card_documents:
        assert shape(markup.parse_html(html)) == html5_shape(html)


@pytest.mark.parametrize("text", [
    "Tom &amp; Jerry &lt;b&gt;not bold&lt;/b&gt; &#34;quoted&#34; &#39;single&#39;",
    "non&nbsp;breaking, soft\u00adhyphen, zero\u200bwidth, 𝔸 outside the plane, Ω, ☐",
    "<!-- a note --> after a comment <b>bold</b><!-- another --> and its tail",
    "<i class='start' id='face-0'></i><p>first</p><br><p>second<br>line</p>",
])
def test_what_a_player_may_type_parses_as_html5_does(text: str) -> None:
    html = (f"<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>t</title>"
            f"</head><body class=\"colour\"><section class=\"face\">{text}</section></body></html>")
    assert shape(markup.parse_html(html)) == html5_shape(html)


def test_a_document_of_a_parsed_tree_is_what_weasyprint_makes_of_the_markup() -> None:
    """`PrintHTML.from_tree` sets what `HTML.__init__` sets after parsing: a WeasyPrint
    release that sets more fails here, not in a print."""
    html = "<html><body><section class='face'><h1>Name</h1><p>Rule</p></section></body></html>"
    made = layout.PrintHTML.from_tree(markup.parse_html(html), static_base_url(),
                                      StaticFetcher())
    parsed = weasyprint.HTML(string=html, base_url=static_base_url(),
                             url_fetcher=StaticFetcher())
    assert set(vars(made)) == set(vars(parsed))
    assert made.base_url == parsed.base_url
    with layout.STYLES.borrow() as styles:
        ours = styles.document(html, layout.CARD_CSS, StaticFetcher(), card_markup=True)
        theirs = styles.document(html, layout.CARD_CSS, StaticFetcher())
        assert all_text(ours.write_pdf()) == all_text(theirs.write_pdf()) == "Name\nRule"
