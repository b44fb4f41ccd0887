"""Rounds of alternating activations, as One Page 40k and WarStuff play them: a roll-off says
which side goes first, then the sides take turns activating one unit each; a side with no
unit left to activate lets the other go on alone, and the round's activations are done when
neither side has any. The round ends when every unit has activated. ActionHammer plays whole
turns instead; it shares the roll-off.

A game's state carries `first`, `turn` and `round` and says which of a side's units have
yet to activate (`Turns`); a game's Play derives from `Alternating` and keeps its own rules
(what an activation is, what ends the round) in its handlers, calling `passed` when a unit's
activation is spent.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar, Protocol, TypeVar

from listbuilder.engine.match import Event, Play, Refused, other


class Turns(Protocol):
    """What a state of alternating activations holds."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    @property
    def first(self) -> int | None:
        """Who won the roll-off to go first."""

    @property
    def turn(self) -> int | None:
        """Whose activation is next; None before the roll-off or when all are done."""

    @property
    def round(self) -> int: ...

    @property
    def sides(self) -> tuple[Any, ...]: ...

    def waiting(self, side: int) -> list[tuple[int, str]]:
        """The units of `side` still to activate this round: (number, name)."""
        ...


T = TypeVar("T", bound=Turns)


class Alternating(Play[T]):
    """The roll-off and the turn's passing, for every game that alternates activations."""

    # how the game names the roll-off's prize, in its refusals ("won deployment")
    roll_off: ClassVar[str] = "won the roll-off"

    def _first_turn(self, state: T, ev: Event) -> T:
        """The roll-off's winner activates first; with nothing to activate, the other side."""
        if state.first is not None:
            raise Refused(f"side {state.first} already {self.roll_off} and goes first",
                          "Undo that event to change who goes first.")
        side = ev.side or 1
        return replace(state, first=side, turn=self.next_turn(state, side))

    def next_turn(self, state: T, side: int) -> int | None:
        """`side` activates next if it has a unit left to; else the other side; else none."""
        for s in (side, other(side)):
            if s <= len(state.sides) and state.waiting(s):
                return s
        return None

    def passed(self, state: T, acted: int) -> T:
        """`acted`'s activation is spent: the other side goes next while it has units to
        activate, else `acted` goes on alone; nobody when both are done."""
        return replace(state, turn=self.next_turn(state, other(acted)))

    def settle(self, state: T, ev: Event) -> T:
        """After units leave the table mid-round: the side whose turn it is may have none left
        to activate, and then the other side goes on alone, or the round's activations are
        done."""
        if state.turn is None or state.waiting(state.turn):
            return state
        return self.passed(state, state.turn)

    def all_activated(self, state: T, ev: Event | None = None) -> None:
        """The round may end only when every unit has activated (a Hold, if nothing else)."""
        waiting = [(s, n, name) for s in range(1, len(state.sides) + 1)
                   for n, name in state.waiting(s)]
        if waiting:
            s, n, name = waiting[0]
            raise Refused(f"{len(waiting)} unit(s) have not activated in round {state.round}, "
                          f"such as side {s}'s {name} (unit {n})",
                          "Activate every unit (Hold, if it does nothing) before the round "
                          "ends.")

    def rolled(self, state: T, ev: Event | None = None) -> None:
        """Nobody activates before the roll-off."""
        if state.first is None:
            raise Refused(f"nobody has won round {state.round}'s roll-off yet",
                          "Record first-turn for the side that goes first.")

    def fresh(self, state: T, ev: Event) -> None:
        """A unit activates once a round, in its side's turn."""
        side = ev.side or 1
        if ev.unit not in {n for n, _ in state.waiting(side)}:
            raise Refused(f"that unit has already activated in round {state.round}",
                          "Activate a unit that has not, or end the round.")
        self.turn_is(state, side)

    def _concede(self, state: T, ev: Event) -> T:
        """A side gives up: the game is over at once (`conceded` set on the state)."""
        return replace(state, conceded=ev.side or 1, turn=None)

    def acting(self, state: T) -> tuple[int | None, str]:
        """The roll-off, then the side whose turn it is, then the round's end."""
        if self.outcome(state).over:
            return None, ""
        if state.first is None:
            return None, "roll off: the winner activates first"
        if state.turn is None:
            return None, "every unit has activated: end the round"
        return state.turn, "activate a unit"

    def turn_is(self, state: T, side: int) -> None:
        """A side activates only in its turn."""
        if state.turn != side:
            whose = "no side's: every unit has activated" if state.turn is None \
                else f"side {state.turn}'s"
            raise Refused(f"it is {whose} turn to activate a unit",
                          "Players take turns activating one unit each"
                          + (", or end the round." if state.turn is None else "."))

