"""The match file's version 2 (docs/match-format.md, issue 50 item 10): files are written as
version 2 and may hold the clock's events; every version-1 file still reads and replays to
the state it always did."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from listbuilder.commands.cli import main
from listbuilder.engine.clock import clock
from listbuilder.engine.library import Library
from listbuilder.engine.match import event, replay
from listbuilder.engine.match_file import FORMAT, dump_match, read_match
from listbuilder.engine.registry import get_system

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = Library()
GAMES = ("hammerwars", "op40k", "warstuff", "actionhammer", "spaceempires")
T0 = 1_765_000_000_000


def test_files_are_written_as_version_2() -> None:
    assert FORMAT == "listbuilder-match/2"


@pytest.mark.parametrize("game", GAMES)
def test_a_version_1_file_replays_and_comes_back_as_version_2_with_the_same_state(
        game: str) -> None:
    text = (ROOT / "examples" / game / "match.yaml").read_text(encoding="utf-8")
    assert "format: listbuilder-match/1\n" in text
    play = get_system(game).play()
    assert play is not None
    old = read_match(text, "old.yaml", LIBRARY.read_roster).match
    written = dump_match(old)
    assert written.startswith(f"format: {FORMAT}\n")
    again = read_match(written, "new.yaml", LIBRARY.read_roster).match
    assert again == old
    assert play.to_data(replay(play, again)) == play.to_data(replay(play, old))


def test_a_version_2_file_carries_the_clock_and_replays_it() -> None:
    text = (ROOT / "examples" / "warstuff" / "match.yaml").read_text(encoding="utf-8")
    old = read_match(text, "old.yaml", LIBRARY.read_roster).match
    timed = replace(old, events=(event("clock-start", 1, at=T0, minutes=120, id="c1"),
                                 *old.events[:3],
                                 event("clock-switch", 2, at=T0 + 95_000, id="c2"),
                                 *old.events[3:],
                                 event("clock-pause", at=T0 + 300_000)))
    written = dump_match(timed)
    assert "- {kind: clock-start, side: 1, at: 1765000000000, minutes: 120, id: c1}" in written
    again = read_match(written, "new.yaml", LIBRARY.read_roster).match
    assert again == timed
    play = get_system("warstuff").play()
    assert play is not None
    replay(play, again)
    assert clock(again, T0 + 999_000_000).used == (95_000, 205_000)


def test_a_file_of_an_unknown_version_names_the_versions_read() -> None:
    text = (ROOT / "examples" / "warstuff" / "match.yaml").read_text(encoding="utf-8")
    with pytest.raises(Exception, match=r"write format: listbuilder-match/2 \(or "
                                        r"listbuilder-match/1"):
        read_match(text.replace("listbuilder-match/1", "listbuilder-match/3"), "x.yaml",
                   LIBRARY.read_roster)


def test_the_command_line_prints_a_files_clock(tmp_path: Path) -> None:
    """`listbuilder match` says each side's time as the file's last clock tap left it, and
    its JSON carries the clock (none when the file has no clock taps)."""
    text = (ROOT / "examples" / "warstuff" / "match.yaml").read_text(encoding="utf-8")
    old = read_match(text, "old.yaml", LIBRARY.read_roster).match
    timed = replace(old, events=(event("clock-start", 1, at=T0, minutes=120),
                                 *old.events[:3],
                                 event("clock-switch", 2, at=T0 + 95_000),
                                 *old.events[3:],
                                 event("clock-pause", at=T0 + 300_000)))
    path = tmp_path / "timed.yaml"
    path.write_text(dump_match(timed), encoding="utf-8")
    said = CliRunner().invoke(main, ["match", str(path)])
    assert said.exit_code == 0, said.output
    names = [p.name for p in timed.players]
    assert (f"clock: {names[0]} 1:35, {names[1]} 3:25 (paused); 1:55:00 of the time limit "
            "left") in said.output
    data = json.loads(CliRunner().invoke(main, ["match", str(path), "--json"]).output)
    assert data["clock"]["used_ms"] == [95_000, 205_000] and data["clock"]["paused"]
    assert data["clock"]["limit_ms"] == 120 * 60_000
    plain = tmp_path / "plain.yaml"
    plain.write_text(text, encoding="utf-8")
    untimed = CliRunner().invoke(main, ["match", str(plain), "--json"])
    assert json.loads(untimed.output)["clock"] is None
    assert "clock:" not in CliRunner().invoke(main, ["match", str(plain)]).output
