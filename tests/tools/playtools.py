"""What the tests of each game's rules of play (tests/systems/test_<game>_play.py) share:
players made from roster texts, and a log replayed or refused at its last event."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

import pytest

from listbuilder.engine.library import Library
from listbuilder.engine.match import Event, Match, MatchError, Play, Player, replay

LIBRARY = Library()
S = TypeVar("S")


def player(name: str, text: str) -> Player:
    """A player of the roster file `text`, read as the match file reader reads it."""
    loaded = LIBRARY.read_roster(text, name)
    return Player(name, loaded.roster, text, loaded.catalog)


def replayed(play: Play[S], match: Match, events: Sequence[Event]) -> S:
    """The state after `events` in place of the match's own."""
    return replay(play, Match(match.system, match.players, tuple(events), match.options))


def refused_last(play: Play[Any], match: Match, events: Sequence[Event]) -> MatchError:
    """The refusal of the last of `events`: every one before it is accepted, and the refusal
    says what to do instead."""
    replayed(play, match, events[:-1])
    with pytest.raises(MatchError) as raised:
        replayed(play, match, events)
    assert raised.value.position == len(events), raised.value
    assert raised.value.fix
    return raised.value
