"""Space Empires quick-resolve: Force totals, the Leader bonus, cards, transports, bombardment,
the winner and each side's losses; chances over random hands, counted exactly."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from fractions import Fraction

import pytest
from montecarlo import assert_chances, simulate

from listbuilder.engine.dice import Roller
from listbuilder.engine.library import Library
from listbuilder.engine.registry import get_system
from listbuilder.engine.resolve import Result, Side, find_side, quick_resolve, resolve_names
from listbuilder.engine.system import RuleSystem
from listbuilder.systems.spaceempires.model import Chit, SpaceEmpiresCatalog
from listbuilder.systems.spaceempires.resolve import card_bonus, force_cards

Pair = tuple[RuleSystem, SpaceEmpiresCatalog]


@pytest.fixture(scope="module")
def se(library: Library) -> Pair:
    catalog = library.catalog("spaceempires")
    assert isinstance(catalog, SpaceEmpiresCatalog)
    return get_system("spaceempires"), catalog


def run(se: Pair, attacker: str, defender: str, **settings: object) -> Result:
    return resolve_names(se[0], se[1], attacker, defender, settings)


def chits(se: Pair, text: str) -> list[Chit]:
    out = [m.unit for m in find_side(se[0], se[1], text).members for _ in range(m.count)]
    assert all(isinstance(c, Chit) for c in out)
    return out  # type: ignore[return-value]


def chance_of(r: Result, start: str) -> Fraction | float:
    return next(c.p for c in r.chances if c.label.startswith(start))


def lost(r: Result) -> tuple[int, int]:
    """(attacker's losses, defender's losses) when the outcome is certain."""
    assert r.outcome.dist.lo == r.outcome.dist.hi and r.others[0].dist.lo == r.others[0].dist.hi
    return r.others[0].dist.lo, r.outcome.dist.lo


def test_higher_force_wins_and_losses_follow(se) -> None:
    r = run(se, "2x Goffs Ork Boyz", "Imperial Troops", battle="ground")  # 4 against 1
    assert chance_of(r, "Attacker wins") == 1 and r.summary == "100% to win"
    # the loser's one unit is half its stack rounded up; it lost Force 1, so the winner
    # gives up units worth at least 1/2: one Boyz chit
    assert lost(r) == (1, 1)
    assert r.outcome.p_kill == 1


def test_equal_force_is_a_standoff(se) -> None:
    """The seed names no tie rule: with equal Force nobody wins, nobody retreats and nobody
    loses units; the stacks stay and fight again in the next Battle Phase."""
    r = run(se, "Goffs Ork Boyz", "Tactical Marines", battle="ground")  # 2 against 2
    assert chance_of(r, "Standoff") == 1 and chance_of(r, "Attacker wins") == 0
    assert lost(r) == (0, 0)
    assert r.summary == "0% to win, 100% standoff"


def test_leader_bonus_only_against_a_stack_without_one(se) -> None:
    assert chance_of(run(se, "Warboss", "Terminators + Goffs Ork Boyz", battle="ground"),
                     "Attacker wins") == 1  # 4 + 5 against 7
    assert chance_of(run(se, "Warboss", "Terminators + Space Marine HQ", battle="ground"),
                     "Defender wins") == 1  # 4 against 6: both have a Leader


def test_the_loser_loses_half_rounded_up(se) -> None:
    """'Half of its units' rounds up: a beaten stack of 3 loses 2, a lone unit is lost."""
    r = run(se, "Great Gargant", "Tactical Marines + 2x Imperial Troops", battle="ground")
    assert lost(r)[1] == 2
    assert lost(run(se, "Great Gargant", "Imperial Troops", battle="ground"))[1] == 1


def test_only_a_beaten_stacks_leader_is_captured(se) -> None:
    """A winner whose only unit is its Leader pays the Leader as its loss; that Leader falls in
    victory and is not captured. A beaten Leader is captured."""
    won = run(se, "Warboss", "Predator Tanks", battle="ground")
    assert lost(won) == (1, 1)
    assert chance_of(won, "Attacker wins") == 1
    assert chance_of(won, "Attacker's Leader captured") == 0
    beaten = run(se, "Predator Tanks", "Warboss", battle="ground")
    assert chance_of(beaten, "Defender wins") == 1
    assert chance_of(beaten, "Defender's Leader captured") == 0
    assert chance_of(beaten, "Attacker's Leader captured") == 0  # Predator Tanks lead no one
    lone = run(se, "Great Gargant", "Warboss", battle="ground")
    assert chance_of(lone, "Defender's Leader captured") == 1


def test_winner_takes_the_strongest_loser_gives_the_weakest(se) -> None:
    """The winner picks the first unit lost: the strongest it may take. The loser picks the
    rest: its weakest. (Strength is the Force the unit fights with; in space the printed
    Force breaks ties between transports.)"""
    r = run(se, "Great Gargant + 2x Goffs Ork Boyz + Gretchin Mob",
            "Tactical Marines + 2x Imperial Troops + Terminators", battle="ground")
    text = " ".join(r.steps)
    assert "defender loses Terminators, Imperial Troops" in text


def test_winner_pays_the_cheapest_set_worth_half(se) -> None:
    """The winner gives up units whose Force adds up to at least half the Force the loser
    lost (5 + 1 = 6, so 3): the cheapest such set, here a Boyz (2) and the Gretchin (1),
    rather than the Gargant (10). The Force counted is what each unit fought with."""
    r = run(se, "Great Gargant + 2x Goffs Ork Boyz + Gretchin Mob",
            "Tactical Marines + 2x Imperial Troops + Terminators", battle="ground")
    assert "attacker loses Goffs Ork Boyz, Gretchin Mob" in " ".join(r.steps)
    assert lost(r) == (2, 2)


def test_space_battles_transports_and_ships(se) -> None:
    """In space ground units ride transports at Force 0 and are lost after the ships; ships
    against transports only always win and lose nothing."""
    even = run(se, "Ork Warship + Goffs Ork Boyz", "Thunderbolt Cruiser + Imperial Troops",
               battle="space")
    assert chance_of(even, "Standoff") == 1  # 4 against 4; the Boyz and Troops count 0
    led = run(se, "Warboss + Ork Warship + Goffs Ork Boyz",
              "Thunderbolt Cruiser + Imperial Troops", battle="space")
    assert chance_of(led, "Attacker wins") == 1  # the Leader bonus applies in space too
    steps = " ".join(led.steps)
    assert "defender loses Thunderbolt Cruiser" in steps  # its ship before its transport
    assert "attacker loses Ork Warship" in steps  # owes 2: a transport (0) can't pay it
    raid = run(se, "Cobra Destroyer", "Warlord + Goffs Ork Boyz + Nobz", battle="space")
    assert chance_of(raid, "Attacker wins") == 1
    assert lost(raid) == (0, 2)


def test_only_the_invaders_ships_bombard(se) -> None:
    """In a ground battle the invading stack's ships may bombard at half their Force and are
    its last casualties; the defender's ships take no part."""
    bomb = run(se, "Goffs Ork Boyz + Ork Warship", "Tactical Marines + Imperial Troops",
               battle="ground")
    assert chance_of(bomb, "Attacker wins") == 1  # 2 + 4/2 against 3
    no = run(se, "Goffs Ork Boyz + Ork Warship", "Tactical Marines + Imperial Troops",
             battle="ground", bombard="no")
    assert chance_of(no, "Defender wins") == 1
    ships = run(se, "Goffs Ork Boyz", "Tactical Marines + Thunderbolt Cruiser", battle="ground")
    assert chance_of(ships, "Standoff") == 1
    last = run(se, "Goffs Ork Boyz + Ork Warship", "Terminators", battle="ground")
    assert "attacker loses Goffs Ork Boyz;" in " ".join(last.steps)


def test_card_bonuses(se) -> None:
    """Each card played adds its bonus: 'all' cards to every unit of the type, 'one' cards to
    a single unit; every copy counts. Transports take no card bonus but Fighter Escort, and
    bombarding ships none."""
    catalog = se[1]
    cards = {c.name: c for c in force_cards(catalog)}
    stack = chits(se, "2x Goffs Ork Boyz + Warboss + Nobz + Ork Warship")
    assert card_bonus(cards["Hold Ground"], stack, "ground") == 10
    assert card_bonus(cards["Leadership"], stack, "ground") == 10
    assert card_bonus(cards["Leadership"], stack, "space") == 0
    assert card_bonus(cards["Space Combat"], stack, "space") == 5
    assert card_bonus(cards["Space Combat"], stack, "ground") == 0
    escort = run(se, "Goffs Ork Boyz", "Imperial Troops", battle="space",
                 attacker_fighter_escort=1)
    assert chance_of(escort, "Attacker wins") == 1  # 0 + 5 against 0
    twice = run(se, "Goffs Ork Boyz", "Terminators", battle="ground", attacker_hold_ground=2)
    assert chance_of(twice, "Attacker wins") == 1  # 2 + 10 against 5


def test_random_hands_are_counted_exactly(se) -> None:
    """With random hands each side holds cards dealt from the full 49-card deck and plays
    every card that adds to its Force. One card each, two infantry at Force 2: the attacker
    wins when it holds one of the two Hold Ground cards and the defender doesn't."""
    r = run(se, "Goffs Ork Boyz", "Tactical Marines", battle="ground", cards="random hands",
            hand=1)
    win = Fraction(2, 49) * Fraction(47, 48)
    assert chance_of(r, "Attacker wins") == win
    assert chance_of(r, "Defender wins") == win
    assert chance_of(r, "Standoff") == 1 - 2 * win
    assert r.outcome.dist.exact


def test_fortifications_fall_with_their_stack(se) -> None:
    system, catalog = se
    gun = catalog.find_unit("Traktor Kannons")
    assert isinstance(gun, Chit)
    fort = replace(gun, name="Bunker", fortification=True, force=1)
    r = quick_resolve(system, catalog, find_side(system, catalog, "Great Gargant"),
                      Side.of(fort, 1), {"battle": "ground"})
    assert lost(r) == (1, 1)


def test_hands_match_a_monte_carlo(se) -> None:
    catalog = se[1]
    deck = [card for d in catalog.decks for card in d.cards for _ in range(card.count)]
    attacker = "Warboss + 2x Goffs Ork Boyz + Ork Warship"
    defender = "Tactical Marines + 2x Imperial Troops + Basilisks"
    exact = run(se, attacker, defender, battle="ground", cards="random hands", hand=5)
    a_stack, d_stack = chits(se, attacker), chits(se, defender)
    bonus = {c.name: (card_bonus(c, a_stack, "ground"),
                      card_bonus(c, d_stack, "ground"))
             for c in force_cards(catalog)}

    def trial(r: Roller) -> str:
        dealt = r.pick(deck, 10)
        a = 4 + 2 + 2 + 4 // 2 + 5 + sum(bonus.get(c.name, (0, 0))[0] for c in dealt[:5])
        d = 2 + 1 + 1 + 1 + sum(bonus.get(c.name, (0, 0))[1] for c in dealt[5:])
        return "win" if a > d else "tie" if a == d else "lose"
    counts: Counter[str] = simulate(trial, 51)
    assert_chances({"win": chance_of(exact, "Attacker wins"),
                    "tie": chance_of(exact, "Standoff"),
                    "lose": chance_of(exact, "Defender wins")}, counts, "battle")


def test_the_starting_draw_can_be_picked_from_a_new_empire(se) -> None:
    """A new empire lists no recruits yet: its twenty drawn chits are what it fights with, by
    name from the command line and in the browser's list."""
    from listbuilder.engine.model import Roster
    from listbuilder.engine.resolve import fielded_entries
    from listbuilder.web.resolve.present import build_panel

    system, catalog = se
    roster = Roster(system="spaceempires", name="New", factions=("Orks",),
                    choices={"seed": 2024})
    drawn = system.resolver().extras(catalog, roster)
    assert sum(e.count for e in drawn) == 20 and not roster.entries
    assert fielded_entries(system, catalog, roster) == drawn
    first = drawn[0]
    side = find_side(system, catalog, first.unit, roster)
    assert side.members[0].count == first.count  # the whole stack of that kind
    panel = build_panel(system, catalog, roster, {})
    assert panel.available
    texts = [c.label for c in panel.form.a1.choices]
    assert len(texts) == len(drawn) and all("(fielded besides the list)" in t for t in texts)


def test_a_unit_at_force_0_says_why(se) -> None:
    """Ground units ride transports in space: counted at Force 0, and the working says so."""
    r = run(se, "Tactical Marines", "Ork Warship", battle="space")
    assert "Tactical Marines 2: Force 0, a ground unit rides a transport in space" in r.steps[0]
    r = run(se, "Gothic Battleship + Tactical Marines", "Goffs Ork Boyz", battle="ground",
            bombard="no")
    assert "a ship stays out of a ground battle unless" in r.steps[0]
