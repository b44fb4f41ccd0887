"""Every print path read back as a player would hold it: no text under 6 pt, no word printed
over another, every glyph inside its card, nothing in the 5 mm band at the paper's edge that
home printers leave blank (print-shop files with bleed aside), text dark enough against what is
behind it. See pdfcheck.geometry_problems for how each is measured.

The paths: each system's example rosters at each card size, each roster's sheet, both card sets
(Space Empires' action deck, Hammer Wars' unit cards), every faction's chits and every rules
sheet. The option sets rotate along each path, so every path meets every option (A4 and Letter,
cut marks, bleed, both duplex flips, gutter-fold, ink-saver) without printing every product.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from listbuilder.engine.library import Library
from listbuilder.engine.registry import all_systems, get_system
from listbuilder.printing.options import PrintError, PrintOptions
from listbuilder.printing.render import (
    print_chits,
    print_deck,
    print_roster,
    print_rules,
)

from .pdfcheck import Check, geometry_problems

pytestmark = pytest.mark.print

ROOT = Path(__file__).resolve().parents[2]
SIZES = ("poker", "mini", "tarot")
# Each set names every option at least once; a path walks them in turn.
OPTION_SETS: tuple[dict[str, Any], ...] = (
    {"paper": "a4", "cut_marks": True, "duplex": "long", "ink_saver": True},
    {"paper": "letter", "gutter_fold": True, "cut_marks": True},
    {"paper": "letter", "bleed": True, "duplex": "short"},
    {"paper": "letter", "cut_marks": True, "duplex": "long"},
    {"paper": "a4", "gutter_fold": True, "ink_saver": True},
    {"paper": "a4"},
)


def _options(n: int, **fixed: Any) -> PrintOptions:
    return PrintOptions(**{**OPTION_SETS[n % len(OPTION_SETS)], **fixed})


def _label(options: PrintOptions) -> str:
    parts = [options.paper, options.card]
    parts += [name for name in ("cut_marks", "bleed", "gutter_fold", "ink_saver")
              if getattr(options, name)]
    if options.duplex != "none":
        parts.append(f"duplex-{options.duplex}")
    return "-".join(parts)


ROSTERS = [path for system in all_systems()
           for path in sorted((ROOT / "examples" / system.id).glob("*.yaml"))
           if path.name != "match.yaml"]
ROSTER_CARDS = [(path, _options(i * len(SIZES) + k, card=size, what="cards"))
                for i, path in enumerate(ROSTERS) for k, size in enumerate(SIZES)]
ROSTER_SHEETS = [(path, PrintOptions(paper=("a4", "letter")[i % 2], ink_saver=i % 3 == 0,
                                     what="sheet")) for i, path in enumerate(ROSTERS)]
DECKS = [(system_id, _options(n, card=SIZES[n % len(SIZES)]))
         for system_id, runs in (("spaceempires", range(6)), ("hammerwars", range(2, 5)))
         for n in runs]
FACTIONS = ("Eldar", "Imperial", "Orks", "Tyranids")
CHITS = [(faction, _options(i + k)) for i, faction in enumerate(FACTIONS) for k in (0, 3)]
RULES = [(system.id, PrintOptions(paper=paper, ink_saver=ink))
         for system in all_systems() for paper, ink in (("a4", False), ("letter", True))]


def _fit(pdf: bytes, options: PrintOptions) -> None:
    problems = geometry_problems(pdf, Check(bleed=options.bleed))
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize(("path", "options"), ROSTER_CARDS,
                         ids=[f"{p.parent.name}/{p.stem}-{_label(o)}" for p, o in ROSTER_CARDS])
def test_roster_cards(library: Library, path: Path, options: PrintOptions) -> None:
    loaded = library.read_roster(path.read_text(), str(path))
    if not loaded.system.cards().unit_cards(loaded.catalog, loaded.roster):  # the empty example
        with pytest.raises(PrintError, match="has no units to print: add entries to it"):
            print_roster(loaded.catalog, loaded.system, loaded.roster, options)
        return
    _fit(print_roster(loaded.catalog, loaded.system, loaded.roster, options).pdf, options)


@pytest.mark.parametrize(("path", "options"), ROSTER_SHEETS,
                         ids=[f"{p.parent.name}/{p.stem}-{_label(o)}" for p, o in ROSTER_SHEETS])
def test_roster_sheet(library: Library, path: Path, options: PrintOptions) -> None:
    loaded = library.read_roster(path.read_text(), str(path))
    _fit(print_roster(loaded.catalog, loaded.system, loaded.roster, options).pdf, options)


@pytest.mark.parametrize(("system_id", "options"), DECKS,
                         ids=[f"{s}-{_label(o)}" for s, o in DECKS])
def test_card_sets(library: Library, system_id: str, options: PrintOptions) -> None:
    system = get_system(system_id)
    _fit(print_deck(library.catalog(system), system, options).pdf, options)


@pytest.mark.parametrize(("faction", "options"), CHITS,
                         ids=[f"{f}-{_label(o)}" for f, o in CHITS])
def test_chits(library: Library, faction: str, options: PrintOptions) -> None:
    system = get_system("spaceempires")
    _fit(print_chits(library.catalog(system), system, faction, options).pdf, options)


@pytest.mark.parametrize(("system_id", "options"), RULES,
                         ids=[f"{s}-{_label(o)}" for s, o in RULES])
def test_rules_sheets(library: Library, system_id: str, options: PrintOptions) -> None:
    system = get_system(system_id)
    _fit(print_rules(library.catalog(system), system, options).pdf, options)


def _page(body: str) -> bytes:
    from weasyprint import HTML

    return bytes(HTML(string=f"""<html><head><style>
        @page {{ size: 100mm 100mm; margin: 0 }} body {{ margin: 0; font-family: sans-serif }}
        p {{ position: absolute; margin: 0; font-size: 9pt }}</style></head>
        <body>{body}</body></html>""").write_pdf())


@pytest.mark.parametrize(("body", "found"), [
    ('<p style="left: 20mm; top: 20mm; font-size: 4pt">tiny</p>', "glyphs under 6 pt"),
    ('<p style="left: 20mm; top: 20mm">Force</p><p style="left: 21mm; top: 20.5mm">BF</p>',
     "overlaps"),
    ('<p style="left: 1mm; top: 40mm">edge</p>', "inside the 5 mm band"),
    ('<p style="left: 20mm; top: 20mm; color: #aaa">faint</p>', "contrast"),
    ('<div style="position: absolute; left: 20mm; top: 20mm; width: 40mm; height: 20mm; '
     'background: #24313e"><p style="color: #4a5561">grey on dark</p></div>', "contrast"),
])
def test_the_check_finds_each_fault(body: str, found: str) -> None:
    problems = geometry_problems(_page(body))
    assert any(found in p for p in problems), problems
    assert geometry_problems(_page('<p style="left: 20mm; top: 20mm">Plain</p>')) == []
