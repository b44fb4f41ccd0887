"""How the players of an event stand: match points from each game's outcome, then the
tie-breakers (docs/events.md, "Standings").

A win scores 3 match points, a draw 1, a loss 0; a bye scores as a win with no score. Ties on
match points are broken by the game's own score summed over the player's games (its VP, or
points of enemy destroyed: the first of the scores the game's `Outcome` keeps), then by
strength of schedule, the match points of the opponents the player met, summed (a bye meets
nobody). Players level on all three share a place, listed in the order they were given (an
event gives its seeded draw, so that no name is favoured)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

WIN, DRAW, LOSS = 3, 1, 0


@dataclass(frozen=True)
class Game:
    """One table of a round as the event records it: the two players and each one's score
    by the game's own count; `winner` is 1 or 2, or None for a draw. A bye is a game with no
    second player (`second` None), won by the first."""

    first: str
    second: str | None
    winner: int | None
    scores: tuple[int, int] = (0, 0)

    @property
    def bye(self) -> bool:
        return self.second is None

    def points_of(self, seat: int) -> int:
        """The match points seat 1 or 2 took."""
        if self.bye or self.winner == seat:
            return WIN
        return DRAW if self.winner is None else LOSS


@dataclass(frozen=True)
class Standing:
    """One player's line: place 1 the first; players level on every count share a place."""

    place: int
    player: str
    played: int
    wins: int
    draws: int
    losses: int
    match_points: int
    score: int  # the game's own score, summed
    schedule: int  # strength of schedule: the opponents' match points, summed

    @property
    def key(self) -> tuple[int, int, int]:
        """What ranks the line, the larger the better."""
        return self.match_points, self.score, self.schedule


def standings(players: Iterable[str], games: Iterable[Game]) -> list[Standing]:
    """Every player's line, best first; a player with no game yet stands on nothing."""
    names = list(dict.fromkeys(players))
    points: dict[str, int] = defaultdict(int)
    score: dict[str, int] = defaultdict(int)
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # wins, draws, losses
    met: dict[str, list[str]] = defaultdict(list)
    for game in games:
        for seat, (me, other) in enumerate(((game.first, game.second),
                                            (game.second, game.first)), start=1):
            if me is None:
                continue
            taken = game.points_of(seat)
            points[me] += taken
            score[me] += game.scores[seat - 1] if not game.bye else 0
            counts[me][{WIN: 0, DRAW: 1, LOSS: 2}[taken]] += 1
            if other is not None:
                met[me].append(other)
    lines = [(name, points[name], score[name], sum(points[o] for o in met[name]))
             for name in names]
    lines.sort(key=lambda line: (-line[1], -line[2], -line[3]))  # stable: level keep order
    out: list[Standing] = []
    for index, (name, mp, total, schedule) in enumerate(lines):
        place = index + 1
        if out and out[-1].key == (mp, total, schedule):
            place = out[-1].place
        wins, draws, losses = counts[name]
        out.append(Standing(place, name, wins + draws + losses, wins, draws, losses, mp, total,
                            schedule))
    return out


def ranked(table: Sequence[Standing]) -> list[str]:
    """The players in the order the next round is paired in: the standings' own."""
    return [line.player for line in table]
