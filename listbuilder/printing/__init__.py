"""Printing: unit cards, action decks, chits, roster sheets and rules sheets as PDF; the cards
also as images (`PrintOptions(format="png")` or `"tts"`: a zip, see `images`).

One call per print, for the CLI and for the web's print queue alike:

    from listbuilder.printing import PrintOptions, print_roster
    pdf = print_roster(catalog, system, roster, PrintOptions.from_strings(request.args)).pdf

`print_roster`, `print_sheets`, `print_deck`, `print_chits` and `print_rules` return a
`Printed` (the PDF's bytes in `.pdf`, with what the layout found: pages, cards, the smallest
text) and raise
`PrintError` (a ValueError whose `problems` say what to change) when a print can't be made.
`printables(catalog, system)` says what a system offers (a deck, chit piles, a rules sheet).
WeasyPrint lays out each distinct card once; pikepdf places the copies (see docs/printing.md).
WeasyPrint is imported on first use, so importing this package stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from listbuilder.printing.menu import Printables, printables
from listbuilder.printing.options import PrintError, PrintOptions

if TYPE_CHECKING:
    from listbuilder.printing.render import (
        Printed,
        print_chits,
        print_deck,
        print_roster,
        print_rules,
        print_sheets,
    )

__all__ = ["PrintError", "PrintOptions", "Printables", "Printed", "print_chits", "print_deck",
           "print_roster", "print_rules", "print_sheets", "printables"]


def __getattr__(name: str) -> Any:
    if name in ("Printed", "print_chits", "print_deck", "print_roster", "print_rules",
                "print_sheets"):
        from listbuilder.printing import render

        return getattr(render, name)
    raise AttributeError(name)
