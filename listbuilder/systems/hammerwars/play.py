"""Hammer Wars at the table: the roll-off, each side's turn of deployment then combat, the
deployment economy (fresh pts and xp every deployment phase), the unit pool units are bought
from and return to when killed, lives, the morale counters, VP, and the secret goals scored
when a morale counter reaches 0 and the game ends.

In a side's combat phase each model on the table takes one action (Hold, Walk or Run:
`activate`); a hit made by one names it (`by`, its unit number in the attacker's roster, and
`attack`: shooting, melee or an Energy Pulse), so the rules can refuse a shot after a Run;
Energy Pulse (`pulse`) is used once in an activation and Chain Attack (`chain`) up to 3
times after melee kills. Logs from before hits named their attacker replay as they did: a hit
without `by` is checked as it always was.

The dice stay on the table: the log records what they decided (how many lives an attack took)
and the state says what follows by the rules (a unit with no lives left goes back to the pool,
every third unit lost costs morale, a Heavy lost gives the enemy a VP). Where the table alone
can tell whether a goal was met (markers seized, units near an edge) the players say so at the
end. Readings of unclear points: docs/rules-notes.md, Hammer Wars.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from listbuilder.engine.match import (
    Event,
    Kind,
    Match,
    Outcome,
    Play,
    Refused,
    Standing,
    Track,
    Value,
    event,
    not_in_catalog,
    other,
    players_of,
    with_side,
)
from listbuilder.engine.system import RuleSystem
from listbuilder.systems.hammerwars.model import HammerWarsCatalog, HwUnit

# -- the seed's numbers --------------------------------------------------------------------
MORALE_START = 10  # each morale counter starts here
FIRST_PLAYER_LOSS = 1  # the side that goes first starts this much lower
ROUND_END_LOSS = 1  # both sides, each time a round ends
UNITS_PER_LOSS = 3  # every this many units lost...
UNITS_LOSS = 1  # ...cost this much morale
HERO_LOSS = 1  # morale lost per Hero lost
HEAVY_LOSS = 1  # morale lost per Heavy lost...
HEAVY_VP = 1  # ...and the VP its killer's side gains at once
ZERO_VP = 1  # the VP a side gains when the enemy's morale reaches 0
PTS_PER_PHASE = 6  # pts a side gets at the start of each of its deployment phases
XP_PER_PHASE = 1  # xp likewise; pts left at the phase's end are lost, xp is kept
OBJECTIVES = 3  # objective markers on the table, numbered 1 to 3
GOAL_VP = 1  # what a goal met at the end is worth

HERO = "Hero"
HEAVY = "Heavy"
# goals whose objective marker is written down in secret and may be declared during the game
DECLARED_GOALS = ("Deception", "Duty")
# the goal the log itself can judge (an enemy Hero killed, or none ever deployed)
REVENGE = "Revenge"

# a unit type's status, as the tracker lists it
ON_TABLE = "on the table"
IN_POOL = "in the pool"
UNKNOWN = "not in the catalog"

DEPLOYMENT = "deployment"
COMBAT = "combat"

# the checks of every event while the game is played (not once it has ended, nor before
# the roll-off), and of a side's own phase
PLAYING = ("_not_ended", "_rolled")
MY_TURN = (*PLAYING, "_my_turn")
IN_COMBAT = (*MY_TURN, "_in_combat")

# a model's one action in its side's combat phase, and whether it may shoot after it
HOLD, WALK, RUN = "Hold", "Walk", "Run"
ACTIONS = (HOLD, WALK, RUN)
NO_SHOOTING = (RUN,)
# how an attack a hit names was made (`attack`)
SHOOTING, MELEE, PULSE = "shooting", "melee", "pulse"
ATTACKS = (SHOOTING, MELEE, PULSE)
ENERGY_PULSE = "Energy Pulse"
CHAIN_ATTACK = "Chain Attack"
CHAINS = 3  # chain attacks an activation may make at most

@dataclass(frozen=True)
class UnitState:
    """One roster entry: a unit type and its models, in the pool or on the table."""

    name: str
    category: str
    pts: int
    xp: int
    lives: int  # the card's lives: what a model deploys with
    count: int  # models of this type in the pool at the start
    in_pool: int  # models in the pool now (never deployed, or killed and returned)
    on_table: tuple[int, ...] = ()  # lives left of each model deployed, in deployment order
    killed: int = 0  # models of this type killed so far
    known: bool = True  # False: the entry names no unit card, so it never deploys
    # each model on the table's action this combat phase ("": none yet), as `on_table`
    acted: tuple[str, ...] = ()
    range: int = 0  # the card's, in inches: 0 fights in melee only
    rules: tuple[str, ...] = ()  # the card's special rules

    def action(self, model: int) -> str:
        return self.acted[model - 1] if 1 <= model <= len(self.acted) else ""

    def without(self, model: int) -> UnitState:
        """The unit with model `model` gone from the table (killed)."""
        return replace(self, on_table=self.on_table[:model - 1] + self.on_table[model:],
                       acted=self.acted[:model - 1] + self.acted[model:])


@dataclass(frozen=True)
class SideState:
    name: str
    units: tuple[UnitState, ...]
    goal: str | None  # the roster's secret goal (None: the roster has none)
    morale: int = MORALE_START
    vp: int = 0
    pts: int = 0  # to spend in the current deployment phase
    xp: int = 0  # kept from phase to phase
    lost: int = 0  # units killed, all types
    heroes_deployed: int = 0  # Heroes ever put on the table (Revenge asks whether any were)
    killed_hero: bool = False  # this side has killed an enemy Hero (Revenge)
    objective: int | None = None  # the marker declared for Deception or Duty
    goal_met: bool | None = None  # the goal's result, once the game has ended

    def unit(self, number: int) -> UnitState:
        return self.units[number - 1]


@dataclass(frozen=True)
class Activation:
    """The model whose action is under way (the last activated): what it did, whether it
    used its Energy Pulse, its chain attacks so far and whether a melee kill allows one."""

    side: int
    unit: int
    model: int
    action: str
    pulsed: bool = False
    chains: int = 0
    chain_ready: bool = False


@dataclass(frozen=True)
class HammerWarsState:
    sides: tuple[SideState, ...]
    round: int = 1
    first: int | None = None  # the side that goes first every round (2 may be the paper enemy)
    order: tuple[int, ...] = ()  # the sides at the table, in playing order
    step: int = 0  # index in `order` of the side whose turn it is; len(order): round done
    phase: str = DEPLOYMENT
    ended: str = ""  # why the game ended ("" while it goes on)
    conceded: int | None = None  # the side that gave up: the game is over at once
    current: Activation | None = None

    @property
    def active(self) -> int | None:
        """The side whose turn it is, None before the roll-off and once both have played."""
        return self.order[self.step] if self.step < len(self.order) else None

    def side(self, number: int) -> SideState:
        return self.sides[number - 1]

    def with_side(self, number: int, side: SideState) -> HammerWarsState:
        return replace(self, sides=with_side(self.sides, number, side))

    def present(self, number: int) -> bool:
        return 1 <= number <= len(self.sides)

    def goal_pending(self, number: int) -> bool:
        """Whether the players must still say if side `number` met its goal."""
        side = self.side(number)
        return bool(self.ended) and side.goal is not None and side.goal_met is None \
            and not self.judged(number)

    def judged(self, number: int) -> bool:
        """Revenge in a two-player game: the log knows the answer, nobody is asked."""
        return self.side(number).goal == REVENGE and len(self.sides) == 2

    def goal_result(self, number: int) -> bool | None:
        side = self.side(number)
        if not self.ended or side.goal is None:
            return None
        if self.judged(number):
            return side.killed_hero or self.side(other(number)).heroes_deployed == 0
        return side.goal_met

    def score(self, number: int) -> int:
        """VP so far, with the goal's once the game has ended and it is known met."""
        return self.side(number).vp + (GOAL_VP if self.goal_result(number) else 0)

    @property
    def over(self) -> bool:
        if self.conceded is not None:
            return True
        return bool(self.ended) and not any(self.goal_pending(s)
                                            for s in range(1, len(self.sides) + 1))


class HammerWarsPlay(Play[HammerWarsState]):
    system: RuleSystem[HammerWarsCatalog, HwUnit]
    kinds: ClassVar[Mapping[str, Kind]] = {
        "roll-off": Kind("Won the roll-off", unit=False, values={"first": bool},
                         words={"first": ("and goes first", "and lets the other side go first")},
                         checks=("_not_ended",)),
        "deploy": Kind("Deploy a model from the pool", checks=MY_TURN),
        "end-deployment": Kind("Deployment done (unspent pts are lost)", unit=False,
                               checks=MY_TURN),
        "activate": Kind("Action", values={"action": str, "model": int},
                         optional=("model",), asks={"model": "Which model"},
                         checks=IN_COMBAT),
        "pulse": Kind("Energy Pulse (once a round)", checks=IN_COMBAT),
        "chain": Kind("Chain Attack: on to a foe within 2\"", checks=IN_COMBAT),
        # `by` and `attack` came with the attacker named: a hit without them replays as
        # before, checked by nothing that needs the attacker
        "hit": Kind("Lives lost", values={"lives": int, "model": int, "by": int,
                                          "attack": str},
                    optional=("lives", "model", "by", "attack"),
                    asks={"lives": "Lives lost", "model": "Which model", "attack": "How",
                          "by": "By"},
                    words={"attack": {SHOOTING: "to shooting", MELEE: "in melee",
                                      PULSE: "to an Energy Pulse"},
                           "by": "by {}"},
                    checks=(*PLAYING, "_attacker_may")),
        "end-turn": Kind("Combat phase done: play passes", unit=False,
                         checks=MY_TURN),
        "round-end": Kind("End the round", side=False, unit=False, checks=PLAYING),
        "declare": Kind("Declare the goal's objective", unit=False,
                        values={"objective": int}, asks={"objective": "Objective"},
                        checks=PLAYING),
        "goal": Kind("The goal at the end", unit=False, values={"met": bool},
                     words={"met": ("is met", "is not met")}, checks=("_ended",)),
        "concede": Kind("Concede the game", unit=False, checks=("_not_ended",)),
    }

    # -- the start ---------------------------------------------------------------------------
    def start(self, match: Match) -> HammerWarsState:
        system = self.system
        sides = []
        for player, catalog in players_of(match, HammerWarsCatalog):
            roster = player.roster
            units = [UnitState(name=e.label or e.unit, category="", pts=0, xp=0, lives=0,
                               count=e.count, in_pool=0, known=False)
                     for e in roster.entries]
            for p in system.priced(catalog, roster):
                card = p.unit
                units[p.index] = UnitState(
                    name=p.entry.label or card.name, category=card.category, pts=card.pts,
                    xp=card.xp, lives=card.lives, count=p.entry.count, in_pool=p.entry.count,
                    range=card.range, rules=tuple(card.special_rules))
            chosen = catalog.goal(str(roster.choices.get("goal") or "").strip())
            sides.append(SideState(name=player.name, units=tuple(units),
                                   goal=chosen.name if chosen else None))
        return HammerWarsState(sides=tuple(sides))

    # -- events ------------------------------------------------------------------------------
    def absent(self, state: HammerWarsState, side: int, unit: int) -> Refused | None:
        found = state.side(side).unit(unit)
        return None if found.known else not_in_catalog(found.name)

    def _not_ended(self, state: HammerWarsState, ev: Event) -> None:
        if state.ended:
            waiting = [s for s in range(1, len(state.sides) + 1) if state.goal_pending(s)]
            raise Refused(f"the game has ended ({state.ended}): only the goals are left to "
                          "score", f"Record whether side {waiting[0]} met its goal."
                          if waiting else "Nothing is left to record.")

    def _ended(self, state: HammerWarsState, ev: Event) -> None:
        if not state.ended:
            raise Refused("goals are scored when the game ends, once a morale counter "
                          "reaches 0", "Record it then; declare a Deception or Duty "
                          "objective with 'declare' meanwhile.")

    def _rolled(self, state: HammerWarsState, ev: Event) -> None:
        if state.first is None:
            raise Refused("nobody has won the roll-off yet",
                          "Record the roll-off first: who won it, and whether they go first.")

    def _concede(self, state: HammerWarsState, ev: Event) -> HammerWarsState:
        """Any time before the game ends, the roll-off too."""
        return replace(state, conceded=ev.side or 1)

    def _end_deployment(self, state: HammerWarsState, ev: Event) -> HammerWarsState:
        side = ev.side or 1
        if state.phase != DEPLOYMENT:
            raise Refused(f"side {side}'s deployment phase is already over",
                          "Record the end of the combat phase with end-turn.")
        # pts left unspent are lost; xp stays
        return replace(state.with_side(side, replace(state.side(side), pts=0)), phase=COMBAT)

    def _end_turn(self, state: HammerWarsState, ev: Event) -> HammerWarsState:
        if state.phase != COMBAT:
            raise Refused(f"side {ev.side} is still deploying",
                          "Record end-deployment first, then the combat phase.")
        return _begin_turn(replace(state, step=state.step + 1, current=None))

    def _in_combat(self, state: HammerWarsState, ev: Event) -> None:
        if state.phase != COMBAT:
            raise Refused(f"side {ev.side} is still in its deployment phase: models act in "
                          "the combat phase", "Record end-deployment first.")

    def _activate(self, state: HammerWarsState, ev: Event) -> HammerWarsState:
        """One model's action: Hold, Walk or Run, once in its side's combat phase; without
        `model`, the first of its type on the table that has not acted yet."""
        side_no, number, action = ev.side or 1, ev.unit or 1, str(ev.get("action"))
        unit = state.side(side_no).unit(number)
        if action not in ACTIONS:
            raise Refused(f"a model's action is Hold, Walk or Run, not '{action}'",
                          "Pick one of the three.")
        if not unit.on_table:
            raise Refused(f"side {side_no} has no {unit.name} on the table",
                          "Deploy it before it can act.")
        waiting = [m for m in range(1, len(unit.on_table) + 1) if not unit.action(m)]
        model = ev.get("model", waiting[0] if waiting else 1)
        if not 1 <= model <= len(unit.on_table):
            raise Refused(f"side {side_no} has {len(unit.on_table)} {unit.name} on the table, "
                          f"not a model {model}", f"Give model 1 to {len(unit.on_table)}, "
                          "counted in the order they were deployed.")
        if unit.action(model):
            raise Refused(f"this {unit.name} has already acted this round "
                          f"({unit.action(model)}): each model takes one action a combat "
                          "phase", "Activate a model that has not acted, or end the turn.")
        acted = list(unit.acted)
        acted[model - 1] = action
        side = state.side(side_no)
        state = state.with_side(side_no, replace(side, units=_with(
            side.units, number, replace(unit, acted=tuple(acted)))))
        return replace(state, current=Activation(side_no, number, model, action))

    def _melee_by(self, state: HammerWarsState, ev: Event) -> int | None:
        """The attacker a hit names when it struck in melee (said, or a 0" range's only
        way), else None."""
        by = ev.get("by")
        if by is None or not state.present(other(ev.side or 1)):
            return None
        unit = state.side(other(ev.side or 1)).unit(by)
        how = ev.get("attack") or (MELEE if unit.range == 0 else SHOOTING)
        return int(by) if how == MELEE else None

    def _under_way(self, state: HammerWarsState, ev: Event, rule: str) -> Activation:
        """The activation of the unit `ev` names, which must carry `rule`."""
        side_no, number = ev.side or 1, ev.unit or 1
        unit = state.side(side_no).unit(number)
        if rule not in unit.rules:
            raise Refused(f"{unit.name} has no {rule}", f"Only a unit whose card lists "
                          f"{rule} may use it.")
        now = state.current
        if now is None or (now.side, now.unit) != (side_no, number):
            raise Refused(f"{rule} is used in the unit's own activation, and no "
                          f"{unit.name} is acting now", "Record its action first.")
        return now

    def _pulse(self, state: HammerWarsState, ev: Event) -> HammerWarsState:
        """Energy Pulse: once a round, when the unit is activated (it acts once a round, so
        once in its activation)."""
        now = self._under_way(state, ev, ENERGY_PULSE)
        if now.pulsed:
            raise Refused("this model has already used its Energy Pulse this round",
                          "Record the marker's hits as attacks by Energy Pulse.")
        return replace(state, current=replace(now, pulsed=True))

    def _chain(self, state: HammerWarsState, ev: Event) -> HammerWarsState:
        """Chain Attack: after a kill in melee, on to another foe, up to 3 times an
        activation."""
        now = self._under_way(state, ev, CHAIN_ATTACK)
        if now.chains >= CHAINS:
            raise Refused(f"a Chain Attack may be repeated up to {CHAINS} times an "
                          "activation, and this one has made all of them",
                          "End its activation: activate another model or end the turn.")
        if not now.chain_ready:
            raise Refused("a Chain Attack follows a kill in melee, and this model has made "
                          "none since it activated or last chained",
                          "Record the melee hit that killed an enemy first.")
        return replace(state, current=replace(now, chains=now.chains + 1, chain_ready=False))

    def _attacker_may(self, state: HammerWarsState, ev: Event) -> None:
        """What the seed forbids of the attacker a hit names (`by`): only then is it
        checked, so older logs replay as they were."""
        by, attack = ev.get("by"), ev.get("attack")
        if by is None:
            if attack is not None:
                raise Refused("a hit says how it was made only with the attacker that made "
                              "it", "Add by: the attacker's unit number, or leave attack "
                              "out.")
            return
        side_no = other(ev.side or 1)
        if not state.present(side_no):
            raise Refused("a solo game has no enemy roster to name the attacker from",
                          "Leave by out.")
        entries = state.side(side_no).units
        if not 1 <= by <= len(entries):
            raise Refused(f"side {side_no}'s units are numbered 1 to {len(entries)}, not "
                          f"{by}", "Give the attacker's number in its roster.")
        unit = entries[by - 1]
        if state.active != side_no or state.phase != COMBAT:
            raise Refused(f"{unit.name} attacks only in its own side's combat phase",
                          "Record the hit in side " + f"{side_no}'s combat phase.")
        if not unit.on_table:
            raise Refused(f"side {side_no} has no {unit.name} on the table to attack with",
                          "Name a unit that is deployed.")
        now = state.current
        if now is not None and (now.side, now.unit) == (side_no, by):
            actions = [now.action]
        else:
            actions = [a for a in unit.acted if a]
        if not actions:
            raise Refused(f"no {unit.name} has acted this turn: a model attacks as part "
                          "of its action", "Record its action (Hold, Walk or Run) first.")
        how = attack or (MELEE if unit.range == 0 else SHOOTING)
        if how not in ATTACKS:
            raise Refused(f"an attack is {', '.join(ATTACKS)}, not '{how}'",
                          "Say how the attack was made.")
        if how == SHOOTING and unit.range == 0:
            raise Refused(f"{unit.name} has a range of 0\": it attacks only in melee",
                          "Record the attack as melee.")
        if how == SHOOTING and all(a in NO_SHOOTING for a in actions):
            raise Refused(f"{unit.name} ran this turn, and a model that runs may not shoot",
                          "Record it as a melee attack if it fought in base contact; "
                          "undo the Run if it held or walked instead.")
        if how == PULSE and not (now is not None and (now.side, now.unit) == (side_no, by)
                                 and now.pulsed):
            raise Refused(f"no Energy Pulse of {unit.name} is under way",
                          "Record its Energy Pulse first, in its activation.")

    def _roll_off(self, state: HammerWarsState, ev: Event) -> HammerWarsState:
        winner, first = ev.side or 1, bool(ev.get("first"))
        if state.first is not None:
            raise Refused(f"the roll-off is done: side {state.first} goes first",
                          "Undo the roll-off to change who goes first.")
        goes_first = winner if first else other(winner)
        if goes_first <= len(state.sides):
            side = state.side(goes_first)
            state = state.with_side(goes_first,
                                    replace(side, morale=side.morale - FIRST_PLAYER_LOSS))
        # a solo game plays its one side's turns, whoever goes first
        order = tuple(s for s in (goes_first, other(goes_first)) if state.present(s))
        return _begin_turn(replace(state, first=goes_first, order=order, step=0))

    def _my_turn(self, state: HammerWarsState, ev: Event) -> None:
        side, kind = ev.side or 1, ev.kind
        if state.active is None:
            raise Refused(f"both sides have played round {state.round}",
                          "End the round with round-end.")
        if state.active != side:
            fix = (f"Side {side} deploys in its own turn's deployment phase." if kind == "deploy"
                   else f"Record side {state.active}'s {state.phase} phase first.")
            raise Refused(f"it is side {state.active}'s turn, not side {side}'s", fix)

    def _deploy(self, state: HammerWarsState, ev: Event) -> HammerWarsState:
        side_no, number = ev.side or 1, ev.unit or 1
        side = state.side(side_no)
        unit = side.unit(number)
        if state.phase != DEPLOYMENT:
            raise Refused(f"side {side_no}'s deployment phase is over this turn",
                          "Deploy in the next turn's deployment phase.")
        if unit.in_pool < 1:
            raise Refused(f"no {unit.name} is left in the pool ({len(unit.on_table)} on the "
                          "table)", "A killed model returns to the pool; deploy another type.")
        if side.pts < unit.pts or side.xp < unit.xp:
            raise Refused(f"{unit.name} costs {_cost(unit.pts, unit.xp)}; side {side_no} has "
                          f"{_cost(side.pts, side.xp, always_xp=True)} left",
                          "Deploy something cheaper, or end the deployment phase (xp is "
                          "kept for later rounds).")
        unit = replace(unit, in_pool=unit.in_pool - 1, on_table=(*unit.on_table, unit.lives),
                       acted=(*unit.acted, ""))
        side = replace(side, pts=side.pts - unit.pts, xp=side.xp - unit.xp,
                       heroes_deployed=side.heroes_deployed + (unit.category == HERO),
                       units=_with(side.units, number, unit))
        return state.with_side(side_no, side)

    def _hit(self, state: HammerWarsState, ev: Event) -> HammerWarsState:
        side_no, number = ev.side or 1, ev.unit or 1
        lives, model = ev.get("lives", 1), ev.get("model", 1)
        side = state.side(side_no)
        unit = side.unit(number)
        if not unit.on_table:
            raise Refused(f"side {side_no} has no {unit.name} on the table",
                          "Record the hit on a model that is deployed.")
        if not 1 <= model <= len(unit.on_table):
            raise Refused(f"side {side_no} has {len(unit.on_table)} {unit.name} on the table, "
                          f"not a model {model}", f"Give model 1 to {len(unit.on_table)}, "
                          "counted in the order they were deployed.")
        if lives < 1:
            raise Refused(f"a hit takes at least 1 life, not {lives}",
                          "Record only attacks that took lives.")
        left = unit.on_table[model - 1] - lives  # hits beyond the last life do nothing
        if left > 0:
            on_table = list(unit.on_table)
            on_table[model - 1] = left
            return state.with_side(side_no, replace(
                side, units=_with(side.units, number, replace(unit, on_table=tuple(on_table)))))
        # killed: back to the pool, and the losses the morale list names
        unit = replace(unit.without(model), in_pool=unit.in_pool + 1, killed=unit.killed + 1)
        state = replace(state, current=_after_kill(state.current, side_no, number, model,
                                                   self._melee_by(state, ev)))
        lost = side.lost + 1
        morale = side.morale - (UNITS_LOSS if lost % UNITS_PER_LOSS == 0 else 0)
        if unit.category == HERO:
            morale -= HERO_LOSS
        if unit.category == HEAVY:
            morale -= HEAVY_LOSS
        state = state.with_side(side_no, replace(side, lost=lost, morale=max(0, morale),
                                                 units=_with(side.units, number, unit)))
        enemy_no = other(side_no)
        if state.present(enemy_no):
            enemy = state.side(enemy_no)
            state = state.with_side(enemy_no, replace(
                enemy, vp=enemy.vp + (HEAVY_VP if unit.category == HEAVY else 0),
                killed_hero=enemy.killed_hero or unit.category == HERO))
        return _check_morale(state)

    def _round_end(self, state: HammerWarsState, ev: Event) -> HammerWarsState:
        if state.active is not None:
            raise Refused(f"side {state.active} has not finished its turn in round "
                          f"{state.round}", f"Record side {state.active}'s "
                          + ("end-deployment, then end-turn." if state.phase == DEPLOYMENT
                             else "end-turn."))
        state = _rested(state)
        for s in range(1, len(state.sides) + 1):
            side = state.side(s)
            state = state.with_side(s, replace(side, morale=max(0, side.morale
                                                                 - ROUND_END_LOSS)))
        state = _check_morale(state)
        if state.ended:
            return state
        return _begin_turn(replace(state, round=state.round + 1, step=0))

    def _declare(self, state: HammerWarsState, ev: Event) -> HammerWarsState:
        side_no, objective = ev.side or 1, ev.get("objective")
        side = state.side(side_no)
        if side.goal not in DECLARED_GOALS:
            has = f"is {side.goal}" if side.goal else "is not in its roster"
            raise Refused(f"side {side_no}'s goal {has}: only Deception and Duty name an "
                          "objective to declare", "Its goal is scored when the game ends.")
        if side.objective is not None:
            raise Refused(f"side {side_no} already declared objective {side.objective}",
                          "A goal is declared once.")
        if not 1 <= objective <= OBJECTIVES:
            raise Refused(f"the objective markers are numbered 1 to {OBJECTIVES}, not "
                          f"{objective}", "Give the marker written down before the game.")
        return state.with_side(side_no, replace(side, objective=objective))

    def _goal(self, state: HammerWarsState, ev: Event) -> HammerWarsState:
        side_no, met = ev.side or 1, bool(ev.get("met"))
        side = state.side(side_no)
        if side.goal is None:
            raise Refused(f"side {side_no}'s roster has no secret goal",
                          "Score the goals of the sides that chose one.")
        if state.judged(side_no):
            raise Refused(f"side {side_no}'s goal is Revenge, which the log already "
                          "judges (an enemy Hero killed, or none deployed)",
                          "Nothing to record for it.")
        if side.goal_met is not None:
            raise Refused(f"side {side_no}'s goal is already scored",
                          "Undo that event to change it.")
        return state.with_side(side_no, replace(side, goal_met=met))

    # -- what may come next ------------------------------------------------------------------
    def offers(self, state: HammerWarsState) -> list[Event]:
        """Every event the rules allow now: the goals once the game has ended; the roll-off;
        the side in play's deployments (what its budget pays for) or the end of its turn; the
        round's end; a hit on every model on the table (model 1 to the last deployed, 1 life
        to all it has left; no model named when all of the type have the same lives left, for
        then it is all the same which); a declared objective from the first marker to the
        last; and each side's concession until the game has ended."""
        if state.over:
            return []
        sides = range(1, len(state.sides) + 1)
        if state.ended:
            return [event("goal", s, met=m) for s in sides
                    if state.goal_pending(s) for m in (True, False)]
        if state.first is None:
            return [event("roll-off", s, first=f) for s in sides
                    for f in (True, False)] + _concessions(state)
        out: list[Event] = []
        active = state.active
        if active is None:
            out.append(event("round-end"))
        elif state.phase == DEPLOYMENT:
            side = state.side(active)
            out += [event("deploy", active, n) for n, u in enumerate(side.units, 1)
                    if u.known and u.in_pool and u.pts <= side.pts and u.xp <= side.xp]
            out.append(event("end-deployment", active))
        else:
            out.append(event("end-turn", active))
            out += self._actions(state, active)
            for s in sides:
                named = self._attacks(state, s)
                for n, u in enumerate(state.side(s).units, 1):
                    for by in named or [{}]:
                        if len(set(u.on_table)) == 1:  # which model is hit changes nothing
                            out += [_hit(s, n, {"lives": v, **by})
                                    for v in sorted({1, u.on_table[0]})]
                        else:
                            out += [_hit(s, n, {"model": m, "lives": v, **by})
                                    for m, lives in enumerate(u.on_table, 1)
                                    for v in sorted({1, lives})]
        for s in sides:
            side = state.side(s)
            if side.goal in DECLARED_GOALS and side.objective is None:
                out += [event("declare", s, objective=o) for o in (1, OBJECTIVES)]
        return out + _concessions(state)

    def _actions(self, state: HammerWarsState, active: int) -> list[Event]:
        """The active side's models that have not acted, each action; the model acting now's
        Energy Pulse and Chain Attack, when its rules and the activation allow them."""
        out = [event("activate", active, n, action=a)
               for n, u in enumerate(state.side(active).units, 1)
               if "" in u.acted for a in ACTIONS]
        now = state.current
        if now is not None:
            rules = state.side(now.side).unit(now.unit).rules
            if ENERGY_PULSE in rules and not now.pulsed:
                out.append(event("pulse", now.side, now.unit))
            if CHAIN_ATTACK in rules and now.chain_ready and now.chains < CHAINS:
                out.append(event("chain", now.side, now.unit))
        return out

    def _attacks(self, state: HammerWarsState, target: int) -> list[dict[str, Value]]:
        """How side `target`'s models may be hit by the model acting now (its unit as `by`,
        each way it may attack); none while no enemy model is acting, and then a hit names
        no attacker (dangerous terrain, a Deception goal, or a player who records no
        actions)."""
        now = state.current
        if now is None or now.side == target or not state.present(now.side):
            return []
        unit = state.side(now.side).unit(now.unit)
        ways = [w for w, may in ((SHOOTING, unit.range > 0 and now.action not in NO_SHOOTING),
                                 (MELEE, True), (PULSE, now.pulsed)) if may]
        return [{"by": now.unit, "attack": w} for w in ways]

    # -- the result --------------------------------------------------------------------------
    def outcome(self, state: HammerWarsState) -> Outcome:
        numbers = range(1, len(state.sides) + 1)
        scores = (("VP", tuple(state.score(s) for s in numbers)),
                  ("Morale", tuple(state.side(s).morale for s in numbers)))
        if not state.over:
            if state.ended:
                reason = f"{state.ended}: the goals are left to score"
            elif state.first is None:
                reason = "before the roll-off"
            elif state.active is None:
                reason = f"round {state.round}: both sides have played"
            else:
                reason = (f"round {state.round}: {state.side(state.active).name}'s "
                          f"{state.phase} phase")
            return Outcome(False, reason=reason, scores=scores)
        if state.conceded is not None:
            name = state.side(state.conceded).name
            if len(state.sides) < 2:
                return Outcome(True, None, f"{name} conceded: a solo game has no winner",
                               scores)
            return Outcome(True, other(state.conceded), f"{name} conceded", scores)
        if len(state.sides) < 2:
            return Outcome(True, None, f"{state.ended}: a solo game has no winner", scores)
        one, two = state.score(1), state.score(2)
        winner = 1 if one > two else 2 if two > one else None
        reason = (f"{state.ended}: {max(one, two)} VP to {min(one, two)}" if winner
                  else f"{state.ended}: a draw at {one} VP each")
        return Outcome(True, winner, reason, scores)

    def situation(self, state: HammerWarsState, attacker: tuple[int, int],
                  defender: tuple[int, int]) -> Mapping[str, Value]:
        """What the log sets of quick-resolve: the target's `lives`, the fewest lives left
        of its type's models on the table (`on_table`: the most hurt, the one a player
        finishes off), or the card's `lives` when none is deployed (docs/rules-notes.md, "At
        the table: odds for Hammer Wars"). Nothing of the attacker: its lives change nothing
        it rolls, and whether it stands within 2" of its Duty marker is not in the log."""
        side, number = defender
        if not (state.present(side) and 1 <= number <= len(state.side(side).units)):
            return {}
        unit = state.side(side).unit(number)
        if not unit.known or unit.lives < 1:
            return {}
        return {"lives": min(unit.on_table) if unit.on_table else unit.lives}

    def to_data(self, state: HammerWarsState) -> dict[str, Any]:
        # an ended (or conceded) game has nobody's turn
        turn = None if state.ended or state.conceded else state.active
        return {"round": state.round, "first": state.first, "turn": turn,
                "phase": state.phase if turn is not None else None,
                "ended": state.ended or None, "over": state.over,
                "conceded": state.conceded, "acting": _activation_data(state.current),
                "sides": [self._side_data(state, s) for s in range(1, len(state.sides) + 1)]}

    def _side_data(self, state: HammerWarsState, number: int) -> dict[str, Any]:
        side = state.side(number)
        # the goal stays secret until declared or the game ends (the roster holds it anyway)
        revealed = bool(state.ended) or side.objective is not None
        return {"name": side.name, "morale": side.morale, "vp": state.score(number),
                "pts": side.pts, "xp": side.xp, "lost": side.lost,
                "goal": side.goal if revealed else ("secret" if side.goal else None),
                "objective": side.objective, "goal_met": state.goal_result(number),
                "units": list(self.units(state, number))}

    def units(self, state: HammerWarsState, side: int) -> list[dict[str, Any]]:
        # alive: a model of the type is on the table to act and be hit (a killed one goes
        # back to the pool, so no type is ever gone for good)
        return [{"unit": n, "name": u.name, "alive": bool(u.on_table),
                 "status": _status(u), "category": u.category, "pts": u.pts, "xp": u.xp,
                 "lives": u.lives, "count": u.count, "in_pool": u.in_pool,
                 "on_table": len(u.on_table), "lives_left": list(u.on_table),
                 "killed": u.killed, "known": u.known, "acted": list(u.acted)}
                for n, u in enumerate(state.side(side).units, 1)]

    def acting(self, state: HammerWarsState) -> tuple[int | None, str]:
        """Whose phase it is and, in a deployment phase, the budget left to spend: the
        state kept it and the board showed it nowhere."""
        if state.over:
            return None, ""
        if state.ended:
            return None, "score the goals"
        if state.first is None:
            return None, "roll off: the winner says who goes first"
        if state.active is None:
            return None, "both sides have played: end the round"
        side = state.side(state.active)
        if state.phase == DEPLOYMENT:
            return state.active, (f"deploy from the pool, {_cost(side.pts, side.xp, True)} "
                                  f"left (pts left over are lost at the phase's end, xp is "
                                  f"kept)")
        return state.active, ("give each model on the table its action (Hold, Walk or Run) "
                              "and record its hits, then end the combat phase")

    def current(self, state: HammerWarsState) -> tuple[int, int] | None:
        now = state.current
        return None if now is None or state.ended else (now.side, now.unit)

    def standing(self, unit: Mapping[str, Any]) -> Standing:
        lives = int(unit.get("lives") or 0)
        on_table = list(unit.get("lives_left") or ())
        tracks = [Track("on the table", len(on_table), int(unit.get("count") or 0))]
        tracks += [Track(f"lives left, model {n}" if len(on_table) > 1 else "lives left",
                         left, lives, boxes=True)
                   for n, left in enumerate(on_table, 1) if lives > 1]
        if unit.get("killed"):
            tracks.append(Track("killed", int(unit["killed"])))
        chips = [] if unit.get("status") in (ON_TABLE, IN_POOL) else [str(unit.get("status"))]
        acted = [str(a) for a in unit.get("acted") or ()]
        if any(acted):
            chips.append("acted: " + ", ".join(a or "not yet" for a in acted))
        cost = f"{unit.get('pts', 0)} pts" + (f" + {unit['xp']} xp" if unit.get("xp") else "")
        details = " · ".join(p for p in (str(unit.get("category") or ""), cost,
                                         f"{unit.get('in_pool', 0)} in the pool") if p)
        return Standing(tuple(tracks), tuple(chips), details)


def _concessions(state: HammerWarsState) -> list[Event]:
    """Each side's concession: any time until the game ends (not while goals are scored)."""
    return [event("concede", s) for s in range(1, len(state.sides) + 1)]


def _hit(side: int, unit: int, values: Mapping[str, Value]) -> Event:
    return Event("hit", side, unit, tuple(sorted(values.items())))


def _activation_data(now: Activation | None) -> dict[str, Any] | None:
    if now is None:
        return None
    return {"side": now.side, "unit": now.unit, "model": now.model, "action": now.action,
            "pulsed": now.pulsed, "chains": now.chains}


def _with(units: tuple[UnitState, ...], number: int, unit: UnitState) -> tuple[UnitState, ...]:
    return (*units[:number - 1], unit, *units[number:])


def _status(unit: UnitState) -> str:
    if not unit.known:
        return UNKNOWN
    if unit.on_table:
        return ON_TABLE
    return IN_POOL if unit.in_pool else "none left"


def _cost(pts: int, xp: int, always_xp: bool = False) -> str:
    return f"{pts} pts" + (f" + {xp} xp" if xp or always_xp else "")


def _begin_turn(state: HammerWarsState) -> HammerWarsState:
    """The next side's turn opens with its deployment phase and fresh pts and xp; after the
    last side's turn, the round waits for round-end."""
    active = state.active
    if active is None:
        return replace(state, phase=DEPLOYMENT)
    state = _rested(state)
    side = state.side(active)
    # pts left from an earlier phase were already lost at its end
    side = replace(side, pts=PTS_PER_PHASE, xp=side.xp + XP_PER_PHASE)
    return replace(state.with_side(active, side), phase=DEPLOYMENT)


def _rested(state: HammerWarsState) -> HammerWarsState:
    """No model has acted: a new turn (each may act in its side's next combat phase), or
    the round's end."""
    return replace(state, current=None, sides=tuple(
        replace(s, units=tuple(replace(u, acted=("",) * len(u.on_table)) for u in s.units))
        for s in state.sides))


def _after_kill(now: Activation | None, side: int, unit: int, model: int,
                melee_by: int | None) -> Activation | None:
    """The activation under way after model `model` of (`side`, `unit`) is killed by `ev`:
    gone if it was the one acting, renumbered if an earlier model of its type fell, and
    ready to chain if its melee attack made the kill."""
    if now is None:
        return None
    if (now.side, now.unit) == (side, unit):
        if model == now.model:
            return None
        return replace(now, model=now.model - 1) if model < now.model else now
    if melee_by == now.unit and other(side) == now.side:
        return replace(now, chain_ready=True)
    return now


def _check_morale(state: HammerWarsState) -> HammerWarsState:
    """A side whose morale reached 0 gives its enemy a VP and ends the game at once (both, if
    a round's end takes both to 0)."""
    fallen = [s for s in range(1, len(state.sides) + 1) if state.side(s).morale <= 0]
    if not fallen:
        return state
    for s in fallen:
        enemy = other(s)
        if state.present(enemy):
            state = state.with_side(enemy, replace(state.side(enemy),
                                                   vp=state.side(enemy).vp + ZERO_VP))
    names = " and ".join(f"{state.side(s).name}'s" for s in fallen)
    return replace(state, ended=f"{names} morale fell to 0")
