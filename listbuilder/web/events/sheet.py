"""An event laid out for its pages and its JSON: names for list ids, rounds of tables with
their results in words, standings lines. Pure (no Flask): the views hand in what the store
read."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from listbuilder.engine.events.standings import Standing
from listbuilder.store.events import StoredEvent, StoredGame, StoredList


@dataclass(frozen=True)
class Seat:
    list_id: int
    player: str
    code: str


@dataclass(frozen=True)
class TableLine:
    game: StoredGame
    first: Seat
    second: Seat | None  # None: a bye

    @property
    def result(self) -> str:
        """The result in words: '' while it is awaited."""
        game = self.game
        if self.second is None:
            return "Bye: a win"
        if game.reported is None:
            return ""
        score = f" {game.scores[0]}–{game.scores[1]}"
        if game.winner is None:
            return "Draw" + score
        won = self.first if game.winner == 1 else self.second
        return f"{won.player} won" + score


@dataclass(frozen=True)
class Round:
    number: int
    tables: tuple[TableLine, ...]

    @property
    def waiting(self) -> tuple[TableLine, ...]:
        return tuple(t for t in self.tables if t.game.reported is None)


@dataclass(frozen=True)
class Line:
    standing: Standing
    seat: Seat


def seats(lists: Sequence[StoredList]) -> dict[int, Seat]:
    return {li.id: Seat(li.id, li.player, li.code) for li in lists}


def rounds(games: Sequence[StoredGame], by_id: dict[int, Seat]) -> list[Round]:
    """Round by round, table by table; a bye last."""
    out: dict[int, list[TableLine]] = {}
    for game in games:
        second = by_id[game.second] if game.second is not None else None
        out.setdefault(game.round, []).append(TableLine(game, by_id[game.first], second))
    return [Round(number, tuple(tables)) for number, tables in sorted(out.items())]


def lines(standings: Sequence[Standing], by_id: dict[int, Seat]) -> list[Line]:
    return [Line(s, by_id[int(s.player)]) for s in standings]


def final(event: StoredEvent, paired: list[Round]) -> bool:
    """Every round of a tournament played and reported."""
    return (event.rounds is not None and len(paired) >= event.rounds
            and not paired[-1].waiting)


def standings_json(event: StoredEvent, paired: list[Round],
                   standing: Sequence[Line]) -> dict[str, Any]:
    """The standings as /e/<token>/standings.json gives them (docs/events.md)."""
    return {
        "event": event.name,
        "game": event.system,
        "rounds": event.rounds,
        "league": event.league,
        "round": len(paired),
        "final": final(event, paired),
        "standings": [
            {"place": line.standing.place, "player": line.seat.player, "code": line.seat.code,
             "played": line.standing.played, "wins": line.standing.wins,
             "draws": line.standing.draws, "losses": line.standing.losses,
             "match_points": line.standing.match_points, "score": line.standing.score,
             "schedule": line.standing.schedule}
            for line in standing],
    }
