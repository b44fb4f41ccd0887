"""The roster sheet as a player reads it at the table, measured in the PDF: a box to tick for
each wound or life of each model (grouped a model at a time), boxes big enough for a pen's
tick, numbers that read "1 Wound" and not "1 Wounds", a Space Empires seed that says what it
is for, every example roster's sheet on one page, and no heading left alone at a page's foot.
"""

from __future__ import annotations

import dataclasses
import io
import itertools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pdfplumber
import pytest

from listbuilder.engine.cards import RosterSheet
from listbuilder.engine.library import Library
from listbuilder.engine.roster_file import LoadedRoster
from listbuilder.printing import layout
from listbuilder.printing.columns import column_start, column_width
from listbuilder.printing.options import PrintOptions
from listbuilder.printing.render import _context, print_sheet
from listbuilder.printing.templating import system_template

from .pdfcheck import mm

pytestmark = pytest.mark.print

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(p for p in (ROOT / "examples").glob("*/*.yaml")
                  if p.name != "match.yaml")  # a match file is no roster
MODEL_GAP = 3.0  # mm: a gap this wide between two boxes parts two models; runs are closer
RUN_GAP = 1.8  # mm: a run of five boxes stands this far from the next run of the same model
BOX_GAP = 1.2  # mm: boxes of one run are closer than this
READ_PT = 7.5  # the least size of a number a player reads during play
FOOTER = 36.0  # pt above the page's foot: the running footer, not the sheet


@dataclass(frozen=True)
class Box:
    x: float  # mm from the page's left
    top: float  # mm from the page's top
    size: float  # mm, the outer edge of its border


def tick_boxes(page: Any) -> list[Box]:
    """The squares drawn on a page, 2 to 10 mm, by their outer edge (a border is drawn as an
    outer and an inner square), in reading order."""
    seen = {(round(r["x0"], 1), round(r["top"], 1), round(r["width"], 1)): r for r in page.rects
            if abs(r["width"] - r["height"]) < 0.2 and 2 <= mm(r["width"]) <= 10}
    squares = list(seen.values())  # (a square may be drawn twice: its fill and its edge)

    def inside(a: dict[str, Any], b: dict[str, Any]) -> bool:
        return a is not b and a["x0"] >= b["x0"] - 0.01 and a["x1"] <= b["x1"] + 0.01 \
            and a["top"] >= b["top"] - 0.01 and a["bottom"] <= b["bottom"] + 0.01

    outer = [r for r in squares if not any(inside(r, other) for other in squares)]
    boxes = [Box(mm(r["x0"]), mm(r["top"]), mm(r["width"])) for r in outer]
    return sorted(boxes, key=lambda b: (round(b.top), b.x))


def groups(boxes: list[Box]) -> list[int]:
    """Boxes counted a group at a time: a new group at each wider gap and each new line."""
    out: list[int] = []
    last: Box | None = None
    for box in boxes:
        if last is None or abs(box.top - last.top) > 1 or box.x - (last.x + last.size) >= \
                MODEL_GAP:
            out.append(0)
        out[-1] += 1
        last = box
    return out


def row_tops(page: Any, sheet: RosterSheet) -> list[float]:
    """Where each line of the sheet's table starts (mm from the top), found by its name, in
    order (a name may appear twice: Space Empires' recruits and starting draw)."""
    tops: list[float] = []
    for line in sheet.lines:
        after = tops[-1] if tops else 0.0
        found = [mm(m["top"]) for m in page.search(line.name, regex=False)
                 if mm(m["top"]) > after + 0.5]
        assert found, f"{line.name} not found below {after:.1f} mm"
        tops.append(min(found))
    total = [mm(m["top"]) for m in page.search("Total", regex=False)
             if mm(m["top"]) > tops[-1]]
    return [*tops, min(total)]


def boxes_by_line(pdf: bytes, sheet: RosterSheet) -> dict[int, list[Box]]:
    """The tick boxes of each line of the table (the sheet's table on its first page)."""
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        page = doc.pages[0]
        tops = row_tops(page, sheet)
        boxes = tick_boxes(page)
    return {i: [b for b in boxes if tops[i] - 1.5 <= b.top < tops[i + 1] - 1.5]
            for i in range(len(sheet.lines))}


def text_of(pdf: bytes) -> str:
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        return "\n".join(page.extract_text() or "" for page in doc.pages)


Printer = Callable[[Path, str], tuple[LoadedRoster, bytes, int]]


@pytest.fixture(scope="module")
def printed(library: Library) -> Printer:
    """Each example's sheet printed once for this module: (loaded roster, pdf, pages)."""
    done: dict[tuple[Path, str], tuple[LoadedRoster, bytes, int]] = {}

    def get(path: Path, paper: str = "a4") -> tuple[LoadedRoster, bytes, int]:
        if (path, paper) not in done:
            loaded = library.read_roster(path.read_text(encoding="utf-8"), path.name)
            options = PrintOptions(what="sheet", paper=paper)  # type: ignore[arg-type]
            out = print_sheet(loaded.catalog, loaded.system, loaded.roster, options)
            done[path, paper] = (loaded, out.pdf, out.pages)
        return done[path, paper]

    return get


def line_named(sheet: RosterSheet, name: str) -> int:
    return next(i for i, line in enumerate(sheet.lines) if line.name == name)


# -- a box a wound, a group a model ---------------------------------------------------------

@pytest.mark.parametrize(("example", "unit", "expected", "label"), [
    # 4 Dragoon Riders of 3 wounds: 4 groups of 3, not 4 boxes
    ("actionhammer/legal", "Dragoon Riders", [3, 3, 3, 3], "4 models, 3 wounds each"),
    ("actionhammer/legal", "Brigade Captain", [5], "5 wounds"),
    ("actionhammer/legal", "Recon Marshal", [4], "4 wounds"),
    ("actionhammer/legal", "Line Troopers", [5, 5], "10 models"),  # one wound each
    ("hammerwars/legal", "Support Hero", [3], "3 lives"),
    ("hammerwars/legal", "Ranged Heavy", [5], "5 lives"),
    ("hammerwars/legal", "Support Specialist", [2], "2 models"),
    # WarStuff: a box for each wound a copy can take before any hit kills it (its Quality)
    ("warstuff/legal", "Human Warrior", [2, 2], "2 models: wounds taken"),
    ("warstuff/legal", "Ranger Captain", [3], "wounds taken"),
    ("op40k/legal", "Nobz", [5], "5 models"),
    ("op40k/legal", "Trukk", [1], "1 model"),
    ("spaceempires/legal", "Freeboterz Corsair", [2], "lost"),
])
def test_each_model_has_a_box_for_each_wound_grouped_by_model(
        printed: Printer, example: str, unit: str, expected: list[int], label: str) -> None:
    loaded, pdf, _ = printed(ROOT / "examples" / f"{example}.yaml", "a4")
    sheet = loaded.system.cards().roster_sheet(loaded.catalog, loaded.roster)
    index = line_named(sheet, unit)
    assert groups(boxes_by_line(pdf, sheet)[index]) == expected
    assert sheet.lines[index].track_label == label
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        tops = row_tops(doc.pages[0], sheet)
        row = doc.pages[0].crop((0, tops[index] / 25.4 * 72 - 3, doc.pages[0].width,
                                 tops[index + 1] / 25.4 * 72 - 3))
        assert label in " ".join((row.extract_text() or "").split())


def test_a_model_of_many_wounds_is_one_group(printed: Printer) -> None:
    """The Strider Walker's 12 wounds: 12 boxes in runs of five, no model's gap among them.
    The runs read as fives: the gap after each fifth box is plainly wider than the gaps in a
    run (before, 1.1 mm against 0.9 mm: twelve boxes in a row to count one by one)."""
    loaded, pdf, _ = printed(ROOT / "examples/actionhammer/legal.yaml", "a4")
    sheet = loaded.system.cards().roster_sheet(loaded.catalog, loaded.roster)
    boxes = boxes_by_line(pdf, sheet)[line_named(sheet, "Strider Walker")]
    assert len(boxes) == 12
    runs = [1]
    for a, b in itertools.pairwise(boxes):
        gap = b.x - (a.x + a.size)
        if abs(a.top - b.top) >= 1:  # a new line of boxes
            runs.append(1)
            continue
        assert gap < MODEL_GAP
        if gap >= RUN_GAP:
            runs.append(1)
        else:
            assert gap < BOX_GAP, gap
            runs[-1] += 1
    assert runs == [5, 5, 2]


GHOST_LEGION = """\
sample: true
factions:
  - {name: Ghost Legion, text: Test faction of ours.}
datasheets:
  - name: Veil Wardens
    faction: Ghost Legion
    keywords: [Infantry]
    move: 6
    save: 4
    wounds: 2
    morale: 4
    control: 1
    models: {min: 3, max: 6}
    pts: 30
    weapons:
      - {name: Warden Glaive, range: Melee, att: 2, sk: 3, ap: -1}
    upgrades:
      - name: Bonded Armour
        pts: 20
        text: Each warden takes one more wound; one more warden joins.
        effects: [{change: wounds, by: 1}, {models: 1}]
"""


def test_the_boxes_follow_the_unit_as_fielded(tmp_path: Path) -> None:
    """An upgrade that adds a wound and a model: 4 groups of 3 boxes, not 3 of 2."""
    data = tmp_path / "actionhammer"
    data.mkdir()
    (data / "ghost-legion.yaml").write_text(GHOST_LEGION, encoding="utf-8")
    library = Library(custom_dir=tmp_path)
    assert not library.loaded("actionhammer").problems
    roster = ("format: 1\nsystem: actionhammer\nname: Wardens\npoints_limit: 2000\n"
              "factions: [Ghost Legion]\nentries:\n"
              "  - {unit: Veil Wardens, count: 3, upgrades: [Bonded Armour]}\n"
              "  - {unit: Veil Wardens, count: 3}\n")
    loaded = library.read_roster(roster, "wardens.yaml")
    sheet = loaded.system.cards().roster_sheet(loaded.catalog, loaded.roster)
    pdf = print_sheet(loaded.catalog, loaded.system, loaded.roster,
                      PrintOptions(what="sheet")).pdf
    found = boxes_by_line(pdf, sheet)
    assert groups(found[0]) == [3, 3, 3, 3]
    assert groups(found[1]) == [2, 2, 2]
    assert [line.track_label for line in sheet.lines] == ["4 models, 3 wounds each",
                                                          "3 models, 2 wounds each"]


# -- boxes for a pen ------------------------------------------------------------------------

@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_tick_box_is_at_least_4_mm_and_stands_apart(printed: Printer, path: Path) -> None:
    loaded, pdf, _ = printed(path, "a4")
    sheet = loaded.system.cards().roster_sheet(loaded.catalog, loaded.roster)
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        boxes = [box for page in doc.pages for box in tick_boxes(page)]
    assert len(boxes) == sum(sum(line.track) for line in sheet.lines)
    assert all(4.0 <= box.size <= 6.0 for box in boxes), sorted({b.size for b in boxes})
    # each its own square: at least 0.5 mm of paper between neighbours on a line
    for a, b in itertools.pairwise(boxes):
        if abs(a.top - b.top) < 1:
            assert b.x - (a.x + a.size) >= 0.5


# -- words ----------------------------------------------------------------------------------

PLURAL_AFTER_ONE = re.compile(
    r"(?<![\d/.,+-])1 (Wounds|Lives|Models|Spaces|models|wounds|lives|chits|pts|units)\b")


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_one_of_a_thing_reads_singular(printed: Printer, path: Path) -> None:
    _, pdf, _ = printed(path, "a4")
    text = text_of(pdf)
    assert not PLURAL_AFTER_ONE.findall(text), PLURAL_AFTER_ONE.findall(text)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_no_count_is_parted_from_what_it_counts(printed: Printer, path: Path) -> None:
    """"10x Bayonet" in the upgrades column never breaks after "10x"."""
    _, pdf, _ = printed(path, "a4")
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        parted = [line["text"] for page in doc.pages for line in page.extract_text_lines()
                  if re.search(r"\b\d+x$", line["text"])]
    assert not parted


def test_the_stats_say_1_wound_and_1_life(printed: Printer) -> None:
    loaded, pdf, _ = printed(ROOT / "examples/actionhammer/legal.yaml", "a4")
    sheet = loaded.system.cards().roster_sheet(loaded.catalog, loaded.roster)
    assert "1 Wound · " in sheet.lines[line_named(sheet, "Line Troopers")].stats
    assert "1 Wound · " in text_of(pdf)
    loaded, pdf, _ = printed(ROOT / "examples/hammerwars/legal.yaml", "a4")
    sheet = loaded.system.cards().roster_sheet(loaded.catalog, loaded.roster)
    infantry = sheet.lines[line_named(sheet, "Assault Infantry")]
    assert '6" Move · 1 Life · Light Armor' in infantry.stats
    assert '6" Move · 1 Life · Light Armor' in text_of(pdf)


def test_a_one_point_entry_costs_1_pt(library: Library) -> None:
    loaded = library.read_roster(
        "format: 1\nsystem: hammerwars\nname: T\nfactions: [Lizardmen]\nchoices: {goal: Duty}\n"
        "entries:\n  - {unit: Assault Infantry, count: 1}\n", "t.yaml")
    sheet = loaded.system.cards().roster_sheet(loaded.catalog, loaded.roster)
    assert sheet.lines[0].cost == "1 pt"


def test_the_space_empires_seed_says_what_it_is_for(printed: Printer) -> None:
    loaded, pdf, _ = printed(ROOT / "examples/spaceempires/legal.yaml", "a4")
    text = " ".join(text_of(pdf).split())
    assert "Seed of the starting draw" not in text
    assert ("Seed 2024: picks the 8 space and 12 ground units of the starting draw (listed "
            "below); the same seed always draws the same units") in text
    assert ("Holds: 0 Poor planets, 0 Rich planets, 1 Homeworld; 2 revenue saved in the "
            "treasury") in text
    # the draw sits under a heading of its own, after the recruits
    sheet = loaded.system.cards().roster_sheet(loaded.catalog, loaded.roster)
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        page = doc.pages[0]
        tops = row_tops(page, sheet)
        heading = [mm(m["top"]) for m in page.search("Starting draw", regex=False)
                   if mm(m["top"]) > tops[0]]
        recruited = [mm(m["top"]) for m in page.search("Recruited this turn", regex=False)]
    first_drawn = next(i for i, line in enumerate(sheet.lines) if line.group == "Starting draw")
    assert tops[first_drawn - 1] < heading[0] < tops[first_drawn]
    assert recruited and recruited[0] < tops[0]
    assert "starting draw" not in {line.detail for line in sheet.lines}


# -- pages ----------------------------------------------------------------------------------

@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_example_sheet_is_one_page(printed: Printer, path: Path, paper: str) -> None:
    _, pdf, pages = printed(path, paper)
    assert pages == 1
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        assert len(doc.pages) == 1


def body_lines(page: Any) -> list[str]:
    return [line["text"] for line in page.extract_text_lines()
            if line["top"] < page.height - FOOTER]


def grown(loaded: LoadedRoster, lines: int, *,
          repeat: Callable[[RosterSheet], tuple[Any, ...]] | None = None) -> RosterSheet:
    """The roster's sheet with `lines` lines of its table, its own repeated (or `repeat`'s
    lines repeated before the rest), so its later sections meet a page's foot at each
    height in turn."""
    sheet = loaded.system.cards().roster_sheet(loaded.catalog, loaded.roster)
    if repeat is None:
        return dataclasses.replace(sheet, lines=(sheet.lines * lines)[:lines])
    head = repeat(sheet)
    rest = tuple(line for line in sheet.lines if line not in head)
    return dataclasses.replace(sheet, lines=(head * lines)[:lines] + rest)


def laid_out(loaded: LoadedRoster, sheet: RosterSheet) -> bytes:
    """The sheet printed as `print_sheet` prints it (its columns parted the same way)."""
    options = PrintOptions(what="sheet")
    context = _context(loaded.system, options, loaded.roster.name, sheet=sheet, paper="a4")
    width = column_width("a4")
    pdf, _, _ = layout.render_sheet_document(
        system_template(loaded.system.id, "sheet.html"), context,
        {"core": column_start(sheet.core, width), "glossary": column_start(sheet.glossary, width)})
    return pdf


def page_ends(pdf: bytes) -> Iterator[tuple[str, list[str]]]:
    """For each page break: the last line above it and the first two after it (the table's
    header comes again first when the table goes on)."""
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        pages = [body_lines(page) for page in doc.pages]
    for before, after in itertools.pairwise(pages):
        yield (before[-1] if before else ""), after[:2]


@pytest.mark.parametrize(("example", "sizes", "headings", "repeat"), [
    # the sections of rules after a long table: "Core rules..." meets the foot of page 1
    ("actionhammer/legal", range(12, 22),
     ("Core rules the cards use", "Special rules in this roster"), None),
    # Space Empires' recruits grow until the starting draw's heading meets the foot
    ("spaceempires/legal", range(35, 41), ("Starting draw",),
     lambda sheet: tuple(line for line in sheet.lines if line.group != "Starting draw")),
])
def test_no_heading_is_left_alone_at_a_pages_foot(
        library: Library, example: str, sizes: range, headings: tuple[str, ...],
        repeat: Callable[[RosterSheet], tuple[Any, ...]] | None) -> None:
    path = ROOT / "examples" / f"{example}.yaml"
    loaded = library.read_roster(path.read_text(encoding="utf-8"), path.name)
    moved = 0
    for size in sizes:
        pdf = laid_out(loaded, grown(loaded, size, repeat=repeat))
        for last, first in page_ends(pdf):
            assert not last.startswith(headings), (size, last)
            moved += any(line.startswith(headings) for line in first)
    assert moved  # some size put a heading at a page's foot, and it went over with its lines


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_number_read_in_play_is_at_least_7_5_pt(printed: Printer, path: Path) -> None:
    """The stat lines under each unit's name and the tick boxes' labels were 7.3 pt grey, and
    only 57% of a Space Empires sheet's characters reached 7.5 pt. Every digit on the sheet
    (not its running footer: the system's name and the page number) is 7.5 pt or more, and
    nearly all of its text."""
    _, pdf, _ = printed(path, "a4")
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        chars = [c for page in doc.pages for c in page.chars
                 if c["text"].strip() and c["bottom"] < page.height - FOOTER]
    small_digits = sorted({(c["text"], round(c["size"], 2)) for c in chars
                           if c["text"].isdigit() and c["size"] < READ_PT - 0.01})
    assert not small_digits, small_digits
    share = sum(c["size"] >= READ_PT - 0.01 for c in chars) / len(chars)
    assert share >= 0.97, f"{share:.1%} of the sheet's characters at {READ_PT} pt or more"
