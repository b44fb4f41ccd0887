"""`resume`: a log's state from the state kept for its first part (issue 50, what lets the
tracker answer a tap without replaying the whole log). From any prefix of any game's example
it reaches `replay`'s state, refuses an event at its place in the whole log, and skips a tap
sent again across the prefix's end as `replay` does."""

from __future__ import annotations

import pytest
from test_match_play import GAMES, example

from listbuilder.engine.match import Match, MatchError, event, replay, resume


@pytest.mark.parametrize("system_id", GAMES)
def test_resuming_from_any_prefix_reaches_the_replayed_state(system_id: str) -> None:
    play, match, _ = example(system_id)
    final = play.to_data(replay(play, match))
    for done in range(0, len(match.events) + 1, 7):
        kept = replay(play, match, match.events[:done])
        assert play.to_data(resume(play, match, kept, done)) == final


def test_an_event_refused_after_the_prefix_is_named_at_its_place_in_the_whole_log() -> None:
    play, match, _ = example("warstuff")
    bad = Match(match.system, match.players, (*match.events, event("no-such-thing")),
                match.options)
    done = len(match.events) - 3
    with pytest.raises(MatchError) as raised:
        resume(play, bad, replay(play, bad, bad.events[:done]), done)
    assert raised.value.position == len(bad.events)


def test_a_tap_sent_again_after_the_prefix_is_skipped_as_replay_skips_it() -> None:
    play, match, _ = example("warstuff")
    start = Match(match.system, match.players, (), match.options)
    first = play.offers(play.start(start))[0]
    tapped = event(first.kind, first.side, first.unit, id="tap-1", **dict(first.values))
    twice = Match(start.system, start.players, (tapped, tapped), start.options)
    kept = replay(play, twice, twice.events[:1])
    assert play.to_data(resume(play, twice, kept, 1)) == play.to_data(replay(play, twice))
