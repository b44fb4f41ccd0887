"""`Play.acting`: the line under the tracker's score, whose move it is and what the rules
expect next (issue 50, item 2; One Page 40k, WarStuff and ActionHammer said only "round 1 of
4"). Walked through each example's log: while the game is on it always says something, and
the side it names is one the rules offer a move to now (not only a wound or a concession)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from test_match_play import example

from listbuilder.engine.match import Match, Play, replay

ALTERNATING = ["op40k", "warstuff", "actionhammer"]
NAMED = [*ALTERNATING, "hammerwars"]
NOT_A_MOVE = ("concede", "wound", "stun", "kill", "shot", "remove", "heal", "assault")


def states(play: Play[Any], match: Match) -> Iterator[tuple[int, Any]]:
    """The state after each first part of the match's log, the empty one first."""
    for done in range(len(match.events) + 1):
        yield done, replay(play, Match(match.system, match.players, match.events[:done],
                                       match.options))


def lines(play: Play[Any], match: Match) -> Iterator[tuple[int, Any, int | None, str]]:
    """Each first part's state while the game is on, with what `acting` says of it: nothing
    once the game is over, always something before."""
    for done, state in states(play, match):
        side, words = play.acting(state)
        if play.outcome(state).over:
            assert (side, words) == (None, ""), done
            continue
        assert words, done
        yield done, state, side, words


@pytest.mark.parametrize("system_id", NAMED)
def test_the_side_named_is_the_one_the_rules_let_move(system_id: str) -> None:
    play, match, _ = example(system_id)
    said: set[str] = set()
    for done, state, side, words in lines(play, match):
        said.add(words)
        if side is not None:
            moves = {ev.side for ev in play.offers(state) if ev.kind not in NOT_A_MOVE}
            assert side in moves, (done, words, moves)
    # the roll-off and each side's moves came up
    assert any("roll off" in w for w in said), said
    assert any(w.startswith(("activate", "deploy")) for w in said), said
    if system_id in ALTERNATING:
        assert any(w.startswith("every unit has activated") for w in said), said


def test_hammer_wars_says_the_deployment_budget_left() -> None:
    """Hammer Wars keeps each side's pts and xp to spend in its deployment phase (6 pts and
    1 xp a phase, pts lost at its end, xp kept); the line under the score says what is left."""
    play, match, _ = example("hammerwars")
    budgets = []
    for _done, state in states(play, match):
        _, words = play.acting(state)
        if words.startswith("deploy"):
            data = play.to_data(state)
            side = data["sides"][data["turn"] - 1]
            assert f"{side['pts']} pts + {side['xp']} xp left" in words, (words, side)
            budgets.append(words)
    assert any(w.startswith("deploy from the pool, 6 pts + 1 xp left") for w in budgets)
    assert len(set(budgets)) > 1, budgets  # it goes down as models are deployed


def test_space_empires_says_what_the_phase_asks_for() -> None:
    """Both empires play each phase; the line says what must happen before the next phase
    (cards to draw, a hand to fill after a battle, units over the upkeep), and names the
    empire it falls to."""
    play, match, _ = example("spaceempires")
    said: set[str] = set()
    for _done, state, side, words in lines(play, match):
        said.add(words)
        if words.startswith("draw"):
            assert side is not None and any(ev.kind == "draw-cards" and ev.side == side
                                            for ev in play.offers(state)), words
    assert any(w.startswith("draw 5 more cards") for w in said), said
    assert any("go to the Move Phase" in w for w in said), said
