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
from dataclasses import dataclass, fields, replace
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
from listbuilder.engine.play_parts import activated, flagged, passing, refuse
from listbuilder.engine.system import RuleSystem
from listbuilder.systems.warstuff.model import WarStuffCatalog, WarStuffUnit
from listbuilder.systems.warstuff.resolve import MAX_WOUNDS, STUNNED_QUALITY

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
ATTACKER: dict[str, type] = {"attack": str, "by": int, "by_copy": int}
# rules that strike outside the unit's own activation: Elite's morale test when it is
# attacked in melee, a dying Death Blow unit's attacks (docs/rules-notes.md, WarStuff)
STRIKES_BACK = ("Elite", "Death Blow")

COMMANDS = 3  # a Leader commands up to three friendly units (three dice, each 4+ one unit)
HEALED_WOUNDS = 1  # a Healer's 4+ removes one Wound (and allows a free Recover)

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

SCORE = "Units standing"
KILLED = "Enemy points killed"


def wound_limit(quality: int, rules: tuple[str, ...],
                foe: frozenset[str] | None = None) -> tuple[int | None, str]:
    """The most Wounds the dice can leave on a unit (None: no end to them), and why, in the
    words a refused Wound gives. A hit wounds only while a D6 plus the Wounds taken stays at
    or below the Quality the unit defends with, so a unit holds the best that Quality can
    be, plus Poison's extra Wound. `foe` holds the rules the other warband fields: Poison,
    and a Small attacker's melee bonus, count only when it fields them; None (a solo game,
    the other side kept on paper) counts them all. Regeneration turns every kill into one
    more Wound on a 4+: no limit. `rules` and `foe` are casefolded."""
    def has(rule: str) -> bool:
        return rule.casefold() in rules

    def fields_rule(rule: str) -> bool:
        return foe is None or rule.casefold() in foe

    if has("Regeneration"):
        return None, "Regeneration turns a kill into a Wound"
    cover = max(COVER_BONUS, CAMOUFLAGED_COVER * has("Camouflaged"),
                STEALTHY_COVER * has("Stealthy"))
    shot = cover + SMALL_SHOT_BONUS * has("Small")
    small_foe = not has("Small") and fields_rule("Small")
    melee = LARGE_MELEE_BONUS * has("Large") + SMALL_FOE_BONUS * small_foe
    poisoned = not has("Undead") and fields_rule("Poison")
    armored = ARMORED_BONUS * has("Armored")
    best = quality + armored + max(shot, melee)
    how = [f"Quality {quality}"] + (["+1 Armored"] if armored else [])
    how.append(f"+{shot} when shot at in cover" if shot >= melee else f"+{melee} in melee")
    why = (f"its best defending Quality is {best} ({', '.join(how)}), and a hit kills when "
           f"a die plus its Wounds comes to more")
    if poisoned:
        why += "; Poison may add one Wound more"
    elif foe is not None and not has("Undead"):
        why += "; the other warband fields no Poison to add one"
    return best + POISON_WOUNDS * poisoned, why


def most_wounds(quality: int, rules: tuple[str, ...],
                foe: frozenset[str] | None = None) -> int | None:
    """The most Wounds the dice can leave on a unit (`wound_limit`)."""
    return wound_limit(quality, rules, foe)[0]


@dataclass(frozen=True)
class UnitState:
    """One copy of a roster entry on the table: a single model."""

    name: str
    quality: int
    rules: tuple[str, ...]  # its special rules as the roster gives them
    points: int  # one copy's cost: what the enemy has killed when it dies
    most_wounds: int | None  # `wound_limit`
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


# what a unit's row (`units`) gives of its state, as it is
ROW = tuple(f.name for f in fields(UnitState) if f.name != "most_why")


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
        entries = self.sides[side - 1]
        entry = replace(entries[number - 1], copies=with_side(entries[number - 1].copies,
                                                              copy, unit))
        return replace(self, sides=with_side(self.sides, side, with_side(entries, number, entry)))

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


# each loss a unit may take: a wound, a stun, a kill, a kill by a Death Blow
LOSSES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("wound", {}), ("stun", {}), ("kill", {"death_blow": False}), ("kill", {"death_blow": True}))
LIVE = ("_not_conceded", "_living", "_blow_allows")  # the checks of an event of a live unit


def _loss(label: str, **more: type) -> Kind:
    """A wound, stun or kill of a copy, naming who struck it and how (`ATTACKER`)."""
    values = {"copy": int, **more, **ATTACKER}
    words: dict[str, Any] = {"death_blow": ("by a Death Blow", ""),
                             "attack": {SHOT: "from a shot", MELEE: "in melee"},
                             "by": "by {}", "by_copy": "(copy {})"}
    return Kind(label, values=values, optional=tuple(values),
                words={name: said for name, said in words.items() if name in values},
                asks={"attack": "How", "by": "By", "by_copy": "Its copy"},
                checks=(*LIVE, "_attacker"), handler="_hurt")


class WarStuffPlay(Alternating[WarStuffState]):
    system: RuleSystem[WarStuffCatalog, WarStuffUnit]
    rounds: ClassVar[int | None] = None  # the game lasts until one side is left
    roll_off: ClassVar[str] = "won deployment"
    kinds: ClassVar[Mapping[str, Kind]] = {
        "first-turn": Kind("Won deployment: goes first in round 1", unit=False,
                           checks=("_not_conceded", "_blow_allows", "_round_one")),
        "activate": Kind("Activate", values={"action": str, "copy": int, "commanded": bool},
                         optional=("copy", "commanded"),
                         words={"commanded": ("by its Commander", "")},
                         checks=(*LIVE, "_begun")),
        "wound": _loss("Took a Wound"),
        "stun": _loss("Stunned"),
        "kill": _loss("Killed", death_blow=bool),
        "heal": Kind("Healer: healed a friendly unit (4+)",
                     values={"copy": int, "target": int, "target_copy": int},
                     optional=("copy", "target_copy"),
                     asks={"target": "Unit healed", "target_copy": "Its copy"}, checks=LIVE),
        "concede": Kind("Concede the game", unit=False,
                        checks=("_not_conceded", "_blow_allows")),
        "round-end": Kind("End the round", side=False, unit=False,
                          checks=("_blow_allows", "_begun", "all_activated")),
    }

    # -- the start ---------------------------------------------------------------------------
    def start(self, match: Match) -> WarStuffState:
        fielded = [self.system.priced(catalog, player.roster)
                   for player, catalog in players_of(match, WarStuffCatalog)]
        warband_rules = [frozenset(r.casefold() for p in priced if p.entry.count > 0
                                   for r in p.unit.special_rules) for priced in fielded]
        sides = []
        for number, (player, priced) in enumerate(zip(match.players, fielded, strict=True)):
            # the other warband's rules; a solo game's other side is not known
            foe = warband_rules[1 - number] if len(fielded) == 2 else None
            entries = [Entry(e.unit, ()) for e in player.roster.entries]
            for p in priced:
                unit, rules = p.unit, tuple(p.unit.special_rules)
                most, why = wound_limit(unit.quality, tuple(r.casefold() for r in rules), foe)
                copy = UnitState(unit.name, unit.quality, rules, unit.pts, most, why)
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

    def _living(self, state: WarStuffState, ev: Event) -> None:
        where, unit = self._at(state, ev)
        if not unit.alive:
            raise gone(f"{unit.name} (side {where[0]})", "dead")

    def _blow_allows(self, state: WarStuffState, ev: Event) -> None:
        """Between a Death Blow and its unit's recorded death, only more of its blows (on the
        other side) or that death."""
        dying, side = state.blow, ev.side or 1
        if dying is None or (side != dying and ev.kind in ("wound", "stun", "kill")):
            return
        if side == dying and ev.kind == "kill" and not ev.get("death_blow", False) \
                and self._at(state, ev)[1].has("Death Blow"):
            return
        raise Refused(f"a Death Blow of side {dying} has struck, and the unit that struck it "
                      f"is dying", f"Record the kill of side {dying}'s Death Blow unit first.")

    def _begun(self, state: WarStuffState, ev: Event) -> None:
        if state.first is None:
            raise Refused("round 1 has not begun: nobody has won deployment yet",
                          "Record first-turn for the side that won deployment.")

    def _round_one(self, state: WarStuffState, ev: Event) -> None:
        if state.round > 1:
            raise Refused("from round 2 on, the side that finished activating first in the "
                          "round before goes first", "Just activate a unit of that side.")

    def _attacker(self, state: WarStuffState, ev: Event) -> None:
        """The attacker an event names (`by`) could have struck it, by the action table and
        the Shooter rules; one naming none (a log from before, a hit of dangerous terrain)
        is not checked."""
        given = dict(ev.values)
        if not any(name in given for name in ATTACKER):
            return
        attack = str(given.get("attack"))
        refuse((len(state.sides) == 1, "a solo game has no enemy roster, so there is no "
                 "attacker to name", "Leave attack, by and by_copy out."),
                ("by" not in given or "attack" not in given, "an attacker is named with both "
                 "'by' (its unit number in the enemy roster) and 'attack' (shot or melee)",
                 "Give both, or leave attack, by and by_copy out."),
                (attack not in ATTACKS, f"there is no attack '{attack}'",
                 "Give attack: shot or melee."))
        side = other(ev.side or 1)
        where = self._where(state, side, int(given["by"]), given.get("by_copy"), "by_copy")
        unit = state.unit(*where)
        who = f"{unit.name} (side {side}, unit {where[1]})"
        if (ev.kind == "kill" and ev.get("death_blow", False)) or state.blow == side:
            # the dying unit's own attacks, at Quality 0 on every enemy within 3"
            refuse((not unit.has("Death Blow"), f"a Death Blow strikes from the dying unit, "
                     f"and {who} has no Death Blow", "Name the Death Blow unit as the attacker."),
                    (attack != MELEE, "a Death Blow hits the enemies within 3\" as it dies: it "
                     "is not a shot", "Record it with attack: melee."))
            return
        refuse((not unit.alive and not (attack == MELEE and unit.has("Death Blow")),
                 f"{who} is dead, and the dead make no attacks",
                 "Name a unit still on the table."))
        if attack == MELEE:
            if unit.action in CHARGING or any(unit.has(rule) for rule in STRIKES_BACK):
                return
            did = f"took {unit.action}" if unit.activated else "has not activated"
            raise Refused(f"{who} {did} in round {state.round}, and only a Run moves into base "
                          "contact to attack in melee", "Name the unit that attacked, or record "
                          "a shot if it held or walked and shoots.")
        # Only a Shooter shoots (Entangle's shot stuns and nothing more), in an activation of
        # Hold or Walk: Recover may not shoot, and a Run attacks in melee.
        shooter = any(r.casefold().startswith("shooter") for r in unit.rules)
        entangle = unit.has("Entangle")
        refuse((not shooter and entangle and ev.kind != "stun", f"{who} shoots only with "
                 "Entangle, whose shot stuns and can't wound or kill",
                 "Record a stun, or record the attack as melee."),
                (not shooter and not entangle, f"{who} has no Shooter rule, and only Shooters "
                 "shoot", "Record the attack as melee, or name the unit that shot."))
        if unit.action in SHOOTING:
            return
        now = f"in round {state.round}"
        why = {"": f"has not activated {now}, and a unit shoots in its own activation "
                   f"({HOLD} or {WALK})",
               RECOVER: f"took {RECOVER} {now}, and a unit that Recovers may not shoot"}.get(
            unit.action, f"took {unit.action} {now}: a Run may attack in melee, not shoot")
        raise Refused(f"{who} {why}", "Name the unit that shot, or record the attack as "
                      "melee if it ran.")

    def _at(self, state: WarStuffState, ev: Event) -> tuple[Where, UnitState]:
        """The copy an event names, and its state."""
        where = self._where(state, ev.side or 1, ev.unit or 1, ev.get("copy"), "copy")
        return where, state.unit(*where)

    def _where(self, state: WarStuffState, side: int, number: int, copy: Any,
               name: str) -> Where:
        """The copy an event names, checked against its entry."""
        entries = state.sides[side - 1]
        if not 1 <= number <= len(entries):
            raise Refused(f"side {side} has no unit {number}",
                          f"Give a unit numbered 1 to {len(entries)}.")
        entry = entries[number - 1]
        if not entry.copies:
            raise not_in_catalog(f"'{entry.name}'")
        copy, count = 1 if copy is None else copy, len(entry.copies)
        if not 1 <= copy <= count:
            raise Refused(f"{entry.name} (side {side}, unit {number}) has {count} "
                          f"cop{'y' if count == 1 else 'ies'}, so there is no copy {copy}",
                          f"Give {name} from 1 to {count}.")
        return side, number, copy

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

    def _activate(self, state: WarStuffState, ev: Event) -> WarStuffState:
        where, unit = self._at(state, ev)
        side = where[0]
        commanded = bool(ev.get("commanded", False))
        refuse((unit.activated, f"{unit.name} has already activated in round {state.round}",
                 "Activate a unit that has not, or end the round."),
                (commanded and (state.commands is None or state.commands[0] != side),
                 f"no Leader of side {side} has a command left to give",
                 f"A Leader commands up to {COMMANDS} units right after it activates; "
                 "otherwise activate in turn, without commanded."))
        if not commanded:
            self.turn_is(state, side)
        wanted = str(ev.get("action", "")).strip().casefold()
        action = next((a for a in ACTIONS if a.casefold() == wanted), None)
        if action is None:
            raise Refused(f"there is no action '{ev.get('action')}'",
                          f"Take one of: {', '.join(ACTIONS)}.")
        refuse((unit.stunned and action != RECOVER, f"{unit.name} is stunned: its next "
                 "action must be Recover", "Activate it with action: Recover (it stands up)."))
        after = replace(unit, activated=True, action=action, commanded=commanded,
                        stunned=unit.stunned and action != RECOVER)
        state = replace(state.with_unit(where, after), latest=where)
        # a Leader's activation opens its commands; they last until the other side activates
        left = COMMANDS * unit.has("Leader")
        if commanded and state.commands is not None:
            left += state.commands[1] - 1
        return self.passed(replace(state, commands=(side, left) if left else None), side)

    def _hurt(self, state: WarStuffState, ev: Event) -> WarStuffState:
        """A wound, a stun or a kill."""
        where, unit = self._at(state, ev)
        side, most, blow = where[0], unit.most_wounds, bool(ev.get("death_blow", False))
        dying = other(side)
        refuse((ev.kind == "wound" and most is not None and unit.wounds >= most,
                 f"{unit.name} has {unit.wounds} Wounds, the most the dice can leave on it by "
                 f"the wound roll: {unit.most_why}, so any further hit kills it",
                 "Record a kill instead (or undo a Wound recorded by mistake)."),
                (ev.kind == "stun" and unit.stunned, f"{unit.name} is already stunned",
                 "It stays stunned until its Recover action."),
                (blow and (dying > len(state.sides) or not any(
                    u.alive and u.has("Death Blow") for _, u in state.copies(dying))),
                 f"side {dying} has no Death Blow unit alive to strike it",
                 "Record the kill without death_blow."))
        if blow:
            state = replace(state, blow=dying)
        elif ev.kind == "kill" and state.blow == side:  # its own death closes its blows
            state = replace(state, blow=None)
        hurt: dict[str, dict[str, Any]] = {"wound": {"wounds": unit.wounds + 1},
                                           "stun": {"stunned": True},
                                           "kill": {"alive": False, "stunned": False}}
        return state.with_unit(where, replace(unit, **hurt[ev.kind]))

    def _heal(self, state: WarStuffState, ev: Event) -> WarStuffState:
        where, healer = self._at(state, ev)
        refuse((not healer.has("Healer"), f"{healer.name} has no Healer rule",
                 "Only a Healer may heal."),
                (not healer.activated or healer.action in NO_ATTACK, f"{healer.name} heals "
                 f"instead of attacking, so only in a round it activated with an action that "
                 f"may attack ({HOLD}, {WALK}, {RUN})",
                 "Activate it first; a Recover action may not heal."),
                (healer.healed, f"{healer.name} has already healed in round {state.round}",
                 "A Healer heals once, in place of its attack."))
        target_where = self._where(state, where[0], ev.get("target"), ev.get("target_copy"),
                                   "target_copy")
        target = state.unit(*target_where)
        refuse((target_where == where, f"{healer.name} may not heal itself",
                 "Heal another friendly unit within 3\"."),
                (not target.alive, f"{target.name} is dead", "Heal a unit still alive."),
                (not target.wounds and not target.stunned, f"{target.name} has no Wound to "
                 "remove and is not stunned", "Heal a wounded or stunned friendly unit."))
        # the Wound goes, and the free Recover stands a stunned unit up
        state = state.with_unit(where, replace(healer, healed=True))
        return state.with_unit(target_where, replace(
            target, wounds=max(0, target.wounds - HEALED_WOUNDS), stunned=False))

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
        """Every event the rules allow now (`apply` accepts it): while a Death Blow unit is
        dying, its death and its blows (a wound, a stun or a kill of any enemy unit alive);
        else the deployment roll-off; else each activation (commanded: no, said only when a
        Leader's command may activate the same units), a wound, a stun and a kill (by a
        Death Blow too) of every unit alive (`_losses`), each heal a Healer may give, the
        round's end and each side's concession."""
        if self.outcome(state).over:
            return []
        sides = range(1, len(state.sides) + 1)
        if state.blow is not None:  # the dying unit's death first
            dying_first = sorted(sides, key=lambda s: s != state.blow)
            return [loss for s in dying_first for loss in self._losses(state, s)]
        concede = concessions(len(state.sides), gone=state.conceded)
        if state.first is None:
            return [event("first-turn", s) for s in sides] + concede
        both = state.commands is not None and state.commands[0] == state.turn
        plain: dict[str, Any] = {"commanded": False} if both else {}
        out = passing(self.apply, state, [event("round-end")] + [
            event("activate", s, n, action=action, copy=c, **more)
            for more in (plain, {"commanded": True})
            for s in sides for (_, n, c), u in state.copies(s) if u.to_activate
            for action in ACTIONS])
        for s in sides:
            copies = state.copies(s)
            out += self._losses(state, s) + passing(self.apply, state, [
                event("heal", s, n, copy=c, target=t, target_copy=tc)
                for (_, n, c), healer in copies if healer.has("Healer")
                for (_, t, tc), _ in copies])
        return out + concede

    def _losses(self, state: WarStuffState, side: int) -> list[Event]:
        """A wound, a stun and a kill (by a Death Blow or not) of each copy of `side`: each
        by every enemy copy with each attack, the copy that activated last first (the box
        shows it before the player changes it), then naming no attacker (a hit of dangerous
        terrain). A stun always has a cause on the other side (Entangle, Sweep Attack,
        Brutal's or Elite's morale test), so in a game of two it is offered only with its
        attacker; a solo game names none."""
        solo = len(state.sides) == 1
        foes = [] if solo else sorted(state.copies(other(side)),
                                      key=lambda foe: foe[0] != state.latest)
        out = []
        for (_, n, c), _unit in state.copies(side):
            for kind, more in LOSSES:
                bare = event(kind, side, n, copy=c, **more)
                if not passing(self.apply, state, [bare]):
                    continue
                # naming who struck changes only what `_attacker` says
                out += passing(self._attacker, state, [
                    event(kind, side, n, copy=c, attack=attack, by=fn, by_copy=fc, **more)
                    for (_, fn, fc), _foe in foes for attack in ATTACKS])
                out += [bare] if kind != "stun" or solo else []
        return out

    # -- the result --------------------------------------------------------------------------
    def outcome(self, state: WarStuffState) -> Outcome:
        sides = range(1, len(state.sides) + 1)
        killed = [sum(u.points for _, u in state.copies(other(s)) if not u.alive)
                  if other(s) in sides else 0 for s in sides]
        scores = ((SCORE, tuple(sum(u.alive for _, u in state.copies(s)) for s in sides)),
                  (KILLED, tuple(killed)))
        fallen = [s for s in sides if not state.standing(s)]
        if state.blow is not None or not fallen:  # the Death Blow's unit falls with its blows
            struck = ": a Death Blow has struck" if state.blow is not None else ""
            return Outcome(False, reason=f"round {state.round}{struck}", scores=scores)
        if len(fallen) == 2:
            return Outcome(True, None, "both warbands fell at once: a draw", scores)
        name = state.names[fallen[0] - 1]
        fall = f"{name} conceded" if fallen[0] in state.conceded else \
            f"all of {name}'s units are dead"
        if len(sides) == 1:  # solo: over when the side gives up or has nothing left
            return Outcome(True, None, f"{fall}: a solo game has no winner", scores)
        return Outcome(True, other(fallen[0]), fall, scores)

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
            out += [{"unit": n, "copy": c, "copies": len(entry.copies),
                     **{name: getattr(u, name) for name in ROW}, "rules": list(u.rules),
                     "counts_as": STUNNED_QUALITY if u.stunned else u.quality}
                    for c, u in enumerate(entry.copies, 1)]
        return out

    def acting(self, state: WarStuffState) -> tuple[int | None, str]:
        if state.blow is not None:  # the game is never over while a blow is pending
            return state.blow, "the dying unit strikes its Death Blow"
        if state.first is None and not self.outcome(state).over:
            return None, "roll off for deployment: the winner goes first"
        return super().acting(state)

    def standing(self, unit: Mapping[str, Any]) -> Standing:
        if "wounds" not in unit:  # an entry naming no known unit
            return Standing(chips=(str(unit.get("status", "")),))
        most = unit.get("most_wounds")
        # a hit on a unit already at its most kills it: its boxes are the wounds it can carry
        # (a killed unit's are left off: they no longer count)
        tracks = (Track("wounds taken", int(unit["wounds"]), int(most or 0), boxes=bool(most)),
                  ) if unit.get("alive") else ()
        chips = [*flagged(unit, (("stunned", "stunned"),)), *activated(unit),
                 *flagged(unit, (("commanded", "commanded"), ("healed", "healed")))]
        quality = f"Quality {unit['quality']}+"
        if unit.get("counts_as") != unit.get("quality"):
            quality += f" (counts as {unit['counts_as']}+ while stunned)"
        rules = ", ".join(unit.get("rules") or ())
        details = " · ".join(p for p in (quality, rules, f"{unit['points']} pts") if p)
        return Standing(tracks, tuple(chips), details)
