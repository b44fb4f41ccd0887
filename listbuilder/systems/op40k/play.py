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
from listbuilder.engine.play_parts import (
    activated,
    at,
    conceded,
    flagged,
    on_points,
    passing,
    refuse,
    unit_or_none,
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
DAMAGED: dict[str, dict[str, Any]] = {
    SHAKEN_EFFECT: {"shaken": True}, HOLD_ONLY_EFFECT: {"hold_only": True},
    DESTROYED_EFFECT: {"left": 0, "status": DESTROYED, "shaken": False}}

SCORE = "Points of enemy units killed or fleeing"
LOST = "Own points killed or fleeing"

# a unit's row (`units`): these values as they are, and a vehicle's own; other units: models
ROW = ("name", "alive", "status", "points", "activated", "action", "reacted", "must_test",
       "tests")
VEHICLE_ROW = ("vehicle", "shaken", "hold_only", "damage")
CHIPS = (("reacted", "reacted"), ("must_test", "must test morale"), ("shaken", "shaken"),
         ("hold_only", "hold only"))
PASSED = {"passed": ("passed", "failed")}
MAY_ACTIVATE = ("_no_test_pending", "_ready_first", "rolled", "_not_activated")
ANOTHER = "name the enemy unit that fired"


@dataclass(frozen=True)
class UnitState:
    """One roster entry on the table (an entry not in the catalog: its name alone)."""

    name: str
    size: int = 0  # models fielded (a vehicle is one)
    left: int = 0  # models left
    quality: int = 0
    vehicle: bool = False
    points: int = 0  # the entry's cost: what the enemy scores when it is killed or fleeing
    actions: tuple[str, ...] = ()  # the actions its datasheet may take
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
    def alive(self) -> bool:
        """On the table (`units` calls it `alive`)."""
        return self.status not in (*GONE, UNKNOWN)

    on_table = alive

    @property
    def killed(self) -> bool:
        return self.status in GONE

    @property
    def scores(self) -> bool:
        """Whether the enemy counts its points at the end: killed, or fleeing."""
        return self.killed or self.status == FLEEING


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
        return [(n, u.name) for n, u in enumerate(self.sides[side - 1], 1)
                if u.on_table and not u.activated]

    @property
    def pending_tests(self) -> tuple[tuple[int, int], ...]:
        return tuple((s, n) for s, units in enumerate(self.sides, 1)
                     for n, u in enumerate(units, 1) if u.must_test)

    def lost(self, side: int) -> int:
        """The points of `side`'s units killed or fleeing: what the enemy scores."""
        units = self.sides[side - 1] if side <= len(self.sides) else ()
        return sum(u.points for u in units if u.scores)

    def score(self, side: int) -> int:
        return self.lost(other(side))


class Op40kPlay(Alternating[Op40kState]):
    system: RuleSystem[Op40kCatalog, Datasheet]
    rounds: ClassVar[int | None] = ROUNDS
    kinds: ClassVar[Mapping[str, Kind]] = {
        "first-turn": Kind("Won the roll-off: goes first this round", unit=False,
                           checks=("_no_test_pending", "_none_activated")),
        "activate": Kind("Activate", values={"action": str}, checks=MAY_ACTIVATE),
        "rally": Kind("Fleeing: morale test to activate", values={"passed": bool},
                      words=PASSED, checks=MAY_ACTIVATE, handler="_test"),
        "vehicle-test": Kind("Shaken: Quality test to activate", values={"passed": bool},
                             words=PASSED, checks=MAY_ACTIVATE, handler="_test"),
        "shot": Kind("Models removed by shooting", values={"models": int, "by": int},
                     optional=("by",), words={"by": "from {}"},
                     asks={"models": "Models removed", "by": "Shot by"},
                     checks=("_in_round", "_fired_by"), handler="_hit"),
        "assault": Kind("Assault result", values={"target": int, "lost": int, "killed": int,
                                                  "damage": int},
                        optional=("killed", "damage"),
                        asks={"target": "Enemy unit", "lost": "Models it lost",
                              "killed": "Models it killed", "damage": "Damage roll (D6)"},
                        checks=("_in_round", "_no_test_pending")),
        "vehicle-damage": Kind("Vehicle damage roll", values={"roll": int, "by": int},
                               optional=("by",), words={"by": "after shooting by {}"},
                               asks={"roll": "The roll (D6)", "by": "Shot by"},
                               checks=("_in_round", "_fired_by"), handler="_hit"),
        "morale": Kind("Morale test", values={"passed": bool}, words=PASSED, handler="_test"),
        "off-table": Kind("Fled off the table"),
        "react": Kind("Overwatch: fires at a moving enemy (once a round)",
                      checks=("_in_round",)),
        "round-end": Kind("End the round", side=False, unit=False,
                          checks=("_no_test_pending", "all_activated")),
        "concede": Kind("Concede the game", unit=False),
    }

    def start(self, match: Match) -> Op40kState:
        system, sides = self.system, []
        for player, catalog in players_of(match, Op40kCatalog):
            units = [UnitState(e.label or e.unit, status=UNKNOWN) for e in player.roster.entries]
            for p in system.priced(catalog, player.roster):
                fielded = system.fielded(catalog, p.unit, p.entry)  # its upgrades applied
                assert fielded is not None  # every op40k entry is fielded
                sheet, actions = fielded.unit, catalog.actions_for(fielded.unit)
                models = 1 if sheet.is_vehicle else fielded.models
                units[p.index] = UnitState(
                    name=p.entry.label or sheet.name, size=models, left=models,
                    quality=sheet.quality, vehicle=sheet.is_vehicle, points=p.cost,
                    actions=tuple(a.name for a in actions),
                    firing=tuple(a.name for a in actions if a.fire not in SILENT))
            sides.append(tuple(units))
        return Op40kState(names=tuple(p.name for p in match.players), sides=tuple(sides))

    def absent(self, state: Op40kState, side: int, unit: int) -> Refused | None:
        found = state.unit(side, unit)
        if found.status == UNKNOWN:
            return not_in_catalog(found.name)
        return None if found.on_table else gone(found.name, found.status)

    def _no_test_pending(self, state: Op40kState, ev: Event | None = None) -> None:
        for side, number in state.pending_tests:
            name = state.unit(side, number).name
            raise Refused(f"{name} (side {side}) must take its morale test first",
                          f"Record a morale test for side {side}'s unit {number}.")

    def _none_activated(self, state: Op40kState, ev: Event) -> None:
        if any(u.activated for units in state.sides for u in units):
            raise Refused("units have already activated this round",
                          "Record the roll-off before the round's first activation.")

    def _ready_first(self, state: Op40kState, ev: Event | None = None) -> None:
        """The unit that passed its test to activate activates now, before anything else."""
        if state.ready is not None and (ev is None or state.ready != (ev.side, ev.unit)):
            raise Refused(f"{state.unit(*state.ready).name} passed its test and activates now",
                          f"Record side {state.ready[0]}'s unit {state.ready[1]}'s activation.")

    def _not_activated(self, state: Op40kState, ev: Event) -> None:
        side, _, unit = at(state, ev)
        if unit.activated:
            raise Refused(f"{unit.name} has already activated in round {state.round}",
                          "Activate a unit that has not, or end the round.")
        self.turn_is(state, side)

    def _in_round(self, state: Op40kState, ev: Event | None = None) -> None:
        """What an attack needs: a unit has acted this round, and none is between its passed
        test and its activation (which come together)."""
        if state.current is None:
            raise Refused(f"no unit has activated yet in round {state.round}",
                          "Record the activation of the unit that attacked first.")
        self._ready_first(state)

    def _fired_by(self, state: Op40kState, ev: Event) -> None:
        """The enemy unit a shot or a damage roll names as the shooter (`by`) must have fired:
        it took an action that shoots this round (Hold, Walk; a vehicle's Hold or Move), or
        it is on Overwatch and has reacted. A log that names no shooter (written before
        `by`) is not checked."""
        by = ev.get("by")
        if by is None:
            return
        if other(ev.side or 1) > len(state.sides):
            raise Refused("a solo game has one roster, so 'by' has no enemy unit to name",
                          "Leave by out: the enemy is kept on paper.")
        unit = _enemy(state, ev.side or 1, by,
                      "Give the number of the unit that fired, as in its roster.")
        refusal = self.absent(state, other(ev.side or 1), by)
        if refusal is not None:
            raise Refused(f"the shooter named, {refusal.message}", refusal.fix)
        name, action = unit.name, unit.action
        if action in unit.firing or (action == OVERWATCH and unit.reacted):
            return
        refuse(
            (action == OVERWATCH, f"{name} is on Overwatch: it fires only when it reacts to an "
             "enemy unit moving through its line of fire", f"Record its reaction first, or "
             f"{ANOTHER}."),
            (not action, f"{name} has not activated in round {state.round}, and a unit fires "
             "only as part of its action", f"Record its activation first, or {ANOTHER}."),
            (action == ASSAULT, f"{name} took the Assault action: it charges and fights in "
             "base contact instead of shooting", f"Record the fight as its assault, or "
             f"{ANOTHER}."),
            (action in unit.actions,  # Run, or a vehicle's Cruise
             f"{name} took {action} this round, and a unit that takes {action} may not fire its "
             f"weapons", f"{ANOTHER.capitalize()}; to shoot with this one, undo its activation "
             "and give it an action that fires."),
            (True, f"{name} spent its activation on a failed test and fired nothing",
             f"{ANOTHER.capitalize()}."))

    def _concede(self, state: Op40kState, ev: Event) -> Op40kState:
        """Any time, a morale test due or not: the game is over."""
        return replace(state, conceded=ev.side or 1, over=True, turn=None, ready=None)

    def _done(self, state: Op40kState, side: int, number: int, unit: UnitState,
              action: str) -> Op40kState:
        """The unit's activation is spent: the turn passes (`passed`)."""
        state = state.with_unit(side, number, replace(unit, activated=True, action=action))
        return replace(self.passed(state, side), current=(side, number), assaulted=False,
                       ready=None, reacting=())

    def _activate(self, state: Op40kState, ev: Event) -> Op40kState:
        side, number, unit = at(state, ev)
        refuse(
            (unit.status == FLEEING, f"{unit.name} is fleeing: it must pass a morale test to "
             "activate", f"Record a rally test for side {side}'s unit {number}."),
            (unit.shaken, f"{unit.name} is shaken: it must pass a Quality test to activate",
             f"Record a vehicle-test for side {side}'s unit {number}."))
        wanted = str(ev.get("action", "")).strip().casefold()
        allowed = (HOLD,) if unit.hold_only else unit.actions
        action = next((a for a in allowed if a.casefold() == wanted), None)
        if action is None:
            why = " (its damage leaves it Hold only)" if unit.hold_only else ""
            raise Refused(f"{unit.name} cannot take the action '{ev.get('action')}'{why}",
                          f"Take one of: {', '.join(allowed)}.")
        return self._done(state, side, number, unit, action)

    def _hit(self, state: Op40kState, ev: Event) -> Op40kState:
        """A shot's models removed, or a vehicle's damage roll."""
        side, number, unit = at(state, ev)
        if unit.vehicle != (ev.kind == "vehicle-damage"):
            raise Refused(*(f"{unit.name} is a vehicle: it loses no models, it rolls for damage",
                            "Record a vehicle-damage roll instead.") if unit.vehicle else
                          (f"{unit.name} is not a vehicle: it loses models instead",
                           "Record a shot with the models removed."))
        return state.with_unit(side, number, self._damage(unit, ev.get("roll")) if unit.vehicle
                               else self._lose(unit, self._count(ev.get("models"), "models",
                                                                 unit, 1)))

    def _assault(self, state: Op40kState, ev: Event) -> Op40kState:
        """The Assault action's fight: both units' models lost (a vehicle target: its damage
        roll); the unit that lost more models tests (vehicles never test morale)."""
        side, number, unit = at(state, ev)
        refuse(
            (state.current != (side, number) or unit.action != ASSAULT, f"{unit.name} is not "
             "the unit that just took the Assault action", "Record the assault right after "
             "its Assault activation."),
            (state.assaulted, f"{unit.name} has already fought its assault this activation",
             "An Assault action fights one enemy unit once."),
            # shot on its way in and failed its test
            (unit.status == FLEEING, f"{unit.name} fled before it reached its target",
             "A fleeing unit fights no assault: leave the assault out."))
        target_no, killed, roll = int(ev.get("target")), ev.get("killed"), ev.get("damage")
        lost = self._count(ev.get("lost"), "lost", unit, 0)
        after = None
        if other(side) > len(state.sides):  # the enemy is kept on paper: only its losses told
            if target_no < 1 or roll is not None:
                raise Refused("in a solo game the target is the paper enemy's: give its "
                              "number and the models it lost", "Write target and killed.")
            target_lost = max(0, int(killed or 0))
        else:
            target = _enemy(state, side, target_no, "Give the assaulted unit's roster number.")
            vehicle, name = target.vehicle, target.name
            refuse(
                (not target.on_table, f"{name} is {target.status}",
                 "Assault an enemy unit still on the table."),
                (vehicle and int(killed or 0) != 0, f"{name} is a vehicle: it loses no models",
                 "Leave killed out and give its damage roll, if any."),
                (not vehicle and killed is None, "'assault' needs 'killed': the models the "
                 "target lost", "Add killed: a whole number."),
                (not vehicle and roll is not None, f"{name} is not a vehicle: it rolls no "
                 "damage", "Leave damage out."))
            if vehicle:
                after = target if roll is None else self._damage(target, roll)
                target_lost = int(after.status == DESTROYED)
            else:
                target_lost = self._count(killed, "killed", target, 0)
                after = self._lose(target, target_lost, beaten=target_lost > lost)
        state = state.with_unit(side, number, self._lose(unit, lost, beaten=lost > target_lost))
        if after is not None:
            state = state.with_unit(other(side), target_no, after)
        return replace(state, assaulted=True)

    def _test(self, state: Op40kState, ev: Event) -> Op40kState:
        """A morale test (failed, the unit flees, again if it was fleeing), a fleeing unit's
        test to activate (`rally`) or a shaken vehicle's Quality test: passed, it activates
        now (rallied); failed, that was its activation. The 1-3 damage result asks one test,
        at the next activation: spent either way."""
        side, number, unit = at(state, ev)
        due, why, fix = {
            "morale": (unit.must_test, "has no morale test to take: a unit tests when an "
                       "attack halves it or it loses an assault",
                       "Record the attack that calls for the test first."),
            "rally": (unit.status == FLEEING, "is not fleeing, so it needs no test to "
                      "activate", "Record its activation."),
            "vehicle-test": (unit.shaken, "is not shaken, so it needs no test to activate",
                             "Record its activation.")}[ev.kind]
        if not due:
            raise Refused(f"{unit.name} {why}", fix)
        passed = bool(ev.get("passed"))
        unit = replace(unit, must_test=False, shaken=False,
                       tests=(*unit.tests, "passed" if passed else "failed"))
        if ev.kind == "morale":
            return state.with_unit(side, number, unit if passed else
                                   replace(unit, status=FLEEING))
        if passed:
            unit = replace(unit, status=RALLIED) if ev.kind == "rally" else unit
            return replace(state.with_unit(side, number, unit), ready=(side, number))
        return self._done(state, side, number, unit, "fled again" if ev.kind == "rally" else
                          "failed its test")

    def _off_table(self, state: Op40kState, ev: Event) -> Op40kState:
        side, number, unit = at(state, ev)
        if unit.status != FLEEING:
            raise Refused(f"{unit.name} is not fleeing, so it made no flee move",
                          "Only a fleeing unit can run off the table.")
        return state.with_unit(side, number, replace(unit, status=FLED_OFF, left=0,
                                                     must_test=False))

    def _react(self, state: Op40kState, ev: Event) -> Op40kState:
        """An Overwatch unit fires at an enemy moving across its field of fire: once a round,
        during an enemy unit's activation. The models it removes are a `shot` on the target."""
        side, number, unit = at(state, ev)
        assert state.current is not None  # _in_round
        refuse(
            (unit.action != OVERWATCH, f"{unit.name} is not on Overwatch this round"
             + (f" (it took {unit.action})" if unit.action else ""),
             "Only a unit that activated with Overwatch this round may react."),
            (unit.reacted, f"{unit.name} has already reacted this round",
             "Overwatch reacts once a round: record the next round's instead."),
            (state.current[0] == side, f"{unit.name} reacts to enemy movement, and the unit "
             "acting now is its own side's", "Record the reaction during an enemy unit's "
             "activation."))
        return replace(state.with_unit(side, number, replace(unit, reacted=True)),
                       reacting=(*state.reacting, (side, number)))

    def _round_end(self, state: Op40kState, ev: Event) -> Op40kState:
        sides = tuple(tuple(replace(u, activated=False, action="", reacted=False)
                            for u in units) for units in state.sides)
        last = state.round >= ROUNDS
        return replace(state, sides=sides, round=state.round if last else state.round + 1,
                       first=None, turn=None, current=None, assaulted=False, ready=None,
                       reacting=(), over=last)

    def shooters(self, state: Op40kState, target_side: int) -> list[int]:
        """The enemy units that may be shooting at `target_side` now, by their numbers: the
        unit acting, when its action fires, and the Overwatch units that reacted to it."""
        acting = state.current
        firing = (acting,) if acting and (u := state.unit(*acting)).action in u.firing else ()
        return [n for s, n in (*firing, *state.reacting)
                if s == other(target_side) and state.unit(s, n).on_table]

    def offers(self, state: Op40kState) -> list[Event]:
        """Every event the rules allow now: of these candidates, those `apply` accepts. While a
        morale test is due, the tests alone; before the round's first activation, the roll-off
        alone. Once a unit has acted, shots and damage rolls name only the units firing now
        (`shooters`; in a solo game, none: the enemy is on paper)."""
        if state.over:
            return []
        every = [(s, n, u) for s, units in enumerate(state.sides, 1)
                 for n, u in enumerate(units, 1) if u.on_table]
        sides = range(1, len(state.sides) + 1)
        if state.pending_tests:
            candidates = [_event("morale", s, n, passed=p) for s, n, _ in every
                          for p in (True, False)]
        elif state.first is None and any(state.waiting(s) for s in sides):
            candidates = [event("first-turn", s) for s in sides]
        else:
            candidates = [event("round-end"), *(
                ev for s, n, u in every if s == state.turn for ev in (
                    *(_event(kind, s, n, passed=p) for kind in ("rally", "vehicle-test")
                      for p in (True, False)),
                    *(_event("activate", s, n, action=a)
                      for a in ((HOLD,) if u.hold_only else u.actions))))]
        if state.current is not None and state.ready is None and not state.pending_tests:
            for s, n, u in every:
                named = [None] if len(state.sides) < 2 else self.shooters(state, s)
                kind, key, values = ("vehicle-damage", "roll", (1, DIE)) if u.vehicle \
                    else ("shot", "models", sorted({1, u.left}))
                candidates += [_event(kind, s, n, by=by, **{key: v})
                               for by in named for v in values]
                candidates.append(event("off-table", s, n))
            candidates += self._assaults(state, *state.current)
            candidates += [event("react", s, n) for s, n, _ in every]
        return passing(self.apply, state, candidates) + concessions(len(state.sides))

    def _assaults(self, state: Op40kState, s: int, n: int) -> list[Event]:
        """Unit `n` of side `s`'s assault: on each enemy unit, its own models lost from none
        to all, the enemy's from none to all (a vehicle: its damage roll, 1 to 6); in a solo
        game, on the paper enemy, whose losses only the players know."""
        lost = sorted({0, state.unit(s, n).left})
        if len(state.sides) < 2:
            return [event("assault", s, n, target=1, lost=x, killed=k)
                    for x in lost for k in (0, PAPER_MOST)]
        out: list[Event] = []
        for t, enemy in enumerate(state.sides[other(s) - 1], 1):
            key, values = ("damage", (1, DIE)) if enemy.vehicle else \
                ("killed", sorted({0, enemy.left}))
            out += [_event("assault", s, n, target=t, lost=x, **{key: v})
                    for x in lost for v in values]
        return out

    def outcome(self, state: Op40kState) -> Outcome:
        sides = range(1, len(state.sides) + 1)
        scores = ((SCORE, tuple(state.score(s) for s in sides)),
                  (LOST, tuple(state.lost(s) for s in sides)))
        if not state.over:
            return Outcome(False, reason=f"round {state.round} of {ROUNDS}", scores=scores)
        if state.conceded is not None:
            return conceded(state.names, state.conceded, scores)
        return on_points(scores[0][1], f"after round {ROUNDS}", "pts", scores)

    def situation(self, state: Op40kState, attacker: tuple[int, int],
                  defender: tuple[int, int]) -> Mapping[str, Value]:
        """What the log sets of quick-resolve (docs/rules-notes.md, "At the table: odds for
        One Page 40k"): each unit's models left (a vehicle has none to set; a destroyed unit
        has no odds at all); the attacker's `action`, `HOLD` for a vehicle whose 4-5 damage
        result leaves it nothing else, which the resolver keeps only when it shoots (Run and
        Cruise don't); `attack` `ASSAULT` when that was its action: the fight its `assault`
        event records."""
        out: dict[str, Value] = {}
        unit, target = unit_or_none(state, *attacker), unit_or_none(state, *defender)
        if unit is not None and unit.on_table:
            if not unit.vehicle and unit.left >= 1:
                out["attacker_models"] = unit.left
            if unit.vehicle and unit.hold_only:
                out["action"] = HOLD
            elif unit.action == ASSAULT:
                out["attack"] = ASSAULT
            elif unit.action:
                out["action"] = unit.action
        if target is not None and target.on_table and not target.vehicle and target.left >= 1:
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
        return [{"unit": n, **{key: list(v) if isinstance(v := getattr(u, key), tuple) else v
                               for key in ROW + (VEHICLE_ROW if u.vehicle else ())},
                 **({} if u.vehicle else {"models": u.left, "size": u.size})}
                for n, u in enumerate(state.sides[side - 1], 1)]

    def current(self, state: Op40kState) -> tuple[int, int] | None:
        return state.current or state.ready

    def acting(self, state: Op40kState) -> tuple[int | None, str]:
        if state.over:
            return None, ""
        if state.pending_tests:
            side, number = state.pending_tests[0]
            return side, f"take {state.unit(side, number).name}'s morale test"
        if state.ready is not None:
            return state.ready[0], f"pick {state.unit(*state.ready).name}'s action"
        if state.first is None and any(state.waiting(s) for s in range(1, len(state.sides) + 1)):
            return None, "roll off: the winner activates first this round"
        if state.turn is None:
            return None, "every unit has activated: end the round"
        return state.turn, "activate a unit"

    def standing(self, unit: Mapping[str, Any]) -> Standing:
        tracks = () if unit.get("vehicle") or "models" not in unit else (
            Track("models", int(unit["models"]), int(unit["size"])),)
        chips = [str(unit["status"])] if unit.get("status") not in (None, STEADY) else []
        chips += activated(unit) + flagged(unit, CHIPS)
        chips += [f"damage: {d}" for d in unit.get("damage") or ()]
        points = unit.get("points")
        return Standing(tracks, tuple(chips), f"{points} pts" if points else "")

    def _count(self, value: Any, name: str, unit: UnitState, least: int) -> int:
        n = int(value)
        if not least <= n <= unit.left:
            raise Refused(f"{name} must be {least} to {unit.left} for {unit.name} "
                          f"({unit.left} models left), not {n}",
                          f"Write how many of its models were removed, at most {unit.left}.")
        return n

    def _lose(self, unit: UnitState, lost: int, beaten: bool = False) -> UnitState:
        """`lost` models removed by one attack: destroyed at none left; a morale test due when
        the attack left half its models or fewer, or it lost an assault (`beaten`: lost more)."""
        left = unit.left - lost
        if left == 0:
            return replace(unit, left=0, status=DESTROYED, must_test=False)
        halved = 2 * left <= unit.left
        return replace(unit, left=left, must_test=unit.must_test or beaten or halved)

    def _damage(self, unit: UnitState, value: Any) -> UnitState:
        """The damage table (the seed's numbers): 1-3 a test to activate, 4-5 Hold only, 6
        destroyed."""
        roll = int(value)
        if not 1 <= roll <= DIE:
            raise Refused(f"a damage roll is 1 to {DIE}, not {roll}",
                          "Write the die kept (front: the better of two, rear: the worse).")
        effect = DESTROYED_EFFECT if roll == DIE else \
            HOLD_ONLY_EFFECT if roll >= HOLD_ONLY_FROM else SHAKEN_EFFECT
        return replace(unit, damage=(*unit.damage, roll), **DAMAGED[effect])


def _enemy(state: Op40kState, side: int, number: int, fix: str) -> UnitState:
    """The enemy unit `number` of `side`'s enemy; refused, with `fix`, out of range."""
    units = state.sides[other(side) - 1]
    if not 1 <= number <= len(units):
        raise Refused(f"side {other(side)} has units 1 to {len(units)}, not {number}", fix)
    return units[number - 1]


def _event(kind: str, side: int, unit: int, /, **values: Value | None) -> Event:
    """An event of a unit, its values given by name but those None (a shot naming no
    shooter)."""
    return Event(kind, side, unit, tuple(sorted((k, v) for k, v in values.items()
                                                if v is not None)))
