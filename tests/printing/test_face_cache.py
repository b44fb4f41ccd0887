"""Printing again after a change lays out only the cards that changed (printing/facecache.py),
and a print made of kept faces looks exactly like one laid out afresh."""

from __future__ import annotations

import io
from pathlib import Path

import pdfplumber
import pytest

from listbuilder.printing.facecache import FACES, FaceCache
from listbuilder.printing.options import PrintOptions
from listbuilder.printing.render import print_roster

pytestmark = pytest.mark.print

ROOT = Path(__file__).resolve().parents[2]
LEGAL = (ROOT / "examples" / "actionhammer" / "legal.yaml").read_text()
CARDS = PrintOptions(what="cards")


def _print(read, text: str, options: PrintOptions = CARDS):  # type: ignore[no-untyped-def]
    loaded = read(text)
    return print_roster(loaded.catalog, loaded.system, loaded.roster, options)


def _picture(pdf: bytes) -> list[list[tuple[str, float, float, float]]]:
    """Per page, every word with where it stands and its size."""
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        return [[(w["text"], w["x0"], w["top"], w["size"])
                 for w in page.extract_words(extra_attrs=["size"])] for page in doc.pages]


def _same_picture(one: bytes, other: bytes) -> bool:
    """The same words at the same sizes in the same places (to 0.02 pt: the PDFs' own
    rounding of where a card is placed differs by a thousandth of a millimetre)."""
    a, b = _picture(one), _picture(other)
    return [len(p) for p in a] == [len(p) for p in b] and all(
        wa[0] == wb[0] and all(abs(x - y) <= 0.02 for x, y in zip(wa[1:], wb[1:], strict=True))
        for pa, pb in zip(a, b, strict=True) for wa, wb in zip(pa, pb, strict=True))


def test_printing_again_lays_out_only_the_card_that_changed(read) -> None:
    first = _print(read, LEGAL)
    assert first.laid_out == first.faces > 4  # four units and the quick-reference card
    again = _print(read, LEGAL)
    assert again.laid_out == 0
    changed = _print(read, LEGAL.replace("count: 4", "count: 5", 1))  # the Dragoon Riders
    assert changed.laid_out == 1
    # five riders with their standard: 5 x 45 + 15 pts, on the card laid out again
    assert "240" in _words(changed.pdf).split() and "240" not in _words(first.pdf).split()
    assert _same_picture(again.pdf, first.pdf) and not _same_picture(changed.pdf, first.pdf)


def _words(pdf: bytes) -> str:
    return " ".join(w[0] for page in _picture(pdf) for w in page)


def test_a_print_of_kept_faces_looks_like_one_laid_out_afresh(read) -> None:
    text = LEGAL.replace("count: 4", "count: 5", 1)
    _print(read, LEGAL)
    mixed = _print(read, text)  # one face new, the others kept
    assert mixed.laid_out == 1
    FACES.clear()
    fresh = _print(read, text)
    assert fresh.laid_out == fresh.faces
    assert _same_picture(mixed.pdf, fresh.pdf)
    assert (mixed.pages, mixed.cards, mixed.longest) == (fresh.pages, fresh.cards, fresh.longest)


def test_another_look_is_laid_out_again(read) -> None:
    plain = _print(read, LEGAL)
    saver = _print(read, LEGAL, PrintOptions(what="cards", ink_saver=True))
    assert saver.laid_out == plain.laid_out  # nothing drawn in colour is reused
    mini = _print(read, LEGAL, PrintOptions(what="cards", card="mini"))
    assert mini.laid_out >= plain.faces
    assert _print(read, LEGAL, PrintOptions(what="cards", cut_marks=True)).laid_out == 0


def test_the_oldest_faces_go_first_and_a_sheet_stays_while_a_face_holds_it() -> None:
    cache = FaceCache(max_bytes=250)
    cache.keep(["a", "b"], b"x" * 100, [[0], [1]], [9.0, 8.0])
    cache.keep(["c"], b"y" * 100, [[0]], [7.0])
    assert set(cache.find(["a", "b", "c"])) == {0, 1, 2} and cache.held_bytes() == 200
    cache.find(["a"])  # a is used again: b is now the oldest
    cache.keep(["d"], b"z" * 100, [[0]], [6.0])
    # b went first, but a still holds the first sheet; c went next
    assert set(cache.find(["a", "b", "c", "d"])) == {0, 3}
    assert cache.held_bytes() == 200
    cache.keep(["huge"], b"h" * 300, [[0]], [6.0])  # larger than the whole cache: not kept
    assert not cache.find(["huge"])


def test_a_faces_markup_is_drawn_once_and_is_what_a_fresh_draw_gives(read) -> None:
    """Faces' markup is kept per process (`layout.face_html`): what is kept is exactly what
    the template draws, and a face whose card, stock or look differs is drawn anew (but for
    the sheet's shared size, which no template reads)."""
    from dataclasses import replace

    from listbuilder.printing.layout import _drawn_face, face_html
    from listbuilder.printing.render import _context, _stock, unit_faces
    from listbuilder.printing.templating import render_template

    loaded = read(LEGAL)
    system = loaded.system
    face = unit_faces(system, system.cards().unit_cards(loaded.catalog, loaded.roster))[0][0]
    stock, context = _stock(CARDS), _context(system, CARDS, "Legal")
    fresh = render_template(face.template, item=face.item, stock=stock, end_id="end", **context)
    _drawn_face.cache_clear()
    assert face_html(face, stock, context, end_id="end") == fresh
    assert face_html(face, stock, context, end_id="end") == fresh
    assert _drawn_face.cache_info().hits == 1 and _drawn_face.cache_info().misses == 1
    smaller = replace(stock, sheet_pt=6.5)
    assert face_html(face, smaller, context, end_id="end") == render_template(
        face.template, item=face.item, stock=smaller, end_id="end", **context) == fresh
    assert _drawn_face.cache_info().misses == 1  # the shared size changes no markup
    bled = replace(stock, bleed=3.0)
    assert face_html(face, bled, context, end_id="end") == render_template(
        face.template, item=face.item, stock=bled, end_id="end", **context)
    assert _drawn_face.cache_info().misses == 2  # another stock is drawn anew
    inked = _context(system, replace(CARDS, ink_saver=not CARDS.ink_saver), "Legal")
    assert face_html(face, stock, inked) == render_template(
        face.template, item=face.item, stock=stock, **inked)
    assert _drawn_face.cache_info().misses == 3
