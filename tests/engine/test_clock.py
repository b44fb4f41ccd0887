"""The clock at the table (engine/clock.py, issue 50 item 12): each side's time used across
switches and pauses, the match's time limit, each round's time, the taps it refuses in
words, and the times a tap is recorded at. Clock events go into every game's log without
changing the game."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from listbuilder.engine.clock import (
    AHEAD_MS,
    EARLIEST_MS,
    clock,
    duration,
    round_times,
    stamp,
)
from listbuilder.engine.library import Library
from listbuilder.engine.match import (
    Event,
    Match,
    MatchError,
    Play,
    describe,
    event,
    push,
    replay,
)
from listbuilder.engine.match_file import read_match
from listbuilder.engine.registry import get_system

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = Library()
GAMES = ("hammerwars", "op40k", "warstuff", "actionhammer", "spaceempires")
T0 = 1_765_000_000_000  # a December evening in 2025, in ms
S = 1000
MIN = 60 * S


def example(game: str) -> tuple[Play[Any], Match]:
    path = ROOT / "examples" / game / "match.yaml"
    loaded = read_match(path.read_text(encoding="utf-8"), str(path), LIBRARY.read_roster)
    play = get_system(game).play()
    assert play is not None
    return play, loaded.match


def with_events(match: Match, *events: Event) -> Match:
    return replace(match, events=events)


def refusal(play: Play[Any], match: Match) -> MatchError:
    with pytest.raises(MatchError) as raised:
        replay(play, match)
    return raised.value


@pytest.mark.parametrize("game", GAMES)
def test_clock_taps_go_into_every_games_log_and_leave_the_game_as_it_was(game: str) -> None:
    play, match = example(game)
    plain = replay(play, match)
    # the clock started before the first event, switched after each of the first ten,
    # paused and resumed once: the game's state at the end is the same
    events: list[Event] = [event("clock-start", 1, at=T0, minutes=90)]
    side = 1
    for n, ev in enumerate(match.events):
        events.append(ev)
        if n < 10:
            side = 3 - side
            events.append(event("clock-switch", side, at=T0 + (n + 1) * MIN))
    events[5:5] = [event("clock-pause", at=T0 + 2 * MIN + 10 * S),
                   event("clock-resume", at=T0 + 2 * MIN + 20 * S)]
    timed = with_events(match, *events)
    assert play.to_data(replay(play, timed)) == play.to_data(plain)
    assert play.outcome(replay(play, timed)) == play.outcome(plain)
    seen = clock(timed, T0 + 20 * MIN)
    # ten switches a minute apart, then side 1 (after an even count) runs to the 20th
    # minute; the 10 s pause counts for no one
    assert seen.running == 1
    assert seen.elapsed == 20 * MIN - 10 * S
    assert seen.left == 90 * MIN - seen.elapsed


def test_each_sides_time_adds_up_across_switches_and_pauses() -> None:
    play, match = example("hammerwars")
    timed = with_events(match,
                        event("clock-start", 2, at=T0),
                        event("clock-switch", 1, at=T0 + 3 * MIN),  # Ben: 3 min
                        event("clock-pause", at=T0 + 5 * MIN),  # Ann: 2 min
                        event("clock-resume", at=T0 + 15 * MIN),  # 10 min of tea
                        event("clock-switch", 2, at=T0 + 16 * MIN))  # Ann: 1 more
    replay(play, timed)
    now = T0 + 20 * MIN  # Ben's clock has run 4 minutes since
    seen = clock(timed, now)
    assert seen.used == (3 * MIN, 7 * MIN)
    assert (seen.running, seen.paused, seen.limit, seen.left) == (2, False, None, None)
    # a "now" behind the last tap (a phone a little slow) counts nothing backwards
    assert clock(timed, T0).used == (3 * MIN, 3 * MIN)
    paused = clock(with_events(match, *timed.events[:3]), now)
    assert (paused.running, paused.paused, paused.used) == (None, True, (2 * MIN, 3 * MIN))
    assert not clock(match, now).started


def test_the_time_limit_counts_down_while_the_clock_runs_and_goes_below_nought() -> None:
    _, match = example("warstuff")
    timed = with_events(match, event("clock-start", 1, at=T0, minutes=30),
                        event("clock-pause", at=T0 + 10 * MIN),
                        event("clock-resume", at=T0 + 40 * MIN))
    assert clock(timed, T0 + 40 * MIN).left == 20 * MIN
    assert clock(timed, T0 + 65 * MIN).left == -5 * MIN
    assert duration(-5 * MIN) == "-5:00"
    assert duration(62 * MIN + 9 * S) == "1:02:09"


def test_each_round_gets_the_time_of_the_turns_that_began_in_it() -> None:
    play, match = example("hammerwars")
    game = list(match.events)
    # the round the game is in after each event, to find where round 2 begins
    rounds = [play.to_data(replay(play, match, game[:n]))["round"] for n in range(len(game) + 1)]
    second = rounds.index(2)  # events before round 2 begins
    timed = with_events(match,
                        event("clock-start", 1, at=T0),
                        *game[:second],
                        event("clock-switch", 2, at=T0 + 7 * MIN),
                        *game[second:],
                        event("clock-pause", at=T0 + 12 * MIN))
    assert round_times(play, timed, T0 + 60 * MIN) == ((rounds[0], 7 * MIN), (2, 5 * MIN))


@pytest.mark.parametrize(("events", "said"), [
    ((event("clock-switch", 2, at=T0),), "the clock has not started"),
    ((event("clock-start", 1, at=T0), event("clock-start", 2, at=T0)),
     "the clock has started already"),
    ((event("clock-start", 1, at=T0), event("clock-switch", 1, at=T0 + S)),
     "Ann's clock is running already"),
    ((event("clock-start", 1, at=T0), event("clock-switch", 2, at=T0 - S)),
     "is before the clock's last tap"),
    ((event("clock-start", 1, at=T0), event("clock-resume", at=T0 + S)),
     "the clock is not paused"),
    ((event("clock-start", 1, at=T0), event("clock-pause", at=T0 + S),
      event("clock-pause", at=T0 + 2 * S)), "the clock is paused already"),
    ((event("clock-start", 1, at=T0), event("clock-pause", at=T0 + S),
      event("clock-switch", 2, at=T0 + 2 * S)), "the clock is paused"),
    ((event("clock-start", 1, at=EARLIEST_MS - 1),), "is not a time this clock takes"),
    ((event("clock-start", 1, at=T0 * 10),), "is not a time this clock takes"),
    ((event("clock-start", 1, at=T0, minutes=0),), "a time limit of 0 minutes"),
    ((event("clock-start", at=T0),), "'clock-start' needs a side"),
    ((event("clock-pause", 1, at=T0),), "'clock-pause' is not one side's"),
    ((event("clock-start", 1),), "'clock-start' needs 'at'"),
    ((event("clock-start", 1, at="now"),), "'at' is a whole number"),
])
def test_nonsense_on_the_clock_is_refused_in_words_with_a_fix(
        events: tuple[Event, ...], said: str) -> None:
    play, match = example("hammerwars")
    refused = refusal(play, with_events(match, *events))
    assert said in refused.message
    assert refused.position == len(events)
    assert refused.fix


def test_after_the_game_ends_the_clock_can_only_be_stopped() -> None:
    play, match = example("hammerwars")
    assert play.outcome(replay(play, match)).over
    running = with_events(match, event("clock-start", 1, at=T0), *match.events)
    state = replay(play, running)
    stopped, _ = push(play, running, state, event("clock-pause", at=T0 + MIN))
    assert clock(stopped, T0 + 9 * MIN).elapsed == MIN
    for late in (event("clock-resume", at=T0 + 2 * MIN), event("clock-switch", 2, at=T0)):
        with pytest.raises(MatchError, match="the game is over: its clock can only be"):
            push(play, stopped if late.kind == "clock-resume" else running, state, late)


def test_a_clock_tap_reads_in_the_log_without_its_raw_time() -> None:
    play, match = example("op40k")
    assert describe(match, play, event("clock-start", 1, at=T0, minutes=120)) == \
        f"{match.players[0].name} · Clock started with 120 minutes to play"
    assert describe(match, play, event("clock-pause", at=T0)) == "Clock paused"


def test_a_tap_is_recorded_at_the_phones_time_within_what_the_log_and_server_allow() -> None:
    _, match = example("hammerwars")
    timed = with_events(match, event("clock-start", 1, at=T0))
    now = T0 + 10 * MIN
    assert stamp(timed, None, now) == now
    assert stamp(timed, T0 + 4 * MIN, now) == T0 + 4 * MIN  # queued offline, sent late
    assert stamp(timed, T0 - MIN, now) == T0  # never before the last tap
    assert stamp(timed, now + 30 * S, now) == now  # a phone a little fast
    with pytest.raises(Exception, match="minutes ahead of the server's"):
        stamp(timed, now + AHEAD_MS + MIN, now)


def test_replaying_a_long_clock_folds_each_tap_once_not_once_per_later_tap(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each clock tap is checked against the taps before it; a replay carries the fold on
    instead of starting it again at every tap (2,000 taps took 15 s). Counted in taps
    folded, never in time."""
    import listbuilder.engine.clock as engine_clock

    folded: list[str] = []
    after = engine_clock._after

    def counting(state: Any, ev: Event) -> Any:
        folded.append(ev.kind)
        return after(state, ev)

    monkeypatch.setattr(engine_clock, "_after", counting)
    play, match = example("warstuff")
    taps = (event("clock-start", 1, at=T0),
            *(event("clock-switch", 1 + n % 2, at=T0 + n * S) for n in range(1, 2000)))
    long = with_events(match, *taps)
    state = replay(play, long)
    assert len(folded) <= len(taps)
    folded.clear()
    # and a tap pushed after the replay folds the last tap before it, not the whole log
    push(play, long, state, event("clock-pause", at=T0 + 2000 * S))
    assert folded == ["clock-switch"]
