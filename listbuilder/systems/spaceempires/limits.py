"""One empire at its Recruit Phase: the choices read once, the starting draw and the limits
its recruits must keep (cost, recruit limits, upkeep, chit piles)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from listbuilder.engine.model import Roster, RosterEntry
from listbuilder.engine.system import Priced, Section, Violation, plural, where_entry
from listbuilder.systems.spaceempires.model import (
    PLANET_CHOICES,
    Chit,
    PlanetKind,
    SpaceEmpiresCatalog,
)

CHOICE_DEFAULTS: Mapping[str, int] = {"poor_planets": 0, "rich_planets": 0, "homeworlds": 1,
                                      "treasury": 0}
# What each choice can be: the seed is ours (any draw a player may want to type again); the
# planets are what an empire still in play can hold and the treasury what it can have saved
# (docs/rules-notes.md, "How many planets can an empire hold?").
CHOICE_RANGES: Mapping[str, tuple[int, int]] = {
    "seed": (0, 999_999_999), "poor_planets": (0, 48), "rich_planets": (0, 48),
    "homeworlds": (0, 8), "treasury": (0, 9_999)}
# ... and every planet it holds together, of whatever kind: 80% of the 60-planet map (more
# would have won the game)
MOST_PLANETS = 48
HOLDING = "how-many-planets-can-an-empire-hold"


@dataclass(frozen=True)
class StartingForces:
    """The chits an empire starts with on its Homeworld, in the order they were drawn."""

    space: tuple[str, ...] = ()
    ground: tuple[str, ...] = ()

    @property
    def total(self) -> int:
        return len(self.space) + len(self.ground)

    def counts(self) -> Counter[str]:
        return Counter(self.space + self.ground)


def starting_forces(catalog: SpaceEmpiresCatalog, faction: str, seed: int) -> StartingForces:
    """Draw the setup's space and ground chits from the faction's pile, one chit at a time.

    Every chit is a separate ticket (a unit with pile 4 is four times as likely as one with
    pile 1) and no chit is drawn twice. Leaders are chits of the pile like any other, so they
    can be drawn. The same catalog, faction and seed always give the same draw.
    """
    rng = random.Random(seed)
    space, ground = catalog.tickets(faction)
    k = catalog.constants
    return StartingForces(
        space=tuple(rng.sample(space, min(k.setup_space_units, len(space)))),
        ground=tuple(rng.sample(ground, min(k.setup_ground_units, len(ground)))))


@dataclass(frozen=True)
class Empire:
    """A roster's choices, read once, with what they give this turn. A count out of its range
    is read as the nearest it can be here (`_check_choices` reports it), so one bad choice
    gives one message: 99,999 Poor planets are not 99,999 recruits a turn."""

    seed: int | None
    planets: tuple[tuple[PlanetKind, int], ...]
    treasury: int
    faction: str | None

    @classmethod
    def of(cls, catalog: SpaceEmpiresCatalog, roster: Roster) -> Empire:
        held = tuple((kind, _choice(roster, key)) for key, name in PLANET_CHOICES
                     if (kind := catalog.planet(name)) is not None)
        seed = roster.choices.get("seed")
        faction = roster.factions[0] if len(roster.factions) == 1 else None
        return cls(seed if isinstance(seed, int) else None, held, _choice(roster, "treasury"),
                   faction if faction and catalog.faction(faction) else None)

    @property
    def revenue(self) -> int:
        return sum(kind.revenue * n for kind, n in self.planets)

    @property
    def available(self) -> int:
        return self.revenue + self.treasury

    @property
    def recruit_limit(self) -> int:
        return sum(kind.recruit_limit * n for kind, n in self.planets)

    @property
    def space_limit(self) -> int:
        return sum(kind.recruit_limit * n for kind, n in self.planets
                   if kind.recruits_space)

    def describe_planets(self) -> str:
        return ", ".join(f"{kind.name} {n}" for kind, n in self.planets)

    def draw(self, catalog: SpaceEmpiresCatalog) -> StartingForces | None:
        if self.seed is None or self.faction is None:
            return None
        return starting_forces(catalog, self.faction, self.seed)


def _choice(roster: Roster, key: str) -> int:
    value = roster.choices.get(key, CHOICE_DEFAULTS[key])
    low, high = CHOICE_RANGES[key]
    return min(max(value, low), high) if isinstance(value, int) else CHOICE_DEFAULTS[key]


Recruit = tuple[int, RosterEntry, Chit]  # an entry naming a chit of the pile, with its index


def recruits_of(priced: Sequence[Priced[Chit]]) -> list[Recruit]:
    """The entries priced (those naming a chit of the pile), as recruits."""
    return [(p.index, p.entry, p.unit) for p in priced]


def check(catalog: SpaceEmpiresCatalog, roster: Roster,
          priced: Sequence[Priced[Chit]]) -> list[Violation]:
    """Space Empires' own limits (`RuleSystem.check`)."""
    return check_empire(catalog, Empire.of(catalog, roster), roster, recruits_of(priced))


def sections(catalog: SpaceEmpiresCatalog, roster: Roster) -> tuple[Section, ...]:
    """The blocks beside the totals (`RuleSystem.sections`): the starting draw."""
    return (draw_section(catalog, Empire.of(catalog, roster)),)


def _tally(names: Sequence[str]) -> str:
    counts = Counter(names)
    return ", ".join(f"{name} x{n}" if n > 1 else name for name, n in sorted(counts.items()))


def _check_choices(roster: Roster) -> list[Violation]:
    out: list[Violation] = []
    if not isinstance(roster.choices.get("seed"), int):
        out.append(Violation("spaceempires.seed-missing", "error", "roster",
                             "No seed for the starting draw: set choices.seed to any whole "
                             "number."))
    for key, (low, high) in CHOICE_RANGES.items():
        value = roster.choices.get(key)
        if isinstance(value, int) and value < low:
            out.append(Violation("spaceempires.negative-choice", "error", "roster",
                                 f"{key} is {value}; it cannot be below 0: set it to 0 or more."))
        elif isinstance(value, int) and value > high:
            seed = key == "seed"  # ours, not the rules': no reading decides it
            most = (f"a seed is at most {high:,}" if seed
                    else f"an empire holds at most {high} of a kind"
                    if key in dict(PLANET_CHOICES) else f"an empire saves at most {high:,}")
            out.append(Violation(
                "spaceempires.choice-too-large", "error", "roster",
                f"{key} is {value}; {most}: set it to {high:,} or less.",
                reading=None if seed else HOLDING))
    held = {key: roster.choices.get(key, CHOICE_DEFAULTS[key]) for key, _ in PLANET_CHOICES}
    if not out and all(isinstance(n, int) for n in held.values()) \
            and sum(held.values()) > MOST_PLANETS:
        kinds = ", ".join(f"{name} {held[key]}" for key, name in PLANET_CHOICES)
        out.append(Violation(
            "spaceempires.too-many-planets", "error", "roster",
            f"The empire holds {sum(held.values())} planets ({kinds}); an empire holding more "
            f"than {MOST_PLANETS} (80% of the largest map) has won: hold {MOST_PLANETS} or "
            f"fewer in all.", reading=HOLDING))
    return out


def spent(recruits: Sequence[Recruit]) -> int:
    """The revenue this turn's recruits cost."""
    return sum(c.cost * e.count for _, e, c in recruits)


def _check_cost(empire: Empire, recruits: Sequence[Recruit]) -> list[Violation]:
    cost = spent(recruits)
    if cost <= empire.available:
        return []
    # the halving of an odd Force is our reading; an even one is the rule as printed
    odd_leader = any(c.is_leader and c.force % 2 for _, _, c in recruits)
    return [Violation(
        "spaceempires.recruit-cost", "error", "roster",
        f"Recruits cost {cost} revenue; revenue {empire.revenue} + treasury "
        f"{empire.treasury} gives {empire.available} to spend: remove recruits costing "
        f"{cost - empire.available} or more (a Leader costs half its Force).",
        reading="what-does-a-leader-cost-when-its-force-is-odd" if odd_leader else None)]


def _check_recruit_limits(empire: Empire, recruits: Sequence[Recruit]) -> list[Violation]:
    out: list[Violation] = []
    n = sum(e.count for _, e, _ in recruits)
    if n > empire.recruit_limit:
        out.append(Violation(
            "spaceempires.recruit-limit", "error", "roster",
            f"{plural(n, 'recruit')}; your planets ({empire.describe_planets()}) recruit "
            f"{empire.recruit_limit} a turn: remove {n - empire.recruit_limit}."))
    space = sum(e.count for _, e, c in recruits if c.is_space)
    if space > empire.space_limit:
        out.append(Violation(
            "spaceempires.space-recruit-limit", "error", "roster",
            f"{plural(space, 'space unit')} recruited; only Rich worlds and Homeworlds recruit "
            f"them, {empire.space_limit} a turn here: remove {space - empire.space_limit} "
            f"space {'unit' if space - empire.space_limit == 1 else 'units'}."))
    return out


def _check_upkeep(catalog: SpaceEmpiresCatalog, empire: Empire, recruits: Sequence[Recruit],
                  draw: StartingForces | None) -> list[Violation]:
    start = draw.total if draw else 0
    n = sum(e.count for _, e, _ in recruits)
    per = catalog.constants.upkeep_units_per_revenue
    upkeep = per * empire.revenue
    excess = start + n - upkeep
    if excess <= 0:
        return []
    # the starting draw can't be put back in the builder: past the recruits, what the player
    # can change is the planets held (each revenue keeps `per` units more)
    more = -(-(excess - n) // per)
    kinds = ", ".join(f"{k.name} {k.revenue}" for k, _ in empire.planets)
    fix = (f"recruit {excess} fewer" if excess <= n else
           f"{'remove every recruit and ' if n else ''}set the planets you hold to "
           f"{more} more revenue ({kinds} each); at the table the rules would have you "
           f"discard {excess - n} starting units instead")
    return [Violation(
        "spaceempires.upkeep", "error", "roster",
        f"{plural(start + n, 'unit')} ({start} at start + {n} recruited); upkeep keeps "
        f"{per} x {empire.revenue} revenue = {upkeep}: {fix}.")]


def _check_piles(recruits: Sequence[Recruit], draw: StartingForces | None) -> list[Violation]:
    drawn = draw.counts() if draw else Counter[str]()
    by_unit: dict[tuple[str, str], list[Recruit]] = {}
    for recruit in recruits:
        chit = recruit[2]
        by_unit.setdefault((chit.faction or "", chit.name), []).append(recruit)
    out: list[Violation] = []
    for (_, name), group in by_unit.items():
        chit = group[0][2]
        if any(e.count > chit.pile for _, e, _ in group):
            continue  # roster.count-bounds already says this entry alone is too many
        recruited = sum(e.count for _, e, _ in group)
        start = drawn[name]
        excess = start + recruited - chit.pile
        if excess > 0:
            i, entry, _ = group[0]
            out.append(Violation(
                "spaceempires.chit-pile", "error", where_entry(i, entry),
                f"{name}: {start} drawn at start + {recruited} recruited = "
                f"{start + recruited} chits; the pile holds {chit.pile}: recruit {excess} "
                f"fewer."))
    return out


def check_empire(catalog: SpaceEmpiresCatalog, empire: Empire, roster: Roster,
                 recruits: Sequence[Recruit]) -> list[Violation]:
    """Every limit the empire's recruits break this turn."""
    draw = empire.draw(catalog)
    return [*_check_choices(roster), *_check_cost(empire, recruits),
            *_check_recruit_limits(empire, recruits),
            *_check_upkeep(catalog, empire, recruits, draw), *_check_piles(recruits, draw)]


def headline(empire: Empire, recruits: Sequence[Recruit]) -> str:
    """The total as a player reads it: what the recruits cost out of what there is to spend."""
    return f"{spent(recruits)} of {empire.available} revenue spent"


@dataclass(frozen=True)
class _Counts:
    """What the summary measures against the empire's limits."""

    cost: int
    recruited: int
    space: int
    at_start: int
    upkeep: int

    @classmethod
    def of(cls, catalog: SpaceEmpiresCatalog, empire: Empire,
           recruits: Sequence[Recruit]) -> _Counts:
        draw = empire.draw(catalog)
        return cls(cost=spent(recruits), recruited=sum(e.count for _, e, _ in recruits),
                   space=sum(e.count for _, e, c in recruits if c.is_space),
                   at_start=draw.total if draw else 0,
                   upkeep=catalog.constants.upkeep_units_per_revenue * empire.revenue)


def summary_lines(catalog: SpaceEmpiresCatalog, empire: Empire,
                  recruits: Sequence[Recruit]) -> tuple[tuple[str, str], ...]:
    c = _Counts.of(catalog, empire, recruits)
    n, start = c.recruited, c.at_start
    left = empire.available - c.cost
    return (
        ("Revenue", f"{empire.revenue} this turn ({empire.describe_planets()})"),
        ("Treasury", f"{empire.treasury} saved"),
        ("Spent", f"{c.cost} of {empire.available} (revenue {empire.revenue} + treasury "
                  f"{empire.treasury}); " + (f"{left} left" if left >= 0 else
                                            f"{-left} over")),
        ("Recruits", f"{n}/{empire.recruit_limit} (space {c.space}/{empire.space_limit})"),
        ("Units", f"{start + n}/{c.upkeep} upkeep ({start} at start + {n} recruited)"),
    )


def brief_lines(catalog: SpaceEmpiresCatalog, empire: Empire,
                recruits: Sequence[Recruit]) -> tuple[tuple[str, str], ...]:
    """The summary's limits as fractions, short enough to sit side by side in the builder's
    strip. What is spent is the strip's headline already (`headline`); revenue and treasury
    are the roster's own choices, shown in full below it."""
    c = _Counts.of(catalog, empire, recruits)
    return (("Recruits", f"{c.recruited}/{empire.recruit_limit}"),
            ("Space", f"{c.space}/{empire.space_limit}"),
            ("Units", f"{c.at_start + c.recruited}/{c.upkeep}"))


def draw_section(catalog: SpaceEmpiresCatalog, empire: Empire) -> Section:
    """The starting draw, under its own title: what the empire holds before recruiting."""
    draw = empire.draw(catalog)
    if draw is None:
        return Section("Starting draw", (("Not drawn", "choose one faction and a seed"),))
    return Section(f"Starting draw (seed {empire.seed})", (
        ("Space units", _tally(draw.space)), ("Ground units", _tally(draw.ground))))
