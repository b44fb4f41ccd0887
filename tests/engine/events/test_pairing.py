"""Swiss pairing (listbuilder/engine/events/pairing.py): the top player meets the best-placed
one left they have not met, no game is played twice, the bye goes to the lowest-placed player
without one, and a round no pairing can make without a rematch is refused in words."""

from __future__ import annotations

import random
from collections import defaultdict

import pytest

from listbuilder.engine.events.pairing import PairingError, pair_round
from listbuilder.engine.events.standings import Game, ranked, standings


def test_a_first_round_pairs_neighbours_in_the_order_given() -> None:
    pairing = pair_round(["Ann", "Ben", "Cat", "Dan"], {})
    assert pairing.tables == (("Ann", "Ben"), ("Cat", "Dan")) and pairing.bye is None


def test_a_rematch_is_stepped_around_by_the_next_best_opponent() -> None:
    met = {"Ann": {"Ben"}, "Ben": {"Ann"}}
    assert pair_round(["Ann", "Ben", "Cat", "Dan"], met).tables == (("Ann", "Cat"),
                                                                    ("Ben", "Dan"))


def test_the_search_steps_back_when_the_greedy_choice_strands_the_players_below() -> None:
    """Ann may meet Ben, but then Cat and Dan, who met, are left: Ann takes Cat instead."""
    met = {"Cat": {"Dan"}, "Dan": {"Cat"}}
    assert pair_round(["Ann", "Ben", "Cat", "Dan"], met).tables == (("Ann", "Cat"),
                                                                    ("Ben", "Dan"))


def test_a_game_known_to_one_side_only_still_counts_as_played() -> None:
    assert pair_round(["Ann", "Ben", "Cat", "Dan"], {"Ben": {"Ann"}}).tables[0] == ("Ann", "Cat")


def test_the_bye_goes_to_the_lowest_placed_player_who_has_not_had_one() -> None:
    players = ["Ann", "Ben", "Cat", "Dan", "Eve"]
    assert pair_round(players, {}).bye == "Eve"
    assert pair_round(players, {}, had_bye={"Eve"}).bye == "Dan"
    pairing = pair_round(players, {}, had_bye={"Eve", "Dan"})
    assert pairing.bye == "Cat" and pairing.tables == (("Ann", "Ben"), ("Dan", "Eve"))


def test_the_bye_moves_up_when_its_player_leaves_the_rest_unpairable() -> None:
    """Eve has no bye yet, but without her Dan has met everyone left: the bye goes to Dan."""
    met = {"Dan": {"Ann", "Ben", "Cat"}, "Ann": {"Dan"}, "Ben": {"Dan"}, "Cat": {"Dan"}}
    pairing = pair_round(["Ann", "Ben", "Cat", "Dan", "Eve"], met)
    assert pairing.bye == "Dan"
    assert sorted(pairing.tables) == [("Ann", "Ben"), ("Cat", "Eve")]


def test_a_round_with_no_pairing_free_of_rematches_is_refused_in_words() -> None:
    players = ["Ann", "Ben", "Cat", "Dan"]
    everyone = {p: set(players) - {p} for p in players}
    with pytest.raises(PairingError, match="repeats a game already played; pair this round by "
                                           "hand or end the event"):
        pair_round(players, everyone)
    with pytest.raises(PairingError, match="at least two players"):
        pair_round(["Ann"], {})
    with pytest.raises(PairingError, match="every player present has had a bye"):
        pair_round(["Ann", "Ben", "Cat"], {}, had_bye={"Ann", "Ben", "Cat"})


@pytest.mark.parametrize("players, rounds", [(8, 3), (9, 4), (31, 5), (256, 8)])
def test_rounds_of_an_event_never_repeat_a_game_and_give_byes_once(players: int,
                                                                    rounds: int) -> None:
    """Whole events played with random results: every round pairs every player present
    once, no two players meet twice, and nobody has a second bye."""
    rng = random.Random(players * 100 + rounds)
    names = [f"P{n:03}" for n in range(players)]
    met: dict[str, set[str]] = defaultdict(set)
    byes: set[str] = set()
    games: list[Game] = []
    order = rng.sample(names, len(names))
    for _ in range(rounds):
        pairing = pair_round(order, met, byes)
        seated = [p for table in pairing.tables for p in table]
        assert sorted(seated + ([pairing.bye] if pairing.bye else [])) == sorted(names)
        for a, b in pairing.tables:
            assert b not in met[a]
            met[a].add(b)
            met[b].add(a)
            games.append(Game(a, b, rng.choice([1, 2, None]), (rng.randint(0, 9),
                                                                rng.randint(0, 9))))
        if pairing.bye:
            assert pairing.bye not in byes
            byes.add(pairing.bye)
            games.append(Game(pairing.bye, None, 1))
        order = ranked(standings(names, games))
