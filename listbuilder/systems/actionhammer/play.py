"""ActionHammer at the table: 4 battle rounds of one turn per player, stances, wounds and
models lost, Leaders with their Bodyguards, morale tests and Stunned units, and the objectives
that score Victory points from the second round on.

The dice and the tape measure stay on the table: the log records what they decided (the
wounds a volley dealt, whether a morale test passed, which objective a unit ended its
activation at), and the state says what follows from it by the rules (a unit at half strength
tests at its next activation, a Stunned unit's Control is 0, the side with the most Control at
an objective holds it, the turn's VP). Readings of unclear points: docs/rules-notes.md,
ActionHammer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from listbuilder.engine.alternating import Alternating
from listbuilder.engine.match import (
    Event,
    Kind,
    Match,
    MatchError,
    Outcome,
    Refused,
    Setting,
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
from listbuilder.systems.actionhammer.limits import Placed, join_reasons, joined_to
from listbuilder.systems.actionhammer.model import ActionHammerCatalog, Datasheet

# -- the seed's numbers -------------------------------------------------------------------------
ROUNDS = 4  # the battle ends once the fourth battle round has ended
OBJECTIVES_MIN, OBJECTIVES_MAX = 3, 5  # "3-5 (or D3+2) objective markers"
DEFAULT_OBJECTIVES = OBJECTIVES_MIN  # when the match does not say (docs/rules-notes.md)
SCORING_FROM_ROUND = 2  # objectives score from the second battle round on
VP_PER_OBJECTIVE = 1  # each objective held at the end of the player's own turn
VP_PER_TURN_MAX = 3  # at most this many VP a turn
MORALE_DIVISOR = 2  # a unit at half (or less) of its starting size or Wounds tests
MULTI_MODEL = 2  # a unit of this many models counts models for morale; fewer, Wounds

# the stances: three a player picks, one a failed morale test imposes
REGULAR, ATTACKING, DEFENSIVE, STUNNED = "Regular", "Attacking", "Defensive", "Stunned"
CHOSEN = (REGULAR, ATTACKING, DEFENSIVE)
OPENING = DEFENSIVE  # every unit before its first activation...
OPENING_FALLBACK = REGULAR  # ...unless it may not take the Defensive stance
GROUNDED_IN = (DEFENSIVE, STUNNED)  # Flying units land in these stances
FLYING = "Flying"
FEARLESS = "Fearless"  # a sample ability: "this unit never takes morale tests"
# the movement a unit picks as it activates, by the seed's names for them
REMAIN, NORMAL, ADVANCE, CHARGE = "Remain Stationary", "Normal", "Advance", "Charge"
MOVES = (REMAIN, NORMAL, ADVANCE, CHARGE)
# how an attack named by its attacker (`by`) was made
SHOOTING, MELEE = "shooting", "melee"
ATTACKS = (SHOOTING, MELEE)
SHOOTS_BEFORE_CHARGING = (REGULAR, ATTACKING)  # the stances that may shoot a charge's target

# a unit's movement this turn, as its row says it
MOVE_CHIPS = {REMAIN: "stayed put", NORMAL: "moved", ADVANCE: "advanced", CHARGE: "charged"}

OPTIONS = ("objectives",)  # the match options this game knows

VP = "VP"
HELD = "Objectives held"


@dataclass(frozen=True)
class UnitState:
    """One roster entry on the table. A Leader joined to a Bodyguard is its own entry: the
    two share one activation, stance, objective and morale test while both stand."""

    name: str
    label: str = ""
    size: int = 0  # models at the start of the game
    left: int = 0  # models left
    wounds: int = 1  # Wounds of each model (after upgrades)
    hurt: int = 0  # wounds on the damaged model: fewer than `wounds`
    taken: int = 0  # wounds taken in all
    control: int = 0  # Control of each model
    morale: int = 0  # the roll its morale test needs
    fearless: bool = False
    flying: bool = False
    leader: bool = False
    stances: tuple[str, ...] = CHOSEN  # the stances the player may pick for it
    partner: int = 0  # the entry it is joined to (Leader <-> Bodyguard); 0: none
    stance: str = OPENING
    stunned: bool = False  # a failed morale test, until its next activation begins
    activated: bool = False  # this turn
    objective: int = 0  # the objective it ended its last activation at; 0: none
    tests: tuple[str, ...] = ()  # its morale tests, "passed" / "failed", in order
    move: str = ""  # the movement of its activation this turn (`MOVES`); "": none recorded
    struck_back: int = 0  # the charging unit (the other side's head entry) it struck back
    # at this turn; 0: none yet
    known: bool = True  # False: the entry names no datasheet of the catalog

    @property
    def alive(self) -> bool:
        return self.known and self.left > 0

    @property
    def wounds_left(self) -> int:
        return self.left * self.wounds - self.hurt


@dataclass(frozen=True)
class ActionHammerState:
    names: tuple[str, ...]  # the players, side 1 first
    sides: tuple[tuple[UnitState, ...], ...]  # each side's entries, in roster order
    control: tuple[int, ...]  # each objective's holder: a side, or 0 for nobody
    vp: tuple[int, ...]  # each side's Victory points
    round: int = 1
    first: int | None = None  # who won the deployment roll-off: first turn of every round
    turn: int | None = None  # whose turn it is; None before the first turn and at the end
    played: int = 0  # turns finished in this round
    tested: tuple[int, int] | None = None  # took its morale test: its activation comes now
    scored: tuple[tuple[int, int, int], ...] = ()  # (round, side, VP) for each turn scored
    over: bool = False
    destroyed: int | None = None  # the side whose whole army was destroyed
    conceded: int | None = None  # the side that gave up: the game is over at once

    @property
    def ended(self) -> bool:
        """Over: after round 4, an army destroyed or a side conceded."""
        return self.over or self.destroyed is not None or self.conceded is not None

    @property
    def objectives(self) -> int:
        return len(self.control)

    def waiting(self, side: int) -> list[tuple[int, str]]:
        return [(n, self.unit(side, n).name) for n in self.table_units(side)
                if not self.unit(side, n).activated]

    def unit(self, side: int, number: int) -> UnitState:
        return self.sides[side - 1][number - 1]

    def with_unit(self, side: int, number: int, unit: UnitState) -> ActionHammerState:
        units = with_side(self.sides[side - 1], number, unit)
        return replace(self, sides=with_side(self.sides, side, units))

    def members(self, side: int, number: int) -> tuple[int, ...]:
        """The entries that make up the unit on the table now: the entry, and its Leader or
        Bodyguard while both stand (when one is destroyed, the other is a unit of its own)."""
        unit = self.unit(side, number)
        if unit.partner and unit.alive and self.unit(side, unit.partner).alive:
            return tuple(sorted((number, unit.partner)))
        return (number,)

    def head(self, side: int, number: int) -> int:
        """The entry the tracker offers for the unit's actions: a Bodyguard for its pair."""
        members = self.members(side, number)
        return next((n for n in members if not self.unit(side, n).leader), members[0])

    def table_units(self, side: int) -> list[int]:
        """Each unit standing on the table once, by its head entry."""
        if side > len(self.sides):
            return []
        seen: list[int] = []
        for n, u in enumerate(self.sides[side - 1], 1):
            if u.alive and self.head(side, n) == n:
                seen.append(n)
        return seen

    def morale_due(self, side: int, number: int) -> bool:
        """At half its starting size or fewer (a single model: half its starting Wounds),
        the unit tests at the start of its activation; a Fearless unit never does."""
        members = [self.unit(side, n) for n in self.members(side, number)]
        if any(u.fearless for u in members):
            return False
        start = sum(u.size for u in members)
        if start >= MULTI_MODEL:
            return sum(u.left for u in members) * MORALE_DIVISOR <= start
        only = members[0]
        return only.wounds_left * MORALE_DIVISOR <= only.wounds

    def held(self, side: int) -> int:
        return sum(1 for holder in self.control if holder == side)

    def control_at(self, side: int, objective: int) -> int:
        """The total Control of a side's models at an objective (a Stunned unit's is 0)."""
        if side > len(self.sides):
            return 0
        return sum(u.left * u.control for u in self.sides[side - 1]
                   if u.alive and u.objective == objective and not u.stunned)

    def army_left(self, side: int) -> bool:
        return any(u.alive for u in self.sides[side - 1])


class ActionHammerPlay(Alternating[ActionHammerState]):
    system: RuleSystem[ActionHammerCatalog, Datasheet]
    rounds: ClassVar[int | None] = ROUNDS
    settings: ClassVar[tuple[Setting, ...]] = (
        Setting("objectives", "Objective markers", OBJECTIVES_MIN, OBJECTIVES_MAX,
                DEFAULT_OBJECTIVES, f"{OBJECTIVES_MIN} to {OBJECTIVES_MAX}, as the players "
                                    f"set them out (or roll D3+2); {DEFAULT_OBJECTIVES} if "
                                    f"left empty."),)
    kinds: ClassVar[Mapping[str, Kind]] = {
        "first-turn": Kind("Won the deployment roll-off: takes the first turn", unit=False),
        "morale": Kind("Morale test at the start of its activation", values={"passed": bool},
                        words={"passed": ("passed", "failed")},
                        checks=("_begun", "_tested_first", "_may_activate")),
        "activate": Kind("Activate", values={"stance": str, "objective": int, "move": str},
                         optional=("stance", "objective", "move"),
                         asks={"stance": "Stance",
                               "objective": "Ended at objective (0: none)",
                               "move": "Movement"},
                         words={"move": {REMAIN: "and Remain Stationary",
                                         NORMAL: "with a Normal Move",
                                         ADVANCE: "to Advance", CHARGE: "to Charge"}},
                         checks=("_begun", "_tested_first", "_may_activate")),
        # `by` and `attack` (both or neither): the enemy unit that dealt the wounds, by its
        # number in its own roster, and how; logs written before they were named leave both
        # out, and then no rule about the attacker is checked
        "wound": Kind("Wounds suffered", values={"wounds": int, "by": int, "attack": str},
                      optional=("by", "attack"),
                      asks={"wounds": "Wounds", "by": "Dealt by",
                            "attack": "Attack"},
                      words={"by": "by {}",
                             "attack": {SHOOTING: "from shooting", MELEE: "in melee"}},
                      checks=("_begun", "_tested_first", "_bodyguard_first", "_attacker")),
        "hazard": Kind("Wounds from dangerous terrain", values={"wounds": int},
                       asks={"wounds": "Wounds"}, handler="_wound",
                       checks=("_begun", "_tested_first", "_bodyguard_first")),
        "remove": Kind("Models removed (out of coherency)", values={"models": int},
                       asks={"models": "Models"}, checks=("_begun", "_tested_first",)),
        "end-turn": Kind("End the turn", unit=False, checks=("_begun", "_tested_first")),
        "concede": Kind("Concede the game", unit=False),
    }

    # -- the start ---------------------------------------------------------------------------
    def start(self, match: Match) -> ActionHammerState:
        objectives = _objectives(match)
        system = self.system
        sides = []
        for player, catalog in players_of(match, ActionHammerCatalog):
            units = [UnitState(name=e.unit, label=e.label or "", known=False)
                     for e in player.roster.entries]
            priced = system.priced(catalog, player.roster)
            for p in priced:
                fielded = system.fielded(catalog, p.unit, p.entry)
                sheet = fielded.unit if fielded is not None else p.unit
                models = fielded.models if fielded is not None else p.entry.count
                stances = tuple(name for name in CHOSEN if _open(catalog, name, sheet))
                units[p.index] = UnitState(
                    name=sheet.name, label=p.entry.label or "", size=models, left=models,
                    wounds=sheet.wounds, control=sheet.control, morale=sheet.morale,
                    fearless=FEARLESS in sheet.special_rules, flying=sheet.has_keyword(FLYING),
                    leader=sheet.is_leader, stances=stances,
                    stance=OPENING if OPENING in stances else OPENING_FALLBACK)
            units = _join(units, Placed.each(priced))
            sides.append(tuple(units))
        return ActionHammerState(names=tuple(p.name for p in match.players),
                                 sides=tuple(sides), control=(0,) * objectives,
                                 vp=(0,) * len(sides))

    # -- events ------------------------------------------------------------------------------
    def absent(self, state: ActionHammerState, side: int, unit: int) -> Refused | None:
        found = state.unit(side, unit)
        if not found.known:
            return not_in_catalog(found.name)
        return None if found.alive else gone(found.name, "destroyed")

    def _first_turn(self, state: ActionHammerState, ev: Event) -> ActionHammerState:
        # a whole turn each: the winner's comes first, units left to activate or not
        return replace(super()._first_turn(state, ev), turn=ev.side or 1)

    def _concede(self, state: ActionHammerState, ev: Event) -> ActionHammerState:
        """Any time, a tested unit's activation pending or not: the game is over."""
        return replace(state, conceded=ev.side or 1, turn=None, tested=None)

    def _begun(self, state: ActionHammerState, ev: Event) -> None:
        if state.turn is None:
            raise Refused("the battle has not begun: nobody has taken the first turn",
                          "Record first-turn for the side that won the deployment roll-off.")

    def _tested_first(self, state: ActionHammerState, ev: Event) -> None:
        """A unit that has taken its morale test activates next, before anything else."""
        if state.tested is not None and not (
                ev.kind == "activate" and ev.side == state.tested[0]
                and ev.unit in state.members(*state.tested)):
            side, number = state.tested
            raise Refused(f"{state.unit(side, number).name} has taken its morale test and "
                          "activates now", f"Record side {side}'s unit {number}'s activation.")

    def settle(self, state: ActionHammerState, ev: Event) -> ActionHammerState:
        return _settle(state)

    def _may_activate(self, state: ActionHammerState, ev: Event) -> None:
        side, _, unit = _at(state, ev)
        if state.turn != side:
            raise Refused(f"it is side {state.turn}'s turn",
                          f"A player activates units only in their own turn: side "
                          f"{state.turn}'s units now, side {side}'s once that turn ends.")
        if unit.activated:
            raise Refused(f"{unit.name} has already activated this turn",
                          "Activate another unit, or end the turn.")

    def _morale(self, state: ActionHammerState, ev: Event) -> ActionHammerState:
        side, number, unit = _at(state, ev)
        if not state.morale_due(side, number):
            why = ("it is Fearless" if any(state.unit(side, n).fearless
                                           for n in state.members(side, number))
                   else "it is above half its starting size (a single model: its Wounds)")
            raise Refused(f"{unit.name} takes no morale test: {why}",
                          "Record its activation.")
        passed = bool(ev.get("passed"))
        # the Stunned stance lasts until this activation begins; a failed test brings it back
        for n in state.members(side, number):
            u = state.unit(side, n)
            state = state.with_unit(side, n, replace(
                u, stunned=not passed, stance=u.stance if passed else STUNNED,
                tests=(*u.tests, "passed" if passed else "failed")))
        return replace(state, tested=(side, number))

    def _activate(self, state: ActionHammerState, ev: Event) -> ActionHammerState:
        side, number, unit = _at(state, ev)
        members = state.members(side, number)
        tested = state.tested is not None
        if not tested and state.morale_due(side, number):
            raise Refused(f"{unit.name} is at half strength or less: it takes a morale test "
                          "as its activation begins", f"Record a morale test for side "
                                                      f"{side}'s unit {number} first.")
        stunned = tested and unit.stunned  # failed the test it has just taken
        wanted = ev.get("stance")
        if stunned:
            if wanted is not None and str(wanted).casefold() != STUNNED.casefold():
                raise Refused(f"{unit.name} failed its morale test: it is Stunned and may "
                              "not pick a stance", "Leave the stance out.")
            stance = STUNNED
        else:
            open_to = tuple(s for s in CHOSEN
                            if all(s in state.unit(side, n).stances for n in members))
            if wanted is None:
                if unit.stance == STUNNED:
                    raise Refused(f"{unit.name} is no longer Stunned: its player picks its "
                                  "stance", f"Give a stance: {', '.join(open_to)}.")
                stance = unit.stance
            else:
                found = next((s for s in open_to if s.casefold() == str(wanted).casefold()),
                             None)
                if found is None:
                    raise Refused(f"{unit.name} cannot take the stance '{wanted}'",
                                  f"Take one of: {', '.join(open_to)}.")
                stance = found
        move = _movement(unit.name, ev.get("move"))
        where = ev.get("objective")
        if where is not None and not 0 <= where <= state.objectives:
            raise Refused(f"this game has objectives 1 to {state.objectives}, not {where}",
                          "Give the objective the unit ended its activation at, or 0 for "
                          "none.")
        for n in members:
            u = state.unit(side, n)
            state = state.with_unit(side, n, replace(
                u, stance=stance, stunned=stunned, activated=True, move=move,
                objective=u.objective if where is None else where))
        return replace(state, tested=None)

    def _bodyguard_first(self, state: ActionHammerState, ev: Event) -> None:
        side, number, unit = _at(state, ev)
        if unit.leader and len(state.members(side, number)) > 1:
            guard = unit.partner
            raise Refused(f"{unit.name}'s Bodyguard, {state.unit(side, guard).name}, takes "
                          "the hits first", f"Record the wounds on side {side}'s unit {guard} "
                                            "until it is destroyed.")

    def _attacker(self, state: ActionHammerState, ev: Event) -> None:
        """The seed's limits on the unit that dealt the wounds, when the event names it
        (docs/rules-notes.md, ActionHammer, "Who attacks"): an enemy unit on the table;
        in its own side's turn, one that has activated, that did not Advance if it shot
        (nor charged in a stance that may not shoot first), that charged if it fought in
        melee; in the other side's turn, only a strike back, at a unit that charged it, and
        at one charger a turn."""
        by, how = ev.get("by"), ev.get("attack")
        if by is None and how is None:
            return
        if len(state.sides) < 2:
            raise Refused("a solo game has no enemy roster, so no attacker can be named",
                          "Leave by and attack out.")
        if by is None or how is None:
            raise Refused("an attack names both the enemy unit that made it (by) and how "
                          "(attack: shooting or melee)",
                          "Give both, or neither for wounds nobody dealt.")
        side, number, target = _at(state, ev)
        foe = other(side)
        entries = len(state.sides[foe - 1])
        if not 1 <= by <= entries:
            raise Refused(f"side {foe} has units 1 to {entries}, not {by}",
                          "Give the attacker's number in its own roster.")
        attacker = state.unit(foe, by)
        if not attacker.known:
            raise not_in_catalog(attacker.name)
        if not attacker.alive:
            raise Refused(f"{attacker.name} is destroyed and makes no more attacks",
                          "Name the unit still on the table that dealt the wounds.")
        attack = _attack(ev)
        if attack is None:
            raise Refused(f"'{how}' is no way to attack", f"Say {SHOOTING} or {MELEE}.")
        name, move = attacker.name, attacker.move
        if state.turn == foe:
            if not attacker.activated:
                raise Refused(f"{name} has not activated this turn, and a unit attacks only "
                              "in its own activation", "Record its activation first.")
            if attack == SHOOTING and move == ADVANCE:
                raise Refused(f"{name} made an Advance move, and a unit that Advances may "
                              "not shoot in that activation",
                              "Record the wounds under the unit that shot, or undo the "
                              "activation and pick another movement.")
            if attack == SHOOTING and move == CHARGE \
                    and attacker.stance not in SHOOTS_BEFORE_CHARGING:
                raise Refused(f"{name} charged in the {attacker.stance} stance: only a unit "
                              f"in the {' or '.join(SHOOTS_BEFORE_CHARGING)} stance may "
                              "shoot the target of its charge", "Record it as melee.")
            if attack == MELEE and move not in ("", CHARGE):
                raise Refused(f"{name} did not charge ({move}), and a unit fights in melee "
                              "only after its charge", "Record it as shooting, or undo the "
                                                      "activation and make it a Charge.")
            return
        if attack == SHOOTING:
            raise Refused(f"it is side {state.turn}'s turn, and {name} shoots only in its "
                          "own activation", "Record the wounds under the unit that shot, or "
                                            "as melee if it struck back at a charge.")
        if target.move != CHARGE:
            raise Refused(f"{target.name} has not charged this turn, so {name} has no charge "
                          "to strike back at", "Record the wounds under the unit that "
                                               "struck them.")
        charger = state.head(side, number)
        if attacker.struck_back not in (0, charger):
            raise Refused(f"{name} has already struck back this turn, at "
                          f"{state.unit(side, attacker.struck_back).name}, and no unit "
                          "strikes back twice in a turn",
                          "Record the wounds under another unit, or end the turn first.")

    def _wound(self, state: ActionHammerState, ev: Event) -> ActionHammerState:
        side, number, unit = _at(state, ev)
        wounds = int(ev.get("wounds"))
        if not 1 <= wounds <= unit.wounds_left:
            rest = (f"; record the rest on its Leader, unit {unit.partner}"
                    if unit.partner and not unit.leader and unit.partner in
                    state.members(side, number) else "")
            raise Refused(f"{unit.name} has {unit.wounds_left} wounds left, so it takes 1 to "
                          f"{unit.wounds_left}, not {wounds}",
                          f"Write the wounds this unit suffered{rest}.")
        # wounds go to the damaged model first: each model lost takes its Wounds
        total = unit.hurt + wounds
        lost, hurt = divmod(total, unit.wounds)
        after = state.with_unit(side, number, replace(
            unit, left=unit.left - lost, hurt=hurt, taken=unit.taken + wounds))
        by = ev.get("by")
        if by is None or _attack(ev) != MELEE or state.turn == other(side):
            return after
        # a strike back: the striker strikes back at no other charger this turn
        charger = state.head(side, number)
        for n in state.members(other(side), by):
            after = after.with_unit(other(side), n, replace(after.unit(other(side), n),
                                                            struck_back=charger))
        return after

    def _remove(self, state: ActionHammerState, ev: Event) -> ActionHammerState:
        side, number, unit = _at(state, ev)
        models = int(ev.get("models"))
        if not 1 <= models <= unit.left:
            raise Refused(f"{unit.name} has {unit.left} models left, so 1 to {unit.left} can "
                          f"be removed, not {models}", "Write how many models were removed.")
        # an unhurt model goes first; the damaged one only with the last
        left = unit.left - models
        return state.with_unit(side, number, replace(unit, left=left,
                                                     hurt=unit.hurt if left else 0))

    def _end_turn(self, state: ActionHammerState, ev: Event) -> ActionHammerState:
        side = ev.side or 1
        if state.turn != side:
            raise Refused(f"it is side {state.turn}'s turn, not side {side}'s",
                          f"End side {state.turn}'s turn.")
        waiting = [n for n in state.table_units(side) if not state.unit(side, n).activated]
        if waiting:
            raise Refused(f"{len(waiting)} unit(s) of side {side} have not activated this "
                          f"turn, such as {state.unit(side, waiting[0]).name}",
                          "Activate every unit in the turn (Remain Stationary, if nothing "
                          "else).")
        # a new turn: every unit may activate, move, charge and strike back again
        sides = tuple(tuple(replace(u, activated=u.activated and s != side, move="",
                                    struck_back=0) for u in units)
                      for s, units in enumerate(state.sides, 1))
        state = replace(state, sides=sides)
        if state.round >= SCORING_FROM_ROUND:
            gained = min(VP_PER_TURN_MAX, VP_PER_OBJECTIVE * state.held(side))
            vp = list(state.vp)
            vp[side - 1] += gained
            state = replace(state, vp=tuple(vp),
                            scored=(*state.scored, (state.round, side, gained)))
        played = state.played + 1
        if played < len(state.sides):  # the opponent's turn of this round
            return replace(state, played=played, turn=other(side))
        if state.round >= ROUNDS:
            return replace(state, played=played, turn=None, over=True)
        return replace(state, round=state.round + 1, played=0, turn=state.first)

    # -- what may come next ------------------------------------------------------------------
    def offers(self, state: ActionHammerState) -> list[Event]:
        """Every event the rules allow now: the deployment roll-off; after a morale test,
        the tested unit's activation; else, in a side's turn, each unit not yet activated
        (by either entry of a Leader and its Bodyguard): its morale test when due, or its
        activation in each stance open to it, at objective 0 (none) to the last; the turn's
        end once all have; wounds (1 to all left) on every unit alive that takes them (a
        Leader's only once its Bodyguard is gone) and models removed (1 to all left) from
        every unit of two models or more; and each side's concession, at any time until the
        game is over."""
        if state.ended:
            return []
        if state.first is None:
            return [event("first-turn", s) for s in range(1, len(state.sides) + 1)
                    ] + concessions(len(state.sides), state.ended)
        if state.tested is not None:
            side, number = state.tested
            return [ev for n in state.members(side, number)
                    for ev in self._every_activation(state, side, n)
                    ] + concessions(len(state.sides), state.ended)
        assert state.turn is not None
        side = state.turn
        out: list[Event] = []
        waiting = [n for n in state.table_units(side) if not state.unit(side, n).activated]
        for head in waiting:
            for n in state.members(side, head):
                if state.morale_due(side, n):
                    out += [event("morale", side, n, passed=p) for p in (True, False)]
                else:
                    out += self._every_activation(state, side, n)
        if not waiting:
            out.append(event("end-turn", side))
        for s in range(1, len(state.sides) + 1):
            for n, u in enumerate(state.sides[s - 1], 1):
                if not u.alive:
                    continue
                if not (u.leader and len(state.members(s, n)) > 1):
                    dealt = sorted({1, u.wounds_left})
                    if len(state.sides) < 2:  # a solo game: no enemy roster to name
                        out += [event("wound", s, n, wounds=w) for w in dealt]
                    for by, attack in self._attackers(state, s, n):
                        out += [event("wound", s, n, wounds=w, by=by, attack=attack)
                                for w in dealt]
                    if s == side:
                        out += [event("hazard", s, n, wounds=w) for w in dealt]
                if u.left >= MULTI_MODEL:
                    out += [event("remove", s, n, models=m) for m in (1, u.left)]
        return out + concessions(len(state.sides), state.ended)

    def _attackers(self, state: ActionHammerState, side: int,
                   number: int) -> list[tuple[int, str]]:
        """Each enemy roster entry that may have dealt wounds to the unit now, and
        how (`_attacker`): in its own turn each that has activated, shooting unless it
        Advanced, in melee if it charged; in the other's turn, a strike back at a unit that
        charged, by any unit that has struck back at no other charger."""
        if len(state.sides) < 2:
            return []
        foe = other(side)
        out: list[tuple[int, str]] = []
        charger = state.head(side, number)
        # each entry of a Leader and its Bodyguard: whose weapons struck is the odds' business
        for n in (n for head in state.table_units(foe) for n in state.members(foe, head)):
            u = state.unit(foe, n)
            if state.turn == foe:
                if not u.activated:
                    continue
                if u.move != ADVANCE and (u.move != CHARGE
                                          or u.stance in SHOOTS_BEFORE_CHARGING):
                    out.append((n, SHOOTING))
                if u.move in ("", CHARGE):
                    out.append((n, MELEE))
            elif state.unit(side, number).move == CHARGE and u.struck_back in (0, charger):
                out.append((n, MELEE))
        return out

    def _every_activation(self, state: ActionHammerState, side: int,
                          number: int) -> list[Event]:
        """Each stance the unit may take (none to pick when Stunned by its test), at no
        objective or at the last (any between). What the unit has now comes first, so that
        the tracker's button shows it before the player changes it: an activation that keeps
        its stance and its objective, as a player who says neither means, is one tap."""
        unit = state.unit(side, number)
        places = tuple(dict.fromkeys((unit.objective, 0, state.objectives)))
        if state.tested is not None and unit.stunned:
            return [event("activate", side, number, objective=o, move=m)
                    for o in places for m in MOVES]
        members = state.members(side, number)
        stances = [s for s in CHOSEN if all(s in state.unit(side, n).stances for n in members)]
        stances.sort(key=lambda s: s != unit.stance)
        if not stances:  # none open to both of a joined pair: it keeps the one it has
            return [event("activate", side, number, objective=o, move=m)
                    for o in places for m in MOVES]
        return [event("activate", side, number, stance=s, objective=o, move=m)
                for s in stances for o in places for m in MOVES]

    # -- the result --------------------------------------------------------------------------
    def outcome(self, state: ActionHammerState) -> Outcome:
        sides = range(1, len(state.sides) + 1)
        scores = ((VP, tuple(state.vp)), (HELD, tuple(state.held(s) for s in sides)))
        if state.conceded is not None:
            name = state.names[state.conceded - 1]
            if len(state.sides) < 2:
                return Outcome(True, None, f"{name} conceded: a solo game has no winner",
                               scores)
            return Outcome(True, other(state.conceded), f"{name} conceded", scores)
        if state.destroyed is not None:
            lost = state.destroyed
            if len(state.sides) < 2:
                return Outcome(True, None, f"{state.names[0]}'s army was destroyed", scores)
            return Outcome(True, other(lost),
                           f"{state.names[lost - 1]}'s army was destroyed", scores)
        if not state.over:
            return Outcome(False, reason=f"round {state.round} of {ROUNDS}", scores=scores)
        if len(state.sides) < 2:
            return Outcome(True, None, f"after round {ROUNDS}: {state.vp[0]} VP, a solo game "
                                       "has no winner", scores)
        one, two = state.vp
        winner = 1 if one > two else 2 if two > one else None
        reason = (f"after round {ROUNDS}: {max(one, two)} VP to {min(one, two)}" if winner
                  else f"after round {ROUNDS}: a draw at {one} VP each")
        return Outcome(True, winner, reason, scores)

    def situation(self, state: ActionHammerState, attacker: tuple[int, int],
                  defender: tuple[int, int]) -> Mapping[str, Value]:
        """What the log sets of quick-resolve (docs/rules-notes.md, "At the table: odds for
        ActionHammer"), from each roster entry's own state (a Bodyguard's entry fields its
        Leader too, as the roster joins them; only the Bodyguard's models are set):

        - `attacker_stance`, `defender_stance`: each unit's `stance`, `STUNNED` while a failed
          morale test holds it (`stunned`); before its first activation, the opening stance.
          The play state spells stances as the catalog does (Regular, Attacking, Defensive,
          Stunned), which is how the resolver offers them.
        - `attacker_models`, `defender_models`: each entry's `left`, the models its wounds
          and removals have left it (none left: destroyed, no odds).
        - `defender_start`: the target's `size`, its models at the start, for its morale test.
        - `wounds_lost`: the target's `hurt`, the wounds on its damaged model (always fewer
          than a model's Wounds).
        """
        out: dict[str, Value] = {}
        for key, at in (("attacker", attacker), ("defender", defender)):
            side, number = at
            if not (side <= len(state.sides) and 1 <= number <= len(state.sides[side - 1])):
                continue
            unit = state.unit(side, number)
            if not unit.alive:
                continue
            out[f"{key}_stance"] = STUNNED if unit.stunned else unit.stance
            out[f"{key}_models"] = unit.left
            if key == "defender":
                out["defender_start"] = unit.size
                out["wounds_lost"] = unit.hurt
        return out

    def to_data(self, state: ActionHammerState) -> dict[str, Any]:
        return {"round": state.round, "rounds": ROUNDS, "first": state.first,
                "turn": state.turn, "over": state.ended, "conceded": state.conceded,
                "tested": list(state.tested) if state.tested else None,
                "objectives": [{"objective": k, "held_by": holder or None,
                                "control": [state.control_at(s, k)
                                            for s in range(1, len(state.sides) + 1)]}
                               for k, holder in enumerate(state.control, 1)],
                "scored": [{"round": r, "side": s, "vp": v} for r, s, v in state.scored],
                "sides": [{"name": name, "vp": state.vp[s - 1],
                           "units": list(self.units(state, s))}
                          for s, name in enumerate(state.names, 1)]}

    def units(self, state: ActionHammerState, side: int) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for n, u in enumerate(state.sides[side - 1], 1):
            if not u.known:
                out.append({"unit": n, "name": u.name, "alive": False,
                            "status": "not in the catalog"})
                continue
            members = state.members(side, n)
            joined = next((m for m in members if m != n), None)
            out.append({
                "unit": n, "name": u.name, "alive": u.alive, "label": u.label,
                "models": u.left, "size": u.size, "wounds_each": u.wounds,
                "wounds_taken": u.taken, "hurt": u.hurt, "stance": u.stance if u.alive else "",
                "stunned": u.stunned and u.alive,
                "grounded": u.flying and u.alive and u.stance in GROUNDED_IN,
                "joined_to": joined or 0, "activated": u.activated,
                "objective": u.objective if u.alive else 0,
                "morale": f"{u.morale}+", "morale_due": u.alive and state.morale_due(side, n),
                "tests": list(u.tests), "move": u.move if u.alive else "",
                "struck_back": u.struck_back if u.alive else 0})
        return out

    def current(self, state: ActionHammerState) -> tuple[int, int] | None:
        return state.tested

    def acting(self, state: ActionHammerState) -> tuple[int | None, str]:
        if state.ended:
            return None, ""
        if state.first is None:
            return None, "roll off: the winner takes the first turn"
        if state.tested is not None:
            side, number = state.tested
            return side, f"activate {state.unit(side, number).name}, its morale test taken"
        turn = state.turn
        if turn is None:
            return None, ""
        waiting = [n for n in state.table_units(turn) if not state.unit(turn, n).activated]
        if not waiting:
            return turn, "every unit has activated: end the turn"
        return turn, "activate a unit, each in turn"

    def standing(self, unit: Mapping[str, Any]) -> Standing:
        if "models" not in unit:  # an entry naming no known unit
            return Standing(chips=(str(unit.get("status", "")),))
        tracks = [Track("models", int(unit["models"]), int(unit["size"]))]
        if int(unit["wounds_each"]) > 1 and unit.get("alive"):
            tracks.append(Track("wounds on the hurt model", int(unit["hurt"]),
                                int(unit["wounds_each"]), boxes=True))
        chips = [str(unit["stance"])] if unit.get("stance") else []
        chips += [label for key, label in (("stunned", "stunned"), ("grounded", "grounded"),
                                           ("activated", "activated"),
                                           ("morale_due", "morale test due"))
                  if unit.get(key)]
        if unit.get("move"):
            chips.append(MOVE_CHIPS.get(str(unit["move"]), str(unit["move"])))
        if unit.get("struck_back"):
            chips.append("struck back")
        if unit.get("objective"):
            chips.append(f"at objective {unit['objective']}")
        if unit.get("joined_to"):
            chips.append(f"joined to unit {unit['joined_to']}")
        details = " · ".join(p for p in (f"morale {unit.get('morale', '')}",
                                         f"{unit.get('wounds_taken', 0)} wounds taken in all")
                             if p)
        return Standing(tuple(tracks), tuple(chips), details)


def _at(state: ActionHammerState, ev: Event) -> tuple[int, int, UnitState]:
    """The side, number and state of the unit an event names."""
    side, number = ev.side or 1, ev.unit or 1
    return side, number, state.unit(side, number)


def _movement(name: str, wanted: Value | None) -> str:
    """The movement an activation names, spelled as the seed does; "" when it names none."""
    if wanted is None:
        return ""
    found = next((m for m in MOVES if m.casefold() == str(wanted).casefold()), None)
    if found is None:
        raise Refused(f"{name} cannot make the movement '{wanted}'",
                      f"Pick one of: {', '.join(MOVES)}.")
    return found


def _attack(ev: Event) -> str | None:
    """How an attack was made, as `ATTACKS` spells it; None when the event says nothing we
    know."""
    how = ev.get("attack")
    return next((a for a in ATTACKS if how is not None and a == str(how).casefold()), None)


def _settle(state: ActionHammerState) -> ActionHammerState:
    """After every event: who holds each objective, and whether an army is gone."""
    control = list(state.control)
    for k in range(1, state.objectives + 1):
        totals = [state.control_at(s, k) for s in range(1, len(state.sides) + 1)]
        best = max(totals, default=0)
        if best == 0:
            continue  # nobody's Control there: the last holder keeps it
        leaders = [s for s, t in enumerate(totals, 1) if t == best]
        control[k - 1] = leaders[0] if len(leaders) == 1 else 0
    state = replace(state, control=tuple(control))
    for s in range(1, len(state.sides) + 1):
        had = any(u.known and u.size for u in state.sides[s - 1])
        if had and not state.army_left(s) and state.destroyed is None:
            state = replace(state, destroyed=s, turn=None, tested=None)
    return state


def _join(units: list[UnitState], placed: Sequence[Placed]) -> list[UnitState]:
    """Each Leader that joins a Bodyguard by the roster's `joins`, when the join keeps the
    rules (one Leader to a Bodyguard): the two share a stance, the one both may take."""
    taken: set[int] = set()
    for index, guard in sorted(joined_to(placed).items()):
        leader = next(p for p in placed if p.index == index)
        if join_reasons(leader.sheet, guard.sheet, guard.entry.count) or guard.index in taken:
            continue
        taken.add(guard.index)
        a, b = units[index], units[guard.index]
        stances = tuple(s for s in a.stances if s in b.stances)
        stance = OPENING if OPENING in stances else OPENING_FALLBACK
        units[index] = replace(a, partner=guard.index + 1, stances=stances, stance=stance)
        units[guard.index] = replace(b, partner=index + 1, stances=stances, stance=stance)
    return units


def _open(catalog: ActionHammerCatalog, name: str, sheet: Datasheet) -> bool:
    """May a player put the unit in this stance (Mounted units may not defend)?"""
    stance = catalog.stance(name)
    return stance is None or stance.open_to(sheet)


def _objectives(match: Match) -> int:
    """How many objective markers the game has (option `objectives`, 3 to 5)."""
    unknown = sorted(set(dict(match.options)) - set(OPTIONS))
    if unknown:
        raise MatchError(0, None, f"ActionHammer has no option '{unknown[0]}'",
                         f"Its options are: {', '.join(OPTIONS)}.")
    wanted = match.option("objectives", DEFAULT_OBJECTIVES)
    if isinstance(wanted, bool) or not isinstance(wanted, int) \
            or not OBJECTIVES_MIN <= wanted <= OBJECTIVES_MAX:
        raise MatchError(0, None, f"a game has {OBJECTIVES_MIN} to {OBJECTIVES_MAX} objective "
                                  f"markers, not {wanted!r}",
                         f"Set objectives to a number from {OBJECTIVES_MIN} to "
                         f"{OBJECTIVES_MAX} (or roll D3+2).")
    return wanted
