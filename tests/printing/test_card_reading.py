"""Cards a player reads at arm's length (issue 20), measured on every system's example rosters
printed at poker size: most of the text at 7.5 pt or more, no sentence repeated from card to
card (core rules are on the quick-reference card), weapon and lookup tables never smaller than
the rules text beside them, and no continuation cards. The figures themselves:
benchmarks/card_reading.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from listbuilder.engine.cards import REFERENCE
from listbuilder.engine.library import Library
from listbuilder.printing.options import PrintOptions
from listbuilder.printing.render import print_roster

from .reading import Card, cards_of, reading

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(ROOT.glob("examples/*/legal*.yaml"))


def printed(library: Library, path: Path, card: str = "poker") -> tuple[object, list[Card]]:
    loaded = library.read_roster(path.read_text(), str(path))
    pdf = print_roster(loaded.catalog, loaded.system, loaded.roster,
                       PrintOptions(what="cards", card=card)).pdf
    return loaded, cards_of(pdf)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_poker_card_reads_at_arms_length(library: Library, path: Path) -> None:
    _, cards = printed(library, path)
    found = reading(cards)
    assert found.readable >= 0.9, found.line()
    assert found.repeated <= 0.1, found.line()
    assert found.continued == 0, found.line()


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_tables_are_never_smaller_than_the_rules_beside_them(library: Library,
                                                             path: Path) -> None:
    loaded, cards = printed(library, path)
    units = loaded.system.unit_cards(loaded.catalog, loaded.roster)  # type: ignore[attr-defined]
    checked = 0
    for unit in units:
        # a name that wraps in the card's band has the copies badge (×2) between its lines
        (card,) = [c for c in cards if re.sub(r"×\d+|\s", "", c.text).startswith(
            unit.profile.name.replace(" ", ""))]
        rules = [size for rule in unit.profile.rules
                 if (size := card.line_size(f"{rule.name}:")) is not None]
        cells = [s for table in unit.profile.tables if table.rows
                 if (s := card.size_after(table.headers[0].upper())) is not None]
        if rules and cells:
            checked += 1
            assert min(cells) >= max(rules) - 0.01, (unit.profile.name, cells, rules)
    assert checked or not any(u.profile.rules and u.profile.tables for u in units)


def test_the_quick_reference_card_closes_every_roster_print(library: Library) -> None:
    for path in EXAMPLES:
        _, cards = printed(library, path)
        assert cards[-1].text.startswith(REFERENCE), path
        assert sum(c.text.startswith(REFERENCE) for c in cards) == 1
