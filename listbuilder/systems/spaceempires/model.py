"""The Space Empires catalog: frozen models of the chit piles, the action deck and the empire
tables (built from the checked files by `build`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from listbuilder.engine.model import (
    BUILTIN,
    Card,
    Catalog,
    Deck,
    Origin,
    Unit,
    named,
)
from listbuilder.systems.spaceempires.schema import (
    CardModel,
    ConstantsModel,
    SpaceEmpiresFile,
    UnitModel,
)

SPACE, GROUND, FAST, LEADER = "S", "G", "F", "L"
# The roster choices that count planets, and the planet kind each one counts.
PLANET_CHOICES: tuple[tuple[str, str], ...] = (
    ("poor_planets", "Poor"), ("rich_planets", "Rich"), ("homeworlds", "Homeworld"))

# -- catalog models ---------------------------------------------------------------------------

def half_up(value: int, divisor: int) -> int:
    """`value / divisor` rounded up: a Force 1 Leader still costs 1, never nothing."""
    return -(-value // divisor)


@dataclass(frozen=True, kw_only=True)
class Chit(Unit):
    """One unit of a faction's chit pile. `category` is "Space" or "Ground"."""

    pile: int
    speed: str
    types: tuple[str, ...]  # the printed letters, "VL" split into ("V", "L")
    force: int
    cost: int  # recruit cost of one chit: Force, Leaders half rounded up
    note: str | None = None
    fortification: bool = False

    @classmethod
    def from_schema(cls, model: UnitModel, origin: Origin, cost_divisor: int,
                    type_names: Mapping[str, str]) -> Chit:
        leader = LEADER in model.types
        return cls(name=model.name, faction=model.faction,
                   category="Space" if SPACE in model.types else "Ground",
                   keywords=tuple(type_names.get(t, t) for t in model.types),
                   pile=model.pile, speed=model.speed, types=tuple(model.types),
                   force=model.force, note=model.note, fortification=model.fortification,
                   cost=half_up(model.force, cost_divisor) if leader else model.force,
                   origin=origin)

    @property
    def is_space(self) -> bool:
        return SPACE in self.types

    @property
    def is_leader(self) -> bool:
        return LEADER in self.types

    def has_type(self, letter: str) -> bool:
        """True for a printed letter, and for the two the seed never prints: G (not a Space
        unit) and F (Fast speed), so card bonuses can name any of the ten letters."""
        if letter == GROUND:
            return not self.is_space
        if letter == FAST:
            return self.speed == "Fast" or FAST in self.types
        return letter in self.types


@dataclass(frozen=True, kw_only=True)
class ActionCard(Card):
    """A card of the action deck, with its effect as data for a move and battle resolver."""

    kind: str
    stacks: int | None = None
    bonus: int | None = None
    bonus_types: tuple[str, ...] = ()
    scope: str | None = None
    transports: bool = False
    look_at: str | None = None
    cost: int | None = None
    upgrade_from: str | None = None
    upgrade_to: str | None = None

    @classmethod
    def from_schema(cls, model: CardModel) -> ActionCard:
        return cls(name=model.name, count=model.count, text=model.text, kind=model.kind,
                   stacks=model.stacks, bonus=model.bonus, bonus_types=tuple(model.bonus_types),
                   scope=model.scope, transports=model.transports, look_at=model.look_at,
                   cost=model.cost, upgrade_from=model.upgrade_from, upgrade_to=model.upgrade_to)


@dataclass(frozen=True, kw_only=True)
class ActionDeck(Deck):
    cards: tuple[ActionCard, ...]


@dataclass(frozen=True, kw_only=True)
class UnitType:
    letter: str
    name: str
    text: str
    origin: Origin = BUILTIN


@dataclass(frozen=True, kw_only=True)
class Speed:
    name: str
    letter: str
    min_move: int
    max_move: int
    origin: Origin = BUILTIN


@dataclass(frozen=True, kw_only=True)
class PlanetKind:
    name: str
    revenue: int
    recruit_limit: int  # units recruited there per turn
    recruits_space: bool  # False: ground units only
    origin: Origin = BUILTIN


@dataclass(frozen=True, kw_only=True)
class Phase:
    name: str
    text: str
    origin: Origin = BUILTIN


@dataclass(frozen=True, kw_only=True)
class Abbreviation:
    code: str
    meaning: str
    origin: Origin = BUILTIN


@dataclass(frozen=True, kw_only=True)
class UnitNote:
    code: str
    name: str
    faction: str
    origin: Origin = BUILTIN


@dataclass(frozen=True, kw_only=True)
class Constants:
    setup_space_units: int
    setup_ground_units: int
    hand_draw: int
    hand_max: int
    leader_bonus: int
    card_bonus: int
    transport_force_in_space: int
    bombard_force_divisor: int
    leader_cost_divisor: int
    upkeep_units_per_revenue: int
    recruit_draw: int
    recruit_bonus_draw: str
    transport_speed: str
    fortification_move: int
    victory_planet_percent: int

    @classmethod
    def from_schema(cls, model: ConstantsModel) -> Constants:
        return cls(**model.model_dump())


@dataclass(frozen=True, kw_only=True)
class SpaceEmpiresCatalog(Catalog[Chit]):
    decks: tuple[ActionDeck, ...] = ()
    unit_types: tuple[UnitType, ...] = ()
    speeds: tuple[Speed, ...] = ()
    planets: tuple[PlanetKind, ...] = ()
    phases: tuple[Phase, ...] = ()
    abbreviations: tuple[Abbreviation, ...] = ()
    notes: tuple[UnitNote, ...] = ()
    constants: Constants

    def planet(self, name: str) -> PlanetKind | None:
        return next((p for p in self.planets if p.name.casefold() == name.casefold()), None)

    def speed(self, name: str) -> Speed | None:
        return next((s for s in self.speeds if s.name.casefold() == name.casefold()), None)

    def action_deck(self, name: str) -> ActionDeck | None:
        return named(self.decks, name)

    def pile(self, faction: str) -> tuple[Chit, ...]:
        return self._piles.get(faction.casefold(), ())

    def tickets(self, faction: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The faction's pile as a draw sees it, space chits then ground chits: a ticket for
        each chit (a unit's name as often as its pile holds it), in the pile's order."""
        found = self._tickets.get(faction.casefold())
        if found is None:
            pile = self.pile(faction)
            found = (tuple(c.name for c in pile if c.is_space for _ in range(c.pile)),
                     tuple(c.name for c in pile if not c.is_space for _ in range(c.pile)))
            if faction.casefold() in self._piles:  # names from strangers are not kept
                self._tickets[faction.casefold()] = found
        return found

    @cached_property
    def _piles(self) -> Mapping[str, tuple[Chit, ...]]:
        """Each faction's chits, by its name casefolded: an index of `units`."""
        index: dict[str, list[Chit]] = {}
        for unit in self.units:
            index.setdefault((unit.faction or "").casefold(), []).append(unit)
        return {name: tuple(chits) for name, chits in index.items()}

    @cached_property
    def _tickets(self) -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
        return {}  # filled by `tickets`, one faction of the catalog at a time


# -- building the catalog ---------------------------------------------------------------------

Docs = Sequence[tuple[Origin, SpaceEmpiresFile]]
