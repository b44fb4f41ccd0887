"""What a card print costs a print shop, read back from its PDF (tests/printing/sheets.py):
the sheets it takes, its cards, its quick-reference cards, whether it ends on a sheet that
holds quick-reference cards alone, and its text size (what the reader pays for fewer cards).
Over every example roster that has units and the games' own card sets (Hammer Wars' set, Space
Empires' action deck), at every card size, on A4 and Letter, and with bleed (one card a page:
its pages are its cards, whatever the paper).

Run: .venv/bin/python benchmarks/sheets.py [--card mini ...] [--out FILE.json]
     [--before FILE.json] (the same figures from an older checkout, shown as before -> after)

To compare with an older commit: `git archive OLD | tar -x -C /tmp/old`, then
`PYTHONPATH=/tmp/old .venv/bin/python benchmarks/sheets.py --out /tmp/before.json` (the
printer from there, this script and its reader from here) and this script with
`--before /tmp/before.json`.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from printing.reading import cards_of  # noqa: E402
from printing.sheets import is_reference, sheets_of  # noqa: E402

from listbuilder.engine.library import Library  # noqa: E402
from listbuilder.engine.registry import get_system  # noqa: E402
from listbuilder.printing.options import PrintOptions  # noqa: E402
from listbuilder.printing.render import print_deck, print_roster  # noqa: E402

SETS = ("hammerwars", "spaceempires")  # the games with a card set of their own (`deck`)
VARIANTS = ("a4", "letter", "bleed")
NAME_EM = 1.5  # a unit card's name, in ems of its text (print-cards.css)
KINDS = (("plain", ("a4", "letter")), ("bleed", ("bleed",)))  # what the totals add up


def sources(library: Library) -> Iterator[tuple[str, Any]]:
    """(name, a function printing it with given options) for each print."""
    for path in sorted(ROOT.glob("examples/*/*.yaml")):
        if path.name == "match.yaml":
            continue
        loaded = library.read_roster(path.read_text(), str(path))
        if not loaded.system.cards().unit_cards(loaded.catalog, loaded.roster):
            continue

        def roster(options: PrintOptions, loaded: Any = loaded) -> bytes:
            return print_roster(loaded.catalog, loaded.system, loaded.roster, options).pdf

        yield f"{path.parent.name}/{path.stem}", roster
    for system_id in SETS:
        system = get_system(system_id)

        def deck(options: PrintOptions, system: Any = system) -> bytes:
            return print_deck(library.catalog(system), system, options).pdf

        yield f"{system_id} set", deck


def measure(card_sizes: tuple[str, ...]) -> list[dict[str, Any]]:
    rows = []
    for name, make in sources(Library()):
        for card in card_sizes:
            for variant in VARIANTS:
                bleed = variant == "bleed"
                options = PrintOptions(what="cards", card=card, bleed=bleed,
                                       paper="a4" if bleed else variant)
                pdf = make(options)
                found = sheets_of(pdf)
                rows.append({"print": name, "card": card, "variant": variant,
                             "sheets": found.count, "cards": found.card_count,
                             "references": len(found.references), "size": text_pt(pdf),
                             # with bleed every page is one card: none is spent so
                             "alone": found.ends_on_references_alone() and not bleed})
                line = (f"{name:32} {card:6} {variant:7} {found.count:3} sheets "
                        f"{found.card_count:3} cards {len(found.references):2} quick reference, "
                        f"text {rows[-1]['size']} pt"
                        f"{' (last sheet: quick reference alone)' if rows[-1]['alone'] else ''}")
                print(line, flush=True)
    return rows


def text_pt(pdf: bytes) -> float:
    """The print's text size (one size for every card of a print: docs/printing.md), read
    from its first unit card: its name is printed at 1.5 times that size (print-cards.css)."""
    names = [max(card.lines[0][1]) for card in cards_of(pdf)
             if card.lines and not is_reference(card.text)]
    return round(names[0] / NAME_EM, 2) if names else 0.0


def totals(rows: list[dict[str, Any]], variants: tuple[str, ...]) -> dict[str, int]:
    chosen = [r for r in rows if r["variant"] in variants]
    return {"prints": len(chosen), "sheets": sum(r["sheets"] for r in chosen),
            "cards": sum(r["cards"] for r in chosen),
            "references": sum(r["references"] for r in chosen),
            "alone": sum(r["alone"] for r in chosen)}


def summary(rows: list[dict[str, Any]]) -> list[str]:
    out = []
    for label, variants in KINDS:
        t = totals(rows, variants)
        unit = "sheets" if label == "plain" else "pages"
        out.append(f"{label}: {t['prints']} prints, {t['sheets']} {unit}, {t['cards']} cards, "
                   f"{t['references']} quick-reference cards, {t['alone']} ending on "
                   f"quick-reference cards alone")
    return out


def compare(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> list[str]:
    """Each print whose figures changed, then the totals, before -> after."""
    key = ("print", "card", "variant")
    old = {tuple(r[k] for k in key): r for r in before}
    out = []
    for row in after:
        was = old.get(tuple(row[k] for k in key))
        if was is None:
            continue
        if any(was.get(k) != row[k] for k in ("sheets", "cards", "references", "alone",
                                               "size")):
            out.append(f"{row['print']:32} {row['card']:6} {row['variant']:7} "
                       f"text {was.get('size')} -> {row['size']} pt, "
                       f"sheets {was['sheets']} -> {row['sheets']}, "
                       f"quick reference {was['references']} -> {row['references']}, "
                       f"alone {'yes' if was['alone'] else 'no'} -> "
                       f"{'yes' if row['alone'] else 'no'}")
    for label, variants in KINDS:
        a, b = totals(before, variants), totals(after, variants)
        out.append(f"{label}: " + ", ".join(f"{k} {a[k]} -> {b[k]}" for k in a))
    return out


@click.command(help=__doc__, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--card", "cards", multiple=True, type=click.Choice(["poker", "mini", "tarot"]),
              default=("poker", "mini", "tarot"), show_default=True)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              help="write the figures as JSON")
@click.option("--before", type=click.Path(dir_okay=False, exists=True, path_type=Path),
              help="figures written by --out from an older checkout, to compare")
def main(cards: tuple[str, ...], out: Path | None, before: Path | None) -> None:
    rows = measure(cards)
    if out:
        out.write_text(json.dumps(rows, indent=1))
    print()
    for line in summary(rows):
        print(line)
    if before:
        print("\nbefore -> after:")
        for line in compare(json.loads(before.read_text()), rows):
            print(line)


if __name__ == "__main__":
    main()
