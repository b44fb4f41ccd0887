"""A match: the players' rosters and the events of the game; its state is the events replayed.

The shape is python-chess's board and move stack. A game's rules of play (`Play`, in each
game's `play.py`, handed out by `RuleSystem.play()`) say what state a match starts in, what
each event does to it, which events may come next and when the game is over and who won: pure
functions of the log, no web and no storage. Undo is the log without its last event; a log
exported as YAML (`engine/match_file.py`) replays to the same state anywhere.

Sides are numbered as players say them, 1 and 2; a unit is its entry's number in its side's
roster, from 1 (the roster page's order). An event a rule forbids is refused with the event,
its place in the log and what to do instead (`MatchError`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from listbuilder.engine.model import Catalog, Roster
from listbuilder.engine.word_counts import WordCounts

S = TypeVar("S")
C = TypeVar("C", bound=Catalog)
T = TypeVar("T")

# what an event's extra values may be: whole numbers, words, yes/no
Value = int | str | bool
SIDES = (1, 2)
# the value by which an event names the unit that acted on the unit it names (an attacker:
# a unit of the other side), which the log and the buttons call by its name
BY = "by"
MAX_EVENTS = 5_000  # a long game of any of the five is a few hundred


@dataclass(frozen=True)
class Event:
    """One thing that happened at the table. `side` None: the game's own (a round ends);
    `unit` None: the side's, not one unit's (a goal declared). `values` holds the rest (how
    many wounds, which objective), by name; `id` is the phone's own id for it, so that an
    event sent twice over a bad connection is kept once."""

    kind: str
    side: int | None = None
    unit: int | None = None
    values: tuple[tuple[str, Value], ...] = ()
    id: str = ""

    def get(self, name: str, default: Any = None) -> Any:
        return dict(self.values).get(name, default)

    def to_data(self) -> dict[str, Any]:
        """The event as the match file writes it: its kind first, then who, then the rest."""
        out: dict[str, Any] = {"kind": self.kind}
        if self.side is not None:
            out["side"] = self.side
        if self.unit is not None:
            out["unit"] = self.unit
        out.update(self.values)
        if self.id:
            out["id"] = self.id
        return out


def event(kind: str, side: int | None = None, unit: int | None = None, id: str = "",
          **values: Value) -> Event:
    """An Event with its values given by name, in a stable order."""
    return Event(kind, side, unit, tuple(sorted(values.items())), id)


@dataclass(frozen=True)
class Player:
    """A side: who plays it, their roster, and the catalog it reads in (the game's, with the
    roster's own faction packs built in), which the rules of play look its units up in."""

    name: str
    roster: Roster
    text: str  # the roster's file, as the match file carries it
    catalog: Catalog = field(compare=False, repr=False)


@dataclass(frozen=True)
class Match:
    """Who plays what, the game's options (how many objectives…) and the events so far.
    One player: a solo game (practice, or the other side kept on paper)."""

    system: str
    players: tuple[Player, ...]
    events: tuple[Event, ...] = ()
    options: tuple[tuple[str, Value], ...] = ()

    def option(self, name: str, default: Any = None) -> Any:
        return dict(self.options).get(name, default)


@dataclass(frozen=True)
class Kind:
    """An event kind a game knows: the words on its button, whether it names a side and a
    unit, and the values it takes (name -> int, str or bool)."""

    label: str
    side: bool = True
    unit: bool = True
    values: Mapping[str, type] = field(default_factory=dict)
    optional: tuple[str, ...] = ()  # values that may be left out
    # How a value reads after the label, on a button and in the log, as the rules would say
    # it: for yes/no, the words for each ("by a Death Blow", "": nothing said); for words,
    # each one's ("space" -> "in space"); else a format ("{} models"). A value without words
    # reads "name value" after a colon.
    words: Mapping[str, tuple[str, str] | Mapping[str, str] | str] = field(
        default_factory=dict)
    asks: Mapping[str, str] = field(default_factory=dict)  # words beside a value's box
    # a word value that lists several picks ("Recon, Recon, Barrage": a hand drawn in one
    # event), drawn as a number box a word and one button (engine/word_counts.py)
    counts: WordCounts | None = None
    # How `Play.apply` applies it: the checks its rules make first, then its handler, each a
    # method of the game's Play taking (state, event), by name; "" names the handler after
    # the kind ("round-end" -> "_round_end"). `live`: the unit it names must be on the table
    # (`Play.absent`), checked before anything else.
    handler: str = ""
    checks: tuple[str, ...] = ()
    live: bool = True

    def method(self, kind: str) -> str:
        return self.handler or "_" + kind.replace("-", "_")


@dataclass(frozen=True)
class Setting:
    """A match option a game offers when a match starts (how many objectives): a whole
    number from `low` to `high`."""

    name: str
    label: str
    low: int
    high: int
    default: int
    help: str = ""


@dataclass(frozen=True)
class Outcome:
    """Whether the game is over and who won, by the game's own rule, and each side's score
    as the game counts it (VP, points of enemy killed, morale left…)."""

    over: bool
    winner: int | None = None  # None: not over, or a draw
    reason: str = ""  # "Ben's morale fell to 0", "after round 4: 9 VP to 6"
    scores: tuple[tuple[str, tuple[int, ...]], ...] = ()  # label -> a value per side


class Shared(Protocol):
    """Event kinds every game accepts beside its own, which no game's rules apply (the
    clock's: engine/clock.py): their own module checks them against the log."""

    kinds: Mapping[str, Kind]

    def check(self, match: Match, ev: Event, position: int, over: bool) -> None:
        """Refused when `ev` at `position` makes no sense after the log before it; `over`:
        the game has ended by its rules."""


# Filled by the modules that define shared kinds, as the engine package loads them
# (engine/__init__.py): this module imports none of them back.
SHARED: list[Shared] = []


class Refused(Exception):
    """A rule the event breaks, in a player's words, and what would be allowed instead."""

    def __init__(self, message: str, fix: str) -> None:
        super().__init__(message)
        self.message = message
        self.fix = fix


def not_in_catalog(name: str) -> Refused:
    """An entry whose unit the catalog doesn't know: it never takes the table."""
    return Refused(f"{name} names no unit in the catalog, so it is not on the table",
                   "Fix the roster, or leave this entry out of the game.")


def gone(name: str, how: str) -> Refused:
    """A unit that has left the table: `how` says how ("destroyed", "dead", "fled off the
    table")."""
    return Refused(f"{name} is {how}", "Pick a unit still on the table.")


class MatchError(Exception):
    """An event refused while replaying a log: which one, where, why, and the fix."""

    def __init__(self, position: int, event: Event | None, message: str, fix: str) -> None:
        self.position = position  # 1-based place in the log; 0: the match itself
        self.event = event
        self.message = message
        self.fix = fix
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"event {self.position} ({self.event.kind})" if self.event else "the match"
        return f"{where}: {self.message}. {self.fix}"


@dataclass(frozen=True)
class Track:
    """A count a player reads across the table: models left of the unit's size ("7/10"), a
    count alone (`of` 0: "2 killed"), or, with `boxes`, one box for each of `of` (its wounds
    or lives) and `value` of them ticked."""

    label: str  # "models", "wounds taken", "lives left"
    value: int
    of: int = 0
    boxes: bool = False


@dataclass(frozen=True)
class Standing:
    """A unit's row at a glance (`Play.standing`): its tracks drawn large, its state as chips
    (activated, fleeing, stunned, a stance, hold only, damage), and the rest in small words
    (points, category) for the fold."""

    tracks: tuple[Track, ...] = ()
    chips: tuple[str, ...] = ()
    details: str = ""

    def words(self) -> str:
        """The row as one line of text (the command line's): "models 7/10; fleeing; 120 pts"."""
        tracks = [f"{t.label} {t.value}/{t.of}" if t.of else f"{t.label} {t.value}"
                  for t in self.tracks]
        return "; ".join(part for part in (*tracks, *self.chips, self.details) if part)


class Play(Generic[S]):
    """A game's rules of play, built with its system (`RuleSystem.play()`) as its `Cards` and
    `Builder` are. A subclass in the game's play.py sets `kinds` and writes `start`, `apply`,
    `offers`, `outcome` and `to_data`; states are immutable (a dataclass changed with
    `dataclasses.replace`), so that every prefix of a log has its own."""

    def __init__(self, system: Any) -> None:
        # the game's RuleSystem, which hands plays out (engine/system.py imports this module);
        # a game's subclass names its type: `system: RuleSystem[MyCatalog, MyUnit]`
        self.system = system

    kinds: ClassVar[Mapping[str, Kind]] = {}
    rounds: ClassVar[int | None] = None  # how many rounds a game lasts, when the rules say
    settings: ClassVar[tuple[Setting, ...]] = ()  # the options a new match may set

    def start(self, match: Match) -> S:
        """The state before the first event, from the players' rosters and the options."""
        raise NotImplementedError

    def apply(self, state: S, event: Event) -> S:
        """The state after `event`; `Refused` when the rules forbid it now. `event` is
        already checked against its `Kind` (known kind, side and unit in range). The same for
        every game: a unit not on the table is refused (`absent`), then the kind's checks
        run and its handler applies it (`Kind`), and the state is settled (`settle`)."""
        kind = self.kinds[event.kind]
        if kind.unit and kind.live and event.side is not None and event.unit is not None:
            refusal = self.absent(state, event.side, event.unit)
            if refusal is not None:
                raise refusal
        for check in kind.checks:
            getattr(self, check)(state, event)
        return self.settle(getattr(self, kind.method(event.kind))(state, event), event)

    def absent(self, state: S, side: int, unit: int) -> Refused | None:
        """Why a unit can't be acted on, as `not_in_catalog` or `gone` words it; None while
        it is on the table. The default: every unit always is."""
        return None

    def settle(self, state: S, event: Event) -> S:
        """The state after any event, `event`, set right where an event may leave it
        unfinished (a side left with nothing to activate passes its turn). The default: as
        it is."""
        return state

    def offers(self, state: S) -> list[Event]:
        """Every event the rules allow now, as the tracker's buttons and what the property
        tests play at random: each kind that may happen to each unit, each word value it may
        take, and for a number its least and its most (two events; the button's box takes
        any between). Every one of them must be accepted by `apply`."""
        raise NotImplementedError

    def outcome(self, state: S) -> Outcome:
        raise NotImplementedError

    def to_data(self, state: S) -> dict[str, Any]:
        """The state as plain data (JSON): what `listbuilder match --json` prints and the
        tracker's pages show."""
        raise NotImplementedError

    def units(self, state: S, side: int) -> Sequence[Mapping[str, Any]]:
        """A side's units as the tracker lists them: at least `unit` (its number), `name`
        and `alive`; the rest is the game's own."""
        raise NotImplementedError

    def acting(self, state: S) -> tuple[int | None, str]:
        """Whose move it is (a side, or None: either side, or the game) and what the rules
        expect next, in a few words ("activate a unit, or end the round"): the line under the
        tracker's score. The default: nothing said; the score's headline stands alone."""
        return None, ""

    def round_of(self, state: S) -> int | None:
        """The game round the state is in (the clock's round times count by it); None where
        the game counts none. The default: the state's `round`."""
        found = getattr(state, "round", None)
        return found if isinstance(found, int) and not isinstance(found, bool) else None

    def current(self, state: S) -> tuple[int, int] | None:
        """The unit (side, number) whose activation is under way, which the tracker marks and
        scrolls to; None where the rules say none (the default)."""
        return None

    def standing(self, unit: Mapping[str, Any]) -> Standing:
        """A unit of `units` as the tracker's row draws it. The default: every value in small
        words (`unit_words`); each game says which of its values are tracks and chips."""
        return Standing(details=unit_words(unit))

    def situation(self, state: S, attacker: tuple[int, int],
                  defender: tuple[int, int]) -> Mapping[str, Value]:
        """What the state sets of quick-resolve's situation when `attacker` (side, unit)
        attacks `defender`: models left, wounds taken, stance, stunned, lives... by the
        option keys of the game's resolver (`engine/odds.py` drops any it doesn't offer for
        the pair). The default: nothing, the units as fielded."""
        return {}


def unit_words(unit: Mapping[str, Any]) -> str:
    """A unit of `Play.units` in words (the command line's and the tracker's row): each value
    that says something, by its name; nothing for what is empty, zero or no."""
    words = []
    for key, value in unit.items():
        if key in ("unit", "name", "alive", "known") or value in (None, "", 0, False, (), []):
            continue
        label = key.replace("_", " ")
        if value is True:
            words.append(label)
        elif isinstance(value, list | tuple):
            words.append(f"{label} " + ", ".join(str(v) for v in value))
        else:
            words.append(f"{label} {value}")
    return "; ".join(words)


def phrased(kind: Kind | None, name: str, value: Value) -> str | None:
    """A value in its kind's own words (`Kind.words`), read on from the label ("Open a
    battle in space"); None where the kind gives none."""
    words = kind.words.get(name) if kind else None
    if words is None:
        return None
    if isinstance(words, tuple):
        return words[0] if value else words[1]
    if isinstance(words, str):
        return words.format(value)
    return words.get(str(value), str(value))


def labelled(kind: Kind | None, fallback: str, values: Sequence[tuple[str, Value]]) -> str:
    """A kind's label with values: those it words read on after it, the others after a
    colon ("Killed with a Death Blow", "Activate: Hold")."""
    said, rest = [], []
    for name, value in values:
        words = phrased(kind, name, value)
        if words is None:
            rest.append(value_words(name, value))
        elif words:
            said.append(words)
    text = " ".join([kind.label if kind else fallback, *said])
    return text + (": " + ", ".join(rest) if rest else "")


def value_words(name: str, value: Value) -> str:
    """One value of an event as a button or the log says it: "first", "not passed",
    "models 3", "Hold"."""
    label = name.replace("_", " ")
    if value is True:
        return label
    if value is False:
        return f"not {label}"
    if name in ("action", "stance", "card", "chit", "planet", "where"):
        return str(value)
    return f"{label} {value}"


def describe(match: Match, play: Play[Any], ev: Event, unit_too: bool = True) -> str:
    """An event in words: its kind's label, whose unit, and its values; what the log and the
    tracker's buttons say. The unit that acted (`by`, a unit of the other side) is named."""
    kind = play.kinds.get(ev.kind) or next(
        (shared.kinds[ev.kind] for shared in SHARED if ev.kind in shared.kinds), None)
    who = ""
    if ev.side is not None and 1 <= ev.side <= len(match.players):
        who = match.players[ev.side - 1].name
        if unit_too and ev.unit is not None:
            name = unit_name(match, ev.side, ev.unit)
            who += f"'s {name}" if name else ""
    values = ev.values
    attacker = attacker_name(match, ev.side, ev.get(BY))
    if kind is not None and attacker:  # the game's words for it ("from {}"), with its name
        said = kind.words.get(BY)
        kind = replace(kind, words={**kind.words, BY: said if isinstance(said, str) else
                                    "by {}"})
        values = tuple((n, attacker if n == BY else v) for n, v in values)
    return " · ".join(part for part in (who, labelled(kind, ev.kind, values)) if part)


def unit_name(match: Match, side: int, number: int) -> str:
    """A unit as its roster names it (its label, else its unit); "" for no such unit."""
    if not 1 <= side <= len(match.players):
        return ""
    entries = match.players[side - 1].roster.entries
    if not 1 <= number <= len(entries):
        return ""
    entry = entries[number - 1]
    return entry.label or entry.unit


def attacker_name(match: Match, side: int | None, by: Any) -> str:
    """The unit an event's `by` names, the other side's from the event's `side`; ""."""
    if side is None or isinstance(by, bool) or not isinstance(by, int):
        return ""
    return unit_name(match, other(side), by)

def check_shape(play: Play[Any], match: Match, ev: Event) -> None:
    """What every game refuses alike: an unknown kind, a side or unit out of range, values
    missing, unknown or of the wrong type."""
    kind = play.kinds.get(ev.kind)
    if kind is None:
        known = ", ".join(sorted(play.kinds))
        raise Refused(f"there is no event '{ev.kind}' in this game",
                      f"Use one of: {known}.")
    sides = len(match.players)
    if kind.side:
        if ev.side not in range(1, sides + 1):
            raise Refused(f"'{ev.kind}' needs a side, 1" + (" or 2" if sides > 1 else "")
                          + f", not {ev.side}", "Give the side it happened to.")
    elif ev.side is not None:
        raise Refused(f"'{ev.kind}' is not one side's", "Leave the side out.")
    if kind.unit:
        assert ev.side is not None
        entries = len(match.players[ev.side - 1].roster.entries)
        if not isinstance(ev.unit, int) or not 1 <= ev.unit <= entries:
            raise Refused(f"'{ev.kind}' needs a unit of side {ev.side}, numbered 1 to "
                          f"{entries} as in its roster, not {ev.unit}",
                          "Give the unit's number in its roster.")
    elif ev.unit is not None:
        raise Refused(f"'{ev.kind}' is not one unit's", "Leave the unit out.")
    given = dict(ev.values)
    for name, typ in kind.values.items():
        if name not in given:
            if name in kind.optional:
                continue
            raise Refused(f"'{ev.kind}' needs '{name}'", f"Add {name}: a {_type_word(typ)}.")
        value = given[name]
        wrong = (isinstance(value, bool) or not isinstance(value, int)) if typ is int \
            else not isinstance(value, typ)
        if wrong:
            raise Refused(f"'{name}' is a {_type_word(typ)}, not {value!r}",
                          f"Write {name} as a {_type_word(typ)}.")
    unknown = sorted(set(given) - set(kind.values))
    if unknown:
        takes = ", ".join(kind.values) or "no other values"
        raise Refused(f"'{ev.kind}' takes no '{unknown[0]}'", f"It takes {takes}.")


def _type_word(typ: type) -> str:
    return {int: "whole number", str: "word", bool: "yes or no"}.get(typ, typ.__name__)


def replay(play: Play[S], match: Match, events: Iterable[Event] | None = None) -> S:
    """The state after `events` (the match's own by default), each checked and applied in
    turn; MatchError names the first refused. An event whose id was seen before is the same
    tap sent again and is skipped."""
    return _applied(play, match, play.start(match), (),
                    match.events if events is None else events)


def resume(play: Play[S], match: Match, state: S, done: int) -> S:
    """The state after the match's events, from `state`, the state after its first `done`
    as `replay` gave it: only the events after those are applied, so a log that grew since
    a state was kept costs what is new, not its whole length. MatchError as `replay` says,
    at the event's place in the whole log."""
    return _applied(play, match, state, match.events[:done], match.events[done:])


def _applied(play: Play[S], match: Match, state: S, before: Sequence[Event],
             events: Iterable[Event]) -> S:
    """`state`, the state after `before`, with `events` applied after them."""
    seen = {ev.id for ev in before if ev.id}  # a tap sent again is skipped on resuming too
    for position, ev in enumerate(events, len(before) + 1):
        if ev.id:
            if ev.id in seen:
                continue
            seen.add(ev.id)
        state = _step(play, match, state, ev, position)
    return state


def push(play: Play[S], match: Match, state: S, ev: Event) -> tuple[Match, S]:
    """The match with `ev` appended and its state, given the state before; MatchError (at
    the position it would take) when the rules refuse it. An event whose id the log holds
    already changes nothing."""
    if ev.id and any(e.id == ev.id for e in match.events):
        return match, state
    after = _step(play, match, state, ev, len(match.events) + 1)
    return Match(match.system, match.players, (*match.events, ev), match.options), after


def _step(play: Play[S], match: Match, state: S, ev: Event, position: int) -> S:
    """`ev` applied at `position` in the log, every check first."""
    if position > MAX_EVENTS:
        raise MatchError(position, ev, f"a match holds at most {MAX_EVENTS} events",
                         "Split the log, or end the game.")
    try:
        shared = next((shared for shared in SHARED if ev.kind in shared.kinds), None)
        if shared is not None:  # every game's, and no game's rules: the state stays
            shared.check(match, ev, position, play.outcome(state).over)
            return state
        check_shape(play, match, ev)
        if play.outcome(state).over:
            raise Refused("the game is over", "Undo the event that ended it to go on.")
        return play.apply(state, ev)
    except Refused as exc:
        raise MatchError(position, ev, exc.message, exc.fix) from None


def concessions(sides: int, over: bool = False, gone: Iterable[int] = ()) -> list[Event]:
    """Each side's concession, offered at any time until the game is over (once a side)."""
    return [] if over else [event("concede", s) for s in range(1, sides + 1) if s not in gone]


def undo(match: Match) -> Match:
    """The match without its last event (nothing to undo: the match as it is)."""
    return Match(match.system, match.players, match.events[:-1], match.options)


def other(side: int) -> int:
    return 3 - side


def players_of(match: Match, kind: type[C]) -> list[tuple[Player, C]]:
    """Each player with its catalog as the game's own kind (a game's `start` reads its units
    there). A match of another game's rosters is a mistake of the caller's, not a player's."""
    out = []
    for player in match.players:
        if not isinstance(player.catalog, kind):
            raise TypeError(f"{player.name}'s roster is not a {match.system} roster")
        out.append((player, player.catalog))
    return out


def with_side(items: tuple[T, ...], number: int, new: T) -> tuple[T, ...]:
    """`items` with the one numbered `number` replaced by `new`: numbered from 1 as players
    number sides and units."""
    return (*items[:number - 1], new, *items[number:])
