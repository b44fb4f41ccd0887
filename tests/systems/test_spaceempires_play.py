"""War Hammer Space Empires at the table (listbuilder/systems/spaceempires/play.py): each rule
of play pinned to the seed's numbers (the Warp Empires turn, the shared 49-card deck, revenue,
recruit limits, upkeep, battles and their losses, the 80% victory), with the refusals a player
meets and the end of the game."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from playtools import LIBRARY, player

from listbuilder.engine.match import Event, Match, MatchError, event, replay
from listbuilder.engine.match_file import read_match
from listbuilder.engine.registry import get_system
from listbuilder.systems.spaceempires.play import (
    BATTLE,
    CONTROL,
    DEFAULT_MAP_PLANETS,
    DRAW,
    MAX_MAP_PLANETS,
    MOVE,
    PHASES,
    RECRUIT,
    REVENUE,
    UPKEEP,
    SpaceEmpiresPlay,
    SpaceEmpiresState,
)
from listbuilder.systems.spaceempires.resolve import battle

PLAY = SpaceEmpiresPlay(get_system("spaceempires"))

ROOT = Path(__file__).resolve().parents[2]
# side 1, Ann: the Orks of legal.yaml (a Homeworld, revenue 5, 2 saved, 7 spent on 3 recruits)
# side 2, Ben: the Eldar of legal-big-empire.yaml (1 Homeworld, 2 Rich, 3 Poor: revenue 14,
# 4 saved, 17 spent on 5 recruits)
ANN = (ROOT / "examples" / "spaceempires" / "legal.yaml").read_text(encoding="utf-8")
BEN = (ROOT / "examples" / "spaceempires" / "legal-big-empire.yaml").read_text(encoding="utf-8")
# the hands dealt in most tests: five cards each, named as they are drawn
ANN_HAND = ("Space Combat", "Fighter Escort", "Leadership", "Hold Ground", "Terraform")
BEN_HAND = ("Space Combat", "Fighter Escort", "Leadership", "Psionic Storm", "Decoy Force")


def roster(faction: str, **choices: int) -> str:
    choices.setdefault("seed", 1)
    lines = "".join(f"  {k}: {v}\n" for k, v in choices.items())
    return (f"format: 1\nsystem: spaceempires\nname: Test\nfactions: [{faction}]\n"
            f"choices:\n{lines}entries: []\n")


def match(*events: Event, rosters: tuple[str, ...] = (ANN, BEN), **options: int) -> Match:
    names = ("Ann", "Ben")
    return Match("spaceempires", tuple(player(n, r) for n, r in zip(names, rosters,
                                                                     strict=False)),
                 events, tuple(sorted(options.items())))


def play(*events: Event, rosters: tuple[str, ...] = (ANN, BEN), **options: int
         ) -> SpaceEmpiresState:
    return replay(PLAY, match(*events, rosters=rosters, **options))


def refused(*events: Event, rosters: tuple[str, ...] = (ANN, BEN), **options: int) -> str:
    """The message of the last event, which the rules refuse (every earlier one is fine)."""
    with pytest.raises(MatchError) as raised:
        play(*events, rosters=rosters, **options)
    assert raised.value.position == len(events), raised.value
    return raised.value.message + " | " + raised.value.fix


def draws(side: int, cards: tuple[str, ...]) -> list[Event]:
    return [event("draw", side, card=c) for c in cards]


def to_phase(phase: int, hands: tuple[tuple[str, ...], ...] = (ANN_HAND, BEN_HAND)
             ) -> list[Event]:
    """Turn 1 from its Draw Phase (each side drawing its hand) up to `phase`."""
    out = [e for n, hand in enumerate(hands, 1) for e in draws(n, hand)]
    return out + [event("next-phase")] * phase


def data(s: SpaceEmpiresState, side: int) -> dict:
    return PLAY.to_data(s)["sides"][side - 1]


def unit(s: SpaceEmpiresState, side: int, name: str) -> dict:
    return next(u for u in PLAY.units(s, side) if u["name"] == name)


def lost_and_left(s: SpaceEmpiresState) -> dict:
    return PLAY.to_data(s)["battles"][-1]


# -- the start ------------------------------------------------------------------------------

def test_the_match_starts_from_each_roster_as_built() -> None:
    """Setup: an empire starts with its 8 space and 12 ground chits drawn at random; the
    roster adds what it recruited, paid from revenue + savings, and the rest is saved."""
    s = play()
    ann, ben = data(s, 1), data(s, 2)
    assert (ann["units_in_play"], ben["units_in_play"]) == (20 + 3, 20 + 5)
    assert (ann["treasury"], ben["treasury"]) == (5 + 2 - 7, 14 + 4 - 17)
    assert ann["planets"] == {"Poor": 0, "Rich": 0, "Homeworld": 1}
    assert ben["planets"] == {"Poor": 3, "Rich": 2, "Homeworld": 1}
    assert (ann["revenue"], ben["revenue"]) == (5, 1 * 3 + 3 * 2 + 5)
    assert (ann["upkeep"], ben["upkeep"]) == (5 * 5, 5 * 14)
    assert ann["pile_left"] == 84 - 23  # the Ork pile holds 84 chits
    out = PLAY.to_data(s)
    assert (out["turn"], out["phase"]) == (1, "Draw")
    assert out["deck_left"] == 49 and len(out["deck"]) == 18
    assert out["deck"]["Tactical Move"] == 12 and out["deck"]["Terraform"] == 1
    json.dumps(out)  # plain data


def test_units_keep_their_roster_entry_numbers() -> None:
    """The tracker's list: the roster's entries first, by their numbers, then the drawn chits."""
    rows = PLAY.units(play(), 1)
    assert [(u["unit"], u["name"]) for u in rows[:3]] == [
        (1, "Warboss"), (2, "Gretchin Mob"), (3, "Ork Warship")]
    assert [u["unit"] for u in rows] == list(range(1, len(rows) + 1))
    assert all(u["alive"] for u in rows)
    assert sum(u["in_play"] for u in rows) == 23
    assert unit(play(), 1, "Warboss")["cost"] == 2  # a Leader costs half its Force


def test_the_map_size_is_an_option() -> None:
    """The module prints no map: `planets` sets it, at least what the empires hold, at most
    the 60 of the largest map the roster rules allow."""
    assert PLAY.to_data(play())["map_planets"] == DEFAULT_MAP_PLANETS
    assert PLAY.to_data(play(planets=9))["map_planets"] == 9
    assert PLAY.to_data(play(planets=3))["map_planets"] == 7  # the empires hold 1 + 6
    assert PLAY.to_data(play(planets=500))["map_planets"] == MAX_MAP_PLANETS
    assert PLAY.to_data(play(planets=9))["unclaimed_planets"] == 2


# -- the Draw Phase and the deck -----------------------------------------------------------

def test_each_player_draws_five_cards_in_the_draw_phase() -> None:
    """Draw Phase: each player draws 5 action cards from the shared deck."""
    s = play(*to_phase(DRAW))
    assert data(s, 1)["hand_size"] == 5 and data(s, 2)["hand_size"] == 5
    out = PLAY.to_data(s)
    assert out["deck_left"] == 49 - 10
    assert "Space Combat" not in out["deck"]  # both copies are in the hands
    assert "drawn the 5 cards" in refused(*to_phase(DRAW), event("draw", 1, card="Recon"))
    short = draws(1, ANN_HAND) + draws(2, BEN_HAND[:3])
    assert "drawn 3 of the 5" in refused(*short, event("next-phase"))


def test_a_card_drawn_must_be_left_in_the_deck() -> None:
    """The deck holds 49 cards of 18 kinds, each as many as the seed lists: one Terraform."""
    assert "no Terraform is left" in refused(event("draw", 1, card="Terraform"),
                                             event("draw", 2, card="Terraform"))
    assert "has no card 'Joker'" in refused(event("draw", 1, card="Joker"))


def test_an_empty_deck_is_the_discards_shuffled() -> None:
    """If the deck runs out, the discards are shuffled into a new deck."""
    s = play()
    empty = replace(s, deck=(0,) * len(s.deck), discard=s.deck)
    after = PLAY.apply(empty, event("draw", 1, card="Recon"))
    out = PLAY.to_data(after)
    assert out["reshuffles"] == 1 and out["deck_left"] == 48 and out["discard_size"] == 0


def test_discard_before_drawing_or_down_to_seven() -> None:
    """Draw Phase: first discard any cards you don't want, then draw 5; a hand holds at most
    7, and the excess is discarded before the phase ends."""
    turn_2 = [*to_phase(CONTROL), event("next-phase")]
    s = play(*turn_2, event("discard", 1, card="Hold Ground"))
    assert data(s, 1)["hand_size"] == 4 and PLAY.to_data(s)["discard"] == {"Hold Ground": 1}
    after_draw = [*turn_2, *draws(1, ("Recon", "Recon", "Barrage", "Barrage", "Outflank"))]
    assert data(play(*after_draw), 1)["hand_size"] == 10
    assert "may discard only before drawing" in refused(
        *after_draw[:-3], event("discard", 1, card="Recon"))  # 7 in hand: nothing to cut
    over = [*after_draw, *draws(2, ("Intelligence",) * 2 + ("Surprise",) * 2 + ("Outflank",))]
    assert "holds 10 cards, more than 7" in refused(*over, event("next-phase"))
    cut = [event("discard", 1, card=c) for c in ("Recon", "Recon", "Barrage")]
    cut += [event("discard", 2, card=c) for c in ("Intelligence", "Intelligence", "Surprise")]
    s = play(*over, *cut, event("next-phase"))
    assert PLAY.to_data(s)["phase"] == "Move" and data(s, 1)["hand_size"] == 7
    assert "holds no Titan Attack" in refused(*turn_2, event("discard", 1, card="Titan Attack"))
    assert "may discard only" in refused(*to_phase(MOVE), event("discard", 1, card="Leadership"))


# -- cards played ---------------------------------------------------------------------------

def test_move_cards_are_played_in_the_move_phase() -> None:
    """Move Phase: action cards move stacks; played cards go to the discards."""
    hand = ("Tactical Move", "Operational Move", "Recon", "Intelligence", "Barrage")
    hands = (hand, BEN_HAND)
    s = play(*to_phase(MOVE, hands), event("play", 1, card="Operational Move"))
    assert data(s, 1)["hand"].get("Operational Move") is None
    assert PLAY.to_data(s)["discard"] == {"Operational Move": 1}
    assert "only in the Move Phase" in refused(*to_phase(BATTLE, hands),
                                               event("play", 1, card="Tactical Move"))
    assert "holds no Strategic Move" in refused(*to_phase(MOVE, hands),
                                                event("play", 1, card="Strategic Move"))
    # Recon and Intelligence only look: any phase
    play(*to_phase(RECRUIT, hands), event("play", 1, card="Recon"))


def test_a_decoy_force_cancels_an_enemy_move() -> None:
    """Decoy Force negates a move by a target stack: the enemy must have moved this phase."""
    hand = ("Tactical Move",) * 5
    assert "played no move card" in refused(*to_phase(MOVE, (hand, BEN_HAND)),
                                            event("play", 2, card="Decoy Force"))
    play(*to_phase(MOVE, (hand, BEN_HAND)), event("play", 1, card="Tactical Move"),
         event("play", 2, card="Decoy Force"))


def test_terraform_and_industrialization_pay_ten_to_upgrade_a_world() -> None:
    """Terraform: pay 10 to make a Poor world Rich; Industrialization: a Rich world a
    Homeworld."""
    hands = (("Tactical Move",) * 5, ("Terraform", "Industrialization", "Recon", "Recon",
                                      "Barrage"))
    at_recruit = to_phase(RECRUIT, hands)
    s = play(*at_recruit, event("play", 2, card="Terraform"))
    ben = data(s, 2)
    assert ben["planets"] == {"Poor": 2, "Rich": 3, "Homeworld": 1}
    assert ben["treasury"] == 1 + 14 - 10 and ben["revenue"] == 14 - 1 + 3
    s = play(*at_recruit, event("play", 2, card="Industrialization"))
    assert data(s, 2)["planets"] == {"Poor": 3, "Rich": 1, "Homeworld": 2}
    # before the Revenue Phase Ben has 1 saved: not enough
    assert "costs 10 and Ben has 1" in refused(*to_phase(MOVE, hands),
                                               event("play", 2, card="Terraform"))
    # Ann holds no Poor world
    assert "holds none" in refused(*to_phase(RECRUIT), event("play", 1, card="Terraform"))


# -- revenue, recruits, upkeep ----------------------------------------------------------------

def test_revenue_is_collected_and_recorded_each_turn() -> None:
    """Revenue Phase: Poor 1, Rich 3, Homeworld 5 for every planet held; it is saved from turn
    to turn."""
    s = play(*to_phase(REVENUE))
    assert data(s, 1)["treasury"] == 0 + 5 and data(s, 2)["treasury"] == 1 + 14
    assert data(s, 2)["income"] == [{"turn": 1, "revenue": 14, "treasury": 15}]
    turn_2 = [*draws(1, ("Recon",) * 2 + ("Barrage",) * 2 + ("Outflank",)),
              *draws(2, ("Intelligence",) * 2 + ("Surprise",) * 2 + ("Outflank",))]
    cut = [event("discard", n, card=c) for n, c in ((1, "Recon"), (1, "Recon"), (1, "Barrage"),
                                                     (2, "Intelligence"), (2, "Intelligence"),
                                                     (2, "Surprise"))]
    s = play(*to_phase(CONTROL), event("next-phase"), *turn_2, *cut,
             *[event("next-phase")] * REVENUE)
    assert data(s, 1)["income"] == [{"turn": 1, "revenue": 5, "treasury": 5},
                                    {"turn": 2, "revenue": 5, "treasury": 10}]


def test_recruits_cost_their_force_and_leaders_half() -> None:
    """Recruit Phase: a unit costs its Force; a Leader half (rounded up)."""
    at = to_phase(RECRUIT)
    s = play(*at, event("recruit", 1, chit="Nobz", planet="Homeworld"))  # Force 3 Leader
    assert data(s, 1)["treasury"] == 5 - 2
    nobz = unit(s, 1, "Nobz")
    assert (nobz["in_play"], nobz["recruited"], nobz["cost"]) == (1, 1, 2)
    assert nobz["unit"] == len(PLAY.units(s, 1))  # a new row, after the others
    assert data(s, 1)["recruited_this_turn"]["Homeworld"] == 1
    assert "costs 6 and Ann has 5" in refused(
        *at, event("recruit", 1, chit="Mekboy Battle Barge", planet="Homeworld"))
    assert "only in the Recruit Phase" in refused(
        *to_phase(UPKEEP), event("recruit", 1, chit="Nobz", planet="Homeworld"))
    assert "no Gretchin Mob is left" in refused(   # its pile holds 1, in play already
        *at, event("recruit", 1, chit="Gretchin Mob", planet="Homeworld"))
    assert "has no 'Avatar'" in refused(*at, event("recruit", 1, chit="Avatar",
                                                   planet="Homeworld"))


def test_each_planet_kind_recruits_its_limit() -> None:
    """Poor planets recruit 1 ground unit a turn, Rich 3 (ground or space), Homeworlds 5."""
    rich = roster("Eldar", poor_planets=1, rich_planets=1, homeworlds=1, treasury=200)
    at = to_phase(RECRUIT)
    cheap = ("Ulthwe Black Guardians", "Alaitoc Scouts", "Scouts", "Scouts", "Warlock",
             "Saim-Hann Wild Riders")
    home = [event("recruit", 2, chit=c, planet="Homeworld") for c in cheap[:5]]
    s = play(*at, *home, rosters=(ANN, rich))
    assert data(s, 2)["recruited_this_turn"] == {"Poor": 0, "Rich": 0, "Homeworld": 5}
    assert "recruit 5 a turn, all taken" in refused(
        *at, *home, event("recruit", 2, chit=cheap[5], planet="Homeworld"), rosters=(ANN, rich))
    play(*at, *home, event("recruit", 2, chit=cheap[5], planet="Rich"), rosters=(ANN, rich))
    poor = event("recruit", 2, chit="Guardians", planet="Poor")
    assert "recruit 1 a turn, all taken" in refused(*at, poor, poor, rosters=(ANN, rich))
    assert "recruits ground units only" in refused(
        *at, event("recruit", 2, chit="Hellbore Escort", planet="Poor"), rosters=(ANN, rich))
    play(*at, event("recruit", 2, chit="Hellbore Escort", planet="Rich"), rosters=(ANN, rich))
    assert "holds no Rich planet" in refused(
        *at, event("recruit", 1, chit="Nobz", planet="Rich"))


def test_upkeep_keeps_five_units_per_revenue() -> None:
    """Upkeep Phase: 5 x revenue units are kept; the excess is discarded, and no more."""
    buy = [event("recruit", 1, chit=c, planet="Homeworld")
           for c in ("Bikeboyz", "Boarboyz", "Nobz")]  # 23 + 3 = 26 units, upkeep 25
    at = [*to_phase(RECRUIT), *buy, event("next-phase")]
    assert "Ann has 26 units; upkeep keeps 5 x 5 revenue = 25" in refused(*at,
                                                                          event("next-phase"))
    s = play(*at, event("disband", 1, chit="Gretchin Mob"), event("next-phase"))
    assert PLAY.to_data(s)["phase"] == "Control"
    assert unit(s, 1, "Gretchin Mob")["alive"] is False
    assert unit(s, 1, "Gretchin Mob")["in_pile"] == 1  # back in the pile
    assert "1 to 1" in refused(*at, event("disband", 1, chit="Ork Warship", count=2))
    assert "all kept" in refused(*to_phase(UPKEEP), event("disband", 1, chit="Gretchin Mob"))
    assert "only in the Upkeep Phase" in refused(*to_phase(RECRUIT),
                                                 event("disband", 1, chit="Gretchin Mob"))


# -- battles ----------------------------------------------------------------------------------

def _space(*ann: tuple[str, int], ben: tuple[tuple[str, int], ...]) -> list[Event]:
    out = [*to_phase(BATTLE), event("battle", 2, where="space")]
    out += [event("join", 2, chit=c, count=n) for c, n in ben]
    out += [event("join", 1, chit=c, count=n) for c, n in ann]
    return out


def test_higher_force_wins_and_the_loser_loses_half() -> None:
    """Battle: each side adds its Force; the higher wins; the loser loses half its units
    (rounded up), then the winner gives up Force at least half what the loser lost."""
    fight = _space(("Nobz Hulk", 1), ("Mekboy Battle Barge", 2),
                   ben=(("Void Stalker", 1), ("Shadow Hunter", 2)))
    s = play(*fight, event("resolve"))
    b = PLAY.to_data(s)["battle"]
    assert b["force"] == [8 + 2 * 6, 10 + 2 * 6] and b["winner"] == 2
    assert b["loser_loses"] == 2 and b["retreats"] == 1
    assert b["suggested_losses"] == [["Nobz Hulk", "Mekboy Battle Barge"], ["Void Stalker"]]
    assert "loses its 2 units first" in refused(*fight, event("resolve"),
                                                event("lose", 2, chit="Shadow Hunter"))
    lost = [event("lose", 1, chit="Nobz Hulk"), event("lose", 1, chit="Mekboy Battle Barge")]
    s = play(*fight, event("resolve"), *lost)
    assert PLAY.to_data(s)["battle"]["winner_owes_force"] == 7  # (8 + 6) / 2
    assert "has lost its 2 units" in refused(*fight, event("resolve"), *lost,
                                             event("lose", 1, chit="Mekboy Battle Barge"))
    # one Shadow Hunter (6) is not enough; a second pays 12 >= 7 and ends the battle
    s = play(*fight, event("resolve"), *lost, event("lose", 2, chit="Shadow Hunter"))
    assert PLAY.to_data(s)["battle"] is not None
    s = play(*fight, event("resolve"), *lost, event("lose", 2, chit="Shadow Hunter"),
             event("lose", 2, chit="Shadow Hunter"))
    done = lost_and_left(s)
    assert PLAY.to_data(s)["battle"] is None and done["lost_force"] == [14, 12]
    assert unit(s, 1, "Nobz Hulk")["lost"] == 1 and unit(s, 1, "Nobz Hulk")["in_pile"] == 4
    assert data(s, 2)["units_in_play"] == 25 - 2


def test_resolve_can_apply_the_battle_maths_losses() -> None:
    """`apply: yes` takes the losses resolve.py picks: the same as the quick-resolve."""
    fight = _space(("Nobz Hulk", 1), ("Mekboy Battle Barge", 2),
                   ben=(("Void Stalker", 1), ("Shadow Hunter", 2)))
    s = play(*fight, event("resolve", apply=True))
    done = lost_and_left(s)
    assert done["lost"] == [["Nobz Hulk", "Mekboy Battle Barge"], ["Void Stalker"]]
    st = play(*fight)
    chits = {u.name: u for side in st.sides for u in side.units if u.faction in ("Orks", "Eldar")}
    stacks = ([chits[n] for n in ("Void Stalker", "Shadow Hunter", "Shadow Hunter")],
              [chits[n] for n in ("Nobz Hulk", "Mekboy Battle Barge", "Mekboy Battle Barge")])
    b = battle(st.catalog, stacks, "space", True)  # Ben attacked: his stack comes first
    att_lost, def_lost = b.losses_if_won[0]
    assert [f.chit.name for f in att_lost] == done["lost"][1]
    assert [f.chit.name for f in def_lost] == done["lost"][0]


def test_cards_and_the_leader_bonus_add_force() -> None:
    """Force cards add +5 to the units they name; a stack with a Leader facing one without
    gains +5, in space too (a Leader rides a transport at Force 0)."""
    fight = _space(("Nobz Hulk", 1), ("Warboss", 1), ben=(("Wraithship", 1),))
    s = play(*fight, event("resolve"))
    assert PLAY.to_data(s)["battle"]["force"] == [8 + 0 + 5, 8]
    s = play(*fight, event("play", 2, card="Space Combat"),
             event("play", 1, card="Fighter Escort"), event("resolve"))
    assert PLAY.to_data(s)["battle"]["force"] == [13 + 5, 8 + 5]
    assert PLAY.to_data(s)["battle"]["cards"] == [{"side": 2, "card": "Space Combat"},
                                                  {"side": 1, "card": "Fighter Escort"}]
    # a Leader riding a transport takes no card bonus: Leadership does nothing in space
    assert "none of Ann's units in this space battle can take Leadership's bonus" in refused(
        *fight, event("play", 1, card="Leadership"))
    assert "can take Hold Ground's bonus" in refused(*fight, event("play", 1, card="Hold Ground"))
    assert "no battle is being fought" in refused(*to_phase(BATTLE),
                                                  event("play", 1, card="Space Combat"))


def test_equal_force_is_a_standoff() -> None:
    """Equal totals: nobody retreats and nobody is lost (our reading, as quick-resolve's)."""
    s = play(*_space(("Nobz Hulk", 1), ben=(("Wraithship", 1),)), event("resolve"))
    done = lost_and_left(s)
    assert done["standoff"] is True and done["lost"] == [[], []]
    assert PLAY.to_data(s)["battle"] is None


def test_ships_against_transports_only_win_and_lose_nothing() -> None:
    """A Space unit against transports only always wins and takes no casualties; the
    transports fight at Force 0."""
    fight = _space(("Mekboy Gargant", 1), ("Shokk Attack Guns", 1), ("Lungburstas", 1),
                   ben=(("Hellbore Escort", 1),))
    s = play(*fight, event("play", 1, card="Fighter Escort"), event("resolve"))
    b = PLAY.to_data(s)["battle"]
    assert b["force"] == [5, 2] and b["winner"] == 2 and b["ships_against_transports"]
    assert b["loser_loses"] == 2 and b["winner_owes_force"] == 0
    s = play(*fight, event("resolve"), event("lose", 1, chit="Mekboy Gargant"),
             event("lose", 1, chit="Lungburstas"))
    assert lost_and_left(s)["lost"] == [["Mekboy Gargant", "Lungburstas"], []]


def test_ships_are_lost_before_transports_in_space() -> None:
    """In a space battle the side's Space units are casualties before its transports."""
    fight = _space(("Ork Warship", 1), ("Mekboy Gargant", 1), ("Warboss", 1),
                   ben=(("Void Stalker", 1), ("Wraithship", 1)))
    # Ann 4 + 0 + 0 + Leader 5 = 9 against 18: Ann loses 2 of 3
    assert "lost only after its ships" in refused(*fight, event("resolve"),
                                                  event("lose", 1, chit="Mekboy Gargant"))
    s = play(*fight, event("resolve"), event("lose", 1, chit="Ork Warship"),
             event("lose", 1, chit="Warboss"))
    # a beaten stack's Leader is captured: set aside, not back in the pile
    assert unit(s, 1, "Warboss")["captured"] == 1 and unit(s, 1, "Warboss")["in_pile"] == 0
    assert data(s, 1)["captured_leaders"] == 1
    # Ann lost Force 4 + 0: Ben owes 2, and gives up a ship
    assert PLAY.to_data(s)["battle"]["winner_owes_force"] == 2


def test_a_ground_battle_and_its_bombarding_ships() -> None:
    """Ground battles come after space battles; an invader's ships bombard at half their
    Force and are its last casualties; a defender's ships stay out."""
    at = [*to_phase(BATTLE), event("battle", 2, where="ground")]
    fight = [*at, event("join", 2, chit="Eclipse Cruiser"), event("join", 2, chit="Guardians"),
             event("join", 1, chit="Gretchin Mob")]
    s = play(*fight, event("resolve"))
    assert PLAY.to_data(s)["battle"]["force"] == [1, 4 / 2 + 1]
    assert "lost only after its ground units" in refused(
        *fight, event("resolve"), event("lose", 1, chit="Gretchin Mob"),
        event("lose", 2, chit="Eclipse Cruiser"))
    assert "a defender's ships fight in space" in refused(*at,
                                                          event("join", 1, chit="Nobz Hulk"))
    # once a ground battle is fought, no space battle follows this phase
    done = play(*fight, event("resolve"), event("lose", 1, chit="Gretchin Mob"),
                event("lose", 2, chit="Guardians"))
    assert PLAY.to_data(done)["battle"] is None
    refill = draws(1, ("Recon", "Recon")) + draws(2, ("Barrage", "Barrage"))
    assert "space battles come before ground battles" in refused(
        *fight, event("resolve"), event("lose", 1, chit="Gretchin Mob"),
        event("lose", 2, chit="Guardians"), *refill, event("battle", 1, where="space"))


def test_hands_fill_to_seven_after_a_battle() -> None:
    """After a battle both sides replenish their hands to 7 cards, before the next battle or
    phase; drawing in the Battle Phase is only that."""
    fight = _space(("Nobz Hulk", 1), ben=(("Wraithship", 1),))
    done = [*fight, event("resolve")]  # a standoff
    assert "fill their hands to 7; Ann holds 5" in refused(*done, event("next-phase"))
    assert "fill their hands to 7" in refused(*done, event("battle", 1, where="space"))
    fill = draws(1, ("Recon", "Recon")) + draws(2, ("Barrage", "Barrage"))
    s = play(*done, *fill, event("next-phase"))
    assert PLAY.to_data(s)["phase"] == "Revenue"
    assert "already holds 7" in refused(*done, *fill, event("draw", 1, card="Outflank"))
    # the hands are full: a card played after that is not drawn back before play goes on
    s = play(*done, *fill, event("play", 1, card="Recon"), event("next-phase"))
    assert data(s, 1)["hand_size"] == 6
    assert "only to fill the hands to 7 just after a battle" in refused(
        *done, *fill, event("play", 1, card="Recon"), event("draw", 1, card="Outflank"))
    assert "only to fill the hands" in refused(*to_phase(BATTLE), event("draw", 1, card="Recon"))
    assert "battle 1 is being fought" in refused(*fight, event("draw", 1, card="Recon"))
    assert "battle 1 is not over" in refused(*fight, event("next-phase"))


def test_a_battle_needs_units_and_a_phase() -> None:
    assert "only in the Battle Phase" in refused(*to_phase(MOVE),
                                                 event("battle", 1, where="space"))
    assert "space or on the ground" in refused(*to_phase(BATTLE),
                                               event("battle", 1, where="orbit"))
    assert "has 1 Nobz Hulk in play" in refused(
        *_space(ben=(("Wraithship", 1),)), event("join", 1, chit="Nobz Hulk", count=2))
    assert "Ben has no units in this battle" in refused(
        *to_phase(BATTLE), event("battle", 2, where="space"), event("join", 1, chit="Nobz Hulk"),
        event("resolve"))
    assert "once a battle is resolved" in refused(*_space(("Nobz Hulk", 1), ben=()),
                                                  event("lose", 1, chit="Nobz Hulk"))


# -- control and the end ----------------------------------------------------------------------

def test_planets_change_hands_in_the_control_phase() -> None:
    """Control Phase: a planet where your units stand becomes yours: an unclaimed one, or the
    enemy's (taken)."""
    at = to_phase(CONTROL)
    s = play(*at, event("capture", 2, planet="Poor"), event("capture", 2, planet="Homeworld",
                                                            taken=True))
    assert data(s, 2)["planets"] == {"Poor": 4, "Rich": 2, "Homeworld": 2}
    assert data(s, 1)["planets_held"] == 0 and data(s, 2)["revenue"] == 14 + 1 + 5
    assert "Ann holds no Rich planet" in refused(*at, event("capture", 2, planet="Rich",
                                                            taken=True))
    assert "every planet of the map (8) is held" in refused(
        *at, event("capture", 1, planet="Poor"), event("capture", 1, planet="Poor"), planets=8)
    assert "only in the Control Phase" in refused(*to_phase(UPKEEP),
                                                  event("capture", 1, planet="Poor"))


def test_over_eighty_percent_of_the_planets_wins() -> None:
    """Victory: capture over 80% of the planets on the map; exactly 80% is not over."""
    at = to_phase(CONTROL)
    two = [event("capture", 2, planet="Poor")] * 2
    s = play(*at, *two, planets=10)  # 8 of 10: 80%
    assert not PLAY.outcome(s).over
    s = play(*at, *two, event("capture", 2, planet="Poor"), planets=10)  # 9 of 10
    out = PLAY.outcome(s)
    assert out.over and out.winner == 2
    assert out.reason == "Ben holds 9 of the map's 10 planets, over 80%"
    assert dict(out.scores)["Planets"] == (1, 9)
    assert "the game is over" in refused(*at, *two, event("capture", 2, planet="Poor"),
                                         event("next-phase"), planets=10)


# docs/rules-notes.md, Space Empires, "At the table: conceding"
def test_a_concession_ends_the_game_at_once_and_the_other_side_wins() -> None:
    """Any phase, a battle open or not: the other empire wins whatever the planets say, and
    nothing more is recorded."""
    fighting = (*to_phase(BATTLE), event("battle", 2, where="space"))
    assert {event("concede", 1), event("concede", 2)} <= set(PLAY.offers(play(*fighting)))
    s = play(*fighting, event("concede", 2))
    out = PLAY.outcome(s)
    assert (out.over, out.winner, out.reason) == (True, 1, "Ben conceded")
    assert dict(out.scores)["Planets"] == (1, 6)
    assert PLAY.to_data(s)["conceded"] == 2
    assert PLAY.offers(s) == []
    assert "the game is over" in refused(*fighting, event("concede", 2),
                                         event("join", 2, chit="Eclipse Cruiser"))
    assert PLAY.outcome(play(event("concede", 1))).winner == 2  # before the first draw too


def test_undoing_a_concession_brings_the_game_back() -> None:
    fighting = (*to_phase(BATTLE), event("battle", 2, where="space"))
    back = play(*fighting)  # the log without the concession
    assert not PLAY.outcome(back).over and back.battle is not None
    assert PLAY.to_data(back)["conceded"] is None
    assert {e.kind for e in PLAY.offers(back)} == {"join", "concede"}


def test_a_solo_concession_ends_the_game_with_no_winner() -> None:
    out = PLAY.outcome(play(*to_phase(MOVE, (ANN_HAND,)), event("concede", 1), rosters=(ANN,)))
    assert out.over and out.winner is None
    assert out.reason == "Ann conceded: a solo game has no winner"


def test_the_turn_runs_through_seven_phases() -> None:
    """Draw, Move, Battle, Revenue, Recruit, Upkeep, Control; then the next turn's Draw."""
    assert PHASES == ("Draw", "Move", "Battle", "Revenue", "Recruit", "Upkeep", "Control")
    s = play(*to_phase(CONTROL), event("next-phase"))
    out = PLAY.to_data(s)
    assert (out["turn"], out["phase"]) == (2, "Draw")
    assert data(s, 1)["drawn_this_phase"] == 0


def test_a_solo_match_plays_the_economy_without_battles() -> None:
    """One player: the other side is kept on paper; battles need two players."""
    s = play(*to_phase(REVENUE, (ANN_HAND,)), rosters=(ANN,))
    assert data(s, 1)["treasury"] == 5 and len(PLAY.to_data(s)["sides"]) == 1
    assert "needs two players" in refused(*to_phase(BATTLE, (ANN_HAND,)),
                                          event("battle", 1, where="space"), rosters=(ANN,))
    assert "no other player" in refused(*to_phase(CONTROL, (ANN_HAND,)),
                                        event("capture", 1, planet="Poor", taken=True),
                                        rosters=(ANN,))
    assert PLAY.offers(s)


def test_every_offer_is_accepted() -> None:
    s = play(*to_phase(BATTLE), event("battle", 2, where="space"))
    for ev in PLAY.offers(s):
        PLAY.apply(s, ev)
    # the battle waits for its stacks (or the game is given up)
    assert {e.kind for e in PLAY.offers(s)} == {"join", "concede"}


def test_the_example_match_ends_with_ben_holding_eight_of_nine() -> None:
    path = ROOT / "examples" / "spaceempires" / "match.yaml"
    loaded = read_match(path.read_text(encoding="utf-8"), str(path), LIBRARY.read_roster)
    play_ = get_system("spaceempires").play()
    assert isinstance(play_, type(PLAY)) and play_.system is PLAY.system
    s = replay(PLAY, loaded.match)
    out = PLAY.outcome(s)
    assert out.over and out.winner == 2 and dict(out.scores)["Planets"] == (1, 8)
    # the one-card draw of older logs: tests/systems/data/spaceempires-one-card-draws.yaml
    assert {e.kind for e in loaded.match.events} == set(PLAY.kinds) - {"concede", "draw"}
    assert 20 <= len(loaded.match.events) <= 60
