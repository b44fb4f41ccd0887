"""Space Empires battles between two stacks: Force totals, the winner and each side's losses.

Each side adds the Force of its units: in space, ground units ride transports at Force 0 and
take no card bonus (Fighter Escort apart); on the ground, an invading stack's ships may bombard
at half their Force. A stack with a Leader facing one without gains the Leader bonus. Each
action card played adds its bonus (to every unit of its type, or to one unit). The higher total
wins; the loser retreats and loses half its units (the winner picks the first, the loser the
rest), and the winner gives up units worth at least half the Force the loser lost.

The dice-free part is exact arithmetic; the chances come from the cards: with `cards=random
hands` each side holds a hand dealt from the full deck and plays every card that helps it, and
the chance of each outcome is counted over all hands exactly.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from listbuilder.engine.dice import Dist, Prob
from listbuilder.engine.model import Roster, RosterEntry
from listbuilder.engine.resolve import (
    Chance,
    Option,
    Outcome,
    ResolveError,
    Resolver,
    Result,
    Side,
    Situation,
    percent,
)
from listbuilder.systems.spaceempires.limits import Empire
from listbuilder.systems.spaceempires.model import ActionCard, Chit, SpaceEmpiresCatalog

SPACE, GROUND = "space", "ground"
AS_SET, RANDOM = "as set", "random hands"
SIDES = ("attacker", "defender")



def _chits(side: Side[Chit]) -> list[Chit]:
    return [member.unit for member in side.members for _ in range(member.count)]


def force_cards(catalog: SpaceEmpiresCatalog) -> list[ActionCard]:
    return [c for deck in catalog.decks for c in deck.cards
            if c.kind == "force" and c.bonus]


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.casefold()).strip("_")


def card_key(side: str, card: ActionCard) -> str:
    return f"{side}_{slug(card.name)}"


def card_applies(card: ActionCard, chit: Chit, battle: str) -> bool:
    """May this card's bonus go to this unit in this battle?"""
    if battle == SPACE and not chit.is_space:
        return card.transports  # a transport takes only a card that names transports
    if battle == GROUND and chit.is_space:
        return False  # bombarding ships take no card bonus
    return any(chit.has_type(letter) for letter in card.bonus_types)


def card_bonus(card: ActionCard, stack: Sequence[Chit], battle: str) -> int:
    """The Force one copy of `card` adds to this stack in this battle."""
    return _bonus(card, Counter(stack), battle)


def _bonus(card: ActionCard, counts: Mapping[Chit, int], battle: str) -> int:
    eligible = sum(n for c, n in counts.items() if card_applies(card, c, battle))
    if not eligible or card.bonus is None:
        return 0
    return card.bonus * (eligible if card.scope == "all" else 1)


@dataclass(frozen=True)
class Fighter:
    """One unit in this battle: the Force it fights with (before cards) and its place."""

    chit: Chit
    force: Fraction
    bombarding: bool = False
    transport: bool = False


def fighters(cat: SpaceEmpiresCatalog, stack: Sequence[Chit], battle: str, invader: bool,
             bombard: bool) -> list[Fighter]:
    k = cat.constants
    out = []
    for chit in stack:
        if battle == SPACE:
            if chit.is_space:
                out.append(Fighter(chit, Fraction(chit.force)))
            else:
                out.append(Fighter(chit, Fraction(k.transport_force_in_space), transport=True))
        elif not chit.is_space:
            out.append(Fighter(chit, Fraction(chit.force)))
        elif invader and bombard:
            out.append(Fighter(chit, Fraction(chit.force, k.bombard_force_divisor),
                               bombarding=True))
    return out


def _casualty_rank(f: Fighter) -> int:
    """Which units go first: ships before transports in space, bombarding ships last."""
    return 1 if (f.transport or f.bombarding) else 0


def _casualty_order(f: Fighter) -> tuple[int, Fraction, int]:
    """Weakest first, within casualty order; the printed Force breaks ties (transports)."""
    return (_casualty_rank(f), f.force, f.chit.force)


def loser_losses(fs: Sequence[Fighter]) -> list[Fighter]:
    """Half the stack, rounded up: fortifications first, then the winner takes the strongest
    unit it may, and the loser gives up its weakest for the rest."""
    need = -(-len(fs) // 2)
    forts = [f for f in fs if f.chit.fortification]
    rest = sorted((f for f in fs if not f.chit.fortification), key=_casualty_order)
    lost = list(forts)
    if len(lost) < need and rest:
        first_rank = min(_casualty_rank(f) for f in rest)
        pick = max((f for f in rest if _casualty_rank(f) == first_rank),
                   key=lambda f: (f.force, f.chit.force))
        lost.append(pick)
        rest.remove(pick)
    while len(lost) < need and rest:
        lost.append(rest.pop(0))
    return lost


def winner_losses(fs: Sequence[Fighter], owed: Fraction) -> list[Fighter]:
    """The cheapest set of units, in casualty order, worth at least `owed` Force."""
    if owed <= 0:
        return []
    for rank in (0, 1):
        pool = [f for f in fs if _casualty_rank(f) <= rank]
        best = _cheapest(pool, owed)
        if best is not None:
            return best
    return list(fs)


def _cheapest(pool: Sequence[Fighter], owed: Fraction) -> list[Fighter] | None:
    """Subset of least Force (then fewest units) reaching `owed`, or None."""
    scale = math.lcm(*(f.force.denominator for f in pool), owed.denominator)
    reach: dict[int, tuple[int, ...]] = {0: ()}
    for i, f in enumerate(pool):
        value = int(f.force * scale)
        for total, picked in list(reach.items()):
            new = total + value
            if new not in reach or len(reach[new]) > len(picked) + 1:
                reach[new] = (*picked, i)
    target = owed * scale
    fits = [t for t in reach if t >= target]
    if not fits:
        return None
    best = min(fits, key=lambda t: (t, len(reach[t])))
    return [pool[i] for i in reach[best]]


@dataclass(frozen=True)
class Battle:
    """Force totals before cards, and what each outcome costs each side."""

    force: tuple[Fraction, Fraction]  # each side's Force with the Leader bonus, before cards
    forced_winner: int | None  # ships facing only transports always win
    losses_if_won: tuple[tuple[list[Fighter], list[Fighter]], ...]  # [winner] -> (att, def)
    sizes: tuple[int, int]


def battle(cat: SpaceEmpiresCatalog, stacks: tuple[list[Chit], list[Chit]], where: str,
           bombard: bool) -> Battle:
    k = cat.constants
    fs = (fighters(cat, stacks[0], where, True, bombard),
          fighters(cat, stacks[1], where, False, bombard))
    if not fs[0] or not fs[1]:
        raise ResolveError("each side needs a unit that fights in this battle (ships stay out "
                           "of a ground battle unless they bombard)")
    leaders = [any(f.chit.is_leader for f in side) for side in fs]
    force = tuple(sum((f.force for f in side), Fraction(0))
                  + (k.leader_bonus if leaders[i] and not leaders[1 - i] else 0)
                  for i, side in enumerate(fs))
    forced = None
    if where == SPACE:
        ships = [any(not f.transport for f in side) for side in fs]
        if ships[0] != ships[1]:
            forced = 0 if ships[0] else 1
    outcomes = []
    for winner in (0, 1):
        loser = 1 - winner
        lost_l = loser_losses(fs[loser])
        if forced == winner:
            lost_w: list[Fighter] = []
        else:
            owed = sum((f.force for f in lost_l), Fraction(0)) / 2
            lost_w = winner_losses(fs[winner], owed)
        pair = (lost_w, lost_l) if winner == 0 else (lost_l, lost_w)
        outcomes.append(pair)
    return Battle((force[0], force[1]), forced, tuple(outcomes), (len(fs[0]), len(fs[1])))


def played_bonus(cat: SpaceEmpiresCatalog, side: str, stack: Sequence[Chit], where: str,
                 situation: Situation) -> tuple[int, list[str]]:
    total, notes = 0, []
    counts = Counter(stack)
    for card in force_cards(cat):
        n = int(situation.get(card_key(side, card), 0))
        if n:
            bonus = _bonus(card, counts, where) * n
            total += bonus
            notes.append(f"{n}x {card.name} +{bonus}")
    return total, notes


def random_bonus_gap(cat: SpaceEmpiresCatalog, stacks: tuple[list[Chit], list[Chit]],
                     where: str, hand: int) -> Dist:
    """Attacker's card bonus minus the defender's, over every pair of hands dealt from the
    full deck, each side playing all its helpful cards."""
    deck = [c for d in cat.decks for c in d.cards]
    total = sum(c.count for c in deck)
    kinds = []
    counts = (Counter(stacks[0]), Counter(stacks[1]))
    for card in force_cards(cat):
        gains = (_bonus(card, counts[0], where), _bonus(card, counts[1], where))
        if any(gains):
            kinds.append((card.count, gains))
    others = total - sum(n for n, _ in kinds)
    hand = min(hand, total // 2)
    # ways[(cards of A, cards of B, bonus gap)] = number of ways to deal those helpful cards
    ways: dict[tuple[int, int, int], int] = {(0, 0, 0): 1}
    for count, (gain_a, gain_b) in kinds:
        nxt: dict[tuple[int, int, int], int] = {}
        for (na, nb, gap), w in ways.items():
            for a in range(min(count, hand - na) + 1):
                for b in range(min(count - a, hand - nb) + 1):
                    key = (na + a, nb + b, gap + a * gain_a - b * gain_b)
                    nxt[key] = nxt.get(key, 0) + w * math.comb(count, a) * math.comb(count - a, b)
        ways = nxt
    weights: dict[int, int] = {}
    for (na, nb, gap), w in ways.items():
        rest_a, rest_b = hand - na, hand - nb
        if rest_a > others or rest_b > others - rest_a:
            continue
        weights[gap] = weights.get(gap, 0) + w * math.comb(others, rest_a) * math.comb(
            others - rest_a, rest_b)
    den = math.comb(total, hand) * math.comb(total - hand, hand)
    lo = min(weights)
    row = [0] * (max(weights) - lo + 1)
    for gap, w in weights.items():
        row[gap - lo] = w
    return Dist.make(lo, row, den)


def _num(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{float(x):g}"


def _stack_text(cat: SpaceEmpiresCatalog, stack: Sequence[Chit], where: str, invader: bool,
                bombard: bool) -> str:
    """Each chit with the Force it fights with here, and why when that is not its printed
    Force: a count of 0 the player can't see the reason for reads as a mistake."""
    fought = {id(f.chit): f for f in fighters(cat, stack, where, invader, bombard)}
    out = []
    for chit in stack:
        f = fought.get(id(chit))
        if f is None:
            out.append(f"{chit.name} {chit.force}: a ship stays out of a ground battle unless "
                       f"the invader's ships bombard")
        elif f.transport:
            out.append(f"{chit.name} {chit.force}: Force {_num(f.force)}, a ground unit rides a "
                       f"transport in space")
        elif f.bombarding:
            out.append(f"{chit.name} {chit.force}: Force {_num(f.force)} bombarding")
        else:
            out.append(f"{chit.name} {chit.force}")
    return "; ".join(out)


def _lost_text(lost: Sequence[Fighter]) -> str:
    if not lost:
        return "nothing"
    return ", ".join(f.chit.name for f in lost)


class SpaceEmpiresResolver(Resolver[SpaceEmpiresCatalog, Chit]):
    """Space Empires' quick-resolve: a battle of two stacks, with the action cards played."""

    def extras(self, catalog: SpaceEmpiresCatalog, roster: Roster) -> tuple[RosterEntry, ...]:
        """The starting draw's chits, a stack of each kind, labelled as drawn."""
        draw = Empire.of(catalog, roster).draw(catalog)
        if draw is None:
            return ()
        kinds = Counter((*draw.space, *draw.ground))
        return tuple(RosterEntry(unit=name, count=n, label=f"drawn: {name}")
                     for name, n in kinds.items())

    def options(self, cat: SpaceEmpiresCatalog, attacker: Side[Chit],
                defender: Side[Chit]) -> tuple[Option, ...]:
        stacks = (_chits(attacker), _chits(defender))
        default = SPACE if any(c.is_space for c in stacks[1]) else GROUND
        hand = cat.constants.hand_draw
        out = [Option.pick("battle", "Battle", [SPACE, GROUND], default,
                           "A space battle (ground units ride transports at Force 0) or a ground "
                           "battle on a planet."),
               Option.flag("bombard", "Attacker's ships bombard", "In a ground battle the "
                           "invading stack's space units join at half their Force.", True),
               Option.pick("cards", "Action cards", [AS_SET, RANDOM], AS_SET,
                           "The cards each side plays, as set below; or every helpful card of a "
                           "hand dealt at random, counted over all hands."),
               Option.number("hand", "Cards in each hand", 0, cat.constants.hand_max, hand,
                             "For random hands: how many cards each side holds.")]
        for side, stack in zip(SIDES, stacks, strict=True):
            kinds = dict.fromkeys(stack)
            for card in force_cards(cat):
                if any(card_applies(card, c, battle) for c in kinds for battle in (SPACE, GROUND)):
                    out.append(Option.number(card_key(side, card), f"{side.title()} plays "
                                                                   f"{card.name}", 0, card.count, 0,
                                             card.text))
        return tuple(out)

    def resolve(self, cat: SpaceEmpiresCatalog, attacker: Side[Chit], defender: Side[Chit],
                situation: Situation) -> Result:
        stacks = (_chits(attacker), _chits(defender))
        where = str(situation["battle"])
        b = battle(cat, stacks, where, bool(situation["bombard"]))
        bombard = bool(situation["bombard"])
        steps = [f"{side.title()}: Force {_num(b.force[i])} before cards "
                 f"({_stack_text(cat, stacks[i], where, i == 0, bombard)})"
                 for i, side in enumerate(SIDES)]
        if situation["cards"] == RANDOM:
            gap = random_bonus_gap(cat, stacks, where, int(situation["hand"]))
            steps.append(f"each side holds {situation['hand']} cards dealt from the full deck and "
                         f"plays every card that adds Force")
        else:
            bonus = []
            for i, side in enumerate(SIDES):
                value, notes = played_bonus(cat, side, stacks[i], where, situation)
                bonus.append(value)
                if notes:
                    steps.append(f"{side.title()} cards: {', '.join(notes)}")
            gap = Dist.point(bonus[0] - bonus[1])
        base = b.force[0] - b.force[1]
        zero: Prob = Fraction(0)
        if b.forced_winner is not None:
            win, tie = (1 - zero if b.forced_winner == 0 else zero), zero
        else:  # the attacker wins when its card bonus gap beats -base
            win = gap.at_least(math.floor(-base) + 1)
            tie = gap.prob(int(-base)) if base.denominator == 1 else zero
        lose = 1 - win - tie
        if b.forced_winner is not None:
            steps.append(f"{SIDES[b.forced_winner].title()} has ships against transports only: "
                         f"it wins and loses nothing")
        outcomes = [(win, b.losses_if_won[0]), (lose, b.losses_if_won[1]),
                    (tie, ([], []))]
        def_lost = Dist.mixture((p, Dist.point(len(pair[1]))) for p, pair in outcomes)
        att_lost = Dist.mixture((p, Dist.point(len(pair[0]))) for p, pair in outcomes)
        for label, (p, (lost_a, lost_d)) in zip(("attacker wins", "defender wins"), outcomes,
                                                strict=False):
            if p:
                steps.append(f"if the {label}: attacker loses {_lost_text(lost_a)}; "
                             f"defender loses {_lost_text(lost_d)}")
        headline = Outcome("defender_lost", f"Units lost by {defender.label}", def_lost,
                           labels=tuple(str(i) for i in range(b.sizes[1] + 1)), kill_at=b.sizes[1],
                           kill_word="destroy the stack")
        other = Outcome("attacker_lost", f"Units lost by {attacker.label}", att_lost,
                        labels=tuple(str(i) for i in range(b.sizes[0] + 1)), kill_at=b.sizes[0],
                        kill_word="be destroyed")
        # Only a beaten stack's Leaders are captured; a winner's Leader paid as a loss just falls.
        (p_win, (_, beaten_d)), (p_lose, (beaten_a, _)) = outcomes[0], outcomes[1]
        captured_d = p_win if any(f.chit.is_leader for f in beaten_d) else zero
        captured_a = p_lose if any(f.chit.is_leader for f in beaten_a) else zero
        chances = [Chance("Attacker wins (the defender retreats)", win),
                   Chance("Defender wins (the attacker retreats)", lose),
                   Chance("Standoff (equal Force)", tie),
                   Chance("Defender's Leader captured", captured_d),
                   Chance("Attacker's Leader captured", captured_a)]
        summary = f"{percent(win)} to win" + (f", {percent(tie)} standoff" if tie else "")
        return Result(system="spaceempires", attacker=attacker.label, defender=defender.label,
                      summary=summary, outcome=headline, others=(other,), chances=tuple(chances),
                      steps=tuple(steps))


RESOLVER = SpaceEmpiresResolver()
