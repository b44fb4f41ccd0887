"""Word widths from the cards' font (printing/textwidth.py), which set the weapon columns and
part the roster sheet's columns of rules: each character's advance as the font file gives it,
checked against fontTools reading the file directly, for the characters a player may type."""

from __future__ import annotations

import pytest
from fontTools.ttLib import TTFont

from listbuilder.printing.fetcher import STATIC
from listbuilder.printing.textwidth import FONTS, em_width

pytestmark = pytest.mark.print


def font_widths(text: str, bold: bool) -> float:
    font = TTFont(STATIC / "fonts" / FONTS[bold])
    cmap, metrics = font.getBestCmap(), font["hmtx"].metrics
    missing = metrics[".notdef"][0]
    units = sum(metrics[cmap[ord(c)]][0] if ord(c) in cmap else missing for c in text)
    return units / font["head"].unitsPerEm


def beyond_the_bmp(bold: bool) -> str:
    """A character past U+FFFF that the font has (kept apart from the array of the rest)."""
    codes = [c for c in TTFont(STATIC / "fonts" / FONTS[bold]).getBestCmap() if c > 0xFFFF]
    return chr(codes[0]) if codes else ""


@pytest.mark.parametrize("bold", [False, True])
@pytest.mark.parametrize("text", ["Ork Boyz", "Grenzjäger Æsir (Øst) — ½ × 3", "ẞ ⚔ ★",
                                  "\U0001F600 not in the font", ""])
def test_widths_are_the_fonts_own_advances(text: str, bold: bool) -> None:
    assert em_width(text, bold) == pytest.approx(font_widths(text, bold), abs=1e-9)


@pytest.mark.parametrize("bold", [False, True])
def test_a_character_past_the_basic_plane_has_its_own_width(bold: bool) -> None:
    char = beyond_the_bmp(bold)
    if not char:
        pytest.skip("this font has no character past U+FFFF")
    assert em_width(char, bold) == pytest.approx(font_widths(char, bold), abs=1e-9)
    assert em_width(char, bold) != em_width("\U0001F600", bold)  # not the missing width


def test_a_count_keeps_to_its_word_and_a_name_column_holds_both() -> None:
    """ "3x Autocannon" breaks nowhere (a no-break space), "10x Service Rifle" only after
    "Service"; a name column is as wide as the count and its first word together; a list's
    dot keeps to the item before it ("Run: 2x Move" too keeps its count)."""
    from listbuilder.engine.profile import Table
    from listbuilder.printing.textwidth import _needs, keep_count, keep_together

    assert keep_count("3x Autocannon") == "3x\u00a0Autocannon"
    assert keep_count("10x Service Rifle") == "10x\u00a0Service Rifle"
    assert keep_count("Lasgun 4x4") == "Lasgun 4x4"  # no count: unchanged
    assert keep_together("Walk: 1x Move, may shoot · Run: 2x Move") == \
        "Walk: 1x\u00a0Move, may shoot\u00a0· Run: 2x\u00a0Move"
    crew = Table("Weapons", ("Weapon", "Range"), (("3x Autocannon", '36"'),))
    (names, _), _ = _needs(crew)
    assert names == pytest.approx(em_width("3x\u00a0Autocannon", True))
