"""Word widths from the cards' font (printing/textwidth.py), which set the weapon columns and
part the roster sheet's columns of rules: each character's advance as the font file gives it,
checked against fontTools reading the file directly, for the characters a player may type."""

from __future__ import annotations

import pytest
from fontTools.ttLib import TTFont

from listbuilder.printing.fetcher import STATIC
from listbuilder.printing.textwidth import FONTS, em_width


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
