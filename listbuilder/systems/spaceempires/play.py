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
from itertools import groupby
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
    concessions,
    event,
    with_side,
)
from listbuilder.engine.play_parts import conceded, refuse
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
from listbuilder.systems.spaceempires.resolve import (
    GROUND,
    SPACE,
    battle,
    card_bonus,
    card_key,
    fighters,
)
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

    @property
    def in_play(self) -> int:
        return sum(c.in_play for c in self.chits)

    def with_chit(self, i: int, **changes: Any) -> SideState:
        return replace(self, chits=with_side(self.chits, i + 1, replace(self.chits[i],
                                                                          **changes)))


@dataclass(frozen=True)
class BattleState:
    """A battle: who attacked, where, each side's stack (chit names, as joined), the cards
    played into it, and once resolved the result and the losses taken so far. The pairs are
    by side - 1."""

    number: int
    turn: int
    where: str
    attacker: int
    stacks: tuple[tuple[str, ...], ...] = ((), ())
    cards: tuple[tuple[int, str], ...] = ()  # (side, card)
    resolved: bool = False
    winner: int | None = None  # None once resolved: a standoff
    forced: bool = False  # ships against transports only: the ships win, losing nothing
    force: tuple[Fraction, ...] = (Fraction(0), Fraction(0))  # cards in
    need: int = 0  # units the beaten stack loses
    lost: tuple[tuple[str, ...], ...] = ((), ())  # in order
    lost_force: tuple[Fraction, ...] = (Fraction(0), Fraction(0))  # as they fought
    captured: tuple[tuple[str, ...], ...] = ((), ())  # Leaders taken
    suggested: tuple[tuple[str, ...], ...] = ((), ())  # resolve.py's picks

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


# -- helpers ----------------------------------------------------------------------------------

def _index(items: Sequence[Any], name: str) -> int | None:
    """Where the item of that name is (a chit, a card, a planet kind), as players write it."""
    key = name.strip().casefold()
    return next((i for i, item in enumerate(items) if item.name.casefold() == key), None)


def _found(i: int | None, message: str, fix: str) -> int:
    if i is None:
        raise Refused(message, fix)
    return i


def _chit_of(s: SpaceEmpiresState, side: int, name: str) -> int:
    me = s.side(side)
    return _found(_index(me.chits, name), f"{me.name}'s pile ({me.faction}) has no '{name}'",
                  "Name a unit of that faction's list, as printed.")


def _card_of(s: SpaceEmpiresState, name: str) -> int:
    return _found(_index(s.cards, name), f"the action deck has no card '{name}'",
                  "Use a card name: " + ", ".join(c.name for c in s.cards) + ".")


def _planet_of(s: SpaceEmpiresState, name: str) -> int:
    return _found(_index(s.planet_kinds, name), f"there is no planet kind '{name}'",
                  "Use " + ", ".join(p.name for p in s.planet_kinds) + ".")


def _need_phase(s: SpaceEmpiresState, *phases: int, what: str) -> None:
    names = " or ".join(f"the {PHASES[p]} Phase" for p in phases)
    refuse((s.phase not in phases, f"{what} only in {names}; it is the {PHASES[s.phase]} Phase",
            "Wait for that phase (next-phase moves the game on)."))


def _hand_size(side: SideState) -> int:
    return sum(side.hand)


def _can_draw(s: SpaceEmpiresState) -> bool:
    return sum(s.deck) + sum(s.discard) > 0


def _room(s: SpaceEmpiresState, me: SideState) -> int:
    """How many cards the side may draw now by the phase's rule: what is left of the Draw
    Phase's 5, or, just after a battle, what fills the hand to 7. Refused when none."""
    k, held = s.rules, _hand_size(me)
    _need_phase(s, DRAW, BATTLE, what="cards are drawn")
    if s.phase == DRAW:
        refuse((me.drawn >= k.hand_draw,
                f"{me.name} has drawn the {k.hand_draw} cards of this Draw Phase",
                f"Discard down to {k.hand_max} if need be, then go to the next phase."))
        return k.hand_draw - me.drawn
    # after a battle both sides fill their hands back up to the most they may hold
    refuse((s.battle is not None, f"battle {len(s.battles) + 1} is being fought",
            "Finish it; then both sides fill their hands."),
           (held >= k.hand_max, f"{me.name} already holds {held} cards",
            f"Fill a hand to {k.hand_max} only."),
           (not s.refill, f"cards are drawn in the Battle Phase only to fill the hands to "
                          f"{k.hand_max} just after a battle", "Draw at the next Draw Phase."))
    return k.hand_max - held


def _duties(s: SpaceEmpiresState) -> Iterable[tuple[int | None, str, str, str]]:
    """What the phase asks for before the next, first things first: (the side it falls to,
    the tracker's words for it, why the next phase is refused meanwhile, and the fix)."""
    k = s.rules
    for n in range(1, len(s.sides) + 1):
        me = s.side(n)
        left, held, excess = k.hand_draw - me.drawn, _hand_size(me), me.in_play - s.upkeep(n)
        if s.phase == DRAW and left > 0 and _can_draw(s):
            yield (n, f"draw {left} more card{'s' if left > 1 else ''}",
                   f"{me.name} has drawn {me.drawn} of the {k.hand_draw} cards of the Draw "
                   f"Phase", f"Draw {left} more: pick them, then Draw.")
        if s.phase == DRAW and held > k.hand_max:
            yield (n, f"discard down to {k.hand_max} cards",
                   f"{me.name} holds {held} cards, more than {k.hand_max}",
                   f"Discard {held - k.hand_max}.")
        # after a battle both sides fill their hands to the most they may hold, before the
        # next battle or phase (`refill` holds only while a hand is short and cards are left;
        # no battle is open meanwhile)
        if s.phase == BATTLE and s.refill and held < k.hand_max:
            yield (n, f"fill the hand to {k.hand_max} cards after the battle",
                   f"after a battle both sides fill their hands to {k.hand_max}; {me.name} "
                   f"holds {held}", f"Draw {k.hand_max - held}: pick them, then Draw.")
        if s.phase == UPKEEP and excess > 0:
            yield (n, f"disband {excess} unit{'s' if excess > 1 else ''} (upkeep)",
                   f"{me.name} has {me.in_play} units; upkeep keeps "
                   f"{k.upkeep_units_per_revenue} x {s.revenue(n)} revenue = {s.upkeep(n)}",
                   f"Disband {excess}.")
    b = s.battle
    if s.phase == BATTLE and b is not None:
        yield (None, f"fight battle {b.number} to its end", f"battle {b.number} is not over",
               f"Apply its losses (lose): the beaten stack loses {b.need}, then the winner "
               f"gives up Force {_num(b.owed)} or more." if b.resolved
               else "Add the units, play any cards, then resolve it.")


def _duties_done(s: SpaceEmpiresState) -> None:
    for _, _, message, fix in _duties(s):
        raise Refused(message, fix)


def _n_cards(n: int) -> str:
    return f"{n} card" + ("" if n == 1 else "s")


def _card_list(s: SpaceEmpiresState, pile: Sequence[int]) -> str:
    """A pile's cards in words: "Recon, 2x Barrage"."""
    return ", ".join(f"{n}x {c.name}" if n > 1 else c.name
                     for c, n in zip(s.cards, pile, strict=True) if n) or "none"


def _last_rank(chit: Chit, where: str) -> bool:
    """Lost only after the rest of its stack: transports in space, bombarding ships."""
    return chit.is_space == (where == GROUND)


def _num(x: Fraction) -> int | float:
    return int(x) if x.denominator == 1 else float(x)


def _unit_of(side: SideState, name: str) -> Chit:
    i = _index(side.chits, name)
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
                                             "Draw {} cards"), handler="_draw"),
        "discard": Kind("Discard a card", unit=False, values={"card": str}, handler="_play"),
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
        base = cast(SpaceEmpiresCatalog, match.players[0].catalog)
        cards = tuple(c for deck in base.decks for c in deck.cards)
        sides = []
        for player in match.players:
            catalog = cast(SpaceEmpiresCatalog, player.catalog)
            empire = Empire.of(catalog, player.roster)
            priced = self.system.priced(catalog, player.roster)
            units: list[Chit] = list(catalog.pile(empire.faction or ""))
            # a unit of another faction (an illegal roster) still gets its row
            units += {p.unit.name: p.unit for p in priced
                      if all(u.name != p.unit.name for u in units)}.values()
            draw = empire.draw(catalog)
            in_play: Counter[str] = Counter(draw.counts() if draw else {})
            rows: dict[str, int] = {}
            for p in priced:  # roster entries keep their numbers
                in_play[p.unit.name] += p.entry.count
                rows.setdefault(p.unit.name, p.index + 1)
            new = [u.name for u in units if in_play[u.name] and u.name not in rows]
            rows.update((name, len(player.roster.entries) + 1 + j) for j, name in enumerate(new))
            planets = tuple(held for _, held in empire.planets)
            sides.append(SideState(
                player.name, empire.faction or "",
                tuple(ChitState(u.name, u.pile, in_play=in_play[u.name], row=rows.get(u.name, 0))
                      for u in units), tuple(units),
                planets + (0,) * (len(base.planets) - len(planets)),
                max(0, empire.available - sum(p.cost for p in priced)), (0,) * len(cards),
                recruits=(0,) * len(base.planets)))
        wanted = match.option("planets", DEFAULT_MAP_PLANETS)
        if isinstance(wanted, bool) or not isinstance(wanted, int):
            wanted = DEFAULT_MAP_PLANETS
        # a map smaller than what the empires hold is read as just big enough to hold them
        map_planets = max(sum(sum(s.planets) for s in sides), min(wanted, MAX_MAP_PLANETS))
        return SpaceEmpiresState(tuple(sides), tuple(c.count for c in cards), (0,) * len(cards),
                                 map_planets, cards, base.planets, base)

    def _concede(self, s: SpaceEmpiresState, ev: Event) -> SpaceEmpiresState:
        """A side gives up, in any phase, a battle open or not: the game is over at once."""
        return replace(s, conceded=ev.side or 1)

    def settle(self, s: SpaceEmpiresState, ev: Event) -> SpaceEmpiresState:
        """A resolved battle whose losses are all paid (a standoff's at once) is over; then
        hands fill back up to 7 until each is full or the cards run out: a card played after
        that (a Recon between battles) is not drawn back."""
        b = s.battle
        if b is not None and b.resolved and b.loser_done() and b.winner_done():
            s = replace(s, battle=None, battles=(*s.battles, b), refill=True)
        return replace(s, refill=s.refill and _can_draw(s) and any(
            _hand_size(side) < s.rules.hand_max for side in s.sides))

    # -- cards --------------------------------------------------------------------------------
    def _draw(self, s: SpaceEmpiresState, ev: Event) -> SpaceEmpiresState:
        """Cards drawn, as the player picks them from what they drew (`draw`: one card named,
        as match files written before `draw-cards` have it, which replay as they did): the
        deck's cards first; once it is empty, the discards shuffled into a new deck."""
        side, me = ev.side or 1, s.side(ev.side or 1)
        room = _room(s, me)
        names = [ev.get("card")] if ev.kind == "draw" else split_words(str(ev.get("cards")))
        refuse((not names, "no card is picked", "Pick the cards drawn, then draw them."))
        wanted: Counter[int] = Counter(_card_of(s, name) for name in names)
        total, pool = len(names), sum(s.deck) + sum(s.discard)
        why = "this Draw Phase" if s.phase == DRAW else f"to fill the hand to {s.rules.hand_max}"
        refuse((total > room, f"{me.name} may draw {room} more card{'s' if room > 1 else ''} "
                              f"{why}, not {total}",
                f"Pick {room} or fewer."),
               (total > pool, f"only {_n_cards(pool)} {'is' if pool == 1 else 'are'} left to "
                              f"draw, deck and discards together, not {total}",
                f"Pick those {pool}." if pool else "Play on without drawing."))
        deck, discard, reshuffles = s.deck, s.discard, s.reshuffles
        rest = wanted - Counter({i: min(n, deck[i]) for i, n in wanted.items()})
        if rest and total - rest.total() < sum(deck):
            # cards from the discards only once every card of the deck is drawn
            i = next(iter(rest))
            name = s.cards[i].name
            refuse((total > sum(deck), f"the deck holds only {_n_cards(sum(deck))} "
                                       f"({_card_list(s, deck)}), all drawn before the discards "
                                       f"are shuffled into a new deck",
                    "Pick every card the deck holds, then the rest from the discards."),
                   (deck[i] > 0, f"the deck holds {deck[i]} {name}, not {wanted[i]}",
                    f"Pick {deck[i]} {name} or fewer."))
            raise Refused(f"no {name} is left in the deck",
                          f"Pick the cards drawn from those left: {_card_list(s, deck)}.")
        if rest:  # the deck is drawn to its last card: the discards become the new deck
            deck, discard, reshuffles = discard, (0,) * len(discard), reshuffles + 1
            refuse(*((deck[i] < n, f"the deck runs out, and the discards shuffled into a new "
                                   f"one hold {deck[i] or 'no'} {s.cards[i].name}"
                                   + (f", not {n}" if deck[i] else ""),
                      f"Pick the rest from: {_card_list(s, deck)}.") for i, n in rest.items()))
        me = replace(me, hand=_plus(me.hand, wanted),
                     drawn=me.drawn + total * (s.phase == DRAW))
        return replace(s.with_side(side, me), deck=_plus(deck, rest or wanted, -1),
                       discard=discard, reshuffles=reshuffles)

    def _play(self, s: SpaceEmpiresState, ev: Event) -> SpaceEmpiresState:
        """A card from the hand to the discards: played for what it does, or discarded."""
        side, me = ev.side or 1, s.side(ev.side or 1)
        i = _card_of(s, ev.get("card"))
        card, k = s.cards[i], s.rules
        # cards you don't want go at the start of your Draw Phase; past that, only a hand
        # over the limit is cut
        refuse((ev.kind == "discard" and _hand_size(me) <= k.hand_max
                and not (s.phase == DRAW and me.drawn == 0),
                f"{me.name} may discard only before drawing in the Draw Phase, or a hand over "
                f"{k.hand_max} cards", "Keep the card, or discard it at the next Draw Phase."),
               (not me.hand[i], f"{me.name} holds no {card.name}", _hand_fix(s, me)))
        effect = card.kind if ev.kind == "play" else "discard"
        if effect in (MOVE_CARD, CANCEL_CARD):
            _need_phase(s, MOVE, what=f"{card.name} is played")
        if effect == MOVE_CARD:
            me = replace(me, moves=me.moves + 1)
        elif effect == CANCEL_CARD:
            refuse((len(s.sides) > 1 and not s.side(3 - side).moves,
                    f"{card.name} cancels an enemy move, and {s.side(3 - side).name} has "
                    f"played no move card this phase",
                    "Play it when the other side moves a stack."))
        elif effect == FORCE_CARD:
            b = s.battle
            if b is None or b.resolved:
                raise Refused(f"{card.name} adds Force in a battle, and no battle is being "
                              f"fought", "Play it after a battle opens and before it is resolved.")
            stack = [_unit_of(me, n) for n in b.stacks[side - 1]]
            refuse((not stack, f"{me.name} has no units in this battle",
                    "Add units to the battle first (join)."),
                   (not card_bonus(card, stack, b.where),
                    f"none of {me.name}'s units in this {b.where} battle can take {card.name}'s "
                    f"bonus ({card.text})", "Keep it for a battle where it helps."))
            s = replace(s, battle=replace(b, cards=(*b.cards, (side, card.name))))
        elif effect == UPGRADE_CARD:
            src = _index(s.planet_kinds, card.upgrade_from or "")
            dst = _index(s.planet_kinds, card.upgrade_to or "")
            cost = card.cost or 0
            if src is not None and dst is not None:
                refuse((not me.planets[src], f"{card.name} upgrades a {s.planet_kinds[src].name} "
                        f"world, and {me.name} holds none", "Keep the card until you hold one."),
                       (me.treasury < cost, f"{card.name} costs {cost} and {me.name} has "
                                            f"{me.treasury}", "Save up and play it later."))
                me = replace(me, planets=_plus(me.planets, {src: -1, dst: 1}),
                             treasury=me.treasury - cost, spent=me.spent + cost)
        # a look card (Recon, Intelligence) may be played at any time: it changes nothing kept
        me = replace(me, hand=_plus(me.hand, {i: -1}))
        return replace(s.with_side(side, me), discard=_plus(s.discard, {i: 1}))

    # -- battles ------------------------------------------------------------------------------
    def _battle(self, s: SpaceEmpiresState, ev: Event) -> SpaceEmpiresState:
        side = ev.side or 1
        where = str(ev.get("where")).strip().casefold()
        _need_phase(s, BATTLE, what="battles are fought")
        refuse((len(s.sides) < 2, "a battle needs two players in the match",
                "Keep a solo game's battles on paper."),
               (where not in WHERE, f"a battle is fought in space or on the ground, not "
                                    f"'{where}'", "Write where: space or where: ground."))
        _duties_done(s)  # no battle open, and the hands filled after the last one
        refuse((where == SPACE and s.ground_fought, "space battles come before ground battles, "
                "and a ground battle has been fought this phase",
                "Fight space battles first next turn."))
        for n in (side, 3 - side):
            # the defender fights a ground battle with ground units; ships bombard for the
            # invader only
            able = [u for u, c in zip(s.side(n).units, s.side(n).chits, strict=True)
                    if c.in_play and (where == SPACE or n == side or not u.is_space)]
            refuse((not able, f"{s.side(n).name} has no units in play that fight in a {where} "
                              f"battle", "Fight another battle, or go to the next phase."))
        return replace(s, battle=BattleState(len(s.battles) + 1, s.turn, where, side),
                       ground_fought=s.ground_fought or where == GROUND)

    def _join(self, s: SpaceEmpiresState, ev: Event) -> SpaceEmpiresState:
        side, me, b = ev.side or 1, s.side(ev.side or 1), s.battle
        if b is None or b.resolved:
            raise Refused("no battle is waiting for units", "Open a battle first (battle).")
        i = _chit_of(s, side, ev.get("chit"))
        name, count = me.chits[i].name, ev.get("count", 1)
        free = me.chits[i].in_play - b.stacks[side - 1].count(name)
        refuse((count < 1, f"count is {count}", "Add at least 1 chit."),
               (count > free, f"{me.name} has {free} {name} in play and not yet in this battle",
                f"Add {free} or fewer." if free else "Add a unit it has in play."),
               (b.where == GROUND and me.units[i].is_space and side != b.attacker,
                f"{name} is a ship: a defender's ships fight in space, not in the ground battle",
                "Fight the space battle for this planet first."))
        stack = (*b.stacks[side - 1], *(name,) * count)
        return replace(s, battle=replace(b, stacks=with_side(b.stacks, side, stack)))

    def _resolve(self, s: SpaceEmpiresState, ev: Event) -> SpaceEmpiresState:
        b = s.battle
        if b is None or b.resolved:
            raise Refused("no battle is waiting to be resolved", "Open a battle and add units.")
        order = (b.attacker, 3 - b.attacker)  # resolve.py's: the attacker's stack first
        by_side = slice(None, None, 1 if b.attacker == 1 else -1)  # from that order to sides'
        stacks = [[_unit_of(s.side(n), name) for name in b.stacks[n - 1]] for n in order]
        refuse(*((not stack, f"{s.side(n).name} has no units in this battle",
                  "Add each side's units first (join).")
                 for n, stack in zip(order, stacks, strict=True)))
        fought = battle(s.catalog, (stacks[0], stacks[1]), b.where, True)
        totals = [force + sum(card_bonus(s.cards[_card_of(s, name)], stack, b.where)
                              for who, name in b.cards if who == n)
                  for n, force, stack in zip(order, fought.force, stacks, strict=True)]
        if fought.forced_winner is not None:
            winner: int | None = order[fought.forced_winner]
        elif totals[0] == totals[1]:
            winner = None  # a standoff: nobody retreats, nobody is lost
        else:
            winner = order[0] if totals[0] > totals[1] else order[1]
        b = replace(b, resolved=True, winner=winner, forced=fought.forced_winner is not None,
                    force=tuple(totals[by_side]))
        if winner is None:
            return replace(s, battle=b)
        loser = 3 - winner
        losses = list(fought.losses_if_won[order.index(winner)])[by_side]
        s = replace(s, battle=replace(b, need=len(losses[loser - 1]), suggested=tuple(
            tuple(f.chit.name for f in side) for side in losses)))
        # fortifications of a beaten stack fall at once
        for name in b.stacks[loser - 1]:
            if _unit_of(s.side(loser), name).fortification:
                s = _lost(s, loser, name)
        for n in (loser, winner) if ev.get("apply", False) else ():
            assert s.battle is not None
            for name in s.battle.suggested[n - 1][len(s.battle.lost[n - 1]):]:
                s = _lost(s, n, name)
        return s

    def _lose(self, s: SpaceEmpiresState, ev: Event) -> SpaceEmpiresState:
        side, me, b = ev.side or 1, s.side(ev.side or 1), s.battle
        if b is None or not b.resolved:
            raise Refused("units are lost once a battle is resolved",
                          "Resolve the battle first." if b else "Open a battle first.")
        i = _chit_of(s, side, ev.get("chit"))
        name, left = me.chits[i].name, b.left(side)
        # casualty order: ships before transports in space, bombarding ships last
        first = sorted(n for n in left if not _last_rank(_unit_of(me, n), b.where))
        refuse((not left[name], f"{me.name} has no {name} left in this battle",
                "Name one of: " + ", ".join(sorted(left)) + "." if left
                else "Its stack is gone."),
               (side == b.loser and b.loser_done(),
                f"{me.name}'s beaten stack has lost its {b.need} units",
                "Now the winner gives up its share."),
               (side != b.loser and not b.loser_done(),
                f"the beaten stack loses its {b.need} units first",
                f"Name the units {s.side(3 - side).name} loses."),
               (side != b.loser and b.winner_done(),
                f"{me.name} has given up units worth {_num(b.lost_force[side - 1])} Force, no "
                f"less than half the {_num(b.lost_force[2 - side])} its enemy lost",
                "The battle is over."),
               (_last_rank(me.units[i], b.where) and bool(first),
                f"{name} is lost only after "
                f"{'its ships' if b.where == SPACE else 'its ground units'} in this {b.where} "
                f"battle", "Name one of: " + ", ".join(first) + "."))
        return _lost(s, side, name)

    # -- the economy --------------------------------------------------------------------------
    def _recruit(self, s: SpaceEmpiresState, ev: Event) -> SpaceEmpiresState:
        side, me = ev.side or 1, s.side(ev.side or 1)
        _need_phase(s, RECRUIT, what="units are recruited")
        i = _chit_of(s, side, ev.get("chit"))
        p = _planet_of(s, ev.get("planet"))
        chit, unit, kind = me.chits[i], me.units[i], s.planet_kinds[p]
        limit = kind.recruit_limit * me.planets[p]
        refuse((not me.planets[p], f"{me.name} holds no {kind.name} planet",
                "Recruit at a planet you control."),
               (limit - me.recruits[p] <= 0, f"{me.name}'s {kind.name} planets "
                f"({me.planets[p]}) recruit {limit} a turn, all taken",
                "Recruit at another planet, or next turn."),
               (unit.is_space and not kind.recruits_space, f"{chit.name} is a space unit, and "
                f"a {kind.name} planet recruits ground units only",
                "Recruit it at a Rich world or a Homeworld."),
               (not chit.in_pile, f"no {chit.name} is left in {me.name}'s pile",
                "Recruit a unit the pile still holds."),
               (unit.cost > me.treasury,
                f"{chit.name} costs {unit.cost} and {me.name} has {me.treasury} to spend",
                "Recruit something cheaper, or save for next turn."))
        row = chit.row or (1 + max((c.row for c in me.chits), default=0))
        me = me.with_chit(i, in_play=chit.in_play + 1, recruited=chit.recruited + 1, row=row)
        return s.with_side(side, replace(me, treasury=me.treasury - unit.cost,
                                         spent=me.spent + unit.cost,
                                         recruits=_plus(me.recruits, {p: 1})))

    def _disband(self, s: SpaceEmpiresState, ev: Event) -> SpaceEmpiresState:
        side, me = ev.side or 1, s.side(ev.side or 1)
        _need_phase(s, UPKEEP, what="units are disbanded")
        i = _chit_of(s, side, ev.get("chit"))
        chit, count = me.chits[i], ev.get("count", 1)
        excess = me.in_play - s.upkeep(side)
        most = min(excess, chit.in_play)
        refuse((excess <= 0, f"{me.name}'s {me.in_play} units are all kept: upkeep keeps "
                             f"{s.rules.upkeep_units_per_revenue} x {s.revenue(side)} revenue "
                             f"= {s.upkeep(side)}", "Keep them: only the excess is discarded."),
               (not 1 <= count <= most,
                f"{me.name} can disband 1 to {most} {chit.name} (of {chit.in_play} in play, "
                f"{excess} over upkeep), not {count}" if most
                else f"{me.name} has no {chit.name} in play",
                "Disband units it has in play, down to its upkeep."))
        me = me.with_chit(i, in_play=chit.in_play - count, disbanded=chit.disbanded + count)
        return s.with_side(side, me)

    def _capture(self, s: SpaceEmpiresState, ev: Event) -> SpaceEmpiresState:
        side, me = ev.side or 1, s.side(ev.side or 1)
        _need_phase(s, CONTROL, what="control markers are placed")
        p = _planet_of(s, ev.get("planet"))
        refuse((not me.in_play, f"{me.name} has no units in play to stand on a planet",
                "A planet is taken by a unit standing on it."))
        if ev.get("taken", False):
            refuse((len(s.sides) < 2, "there is no other player to take a planet from",
                    "Leave taken out: the planet was unclaimed."))
            them = s.side(3 - side)
            refuse((not them.planets[p], f"{them.name} holds no {s.planet_kinds[p].name} planet",
                    "Name a kind of planet it holds, or leave taken out."))
            s = s.with_side(3 - side, replace(them, planets=_plus(them.planets, {p: -1})))
        else:
            refuse((s.unclaimed <= 0, f"every planet of the map ({s.map_planets}) is held",
                    "Take one from the other player (taken: yes)."))
        return s.with_side(side, replace(me, planets=_plus(me.planets, {p: 1})))

    # -- the turn -----------------------------------------------------------------------------
    def _next_phase(self, s: SpaceEmpiresState, ev: Event) -> SpaceEmpiresState:
        _duties_done(s)
        if s.phase == CONTROL:  # a new game turn: its counters start again
            sides = tuple(replace(side, drawn=0, moves=0, spent=0,
                                  recruits=(0,) * len(side.recruits)) for side in s.sides)
            return replace(s, sides=sides, turn=s.turn + 1, phase=DRAW, ground_fought=False,
                           refill=False)
        s = replace(s, phase=s.phase + 1)
        if s.phase == MOVE:
            s = replace(s, sides=tuple(replace(side, moves=0) for side in s.sides))
        for n in range(1, len(s.sides) + 1) if s.phase == REVENUE else ():
            # every planet held pays at once
            me, revenue = s.side(n), s.revenue(n)
            s = s.with_side(n, replace(me, treasury=me.treasury + revenue, income=(
                *me.income, (s.turn, revenue, me.treasury + revenue))))
        return s

    # -- what next ----------------------------------------------------------------------------
    def offers(self, state: SpaceEmpiresState) -> list[Event]:
        """Every event the rules allow now: each card to draw, discard or play, each chit
        to add to a battle, lose, recruit (on each kind of planet) or disband, each planet to
        take (unclaimed, or taken from the other player), a resolve that applies its losses
        or not, each side's concession; a count from 1 to the most the rules allow, as the
        least and the most accepted. Nothing once the game is over."""
        if self.outcome(state).over:
            return []
        out: list[Event] = []
        accepted = [ev for ev in _candidates(state) if self._accepts(state, ev)]
        # a chit's counts come one after another: the least and the most of them stay
        for _, each in groupby(accepted, lambda ev: ev if ev.get("count") is None
                               else (ev.kind, ev.side, ev.get("chit"))):
            found = list(each)
            out += [*found[:1], *found[1:][-1:]]
        return out

    def _accepts(self, state: SpaceEmpiresState, ev: Event) -> bool:
        try:
            self.apply(state, ev)
        except Refused:
            return False
        return True

    # -- the end and what is shown ------------------------------------------------------------
    def outcome(self, s: SpaceEmpiresState) -> Outcome:
        sides = range(1, len(s.sides) + 1)
        scores = (("Planets", tuple(s.held(n) for n in sides)),
                  ("Revenue", tuple(s.revenue(n) for n in sides)),
                  ("Treasury", tuple(s.side(n).treasury for n in sides)),
                  ("Units in play", tuple(s.side(n).in_play for n in sides)))
        if s.conceded is not None:
            return conceded([side.name for side in s.sides], s.conceded, scores)
        pct = s.rules.victory_planet_percent
        for n in sides:
            # "over 80%": strictly more, counted in whole numbers
            if s.held(n) * 100 > pct * s.map_planets:
                return Outcome(True, n, f"{s.side(n).name} holds {s.held(n)} of the map's "
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
        for (side, name), count in sorted(Counter(b.cards).items()):
            who = SIDE_WORDS[0] if side == attacker[0] else SIDE_WORDS[1]
            out[card_key(who, state.cards[_card_of(state, name)])] = count
        return out

    def to_data(self, s: SpaceEmpiresState) -> dict[str, Any]:
        return {
            "turn": s.turn, "phase": PHASES[s.phase], "map_planets": s.map_planets,
            "conceded": s.conceded,
            "unclaimed_planets": s.unclaimed,
            "deck": _cards(s, s.deck), "deck_left": sum(s.deck),
            "discard": _cards(s, s.discard), "discard_size": sum(s.discard),
            "reshuffles": s.reshuffles,
            "sides": [_side_data(s, n) for n in range(1, len(s.sides) + 1)],
            "battle": None if s.battle is None else _battle_data(s.battle),
            "battles": [_battle_data(b) for b in s.battles],
        }

    def units(self, state: SpaceEmpiresState, side: int) -> Sequence[Mapping[str, Any]]:
        me, b = state.side(side), state.battle
        out = []
        for c, u in sorted(zip(me.chits, me.units, strict=True), key=lambda cu: cu[0].row):
            if not c.row:
                continue
            row: dict[str, Any] = {"unit": c.row, "name": c.name, "alive": c.in_play > 0,
                                   "in_play": c.in_play, "in_pile": c.in_pile, "force": u.force,
                                   "cost": u.cost, "types": "".join(u.types)}
            row.update((key, getattr(c, key)) for key in ("lost", "disbanded", "captured",
                                                          "recruited") if getattr(c, key))
            if b is not None and b.left(side)[c.name]:
                row["in_battle"] = b.left(side)[c.name]
            out.append(row)
        return out

    def round_of(self, state: SpaceEmpiresState) -> int | None:
        return state.turn  # a game turn of seven phases is what the game counts

    def acting(self, state: SpaceEmpiresState) -> tuple[int | None, str]:
        """What the phase asks for before the next (`_duties`); else the phase's work, then
        the next phase (both empires play each phase)."""
        if self.outcome(state).over:
            return None, ""
        for side, words, _, _ in _duties(state):
            return side, words
        if state.phase == DRAW:
            return None, "every hand is drawn: play cards, or go to the Move Phase"
        if state.phase == BATTLE:
            return None, "open a battle (space before ground), or go to the next phase"
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

def _plus(values: tuple[int, ...], changes: Mapping[int, int], sign: int = 1
          ) -> tuple[int, ...]:
    """Counts by index (cards of each kind, planets of each kind) with `changes` added."""
    return tuple(v + sign * changes.get(i, 0) for i, v in enumerate(values))


def _cards(s: SpaceEmpiresState, counts: Sequence[int]) -> dict[str, int]:
    return {c.name: n for c, n in zip(s.cards, counts, strict=True) if n}


def _hand_fix(s: SpaceEmpiresState, me: SideState) -> str:
    return f"It holds: {_card_list(s, me.hand)}." if any(me.hand) else "Its hand is empty."


def _lost(s: SpaceEmpiresState, side: int, name: str) -> SpaceEmpiresState:
    """One chit of the side's battle stack is lost: a beaten stack's Leader is captured (set
    aside), any other chit goes back to its pile."""
    b, me, i = s.battle, s.side(side), _index(s.side(side).chits, name)
    assert b is not None and i is not None
    chit, unit = me.chits[i], me.units[i]
    captured = side == b.loser and unit.is_leader
    me = me.with_chit(i, in_play=chit.in_play - 1,
                      captured=chit.captured + captured, lost=chit.lost + (not captured))
    # as it fought: a transport in space, a ship bombarding at half, a defender's ship not
    fought = fighters(s.catalog, [unit], b.where, side == b.attacker, True)
    force = b.lost_force[side - 1] + (fought[0].force if fought else 0)
    b = replace(b, lost=with_side(b.lost, side, (*b.lost[side - 1], name)),
                lost_force=with_side(b.lost_force, side, force),
                captured=with_side(b.captured, side, (*b.captured[side - 1], name))
                if captured else b.captured)
    return replace(s.with_side(side, me), battle=b)


def _side_data(s: SpaceEmpiresState, n: int) -> dict[str, Any]:
    me = s.side(n)

    def per_kind(values: Iterable[int]) -> dict[str, int]:
        return {k.name: v for k, v in zip(s.planet_kinds, values, strict=True)}

    return {
        "name": me.name, "faction": me.faction, "planets": per_kind(me.planets),
        "planets_held": s.held(n), "revenue": s.revenue(n), "treasury": me.treasury,
        "spent_this_turn": me.spent,
        "income": [{"turn": t, "revenue": r, "treasury": tr} for t, r, tr in me.income],
        "recruited_this_turn": per_kind(me.recruits),
        "recruit_limits": per_kind(k.recruit_limit * held
                                   for k, held in zip(s.planet_kinds, me.planets, strict=True)),
        "units_in_play": me.in_play, "upkeep": s.upkeep(n),
        "pile_left": sum(c.in_pile for c in me.chits),
        "captured_leaders": sum(c.captured for c in me.chits),
        "hand": _cards(s, me.hand), "hand_size": _hand_size(me),
        "drawn_this_phase": me.drawn,
    }


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


def _candidates(s: SpaceEmpiresState) -> Iterable[Event]:
    """The events `offers` tries: each card held to play or discard, the draws, a battle
    each way or each chit to join (with each count) or lose, each chit of the pile to recruit
    at each planet kind and each in play to disband (with each count), each planet to take,
    a resolve that applies its losses or not, and the concessions."""
    yield event("next-phase")
    for n in range(1, len(s.sides) + 1):
        me = s.side(n)
        for card, held in zip(s.cards, me.hand, strict=True):
            if held:
                yield from (event(kind, n, card=card.name) for kind in ("play", "discard"))
        yield from _draw_candidates(s, n)
        if s.battle is None:
            yield from (event("battle", n, where=where) for where in WHERE)
        else:
            for c in me.chits:
                yield from (event("join", n, chit=c.name, count=k)
                            for k in range(1, c.in_play + 1))
                yield event("lose", n, chit=c.name)
        for c in me.chits:
            yield from (event("recruit", n, chit=c.name, planet=kind.name)
                        for kind in s.planet_kinds if c.in_pile)
            yield from (event("disband", n, chit=c.name, count=k)
                        for k in range(1, c.in_play + 1))
        yield from (event("capture", n, planet=kind.name, taken=taken)
                    for kind in s.planet_kinds for taken in (False, True))
    if s.battle is not None:
        yield from (event("resolve", apply=apply) for apply in (False, True))
    yield from concessions(len(s.sides))


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
    whole_deck = [i for i, left in enumerate(s.deck) for _ in range(left)]
    from_discards = [i for i, left in enumerate(s.discard) for _ in range(left)]
    draws = [(whole_deck + from_discards)[:most]]
    for i in range(len(s.cards)):
        if in_deck >= most:
            draws.append([i] * min(s.deck[i], most))
        elif s.discard[i]:
            draws.append(whole_deck + [i] * min(s.discard[i], most - in_deck))
    yield from dict.fromkeys(event("draw-cards", side, cards=joined(
        (s.cards[i].name, n) for i, n in Counter(picks).items())) for picks in draws if picks)
