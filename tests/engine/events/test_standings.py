"""Standings (listbuilder/engine/events/standings.py), checked against a table worked out by
hand: 3 match points a win, 1 a draw, a bye a win with no score; then the game's own score;
then strength of schedule (opponents' match points, summed); level players share a place."""

from __future__ import annotations

from listbuilder.engine.events.standings import Game, standings


def test_three_rounds_of_five_players_stand_as_worked_out_by_hand() -> None:
    games = [
        # round 1: Ann beats Ben 8-3, Cat and Dan draw 5-5, Eve has the bye
        Game("Ann", "Ben", 1, (8, 3)), Game("Cat", "Dan", None, (5, 5)), Game("Eve", None, 1),
        # round 2: Eve beats Ann 6-4, Ben beats Cat 7-2, Dan has the bye
        Game("Eve", "Ann", 1, (6, 4)), Game("Ben", "Cat", 1, (7, 2)), Game("Dan", None, 1),
        # round 3: Dan beats Eve 9-1, Ann beats Cat 3-0, Ben has the bye
        Game("Dan", "Eve", 1, (9, 1)), Game("Ann", "Cat", 1, (3, 0)), Game("Ben", None, 1),
    ]
    # Match points: Ann 6, Ben 6, Cat 1, Dan 7, Eve 6.
    # Scores: Ann 8+4+3=15, Ben 3+7=10, Cat 5+2+0=7, Dan 5+9=14, Eve 6+1=7.
    # Schedules: Ann met Ben, Eve, Cat: 6+6+1=13; Ben met Ann, Cat: 7; Cat met Dan, Ben, Ann:
    # 7+6+6=19; Dan met Cat, Eve: 7; Eve met Ann, Dan: 13.
    lines = [(s.place, s.player, s.played, s.wins, s.draws, s.losses, s.match_points, s.score,
              s.schedule) for s in standings(["Ann", "Ben", "Cat", "Dan", "Eve"], games)]
    assert lines == [
        (1, "Dan", 3, 2, 1, 0, 7, 14, 7),
        (2, "Ann", 3, 2, 0, 1, 6, 15, 13),
        (3, "Ben", 3, 2, 0, 1, 6, 10, 7),
        (4, "Eve", 3, 2, 0, 1, 6, 7, 13),
        (5, "Cat", 3, 0, 1, 2, 1, 7, 19),
    ]


def test_players_level_on_everything_share_a_place_in_the_order_given() -> None:
    games = [Game("Cat", "Ann", 1, (5, 0)), Game("Dan", "Ben", 1, (5, 0))]
    table = standings(["Dan", "Cat", "Ben", "Ann", "Zoe"], games)
    assert [(s.place, s.player) for s in table] == [(1, "Dan"), (1, "Cat"), (3, "Ben"),
                                                    (3, "Ann"), (5, "Zoe")]
    assert table[-1].played == 0 and table[-1].match_points == 0


def test_a_bye_scores_a_win_without_a_score_or_an_opponent() -> None:
    (line,) = standings(["Ann"], [Game("Ann", None, 1, (9, 9))])
    assert (line.wins, line.match_points, line.score, line.schedule) == (1, 3, 0, 0)
