"""WarStuff at the table: one-model units taking Wounds and being stunned, alternating
activations round after round, and a game that lasts until one warband is left standing.

The dice stay on the table: the log records what they decided (a hit that wounded, a kill, a
failed morale test that stunned), and the state says what follows from it by the rules (a
stunned unit's next action is Recover, the side that finished activating first opens the next
round, a side with no unit left has lost). A roster entry with `count` copies fields that many
one-model units; an event names a copy with `copy` (1 when left out). Readings of unclear
points: docs/rules-notes.md, WarStuff.
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
)
from listbuilder.engine.system import RuleSystem
from listbuilder.systems.warstuff.model import WarStuffCatalog, WarStuffUnit
from listbuilder.systems.warstuff.resolve import MAX_WOUNDS

# the four actions of the activation table
HOLD, RECOVER, WALK, RUN = "Hold", "Recover", "Walk", "Run"
ACTIONS = (HOLD, RECOVER, WALK, RUN)
NO_ATTACK = (RECOVER,)  # "may not shoot": nor heal, which a Healer does instead of an attack

# How a wound, stun or kill names its attacker (`by`, `by_copy`: a copy of the other side's
# roster entry) and how it struck (`attack`). The action table says which action allows
# which: Hold and Walk a shot, Run a melee attack, Recover none.
SHOT, MELEE = "shot", "melee"
ATTACKS = (SHOT, MELEE)
SHOOTING = (HOLD, WALK)
CHARGING = (RUN,)
ATTACKER_VALUES = ("attack", "by", "by_copy")
# rules that strike outside the unit's own activation: Elite's morale test when it is
# attacked in melee, a dying Death Blow unit's attacks (docs/rules-notes.md, WarStuff)
STRIKES_BACK = ("Elite", "Death Blow")

COMMANDS = 3  # a Leader commands up to three friendly units (three dice, each 4+ one unit)
HEALED_WOUNDS = 1  # a Healer's 4+ removes one Wound (and allows a free Recover)
STUNNED_QUALITY = 0  # a stunned unit counts as Quality 0

# What can lift the Quality a hit's wound roll must beat, and so how many Wounds the dice can
# leave on a unit before every hit kills it (docs/rules-notes.md, "How many Wounds a unit can
# hold at the table").
ARMORED_BONUS = 1  # +1 Quality when attacked
COVER_BONUS = 1  # in or behind cover, against shooting
CAMOUFLAGED_COVER = 2  # always in cover, +2 instead of +1
STEALTHY_COVER = 3  # +3 in cover instead of +1
SMALL_SHOT_BONUS = 1  # Small: +1 Quality when shot at
LARGE_MELEE_BONUS = 1  # Large: +1 in melee against units without Large
SMALL_FOE_BONUS = 1  # a Small attacker's enemies (without Small) get +1 defending in melee
POISON_WOUNDS = 1  # Poison: one more Wound on a hit's 4+ (Undead are immune)

# the values naming an attacker, and how a button and the log say them
ATTACKER: dict[str, type] = {"attack": str, "by": int, "by_copy": int}
ATTACKER_WORDS: dict[str, Mapping[str, str] | str] = {
    "attack": {SHOT: "from a shot", MELEE: "in melee"},
    "by": "by {}", "by_copy": "(copy {})"}
ATTACKER_ASKS = {"attack": "How", "by": "By", "by_copy": "Its copy"}

SCORE = "Units standing"
KILLED = "Enemy points killed"


def _has(rules: tuple[str, ...], rule: str) -> bool:
    return rule.casefold() in rules


@dataclass(frozen=True)
class WoundLimit:
    """The most Wounds the dice can leave on a unit (None: no end to them), and why, in the
    words a refused Wound gives."""

    most: int | None
    why: str


def wound_limit(quality: int, rules: tuple[str, ...],
                foe: frozenset[str] | None = None) -> WoundLimit:
    """A hit wounds only while a D6 plus the Wounds taken stays at or below the Quality the
    unit defends with, so a unit holds the best that Quality can be, plus Poison's extra
    Wound. `foe` holds the rules the other warband fields: Poison, and a Small attacker's
    melee bonus, count only when it fields them; None (a solo game, the other side kept on
    paper) counts them all. Regeneration turns every kill into one more Wound on a 4+: no
    limit. `rules` and `foe` are casefolded."""
    if _has(rules, "Regeneration"):
        return WoundLimit(None, "Regeneration turns a kill into a Wound")
    def fields(rule: str) -> bool:
        return foe is None or rule.casefold() in foe

    cover = max(COVER_BONUS, CAMOUFLAGED_COVER * _has(rules, "Camouflaged"),
                STEALTHY_COVER * _has(rules, "Stealthy"))
    shot = cover + SMALL_SHOT_BONUS * _has(rules, "Small")
    small_foe = not _has(rules, "Small") and fields("Small")
    melee = LARGE_MELEE_BONUS * _has(rules, "Large") + SMALL_FOE_BONUS * small_foe
    poisoned = not _has(rules, "Undead") and fields("Poison")
    armored = ARMORED_BONUS * _has(rules, "Armored")
    best = quality + armored + max(shot, melee)
    how = [f"Quality {quality}"] + (["+1 Armored"] if armored else [])
    how.append(f"+{shot} when shot at in cover" if shot >= melee else f"+{melee} in melee")
    why = (f"its best defending Quality is {best} ({', '.join(how)}), and a hit kills when "
           f"a die plus its Wounds comes to more")
    if poisoned:
        why += "; Poison may add one Wound more"
    elif foe is not None and not _has(rules, "Undead"):
        why += "; the other warband fields no Poison to add one"
    return WoundLimit(best + POISON_WOUNDS * poisoned, why)


def most_wounds(quality: int, rules: tuple[str, ...],
                foe: frozenset[str] | None = None) -> int | None:
    """The most Wounds the dice can leave on a unit (`wound_limit`)."""
    return wound_limit(quality, rules, foe).most


@dataclass(frozen=True)
class UnitState:
    """One copy of a roster entry on the table: a single model."""

    name: str
    quality: int
    rules: tuple[str, ...]  # its special rules as the roster gives them
    points: int  # one copy's cost: what the enemy has killed when it dies
    most: int | None  # `most_wounds`
    most_why: str  # why, as a refused Wound says it
    wounds: int = 0
    stunned: bool = False
    alive: bool = True
    activated: bool = False  # this round
    action: str = ""  # what it did this round
    commanded: bool = False  # activated this round by a Leader's command
    healed: bool = False  # a Healer that has healed this round

    def has(self, rule: str) -> bool:
        return rule.casefold() in (r.casefold() for r in self.rules)

    @property
    def to_activate(self) -> bool:
        return self.alive and not self.activated


@dataclass(frozen=True)
class Entry:
    """A roster entry: its copies, none when it names no known unit."""

    name: str
    copies: tuple[UnitState, ...]


Where = tuple[int, int, int]  # side, entry, copy


@dataclass(frozen=True)
class WarStuffState:
    names: tuple[str, ...]  # the players, side 1 first
    sides: tuple[tuple[Entry, ...], ...]
    round: int = 1
    first: int | None = None  # who opens this round: round 1's deployment winner
    turn: int | None = None  # whose activation is next; None before round 1 or when all done
    finished: int | None = None  # the side that ran out of units to activate first this round
    commands: tuple[int, int] | None = None  # a Leader's side and the commands it has left
    conceded: tuple[int, ...] = ()
    # a Death Blow has struck: the side whose Death Blow unit is dying, until its death is
    # recorded (the game can't end between the blow and the death: both fall at once)
    blow: int | None = None
    # the copy that activated last: the attacker offered first, as it most likely struck
    latest: Where | None = None

    def unit(self, side: int, number: int, copy: int = 1) -> UnitState:
        return self.sides[side - 1][number - 1].copies[copy - 1]

    def with_unit(self, where: Where, unit: UnitState) -> WarStuffState:
        side, number, copy = where
        entries = list(self.sides[side - 1])
        copies = list(entries[number - 1].copies)
        copies[copy - 1] = unit
        entries[number - 1] = replace(entries[number - 1], copies=tuple(copies))
        sides = list(self.sides)
        sides[side - 1] = tuple(entries)
        return replace(self, sides=tuple(sides))

    def copies(self, side: int) -> list[tuple[Where, UnitState]]:
        return [((side, n, c), u) for n, entry in enumerate(self.sides[side - 1], 1)
                for c, u in enumerate(entry.copies, 1)]

    def waiting(self, side: int) -> list[tuple[int, str]]:
        """A side's units yet to activate this round (none once it has conceded)."""
        if side in self.conceded:
            return []
        return [(n, u.name) for (_, n, _), u in self.copies(side) if u.to_activate]

    def standing(self, side: int) -> bool:
        """Still in the game: not conceded, and a unit alive."""
        return side not in self.conceded and any(u.alive for _, u in self.copies(side))

    def killed_points(self, side: int) -> int:
        """The points of `side`'s own units that are dead."""
        return sum(u.points for _, u in self.copies(side) if not u.alive)


class WarStuffPlay(Alternating[WarStuffState]):
    system: RuleSystem[WarStuffCatalog, WarStuffUnit]
    rounds: ClassVar[int | None] = None  # the game lasts until one side is left
    roll_off: ClassVar[str] = "won deployment"
    kinds: ClassVar[Mapping[str, Kind]] = {
        "first-turn": Kind("Won deployment: goes first in round 1", unit=False,
                           checks=("_not_conceded", "_no_blow", "_round_one")),
        "activate": Kind("Activate", values={"action": str, "copy": int, "commanded": bool},
                         optional=("copy", "commanded"),
                         words={"commanded": ("by its Commander", "")},
                         checks=("_not_conceded", "_living", "_blow_allows")),
        "wound": Kind("Took a Wound", values={"copy": int, **ATTACKER},
                      optional=("copy", *ATTACKER_VALUES), words=ATTACKER_WORDS,
                      asks=ATTACKER_ASKS,
                      checks=("_not_conceded", "_living", "_blow_allows", "_attacker")),
        "stun": Kind("Stunned", values={"copy": int, **ATTACKER},
                     optional=("copy", *ATTACKER_VALUES), words=ATTACKER_WORDS,
                     asks=ATTACKER_ASKS,
                     checks=("_not_conceded", "_living", "_blow_allows", "_attacker")),
        "kill": Kind("Killed", values={"copy": int, "death_blow": bool, **ATTACKER},
                     optional=("copy", "death_blow", *ATTACKER_VALUES),
                     words={"death_blow": ("by a Death Blow", ""), **ATTACKER_WORDS},
                     asks=ATTACKER_ASKS,
                     checks=("_not_conceded", "_living", "_blow_allows", "_attacker")),
        "heal": Kind("Healer: healed a friendly unit (4+)",
                     values={"copy": int, "target": int, "target_copy": int},
                     optional=("copy", "target_copy"),
                     asks={"target": "Unit healed", "target_copy": "Its copy"},
                     checks=("_not_conceded", "_living", "_blow_allows")),
        "concede": Kind("Concede the game", unit=False,
                        checks=("_not_conceded", "_no_blow")),
        "round-end": Kind("End the round", side=False, unit=False,
                          checks=("_no_blow", "_begun", "all_activated")),
    }

    # -- the start ---------------------------------------------------------------------------
    def start(self, match: Match) -> WarStuffState:
        system = self.system
        fielded = [system.priced(catalog, player.roster)
                   for player, catalog in players_of(match, WarStuffCatalog)]
        warband_rules = [frozenset(r.casefold() for p in priced if p.entry.count > 0
                                   for r in p.unit.special_rules) for priced in fielded]
        sides = []
        for number, (player, priced) in enumerate(zip(match.players, fielded, strict=True)):
            # the other warband's rules; a solo game's other side is not known
            foe = warband_rules[1 - number] if len(fielded) == 2 else None
            entries = [Entry(e.unit, ()) for e in player.roster.entries]
            for p in priced:
                unit = p.unit
                rules = tuple(unit.special_rules)
                limit = wound_limit(unit.quality, tuple(r.casefold() for r in rules), foe)
                copy = UnitState(name=unit.name, quality=unit.quality, rules=rules,
                                 points=unit.pts, most=limit.most, most_why=limit.why)
                entries[p.index] = Entry(unit.name, (copy,) * max(p.entry.count, 0))
            sides.append(tuple(entries))
        state = WarStuffState(names=tuple(p.name for p in match.players), sides=tuple(sides))
        if len(sides) == 1:  # a solo game has nobody to roll off against
            state = replace(state, first=1, turn=1)
        return state

    # -- events ------------------------------------------------------------------------------
    def absent(self, state: WarStuffState, side: int, unit: int) -> Refused | None:
        entry = state.sides[side - 1][unit - 1]
        if not entry.copies:
            return not_in_catalog(f"'{entry.name}'")
        return None if any(u.alive for u in entry.copies) else gone(entry.name, "dead")

    def _not_conceded(self, state: WarStuffState, ev: Event) -> None:
        if (ev.side or 1) in state.conceded:
            raise Refused(f"{state.names[(ev.side or 1) - 1]} has conceded",
                          "Undo the concession first.")

    def _no_blow(self, state: WarStuffState, ev: Event) -> None:
        if state.blow is not None:
            raise _dying(state.blow)

    def _living(self, state: WarStuffState, ev: Event) -> None:
        where, unit = self._at(state, ev)
        if not unit.alive:
            raise gone(f"{unit.name} (side {where[0]})", "dead")

    def _blow_allows(self, state: WarStuffState, ev: Event) -> None:
        if state.blow is not None:
            self._during_blow(state.blow, ev.side or 1, self._at(state, ev)[1], ev)

    def _attacker(self, state: WarStuffState, ev: Event) -> None:
        """An event naming its attacker (`by`) is checked against what that unit may do;
        one naming none (a log from before, a hit of dangerous terrain) is not."""
        refusal = self.attack_refusal(state, ev)
        if refusal is not None:
            raise refusal

    def attack_refusal(self, state: WarStuffState, ev: Event) -> Refused | None:
        """Why the attacker `ev` names could not have struck it, by the action table and
        the Shooter rules; None when it could, or when `ev` names none."""
        given = dict(ev.values)
        if not any(name in given for name in ATTACKER_VALUES):
            return None
        if len(state.sides) == 1:
            return Refused("a solo game has no enemy roster, so there is no attacker to name",
                           "Leave attack, by and by_copy out.")
        if "by" not in given or "attack" not in given:
            return Refused("an attacker is named with both 'by' (its unit number in the "
                           "enemy roster) and 'attack' (shot or melee)",
                           "Give both, or leave attack, by and by_copy out.")
        attack = str(given["attack"])
        if attack not in ATTACKS:
            return Refused(f"there is no attack '{attack}'", "Give attack: shot or melee.")
        side = other(ev.side or 1)
        try:
            where = self._where(state, side, int(given["by"]), given.get("by_copy"),
                                "by_copy")
        except Refused as refused:
            return refused
        unit = state.unit(*where)
        who = f"{unit.name} (side {side}, unit {where[1]})"
        blow = (ev.kind == "kill" and bool(ev.get("death_blow", False))) \
            or state.blow == side
        if blow:  # the dying unit's own attacks, at Quality 0 on every enemy within 3"
            if not unit.has("Death Blow"):
                return Refused(f"a Death Blow strikes from the dying unit, and {who} has no "
                               "Death Blow", "Name the Death Blow unit as the attacker.")
            if attack != MELEE:
                return Refused("a Death Blow hits the enemies within 3\" as it dies: it is "
                               "not a shot", "Record it with attack: melee.")
            return None
        if not unit.alive and not (attack == MELEE and unit.has("Death Blow")):
            return Refused(f"{who} is dead, and the dead make no attacks",
                           "Name a unit still on the table.")
        if attack == SHOT:
            return self._shot_refusal(state, ev, unit, who)
        if unit.action in CHARGING or any(unit.has(rule) for rule in STRIKES_BACK):
            return None
        did = f"took {unit.action}" if unit.activated else "has not activated"
        return Refused(f"{who} {did} in round {state.round}, and only a Run moves into base "
                       "contact to attack in melee",
                       "Name the unit that attacked, or record a shot if it held or walked "
                       "and shoots.")

    def _shot_refusal(self, state: WarStuffState, ev: Event, unit: UnitState,
                      who: str) -> Refused | None:
        """Only a Shooter shoots (Entangle's shot stuns and nothing more), in an activation
        of Hold or Walk: Recover may not shoot, and a Run attacks in melee."""
        shooter = any(r.casefold().startswith("shooter") for r in unit.rules)
        if not shooter and not (unit.has("Entangle") and ev.kind == "stun"):
            if unit.has("Entangle"):
                return Refused(f"{who} shoots only with Entangle, whose shot stuns and can't "
                               "wound or kill", "Record a stun, or record the attack as "
                               "melee.")
            return Refused(f"{who} has no Shooter rule, and only Shooters shoot",
                           "Record the attack as melee, or name the unit that shot.")
        if unit.action in SHOOTING:
            return None
        if not unit.activated:
            why = f"has not activated in round {state.round}, and a unit shoots in its own " \
                  f"activation ({HOLD} or {WALK})"
        elif unit.action == RECOVER:
            why = f"took {RECOVER} in round {state.round}, and a unit that Recovers may not " \
                  "shoot"
        else:
            why = f"took {unit.action} in round {state.round}: a Run may attack in melee, " \
                  "not shoot"
        return Refused(f"{who} {why}", "Name the unit that shot, or record the attack as "
                       "melee if it ran.")

    def _at(self, state: WarStuffState, ev: Event) -> tuple[Where, UnitState]:
        """The copy an event names, and its state."""
        where = self._where(state, ev.side or 1, ev.unit or 1, ev.get("copy"), "copy")
        return where, state.unit(*where)

    def _concede(self, state: WarStuffState, ev: Event) -> WarStuffState:
        return replace(state, conceded=(*state.conceded, ev.side or 1))

    def settle(self, state: WarStuffState, ev: Event) -> WarStuffState:
        """After a unit's event: note the side that has just run out of units to activate
        (the side that acted first, when both ran out together), and move the turn on when
        its side has none left (its units died)."""
        if ev.unit is None:
            return state
        acted = ev.side or 1
        if state.first is not None and state.finished is None:
            for s in (acted, other(acted)):
                if s <= len(state.sides) and not state.waiting(s):
                    state = replace(state, finished=s)
                    break
        return super().settle(state, ev)

    def _where(self, state: WarStuffState, side: int, number: int, copy: Any,
               name: str) -> Where:
        """The copy an event names, checked against its entry."""
        entries = state.sides[side - 1]
        if not 1 <= number <= len(entries):
            raise Refused(f"side {side} has no unit {number}",
                          f"Give a unit numbered 1 to {len(entries)}.")
        entry = entries[number - 1]
        if not entry.copies:
            raise Refused(f"'{entry.name}' names no unit in the catalog, so it is not on the "
                          "table", "Fix the roster, or leave this entry out of the game.")
        copy = 1 if copy is None else copy
        if not 1 <= copy <= len(entry.copies):
            count = len(entry.copies)
            raise Refused(f"{entry.name} (side {side}, unit {number}) has {count} "
                          f"cop{'y' if count == 1 else 'ies'}, so there is no copy {copy}",
                          f"Give {name} from 1 to {count}.")
        return side, number, copy

    def _during_blow(self, dying: int, side: int, unit: UnitState, ev: Event) -> None:
        """Between a Death Blow and its unit's recorded death, only more of its blows (on the
        other side) or that death."""
        if side != dying and ev.kind in ("wound", "stun", "kill"):
            return
        if side == dying and ev.kind == "kill" and unit.has("Death Blow") \
                and not ev.get("death_blow", False):
            return
        raise _dying(dying)

    def _round_one(self, state: WarStuffState, ev: Event) -> None:
        if state.round > 1:
            raise Refused("from round 2 on, the side that finished activating first in the "
                          "round before goes first", "Just activate a unit of that side.")

    def _activate(self, state: WarStuffState, ev: Event) -> WarStuffState:
        where, unit = self._at(state, ev)
        side = where[0]
        commanded = bool(ev.get("commanded", False))
        if state.first is None:
            raise Refused("nobody has won deployment yet, so nobody may activate",
                          "Record first-turn for the side that won deployment.")
        if unit.activated:
            raise Refused(f"{unit.name} has already activated in round {state.round}",
                          "Activate a unit that has not, or end the round.")
        if commanded:
            if state.commands is None or state.commands[0] != side or state.commands[1] < 1:
                raise Refused(f"no Leader of side {side} has a command left to give",
                              f"A Leader commands up to {COMMANDS} units right after it "
                              "activates; otherwise activate in turn, without commanded.")
        else:
            self.turn_is(state, side)
        wanted = str(ev.get("action", "")).strip().casefold()
        action = next((a for a in ACTIONS if a.casefold() == wanted), None)
        if action is None:
            raise Refused(f"there is no action '{ev.get('action')}'",
                          f"Take one of: {', '.join(ACTIONS)}.")
        if unit.stunned and action != RECOVER:
            raise Refused(f"{unit.name} is stunned: its next action must be Recover",
                          "Activate it with action: Recover (it stands up).")
        after = replace(unit, activated=True, action=action, commanded=commanded,
                        stunned=False if action == RECOVER else unit.stunned)
        state = replace(state.with_unit(where, after), latest=where)
        # a Leader's activation opens its commands; they last until the other side activates
        leader = COMMANDS if unit.has("Leader") else 0
        if commanded:
            assert state.commands is not None
            left = state.commands[1] - 1 + leader
        else:
            left = leader
        return self.passed(replace(state, commands=(side, left) if left else None), side)

    def _wound(self, state: WarStuffState, ev: Event) -> WarStuffState:
        where, unit = self._at(state, ev)
        if unit.most is not None and unit.wounds >= unit.most:
            raise Refused(f"{unit.name} has {unit.wounds} Wounds, the most the dice can leave "
                          f"on it by the wound roll: {unit.most_why}, so any further hit "
                          f"kills it",
                          "Record a kill instead (or undo a Wound recorded by mistake).")
        return state.with_unit(where, replace(unit, wounds=unit.wounds + 1))

    def _stun(self, state: WarStuffState, ev: Event) -> WarStuffState:
        where, unit = self._at(state, ev)
        if unit.stunned:
            raise Refused(f"{unit.name} is already stunned",
                          "It stays stunned until its Recover action.")
        return state.with_unit(where, replace(unit, stunned=True))

    def _kill(self, state: WarStuffState, ev: Event) -> WarStuffState:
        where, unit = self._at(state, ev)
        side = where[0]
        if ev.get("death_blow", False):
            dying = other(side)
            if dying > len(state.sides) or not any(
                    u.alive and u.has("Death Blow") for _, u in state.copies(dying)):
                raise Refused(f"side {dying} has no Death Blow unit alive to strike it",
                              "Record the kill without death_blow.")
            state = replace(state, blow=dying)
        elif state.blow == side:  # the Death Blow unit's own death closes its blows
            state = replace(state, blow=None)
        return state.with_unit(where, replace(unit, alive=False, stunned=False))

    def _heal(self, state: WarStuffState, ev: Event) -> WarStuffState:
        where, healer = self._at(state, ev)
        side = where[0]
        if not healer.has("Healer"):
            raise Refused(f"{healer.name} has no Healer rule", "Only a Healer may heal.")
        if not healer.activated or healer.action in NO_ATTACK:
            raise Refused(f"{healer.name} heals instead of attacking, so only in a round it "
                          f"activated with an action that may attack ({HOLD}, {WALK}, {RUN})",
                          "Activate it first; a Recover action may not heal.")
        if healer.healed:
            raise Refused(f"{healer.name} has already healed in round {state.round}",
                          "A Healer heals once, in place of its attack.")
        target_where = self._where(state, side, ev.get("target"), ev.get("target_copy"),
                                   "target_copy")
        if target_where == where:
            raise Refused(f"{healer.name} may not heal itself",
                          "Heal another friendly unit within 3\".")
        target = state.unit(*target_where)
        if not target.alive:
            raise Refused(f"{target.name} is dead", "Heal a unit still alive.")
        if not target.wounds and not target.stunned:
            raise Refused(f"{target.name} has no Wound to remove and is not stunned",
                          "Heal a wounded or stunned friendly unit.")
        # the Wound goes, and the free Recover stands a stunned unit up
        state = state.with_unit(where, replace(healer, healed=True))
        return state.with_unit(target_where, replace(
            target, wounds=max(0, target.wounds - HEALED_WOUNDS), stunned=False))

    def _begun(self, state: WarStuffState, ev: Event) -> None:
        if state.first is None:
            raise Refused("round 1 has not begun: nobody has won deployment yet",
                          "Record first-turn for the side that won deployment.")

    def _round_end(self, state: WarStuffState, ev: Event) -> WarStuffState:
        sides = tuple(tuple(replace(e, copies=tuple(
            replace(u, activated=False, action="", commanded=False, healed=False)
            for u in e.copies)) for e in entries) for entries in state.sides)
        # the side that ran out of activations first opens the next round
        first = state.finished or state.first
        assert first is not None  # _begun
        state = replace(state, sides=sides, round=state.round + 1, first=first,
                        finished=None, commands=None)
        return replace(state, turn=self.next_turn(state, first))

    # -- what may come next ------------------------------------------------------------------
    def offers(self, state: WarStuffState) -> list[Event]:
        """Every event the rules allow now: while a Death Blow unit is dying, its death and
        its blows (a wound, a stun or a kill of any enemy unit alive); else the deployment
        roll-off, the activations of the side whose turn it is (each action: Recover only
        when stunned) and of the units a Leader may command, a wound, a stun and a kill (by
        a Death Blow, when the enemy has one) of every unit alive, each by every enemy unit
        that could have struck it and once by none, each heal a Healer may give and each
        side's concession."""
        if self.outcome(state).over:
            return []
        sides = range(1, len(state.sides) + 1)
        if state.blow is not None:
            deaths = [event("kill", state.blow, n, copy=c, death_blow=False)
                      for (_, n, c), u in state.copies(state.blow)
                      if u.alive and u.has("Death Blow") and state.blow not in state.conceded]
            out = [named for death in deaths for named in (*self._struck(state, death), death)]
            for s in sides:
                if s != state.blow and s not in state.conceded:
                    out += self._losses(state, s)
            return out
        concede = concessions(len(state.sides), gone=state.conceded)
        if state.first is None:
            return [event("first-turn", s) for s in sides] + concede
        out = []
        commands = state.commands is not None and state.commands[1] >= 1
        if state.turn is None:
            out.append(event("round-end"))
        else:  # commanded: no, said only when a command may activate the same units
            both = commands and state.commands is not None and state.commands[0] == state.turn
            out += self._every_activation(state, state.turn, False if both else None)
        if commands and state.commands is not None:
            out += self._every_activation(state, state.commands[0], True)
        for s in sides:
            if s in state.conceded:
                continue
            out += self._losses(state, s)
            out += self._every_heal(state, s)
        return out + concede

    def _every_activation(self, state: WarStuffState, side: int,
                          commanded: bool | None) -> list[Event]:
        """Each action of each unit of `side` to activate (a stunned one: Recover);
        `commanded` None: left out."""
        if side in state.conceded:
            return []
        return [event("activate", side, n, action=action, copy=c) if commanded is None
                else event("activate", side, n, action=action, copy=c, commanded=commanded)
                for (_, n, c), u in state.copies(side) if u.to_activate
                for action in ((RECOVER,) if u.stunned else ACTIONS)]

    def _losses(self, state: WarStuffState, side: int) -> list[Event]:
        """A wound (while the dice can leave one more), a stun (unless stunned) and a kill,
        by a Death Blow too when the enemy has a Death Blow unit alive, of each unit alive:
        each by every enemy that could have struck it (`_struck`), and a wound and a kill
        once naming no attacker (a hit of dangerous terrain). A stun always has a cause on
        the other side (Entangle, Sweep Attack, Brutal's or Elite's morale test), so in a
        game of two it is offered only with its attacker; a solo game names none."""
        blow = len(state.sides) > 1 and any(e.alive and e.has("Death Blow")
                                            for _, e in state.copies(other(side)))
        out = []
        for (_, n, c), u in state.copies(side):
            if not u.alive:
                continue
            losses = []
            if u.most is None or u.wounds < u.most:
                losses.append(event("wound", side, n, copy=c))
            if not u.stunned:
                losses.append(event("stun", side, n, copy=c))
            losses += [event("kill", side, n, copy=c, death_blow=b)
                       for b in ((False, True) if blow else (False,))]
            for loss in losses:
                struck = self._struck(state, loss)
                bare = loss.kind != "stun" or len(state.sides) == 1
                out += [*struck, loss] if bare else struck
        return out

    def _struck(self, state: WarStuffState, loss: Event) -> list[Event]:
        """`loss` by each enemy copy and each attack the rules let strike it, the copy that
        activated last first (the box shows it before the player changes it)."""
        if len(state.sides) == 1 or loss.side is None:
            return []
        foes = state.copies(other(loss.side))
        foes.sort(key=lambda pair: pair[0] != state.latest)
        out = []
        for (_, n, c), _unit in foes:
            for attack in ATTACKS:
                named = Event(loss.kind, loss.side, loss.unit, tuple(sorted(
                    (*loss.values, ("attack", attack), ("by", n), ("by_copy", c)))))
                if self.attack_refusal(state, named) is None:
                    out.append(named)
        return out

    def _every_heal(self, state: WarStuffState, side: int) -> list[Event]:
        units = state.copies(side)
        out = []
        for (_, n, c), healer in units:
            if not (healer.alive and healer.has("Healer") and healer.activated
                    and healer.action not in NO_ATTACK and not healer.healed):
                continue
            out += [event("heal", side, n, copy=c, target=t, target_copy=tc)
                    for (_, t, tc), target in units
                    if (t, tc) != (n, c) and target.alive and (target.wounds or target.stunned)]
        return out

    # -- the result --------------------------------------------------------------------------
    def outcome(self, state: WarStuffState) -> Outcome:
        sides = range(1, len(state.sides) + 1)
        scores = ((SCORE, tuple(sum(u.alive for _, u in state.copies(s)) for s in sides)),
                  (KILLED, tuple(state.killed_points(other(s)) if other(s) in sides else 0
                                 for s in sides)))
        standing = [s for s in sides if state.standing(s)]
        if state.blow is not None:  # the Death Blow's unit falls with its blows
            return Outcome(False, reason=f"round {state.round}: a Death Blow has struck",
                           scores=scores)
        if len(state.sides) == 1:  # solo: over when the side gives up or has nothing left
            if standing:
                return Outcome(False, reason=f"round {state.round}", scores=scores)
            return Outcome(True, None, f"{self._fall(state, 1)}: a solo game has no winner",
                           scores)
        if len(standing) > 1:
            return Outcome(False, reason=f"round {state.round}", scores=scores)
        if not standing:
            return Outcome(True, None, "both warbands fell at once: a draw", scores)
        winner = standing[0]
        return Outcome(True, winner, self._fall(state, other(winner)), scores)

    def _fall(self, state: WarStuffState, side: int) -> str:
        name = state.names[side - 1]
        return f"{name} conceded" if side in state.conceded else f"all of {name}'s units are dead"

    def situation(self, state: WarStuffState, attacker: tuple[int, int],
                  defender: tuple[int, int]) -> Mapping[str, Value]:
        """What the log sets of quick-resolve: the target's `wounds` (its Wounds taken, at
        most the resolver's `MAX_WOUNDS`) and `stunned`, from one copy of the target's entry,
        the most hurt one still alive: the most Wounds, a stunned one first at equal Wounds,
        then the lowest copy (docs/rules-notes.md, "At the table: odds for WarStuff"). The
        attacker's state sets nothing: a stunned attacker may only Recover, and its Wounds
        change nothing it does. An entry with no copy alive sets nothing (it has no odds)."""
        side, number = defender
        if not (side <= len(state.sides) and 1 <= number <= len(state.sides[side - 1])):
            return {}
        alive = [u for u in state.sides[side - 1][number - 1].copies if u.alive]
        if not alive:
            return {}
        target = max(alive, key=lambda u: (u.wounds, u.stunned))  # the first of equals
        return {"wounds": min(target.wounds, MAX_WOUNDS), "stunned": target.stunned}

    def to_data(self, state: WarStuffState) -> dict[str, Any]:
        return {"round": state.round, "first": state.first, "turn": state.turn,
                "finished": state.finished,
                "commands": list(state.commands) if state.commands else None,
                "conceded": list(state.conceded), "death_blow": state.blow,
                "sides": [{"name": name, "standing": state.standing(s),
                           "units": list(self.units(state, s))}
                          for s, name in enumerate(state.names, 1)]}

    def units(self, state: WarStuffState, side: int) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for n, entry in enumerate(state.sides[side - 1], 1):
            if not entry.copies:
                out.append({"unit": n, "name": entry.name, "alive": False,
                            "status": "not in the catalog"})
            for c, u in enumerate(entry.copies, 1):
                out.append({"unit": n, "copy": c, "copies": len(entry.copies),
                            "name": u.name, "alive": u.alive, "quality": u.quality,
                            "counts_as": STUNNED_QUALITY if u.stunned else u.quality,
                            "rules": list(u.rules), "points": u.points, "wounds": u.wounds,
                            "most_wounds": u.most, "stunned": u.stunned,
                            "activated": u.activated, "action": u.action,
                            "commanded": u.commanded, "healed": u.healed})
        return out

    def acting(self, state: WarStuffState) -> tuple[int | None, str]:
        if self.outcome(state).over:
            return None, ""
        if state.blow is not None:
            return state.blow, "the dying unit strikes its Death Blow"
        if state.first is None:
            return None, "roll off for deployment: the winner goes first"
        if state.turn is None:
            return None, "every unit has activated: end the round"
        return state.turn, "activate a unit"

    def standing(self, unit: Mapping[str, Any]) -> Standing:
        if "wounds" not in unit:  # an entry naming no known unit
            return Standing(chips=(str(unit.get("status", "")),))
        most = unit.get("most_wounds")
        # a hit on a unit already at its most kills it: its boxes are the wounds it can carry
        # (a killed unit's are left off: they no longer count)
        tracks = () if not unit.get("alive") else (
            Track("wounds taken", int(unit["wounds"]), int(most), boxes=True),) if most else (
            Track("wounds taken", int(unit["wounds"])),)
        chips = ["stunned"] if unit.get("stunned") else []
        if unit.get("activated"):
            chips.append(f"activated: {unit['action']}" if unit.get("action") else "activated")
        chips += [label for key, label in (("commanded", "commanded"), ("healed", "healed"))
                  if unit.get(key)]
        quality = f"Quality {unit['quality']}+"
        if unit.get("counts_as") != unit.get("quality"):
            quality += f" (counts as {unit['counts_as']}+ while stunned)"
        rules = ", ".join(unit.get("rules") or ())
        details = " · ".join(p for p in (quality, rules, f"{unit['points']} pts") if p)
        return Standing(tracks, tuple(chips), details)


def _dying(side: int) -> Refused:
    return Refused(f"a Death Blow of side {side} has struck, and the unit that struck it is "
                   "dying", f"Record the kill of side {side}'s Death Blow unit first.")
