"""Every game's rules of play (`RuleSystem.play()`, its play.py) as the match tracker uses
them: the example match of each game replays on the command line, any log played by the
rules replays at every prefix, undo then redo gives the same state, and a match file reads
back as the match it was written from (issue 40, items 2 and 6)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from listbuilder.commands.cli import main
from listbuilder.engine.library import Library
from listbuilder.engine.match import Match, MatchError, Play, event, push, replay, undo
from listbuilder.engine.match_file import dump_match, read_match
from listbuilder.engine.registry import all_systems, get_system

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = Library()
# every game with rules of play (`RuleSystem.play()`), the plugin kit's outside game aside
GAMES = tuple(s.id for s in all_systems() if s.play() is not None)
CONCEDE_ONCE_IN = 40  # a random game concedes at one step in this many


def test_every_built_in_game_has_rules_of_play() -> None:
    assert sorted(GAMES) == sorted(("hammerwars", "op40k", "warstuff", "actionhammer",
                                    "spaceempires"))


def example(system_id: str) -> tuple[Play[Any], Match, tuple[int | None, ...]]:
    path = ROOT / "examples" / system_id / "match.yaml"
    loaded = read_match(path.read_text(encoding="utf-8"), str(path), LIBRARY.read_roster)
    play = get_system(system_id).play()
    assert play is not None, f"{system_id} has no rules of play"
    return play, loaded.match, loaded.lines


@pytest.mark.parametrize("system_id", GAMES)
def test_the_example_match_replays_on_the_command_line(system_id: str) -> None:
    play, match, _ = example(system_id)
    state = replay(play, match)
    path = ROOT / "examples" / system_id / "match.yaml"
    done = CliRunner().invoke(main, ["match", str(path), "--json"])
    assert done.exit_code == 0, done.output
    shown = json.loads(done.output)
    assert shown["state"] == json.loads(json.dumps(play.to_data(state)))
    assert shown["events"] == len(match.events) > 0
    words = CliRunner().invoke(main, ["match", str(path)])
    assert words.exit_code == 0, words.output
    for player in match.players:
        assert player.name in words.output


@pytest.mark.parametrize("system_id", GAMES)
def test_an_event_the_rules_refuse_is_named_with_its_line_and_fix(system_id: str,
                                                                  tmp_path: Path) -> None:
    play, match, _ = example(system_id)
    bad = Match(match.system, match.players, (*match.events, event("no-such-thing")),
                match.options)
    path = tmp_path / "match.yaml"
    path.write_text(dump_match(bad), encoding="utf-8")
    done = CliRunner().invoke(main, ["match", str(path)])
    assert done.exit_code == 1
    last_line = len(path.read_text(encoding="utf-8").splitlines())
    assert f"{path}:{last_line}: event {len(bad.events)} (no-such-thing)" in done.output
    assert "Use one of:" in done.output
    with pytest.raises(MatchError) as raised:
        replay(play, bad)
    assert raised.value.position == len(bad.events)


def _played(play: Play[Any], start: Match, data: st.DataObject, longest: int) -> Match:
    """A log played by the rules: each event drawn from those the state offers. A concession
    is drawn one time in CONCEDE_ONCE_IN only, so that random games go on long enough to end
    by the rules too."""
    match, state = start, play.start(start)
    for _ in range(data.draw(st.integers(0, longest), label="length")):
        offered = play.offers(state)
        if not offered or play.outcome(state).over:
            break
        moves = [ev for ev in offered if ev.kind != "concede"]
        if not moves or data.draw(st.integers(1, CONCEDE_ONCE_IN), label="concede?") == 1:
            moves = offered
        match, state = push(play, match, state, data.draw(st.sampled_from(moves)))
    return match


@pytest.mark.parametrize("system_id", GAMES)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_log_played_by_the_rules_replays_at_every_prefix(system_id: str,
                                                              data: st.DataObject) -> None:
    play, example_match, _ = example(system_id)
    start = Match(example_match.system, example_match.players, (), example_match.options)
    match = _played(play, start, data, 80)
    for n in range(len(match.events) + 1):
        replay(play, match, match.events[:n])  # never refused
    final = play.to_data(replay(play, match))
    if match.events:  # undo, then the same event again: the same state
        back = undo(match)
        again, state = push(play, back, replay(play, back), match.events[-1])
        assert again == match
        assert play.to_data(state) == final
    # the file it exports reads back as the same match, and replays to the same state
    loaded = read_match(dump_match(match), "match.yaml", LIBRARY.read_roster)
    assert loaded.match == match
    assert play.to_data(replay(play, loaded.match)) == final
    for side in range(1, len(match.players) + 1):
        for unit in play.units(replay(play, match), side):
            assert {"unit", "name", "alive"} <= set(unit)


@pytest.mark.parametrize("system_id", GAMES)
def test_an_event_sent_twice_is_kept_once(system_id: str) -> None:
    play, match, _ = example(system_id)
    start = Match(match.system, match.players, (), match.options)
    state = play.start(start)
    first = play.offers(state)[0]
    tapped = event(first.kind, first.side, first.unit, id="tap-1", **dict(first.values))
    once, after = push(play, start, state, tapped)
    twice, again = push(play, once, after, tapped)
    assert twice == once and play.to_data(again) == play.to_data(after)
    assert play.to_data(replay(play, Match(start.system, start.players, (tapped, tapped),
                                           start.options))) == play.to_data(after)


def test_an_option_the_game_refuses_points_at_the_options_line(tmp_path: Path) -> None:
    """ActionHammer plays 3 to 5 objectives: 9 is refused before the first event, and the
    command line names the line of the options, not an event's."""
    _, match, _ = example("actionhammer")
    path = tmp_path / "match.yaml"
    path.write_text(dump_match(Match(match.system, match.players, match.events,
                                     (("objectives", 9),))), encoding="utf-8")
    line = next(n for n, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                if text.startswith("options:"))
    done = CliRunner().invoke(main, ["match", str(path)])
    assert done.exit_code == 1
    assert f"{path}:{line}: the match: " in done.output
    assert "objectives" in done.output
