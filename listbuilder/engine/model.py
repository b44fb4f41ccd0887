"""Frozen data the engine works on: catalog pieces (what the data folder holds) and rosters.

Each rule system subclasses `Unit` and `Catalog` to add its own fields; everything here is the
part all five systems share. Objects are built by the systems' named constructors from validated
schemas, never from raw YAML dicts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Generic, Protocol

# typing_extensions for the default (PEP 696, in typing from 3.13): a bare `Catalog` is a catalog
# of plain Units, as the web app and the printing code hold it.
from typing_extensions import TypeVar

if TYPE_CHECKING:  # for an annotation only: effects.py loads pydantic (~0.2 s), which
    # `listbuilder db backup` and `db restore` (storage, through engine/history.py) never need
    from listbuilder.engine.effects import Effect


@dataclass(frozen=True, kw_only=True)
class Origin:
    """Where a catalog item came from, so messages and the UI can name it."""

    file: str = ""
    custom: bool = False  # from the player's own data folder, not the built-in data
    sample: bool = False  # content we wrote because the seed gives none


BUILTIN = Origin()


@dataclass(frozen=True, kw_only=True)
class SpecialRule:
    name: str
    text: str  # always our own words
    cost: int | None = None  # only systems that price rules (WarStuff) set this
    origin: Origin = BUILTIN


@dataclass(frozen=True, kw_only=True)
class Upgrade:
    name: str
    pts: int
    per_model: bool = False  # cost is multiplied by the unit's model count
    text: str = ""  # what the card prints
    effects: tuple[Effect, ...] = ()  # what the engine applies (listbuilder/engine/effects.py)


@dataclass(frozen=True, kw_only=True)
class Faction:
    name: str
    text: str = ""
    origin: Origin = BUILTIN


@dataclass(frozen=True, kw_only=True)
class Unit:
    """What every system's catalog unit has. Systems subclass it with their own profile."""

    name: str
    faction: str | None = None
    category: str = ""
    keywords: tuple[str, ...] = ()
    special_rules: tuple[str, ...] = ()
    upgrades: tuple[Upgrade, ...] = ()
    origin: Origin = BUILTIN

    def upgrade(self, name: str) -> Upgrade | None:
        return next((u for u in self.upgrades if u.name == name), None)

    def has_keyword(self, keyword: str) -> bool:
        return keyword.casefold() in (k.casefold() for k in self.keywords)


@dataclass(frozen=True, kw_only=True)
class Card:
    name: str
    count: int
    text: str


@dataclass(frozen=True, kw_only=True)
class Deck:
    name: str
    cards: tuple[Card, ...]
    origin: Origin = BUILTIN

    @property
    def size(self) -> int:
        return sum(card.count for card in self.cards)


UnitT_co = TypeVar("UnitT_co", bound=Unit, covariant=True, default=Unit)


class _Named(Protocol):
    @property
    def name(self) -> str: ...


N = TypeVar("N", bound=_Named)


def named(items: Iterable[N], name: str) -> N | None:
    """The item called `name`, whatever its case: how a catalog finds a faction, rule or deck,
    and how a system's catalog finds its own kind of them."""
    return next((item for item in items if item.name.casefold() == name.casefold()), None)


@dataclass(frozen=True, kw_only=True)
class Catalog(Generic[UnitT_co]):
    """Everything loaded for one system. Systems subclass it to add their own tables, naming
    their unit class (`class HammerWarsCatalog(Catalog[HwUnit])`), so its lookups give that."""

    system: str
    revision: str
    factions: tuple[Faction, ...] = ()
    units: tuple[UnitT_co, ...] = ()
    rules: tuple[SpecialRule, ...] = ()
    decks: tuple[Deck, ...] = ()

    @cached_property
    def _units_by_name(self) -> Mapping[str, tuple[UnitT_co, ...]]:
        index: dict[str, list[UnitT_co]] = {}
        for unit in self.units:
            index.setdefault(unit.name.casefold(), []).append(unit)
        return MappingProxyType({k: tuple(v) for k, v in index.items()})

    def units_named(self, name: str) -> tuple[UnitT_co, ...]:
        return self._units_by_name.get(name.casefold(), ())

    def find_unit(self, name: str, factions: Iterable[str] = ()) -> UnitT_co | None:
        """The unit called `name`, from the given factions first, else from any faction.

        None when the name is unknown or ambiguous. Whether the unit's faction is allowed in a
        roster is a rule (`roster.wrong-faction`), checked by validation, not by lookup.
        """
        candidates = self.units_named(name)
        wanted = {f.casefold() for f in factions}
        if wanted:
            preferred = tuple(u for u in candidates if (u.faction or "").casefold() in wanted)
            candidates = preferred or candidates
        return candidates[0] if len(candidates) == 1 else None

    def faction(self, name: str) -> Faction | None:
        return named(self.factions, name)

    def rule(self, name: str) -> SpecialRule | None:
        return named(self.rules, name)

    def deck(self, name: str) -> Deck | None:
        return named(self.decks, name)

    def units_of(self, faction: str) -> tuple[UnitT_co, ...]:
        return tuple(u for u in self.units if (u.faction or "").casefold() == faction.casefold())


@dataclass(frozen=True, kw_only=True)
class RosterEntry:
    """One line of a roster. `count` means what the system says it means (see its module)."""

    unit: str
    count: int = 1
    upgrades: tuple[str, ...] = ()
    faction: str | None = None  # only needed when two factions have a unit of that name
    label: str | None = None  # a handle other entries refer to (a Bodyguard a Leader joins)
    joins: str | None = None  # label of the entry this one joins
    pts: int | None = None  # the cost recorded when the roster was saved


@dataclass(frozen=True, kw_only=True)
class UnitDesign:
    """A unit the player designed inside the roster (systems that allow it, e.g. WarStuff)."""

    name: str
    quality: int
    rules: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class PackUse:
    """A faction pack a roster builds with, carried whole in the roster (engine/packs.py):
    its text is a data file of the roster's game."""

    name: str
    text: str
    link: str = ""  # its share link, when it came from a studio: where to look for news


@dataclass(frozen=True, kw_only=True)
class Roster:
    system: str
    name: str
    points_limit: int | None = None
    factions: tuple[str, ...] = ()
    choices: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    designs: tuple[UnitDesign, ...] = ()
    entries: tuple[RosterEntry, ...] = ()
    data_revision: str | None = None
    packs: tuple[PackUse, ...] = ()

    def design(self, name: str) -> UnitDesign | None:
        return next((d for d in self.designs if d.name.casefold() == name.casefold()), None)
