"""Reading a match file (docs/match-format.md): every way it can be wrong names the file, the
line and the fix, a roster inside it is checked as a roster file and its problems are placed
on the match file's lines, and a file from a stranger is bounded by what it expands to."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from listbuilder.commands.cli import main
from listbuilder.engine.errors import DataLoadError
from listbuilder.engine.library import Library
from listbuilder.engine.match import MAX_EVENTS, Match, event
from listbuilder.engine.match_file import FORMAT, dump_match, read_match

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = Library()
ROSTER = (ROOT / "examples" / "hammerwars" / "legal.yaml").read_text(encoding="utf-8")


def match_text(roster: str = ROSTER, events: str = "events: []\n", head: str = "") -> str:
    return (f"format: {FORMAT}\nsystem: hammerwars\n{head}players:\n  - name: Ann\n"
            f"    roster: |\n{textwrap.indent(roster, '      ')}{events}")


def problem(text: str) -> str:
    with pytest.raises(DataLoadError) as raised:
        read_match(text, "m.yaml", LIBRARY.read_roster)
    return "\n".join(str(e) for e in raised.value.errors)


def test_a_match_file_reads_back_as_the_match_it_was_written_from() -> None:
    loaded = read_match(match_text(), "m.yaml", LIBRARY.read_roster)
    match = Match("hammerwars", loaded.match.players,
                  (event("start", 1), event("wound", 1, 2, wounds=2, id="t1"),
                   event("note", text="a word: with a colon, and \"quotes\"")),
                  (("first", 1),))
    again = read_match(dump_match(match), "m.yaml", LIBRARY.read_roster)
    assert again.match == match
    assert again.match.players[0].roster == loaded.match.players[0].roster
    # one event a line: the lines are where a refusal points
    lines = dump_match(match).splitlines()
    assert [lines[n - 1].lstrip("- ")[:11] for n in again.lines if n] == [
        "{kind: star", "{kind: woun", "{kind: note"]


@pytest.mark.parametrize(("text", "said"), [
    ("- a list\n", "m.yaml:1: (top): a match file is a mapping"),
    (match_text().replace(FORMAT, "listbuilder-match/9"), "m.yaml:1: format: write format: "),
    (match_text(head="colour: red\n"), "m.yaml:3: colour: unknown key 'colour'"),
    (match_text().replace("system: hammerwars\n", "system: 7\n", 1), "write the game's id"),
    (match_text(events="events: {kind: start}\n"), "events is a list"),
    (match_text(events="events:\n  - {kind: start, side: one}\n"),
     "side is a number (side: 1), not 'one'"),
    (match_text(events="events:\n  - {kind: wound, side: 1, wounds: [1, 2]}\n"),
     "'wounds' holds a number, a word or yes/no"),
    (match_text(events="events:\n  - start\n"), "an event is a mapping with its kind"),
    (match_text(head="options: {objectives: [1]}\n"), "options are names with a number"),
])
def test_each_way_a_match_file_is_wrong_is_named_with_its_line(text: str, said: str) -> None:
    assert said in problem(text)


def test_a_problem_in_a_roster_is_placed_on_the_match_files_line() -> None:
    broken = ROSTER.replace("unit: Ranged Infantry", "unit: Ranged Infantri")
    text = match_text(broken)
    line = next(n for n, t in enumerate(text.splitlines(), 1) if "Ranged Infantri" in t)
    said = problem(text)
    assert f"player 1's roster:{line}:" in said
    assert "Ranged Infantry" in said  # the reader's suggestion comes through


def test_a_roster_of_another_game_is_refused() -> None:
    other = (ROOT / "examples" / "warstuff" / "legal.yaml").read_text(encoding="utf-8")
    assert "this roster is for warstuff, the match for hammerwars" in problem(match_text(other))


def test_more_events_than_a_match_holds_are_refused_before_they_are_built() -> None:
    many = "events:\n" + "  - {kind: start}\n" * (MAX_EVENTS + 1)
    assert f"events: a match holds at most {MAX_EVENTS} events" in problem(
        match_text(events=many))


def test_a_file_that_expands_past_the_limits_is_refused() -> None:
    bomb = ('events:\n  - &a {kind: x, t: "' + "x" * 4000 + '"}\n'
            + "  - *a\n" * 4000)
    with pytest.raises(DataLoadError) as raised:
        read_match(match_text(events=bomb), "m.yaml", LIBRARY.read_roster)
    assert "once its aliases are expanded" in str(raised.value)


def test_the_command_line_says_why_a_file_cant_be_read(tmp_path: Path) -> None:
    path = tmp_path / "m.yaml"
    path.write_text(match_text(head="colour: red\n"), encoding="utf-8")
    done = CliRunner().invoke(main, ["match", str(path)])
    assert done.exit_code == 2
    assert f"{path}:3: colour: unknown key 'colour'" in done.output
    assert "Traceback" not in done.output
    missing = CliRunner().invoke(main, ["match", str(tmp_path / "none.yaml")])
    assert missing.exit_code == 2 and "cannot read the file" in missing.output
