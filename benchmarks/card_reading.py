"""How the example rosters' cards read at arm's length, per card size: cards (and continuation
cards), the share of characters at 7.5 pt or more, the share in sentences repeated on 4 or
more cards, and the smallest text. The measures are tests/printing/reading.py's, which
tests/printing/test_card_reading.py holds to issue 20's marks at poker size and
tests/printing/test_card_safety.py to issue 38's at every size, plain and with bleed.

Run: .venv/bin/python benchmarks/card_reading.py [--card poker --card mini --card tarot]
     [--bleed] (the print-shop files, with 3 mm of bleed, instead)
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from printing.reading import cards_of, reading  # noqa: E402

from listbuilder.engine.library import Library  # noqa: E402
from listbuilder.printing.options import PrintOptions  # noqa: E402
from listbuilder.printing.render import print_roster  # noqa: E402


@click.command(help=__doc__, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--card", "cards", multiple=True, type=click.Choice(["poker", "mini", "tarot"]),
              default=("poker", "mini", "tarot"), show_default=True)
@click.option("--bleed", is_flag=True, help="print with bleed (for a print shop)")
def main(cards: tuple[str, ...], bleed: bool) -> None:
    library = Library()
    for path in sorted(ROOT.glob("examples/*/legal*.yaml")):
        loaded = library.read_roster(path.read_text(), str(path))
        for card in cards:
            pdf = print_roster(loaded.catalog, loaded.system, loaded.roster,
                               PrintOptions(what="cards", card=card,
                                            bleed=bleed)).pdf
            name = f"{path.parent.name}/{path.stem}"
            kind = f"{card}{'+bleed' if bleed else ''}"
            print(f"{name:32} {kind:12} {reading(cards_of(pdf)).line()}")


if __name__ == "__main__":
    main()
