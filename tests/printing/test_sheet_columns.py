"""The roster sheet parts its columns of rules itself (listbuilder/printing/columns.py)
instead of having WeasyPrint balance them, which took more than half of its layout time. The
sheet a player gets must not change: each example roster's sheet is read back and compared,
glyph by glyph and position by position, with the same sheet laid out with balanced columns.
"""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path
from typing import Any

import pdfplumber
import pytest

from listbuilder.engine.library import Library
from listbuilder.engine.profile import RuleText
from listbuilder.printing import layout
from listbuilder.printing.columns import column_start, column_width, lines
from listbuilder.printing.options import PrintOptions
from listbuilder.printing.render import print_sheet

pytestmark = pytest.mark.print

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(p for p in (ROOT / "examples").glob("*/*.yaml")
                  if "illegal" not in p.name and p.name != "match.yaml")


def glyphs(pdf: bytes) -> list[list[tuple[str, float, float, float]]]:
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        return [[(c["text"], round(c["x0"], 1), round(c["top"], 1), round(c["size"], 2))
                 for c in page.chars] for page in doc.pages]


@pytest.fixture
def layouts(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, int]]:
    """The column starts of each layout a print makes, in order."""
    seen: list[dict[str, int]] = []
    real = layout.render_template

    def spy(template: Any, **context: Any) -> str:
        if "column_starts" in context:
            seen.append(dict(context["column_starts"]))
        return real(template, **context)

    monkeypatch.setattr(layout, "render_template", spy)
    return seen


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_sheet_parted_by_us_is_the_sheet_balanced_columns_give(
        library: Library, path: Path, paper: str, layouts: list[dict[str, int]]) -> None:
    loaded = library.read_roster(path.read_text(encoding="utf-8"), path.name)
    options = PrintOptions(what="sheet", paper=paper)  # type: ignore[arg-type]
    printed = print_sheet(loaded.catalog, loaded.system, loaded.roster, options)
    parted = layouts[0]
    # the same sheet with every section left to WeasyPrint's balancing
    context = {"sheet": loaded.system.cards().roster_sheet(loaded.catalog, loaded.roster)}
    from listbuilder.printing.render import _context
    from listbuilder.printing.templating import system_template

    balanced, _, _ = layout.render_sheet_document(
        system_template(loaded.system.id, "sheet.html"),
        _context(loaded.system, options, loaded.roster.name, paper=paper, **context), {})
    assert glyphs(printed.pdf) == glyphs(balanced)
    sheet = context["sheet"]
    assert parted == {"core": column_start(sheet.core, column_width(paper)),
                      "glossary": column_start(sheet.glossary, column_width(paper))}


def test_op40ks_sheet_is_parted_in_one_layout(library: Library,
                                              layouts: list[dict[str, int]]) -> None:
    loaded = library.read_roster((ROOT / "examples/op40k/legal.yaml").read_text(), "legal.yaml")
    print_sheet(loaded.catalog, loaded.system, loaded.roster, PrintOptions(what="sheet"))
    assert len(layouts) == 1 and layouts[0]["core"] > 0 and layouts[0]["glossary"] > 0


def test_a_section_over_a_page_break_falls_back_to_balanced_columns(
        library: Library, layouts: list[dict[str, int]]) -> None:
    """One Page 40k's example with eight more units of Gretchin runs onto a second page
    inside its core rules: a parted section would leave its second part a column of its own
    on the next page."""
    loaded = library.read_roster((ROOT / "examples/op40k/legal.yaml").read_text(),
                                 "legal.yaml")
    gretchin = next(e for e in loaded.roster.entries if e.unit == "Gretchin")
    roster = replace(loaded.roster, entries=(*loaded.roster.entries, *[gretchin] * 8))
    printed = print_sheet(loaded.catalog, loaded.system, roster, PrintOptions(what="sheet"))
    assert printed.pages == 2
    assert len(layouts) == 2 and any(layouts[0].values()) and layouts[1] == {}


def test_lines_break_words_as_a_column_does() -> None:
    rule = RuleText("Fast", "Adds 3\" to every move.")
    assert lines(rule, 91.0) == 1
    long = RuleText("Damage", " ".join(["word"] * 60))
    assert lines(long, 91.0) > lines(long, 180.0) > 1
    assert column_start([rule], 91.0) == 0  # one rule: nothing to part
    # three short rules and a long one: the long one alone fills the second column
    rules = [rule, rule, rule, long]
    assert column_start(rules, 91.0) == 3
