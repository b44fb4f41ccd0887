"""The example rosters' card prints, made once per test session and shared by the tests that
read them (test_card_reading.py, test_card_safety.py): each print takes a second or so, and
these tests read 36 of them."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from listbuilder.engine.library import Library
from listbuilder.printing.options import PrintOptions
from listbuilder.printing.render import print_roster

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(ROOT.glob("examples/*/legal*.yaml"))  # one or more per game
CARD_SIZES = ("poker", "mini", "tarot")

ExamplePrint = Callable[..., bytes]


def example_id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


@pytest.fixture(scope="session")
def example_print(library: Library) -> ExamplePrint:
    """example_print(path, card="poker", bleed=False) -> the PDF of that example roster's
    cards, printed once a session."""
    made: dict[tuple[Path, str, bool], bytes] = {}

    def make(path: Path, card: str = "poker", bleed: bool = False) -> bytes:
        key = (path, card, bleed)
        if key not in made:
            loaded = library.read_roster(path.read_text(), str(path))
            made[key] = print_roster(loaded.catalog, loaded.system, loaded.roster,
                                     PrintOptions(what="cards", card=card, bleed=bleed)).pdf
        return made[key]

    return make
