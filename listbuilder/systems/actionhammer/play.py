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

from collections.abc import Iterator, Mapping, Sequence
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
from listbuilder.engine.play_parts import at, conceded, on_points, passing, refuse, unit_or_none
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

# a unit's row: its chips, each (value, words) while the value is set, in order; the
# movement of its activation this turn reads as `MOVE_CHIPS` says it
CHIPS = (("stance", "{}"), ("stunned", "stunned"), ("grounded", "grounded"),
         ("activated", "activated"), ("morale_due", "morale test due"), ("move", "{}"),
         ("struck_back", "struck back"), ("objective", "at objective {}"),
         ("joined_to", "joined to unit {}"))
MOVE_CHIPS = {REMAIN: "stayed put", NORMAL: "moved", ADVANCE: "advanced", CHARGE: "charged"}

VP = "VP"


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
        return [n for n, u in enumerate(self.sides[side - 1], 1)
                if u.alive and self.head(side, n) == n]

    def stances(self, side: int, number: int) -> tuple[str, ...]:
        """The stances its player may pick for the unit: those open to each of its entries."""
        return tuple(s for s in CHOSEN
                     if all(s in self.unit(side, n).stances for n in self.members(side, number)))

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


class ActionHammerPlay(Alternating[ActionHammerState]):
    """Every refusal is a check of its kind's (`Kind.checks`), so that the offers are the
    events the checks allow (`offers`); the handlers only apply what the checks let through."""

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
                        checks=("_ready", "_may_activate", "_test_due")),
        "activate": Kind("Activate", values={"stance": str, "objective": int, "move": str},
                         optional=("stance", "objective", "move"),
                         asks={"stance": "Stance", "objective": "Ended at objective (0: none)",
                               "move": "Movement"},
                         words={"move": {REMAIN: "and Remain Stationary",
                                         NORMAL: "with a Normal Move",
                                         ADVANCE: "to Advance", CHARGE: "to Charge"}},
                         checks=("_ready", "_may_activate", "_activation")),
        # `by` and `attack` (both or neither): the enemy unit that dealt the wounds, by its
        # number in its own roster, and how; logs written before they were named leave both
        # out, and then no rule about the attacker is checked
        "wound": Kind("Wounds suffered", values={"wounds": int, "by": int, "attack": str},
                      optional=("by", "attack"),
                      asks={"wounds": "Wounds", "by": "Dealt by", "attack": "Attack"},
                      words={"by": "by {}",
                             "attack": {SHOOTING: "from shooting", MELEE: "in melee"}},
                      checks=("_ready", "_bodyguard_first", "_attacker", "_wounds_left")),
        "hazard": Kind("Wounds from dangerous terrain", values={"wounds": int},
                       asks={"wounds": "Wounds"}, handler="_wound",
                       checks=("_ready", "_bodyguard_first", "_wounds_left")),
        "remove": Kind("Models removed (out of coherency)", values={"models": int},
                       asks={"models": "Models"}, checks=("_ready", "_models_left")),
        "end-turn": Kind("End the turn", unit=False, checks=("_ready", "_all_activated")),
        "concede": Kind("Concede the game", unit=False),
    }

    # -- the start ---------------------------------------------------------------------------
    def start(self, match: Match) -> ActionHammerState:
        unknown = sorted(set(dict(match.options)) - {s.name for s in self.settings})
        if unknown:
            raise MatchError(0, None, f"ActionHammer has no option '{unknown[0]}'",
                             f"Its options are: {', '.join(s.name for s in self.settings)}.")
        objectives = match.option("objectives", DEFAULT_OBJECTIVES)
        if isinstance(objectives, bool) or not isinstance(objectives, int) \
                or not OBJECTIVES_MIN <= objectives <= OBJECTIVES_MAX:
            raise MatchError(0, None, f"a game has {OBJECTIVES_MIN} to {OBJECTIVES_MAX} "
                                      f"objective markers, not {objectives!r}",
                             f"Set objectives to a number from {OBJECTIVES_MIN} to "
                             f"{OBJECTIVES_MAX} (or roll D3+2).")
        sides = []
        for player, catalog in players_of(match, ActionHammerCatalog):
            units = [UnitState(name=e.unit, label=e.label or "", known=False)
                     for e in player.roster.entries]
            priced = self.system.priced(catalog, player.roster)
            for p in priced:
                fielded = self.system.fielded(catalog, p.unit, p.entry)
                sheet = fielded.unit if fielded is not None else p.unit
                models = fielded.models if fielded is not None else p.entry.count
                # may a player put the unit in this stance (Mounted units may not defend)?
                stances = tuple(s for s in CHOSEN
                                if (rule := catalog.stance(s)) is None or rule.open_to(sheet))
                units[p.index] = UnitState(
                    name=sheet.name, label=p.entry.label or "", size=models, left=models,
                    wounds=sheet.wounds, control=sheet.control, morale=sheet.morale,
                    fearless=FEARLESS in sheet.special_rules, flying=sheet.has_keyword(FLYING),
                    leader=sheet.is_leader, stances=stances,
                    stance=OPENING if OPENING in stances else OPENING_FALLBACK)
            _join(units, Placed.each(priced))
            sides.append(tuple(units))
        return ActionHammerState(names=tuple(p.name for p in match.players),
                                 sides=tuple(sides), control=(0,) * objectives,
                                 vp=(0,) * len(sides))

    # -- the checks --------------------------------------------------------------------------
    def absent(self, state: ActionHammerState, side: int, unit: int) -> Refused | None:
        found = state.unit(side, unit)
        if not found.known:
            return not_in_catalog(found.name)
        return None if found.alive else gone(found.name, "destroyed")

    def _ready(self, state: ActionHammerState, ev: Event) -> None:
        """The battle has begun, and a unit that has taken its morale test activates next,
        before anything else."""
        refuse((state.turn is None, "the battle has not begun: nobody has taken the first "
                                     "turn",
                 "Record first-turn for the side that won the deployment roll-off."))
        if state.tested is not None:
            side, number = state.tested
            refuse((not (ev.kind == "activate" and ev.side == side
                          and ev.unit in state.members(side, number)),
                     f"{state.unit(side, number).name} has taken its morale test and "
                     "activates now", f"Record side {side}'s unit {number}'s activation."))

    def _may_activate(self, state: ActionHammerState, ev: Event) -> None:
        side, _, unit = at(state, ev)
        refuse((state.turn != side, f"it is side {state.turn}'s turn",
                 f"A player activates units only in their own turn: side {state.turn}'s "
                 f"units now, side {side}'s once that turn ends."),
                (unit.activated, f"{unit.name} has already activated this turn",
                 "Activate another unit, or end the turn."))

    def _test_due(self, state: ActionHammerState, ev: Event) -> None:
        side, number, unit = at(state, ev)
        fearless = any(state.unit(side, n).fearless for n in state.members(side, number))
        why = "it is Fearless" if fearless else ("it is above half its starting size (a "
                                                 "single model: its Wounds)")
        refuse((not state.morale_due(side, number),
                 f"{unit.name} takes no morale test: {why}", "Record its activation."))

    def _activation(self, state: ActionHammerState, ev: Event) -> None:
        """A unit at half strength tests first; one Stunned by the test it has just taken
        picks no stance, and one no longer Stunned must pick one."""
        side, number, unit = at(state, ev)
        stunned = state.tested is not None and unit.stunned
        stance, move, where = ev.get("stance"), ev.get("move"), ev.get("objective")
        open_to = ", ".join(state.stances(side, number))
        refuse((state.tested is None and state.morale_due(side, number),
                 f"{unit.name} is at half strength or less: it takes a morale test as its "
                 "activation begins", f"Record a morale test for side {side}'s unit "
                                      f"{number} first."),
                (stunned and stance is not None and _named(stance, (STUNNED,)) is None,
                 f"{unit.name} failed its morale test: it is Stunned and may not pick a "
                 "stance", "Leave the stance out."),
                (not stunned and stance is None and unit.stance == STUNNED,
                 f"{unit.name} is no longer Stunned: its player picks its stance",
                 f"Give a stance: {open_to}."),
                (not stunned and stance is not None
                 and _named(stance, state.stances(side, number)) is None,
                 f"{unit.name} cannot take the stance '{stance}'", f"Take one of: {open_to}."),
                (move is not None and _named(move, MOVES) is None,
                 f"{unit.name} cannot make the movement '{move}'",
                 f"Pick one of: {', '.join(MOVES)}."),
                (where is not None and not 0 <= where <= state.objectives,
                 f"this game has objectives 1 to {state.objectives}, not {where}",
                 "Give the objective the unit ended its activation at, or 0 for none."))

    def _bodyguard_first(self, state: ActionHammerState, ev: Event) -> None:
        side, number, unit = at(state, ev)
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
        refuse((len(state.sides) < 2, "a solo game has no enemy roster, so no attacker can "
                                       "be named", "Leave by and attack out."),
                (by is None or how is None, "an attack names both the enemy unit that made it "
                                            "(by) and how (attack: shooting or melee)",
                 "Give both, or neither for wounds nobody dealt."))
        side, number, target = at(state, ev)
        foe = other(side)
        entries = len(state.sides[foe - 1])
        refuse((not 1 <= by <= entries, f"side {foe} has units 1 to {entries}, not {by}",
                 "Give the attacker's number in its own roster."))
        attacker, attack = state.unit(foe, by), _named(how, ATTACKS)
        if not attacker.known:
            raise not_in_catalog(attacker.name)
        name, move = attacker.name, attacker.move
        refuse((not attacker.alive, f"{name} is destroyed and makes no more attacks",
                 "Name the unit still on the table that dealt the wounds."),
                (attack is None, f"'{how}' is no way to attack", f"Say {SHOOTING} or {MELEE}."))
        if state.turn == foe:
            refuse((not attacker.activated, f"{name} has not activated this turn, and a unit "
                                             "attacks only in its own activation",
                     "Record its activation first."),
                    (attack == SHOOTING and move == ADVANCE,
                     f"{name} made an Advance move, and a unit that Advances may not shoot in "
                     "that activation", "Record the wounds under the unit that shot, or undo "
                                        "the activation and pick another movement."),
                    (attack == SHOOTING and move == CHARGE
                     and attacker.stance not in SHOOTS_BEFORE_CHARGING,
                     f"{name} charged in the {attacker.stance} stance: only a unit in the "
                     f"{' or '.join(SHOOTS_BEFORE_CHARGING)} stance may shoot the target of "
                     "its charge", "Record it as melee."),
                    (attack == MELEE and move not in ("", CHARGE),
                     f"{name} did not charge ({move}), and a unit fights in melee only after "
                     "its charge", "Record it as shooting, or undo the activation and make "
                                   "it a Charge."))
            return
        refuse((attack == SHOOTING, f"it is side {state.turn}'s turn, and {name} shoots only "
                                     "in its own activation",
                 "Record the wounds under the unit that shot, or as melee if it struck back "
                 "at a charge."),
                (target.move != CHARGE, f"{target.name} has not charged this turn, so {name} "
                                        "has no charge to strike back at",
                 "Record the wounds under the unit that struck them."))
        if attacker.struck_back not in (0, state.head(side, number)):
            raise Refused(f"{name} has already struck back this turn, at "
                          f"{state.unit(side, attacker.struck_back).name}, and no unit "
                          "strikes back twice in a turn",
                          "Record the wounds under another unit, or end the turn first.")

    def _wounds_left(self, state: ActionHammerState, ev: Event) -> None:
        side, number, unit = at(state, ev)
        wounds = int(ev.get("wounds"))
        rest = (f"; record the rest on its Leader, unit {unit.partner}"
                if unit.partner and not unit.leader
                and unit.partner in state.members(side, number) else "")
        refuse((not 1 <= wounds <= unit.wounds_left,
                 f"{unit.name} has {unit.wounds_left} wounds left, so it takes 1 to "
                 f"{unit.wounds_left}, not {wounds}",
                 f"Write the wounds this unit suffered{rest}."))

    def _models_left(self, state: ActionHammerState, ev: Event) -> None:
        unit, models = at(state, ev)[2], int(ev.get("models"))
        refuse((not 1 <= models <= unit.left,
                 f"{unit.name} has {unit.left} models left, so 1 to {unit.left} can be "
                 f"removed, not {models}", "Write how many models were removed."))

    def _all_activated(self, state: ActionHammerState, ev: Event) -> None:
        side = ev.side or 1
        refuse((state.turn != side, f"it is side {state.turn}'s turn, not side {side}'s",
                 f"End side {state.turn}'s turn."))
        waiting = state.waiting(side)
        if waiting:
            raise Refused(f"{len(waiting)} unit(s) of side {side} have not activated this "
                          f"turn, such as {waiting[0][1]}",
                          "Activate every unit in the turn (Remain Stationary, if nothing "
                          "else).")

    # -- the events --------------------------------------------------------------------------
    def _first_turn(self, state: ActionHammerState, ev: Event) -> ActionHammerState:
        # a whole turn each: the winner's comes first, units left to activate or not
        return replace(super()._first_turn(state, ev), turn=ev.side or 1)

    def _concede(self, state: ActionHammerState, ev: Event) -> ActionHammerState:
        """Any time, a tested unit's activation pending or not: the game is over."""
        return replace(state, conceded=ev.side or 1, turn=None, tested=None)

    def _morale(self, state: ActionHammerState, ev: Event) -> ActionHammerState:
        side, number, _ = at(state, ev)
        passed = bool(ev.get("passed"))
        # the Stunned stance lasts until this activation begins; a failed test brings it back
        for n in state.members(side, number):
            u = state.unit(side, n)
            state = state.with_unit(side, n, replace(
                u, stunned=not passed, stance=u.stance if passed else STUNNED,
                tests=(*u.tests, "passed" if passed else "failed")))
        return replace(state, tested=(side, number))

    def _activate(self, state: ActionHammerState, ev: Event) -> ActionHammerState:
        side, number, unit = at(state, ev)
        stunned = state.tested is not None and unit.stunned  # failed the test just taken
        stance = STUNNED if stunned else _named(ev.get("stance"), CHOSEN) or unit.stance
        move, where = _named(ev.get("move"), MOVES) or "", ev.get("objective")
        for n in state.members(side, number):
            u = state.unit(side, n)
            state = state.with_unit(side, n, replace(
                u, stance=stance, stunned=stunned, activated=True, move=move,
                objective=u.objective if where is None else where))
        return replace(state, tested=None)

    def _wound(self, state: ActionHammerState, ev: Event) -> ActionHammerState:
        side, number, unit = at(state, ev)
        wounds = int(ev.get("wounds"))
        # wounds go to the damaged model first: each model lost takes its Wounds
        lost, hurt = divmod(unit.hurt + wounds, unit.wounds)
        after = state.with_unit(side, number, replace(
            unit, left=unit.left - lost, hurt=hurt, taken=unit.taken + wounds))
        by, foe = ev.get("by"), other(side)
        if by is None or _named(ev.get("attack"), ATTACKS) != MELEE or state.turn == foe:
            return after
        # a strike back: the striker strikes back at no other charger this turn
        for n in state.members(foe, by):
            after = after.with_unit(foe, n, replace(after.unit(foe, n),
                                                    struck_back=state.head(side, number)))
        return after

    def _remove(self, state: ActionHammerState, ev: Event) -> ActionHammerState:
        side, number, unit = at(state, ev)
        # an unhurt model goes first; the damaged one only with the last
        left = unit.left - int(ev.get("models"))
        return state.with_unit(side, number, replace(unit, left=left,
                                                     hurt=unit.hurt if left else 0))

    def _end_turn(self, state: ActionHammerState, ev: Event) -> ActionHammerState:
        side = ev.side or 1
        # a new turn: every unit may activate, move, charge and strike back again
        sides = tuple(tuple(replace(u, activated=u.activated and s != side, move="",
                                    struck_back=0) for u in units)
                      for s, units in enumerate(state.sides, 1))
        state = replace(state, sides=sides)
        if state.round >= SCORING_FROM_ROUND:
            gained = min(VP_PER_TURN_MAX, VP_PER_OBJECTIVE * state.held(side))
            state = replace(state, vp=with_side(state.vp, side, state.vp[side - 1] + gained),
                            scored=(*state.scored, (state.round, side, gained)))
        played = state.played + 1
        if played < len(state.sides):  # the opponent's turn of this round
            return replace(state, played=played, turn=other(side))
        if state.round >= ROUNDS:
            return replace(state, played=played, turn=None, over=True)
        return replace(state, round=state.round + 1, played=0, turn=state.first)

    def settle(self, state: ActionHammerState, ev: Event) -> ActionHammerState:
        """After every event: who holds each objective, and whether an army is gone."""
        sides = range(1, len(state.sides) + 1)
        control = list(state.control)
        for k in range(1, state.objectives + 1):
            totals = [state.control_at(s, k) for s in sides]
            best = max(totals, default=0)
            if best:  # else nobody's Control there: the last holder keeps it
                control[k - 1] = totals.index(best) + 1 if totals.count(best) == 1 else 0
        state = replace(state, control=tuple(control))
        for s in sides:
            units = state.sides[s - 1]
            if any(u.known and u.size for u in units) and not any(u.alive for u in units) \
                    and state.destroyed is None:
                state = replace(state, destroyed=s, turn=None, tested=None)
        return state

    # -- what may come next ------------------------------------------------------------------
    def offers(self, state: ActionHammerState) -> list[Event]:
        """Every event the rules allow now: the deployment roll-off; then, of the events
        that might come next (`_candidates`), each the checks allow; and each side's
        concession, at any time until the game is over."""
        if state.ended:
            return []
        sides = len(state.sides)
        if state.first is None:
            return [event("first-turn", s) for s in range(1, sides + 1)] + concessions(sides)
        return passing(self.apply, state, self._candidates(state)) + concessions(sides)

    def _candidates(self, state: ActionHammerState) -> Iterator[Event]:
        """In a side's turn, each unit on the table (by either entry of a Leader and its
        Bodyguard): its morale test and its activations; the turn's end; wounds (1 to all
        left) on every unit, from each enemy entry that may have dealt them and how (none
        named in a solo game), and from dangerous terrain in its own turn; and models
        removed (1 to all left) from every unit of two models or more."""
        turn = state.turn or 1
        for head, _ in state.waiting(turn):
            for n in state.members(turn, head):
                yield from (event("morale", turn, n, passed=p) for p in (True, False))
                yield from self._activations(state, turn, n)
        yield event("end-turn", turn)
        for s, units in enumerate(state.sides, 1):
            foe, solo = other(s), len(state.sides) < 2
            ways = [(by, a) for head in state.table_units(foe) for by in state.members(foe, head)
                    for a in ATTACKS]
            for n, u in enumerate(units, 1):
                dealt = sorted({1, u.wounds_left})
                yield from (event("wound", s, n, wounds=w) for w in dealt if solo)
                yield from (event("wound", s, n, wounds=w, by=by, attack=a) for by, a in ways
                            for w in dealt)
                if s == turn:
                    yield from (event("hazard", s, n, wounds=w) for w in dealt)
                if u.left >= MULTI_MODEL:
                    yield from (event("remove", s, n, models=m) for m in (1, u.left))

    def _activations(self, state: ActionHammerState, side: int, number: int) -> list[Event]:
        """Each stance the unit may take (none to pick when Stunned by its test, nor when
        none is open to both of a joined pair: it keeps the one it has), at no objective or
        at the last (any between). What the unit has now comes first, so that the tracker's
        button shows it before the player changes it: an activation that keeps its stance
        and its objective, as a player who says neither means, is one tap."""
        unit = state.unit(side, number)
        places = dict.fromkeys((unit.objective, 0, state.objectives))
        stances = [] if state.tested is not None and unit.stunned else sorted(
            state.stances(side, number), key=lambda s: s != unit.stance)
        picks: list[dict[str, str]] = [{"stance": s} for s in stances] or [{}]
        return [event("activate", side, number, objective=o, move=m, **pick)
                for pick in picks for o in places for m in MOVES]

    # -- the result --------------------------------------------------------------------------
    def outcome(self, state: ActionHammerState) -> Outcome:
        sides = range(1, len(state.sides) + 1)
        scores = ((VP, tuple(state.vp)), ("Objectives held", tuple(map(state.held, sides))))
        if state.conceded is not None:
            return conceded(state.names, state.conceded, scores)
        if state.destroyed is not None:
            return Outcome(True, other(state.destroyed) if len(sides) > 1 else None,
                           f"{state.names[state.destroyed - 1]}'s army was destroyed", scores)
        if not state.over:
            return Outcome(False, reason=f"round {state.round} of {ROUNDS}", scores=scores)
        if len(sides) < 2:
            return Outcome(True, None, f"after round {ROUNDS}: {state.vp[0]} VP, a solo game "
                                       "has no winner", scores)
        return on_points(state.vp, f"after round {ROUNDS}", VP, scores)

    def situation(self, state: ActionHammerState, attacker: tuple[int, int],
                  defender: tuple[int, int]) -> Mapping[str, Value]:
        """What the log sets of quick-resolve (docs/rules-notes.md, "At the table: odds for
        ActionHammer"), from each roster entry's own state (a Bodyguard's entry fields its
        Leader too, as the roster joins them; only the Bodyguard's models are set): each
        unit's stance (Stunned while a failed morale test holds it, spelled as the catalog
        does, as the resolver offers them) and models left; the target's models at the start,
        for its morale test, and the wounds on its damaged model."""
        out: dict[str, Value] = {}
        for key, (side, number) in (("attacker", attacker), ("defender", defender)):
            unit = unit_or_none(state, side, number)
            if unit is None or not unit.alive:
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
            alive = u.alive
            out.append({
                "unit": n, "name": u.name, "alive": alive, "label": u.label,
                "models": u.left, "size": u.size, "wounds_each": u.wounds,
                "wounds_taken": u.taken, "hurt": u.hurt, "stance": u.stance if alive else "",
                "stunned": u.stunned and alive,
                "grounded": u.flying and alive and u.stance in GROUNDED_IN,
                "joined_to": next((m for m in state.members(side, n) if m != n), 0),
                "activated": u.activated, "objective": u.objective if alive else 0,
                "morale": f"{u.morale}+", "morale_due": alive and state.morale_due(side, n),
                "tests": list(u.tests), "move": u.move if alive else "",
                "struck_back": u.struck_back if alive else 0})
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
        if state.turn is None:
            return None, ""
        if state.waiting(state.turn):
            return state.turn, "activate a unit, each in turn"
        return state.turn, "every unit has activated: end the turn"

    def standing(self, unit: Mapping[str, Any]) -> Standing:
        if "models" not in unit:  # an entry naming no known unit
            return Standing(chips=(str(unit.get("status", "")),))
        tracks = [Track("models", int(unit["models"]), int(unit["size"]))]
        if int(unit["wounds_each"]) > 1 and unit.get("alive"):
            tracks.append(Track("wounds on the hurt model", int(unit["hurt"]),
                                int(unit["wounds_each"]), boxes=True))
        chips = [words.format(MOVE_CHIPS.get(unit[key], unit[key]) if key == "move"
                              else unit[key]) for key, words in CHIPS if unit.get(key)]
        details = (f"morale {unit.get('morale', '')} · {unit.get('wounds_taken', 0)} wounds "
                   "taken in all")
        return Standing(tuple(tracks), tuple(chips), details)


def _named(wanted: Value | None, names: Sequence[str]) -> str | None:
    """The one of `names` a player's word means, spelled as the seed does; None for none."""
    if wanted is None:
        return None
    return next((n for n in names if n.casefold() == str(wanted).casefold()), None)



def _join(units: list[UnitState], placed: Sequence[Placed]) -> None:
    """Each Leader that joins a Bodyguard by the roster's `joins`, when the join keeps the
    rules (one Leader to a Bodyguard): the two share a stance, the one both may take."""
    taken: set[int] = set()
    for index, guard in sorted(joined_to(placed).items()):
        leader = next(p for p in placed if p.index == index)
        if join_reasons(leader.sheet, guard.sheet, guard.entry.count) or guard.index in taken:
            continue
        taken.add(guard.index)
        stances = tuple(s for s in units[index].stances if s in units[guard.index].stances)
        for me, partner in ((index, guard.index), (guard.index, index)):
            units[me] = replace(units[me], partner=partner + 1, stances=stances,
                                stance=OPENING if OPENING in stances else OPENING_FALLBACK)
