"""`Play.offers`, the tracker's buttons: at every point of each game's example log
(examples/<game>/match.yaml) the example's next event is offered, and every offer is one the
rules accept."""

from __future__ import annotations

from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from listbuilder.engine.library import Library
from listbuilder.engine.match import Event, Match, Play, Refused, check_shape
from listbuilder.engine.match_file import read_match
from listbuilder.engine.registry import all_systems, get_system
from listbuilder.engine.word_counts import counted_value, counts

ROOT = Path(__file__).resolve().parents[2]
# every game with a tracker, a sixth one too (each has its example: test_match_play checks)
GAMES = tuple(s.id for s in all_systems() if s.play() is not None)


@cache
def example(game: str) -> Match:
    text = (ROOT / "examples" / game / "match.yaml").read_text(encoding="utf-8")
    return read_match(text, f"examples/{game}/match.yaml", Library().read_roster).match


def rules(game: str) -> Play[Any]:
    play = get_system(game).play()
    assert play is not None
    return play


def prefixes(game: str) -> list[tuple[int, Any, Event]]:
    """Each point of the example's log: how many events are played, the state, the next."""
    match, play = example(game), rules(game)
    state = play.start(match)
    out = []
    for i, ev in enumerate(match.events):
        out.append((i, state, ev))
        state = play.apply(state, ev)
    return out


def unoffered(play: Play[Any], state: Any, offers: list[Event], ev: Event) -> str:
    """Why `ev` is not among `offers`, or "" when it is: an offer of its kind, side and unit,
    and each of its values one the offers give for that name, a whole number between the
    least and the most they give, or a list of picks within theirs (`within`). A value the
    offers give and `ev` leaves out is optional: the rules fill it in; one `ev` gives and no
    offer names is fine when leaving it out changes nothing (a HammerWars hit on the second
    of two models with the same lives)."""
    group = [o for o in offers if (o.kind, o.side, o.unit) == (ev.kind, ev.side, ev.unit)]
    if not group:
        return "no offer of its kind, side and unit"
    for name, value in ev.values:
        seen = [dict(o.values)[name] for o in group if name in dict(o.values)]
        if value in seen:
            continue
        listed = counted_value(play, ev.kind)
        if listed is not None and listed.value == name and isinstance(value, str) \
                and within(counts(value), [counts(str(v)) for v in seen]):
            continue
        if not seen and name in play.kinds[ev.kind].optional:
            without = Event(ev.kind, ev.side, ev.unit,
                            tuple((n, v) for n, v in ev.values if n != name))
            try:
                same = play.apply(state, without) == play.apply(state, ev)
            except Refused:
                same = False
            if same:
                continue
        ints = [v for v in seen if isinstance(v, int) and not isinstance(v, bool)]
        if isinstance(value, int) and not isinstance(value, bool) and ints \
                and min(ints) <= value <= max(ints):
            continue
        return f"{name} {value!r} is not offered (offered: {seen})"
    return ""


def within(picked: Counter[str], offered: list[Counter[str]]) -> bool:
    """A list of picks (engine/word_counts.py) the tracker's picker allows: no word more often
    than an offer has it, and no more words than the longest offer."""
    return sum(picked.values()) <= max((sum(o.values()) for o in offered), default=0) and \
        all(n <= max((o[word] for o in offered), default=0) for word, n in picked.items())


@pytest.mark.parametrize("game", GAMES)
def test_the_examples_every_next_event_is_offered(game: str) -> None:
    play = rules(game)
    missed = [f"event {i + 1} {ev.to_data()}: {why}"
              for i, state, ev in prefixes(game)
              if (why := unoffered(play, state, play.offers(state), ev))]
    assert not missed, f"examples/{game}/match.yaml: " + "; ".join(missed[:5])


@pytest.mark.parametrize("game", GAMES)
def test_every_offer_is_accepted(game: str) -> None:
    match, play = example(game), rules(game)
    refused = []
    for i, state, _ in prefixes(game):
        offers = play.offers(state)
        assert offers, f"nothing offered after event {i} of examples/{game}/match.yaml"
        for ev in offers:
            try:
                check_shape(play, match, ev)
                play.apply(state, ev)
            except Refused as exc:
                refused.append(f"after event {i}: {ev.to_data()}: {exc.message}")
    assert not refused, "; ".join(refused[:5])
