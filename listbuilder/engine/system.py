"""The RuleSystem base: an id, a name and hooks with neutral defaults.

Each system is one subclass (in `listbuilder.systems`) overriding a few hooks, as python-chess
variants do, so the core never names a system. The subclass names its own catalog and unit
classes (`class HammerWars(RuleSystem[HammerWarsCatalog, HwUnit])`), so its hooks read their
stats without a downcast. Validation returns every problem at once as `Violation`s; exceptions
are kept for malformed input.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar, Generic, Literal, cast

from pydantic import BaseModel
from typing_extensions import TypeVar

from listbuilder.engine.cards import (
    CardSet,
    ChitFace,
    PlayCard,
    RosterSheet,
    SheetLine,
    UnitCard,
    glossary,
    merge_identical,
    pts,
    stats_line,
    upgrades_taken,
)
from listbuilder.engine.effects import Fielded
from listbuilder.engine.errors import closest
from listbuilder.engine.fight import Resolver
from listbuilder.engine.match import Play
from listbuilder.engine.model import Catalog, Origin, Roster, RosterEntry, Unit, UnitDesign
from listbuilder.engine.profile import Profile, RuleText
from listbuilder.engine.reminders import Reminders
from listbuilder.locations import package_folder, package_of

Severity = Literal["error", "warning"]
State = Literal["empty", "legal", "illegal"]
NOTES_PATH = "docs/rules-notes.md"


@dataclass(frozen=True)
class Violation:
    rule: str  # stable id, e.g. "actionhammer.leaders-per-1000"
    severity: Severity
    where: str  # "roster" or "entries[2] Assault Hero"
    message: str  # what was counted and how to fix it
    # The docs/rules-notes.md section (its heading's anchor) whose reading decided this
    # violation, where the rules leave it open; None when the rules say it plainly.
    reading: str | None = None

    def __str__(self) -> str:
        return f"{self.rule}: {self.message}"


def reading_ref(slug: str) -> str:
    """Where a reading is written down, as the CLI and the plain text name it."""
    return f"{NOTES_PATH}#{slug}"


def message_line(v: Violation) -> str:
    """A violation's message, naming the reading that decided it where one did: the words
    `listbuilder validate`, the plain text and the roster sheet share."""
    return v.message + (f" (our reading: {reading_ref(v.reading)})" if v.reading else "")


@dataclass(frozen=True)
class PrintedPrice:
    """An entry charged other than the figure its source prints (WarStuff's quickplay units,
    priced by the formula), so the player sees both and why."""

    text: str  # "Rat Warrior: 30 pts by the formula (printed 25)"
    difference: int  # what the entry costs above the printed figure, all copies together
    reading: str  # the rules-notes anchor that says which figure the roster pays


@dataclass(frozen=True)
class Section:
    """A block shown beside the totals, not inside them (Space Empires' starting draw)."""

    title: str
    lines: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Totals:
    points: int
    points_limit: int | None
    lines: tuple[tuple[str, str], ...] = ()  # system-specific summary, e.g. ("Heroes", "2/2")
    headline: str = ""  # the total as players read it: "145/150 pts", "7 of 9 revenue spent"
    notes: tuple[str, ...] = ()  # costs that differ from a printed figure (PrintedPrice.text)
    brief: tuple[tuple[str, str], ...] = ()  # `lines` shortened for the summary strip, if long

    @property
    def strip(self) -> tuple[tuple[str, str], ...]:
        """The summary as the builder's always-visible strip shows it."""
        return self.brief or self.lines


@dataclass(frozen=True)
class Status:
    """Whether a roster is empty, legal or not legal yet, with its counts of problems."""

    state: State
    errors: int
    warnings: int
    empty_text: str = "no units yet"

    @classmethod
    def of(cls, found: Sequence[Violation], empty: bool,
           empty_text: str = "no units yet") -> Status:
        """The status of a roster with the problems `found`: `empty` when it holds nothing to
        play yet."""
        errors = sum(1 for v in found if v.severity == "error")
        state: State = "empty" if empty else "illegal" if errors else "legal"
        return cls(state, errors, len(found) - errors, empty_text)

    @property
    def label(self) -> str:
        return {"empty": "Empty", "legal": "Legal", "illegal": "Not legal yet"}[self.state]

    @property
    def detail(self) -> str:
        """What follows the label: ", with 1 warning", ": 2 problems to fix"."""
        problems = f"{plural(self.errors, 'problem')} to fix"
        if self.state == "empty":
            return f": {self.empty_text}" + (f", and {problems}" if self.errors else "")
        if self.state == "illegal":
            return f": {problems}"
        return f", with {plural(self.warnings, 'warning')}" if self.warnings else ""

    @property
    def text(self) -> str:
        return self.label + self.detail


@dataclass(frozen=True)
class SourceFile:
    """One data file after its schema check, handed to `RuleSystem.build_catalog`."""

    origin: Origin
    data: BaseModel


@dataclass(frozen=True)
class ChoiceSpec:
    """A roster-level choice a system asks for (Hammer Wars' goal, Space Empires' seed)."""

    kind: type[int] | type[str]
    help: str
    required: bool = False
    default: int | str | None = None  # what the rules read when the roster leaves it unset
    # a whole number's range, as the builder's box takes it (and the system's check says)
    low: int | None = None
    high: int | None = None


def where_entry(index: int, entry: RosterEntry) -> str:
    return f"entries[{index}] {entry.unit}"


def plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


# A system's own catalog and unit classes. Code that finds a system by its id (the registry, the
# web app, printing, the command line) holds a bare `RuleSystem`, which defaults both to Any:
# the catalog it passes was built by that same system (`Library.catalog`), so nothing narrows it.
CatalogT = TypeVar("CatalogT", bound=Catalog, default=Any)
UnitT = TypeVar("UnitT", bound=Unit, default=Any)


@dataclass(frozen=True)
class Priced(Generic[UnitT]):
    """A roster entry whose unit is known, looked up once (`RuleSystem.priced`), with what it
    costs and the counts it may have: what the rules about a roster read, so that no hook
    looks the unit up again."""

    index: int  # its place among the entries it was priced with (a roster's: its line)
    entry: RosterEntry
    unit: UnitT
    cost: int
    bounds: tuple[int, int | None]  # `RuleSystem.count_bounds` of its unit


class RuleSystem(Generic[CatalogT, UnitT]):
    """Base class of the five systems. Subclasses set the class attributes and the hooks."""

    id: ClassVar[str]
    name: ClassVar[str]
    # the name where room is short (a card's back, `brief_name`); empty: `name` itself
    short_name: ClassVar[str] = ""
    # Where the system is listed (home page, `listbuilder systems`), lowest first; ties by id.
    # Systems are found through entry points, whose order means nothing.
    order: ClassVar[int] = 1000
    blurb: ClassVar[str]  # one line for the home page and `listbuilder systems`
    data_schema: ClassVar[type[BaseModel]]  # the schema every YAML file of the system obeys
    # The top-level keys of `data_schema` the faction studio's form shows, in order; empty: the
    # keys of the system's starter pack (studio/starter.yaml), which are what a pack adds.
    pack_sections: ClassVar[tuple[str, ...]] = ()
    default_points_limit: ClassVar[int | None] = None  # None: the system has no points limit
    min_factions: ClassVar[int] = 1
    max_factions: ClassVar[int | None] = 1  # None: any number
    allows_designs: ClassVar[bool] = False  # players may design units inside the roster
    choices: ClassVar[dict[str, ChoiceSpec]] = {}
    count_label: ClassVar[str] = "count"  # what RosterEntry.count means here, for messages
    # The currency entry costs are paid in ("pts", Space Empires' "revenue"): a price, never a
    # total on its own; totals read through `Totals.headline`.
    cost_unit: ClassVar[str] = "pts"
    # Rule id -> the docs/rules-notes.md anchor whose reading always decides that violation.
    # A violation decided by a reading only sometimes sets `reading` where it is made.
    readings: ClassVar[Mapping[str, str]] = {}
    empty_text: ClassVar[str] = "no units yet"  # what an empty roster lacks, for its status
    # What the system calls a faction, singular and plural, for labels ("Genre" in WarStuff)
    faction_words: ClassVar[tuple[str, str]] = ("Faction", "Factions")

    # -- files -------------------------------------------------------------------------------
    # A system is one package carrying its code, its YAML under data/ and its templates under
    # templates/ (found as "<id>/<name>" by the page and print templates).
    @classmethod
    def package(cls) -> str:
        return package_of(cls)

    def data_folder(self) -> Path:
        return package_folder(self.package(), "data")

    def templates_folder(self) -> Path:
        return package_folder(self.package(), "templates")

    def pack_starter(self) -> str:
        """The YAML a new faction pack starts from (`studio/starter.yaml` in the system's
        package): a faction and a unit or two in the format of the system's data files."""
        path = package_folder(self.package(), "studio", "starter.yaml")
        return path.read_text(encoding="utf-8") if path.is_file() else ""

    def data_label(self, relative: str) -> str:
        """How a built-in data file is named in messages: its place in the package tree."""
        return f"{self.package().replace('.', '/')}/data/{relative}"

    # -- catalog -----------------------------------------------------------------------------
    # The hooks a game may give as its own modules' functions (`check = staticmethod(
    # limits.check)`) take their arguments by position, so those functions name them freely.
    def build_catalog(self, files: Sequence[SourceFile], revision: str, /) -> CatalogT:
        """The catalog the system's checked data files make."""
        raise NotImplementedError

    # -- rules: lookups, costs and validation ------------------------------------------------
    # What a roster costs and whether it is legal. Each entry's unit is looked up once
    # (`priced`), and the hooks below are handed what was found: none looks a unit up again.
    def find_units(self, catalog: CatalogT, roster: Roster,
                   entries: Sequence[RosterEntry]) -> tuple[UnitT | None, ...]:
        """The unit each of `entries` names (None where it names none), read in `roster`: an
        entry's own faction, else the roster's. All at once, so that a roster's units are one
        question to the game. A game whose rosters hold units of their own (WarStuff's
        designs) looks those up here too."""
        found = []
        for entry in entries:
            factions = (entry.faction,) if entry.faction else roster.factions
            found.append(catalog.find_unit(entry.unit, factions))
        # the one narrowing: a catalog this system built holds this system's units
        return cast("tuple[UnitT | None, ...]", tuple(found))

    def priced(self, catalog: CatalogT, roster: Roster,
               entries: Sequence[RosterEntry] | None = None) -> tuple[Priced[UnitT], ...]:
        """Each of `entries` (the roster's own when None) whose unit is known, with its unit,
        its cost and the counts it may have: what every rule about the roster reads. Entries
        naming no known unit are left out (validation reports them)."""
        entries = roster.entries if entries is None else entries
        units = self.find_units(catalog, roster, entries)
        return tuple(Priced(i, entry, unit, self.entry_cost(catalog, unit, entry),
                            self.count_bounds(unit))
                     for i, (entry, unit) in enumerate(zip(entries, units, strict=True))
                     if unit is not None)

    def entry_cost(self, catalog: CatalogT, unit: UnitT, entry: RosterEntry) -> int:
        """What `entry`, of `unit`, costs: its count and upgrades priced."""
        raise NotImplementedError

    def count_bounds(self, unit: UnitT) -> tuple[int, int | None]:
        """Smallest and largest `count` an entry of this unit may have."""
        return (1, None)

    def fielded(self, catalog: CatalogT, unit: UnitT,
                entry: RosterEntry) -> Fielded[Any, Any] | None:
        """The entry's unit as fielded: stats after its upgrades, each weapon with how many
        models carry it, rules and keywords gained (listbuilder/engine/effects.py). None in a
        system without upgrades."""
        return None

    def printed_prices(self, catalog: CatalogT,
                       priced: Sequence[Priced[UnitT]]) -> Mapping[int, PrintedPrice]:
        """The entries charged other than their printed figure, by their index; none by
        default."""
        return {}

    @property
    def uses_points(self) -> bool:
        """Whether rosters of this game have a points limit (its limit is the usual one)."""
        return self.default_points_limit is not None

    def validate(self, catalog: CatalogT, roster: Roster,
                 priced: Sequence[Priced[UnitT]]) -> list[Violation]:
        """Every problem of the roster at once: the checks every game shares, then the game's
        own (`check`). `priced`: the roster's entries as `priced` gave them."""
        problems = _shape_problems(self, catalog, roster, priced)
        problems += self.check(catalog, roster, priced)
        return [replace(v, reading=self.readings[v.rule])
                if v.reading is None and v.rule in self.readings else v for v in problems]

    def check(self, catalog: CatalogT, roster: Roster,
              priced: Sequence[Priced[UnitT]], /) -> list[Violation]:
        """The system's own limits, after the shared checks. `priced` holds the entries whose
        unit is known; the others are reported already."""
        return []

    def status(self, catalog: CatalogT, roster: Roster, found: Sequence[Violation]) -> Status:
        """Empty, legal or not, from `found` (the roster's violations). Empty: the roster
        holds nothing to play yet, so its status says so, not "Legal"."""
        return Status.of(found, not roster.entries, self.empty_text)

    # -- wording: what the player reads about a roster ---------------------------------------
    # The builder, the plain text and the roster sheet all show these, so they say it alike.
    def price_text(self, cost: int) -> str:
        """What taking a unit costs, where nothing around the figure says it is a price (the
        builder's unit list)."""
        return f"{cost} {self.cost_unit}"

    def spent_text(self, cost: int) -> str:
        """What a roster's entry costs, beside the entry (the builder, the plain text)."""
        return f"{cost} {self.cost_unit}"

    def totals(self, catalog: CatalogT, roster: Roster,
               priced: Sequence[Priced[UnitT]]) -> Totals:
        """The points spent and the limit, with the game's own summary lines: a game adds its
        `lines` (and `brief`, their short form) to these."""
        limit = roster.points_limit if self.uses_points else None
        points = sum(p.cost for p in priced)
        notes = tuple(dict.fromkeys(p.text for p in self.printed_prices(catalog, priced).values()))
        return Totals(points, limit, headline=f"{points}{f'/{limit}' if limit else ''} "
                                              f"{self.cost_unit}", notes=notes)

    def sections(self, catalog: CatalogT, roster: Roster, /) -> tuple[Section, ...]:
        """Blocks shown after the totals, each under its own title (a starting draw)."""
        return ()

    @property
    def brief_name(self) -> str:
        """The game's name where room is short: its short name, else its name."""
        return self.short_name or self.name

    def profile(self, catalog: CatalogT, unit: UnitT, /) -> Profile:
        """The unit's full profile for cards and previews. Systems override with their stats."""
        rules = tuple(RuleText(r.name, r.text) for name in unit.special_rules
                      if (r := catalog.rule(name)) is not None)
        return Profile(name=unit.name, subtitle=unit.faction or unit.category, cost="",
                       rules=rules, keywords=unit.keywords)

    # -- what the system hands out for a part of its work ------------------------------------
    def builder(self) -> Builder[CatalogT, UnitT]:
        """What the roster page asks of the game beyond its rules (`Builder`): a game whose
        builder differs from the neutral one returns its own subclass, from its builder.py."""
        return Builder(self)

    def cards(self) -> Cards[CatalogT, UnitT]:
        """The system's printing hooks (`Cards`): a game whose cards differ from the neutral
        ones returns its own subclass, from its cards.py."""
        return Cards(self)

    def resolver(self) -> Resolver[CatalogT, UnitT] | None:
        """The system's dice maths (`listbuilder.engine.fight.Resolver`), or None when it has
        no quick-resolve. A system returns its resolve.py's resolver, imported inside this
        method so that loading data never pays for it."""
        return None

    def play(self) -> Play[Any] | None:
        """The game's rules of play for the match tracker (`listbuilder.engine.match.Play`),
        or None when it has none. A system returns its play.py's, imported inside this
        method as `resolver` does."""
        return None

    def reminders(self) -> Reminders | None:
        """Which of its units' special rules bear on which of the tracker's taps
        (`listbuilder.engine.reminders.Reminders`), or None when the game says none. A
        system returns its reminders.py's, imported inside this method as `play` does."""
        return None


class Builder(Generic[CatalogT, UnitT]):
    """What the roster page (listbuilder.web.builder) asks of a game beyond its rules: the
    count a new entry starts with, whether adding a unit listed already stacks, the values a
    roster choice may take, which entries may join which, and the unit creator's choices.
    `RuleSystem.builder` hands it out, bound to the system so that a hook can ask it a rules
    question (a unit's count bounds). Each hook has a neutral default; a game overrides what
    its page changes in a subclass in its builder.py. (It lives beside `RuleSystem` because
    each names the other.)"""

    def __init__(self, system: RuleSystem[CatalogT, UnitT]) -> None:
        self.system = system

    def default_count(self, unit: UnitT) -> int:
        """The count a new entry of this unit starts with."""
        return self.system.count_bounds(unit)[0]

    def stacks_entries(self) -> bool:
        """True when adding a unit already listed should raise that entry's count, because
        `count` means copies of one thing rather than the size of a separate unit."""
        return False

    def choice_options(self, catalog: CatalogT,
                       roster: Roster) -> Mapping[str, tuple[tuple[str, str], ...]]:
        """The values each roster choice may take, each with a short text; a choice left out
        (or given ()) takes any value."""
        return {}

    def random_choices(self) -> tuple[str, ...]:
        """Choices that seed a random draw: the builder fills them in and offers a re-draw."""
        return ()

    def can_join(self, unit: UnitT) -> bool:
        """May an entry of this unit join another entry (a Leader its Bodyguard)?"""
        return False

    def join_refusal(self, catalog: CatalogT, roster: Roster, leader: Priced[UnitT],
                     guard: Priced[UnitT]) -> str | None:
        """Why `leader` may not join `guard` (a short reason for the builder to show beside
        the units it offers), or None when it may."""
        return None

    def design_qualities(self, catalog: CatalogT) -> tuple[int, ...]:
        """The Quality values a unit designed in the roster may have (systems with designs)."""
        return ()

    def design_of(self, unit: UnitT) -> UnitDesign | None:
        """The unit as a design the player can copy into the unit creator and change."""
        return None


def _shape_problems(system: RuleSystem[CatalogT, UnitT], catalog: CatalogT, roster: Roster,
                    priced: Sequence[Priced[UnitT]]) -> list[Violation]:
    """The checks every game shares: factions, each entry's unit, count and upgrades, and the
    points limit."""
    out: list[Violation] = []
    n = len(roster.factions)
    if n < system.min_factions:
        out.append(Violation("roster.faction-missing", "error", "roster",
                             f"No faction chosen; {system.name} needs one: choose a faction."))
    if system.max_factions is not None and n > system.max_factions:
        out.append(Violation(
            "roster.too-many-factions", "error", "roster",
            f"{plural(n, 'faction')} chosen; {system.name} allows {system.max_factions}: "
            f"remove {n - system.max_factions}."))
    for f in roster.factions:
        if catalog.faction(f) is None:
            out.append(Violation(
                "roster.unknown-faction", "error", "roster",
                f"Faction {f!r} is not in the {system.name} catalog"
                f"{closest(f, (x.name for x in catalog.factions))}: choose one of its "
                f"factions."))
    known = {p.index: p for p in priced}
    for i, entry in enumerate(roster.entries):
        p = known.get(i)
        if p is None:
            mine = [u.name for u in catalog.units
                    if not roster.factions or u.faction in roster.factions]
            out.append(Violation(
                "roster.unknown-unit", "error", where_entry(i, entry),
                f"{entry.unit!r} is not a unit of the chosen faction"
                f"{closest(entry.unit, mine)}: correct the name or remove the entry."))
            continue
        unit = p.unit
        out += _wrong_faction(system, roster, i, entry, unit)
        lo, hi = p.bounds
        if entry.count < lo or (hi is not None and entry.count > hi):
            span = f"{lo} to {hi}" if hi is not None else f"at least {lo}"
            fix = lo if entry.count < lo else hi
            out.append(Violation(
                "roster.count-bounds", "error", where_entry(i, entry),
                f"{entry.unit} has {system.count_label} {entry.count}; it must be {span}: "
                f"set it to {fix}."))
        for name in entry.upgrades:
            if unit.upgrade(name) is None:
                out.append(Violation("roster.unknown-upgrade", "error", where_entry(i, entry),
                                     f"{entry.unit} has no upgrade {name!r}: remove it."))
        if len(set(entry.upgrades)) != len(entry.upgrades):
            out.append(Violation("roster.repeated-upgrade", "error", where_entry(i, entry),
                                 f"{entry.unit} lists an upgrade twice: keep one."))
    if system.uses_points:
        out += _points_problems(system, catalog, roster, priced)
    return out


def _wrong_faction(system: RuleSystem, roster: Roster, i: int, entry: RosterEntry,
                   unit: Unit) -> list[Violation]:
    chosen = {f.casefold() for f in roster.factions}
    if not chosen or unit.faction is None or unit.faction.casefold() in chosen:
        return []
    army = ", ".join(roster.factions)
    fix = f"remove it or pick a unit of {army}"
    if system.max_factions is None or system.max_factions > len(chosen):
        fix += f", or add {unit.faction} to the roster's factions"
    return [Violation("roster.wrong-faction", "error", where_entry(i, entry),
                      f"{unit.name} belongs to {unit.faction}, not {army}: {fix}.")]


def _points_problems(system: RuleSystem[CatalogT, UnitT], catalog: CatalogT, roster: Roster,
                     priced: Sequence[Priced[UnitT]]) -> list[Violation]:
    limit = roster.points_limit
    if not limit or limit <= 0:
        return [Violation("roster.no-points-limit", "error", "roster",
                          f"The roster has no points limit: set one "
                          f"({system.default_points_limit} is usual for {system.name}).")]
    spent = sum(p.cost for p in priced)
    if spent <= limit:
        return []
    message = f"{pts(spent)} spent; the limit is {limit}: remove {pts(spent - limit)}."
    printed = list(system.printed_prices(catalog, priced).values())
    if not printed:
        return [Violation("roster.points-limit", "error", "roster", message)]
    at_print = spent - sum(p.difference for p in printed)
    message += (f" Legal at printed prices: {at_print} pts." if at_print <= limit else
                f" At printed prices it would be {at_print} pts, still over.")
    return [Violation("roster.points-limit", "error", "roster", message,
                      reading=printed[0].reading)]


class Cards(Generic[CatalogT, UnitT]):
    """A system's printing hooks (listbuilder.printing): which cards a roster yields, what each
    says, the system's own card set and chits, and the roster sheet. `RuleSystem.cards` hands
    it out, bound to the system so that a hook can ask it rules questions (a profile, what an
    entry fields). An entry's hooks are handed it as `RuleSystem.priced` gave it, its unit and
    cost found once. Each hook has a neutral default; a game overrides what its cards change in
    a subclass in its cards.py. (It lives beside `RuleSystem` because each names the other.)"""

    # the roster sheet's headings over the entries and over the units the roster fields
    # besides them (`Resolver.extras`, Space Empires' starting draw), printed when it has both
    sheet_headings: ClassVar[tuple[str, str]] = ("Roster", "Also fielded")

    def __init__(self, system: RuleSystem[CatalogT, UnitT]) -> None:
        self.system = system

    def entry_card(self, catalog: CatalogT, placed: Priced[UnitT]) -> UnitCard:
        """One entry's card: the unit's profile with the entry's size, upgrades and cost."""
        system, entry = self.system, placed.entry
        taken = upgrades_taken(placed.unit, entry.upgrades, lambda n: f"{n} {system.cost_unit}")
        return UnitCard(profile=system.profile(catalog, placed.unit),
                        size=f"{entry.count} {system.count_label}",
                        cost=f"{placed.cost} {system.cost_unit}", upgrades=taken)

    def entry_cards(self, catalog: CatalogT, roster: Roster) -> list[UnitCard]:
        """The roster's cards in roster order, one per entry that prints its own card (an
        entry naming no known unit prints none: validation reports it)."""
        return [self.entry_card(catalog, p) for p in self.system.priced(catalog, roster)]

    def unit_cards(self, catalog: CatalogT, roster: Roster,
                   merge: bool = True) -> tuple[UnitCard, ...]:
        """The cards to print for a roster; identical ones share a card with a count."""
        cards = self.entry_cards(catalog, roster)
        return merge_identical(cards) if merge else tuple(cards)

    def core_rules(self, catalog: CatalogT,
                   cards: Sequence[UnitCard]) -> tuple[RuleText, ...]:
        """The core rules `cards` refer to but leave out (how a save or a morale test works,
        what a weapon feature does), in our words: printed once, on the quick-reference card
        after the unit cards and on the roster sheet, instead of on every card."""
        return ()

    def card_set(self, catalog: CatalogT) -> CardSet | None:
        """The system's own printable set (a shared deck, a set of unit cards); None if none."""
        if not catalog.decks:
            return None
        deck = catalog.decks[0]
        return CardSet(f"{deck.name} deck", cards=tuple(
            PlayCard(name=c.name, text=c.text, copies=c.count) for c in deck.cards))

    def chits(self, catalog: CatalogT, faction: str) -> tuple[ChitFace, ...]:
        """The counters of a faction's chit pile, for systems played with chits."""
        return ()

    def sheet_cost(self, catalog: CatalogT, placed: Priced[UnitT]) -> str:
        """What an entry costs, as the roster sheet's cost column prints it ('1 pt')."""
        cost_unit = self.system.cost_unit
        return pts(placed.cost) if cost_unit == "pts" else f"{placed.cost} {cost_unit}"

    def sheet_track(self, catalog: CatalogT, unit: UnitT,
                    entry: RosterEntry) -> tuple[tuple[int, ...], str]:
        """The boxes the roster sheet gives an entry to tick off in play, a number a model
        (its wounds or lives; 1 where a model is lost at once), and what they stand for: by
        default a box a model it fields."""
        fielded = self.system.fielded(catalog, unit, entry) if entry.upgrades else None
        models = fielded.models if fielded is not None else entry.count
        return (1,) * models, plural(models, "model")

    def sheet_choices(self, catalog: CatalogT, roster: Roster) -> tuple[RuleText, ...]:
        """The roster's choices as the roster sheet prints them."""
        return tuple(RuleText(f"{key}: {value}", "") for key, value in roster.choices.items())

    def roster_sheet(self, catalog: CatalogT, roster: Roster) -> RosterSheet:
        """The roster sheet: each entry with its cost, the totals, choices and a glossary."""
        system = self.system
        lines = []
        # a sheet names the unit joined, with the player's label only to tell two alike apart
        alike = Counter(e.unit for e in roster.entries)
        labelled = {e.label: e.unit if alike[e.unit] == 1 else f"{e.unit} ({e.label})"
                    for e in roster.entries if e.label}
        priced = system.priced(catalog, roster)
        for p in priced:
            entry, unit = p.entry, p.unit
            card = self.entry_card(catalog, p)
            detail = ", ".join(dict.fromkeys(entry.upgrades))
            fielded = system.fielded(catalog, unit, entry) if entry.upgrades else None
            if fielded is not None and fielded.weapons:  # what the upgrades leave them carrying
                detail += f": {fielded.weapons_text}"
            if entry.joins:
                joined = labelled.get(entry.joins, entry.joins)
                detail = ", ".join(x for x in (detail, f"joins {joined}") if x)
            track, track_label = self.sheet_track(catalog, unit, entry)
            lines.append(SheetLine(card.profile.name, entry.count, detail,
                                   self.sheet_cost(catalog, p), stats_line(card.profile), track,
                                   track_label))
        # what the roster fields besides its entries (a starting draw) is played from the
        # sheet too
        resolver = system.resolver()
        extras = resolver.extras(catalog, roster) if resolver is not None else ()
        for extra, also in zip(extras, system.find_units(catalog, roster, extras), strict=True):
            if also is not None:
                track, track_label = self.sheet_track(catalog, also, extra)
                lines.append(SheetLine(also.name, extra.count, "", "-",
                                       stats_line(system.profile(catalog, also)), track,
                                       track_label, group=self.sheet_headings[1]))
        if any(line.group for line in lines):
            lines = [replace(line, group=line.group or self.sheet_headings[0])
                     for line in lines]
        totals = system.totals(catalog, roster, priced)
        cards = self.unit_cards(catalog, roster)
        # a player's sheet says what to fix; which reading decided it is for the builder
        problems = tuple(v.message for v in system.validate(catalog, roster, priced)
                         if v.severity == "error")
        # (the sections, a starting draw, are lines of the table above)
        summary = totals.lines + tuple(("Printed price", note) for note in totals.notes)
        return RosterSheet(
            title=roster.name, system=system.name, factions=roster.factions,
            choices=self.sheet_choices(catalog, roster), count_label=system.count_label,
            lines=tuple(lines), total=totals.headline, summary=summary,
            glossary=glossary(cards), problems=problems, core=self.core_rules(catalog, cards))
