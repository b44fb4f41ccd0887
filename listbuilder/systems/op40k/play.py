"""One Page 40k (1st edition) at the table: rounds of alternating activations, models lost,
morale (fleeing and rallied), the vehicle damage table, and the points scored after round 4.

The dice stay on the table: the log records what they decided (how many models an attack
removed, whether a morale test passed, which damage result a vehicle took), and the state says
what follows from it by the rules (a unit halved must test, a failed test flees, a fleeing
unit must pass a test to activate, a 4-5 damage result leaves only Hold). A shot and a damage
roll name the enemy unit that fired (`by`), so that a unit whose action fires nothing (Run,
Cruise, Assault) is refused as the shooter; logs written before `by` leave it out and replay
as they did. Readings of unclear points: docs/rules-notes.md, One Page 40k.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from listbuilder.engine.alternating import Alternating
from listbuilder.engine.match import (
    Event,
    Kind,
    Match,
    Outcome,
    Refused,
    Standing,
    Track,
    Value,
    concessions,
    event,
    gone,
    not_in_catalog,
    other,
    players_of,
    with_side,
)
from listbuilder.engine.system import RuleSystem
from listbuilder.systems.op40k.model import Datasheet, Op40kCatalog

ROUNDS = 4  # "after 4 rounds the game is over"
DIE = 6  # the damage table is numbered 1 to 6: a 6 destroys the vehicle
HOLD_ONLY_FROM = 4  # rolls 4-5: Hold only for the rest of the game; 1-3: a test to activate
HOLD = "Hold"  # the one action a vehicle with a 4-5 damage result may still take
ASSAULT = "Assault"  # the action whose fight the `assault` event records
OVERWATCH = "Overwatch"  # the action that may react once a round (the `react` event)
SILENT = ("none", "reaction")  # an action's `fire` that shoots nothing in the unit's own turn
PAPER_MOST = 20  # the most models a solo game's paper enemy is offered to lose in an assault

# a unit's standing, as the tracker lists it
STEADY = "steady"
FLEEING = "fleeing"
RALLIED = "rallied"  # was fleeing and passed its test to activate
DESTROYED = "destroyed"  # every model removed, or the vehicle destroyed
FLED_OFF = "fled off the table"  # a flee move left the table: removed as a casualty
GONE = (DESTROYED, FLED_OFF)
UNKNOWN = "not in the catalog"  # an entry naming no known datasheet: never on the table

# what a vehicle damage result does (the catalog's table says which rolls give which)
SHAKEN_EFFECT = "test-to-activate"
HOLD_ONLY_EFFECT = "hold-only"
DESTROYED_EFFECT = "destroyed"

SCORE = "Points of enemy units killed or fleeing"
LOST = "Own points killed or fleeing"


@dataclass(frozen=True)
class UnitState:
    """One roster entry on the table."""

    name: str
    size: int  # models fielded (a vehicle is one)
    left: int  # models left
    quality: int
    vehicle: bool
    points: int  # the entry's cost: what the enemy scores when it is killed or fleeing
    actions: tuple[str, ...]  # the actions its datasheet may take
    firing: tuple[str, ...] = ()  # those of them that shoot in its own activation
    status: str = STEADY
    activated: bool = False  # this round
    action: str = ""  # what it did this round
    reacted: bool = False  # fired on Overwatch this round (once a round)
    must_test: bool = False  # a morale test is due (halved by an attack, or lost an assault)
    shaken: bool = False  # a 1-3 damage result: a Quality test before it next activates
    hold_only: bool = False  # a 4-5 damage result: Hold for the rest of the game
    damage: tuple[int, ...] = ()  # the damage rolls it took, in order
    tests: tuple[str, ...] = ()  # its tests' results: "passed" / "failed", in order

    @property
    def on_table(self) -> bool:
        return self.status not in (*GONE, UNKNOWN)

    @property
    def killed(self) -> bool:
        return self.status in GONE

    @property
    def scores(self) -> bool:
        """Whether the enemy counts its points at the end: killed, or fleeing."""
        return self.killed or self.status == FLEEING

    @property
    def to_activate(self) -> bool:
        return self.on_table and not self.activated


@dataclass(frozen=True)
class Op40kState:
    names: tuple[str, ...]  # the players, side 1 first
    sides: tuple[tuple[UnitState, ...], ...]  # each side's units, in roster order
    round: int = 1
    first: int | None = None  # who won this round's roll-off for the first turn
    turn: int | None = None  # whose activation is next; None before the roll-off or when done
    current: tuple[int, int] | None = None  # the unit activated last (side, unit)
    assaulted: bool = False  # the current unit has recorded its assault
    ready: tuple[int, int] | None = None  # passed its test to activate and activates now
    # the Overwatch units that reacted during the activation under way: each may have a
    # shot to record now (not in `to_data`: it only narrows what the tracker offers)
    reacting: tuple[tuple[int, int], ...] = ()
    over: bool = False
    conceded: int | None = None  # the side that gave up: the game is over at once

    def unit(self, side: int, number: int) -> UnitState:
        return self.sides[side - 1][number - 1]

    def with_unit(self, side: int, number: int, unit: UnitState) -> Op40kState:
        units = with_side(self.sides[side - 1], number, unit)
        return replace(self, sides=with_side(self.sides, side, units))

    def waiting(self, side: int) -> list[tuple[int, str]]:
        return [(n, u.name) for n, u in enumerate(self.sides[side - 1], 1) if u.to_activate]

    @property
    def pending_tests(self) -> tuple[tuple[int, int], ...]:
        return tuple((s, n) for s, units in enumerate(self.sides, 1)
                     for n, u in enumerate(units, 1) if u.must_test)

    def score(self, side: int) -> int:
        """What `side` has scored: the points of enemy units killed or fleeing."""
        enemy = other(side)
        if enemy > len(self.sides):
            return 0
        return sum(u.points for u in self.sides[enemy - 1] if u.scores)


def _halved(before: int, left: int) -> bool:
    """An attack left the unit at half its size before the attack, or fewer (and alive)."""
    return left > 0 and 2 * left <= before


class Op40kPlay(Alternating[Op40kState]):
    system: RuleSystem[Op40kCatalog, Datasheet]
    rounds: ClassVar[int | None] = ROUNDS
    kinds: ClassVar[Mapping[str, Kind]] = {
        "first-turn": Kind("Won the roll-off: goes first this round", unit=False,
                           checks=("_no_test_pending", "_none_activated")),
        "activate": Kind("Activate", values={"action": str}, checks=("_may_activate",)),
        "rally": Kind("Fleeing: morale test to activate", values={"passed": bool},
                      words={"passed": ("passed", "failed")}, checks=("_may_activate",)),
        "vehicle-test": Kind("Shaken: Quality test to activate", values={"passed": bool},
                             words={"passed": ("passed", "failed")},
                             checks=("_may_activate",)),
        "shot": Kind("Models removed by shooting", values={"models": int, "by": int},
                     optional=("by",), words={"by": "from {}"},
                     asks={"models": "Models removed", "by": "Shot by"},
                     checks=("_in_round", "_fired_by")),
        "assault": Kind("Assault result", values={"target": int, "lost": int, "killed": int,
                                                  "damage": int},
                        optional=("killed", "damage"),
                        asks={"target": "Enemy unit", "lost": "Models it lost",
                              "killed": "Models it killed", "damage": "Damage roll (D6)"},
                        checks=("_in_round", "_no_test_pending")),
        "vehicle-damage": Kind("Vehicle damage roll", values={"roll": int, "by": int},
                               optional=("by",),
                               words={"by": "after shooting by {}"},
                               asks={"roll": "The roll (D6)", "by": "Shot by"},
                               checks=("_in_round", "_fired_by")),
        "morale": Kind("Morale test", values={"passed": bool},
                       words={"passed": ("passed", "failed")}),
        "off-table": Kind("Fled off the table"),
        "react": Kind("Overwatch: fires at a moving enemy (once a round)",
                      checks=("_in_round",)),
        "round-end": Kind("End the round", side=False, unit=False,
                          checks=("_no_test_pending", "all_activated")),
        "concede": Kind("Concede the game", unit=False),
    }

    # -- the start ---------------------------------------------------------------------------
    def start(self, match: Match) -> Op40kState:
        system = self.system
        sides = []
        for player, catalog in players_of(match, Op40kCatalog):
            units = [UnitState(name=e.label or e.unit, size=0, left=0, quality=0,
                               vehicle=False, points=0, actions=(), status=UNKNOWN)
                     for e in player.roster.entries]
            for p in system.priced(catalog, player.roster):
                fielded = system.fielded(catalog, p.unit, p.entry)
                # every op40k entry is fielded (its upgrades applied); the base type says None
                sheet = fielded.unit if fielded is not None else p.unit
                models = 1 if sheet.is_vehicle else (
                    fielded.models if fielded is not None else p.entry.count)
                actions = catalog.actions_for(sheet)
                units[p.index] = UnitState(
                    name=p.entry.label or sheet.name, size=models, left=models,
                    quality=sheet.quality, vehicle=sheet.is_vehicle, points=p.cost,
                    actions=tuple(a.name for a in actions),
                    firing=tuple(a.name for a in actions if a.fire not in SILENT))
            sides.append(tuple(units))
        return Op40kState(names=tuple(p.name for p in match.players), sides=tuple(sides))

    # -- events ------------------------------------------------------------------------------
    def absent(self, state: Op40kState, side: int, unit: int) -> Refused | None:
        found = state.unit(side, unit)
        if found.status == UNKNOWN:
            return not_in_catalog(found.name)
        return None if found.on_table else gone(found.name, found.status)

    def _concede(self, state: Op40kState, ev: Event) -> Op40kState:
        """Any time, a morale test due or not: the game is over."""
        return replace(state, conceded=ev.side or 1, over=True, turn=None, ready=None)

    def _no_test_pending(self, state: Op40kState, ev: Event | None = None) -> None:
        for side, number in state.pending_tests:
            name = state.unit(side, number).name
            raise Refused(f"{name} (side {side}) must take its morale test first",
                          f"Record a morale test for side {side}'s unit {number}.")

    def _none_activated(self, state: Op40kState, ev: Event) -> None:
        if any(u.activated for units in state.sides for u in units):
            raise Refused("units have already activated this round",
                          "Record the roll-off before the round's first activation.")

    def _may_activate(self, state: Op40kState, ev: Event) -> None:
        """What every way of starting an activation (activate, rally, vehicle-test) needs."""
        side, number, unit = _at(state, ev)
        self._no_test_pending(state)
        if state.ready is not None and state.ready != (side, number):
            ready = state.unit(*state.ready)
            raise Refused(f"{ready.name} passed its test and activates now",
                          f"Record side {state.ready[0]}'s unit {state.ready[1]}'s activation.")
        if state.first is None:
            raise Refused(f"nobody has won round {state.round}'s roll-off yet",
                          "Record first-turn for the side that goes first.")
        if unit.activated:
            raise Refused(f"{unit.name} has already activated in round {state.round}",
                          "Activate a unit that has not, or end the round.")
        self.turn_is(state, side)

    def _done(self, state: Op40kState, side: int, number: int, unit: UnitState,
              action: str) -> Op40kState:
        """The unit's activation is spent: the turn passes to the other side while it has units
        to activate, else stays; None when both are done."""
        state = state.with_unit(side, number, replace(unit, activated=True, action=action))
        return replace(self.passed(state, side), current=(side, number), assaulted=False,
                       ready=None, reacting=())

    def _activate(self, state: Op40kState, ev: Event) -> Op40kState:
        side, number, unit = _at(state, ev)
        if unit.status == FLEEING:
            raise Refused(f"{unit.name} is fleeing: it must pass a morale test to activate",
                          f"Record a rally test for side {side}'s unit {number}.")
        if unit.shaken:
            raise Refused(f"{unit.name} is shaken: it must pass a Quality test to activate",
                          f"Record a vehicle-test for side {side}'s unit {number}.")
        wanted = str(ev.get("action", "")).strip().casefold()
        allowed = self._actions(unit)
        action = next((a for a in allowed if a.casefold() == wanted), None)
        if action is None:
            why = " (its damage leaves it Hold only)" if unit.hold_only else ""
            raise Refused(f"{unit.name} cannot take the action '{ev.get('action')}'{why}",
                          f"Take one of: {', '.join(allowed)}.")
        return self._done(state, side, number, unit, action)

    def _rally(self, state: Op40kState, ev: Event) -> Op40kState:
        side, number, unit = _at(state, ev)
        if unit.status != FLEEING:
            raise Refused(f"{unit.name} is not fleeing, so it needs no test to activate",
                          "Record its activation.")
        passed = bool(ev.get("passed"))
        unit = replace(unit, tests=(*unit.tests, "passed" if passed else "failed"))
        if passed:  # rallied: it activates now
            return replace(state.with_unit(side, number, replace(unit, status=RALLIED)),
                           ready=(side, number))
        # it flees again, and that was its activation
        return self._done(state, side, number, unit, "fled again")

    def _vehicle_test(self, state: Op40kState, ev: Event) -> Op40kState:
        side, number, unit = _at(state, ev)
        if not unit.shaken:
            raise Refused(f"{unit.name} is not shaken, so it needs no test to activate",
                          "Record its activation.")
        passed = bool(ev.get("passed"))
        # the 1-3 result asks one test, at the next activation: spent either way
        unit = replace(unit, shaken=False,
                       tests=(*unit.tests, "passed" if passed else "failed"))
        if passed:
            return replace(state.with_unit(side, number, unit), ready=(side, number))
        return self._done(state, side, number, unit, "failed its test")

    def _in_round(self, state: Op40kState, ev: Event | None = None) -> None:
        """What an attack needs: a unit has acted this round, and none is between its passed
        test and its activation (which come together)."""
        if state.current is None:
            raise Refused(f"no unit has activated yet in round {state.round}",
                          "Record the activation of the unit that attacked first.")
        if state.ready is not None:
            ready = state.unit(*state.ready)
            raise Refused(f"{ready.name} passed its test and activates now",
                          f"Record side {state.ready[0]}'s unit {state.ready[1]}'s activation.")

    def _fired_by(self, state: Op40kState, ev: Event) -> None:
        """The enemy unit a shot or a damage roll names as the shooter (`by`) must have fired:
        it took an action that shoots this round (Hold, Walk; a vehicle's Hold or Move), or
        it is on Overwatch and has reacted. A log that names no shooter (written before
        `by`) is not checked."""
        by = ev.get("by")
        if by is None:
            return
        enemy = other(ev.side or 1)
        if enemy > len(state.sides):
            raise Refused("a solo game has one roster, so 'by' has no enemy unit to name",
                          "Leave by out: the enemy is kept on paper.")
        units = state.sides[enemy - 1]
        if not 1 <= by <= len(units):
            raise Refused(f"side {enemy} has units 1 to {len(units)}, not {by}",
                          "Give the number of the unit that fired, as in its roster.")
        refusal = self.absent(state, enemy, by)
        if refusal is not None:
            raise Refused(f"the shooter named, {refusal.message}", refusal.fix)
        shooter = units[by - 1]
        if shooter.action in shooter.firing:
            return
        if shooter.action == OVERWATCH:
            if shooter.reacted:
                return
            raise Refused(f"{shooter.name} is on Overwatch: it fires only when it reacts to "
                          "an enemy unit moving through its line of fire",
                          "Record its reaction first, or name the enemy unit that fired.")
        if not shooter.action:
            raise Refused(f"{shooter.name} has not activated in round {state.round}, and a "
                          "unit fires only as part of its action",
                          "Record its activation first, or name the enemy unit that fired.")
        if shooter.action == ASSAULT:
            raise Refused(f"{shooter.name} took the Assault action: it charges and fights in "
                          "base contact instead of shooting",
                          "Record the fight as its assault, or name the enemy unit that "
                          "fired.")
        if shooter.action in shooter.actions:  # Run, or a vehicle's Cruise
            raise Refused(f"{shooter.name} took {shooter.action} this round, and a unit that "
                          f"takes {shooter.action} may not fire its weapons",
                          "Name the enemy unit that fired; to shoot with this one, undo its "
                          "activation and give it an action that fires.")
        raise Refused(f"{shooter.name} spent its activation on a failed test and fired "
                      "nothing", "Name the enemy unit that fired.")

    def shooters(self, state: Op40kState, target_side: int) -> list[int]:
        """The enemy units that may be shooting at `target_side` now, by their numbers: the
        unit acting, when its action fires, and the Overwatch units that reacted to it."""
        enemy = other(target_side)
        if enemy > len(state.sides):
            return []
        out = []
        if state.current is not None and state.current[0] == enemy:
            unit = state.unit(*state.current)
            if unit.on_table and unit.action in unit.firing:
                out.append(state.current[1])
        out += [n for s, n in state.reacting
                if s == enemy and state.unit(s, n).on_table and n not in out]
        return out

    def _lose(self, unit: UnitState, lost: int) -> UnitState:
        """`lost` models removed by one attack: destroyed at none left, a morale test due when
        the attack halved it."""
        left = unit.left - lost
        if left == 0:
            return replace(unit, left=0, status=DESTROYED, must_test=False)
        return replace(unit, left=left, must_test=unit.must_test or _halved(unit.left, left))

    def _count(self, value: Any, name: str, unit: UnitState, least: int) -> int:
        n = int(value)
        if not least <= n <= unit.left:
            raise Refused(f"{name} must be {least} to {unit.left} for {unit.name} "
                          f"({unit.left} models left), not {n}",
                          f"Write how many of its models were removed, at most {unit.left}.")
        return n

    def _shot(self, state: Op40kState, ev: Event) -> Op40kState:
        side, number, unit = _at(state, ev)
        if unit.vehicle:
            raise Refused(f"{unit.name} is a vehicle: it loses no models, it rolls for damage",
                          "Record a vehicle-damage roll instead.")
        lost = self._count(ev.get("models"), "models", unit, 1)
        return state.with_unit(side, number, self._lose(unit, lost))

    def _damage(self, unit: UnitState, roll: int) -> UnitState:
        effect = _effect(roll)
        unit = replace(unit, damage=(*unit.damage, roll))
        if effect == DESTROYED_EFFECT:
            return replace(unit, left=0, status=DESTROYED, shaken=False)
        if effect == HOLD_ONLY_EFFECT:
            return replace(unit, hold_only=True)
        return replace(unit, shaken=True)

    def _roll(self, value: Any) -> int:
        roll = int(value)
        if not 1 <= roll <= DIE:
            raise Refused(f"a damage roll is 1 to {DIE}, not {roll}",
                          "Write the die kept (front: the better of two, rear: the worse).")
        return roll

    def _vehicle_damage(self, state: Op40kState, ev: Event) -> Op40kState:
        side, number, unit = _at(state, ev)
        if not unit.vehicle:
            raise Refused(f"{unit.name} is not a vehicle: it loses models instead",
                          "Record a shot with the models removed.")
        return state.with_unit(side, number,
                                       self._damage(unit, self._roll(ev.get("roll"))))

    def _assault(self, state: Op40kState, ev: Event) -> Op40kState:
        side, number, unit = _at(state, ev)
        if state.current != (side, number) or unit.action != ASSAULT:
            raise Refused(f"{unit.name} is not the unit that just took the Assault action",
                          "Record the assault right after its Assault activation.")
        if state.assaulted:
            raise Refused(f"{unit.name} has already fought its assault this activation",
                          "An Assault action fights one enemy unit once.")
        if unit.status == FLEEING:  # shot on its way in and failed its test
            raise Refused(f"{unit.name} fled before it reached its target",
                          "A fleeing unit fights no assault: leave the assault out.")
        target_no = int(ev.get("target"))
        lost = self._count(ev.get("lost"), "lost", unit, 0)
        solo = other(side) > len(state.sides)
        if solo:  # the enemy is kept on paper: only its losses are told
            killed = max(0, int(ev.get("killed", 0)))
            if target_no < 1 or ev.get("damage") is not None:
                raise Refused("in a solo game the target is the paper enemy's: give its "
                              "number and the models it lost", "Write target and killed.")
            target = None
            target_lost = killed
        else:
            enemies = state.sides[other(side) - 1]
            if not 1 <= target_no <= len(enemies):
                raise Refused(f"side {other(side)} has units 1 to {len(enemies)}, not "
                              f"{target_no}", "Give the assaulted unit's roster number.")
            target = enemies[target_no - 1]
            if not target.on_table:
                raise Refused(f"{target.name} is {target.status}",
                              "Assault an enemy unit still on the table.")
            if target.vehicle:
                if int(ev.get("killed", 0)) != 0:
                    raise Refused(f"{target.name} is a vehicle: it loses no models",
                                  "Leave killed out and give its damage roll, if any.")
                roll = ev.get("damage")
                after = target if roll is None else self._damage(target, self._roll(roll))
                target_lost = 1 if after.killed else 0
            else:
                if ev.get("killed") is None:
                    raise Refused("'assault' needs 'killed': the models the target lost",
                                  "Add killed: a whole number.")
                if ev.get("damage") is not None:
                    raise Refused(f"{target.name} is not a vehicle: it rolls no damage",
                                  "Leave damage out.")
                target_lost = self._count(ev.get("killed"), "killed", target, 0)
                after = self._lose(target, target_lost)
                # the unit that lost more models tests (vehicles never test morale)
                if target_lost > lost and after.on_table:
                    after = replace(after, must_test=True)
        attacker = self._lose(unit, lost)
        if lost > target_lost and attacker.on_table:
            attacker = replace(attacker, must_test=True)
        state = state.with_unit(side, number, attacker)
        if target is not None:
            state = state.with_unit(other(side), target_no, after)
        return replace(state, assaulted=True)

    def _morale(self, state: Op40kState, ev: Event) -> Op40kState:
        side, number, unit = _at(state, ev)
        if not unit.must_test:
            raise Refused(f"{unit.name} has no morale test to take: a unit tests when an "
                          "attack halves it or it loses an assault",
                          "Record the attack that calls for the test first.")
        passed = bool(ev.get("passed"))
        status = unit.status if passed else FLEEING  # a fleeing unit that fails flees again
        return state.with_unit(side, number, replace(
            unit, must_test=False, status=status,
            tests=(*unit.tests, "passed" if passed else "failed")))

    def _off_table(self, state: Op40kState, ev: Event) -> Op40kState:
        side, number, unit = _at(state, ev)
        if unit.status != FLEEING:
            raise Refused(f"{unit.name} is not fleeing, so it made no flee move",
                          "Only a fleeing unit can run off the table.")
        state = state.with_unit(side, number, replace(unit, status=FLED_OFF, left=0,
                                                      must_test=False))
        return state

    def _react(self, state: Op40kState, ev: Event) -> Op40kState:
        """An Overwatch unit fires at an enemy moving across its field of fire: once a round,
        during an enemy unit's activation. The models it removes are a `shot` on the target."""
        side, number, unit = _at(state, ev)
        if unit.action != OVERWATCH:
            raise Refused(f"{unit.name} is not on Overwatch this round"
                          + (f" (it took {unit.action})" if unit.action else ""),
                          "Only a unit that activated with Overwatch this round may react.")
        if unit.reacted:
            raise Refused(f"{unit.name} has already reacted this round",
                          "Overwatch reacts once a round: record the next round's instead.")
        assert state.current is not None  # _in_round
        if state.current[0] == side:
            raise Refused(f"{unit.name} reacts to enemy movement, and the unit acting now is "
                          f"its own side's", "Record the reaction during an enemy "
                                             "unit's activation.")
        return replace(state.with_unit(side, number, replace(unit, reacted=True)),
                       reacting=(*state.reacting, (side, number)))

    def _round_end(self, state: Op40kState, ev: Event) -> Op40kState:
        sides = tuple(tuple(replace(u, activated=False, action="", reacted=False)
                            for u in units) for units in state.sides)
        last = state.round >= ROUNDS
        return replace(state, sides=sides, round=state.round if last else state.round + 1,
                       first=None, turn=None, current=None, assaulted=False, ready=None,
                       reacting=(), over=last)

    # -- what may come next ------------------------------------------------------------------
    def _activations(self, state: Op40kState) -> tuple[list[Event], bool]:
        """What may start or end an activation now, and whether nothing else may come yet:
        morale tests first while any is due; the unit that passed its test to activate, each
        of its actions; the roll-off; each unit of the side whose turn it is, each of its
        actions or its test; the round's end."""
        if state.over:
            return [], True
        pending = state.pending_tests
        if pending:
            return [event("morale", s, n, passed=p) for s, n in pending
                    for p in (True, False)], True
        if state.ready is not None:
            s, n = state.ready
            return [event("activate", s, n, action=a)
                    for a in self._actions(state.unit(s, n))], True
        sides = range(1, len(state.sides) + 1)
        if state.first is None and any(state.waiting(s) for s in sides):
            return [event("first-turn", s) for s in sides], True
        out: list[Event] = []
        if state.turn is None:
            out.append(event("round-end"))
        else:
            for n, u in enumerate(state.sides[state.turn - 1], 1):
                if not u.to_activate:
                    continue
                if u.status == FLEEING:
                    out += [event("rally", state.turn, n, passed=p) for p in (True, False)]
                elif u.shaken:
                    out += [event("vehicle-test", state.turn, n, passed=p)
                            for p in (True, False)]
                else:
                    out += [event("activate", state.turn, n, action=a)
                            for a in self._actions(u)]
        return out, False

    def offers(self, state: Op40kState) -> list[Event]:
        """Every event the rules allow now: every activation (`_activations`); once a unit
        has acted, a shot (1 model to all left) on every enemy unit on the table of each
        unit firing now (`shooters`), a damage roll (1 to 6) on every such vehicle, each
        naming its shooter `by` (in a solo game, on every unit, naming none: the enemy is on
        paper); the flee off the table of every fleeing unit, the acting unit's assault on
        each enemy and every Overwatch reaction; and each side's concession, at any time
        until the game is over."""
        out, alone = self._activations(state)
        if alone or state.current is None:
            return out + concessions(len(state.sides), state.over)
        solo = len(state.sides) < 2
        for s, units in enumerate(state.sides, 1):
            named: list[int | None] = [None] if solo else list(self.shooters(state, s))
            for n, u in enumerate(units, 1):
                if not u.on_table:
                    continue
                if u.vehicle:
                    out += [_fired("vehicle-damage", s, n, by, roll=r)
                            for by in named for r in (1, DIE)]
                else:
                    out += [_fired("shot", s, n, by, models=m)
                            for by in named for m in sorted({1, u.left})]
                if u.status == FLEEING:
                    out.append(event("off-table", s, n))
        out += self._assaults(state)
        out += self._reactions(state)
        return out + concessions(len(state.sides), state.over)

    def _assaults(self, state: Op40kState) -> list[Event]:
        """The acting unit's assault, when it took the Assault action and has not fought:
        on each enemy unit on the table, its own models lost from none to all, the enemy's
        from none to all (a vehicle: its damage roll, 1 to 6); in a solo game, on the paper
        enemy, whose losses only the players know."""
        assert state.current is not None
        s, n = state.current
        unit = state.unit(s, n)
        if unit.action != ASSAULT or state.assaulted or unit.status not in (STEADY, RALLIED):
            return []
        lost = sorted({0, unit.left})
        if len(state.sides) < 2:
            return [event("assault", s, n, target=1, lost=x, killed=k)
                    for x in lost for k in (0, PAPER_MOST)]
        out: list[Event] = []
        for t, enemy in enumerate(state.sides[other(s) - 1], 1):
            if not enemy.on_table:
                continue
            if enemy.vehicle:
                out += [event("assault", s, n, target=t, lost=x, damage=r)
                        for x in lost for r in (1, DIE)]
            else:
                out += [event("assault", s, n, target=t, lost=x, killed=k)
                        for x in lost for k in sorted({0, enemy.left})]
        return out

    def _reactions(self, state: Op40kState) -> list[Event]:
        """Overwatch units of the side not acting now that have not reacted this round."""
        if state.current is None or state.ready is not None:
            return []
        acting = state.current[0]
        return [event("react", s, n) for s, units in enumerate(state.sides, 1) if s != acting
                for n, u in enumerate(units, 1)
                if u.on_table and u.action == OVERWATCH and not u.reacted]

    def _actions(self, unit: UnitState) -> tuple[str, ...]:
        return (HOLD,) if unit.hold_only else unit.actions

    # -- the result --------------------------------------------------------------------------
    def outcome(self, state: Op40kState) -> Outcome:
        sides = range(1, len(state.sides) + 1)
        scores = ((SCORE, tuple(state.score(s) for s in sides)),
                  (LOST, tuple(_lost(state, s) for s in sides)))
        if not state.over:
            return Outcome(False, reason=f"round {state.round} of {ROUNDS}", scores=scores)
        if state.conceded is not None:
            name = state.names[state.conceded - 1]
            if len(state.sides) < 2:
                return Outcome(True, None, f"{name} conceded: a solo game has no winner",
                               scores)
            return Outcome(True, other(state.conceded), f"{name} conceded", scores)
        if len(state.sides) < 2:
            return Outcome(True, None, f"after round {ROUNDS}: a solo game has no winner",
                           scores)
        one, two = state.score(1), state.score(2)
        winner = 1 if one > two else 2 if two > one else None
        reason = (f"after round {ROUNDS}: {max(one, two)} pts to {min(one, two)}"
                  if winner else f"after round {ROUNDS}: a draw at {one} pts each")
        return Outcome(True, winner, reason, scores)

    def situation(self, state: Op40kState, attacker: tuple[int, int],
                  defender: tuple[int, int]) -> Mapping[str, Value]:
        """What the log sets of quick-resolve (docs/rules-notes.md, "At the table: odds for
        One Page 40k"):

        - `attacker_models`, `defender_models`: each unit's `left`, the models the shots and
          assaults have left it (a vehicle has none to set; a destroyed unit, none left, sets
          nothing and has no odds at all).
        - `action`: the attacker's shooting action, `HOLD` for a vehicle whose 4-5 damage
          result (`hold_only`) leaves it nothing else; else the action it took this round
          (`action`), which the resolver keeps only when it shoots (Run and Cruise don't).
        - `attack`: `ASSAULT` when that is the action it took this round: the fight its
          `assault` event records.
        """
        out: dict[str, Value] = {}
        side, number = attacker
        if side <= len(state.sides) and 1 <= number <= len(state.sides[side - 1]):
            unit = state.unit(side, number)
            if unit.on_table and not unit.vehicle and unit.left >= 1:
                out["attacker_models"] = unit.left
            if unit.on_table and unit.vehicle and unit.hold_only:
                out["action"] = HOLD
            elif unit.on_table and unit.action == ASSAULT:
                out["attack"] = ASSAULT
            elif unit.on_table and unit.action:
                out["action"] = unit.action
        side, number = defender
        if side <= len(state.sides) and 1 <= number <= len(state.sides[side - 1]):
            target = state.unit(side, number)
            if target.on_table and not target.vehicle and target.left >= 1:
                out["defender_models"] = target.left
        return out

    def to_data(self, state: Op40kState) -> dict[str, Any]:
        return {"round": state.round, "rounds": ROUNDS, "first": state.first,
                "turn": state.turn, "over": state.over, "conceded": state.conceded,
                "current": list(state.current) if state.current else None,
                "ready": list(state.ready) if state.ready else None,
                "sides": [{"name": name, "score": state.score(s),
                           "units": list(self.units(state, s))}
                          for s, name in enumerate(state.names, 1)]}

    def units(self, state: Op40kState, side: int) -> list[dict[str, Any]]:
        out = []
        for n, u in enumerate(state.sides[side - 1], 1):
            row: dict[str, Any] = {"unit": n, "name": u.name, "alive": u.on_table,
                                   "status": u.status, "points": u.points,
                                   "activated": u.activated, "action": u.action,
                                   "reacted": u.reacted, "must_test": u.must_test,
                                   "tests": list(u.tests)}
            if u.vehicle:
                row.update(vehicle=True, shaken=u.shaken, hold_only=u.hold_only,
                           damage=list(u.damage))
            else:
                row.update(models=u.left, size=u.size)
            out.append(row)
        return out

    def current(self, state: Op40kState) -> tuple[int, int] | None:
        return state.current or state.ready

    def acting(self, state: Op40kState) -> tuple[int | None, str]:
        if state.over:
            return None, ""
        if state.pending_tests:
            side, number = state.pending_tests[0]
            return side, f"take {state.unit(side, number).name}'s morale test"
        if state.ready is not None:
            side, number = state.ready
            return side, f"pick {state.unit(side, number).name}'s action"
        sides = range(1, len(state.sides) + 1)
        if state.first is None and any(state.waiting(s) for s in sides):
            return None, "roll off: the winner activates first this round"
        if state.turn is None:
            return None, "every unit has activated: end the round"
        return state.turn, "activate a unit"

    def standing(self, unit: Mapping[str, Any]) -> Standing:
        tracks = () if unit.get("vehicle") or "models" not in unit else (
            Track("models", int(unit["models"]), int(unit["size"])),)
        chips = [str(unit["status"])] if unit.get("status") not in (None, STEADY) else []
        if unit.get("activated"):
            chips.append(f"activated: {unit['action']}" if unit.get("action") else "activated")
        chips += [label for key, label in (("reacted", "reacted"),
                                           ("must_test", "must test morale"),
                                           ("shaken", "shaken"), ("hold_only", "hold only"))
                  if unit.get(key)]
        chips += [f"damage: {d}" for d in unit.get("damage") or ()]
        points = unit.get("points")
        return Standing(tracks, tuple(chips), f"{points} pts" if points else "")


def _at(state: Op40kState, ev: Event) -> tuple[int, int, UnitState]:
    """The side, number and state of the unit an event names."""
    side, number = ev.side or 1, ev.unit or 1
    return side, number, state.unit(side, number)


def _fired(kind: str, side: int, unit: int, by: int | None, **values: int) -> Event:
    """A shot or a damage roll on a unit, naming its shooter when `by` is not None."""
    named = {**values, "by": by} if by is not None else values
    return Event(kind, side, unit, tuple(sorted(named.items())))


def _lost(state: Op40kState, side: int) -> int:
    return sum(u.points for u in state.sides[side - 1] if u.scores)


def _effect(roll: int) -> str:
    """The damage table (the seed's numbers): 1-3 a test to activate, 4-5 Hold only, 6
    destroyed."""
    if roll == DIE:
        return DESTROYED_EFFECT
    if roll >= HOLD_ONLY_FROM:
        return HOLD_ONLY_EFFECT
    return SHAKEN_EFFECT
