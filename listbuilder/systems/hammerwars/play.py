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

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, replace
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
    concessions,
    event,
    not_in_catalog,
    other,
    players_of,
    with_side,
)
from listbuilder.engine.play_parts import Rule, at, conceded, on_points, passing, refuse
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
MY_TURN = (*PLAYING, "_my_phase")
# the phase a side's own events belong to, and the refusal in the other: (phase, message with
# the side for "{}", fix); a model's own events (activate, pulse, chain) are `ACTING`'s
PHASES = {
    "deploy": (DEPLOYMENT, "side {}'s deployment phase is over this turn",
               "Deploy in the next turn's deployment phase."),
    "end-deployment": (DEPLOYMENT, "side {}'s deployment phase is already over",
                       "Record the end of the combat phase with end-turn."),
    "end-turn": (COMBAT, "side {} is still deploying",
                 "Record end-deployment first, then the combat phase."),
}
ACTING = (COMBAT, "side {} is still in its deployment phase: models act in the combat phase",
          "Record end-deployment first.")

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
# a unit row's values as `UnitState` holds them, after its number, name, alive and status
ROW = ("category", "pts", "xp", "lives", "count", "in_pool")

@dataclass(frozen=True)
class UnitState:
    """One roster entry: a unit type and its models, in the pool or on the table."""

    name: str
    category: str = ""
    pts: int = 0
    xp: int = 0
    lives: int = 0  # the card's lives: what a model deploys with
    count: int = 0  # models of this type in the pool at the start
    in_pool: int = 0  # models in the pool now (never deployed, or killed and returned)
    on_table: tuple[int, ...] = ()  # lives left of each model deployed, in deployment order
    killed: int = 0  # models of this type killed so far
    known: bool = True  # False: the entry names no unit card, so it never deploys
    # each model on the table's action this combat phase ("": none yet), as `on_table`
    acted: tuple[str, ...] = ()
    range: int = 0  # the card's, in inches: 0 fights in melee only
    rules: tuple[str, ...] = ()  # the card's special rules

    def action(self, model: int) -> str:
        return self.acted[model - 1] if 1 <= model <= len(self.acted) else ""


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

    @property
    def numbers(self) -> range:
        return range(1, len(self.sides) + 1)

    def side(self, number: int) -> SideState:
        return self.sides[number - 1]

    def unit(self, side: int, number: int) -> UnitState:
        return self.side(side).unit(number)

    def with_side(self, number: int, side: SideState) -> HammerWarsState:
        return replace(self, sides=with_side(self.sides, number, side))

    def changed(self, number: int, **values: Any) -> HammerWarsState:
        """The state with side `number`'s values changed."""
        return self.with_side(number, replace(self.side(number), **values))

    def with_unit(self, side: int, number: int, unit: UnitState,
                  **values: Any) -> HammerWarsState:
        """The state with unit `number` of side `side` replaced, and the side's `values`."""
        return self.changed(side, units=with_side(self.side(side).units, number, unit),
                            **values)

    def present(self, number: int) -> bool:
        return 1 <= number <= len(self.sides)

    def goal_pending(self, number: int) -> bool:
        """Whether the players must still say if side `number` met its goal."""
        return bool(self.ended) and self.side(number).goal is not None \
            and self.goal_result(number) is None

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
        return bool(self.ended) and not any(self.goal_pending(s) for s in self.numbers)


class HammerWarsPlay(Play[HammerWarsState]):
    system: RuleSystem[HammerWarsCatalog, HwUnit]
    kinds: ClassVar[Mapping[str, Kind]] = {
        "roll-off": Kind("Won the roll-off", unit=False, values={"first": bool},
                         words={"first": ("and goes first", "and lets the other side go first")},
                         checks=("_not_ended",)),
        "deploy": Kind("Deploy a model from the pool", checks=MY_TURN),
        "end-deployment": Kind("Deployment done (unspent pts are lost)", unit=False,
                               checks=MY_TURN, handler="_phase_done"),
        "activate": Kind("Action", values={"action": str, "model": int},
                         optional=("model",), asks={"model": "Which model"},
                         checks=MY_TURN),
        "pulse": Kind("Energy Pulse (once a round)", checks=MY_TURN, handler="_ability"),
        "chain": Kind("Chain Attack: on to a foe within 2\"", checks=MY_TURN,
                      handler="_ability"),
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
                         checks=MY_TURN, handler="_phase_done"),
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
        sides = []
        for player, catalog in players_of(match, HammerWarsCatalog):
            roster = player.roster
            units = [UnitState(e.label or e.unit, count=e.count, known=False)
                     for e in roster.entries]
            for p in self.system.priced(catalog, roster):
                card, count = p.unit, p.entry.count
                units[p.index] = UnitState(
                    p.entry.label or card.name, card.category, card.pts, card.xp, card.lives,
                    count, count, range=card.range, rules=tuple(card.special_rules))
            chosen = catalog.goal(str(roster.choices.get("goal") or "").strip())
            sides.append(SideState(player.name, tuple(units), chosen.name if chosen else None))
        return HammerWarsState(sides=tuple(sides))

    # -- events ------------------------------------------------------------------------------
    def absent(self, state: HammerWarsState, side: int, unit: int) -> Refused | None:
        found = state.unit(side, unit)
        return None if found.known else not_in_catalog(found.name)

    def _not_ended(self, state: HammerWarsState, ev: Event) -> None:
        waiting = [s for s in state.numbers if state.goal_pending(s)]
        refuse((state.ended, f"the game has ended ({state.ended}): only the goals are left to "
                "score", f"Record whether side {waiting[0]} met its goal." if waiting
                else "Nothing is left to record."))

    def _ended(self, state: HammerWarsState, ev: Event) -> None:
        refuse((not state.ended, "goals are scored when the game ends, once a morale counter "
                "reaches 0", "Record it then; declare a Deception or Duty objective with "
                "'declare' meanwhile."))

    def _rolled(self, state: HammerWarsState, ev: Event) -> None:
        refuse((state.first is None, "nobody has won the roll-off yet",
                "Record the roll-off first: who won it, and whether they go first."))

    def _my_phase(self, state: HammerWarsState, ev: Event) -> None:
        """A side records its own events in its own turn, each in its phase (`PHASES`)."""
        side, active = ev.side or 1, state.active
        phase, message, fix = PHASES.get(ev.kind, ACTING)
        refuse((active is None, f"both sides have played round {state.round}",
                "End the round with round-end."),
               (active != side, f"it is side {active}'s turn, not side {side}'s",
                f"Side {side} deploys in its own turn's deployment phase." if ev.kind == "deploy"
                else f"Record side {active}'s {state.phase} phase first."),
               (state.phase != phase, message.format(side), fix))

    def _concede(self, state: HammerWarsState, ev: Event) -> HammerWarsState:
        """Any time before the game ends, the roll-off too."""
        return replace(state, conceded=ev.side or 1)

    def _roll_off(self, state: HammerWarsState, ev: Event) -> HammerWarsState:
        refuse((state.first is not None, f"the roll-off is done: side {state.first} goes first",
                "Undo the roll-off to change who goes first."))
        winner = ev.side or 1
        goes_first = winner if ev.get("first") else other(winner)
        if state.present(goes_first):
            state = state.changed(goes_first,
                                  morale=state.side(goes_first).morale - FIRST_PLAYER_LOSS)
        # a solo game plays its one side's turns, whoever goes first
        order = tuple(s for s in (goes_first, other(goes_first)) if state.present(s))
        return _begin_turn(replace(state, first=goes_first, order=order, step=0))

    def _phase_done(self, state: HammerWarsState, ev: Event) -> HammerWarsState:
        """The end of a side's deployment phase (pts left unspent are lost; xp stays), or of
        its combat phase: the next side's turn."""
        if state.phase == DEPLOYMENT:
            return replace(state.changed(ev.side or 1, pts=0), phase=COMBAT)
        return _begin_turn(replace(state, step=state.step + 1, current=None))

    def _deploy(self, state: HammerWarsState, ev: Event) -> HammerWarsState:
        side_no, number, unit = at(state, ev)
        side = state.side(side_no)
        refuse((unit.in_pool < 1, f"no {unit.name} is left in the pool ({len(unit.on_table)} on "
                "the table)", "A killed model returns to the pool; deploy another type."),
               (side.pts < unit.pts or side.xp < unit.xp,
                f"{unit.name} costs {_cost(unit.pts, unit.xp)}; side {side_no} has "
                f"{_cost(side.pts, side.xp, always_xp=True)} left", "Deploy something "
                "cheaper, or end the deployment phase (xp is kept for later rounds)."))
        deployed = replace(unit, in_pool=unit.in_pool - 1, on_table=(*unit.on_table, unit.lives),
                           acted=(*unit.acted, ""))
        return state.with_unit(side_no, number, deployed, pts=side.pts - unit.pts,
                               xp=side.xp - unit.xp,
                               heroes_deployed=side.heroes_deployed + (unit.category == HERO))

    def _activate(self, state: HammerWarsState, ev: Event) -> HammerWarsState:
        """One model's action: Hold, Walk or Run, once in its side's combat phase; without
        `model`, the first of its type on the table that has not acted yet."""
        side, number, unit = at(state, ev)
        action = str(ev.get("action"))
        waiting = [m for m in range(1, len(unit.on_table) + 1) if not unit.action(m)]
        model = ev.get("model", waiting[0] if waiting else 1)
        refuse((action not in ACTIONS, f"a model's action is Hold, Walk or Run, not '{action}'",
                "Pick one of the three."),
               *_on_table(side, unit, model, "Deploy it before it can act."),
               (unit.action(model), f"this {unit.name} has already acted this round "
                f"({unit.action(model)}): each model takes one action a combat phase",
                "Activate a model that has not acted, or end the turn."))
        acted = replace(unit, acted=with_side(unit.acted, model, action))
        return replace(state.with_unit(side, number, acted),
                       current=Activation(side, number, model, action))

    def _ability(self, state: HammerWarsState, ev: Event) -> HammerWarsState:
        """A rule the acting model uses in its own activation: Energy Pulse once a round (it
        acts once a round, so once in its activation); Chain Attack after a kill in melee, on
        to another foe, up to 3 times an activation."""
        side, number, unit = at(state, ev)
        rule, now = ENERGY_PULSE if ev.kind == "pulse" else CHAIN_ATTACK, state.current
        refuse((rule not in unit.rules, f"{unit.name} has no {rule}",
                f"Only a unit whose card lists {rule} may use it."),
               (now is None or (now.side, now.unit) != (side, number), f"{rule} is used in the "
                f"unit's own activation, and no {unit.name} is acting now",
                "Record its action first."))
        assert now is not None
        if rule == ENERGY_PULSE:
            refuse((now.pulsed, "this model has already used its Energy Pulse this round",
                    "Record the marker's hits as attacks by Energy Pulse."))
            return replace(state, current=replace(now, pulsed=True))
        refuse((now.chains >= CHAINS, f"a Chain Attack may be repeated up to {CHAINS} times an "
                "activation, and this one has made all of them",
                "End its activation: activate another model or end the turn."),
               (not now.chain_ready, "a Chain Attack follows a kill in melee, and this model "
                "has made none since it activated or last chained",
                "Record the melee hit that killed an enemy first."))
        return replace(state, current=replace(now, chains=now.chains + 1, chain_ready=False))

    def _attacker_may(self, state: HammerWarsState, ev: Event) -> None:
        """What the seed forbids of the attacker a hit names (`by`): only then is it
        checked, so older logs replay as they were."""
        by, attack, side = ev.get("by"), ev.get("attack"), other(ev.side or 1)
        if by is None:
            refuse((attack is not None, "a hit says how it was made only with the attacker "
                    "that made it", "Add by: the attacker's unit number, or leave attack out."))
            return
        entries = state.side(side).units if state.present(side) else ()
        refuse((not entries, "a solo game has no enemy roster to name the attacker from",
                "Leave by out."),
               (not 1 <= by <= len(entries), f"side {side}'s units are numbered 1 to "
                f"{len(entries)}, not {by}", "Give the attacker's number in its roster."))
        unit, now = entries[by - 1], state.current
        acting = now if now is not None and (now.side, now.unit) == (side, by) else None
        actions = [acting.action] if acting else [a for a in unit.acted if a]
        how = attack or (MELEE if unit.range == 0 else SHOOTING)
        refuse((state.active != side or state.phase != COMBAT, f"{unit.name} attacks only in "
                "its own side's combat phase", f"Record the hit in side {side}'s combat phase."),
               (not unit.on_table, f"side {side} has no {unit.name} on the table to attack with",
                "Name a unit that is deployed."),
               (not actions, f"no {unit.name} has acted this turn: a model attacks as part of "
                "its action", "Record its action (Hold, Walk or Run) first."),
               (how not in ATTACKS, f"an attack is {', '.join(ATTACKS)}, not '{how}'",
                "Say how the attack was made."),
               (how == SHOOTING and unit.range == 0, f"{unit.name} has a range of 0\": it "
                "attacks only in melee", "Record the attack as melee."),
               (how == SHOOTING and all(a in NO_SHOOTING for a in actions), f"{unit.name} ran "
                "this turn, and a model that runs may not shoot", "Record it as a melee attack "
                "if it fought in base contact; undo the Run if it held or walked instead."),
               (how == PULSE and not (acting and acting.pulsed), f"no Energy Pulse of "
                f"{unit.name} is under way", "Record its Energy Pulse first, in its activation."))

    def _hit(self, state: HammerWarsState, ev: Event) -> HammerWarsState:
        side_no, number, unit = at(state, ev)
        lives, model = ev.get("lives", 1), ev.get("model", 1)
        refuse(*_on_table(side_no, unit, model, "Record the hit on a model that is deployed."),
               (lives < 1, f"a hit takes at least 1 life, not {lives}",
                "Record only attacks that took lives."))
        left = unit.on_table[model - 1] - lives  # hits beyond the last life do nothing
        if left > 0:
            return state.with_unit(side_no, number,
                                   replace(unit, on_table=with_side(unit.on_table, model, left)))
        # killed: back to the pool, and the losses the morale list names
        hero, heavy = unit.category == HERO, unit.category == HEAVY
        unit = replace(unit, on_table=unit.on_table[:model - 1] + unit.on_table[model:],
                       acted=unit.acted[:model - 1] + unit.acted[model:],
                       in_pool=unit.in_pool + 1, killed=unit.killed + 1)
        side = state.side(side_no)
        lost = side.lost + 1
        morale = side.morale - (UNITS_LOSS if lost % UNITS_PER_LOSS == 0 else 0) \
            - HERO_LOSS * hero - HEAVY_LOSS * heavy
        state = replace(state.with_unit(side_no, number, unit, lost=lost, morale=max(0, morale)),
                        current=_after_kill(state, ev, model))
        enemy_no = other(side_no)
        if state.present(enemy_no):
            enemy = state.side(enemy_no)
            state = state.changed(enemy_no, vp=enemy.vp + HEAVY_VP * heavy,
                                  killed_hero=enemy.killed_hero or hero)
        return _check_morale(state)

    def _round_end(self, state: HammerWarsState, ev: Event) -> HammerWarsState:
        active = state.active
        refuse((active is not None, f"side {active} has not finished its turn in round "
                f"{state.round}", f"Record side {active}'s " + (
                    "end-deployment, then end-turn." if state.phase == DEPLOYMENT
                    else "end-turn.")))
        state = _rested(state)
        for s in state.numbers:
            state = state.changed(s, morale=max(0, state.side(s).morale - ROUND_END_LOSS))
        state = _check_morale(state)
        return state if state.ended else _begin_turn(replace(state, round=state.round + 1,
                                                             step=0))

    def _declare(self, state: HammerWarsState, ev: Event) -> HammerWarsState:
        side_no, objective = ev.side or 1, ev.get("objective")
        side = state.side(side_no)
        refuse((side.goal not in DECLARED_GOALS, f"side {side_no}'s goal "
                + (f"is {side.goal}" if side.goal else "is not in its roster")
                + ": only Deception and Duty name an objective to declare",
                "Its goal is scored when the game ends."),
               (side.objective is not None, f"side {side_no} already declared objective "
                f"{side.objective}", "A goal is declared once."),
               (not 1 <= objective <= OBJECTIVES, f"the objective markers are numbered 1 to "
                f"{OBJECTIVES}, not {objective}", "Give the marker written down before the game."))
        return state.changed(side_no, objective=objective)

    def _goal(self, state: HammerWarsState, ev: Event) -> HammerWarsState:
        side_no = ev.side or 1
        side = state.side(side_no)
        refuse((side.goal is None, f"side {side_no}'s roster has no secret goal",
                "Score the goals of the sides that chose one."),
               (state.judged(side_no), f"side {side_no}'s goal is Revenge, which the log "
                "already judges (an enemy Hero killed, or none deployed)",
                "Nothing to record for it."),
               (side.goal_met is not None, f"side {side_no}'s goal is already scored",
                "Undo that event to change it."))
        return state.changed(side_no, goal_met=bool(ev.get("met")))

    # -- what may come next ------------------------------------------------------------------
    def offers(self, state: HammerWarsState) -> list[Event]:
        """Each of the few candidates of every kind that `apply` accepts (an objective: the
        first marker and the last; the hits: `_hits`), until the game is over."""
        if state.over:
            return []
        sides, now = state.numbers, state.current
        active = state.active or 1  # no side's turn: side 1's are candidates, all refused
        units = range(1, len(state.side(active).units) + 1)
        return [ev for ev in (
            *(event("roll-off", s, first=f) for s in sides for f in (True, False)),
            event("round-end"), *(event("deploy", active, n) for n in units),
            event("end-deployment", active), event("end-turn", active),
            *(event("activate", active, n, action=a) for n in units for a in ACTIONS),
            *(event(k, now.side, now.unit) for k in ("pulse", "chain") if now),
            *self._hits(state),
            *(event("declare", s, objective=o) for s in sides for o in (1, OBJECTIVES)),
            *(event("goal", s, met=m) for s in sides for m in (True, False)),
            *concessions(len(sides)),
        ) if self._allows(state, ev)]

    def _hits(self, state: HammerWarsState) -> Iterable[Event]:
        """In a combat phase, 1 life to all it has left off each model on the table. A hit on
        the other side of the model acting now names it, each way it may attack; any other
        names no attacker (dangerous terrain, a Deception goal, a player who records no
        actions)."""
        now = state.current
        if state.active is None or state.phase != COMBAT:
            return
        for s in state.numbers:
            ways: list[dict[str, Value]] = [{}] if now is None or now.side == s else [
                {"by": now.unit, "attack": w} for w in ATTACKS]
            for n, u in enumerate(state.side(s).units, 1):
                same = len(set(u.on_table)) == 1  # which model is hit changes nothing
                models: list[tuple[dict[str, Value], int]] = [({}, u.on_table[0])] if same \
                    else [({"model": m}, lives) for m, lives in enumerate(u.on_table, 1)]
                yield from (Event("hit", s, n, tuple(sorted({"lives": v, **way, **model}.items())))
                            for way in ways for model, left in models for v in sorted({1, left}))

    def _allows(self, state: HammerWarsState, ev: Event) -> bool:
        return bool(passing(self.apply, state, [ev]))

    # -- the result --------------------------------------------------------------------------
    def outcome(self, state: HammerWarsState) -> Outcome:
        scores = (("VP", tuple(state.score(s) for s in state.numbers)),
                  ("Morale", tuple(side.morale for side in state.sides)))
        if state.conceded is not None:
            return conceded([side.name for side in state.sides], state.conceded, scores)
        if state.over:
            return on_points([state.score(s) for s in state.numbers], state.ended, "VP", scores)
        reason = (f"{state.ended}: the goals are left to score" if state.ended
                  else "before the roll-off" if state.first is None
                  else f"round {state.round}: both sides have played" if state.active is None
                  else f"round {state.round}: {state.side(state.active).name}'s {state.phase} "
                  "phase")
        return Outcome(False, reason=reason, scores=scores)

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
        unit = state.unit(side, number)
        if not unit.known or unit.lives < 1:
            return {}
        return {"lives": min(unit.on_table) if unit.on_table else unit.lives}

    def to_data(self, state: HammerWarsState) -> dict[str, Any]:
        # an ended (or conceded) game has nobody's turn
        turn, now = None if state.ended or state.conceded else state.active, state.current
        return {"round": state.round, "first": state.first, "turn": turn,
                "phase": state.phase if turn is not None else None,
                "ended": state.ended or None, "over": state.over, "conceded": state.conceded,
                "acting": None if now is None else {k: v for k, v in asdict(now).items()
                                                    if k != "chain_ready"},
                "sides": [self._side_data(state, s) for s in state.numbers]}

    def _side_data(self, state: HammerWarsState, number: int) -> dict[str, Any]:
        side = state.side(number)
        # the goal stays secret until declared or the game ends (the roster holds it anyway)
        revealed = bool(state.ended) or side.objective is not None
        return {"name": side.name, "morale": side.morale, "vp": state.score(number),
                "pts": side.pts, "xp": side.xp, "lost": side.lost,
                "goal": side.goal if revealed else ("secret" if side.goal else None),
                "objective": side.objective, "goal_met": state.goal_result(number),
                "units": self.units(state, number)}

    def units(self, state: HammerWarsState, side: int) -> list[dict[str, Any]]:
        # alive: a model of the type is on the table to act and be hit (a killed one goes
        # back to the pool, so no type is ever gone for good)
        return [{"unit": n, "name": u.name, "alive": bool(u.on_table), "status": _status(u),
                 **{key: getattr(u, key) for key in ROW}, "on_table": len(u.on_table),
                 "lives_left": list(u.on_table), "killed": u.killed, "known": u.known,
                 "acted": list(u.acted)} for n, u in enumerate(state.side(side).units, 1)]

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
        lives, on_table, acted = unit["lives"], unit["lives_left"], unit["acted"]
        tracks = [Track("on the table", len(on_table), unit["count"])]
        tracks += [Track(f"lives left, model {n}" if len(on_table) > 1 else "lives left",
                         left, lives, boxes=True)
                   for n, left in enumerate(on_table, 1) if lives > 1]
        tracks += [Track("killed", unit["killed"])] if unit["killed"] else []
        chips = [] if unit["status"] in (ON_TABLE, IN_POOL) else [unit["status"]]
        chips += ["acted: " + ", ".join(a or "not yet" for a in acted)] if any(acted) else []
        details = " · ".join(p for p in (unit["category"], _cost(unit["pts"], unit["xp"]),
                                         f"{unit['in_pool']} in the pool") if p)
        return Standing(tuple(tracks), tuple(chips), details)


def _on_table(side: int, unit: UnitState, model: int, fix: str) -> tuple[Rule, Rule]:
    """Model `model` of a unit's type must be on the table, counted in deployment order;
    `fix`: what to do when none is."""
    count = len(unit.on_table)
    return ((not count, f"side {side} has no {unit.name} on the table", fix),
            (not 1 <= model <= count, f"side {side} has {count} {unit.name} on the table, not "
             f"a model {model}", f"Give model 1 to {count}, counted in the order they were "
             "deployed."))


def _status(unit: UnitState) -> str:
    return UNKNOWN if not unit.known else ON_TABLE if unit.on_table \
        else IN_POOL if unit.in_pool else "none left"


def _cost(pts: int, xp: int, always_xp: bool = False) -> str:
    return f"{pts} pts" + (f" + {xp} xp" if xp or always_xp else "")


def _begin_turn(state: HammerWarsState) -> HammerWarsState:
    """The next side's turn opens with its deployment phase and fresh pts and xp (pts left
    from an earlier phase were already lost at its end); after the last side's turn, the
    round waits for round-end."""
    active = state.active
    if active is not None:
        state = _rested(state).changed(active, pts=PTS_PER_PHASE,
                                       xp=state.side(active).xp + XP_PER_PHASE)
    return replace(state, phase=DEPLOYMENT)


def _rested(state: HammerWarsState) -> HammerWarsState:
    """No model has acted: a new turn (each may act in its side's next combat phase), or
    the round's end."""
    return replace(state, current=None, sides=tuple(
        replace(s, units=tuple(replace(u, acted=("",) * len(u.on_table)) for u in s.units))
        for s in state.sides))


def _after_kill(state: HammerWarsState, ev: Event, model: int) -> Activation | None:
    """The activation under way after model `model` of the unit `ev` hits is killed: gone if
    it was the one acting, renumbered if an earlier model of its type fell, and ready to
    chain if the attacker `ev` names made the kill in melee (said, or a 0" range's only
    way)."""
    now, side, by = state.current, ev.side or 1, ev.get("by")
    if now is None:
        return None
    if (now.side, now.unit) == (side, ev.unit or 1):
        if model == now.model:
            return None
        return replace(now, model=now.model - 1) if model < now.model else now
    if by == now.unit and other(side) == now.side:
        how = ev.get("attack") or (MELEE if state.unit(now.side, by).range == 0 else SHOOTING)
        return replace(now, chain_ready=True) if how == MELEE else now
    return now


def _check_morale(state: HammerWarsState) -> HammerWarsState:
    """A side whose morale reached 0 gives its enemy a VP and ends the game at once (both, if
    a round's end takes both to 0)."""
    fallen = [s for s in state.numbers if state.side(s).morale <= 0]
    if not fallen:
        return state
    for s in fallen:
        if state.present(other(s)):
            state = state.changed(other(s), vp=state.side(other(s)).vp + ZERO_VP)
    names = " and ".join(f"{state.side(s).name}'s" for s in fallen)
    return replace(state, ended=f"{names} morale fell to 0")
