"""Files from strangers are checked before they are built into objects: nesting, size,
numbers and dates are refused with their line and key, in players' words, never a crash."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from listbuilder.engine.catalog import parse_yaml
from listbuilder.engine.errors import DataLoadError
from listbuilder.engine.library import Library
from listbuilder.engine.registry import all_systems
from listbuilder.engine.roster_file import RosterFileError
from listbuilder.engine.yaml_limits import DATA, PACK, ROSTER, Limits, Tally, check_limits

HEAD = "format: 1\nsystem: op40k\nname: x\n"


def problems(library: Library, text: str) -> list[str]:
    with pytest.raises(RosterFileError) as caught:
        library.read_roster(text, "mine.yaml")
    return [str(e) for e in caught.value.errors]


def test_deep_nesting_is_refused_before_it_is_built(library: Library) -> None:
    # 50,000 levels overflowed the C loader's stack and killed the process
    text = HEAD + "entries: " + "[" * 50_000 + "]" * 50_000 + "\n"
    (problem,) = problems(library, text)
    assert problem.startswith("mine.yaml:4: entries[0][0]")
    assert "nested more than 20 levels deep" in problem and "is it a roster?" in problem


def test_deep_block_nesting_names_its_line(library: Library) -> None:
    text = HEAD + "entries:\n" + "".join("  " * i + "-\n" for i in range(30))
    (problem,) = problems(library, text)
    assert problem.startswith("mine.yaml:24: entries") and "nested more than 20" in problem


def test_a_deep_file_does_not_kill_the_command(tmp_path) -> None:  # type: ignore[no-untyped-def]
    deep = tmp_path / "deep.yaml"
    deep.write_text(HEAD + "entries: " + "[" * 50_000 + "]" * 50_000 + "\n")
    command = Path(sys.executable).parent / "listbuilder"
    done = subprocess.run([str(command), "validate", str(deep)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert "nested more than 20 levels deep" in done.stderr and "Traceback" not in done.stderr


def test_an_alias_counts_every_value_it_repeats(library: Library) -> None:
    laughs = "a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n" + "".join(
        f"b{i}: &b{i} [" + ", ".join([f"*{'a' if i == 0 else f'b{i - 1}'}"] * 10) + "]\n"
        for i in range(9))
    (problem,) = problems(library, HEAD + laughs)
    assert "holds more than 60,000 values once its aliases are expanded (an alias counts its " \
           "anchor's values again each time it repeats it)" in problem


def test_aliases_count_their_depth_too() -> None:
    text = "a: &a [[[[1]]]]\nb: [[[[*a]]]]\n"
    check_limits(text, "f.yaml", Limits(depth=10))
    with pytest.raises(DataLoadError, match="nested more than 8 levels"):
        check_limits(text, "f.yaml", Limits(depth=8))


def test_small_anchors_are_fine(library: Library) -> None:
    text = HEAD + "factions: &f [Orks]\nentries:\n  - unit: Ork Boyz\n    count: 10\n"
    assert library.read_roster(text, "mine.yaml").roster.factions == ("Orks",)


def test_a_huge_number_is_refused_with_its_key(library: Library) -> None:
    (problem,) = problems(library, HEAD + "points_limit: " + "9" * 5000 + "\n")
    assert problem.startswith("mine.yaml:4: points_limit: a number with 5,000 digits")
    assert "put quotes around it if it is a name" in problem
    tagged = problems(library, HEAD + "points_limit: !!int '" + "1" * 40 + "'\n")
    assert "a number with 40 digits" in tagged[0]


def test_an_impossible_date_is_refused_with_its_key(library: Library) -> None:
    (problem,) = problems(library, HEAD + "data_revision: 2020-13-45\n")
    assert problem == ("mine.yaml:4: data_revision: '2020-13-45' reads as a date but no such "
                       "date exists: put quotes around it if it is text")


def test_a_long_text_is_refused(library: Library) -> None:
    (problem,) = problems(library, HEAD + "entries:\n  - unit: " + "x" * 6000 + "\n")
    assert problem.startswith("mine.yaml:5: entries[0].unit: a value of 6,000 characters")


def test_a_value_the_loader_cannot_build_is_an_error_not_a_trace() -> None:
    # without limits (trusted data) the loader's own errors still come back as DataLoadError
    with pytest.raises(DataLoadError, match="a value could not be read"):
        parse_yaml("a: 2020-13-45\n", "data.yaml")


def test_a_roster_within_the_limits_reads(library: Library) -> None:
    many = "".join(f"  - unit: Ork Boyz\n    count: {1 + i % 9}\n" for i in range(500))
    loaded = library.read_roster(HEAD + "factions: [Orks]\nentries:\n" + many, "big.yaml")
    assert len(loaded.roster.entries) == 500 and loaded.lines[499] == 6 + 2 * 499


def test_limits_must_be_positive() -> None:
    with pytest.raises(ValueError):
        Limits(depth=0)
    assert ROSTER.depth == 20


def test_a_file_with_hundreds_of_problems_lists_the_first_fifty(library: Library) -> None:
    many = "".join("  - unit: Boyz\n" for _ in range(300))
    found = problems(library, HEAD + "factions: [Orks]\nentries:\n" + many)
    assert len(found) == 51 and "unknown unit 'Boyz'" in found[0]
    assert found[-1] == ("mine.yaml: (top): and 250 more problems like these: fix the ones above "
                         "and read the file again")


@pytest.mark.parametrize(("line", "says"), [
    ("points_limit: !!bool maybe", "'maybe' can't be read as bool: remove the tag !!bool"),
    ("points_limit: !!int abc", "'abc' can't be read as int"),
    ("data_revision: !!timestamp soon", "'soon' reads as a date but no such date exists"),
    ("name: !!python/object:os.system x", "is not used in roster files: remove it"),
])
def test_a_tagged_value_that_cannot_be_built_is_refused_with_its_line(
        library: Library, line: str, says: str) -> None:
    (problem,) = problems(library, HEAD.replace("name: x\n", "") + line + "\n")
    assert problem.startswith("mine.yaml:3: ") and says in problem


# -- what a file expands to (issue 37): characters counted with every alias expanded --------

def test_an_alias_counts_its_anchors_characters_each_time_it_repeats() -> None:
    # 70 KB that read as 250 MB: one node per alias, so only a count of characters sees it
    bomb = "x: [&a " + "A" * 50_000 + "".join(", *a" for _ in range(5_000)) + "]\n"
    with pytest.raises(DataLoadError) as caught:
        check_limits(bomb, "pack.yaml", PACK)
    (error,) = caught.value.errors
    assert (error.line, error.loc) == (1, ("x", 2))  # refused at the alias that passed it
    assert error.message == (
        "the file holds more than 131,072 characters once its aliases are expanded (an alias "
        "counts its anchor's text again each time it repeats it); a pack may hold no more "
        "than it could written out in full: repeat less, or split it")


def test_an_anchor_counts_the_characters_of_the_aliases_inside_it() -> None:
    # a billion laughs of characters: each level repeats the one below ten times
    levels = "a0: &a0 " + "B" * 100 + "\n" + "".join(
        f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]\n" for i in range(1, 6))
    with pytest.raises(DataLoadError, match="more than 1,048,576 characters once its aliases"):
        check_limits(levels, "f.yaml", ROSTER)
    check_limits(levels, "f.yaml", replace(ROSTER, nodes=200_000, chars=12_000_000))  # 11.1 M


def test_a_long_file_without_aliases_is_told_to_split() -> None:
    text = "".join(f"k{i}: {'y' * 4_000}\n" for i in range(40))
    with pytest.raises(DataLoadError) as caught:
        check_limits(text, "f.yaml", PACK)
    assert caught.value.errors[0].message == ("the file holds more than 131,072 characters of "
                                              "values; a pack needs far fewer: split it")


def test_a_roster_is_bounded_by_what_it_expands_to(library: Library) -> None:
    name = "n" * 5_000
    text = HEAD + f"choices: {{a: &n {name}}}\nentries:\n" + "  - unit: *n\n" * 250
    (problem,) = problems(library, text)
    assert problem.startswith("mine.yaml:") and "entries[208].unit: the file holds more " \
        "than 1,048,576 characters once its aliases are expanded" in problem


def test_an_alias_inside_its_own_anchor_is_refused() -> None:
    # the loader builds a list that holds itself: writing it out (the studio's form) recursed
    # until Python gave up
    with pytest.raises(DataLoadError) as caught:
        parse_yaml("a: &x [1, {b: *x}]\n", "f.yaml", PACK)
    assert str(caught.value) == ("f.yaml:1: a[1].b: the alias *x is inside its own anchor &x, "
                                 "so it repeats without end: write what it stands for instead")


def test_texts_counted_together_share_one_bound() -> None:
    tally = Tally()
    piece = "[&a " + "A" * 2_000 + "".join(", *a" for _ in range(30)) + "]"  # 62,000 chars
    check_limits(piece, "form", PACK, tally)
    check_limits(piece, "form", PACK, tally)
    assert (tally.nodes, tally.chars) == (64, 124_000)
    with pytest.raises(DataLoadError, match="more than 131,072 characters"):
        check_limits(piece, "form", PACK, tally)
    assert tally.chars == 124_000  # a refused text adds nothing


def test_every_real_file_fits_the_limits_ten_times_over() -> None:
    """The figures are far above what the games' own files and starter packs hold (about
    750 values and 4,000 characters at most), and the examples' rosters."""
    roots = [Path(__file__).resolve().parents[2] / "listbuilder" / "systems",
             Path(__file__).resolve().parents[2] / "examples"]
    texts = [p.read_text() for root in roots for p in sorted(root.rglob("*.yaml"))]
    texts += [s.pack_starter() for s in all_systems()]
    assert len(texts) > 40
    most = Tally()
    for text in texts:
        tally = Tally()
        check_limits(text, "f.yaml", PACK, tally)
        most = Tally(max(most.nodes, tally.nodes), max(most.chars, tally.chars))
    assert most.nodes * 10 < min(PACK.nodes, ROSTER.nodes, DATA.nodes)
    assert most.chars * 10 < min(PACK.chars, ROSTER.chars, DATA.chars)
