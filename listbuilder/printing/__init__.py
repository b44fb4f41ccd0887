"""Printing: unit cards, action decks, chits, roster sheets and rules sheets as PDF.

One call per print, for the CLI and for web views alike:

    from listbuilder.printing import PrintOptions, render_roster
    pdf = render_roster(catalog, system, roster, PrintOptions.from_strings(request.args))

`render_roster`, `render_deck`, `render_chits` and `render_rules` return PDF bytes and raise
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
        render_chits,
        render_deck,
        render_roster,
        render_rules,
    )

__all__ = ["PrintError", "PrintOptions", "Printables", "printables", "render_chits",
           "render_deck", "render_roster", "render_rules"]


def __getattr__(name: str) -> Any:
    if name in ("render_chits", "render_deck", "render_roster", "render_rules"):
        from listbuilder.printing import render

        return getattr(render, name)
    raise AttributeError(name)
