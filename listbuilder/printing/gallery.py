"""The gallery in docs/printing.md: the first sheet of each system's cards, the action deck and
a chit pile, as small PNGs made from the real prints.

Run: .venv/bin/python -m listbuilder.printing.gallery [--out docs/gallery] [--width 420]
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

import click

from listbuilder.engine.library import Library
from listbuilder.engine.registry import all_systems, get_system
from listbuilder.printing import print_chits, print_deck, print_roster
from listbuilder.printing.options import PrintOptions
from listbuilder.printing.preview import first_page_png

CARDS = PrintOptions(what="cards")
# A tool for the checkout (it redraws docs/gallery from examples/), run from its top folder.
CHECKOUT = Path.cwd()


def prints(library: Library) -> dict[str, Callable[[], bytes]]:
    """Each picture's file name and how to make its PDF."""
    out: dict[str, Callable[[], bytes]] = {}
    for system in all_systems():
        path = CHECKOUT / "examples" / system.id / "legal.yaml"

        def cards(path: Path = path) -> bytes:
            loaded = library.read_roster(path.read_text(), str(path))
            return print_roster(loaded.catalog, loaded.system, loaded.roster, CARDS).pdf

        out[f"{system.id}-cards"] = cards
    space = get_system("spaceempires")
    out["spaceempires-deck"] = lambda: print_deck(library.catalog(space), space).pdf
    out["spaceempires-orks-chits"] = lambda: print_chits(library.catalog(space), space,
                                                         "Orks").pdf
    out["actionhammer-cards-mini"] = lambda: _roster_at(library, "actionhammer", "mini")
    out["warstuff-cards-tarot"] = lambda: _roster_at(library, "warstuff", "tarot")
    return out


def _roster_at(library: Library, system_id: str, card: str) -> bytes:
    path = CHECKOUT / "examples" / system_id / "legal.yaml"
    loaded = library.read_roster(path.read_text(), str(path))
    return print_roster(loaded.catalog, loaded.system, loaded.roster,
                        PrintOptions(what="cards", card=card)).pdf  # type: ignore[arg-type]


@click.command(help="Redraw the PNG gallery of docs/printing.md from real prints of the examples.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              default=CHECKOUT / "docs" / "gallery", show_default=True)
@click.option("--width", type=click.IntRange(16), default=420, show_default=True,
              help="pixels across each picture")
def main(out: Path, width: int) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as empty:  # the built-in data only, never the player's
        library = Library(custom_dir=Path(empty))
        for name, make in prints(library).items():
            target = out / f"{name}.png"
            target.write_bytes(first_page_png(make(), width))
            click.echo(f"wrote {target}")


if __name__ == "__main__":
    main()
