"""Space Empires at the table: the match tracker's rules of play (`RuleSystem.play()`).

A match starts from each player's roster as the builder leaves it: the empire's planets, its
starting draw and the chits it recruited, the treasury left after paying for them (revenue +
saved - spent), and the shared 49-card action deck, full. Then the game turns run, each through
the seven Warp Empires phases, both empires acting in each phase (Draw, Move, Battle, Revenue,
Recruit, Upkeep, Control); `next-phase` moves the game on once the phase's duties are done.

What is kept, per side: planets held by kind, the treasury and each turn's revenue, every chit
kind of its pile (in play, in the pile, lost, captured, recruited), its hand of cards and what
it recruited where this turn. For the game: the deck and the discards, the battle being fought
and those fought, the turn and the phase. No map is kept (the module prints none): stacks are
named when they meet in battle, and planets change hands by `capture` in the Control Phase.

A battle is opened, its stacks joined chit by chit, force cards played into it, resolved with
the battle maths of `resolve.py` (Force totals, Leader bonus, cards, transports at 0 in space,
bombarding ships at half), and its losses applied one `lose` at a time, or all at once as
`resolve.py` picks them. The game ends when an empire holds more than 80% of the map's planets.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, ClassVar, cast

from listbuilder.engine.match import (
    Event,
    Kind,
    Match,
    Outcome,
    Play,
    Refused,
    Setting,
    Standing,
    Track,
    Value,
    event,
    with_side,
)
from listbuilder.engine.system import RuleSystem
from listbuilder.engine.word_counts import WordCounts, joined, split_words
from listbuilder.systems.spaceempires.limits import Empire
from listbuilder.systems.spaceempires.model import (
    ActionCard,
    Chit,
    Constants,
    PlanetKind,
    SpaceEmpiresCatalog,
)
from listbuilder.systems.spaceempires.resolve import GROUND, SPACE, battle, card_bonus, card_key
from listbuilder.systems.spaceempires.resolve import SIDES as SIDE_WORDS

# The seven phases of a Warp Empires game turn, in order (the seed's turn sequence).
PHASES = ("Draw", "Move", "Battle", "Revenue", "Recruit", "Upkeep", "Control")
DRAW, MOVE, BATTLE, REVENUE, RECRUIT, UPKEEP, CONTROL = range(len(PHASES))
WHERE = (SPACE, GROUND)
# The module prints no map: the players say how many planets theirs has (option `planets`).
# 20 is our default; 60 is the largest map the roster rules allow for (docs/rules-notes.md,
# "How many planets can an empire hold?").
DEFAULT_MAP_PLANETS = 20
MAX_MAP_PLANETS = 60
# Card kinds of the action deck (data/decks/action.yaml)
MOVE_CARD, FORCE_CARD, LOOK_CARD, UPGRADE_CARD, CANCEL_CARD = (
    "move", "force", "look", "upgrade", "cancel-move")


@dataclass(frozen=True)
class ChitState:
    """One kind of chit of a side's pile and where its chits are. `row` is its number in the
    side's unit list (roster entries keep their entry numbers); 0: never in play yet."""

    name: str
    pile: int  # chits of this kind the faction has in all
    in_play: int = 0
    lost: int = 0  # destroyed in battle: back in the pile
    disbanded: int = 0  # discarded at upkeep: back in the pile
    captured: int = 0  # Leaders taken by the enemy: set aside, out of the pile
    recruited: int = 0  # bought during the match
    row: int = 0

    @property
    def in_pile(self) -> int:
        return max(0, self.pile - self.in_play - self.captured)


@dataclass(frozen=True)
class SideState:
    """One empire: what it holds, what it has saved, its chits and its hand."""

    name: str
    faction: str
    chits: tuple[ChitState, ...]  # every kind of its pile, in the pile's order
    units: tuple[Chit, ...] = field(compare=False, repr=False)  # the same kinds, as data
    planets: tuple[int, ...]  # held of each planet kind (Poor, Rich, Homeworld)
    treasury: int
    hand: tuple[int, ...]  # cards of each kind of the deck held
    drawn: int = 0  # cards drawn this Draw Phase
    recruits: tuple[int, ...] = ()  # chits recruited at each planet kind this turn
    spent: int = 0  # revenue spent this turn
    moves: int = 0  # move cards played this Move Phase (a Decoy Force needs one to cancel)
    income: tuple[tuple[int, int, int], ...] = ()  # (turn, revenue, treasury after it)

    def chit(self, name: str) -> int | None:
        key = name.strip().casefold()
        return next((i for i, c in enumerate(self.chits) if c.name.casefold() == key), None)

    @property
    def in_play(self) -> int:
        return sum(c.in_play for c in self.chits)

    def with_chit(self, i: int, **changes: Any) -> SideState:
        chits = list(self.chits)
        chits[i] = replace(chits[i], **changes)
        return replace(self, chits=tuple(chits))


@dataclass(frozen=True)
class BattleState:
    """A battle: who attacked, where, each side's stack (chit names, as joined), the cards
    played into it, and once resolved the result and the losses taken so far."""

    number: int
    turn: int
    where: str
    attacker: int
    stacks: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # by side - 1
    cards: tuple[tuple[int, str], ...] = ()  # (side, card)
    resolved: bool = False
    winner: int | None = None  # None once resolved: a standoff
    forced: bool = False  # ships against transports only: the ships win, losing nothing
    force: tuple[Fraction, Fraction] = (Fraction(0), Fraction(0))  # by side - 1, cards in
    need: int = 0  # units the beaten stack loses
    lost: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # by side - 1, in order
    lost_force: tuple[Fraction, Fraction] = (Fraction(0), Fraction(0))  # as they fought
    captured: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # Leaders taken
    suggested: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # resolve.py's picks

    def left(self, side: int) -> Counter[str]:
        """The side's chits still standing in this battle."""
        return Counter(self.stacks[side - 1]) - Counter(self.lost[side - 1])

    @property
    def loser(self) -> int | None:
        return None if self.winner is None else 3 - self.winner

    @property
    def owed(self) -> Fraction:
        """Force the winner gives up: half what the beaten stack lost (nothing for ships
        that faced only transports)."""
        if self.loser is None or self.forced:
            return Fraction(0)
        return self.lost_force[self.loser - 1] / 2

    def loser_done(self) -> bool:
        loser = self.loser
        return loser is None or len(self.lost[loser - 1]) >= self.need \
            or not self.left(loser)

    def winner_done(self) -> bool:
        if self.winner is None:
            return True
        return self.loser_done() and (self.lost_force[self.winner - 1] >= self.owed
                                      or not self.left(self.winner))


@dataclass(frozen=True)
class SpaceEmpiresState:
    sides: tuple[SideState, ...]
    deck: tuple[int, ...]  # cards of each kind left to draw
    discard: tuple[int, ...]
    map_planets: int
    cards: tuple[ActionCard, ...] = field(compare=False, repr=False)
    planet_kinds: tuple[PlanetKind, ...] = field(compare=False, repr=False)
    catalog: SpaceEmpiresCatalog = field(compare=False, repr=False)
    turn: int = 1
    phase: int = DRAW
    battle: BattleState | None = None
    battles: tuple[BattleState, ...] = ()
    ground_fought: bool = False  # a ground battle this phase: no space battle may follow
    refill: bool = False  # a battle has just ended: hands fill back to 7 before play goes on
    reshuffles: int = 0
    ended_by: str = ""
    conceded: int | None = None  # the side that gave up: the game is over at once

    @property
    def rules(self) -> Constants:
        return self.catalog.constants

    def side(self, n: int) -> SideState:
        return self.sides[n - 1]

    def with_side(self, n: int, new: SideState) -> SpaceEmpiresState:
        return replace(self, sides=with_side(self.sides, n, new))

    def card(self, name: str) -> int | None:
        key = name.strip().casefold()
        return next((i for i, c in enumerate(self.cards) if c.name.casefold() == key), None)

    def planet(self, name: str) -> int | None:
        key = name.strip().casefold()
        return next((i for i, p in enumerate(self.planet_kinds)
                     if p.name.casefold() == key), None)

    def revenue(self, n: int) -> int:
        return sum(k.revenue * held for k, held in zip(self.planet_kinds,
                                                       self.side(n).planets, strict=True))

    def upkeep(self, n: int) -> int:
        return self.rules.upkeep_units_per_revenue * self.revenue(n)

    def held(self, n: int) -> int:
        return sum(self.side(n).planets)

    @property
    def unclaimed(self) -> int:
        return self.map_planets - sum(self.held(n) for n in range(1, len(self.sides) + 1))


# -- start ------------------------------------------------------------------------------------

def _start_side(player_name: str, catalog: SpaceEmpiresCatalog, roster_entries: Sequence[Any],
                empire: Empire, priced: Sequence[Any], n_cards: int,
                n_planets: int) -> SideState:
    faction = empire.faction or ""
    units: list[Chit] = list(catalog.pile(faction))
    for p in priced:  # a unit of another faction (an illegal roster) still gets its row
        if all(u.name != p.unit.name for u in units):
            units.append(p.unit)
    draw = empire.draw(catalog)
    in_play: Counter[str] = Counter(draw.counts() if draw else {})
    rows: dict[str, int] = {}
    for p in priced:  # roster entries keep their numbers
        in_play[p.unit.name] += p.entry.count
        rows.setdefault(p.unit.name, p.index + 1)
    next_row = len(roster_entries) + 1
    for u in units:
        if in_play[u.name] and u.name not in rows:
            rows[u.name] = next_row
            next_row += 1
    chits = tuple(ChitState(u.name, u.pile, in_play=in_play[u.name], row=rows.get(u.name, 0))
                  for u in units)
    planets = tuple(held for _, held in empire.planets)
    spent = sum(p.cost for p in priced)
    return SideState(player_name, faction, chits, tuple(units),
                     planets + (0,) * (n_planets - len(planets)),
                     max(0, empire.available - spent), (0,) * n_cards,
                     recruits=(0,) * n_planets)


def start_state(match: Match,
                system: RuleSystem[SpaceEmpiresCatalog, Chit]) -> SpaceEmpiresState:
    catalogs = [cast(SpaceEmpiresCatalog, p.catalog) for p in match.players]
    base = catalogs[0]
    cards = tuple(c for deck in base.decks for c in deck.cards)
    kinds = base.planets
    sides = []
    for player, catalog in zip(match.players, catalogs, strict=True):
        empire = Empire.of(catalog, player.roster)
        sides.append(_start_side(player.name, catalog, player.roster.entries, empire,
                                 system.priced(catalog, player.roster), len(cards),
                                 len(kinds)))
    held = sum(sum(s.planets) for s in sides)
    wanted = match.option("planets", DEFAULT_MAP_PLANETS)
    if isinstance(wanted, bool) or not isinstance(wanted, int):
        wanted = DEFAULT_MAP_PLANETS
    # a map smaller than what the empires hold is read as just big enough to hold them
    map_planets = max(held, min(wanted, MAX_MAP_PLANETS))
    return SpaceEmpiresState(tuple(sides), tuple(c.count for c in cards), (0,) * len(cards),
                             map_planets, cards, kinds, base)


# -- helpers ----------------------------------------------------------------------------------

def _who(s: SpaceEmpiresState, side: int) -> str:
    return s.side(side).name


def _chit_of(s: SpaceEmpiresState, side: int, name: str) -> int:
    i = s.side(side).chit(name)
    if i is None:
        raise Refused(f"{_who(s, side)}'s pile ({s.side(side).faction}) has no '{name}'",
                      "Name a unit of that faction's list, as printed.")
    return i


def _card_of(s: SpaceEmpiresState, name: str) -> int:
    i = s.card(name)
    if i is None:
        raise Refused(f"the action deck has no card '{name}'",
                      "Use a card name: " + ", ".join(c.name for c in s.cards) + ".")
    return i


def _planet_of(s: SpaceEmpiresState, name: str) -> int:
    i = s.planet(name)
    if i is None:
        raise Refused(f"there is no planet kind '{name}'",
                      "Use " + ", ".join(p.name for p in s.planet_kinds) + ".")
    return i


def _need_phase(s: SpaceEmpiresState, *phases: int, what: str) -> None:
    if s.phase not in phases:
        names = " or ".join(f"the {PHASES[p]} Phase" for p in phases)
        raise Refused(f"{what} only in {names}; it is the {PHASES[s.phase]} Phase",
                      "Wait for that phase (next-phase moves the game on).")


def _hand_size(side: SideState) -> int:
    return sum(side.hand)


def _can_draw(s: SpaceEmpiresState) -> bool:
    return sum(s.deck) + sum(s.discard) > 0


def _room(s: SpaceEmpiresState, me: SideState) -> int:
    """How many cards the side may draw now by the phase's rule: what is left of the Draw
    Phase's 5, or, just after a battle, what fills the hand to 7. Refused when none."""
    k = s.rules
    if s.phase == DRAW:
        if me.drawn >= k.hand_draw:
            raise Refused(f"{me.name} has drawn the {k.hand_draw} cards of this Draw Phase",
                          f"Discard down to {k.hand_max} if need be, then go to the "
                          f"next phase.")
        return k.hand_draw - me.drawn
    if s.phase == BATTLE:
        # after a battle both sides fill their hands back up to the most they may hold
        if s.battle is not None:
            raise Refused(f"battle {s.battle.number} is being fought",
                          "Finish it; then both sides fill their hands.")
        if _hand_size(me) >= k.hand_max:
            raise Refused(f"{me.name} already holds {_hand_size(me)} cards",
                          f"Fill a hand to {k.hand_max} only.")
        if not s.refill:
            raise Refused(f"cards are drawn in the Battle Phase only to fill the hands to "
                          f"{k.hand_max} just after a battle",
                          "Draw at the next Draw Phase.")
        return k.hand_max - _hand_size(me)
    _need_phase(s, DRAW, BATTLE, what="cards are drawn")
    return 0


def _n_cards(n: int) -> str:
    return f"{n} card" + ("" if n == 1 else "s")


def _card_list(s: SpaceEmpiresState, pile: Sequence[int]) -> str:
    """A pile's cards in words: "Recon, 2x Barrage"."""
    return ", ".join(f"{n}x {c.name}" if n > 1 else c.name
                     for c, n in zip(s.cards, pile, strict=True) if n) or "none"


def _draw_event(s: SpaceEmpiresState, side: int, picks: Sequence[int]) -> Event:
    """A draw-cards event for `picks` (card indexes, a card as often as drawn)."""
    return event("draw-cards", side,
                 cards=joined((s.cards[i].name, n) for i, n in Counter(picks).items()))


def _fought(chit: Chit, where: str, attacker: bool, c: Constants) -> Fraction:
    """The Force a chit fights with: ground units ride transports in space, and the invader's
    ships bombard a planet at half their Force."""
    if where == SPACE:
        return Fraction(chit.force) if chit.is_space else Fraction(c.transport_force_in_space)
    if chit.is_space:
        return Fraction(chit.force, c.bombard_force_divisor) if attacker else Fraction(0)
    return Fraction(chit.force)


def _last_rank(chit: Chit, where: str) -> bool:
    """Lost only after the rest of its stack: transports in space, bombarding ships."""
    return chit.is_space == (where == GROUND)


def _num(x: Fraction) -> int | float:
    return int(x) if x.denominator == 1 else float(x)


def _unit_of(side: SideState, name: str) -> Chit:
    i = side.chit(name)
    assert i is not None
    return side.units[i]


# -- the rules of play ------------------------------------------------------------------------

class SpaceEmpiresPlay(Play[SpaceEmpiresState]):
    system: RuleSystem[SpaceEmpiresCatalog, Chit]
    settings: ClassVar[tuple[Setting, ...]] = (
        Setting("planets", "Planets on the map", 1, MAX_MAP_PLANETS, DEFAULT_MAP_PLANETS,
                f"All the planets of your map, yours included (at most {MAX_MAP_PLANETS}); "
                f"{DEFAULT_MAP_PLANETS} if left empty. A map smaller than the empires hold is "
                f"read as just big enough."),)
    kinds: ClassVar[Mapping[str, Kind]] = {
        "draw": Kind("Draw a card", unit=False, values={"card": str}),
        "draw-cards": Kind("Draw cards", unit=False, values={"cards": str},
                           words={"cards": "({})"}, asks={"cards": "Cards drawn"},
                           counts=WordCounts("cards", "Draw the cards picked", "Draw {} card",
                                             "Draw {} cards")),
        "discard": Kind("Discard a card", unit=False, values={"card": str}),
        "play": Kind("Play a card", unit=False, values={"card": str}),
        "battle": Kind("Attack: open a battle", unit=False, values={"where": str},
                       words={"where": {"space": "in space", "ground": "on the ground"}}),
        "join": Kind("Add to the battle", unit=False, values={"chit": str, "count": int},
                     optional=("count",), asks={"count": "How many"}),
        "resolve": Kind("Resolve the battle", side=False, unit=False,
                        values={"apply": bool}, optional=("apply",),
                        words={"apply": ("and remove the losses it chose",
                                         "and pick the losses by hand")}),
        "lose": Kind("Lose a unit in battle", unit=False, values={"chit": str}),
        "recruit": Kind("Recruit", unit=False, values={"chit": str, "planet": str}),
        "disband": Kind("Disband (upkeep)", unit=False, values={"chit": str, "count": int},
                        optional=("count",), asks={"count": "How many"}),
        "capture": Kind("Take control of a planet", unit=False,
                        values={"planet": str, "taken": bool}, optional=("taken",)),
        "next-phase": Kind("Next phase", side=False, unit=False),
        "concede": Kind("Concede the game", unit=False),
    }

    def start(self, match: Match) -> SpaceEmpiresState:
        return start_state(match, self.system)

    def _concede(self, s: SpaceEmpiresState, ev: Event) -> SpaceEmpiresState:
        """A side gives up, in any phase, a battle open or not: the game is over at once."""
        return replace(s, conceded=ev.side or 1)

    # -- cards --------------------------------------------------------------------------------
    def _draw(self, s: SpaceEmpiresState, ev: Event) -> SpaceEmpiresState:
        """One card named (the old one-card draw: match files written before `draw-cards`
        replay as they did)."""
        side, me = ev.side or 1, s.side(ev.side or 1)
        _room(s, me)
        i = _card_of(s, ev.get("card"))
        deck, discard, reshuffles = s.deck, s.discard, s.reshuffles
        if not sum(deck):  # the deck ran out: the discards are shuffled into a new one
            deck, discard, reshuffles = discard, (0,) * len(discard), reshuffles + 1
        if not deck[i]:
            left = sum(deck)
            raise Refused(f"no {s.cards[i].name} is left in the deck"
                          + ("" if left else " (and no discards to shuffle)"),
                          "Name the card drawn: "
                          + ", ".join(c.name for c, n in zip(s.cards, deck, strict=True) if n)
                          + "." if left else "Play on without drawing.")
        deck = _bump(deck, i, -1)
        me = replace(me, hand=_bump(me.hand, i, 1), drawn=me.drawn + (s.phase == DRAW))
        s = replace(s.with_side(side, me), deck=deck, discard=discard, reshuffles=reshuffles)
        return replace(s, refill=_refilling(s)) if s.phase == BATTLE else s

    def _draw_cards(self, s: SpaceEmpiresState, ev: Event) -> SpaceEmpiresState:
        """Several cards in one event, as the player picks them from what they drew: the
        deck's cards first; once it is empty, the discards shuffled into a new deck."""
        side, me = ev.side or 1, s.side(ev.side or 1)
        k = s.rules
        room = _room(s, me)
        names = split_words(str(ev.get("cards")))
        if not names:
            raise Refused("no card is picked", "Pick the cards drawn, then draw them.")
        wanted: Counter[int] = Counter(_card_of(s, name) for name in names)
        total = len(names)
        if total > room:
            why = "this Draw Phase" if s.phase == DRAW else f"to fill the hand to {k.hand_max}"
            raise Refused(f"{me.name} may draw {room} more card{'s' if room > 1 else ''} "
                          f"{why}, not {total}",
                          f"Pick {room} or fewer.")
        pool = sum(s.deck) + sum(s.discard)
        if total > pool:
            raise Refused(f"only {_n_cards(pool)} {'is' if pool == 1 else 'are'} left to draw, "
                          f"deck and discards together, not {total}",
                          f"Pick those {pool}." if pool else "Play on without drawing.")
        deck, discard, reshuffles = s.deck, s.discard, s.reshuffles
        from_deck = Counter({i: min(n, deck[i]) for i, n in wanted.items()})
        rest = wanted - from_deck
        if rest and from_deck.total() < sum(deck):
            # cards from the discards only once every card of the deck is drawn
            i = next(iter(rest))
            name = s.cards[i].name
            if total > sum(deck):
                raise Refused(f"the deck holds only {_n_cards(sum(deck))} "
                              f"({_card_list(s, deck)}), all drawn before the discards are "
                              f"shuffled into a new deck", "Pick every card the deck holds, "
                                                           "then the rest from the discards.")
            if deck[i]:
                raise Refused(f"the deck holds {deck[i]} {name}, not {wanted[i]}",
                              f"Pick {deck[i]} {name} or fewer.")
            raise Refused(f"no {name} is left in the deck",
                          f"Pick the cards drawn from those left: {_card_list(s, deck)}.")
        if rest:
            # the deck is drawn to its last card: the discards become the new deck
            deck, discard, reshuffles = discard, (0,) * len(discard), reshuffles + 1
            for i, n in rest.items():
                if deck[i] < n:
                    name = s.cards[i].name
                    raise Refused(f"the deck runs out, and the discards shuffled into a new one "
                                  f"hold {deck[i] or 'no'} {name}" + (f", not {n}" if deck[i]
                                                                      else ""),
                                  f"Pick the rest from: {_card_list(s, deck)}.")
            taken = rest
        else:
            taken = wanted
        hand = me.hand
        for i, n in wanted.items():
            hand = _bump(hand, i, n)
        for i, n in taken.items():
            deck = _bump(deck, i, -n)
        me = replace(me, hand=hand, drawn=me.drawn + total * (s.phase == DRAW))
        s = replace(s.with_side(side, me), deck=deck, discard=discard, reshuffles=reshuffles)
        return replace(s, refill=_refilling(s)) if s.phase == BATTLE else s

    def _discard(self, s: SpaceEmpiresState, ev: Event) -> SpaceEmpiresState:
        side, me = ev.side or 1, s.side(ev.side or 1)
        i = _card_of(s, ev.get("card"))
        over = _hand_size(me) > s.rules.hand_max
        # cards you don't want go at the start of your Draw Phase; past that, only a hand
        # over the limit is cut
        if not over and not (s.phase == DRAW and me.drawn == 0):
            raise Refused(f"{me.name} may discard only before drawing in the Draw Phase, or a "
                          f"hand over {s.rules.hand_max} cards",
                          "Keep the card, or discard it at the next Draw Phase.")
        if not me.hand[i]:
            raise Refused(f"{me.name} holds no {s.cards[i].name}", _hand_fix(s, me))
        me = replace(me, hand=_bump(me.hand, i, -1))
        return replace(s.with_side(side, me), discard=_bump(s.discard, i, 1))

    def _play(self, s: SpaceEmpiresState, ev: Event) -> SpaceEmpiresState:
        side, me = ev.side or 1, s.side(ev.side or 1)
        i = _card_of(s, ev.get("card"))
        card = s.cards[i]
        if not me.hand[i]:
            raise Refused(f"{me.name} holds no {card.name}", _hand_fix(s, me))
        if card.kind == MOVE_CARD:
            _need_phase(s, MOVE, what=f"{card.name} is played")
            me = replace(me, moves=me.moves + 1)
        elif card.kind == CANCEL_CARD:
            _need_phase(s, MOVE, what=f"{card.name} is played")
            if len(s.sides) > 1 and not s.side(3 - side).moves:
                raise Refused(f"{card.name} cancels an enemy move, and "
                              f"{_who(s, 3 - side)} has played no move card this phase",
                              "Play it when the other side moves a stack.")
        elif card.kind == FORCE_CARD:
            s = self._force_card(s, side, card)
        elif card.kind == UPGRADE_CARD:
            me = _upgrade(s, me, card)
        # a look card (Recon, Intelligence) may be played at any time: it changes nothing kept
        me = replace(me, hand=_bump(me.hand, i, -1))
        return replace(s.with_side(side, me), discard=_bump(s.discard, i, 1))

    def _force_card(self, s: SpaceEmpiresState, side: int, card: ActionCard
                    ) -> SpaceEmpiresState:
        b = s.battle
        if b is None or b.resolved:
            raise Refused(f"{card.name} adds Force in a battle, and no battle is being fought",
                          "Play it after a battle opens and before it is resolved.")
        stack = [_unit_of(s.side(side), n) for n in b.stacks[side - 1]]
        if not stack:
            raise Refused(f"{_who(s, side)} has no units in this battle",
                          "Add units to the battle first (join).")
        if not card_bonus(card, stack, b.where):
            raise Refused(f"none of {_who(s, side)}'s units in this {b.where} battle can take "
                          f"{card.name}'s bonus ({card.text})",
                          "Keep it for a battle where it helps.")
        return replace(s, battle=replace(b, cards=(*b.cards, (side, card.name))))

    # -- battles ------------------------------------------------------------------------------
    def _battle(self, s: SpaceEmpiresState, ev: Event) -> SpaceEmpiresState:
        side = ev.side or 1
        _need_phase(s, BATTLE, what="battles are fought")
        if len(s.sides) < 2:
            raise Refused("a battle needs two players in the match",
                          "Keep a solo game's battles on paper.")
        where = str(ev.get("where")).strip().casefold()
        if where not in WHERE:
            raise Refused(f"a battle is fought in space or on the ground, not '{where}'",
                          "Write where: space or where: ground.")
        if s.battle is not None:
            raise Refused(f"battle {s.battle.number} is not over", _battle_fix(s.battle))
        if where == SPACE and s.ground_fought:
            raise Refused("space battles come before ground battles, and a ground battle has "
                          "been fought this phase", "Fight space battles first next turn.")
        _hands_full(s)
        for n in (side, 3 - side):
            # the defender fights a ground battle with ground units; ships bombard for the
            # invader only
            able = [u for u, c in zip(s.side(n).units, s.side(n).chits, strict=True)
                    if c.in_play and (where == SPACE or n == side or not u.is_space)]
            if not able:
                raise Refused(f"{_who(s, n)} has no units in play that fight in a {where} "
                              f"battle", "Fight another battle, or go to the next phase.")
        number = len(s.battles) + 1
        return replace(s, battle=BattleState(number, s.turn, where, side),
                       ground_fought=s.ground_fought or where == GROUND)

    def _join(self, s: SpaceEmpiresState, ev: Event) -> SpaceEmpiresState:
        side, me = ev.side or 1, s.side(ev.side or 1)
        b = s.battle
        if b is None or b.resolved:
            raise Refused("no battle is waiting for units", "Open a battle first (battle).")
        i = _chit_of(s, side, ev.get("chit"))
        name, unit = me.chits[i].name, me.units[i]
        count = ev.get("count", 1)
        if count < 1:
            raise Refused(f"count is {count}", "Add at least 1 chit.")
        free = me.chits[i].in_play - b.stacks[side - 1].count(name)
        if count > free:
            raise Refused(f"{me.name} has {free} {name} in play and not yet in this battle",
                          f"Add {free} or fewer." if free else "Add a unit it has in play.")
        if b.where == GROUND and unit.is_space and side != b.attacker:
            raise Refused(f"{name} is a ship: a defender's ships fight in space, not in the "
                          f"ground battle", "Fight the space battle for this planet first.")
        stacks = list(b.stacks)
        stacks[side - 1] = (*stacks[side - 1], *(name,) * count)
        return replace(s, battle=replace(b, stacks=(stacks[0], stacks[1])))

    def _resolve(self, s: SpaceEmpiresState, ev: Event) -> SpaceEmpiresState:
        b = s.battle
        if b is None or b.resolved:
            raise Refused("no battle is waiting to be resolved", "Open a battle and add units.")
        att, dfd = b.attacker, 3 - b.attacker
        stacks = ([_unit_of(s.side(att), n) for n in b.stacks[att - 1]],
                  [_unit_of(s.side(dfd), n) for n in b.stacks[dfd - 1]])
        for n, stack in zip((att, dfd), stacks, strict=True):
            if not stack:
                raise Refused(f"{_who(s, n)} has no units in this battle",
                              "Add each side's units first (join).")
        fought = battle(s.catalog, stacks, b.where, True)
        bonus = [0, 0]
        for n, name in b.cards:
            card = s.cards[_card_of(s, name)]
            who = 0 if n == att else 1
            bonus[who] += card_bonus(card, stacks[who], b.where)
        totals = (fought.force[0] + bonus[0], fought.force[1] + bonus[1])
        if fought.forced_winner is not None:
            winner: int | None = att if fought.forced_winner == 0 else dfd
        elif totals[0] == totals[1]:
            winner = None  # a standoff: nobody retreats, nobody is lost
        else:
            winner = att if totals[0] > totals[1] else dfd
        force = (totals[0], totals[1]) if att == 1 else (totals[1], totals[0])
        b = replace(b, resolved=True, winner=winner, forced=fought.forced_winner is not None,
                    force=force)
        if winner is None:
            return _close(s, b)
        pair = fought.losses_if_won[0 if winner == att else 1]  # (attacker's, defender's)
        by_side = (pair[0], pair[1]) if att == 1 else (pair[1], pair[0])
        loser = 3 - winner
        b = replace(b, need=len(by_side[loser - 1]),
                    suggested=(tuple(f.chit.name for f in by_side[0]),
                               tuple(f.chit.name for f in by_side[1])))
        s = replace(s, battle=b)
        # fortifications of a beaten stack fall at once
        for name in b.stacks[loser - 1]:
            if _unit_of(s.side(loser), name).fortification:
                s = _lose(s, loser, name)
        if ev.get("apply", False):
            assert s.battle is not None
            for name in s.battle.suggested[loser - 1][len(s.battle.lost[loser - 1]):]:
                s = _lose(s, loser, name)
            assert s.battle is not None
            for name in s.battle.suggested[winner - 1]:
                s = _lose(s, winner, name)
        return _close_if_paid(s)

    def _lose(self, s: SpaceEmpiresState, ev: Event) -> SpaceEmpiresState:
        side = ev.side or 1
        b = s.battle
        if b is None or not b.resolved:
            raise Refused("units are lost once a battle is resolved",
                          "Resolve the battle first." if b else "Open a battle first.")
        i = _chit_of(s, side, ev.get("chit"))
        me = s.side(side)
        name = me.chits[i].name
        left = b.left(side)
        if not left[name]:
            raise Refused(f"{me.name} has no {name} left in this battle",
                          "Name one of: " + ", ".join(sorted(left)) + "." if left
                          else "Its stack is gone.")
        if side == b.loser:
            if b.loser_done():
                raise Refused(f"{me.name}'s beaten stack has lost its {b.need} units",
                              "Now the winner gives up its share.")
        else:
            if not b.loser_done():
                raise Refused(f"the beaten stack loses its {b.need} units first",
                              f"Name the units {_who(s, 3 - side)} loses.")
            if b.winner_done():
                raise Refused(f"{me.name} has given up units worth "
                              f"{_num(b.lost_force[side - 1])} Force, no less than half the "
                              f"{_num(b.lost_force[3 - side - 1])} its enemy lost",
                              "The battle is over.")
        # casualty order: ships before transports in space, bombarding ships last
        if _last_rank(me.units[i], b.where) and any(
                not _last_rank(_unit_of(me, n), b.where) for n in left):
            first = "its ships" if b.where == SPACE else "its ground units"
            raise Refused(f"{name} is lost only after {first} in this {b.where} battle",
                          "Name one of: " + ", ".join(sorted(
                              n for n in left if not _last_rank(_unit_of(me, n), b.where)))
                          + ".")
        return _close_if_paid(_lose(s, side, name))

    # -- the economy --------------------------------------------------------------------------
    def _recruit(self, s: SpaceEmpiresState, ev: Event) -> SpaceEmpiresState:
        side, me = ev.side or 1, s.side(ev.side or 1)
        _need_phase(s, RECRUIT, what="units are recruited")
        i = _chit_of(s, side, ev.get("chit"))
        p = _planet_of(s, ev.get("planet"))
        chit, unit, kind = me.chits[i], me.units[i], s.planet_kinds[p]
        if not me.planets[p]:
            raise Refused(f"{me.name} holds no {kind.name} planet",
                          "Recruit at a planet you control.")
        room = kind.recruit_limit * me.planets[p] - me.recruits[p]
        if room <= 0:
            raise Refused(f"{me.name}'s {kind.name} planets ({me.planets[p]}) recruit "
                          f"{kind.recruit_limit * me.planets[p]} a turn, all taken",
                          "Recruit at another planet, or next turn.")
        if unit.is_space and not kind.recruits_space:
            raise Refused(f"{chit.name} is a space unit, and a {kind.name} planet recruits "
                          f"ground units only", "Recruit it at a Rich world or a Homeworld.")
        if not chit.in_pile:
            raise Refused(f"no {chit.name} is left in {me.name}'s pile",
                          "Recruit a unit the pile still holds.")
        if unit.cost > me.treasury:
            raise Refused(f"{chit.name} costs {unit.cost} and {me.name} has {me.treasury} "
                          f"to spend", "Recruit something cheaper, or save for next turn.")
        row = chit.row or (1 + max((c.row for c in me.chits), default=0))
        me = me.with_chit(i, in_play=chit.in_play + 1, recruited=chit.recruited + 1, row=row)
        me = replace(me, treasury=me.treasury - unit.cost, spent=me.spent + unit.cost,
                     recruits=_bump(me.recruits, p, 1))
        return s.with_side(side, me)

    def _disband(self, s: SpaceEmpiresState, ev: Event) -> SpaceEmpiresState:
        side, me = ev.side or 1, s.side(ev.side or 1)
        _need_phase(s, UPKEEP, what="units are disbanded")
        i = _chit_of(s, side, ev.get("chit"))
        chit = me.chits[i]
        count = ev.get("count", 1)
        excess = me.in_play - s.upkeep(side)
        if excess <= 0:
            raise Refused(f"{me.name}'s {me.in_play} units are all kept: upkeep keeps "
                          f"{s.rules.upkeep_units_per_revenue} x {s.revenue(side)} revenue = "
                          f"{s.upkeep(side)}", "Keep them: only the excess is discarded.")
        if not 1 <= count <= min(excess, chit.in_play):
            most = min(excess, chit.in_play)
            raise Refused(f"{me.name} can disband 1 to {most} {chit.name} (of {chit.in_play} in "
                          f"play, {excess} over upkeep), not {count}"
                          if most else f"{me.name} has no {chit.name} in play",
                          "Disband units it has in play, down to its upkeep.")
        me = me.with_chit(i, in_play=chit.in_play - count, disbanded=chit.disbanded + count)
        return s.with_side(side, me)

    def _capture(self, s: SpaceEmpiresState, ev: Event) -> SpaceEmpiresState:
        side, me = ev.side or 1, s.side(ev.side or 1)
        _need_phase(s, CONTROL, what="control markers are placed")
        p = _planet_of(s, ev.get("planet"))
        kind = s.planet_kinds[p]
        if not me.in_play:
            raise Refused(f"{me.name} has no units in play to stand on a planet",
                          "A planet is taken by a unit standing on it.")
        if ev.get("taken", False):
            if len(s.sides) < 2:
                raise Refused("there is no other player to take a planet from",
                              "Leave taken out: the planet was unclaimed.")
            them = s.side(3 - side)
            if not them.planets[p]:
                raise Refused(f"{them.name} holds no {kind.name} planet",
                              "Name a kind of planet it holds, or leave taken out.")
            s = s.with_side(3 - side, replace(them, planets=_bump(them.planets, p, -1)))
        elif s.unclaimed <= 0:
            raise Refused(f"every planet of the map ({s.map_planets}) is held",
                          "Take one from the other player (taken: yes).")
        return s.with_side(side, replace(s.side(side),
                                         planets=_bump(s.side(side).planets, p, 1)))

    # -- the turn -----------------------------------------------------------------------------
    def _next_phase(self, s: SpaceEmpiresState, ev: Event) -> SpaceEmpiresState:
        k = s.rules
        n_sides = range(1, len(s.sides) + 1)
        if s.phase == DRAW:
            for n in n_sides:
                me = s.side(n)
                if me.drawn < k.hand_draw and _can_draw(s):
                    raise Refused(f"{me.name} has drawn {me.drawn} of the {k.hand_draw} cards "
                                  f"of the Draw Phase",
                                  f"Draw {k.hand_draw - me.drawn} more: pick them, then Draw.")
                if _hand_size(me) > k.hand_max:
                    raise Refused(f"{me.name} holds {_hand_size(me)} cards, more than "
                                  f"{k.hand_max}",
                                  f"Discard {_hand_size(me) - k.hand_max}.")
        elif s.phase == BATTLE:
            if s.battle is not None:
                raise Refused(f"battle {s.battle.number} is not over", _battle_fix(s.battle))
            _hands_full(s)
        elif s.phase == UPKEEP:
            for n in n_sides:
                excess = s.side(n).in_play - s.upkeep(n)
                if excess > 0:
                    raise Refused(f"{_who(s, n)} has {s.side(n).in_play} units; upkeep keeps "
                                  f"{k.upkeep_units_per_revenue} x {s.revenue(n)} revenue = "
                                  f"{s.upkeep(n)}", f"Disband {excess}.")
        if s.phase == CONTROL:  # a new game turn: its counters start again
            sides = tuple(replace(side, drawn=0, moves=0, spent=0,
                                  recruits=(0,) * len(side.recruits)) for side in s.sides)
            return replace(s, sides=sides, turn=s.turn + 1, phase=DRAW, ground_fought=False,
                           refill=False)
        s = replace(s, phase=s.phase + 1)
        if s.phase == MOVE:
            s = replace(s, sides=tuple(replace(side, moves=0) for side in s.sides))
        if s.phase == REVENUE:  # every planet held pays at once
            for n in n_sides:
                me = s.side(n)
                treasury = me.treasury + s.revenue(n)
                s = s.with_side(n, replace(me, treasury=treasury, income=(
                    *me.income, (s.turn, s.revenue(n), treasury))))
        return s

    # -- what next ----------------------------------------------------------------------------
    def offers(self, state: SpaceEmpiresState) -> list[Event]:
        """Every event the rules allow now: each card to draw, discard or play, each chit
        to add to a battle, lose, recruit (on each kind of planet) or disband, each planet to
        take (unclaimed, or taken from the other player), a resolve that applies its losses
        or not, each side's concession; a count from 1 to the most the rules allow. Nothing
        once the game is over."""
        out: list[Event] = []
        for ev in self._every_candidate(state):
            if ev.kind in ("join", "disband"):
                out += self._counts(state, ev)
            elif self._accepts(state, ev):
                out.append(ev)
        return out

    def _counts(self, state: SpaceEmpiresState, ev: Event) -> list[Event]:
        """`ev` with count 1 and with the most accepted (none, when 1 is refused)."""
        me = state.side(ev.side or 1)
        i = me.chit(str(ev.get("chit")))
        most = me.chits[i].in_play if i is not None else 1
        def counted(n: int) -> Event:
            return Event(ev.kind, ev.side, None, tuple(sorted((*ev.values, ("count", n)))))

        counts = [n for n in range(1, most + 1) if self._accepts(state, counted(n))]
        return [counted(n) for n in sorted({min(counts), max(counts)})] if counts else []

    def _every_candidate(self, s: SpaceEmpiresState) -> Iterable[Event]:
        if self.outcome(s).over:
            return
        sides = range(1, len(s.sides) + 1)
        yield event("next-phase")
        for n in sides:
            me = s.side(n)
            held = [c.name for c, h in zip(s.cards, me.hand, strict=True) if h]
            for name in held:
                yield event("play", n, card=name)
                yield event("discard", n, card=name)
            yield from _draw_candidates(s, n)
            if s.battle is None:
                for where in WHERE:
                    yield event("battle", n, where=where)
            else:
                for c in me.chits:
                    yield event("join", n, chit=c.name)
                    yield event("lose", n, chit=c.name)
            for c in me.chits:
                if c.in_pile:
                    for kind in s.planet_kinds:
                        yield event("recruit", n, chit=c.name, planet=kind.name)
                if c.in_play:
                    yield event("disband", n, chit=c.name)
            for kind in s.planet_kinds:
                for taken in (False, True):
                    yield event("capture", n, planet=kind.name, taken=taken)
        if s.battle is not None:
            for apply in (False, True):
                yield event("resolve", apply=apply)
        for n in sides:
            yield event("concede", n)

    def _accepts(self, state: SpaceEmpiresState, ev: Event) -> bool:
        try:
            self.apply(state, ev)
        except Refused:
            return False
        return True

    # -- the end and what is shown ------------------------------------------------------------
    def outcome(self, state: SpaceEmpiresState) -> Outcome:
        s = state
        sides = range(1, len(s.sides) + 1)
        scores = (("Planets", tuple(s.held(n) for n in sides)),
                  ("Revenue", tuple(s.revenue(n) for n in sides)),
                  ("Treasury", tuple(s.side(n).treasury for n in sides)),
                  ("Units in play", tuple(s.side(n).in_play for n in sides)))
        if s.conceded is not None:
            name = _who(s, s.conceded)
            if len(s.sides) < 2:
                return Outcome(True, None, f"{name} conceded: a solo game has no winner",
                               scores)
            return Outcome(True, 3 - s.conceded, f"{name} conceded", scores)
        pct = s.rules.victory_planet_percent
        for n in sides:
            # "over 80%": strictly more, counted in whole numbers
            if s.held(n) * 100 > pct * s.map_planets:
                return Outcome(True, n, f"{_who(s, n)} holds {s.held(n)} of the map's "
                                        f"{s.map_planets} planets, over {pct}%", scores)
        return Outcome(False, None, f"turn {s.turn}, {PHASES[s.phase]} Phase", scores)

    def situation(self, state: SpaceEmpiresState, attacker: tuple[int, int],
                  defender: tuple[int, int]) -> Mapping[str, Value]:
        """What the log sets of quick-resolve: only the battle being fought, if any
        (docs/rules-notes.md, "At the table: odds for Space Empires"). No map is kept, so
        outside a battle nothing says where two stacks would meet: the defaults stand.

        - `battle`: the open battle's `where`, space or ground.
        - `bombard`: no, in a ground battle whose invader is the defender's side: the
          resolver's attacker is the invader, and a defending planet's ships don't fight on
          the ground (the tracker refuses them).
        - the cards each side has played into it (the battle's `cards`, by side), counted per
          card as `attacker_<card>` for the attacker's side, `defender_<card>` for the other:
          Force cards are played only into a battle, so these are all the state knows.
        """
        b = state.battle
        if b is None:
            return {}
        out: dict[str, Value] = {"battle": b.where}
        if b.where == GROUND and attacker[0] != b.attacker:
            out["bombard"] = False
        played = Counter(b.cards)
        for (side, name), count in sorted(played.items()):
            i = state.card(name)
            if i is None:
                continue
            who = SIDE_WORDS[0] if side == attacker[0] else SIDE_WORDS[1]
            out[card_key(who, state.cards[i])] = count
        return out

    def to_data(self, state: SpaceEmpiresState) -> dict[str, Any]:
        s = state
        return {
            "turn": s.turn, "phase": PHASES[s.phase], "map_planets": s.map_planets,
            "conceded": s.conceded,
            "unclaimed_planets": s.unclaimed,
            "deck": _cards(s, s.deck), "deck_left": sum(s.deck),
            "discard": _cards(s, s.discard), "discard_size": sum(s.discard),
            "reshuffles": s.reshuffles,
            "sides": [self._side_data(s, n) for n in range(1, len(s.sides) + 1)],
            "battle": None if s.battle is None else _battle_data(s.battle),
            "battles": [_battle_data(b) for b in s.battles],
        }

    def _side_data(self, s: SpaceEmpiresState, n: int) -> dict[str, Any]:
        me = s.side(n)
        return {
            "name": me.name, "faction": me.faction,
            "planets": {k.name: held for k, held in zip(s.planet_kinds, me.planets,
                                                        strict=True)},
            "planets_held": s.held(n), "revenue": s.revenue(n), "treasury": me.treasury,
            "spent_this_turn": me.spent,
            "income": [{"turn": t, "revenue": r, "treasury": tr} for t, r, tr in me.income],
            "recruited_this_turn": {k.name: r for k, r in zip(s.planet_kinds, me.recruits,
                                                              strict=True)},
            "recruit_limits": {k.name: k.recruit_limit * held for k, held
                               in zip(s.planet_kinds, me.planets, strict=True)},
            "units_in_play": me.in_play, "upkeep": s.upkeep(n),
            "pile_left": sum(c.in_pile for c in me.chits),
            "captured_leaders": sum(c.captured for c in me.chits),
            "hand": _cards(s, me.hand), "hand_size": _hand_size(me),
            "drawn_this_phase": me.drawn,
        }

    def units(self, state: SpaceEmpiresState, side: int) -> Sequence[Mapping[str, Any]]:
        me = state.side(side)
        b = state.battle
        out = []
        for c, u in sorted(zip(me.chits, me.units, strict=True), key=lambda cu: cu[0].row):
            if not c.row:
                continue
            row: dict[str, Any] = {"unit": c.row, "name": c.name, "alive": c.in_play > 0,
                                   "in_play": c.in_play, "in_pile": c.in_pile, "force": u.force,
                                   "cost": u.cost, "types": "".join(u.types)}
            for key in ("lost", "disbanded", "captured", "recruited"):
                if getattr(c, key):
                    row[key] = getattr(c, key)
            if b is not None and b.left(side)[c.name]:
                row["in_battle"] = b.left(side)[c.name]
            out.append(row)
        return out

    def round_of(self, state: SpaceEmpiresState) -> int | None:
        return state.turn  # a game turn of seven phases is what the game counts

    def acting(self, state: SpaceEmpiresState) -> tuple[int | None, str]:
        """What the phase asks for before the next: a Draw Phase's cards still to draw or a
        hand over the most, hands to fill after a battle, units over the upkeep; else the
        phase's work, then the next phase (both empires play each phase)."""
        if self.outcome(state).over:
            return None, ""
        k, sides = state.rules, range(1, len(state.sides) + 1)
        if state.phase == DRAW:
            for n in sides:
                me = state.side(n)
                if me.drawn < k.hand_draw and _can_draw(state):
                    left = k.hand_draw - me.drawn
                    return n, f"draw {left} more card{'s' if left > 1 else ''}"
                if _hand_size(me) > k.hand_max:
                    return n, f"discard down to {k.hand_max} cards"
            return None, "every hand is drawn: play cards, or go to the Move Phase"
        if state.phase == BATTLE:
            if state.battle is not None:
                return None, f"fight battle {state.battle.number} to its end"
            if state.refill:
                short = next((n for n in sides if _hand_size(state.side(n)) < k.hand_max), None)
                return short, f"fill the hand to {k.hand_max} cards after the battle"
            return None, "open a battle (space before ground), or go to the next phase"
        if state.phase == UPKEEP:
            for n in sides:
                excess = state.side(n).in_play - state.upkeep(n)
                if excess > 0:
                    return n, f"disband {excess} unit{'s' if excess > 1 else ''} (upkeep)"
        return None, f"the {PHASES[state.phase]} Phase's moves, then the next phase"

    def standing(self, unit: Mapping[str, Any]) -> Standing:
        in_play, in_pile = int(unit.get("in_play") or 0), int(unit.get("in_pile") or 0)
        tracks = [Track("chits in play", in_play, in_play + in_pile)]
        tracks += [Track(key.replace("_", " "), int(unit[key]))
                   for key in ("in_battle", "recruited", "lost", "disbanded", "captured")
                   if unit.get(key)]
        details = f"Force {unit.get('force')} · {unit.get('cost')} to recruit · " \
                  f"type {unit.get('types')}"
        return Standing(tuple(tracks), (), details)


# -- small pure helpers ---------------------------------------------------------------------

def _bump(values: tuple[int, ...], i: int, by: int) -> tuple[int, ...]:
    return (*values[:i], values[i] + by, *values[i + 1:])


def _cards(s: SpaceEmpiresState, counts: Sequence[int]) -> dict[str, int]:
    return {c.name: n for c, n in zip(s.cards, counts, strict=True) if n}


def _hand_fix(s: SpaceEmpiresState, me: SideState) -> str:
    held = _cards(s, me.hand)
    return ("It holds: " + ", ".join(f"{n}x {name}" if n > 1 else name
                                     for name, n in held.items()) + ".") if held \
        else "Its hand is empty."


def _battle_fix(b: BattleState) -> str:
    if not b.resolved:
        return "Add the units, play any cards, then resolve it."
    return f"Apply its losses (lose): the beaten stack loses {b.need}, then the winner " \
           f"gives up Force {_num(b.owed)} or more."


def _hands_full(s: SpaceEmpiresState) -> None:
    """After a battle both sides fill their hands to the most they may hold, before the
    next battle or phase."""
    if not s.refill:
        return
    k = s.rules
    for side in s.sides:
        if _hand_size(side) < k.hand_max and _can_draw(s):
            raise Refused(f"after a battle both sides fill their hands to {k.hand_max}; "
                          f"{side.name} holds {_hand_size(side)}",
                          f"Draw {k.hand_max - _hand_size(side)}: pick them, then Draw.")


def _upgrade(s: SpaceEmpiresState, me: SideState, card: ActionCard) -> SideState:
    cost = card.cost or 0
    src = s.planet(card.upgrade_from or "")
    dst = s.planet(card.upgrade_to or "")
    if src is None or dst is None:
        return me
    if not me.planets[src]:
        raise Refused(f"{card.name} upgrades a {s.planet_kinds[src].name} world, and "
                      f"{me.name} holds none", "Keep the card until you hold one.")
    if me.treasury < cost:
        raise Refused(f"{card.name} costs {cost} and {me.name} has {me.treasury}",
                      "Save up and play it later.")
    planets = _bump(_bump(me.planets, src, -1), dst, 1)
    return replace(me, planets=planets, treasury=me.treasury - cost, spent=me.spent + cost)


def _lose(s: SpaceEmpiresState, side: int, name: str) -> SpaceEmpiresState:
    """One chit of the side's battle stack is lost: a beaten stack's Leader is captured (set
    aside), any other chit goes back to its pile."""
    b = s.battle
    assert b is not None
    me = s.side(side)
    i = me.chit(name)
    assert i is not None
    chit, unit = me.chits[i], me.units[i]
    captured = side == b.loser and unit.is_leader
    me = me.with_chit(i, in_play=chit.in_play - 1,
                      captured=chit.captured + captured, lost=chit.lost + (not captured))
    force = _fought(unit, b.where, side == b.attacker, s.rules)
    lost, lost_force, taken = list(b.lost), list(b.lost_force), list(b.captured)
    lost[side - 1] = (*lost[side - 1], name)
    lost_force[side - 1] += force
    if captured:
        taken[side - 1] = (*taken[side - 1], name)
    b = replace(b, lost=(lost[0], lost[1]), lost_force=(lost_force[0], lost_force[1]),
                captured=(taken[0], taken[1]))
    return replace(s.with_side(side, me), battle=b)


def _close_if_paid(s: SpaceEmpiresState) -> SpaceEmpiresState:
    b = s.battle
    assert b is not None
    return _close(s, b) if b.loser_done() and b.winner_done() else s


def _close(s: SpaceEmpiresState, b: BattleState) -> SpaceEmpiresState:
    s = replace(s, battle=None, battles=(*s.battles, b))
    return replace(s, refill=_refilling(s))


def _refilling(s: SpaceEmpiresState) -> bool:
    """Are hands still filling up after a battle? Until each holds 7 (or the cards run out);
    a card played after that (a Recon between battles) is not drawn back."""
    return _can_draw(s) and any(_hand_size(side) < s.rules.hand_max for side in s.sides)


def _battle_data(b: BattleState) -> dict[str, Any]:
    data: dict[str, Any] = {
        "number": b.number, "turn": b.turn, "where": b.where, "attacker": b.attacker,
        "stacks": [dict(Counter(stack)) for stack in b.stacks],
        "cards": [{"side": n, "card": c} for n, c in b.cards],
        "resolved": b.resolved}
    if b.resolved:
        data.update({
            "force": [_num(f) for f in b.force],
            "winner": b.winner, "standoff": b.winner is None,
            "ships_against_transports": b.forced,
            "loser_loses": b.need, "winner_owes_force": _num(b.owed),
            "lost": [list(x) for x in b.lost], "lost_force": [_num(f) for f in b.lost_force],
            "captured": [list(x) for x in b.captured],
            "suggested_losses": [list(x) for x in b.suggested],
            "retreats": b.loser})
    return data


def _draw_candidates(s: SpaceEmpiresState, side: int) -> Iterable[Event]:
    """The draws the side may make now, as the tracker's picker needs them: the most it may
    draw in all (the deck's cards in order, then the discards'), and for each card the most
    of it (behind the rest of the deck, when those copies wait in the discards)."""
    try:
        room = _room(s, s.side(side))
    except Refused:
        return
    in_deck = sum(s.deck)
    most = min(room, in_deck + sum(s.discard))
    if most <= 0:
        return
    whole_deck = [i for i, left in enumerate(s.deck) for _ in range(left)]
    from_discards = [i for i, left in enumerate(s.discard) for _ in range(left)]
    draws = [(whole_deck + from_discards)[:most]]
    for i in range(len(s.cards)):
        if in_deck >= most:
            draws.append([i] * min(s.deck[i], most))
        elif s.discard[i]:
            draws.append(whole_deck + [i] * min(s.discard[i], most - in_deck))
    seen: set[Event] = set()
    for picks in draws:
        ev = _draw_event(s, side, picks)
        if picks and ev not in seen:
            seen.add(ev)
            yield ev

