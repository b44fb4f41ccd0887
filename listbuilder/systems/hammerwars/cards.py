"""Hammer Wars on paper: a unit card's profile, the pool's cards and the 11 cards as a set,
and the roster sheet's costs, lives and goal (`HammerWarsCards`, the game's printing hooks).

Every unit is one model and a roster entry counts models of a type in the pool, so a card
stands for `count` copies. Costs are paid round by round, so a card shows the card's price
(pts and xp), never a total.
"""

from __future__ import annotations

from collections.abc import Sequence

from listbuilder.engine.cards import CardSet, UnitCard, per_model, pts
from listbuilder.engine.model import Roster, RosterEntry
from listbuilder.engine.profile import Profile, RuleText, Stat, Table
from listbuilder.engine.system import Cards, Priced
from listbuilder.systems.hammerwars.model import Attack, HammerWarsCatalog, HwUnit


def cost_text(unit: HwUnit) -> str:
    return pts(unit.pts) + (f" + {unit.xp} xp" if unit.xp else "")


def _dice(attack: Attack) -> str:
    return f"{attack.dice}{'*' if attack.blast else ''}"


def profile(catalog: HammerWarsCatalog, unit: HwUnit) -> Profile:
    slot = catalog.pool_slot(unit.category)
    subtitle = unit.category + (f" · {slot.models} in a pool" if slot else "")
    headers = ("Dice", "Light", "Medium", "Heavy")
    # a card's line names every cell: Dice 2 · Light 3+ · Medium 6+ · Heavy 6+
    attacks = Table("Attacks", headers, tuple(
        (_dice(a), f"{a.light}+", f"{a.medium}+", f"{a.heavy}+") for a in unit.attacks),
        labels=headers)
    # the unit's own rules; what a blast (*) does is on the quick-reference card
    rules = [RuleText(r.name, r.text) for name in unit.special_rules
             if (r := catalog.rule(name)) is not None]
    examples = f"For example {', '.join(unit.examples)}." if unit.examples else ""
    return Profile(
        name=unit.name, subtitle=subtitle, cost=cost_text(unit),
        stats=(Stat("Move", f'{unit.move}"'), Stat("Lives", str(unit.lives)),
               Stat("Armor", unit.armor), Stat("Range", f'{unit.range}"')),
        tables=(attacks,), rules=tuple(rules), note=examples)


def reminders(catalog: HammerWarsCatalog, unit: HwUnit) -> tuple[RuleText, ...]:
    """For one line: how far each action that moves takes this unit, and whether it may
    shoot after (in its own inches; what an attack rolls is on the quick-reference card).
    Run forbids shooting only: a unit that ran into base contact still fights in melee."""
    out = []
    for action in catalog.actions:
        if action.move:
            then = "may shoot" if action.shoot else "no shooting"
            out.append(RuleText(action.name, f'{action.move * unit.move}", {then}'))
    return tuple(out)


class HammerWarsCards(Cards[HammerWarsCatalog, HwUnit]):
    """Hammer Wars' printing hooks: a card a unit type, its 11 cards as a set, and the sheet's
    pts and xp, lives and goal."""

    def core_rules(self, catalog: HammerWarsCatalog,
                   cards: Sequence[UnitCard]) -> tuple[RuleText, ...]:
        """The actions, how an attack line is rolled, and the blast, for every card alike."""
        actions = []
        for action in catalog.actions:
            reach = f"{action.move}x Move" if action.move else "stay put"
            then = ", may shoot" if action.shoot else ", no shooting"
            actions.append(f"{action.name}: {reach}{then}")
        modifiers = "".join(f"{t.hit_modifier:+d} if the target is in {t.name.lower()}; "
                            for t in catalog.terrain if t.hit_modifier)
        out = [RuleText("Actions", "Each activation, one of: " + " · ".join(actions) + "."),
               RuleText("Attacks", f"Each line of a card's attacks once an activation, at one "
                                   f"enemy within the unit's Range and in sight (Range 0: in "
                                   f"base contact). Roll its dice: each scoring the number in "
                                   f"the target's armor column or more takes one life "
                                   f"({modifiers}a {catalog.combat.natural_hit} always hits).")]
        if any("*" in row[0] for card in cards for t in card.profile.tables for row in t.rows):
            blast = catalog.combat
            out.append(RuleText("* (blast)", f"Roll {blast.blast_dice} more die against each "
                                             f"other enemy unit within {blast.blast_range}\" "
                                             f"of the target."))
        return tuple(out)

    def entry_card(self, catalog: HammerWarsCatalog, placed: Priced[HwUnit]) -> UnitCard:
        """One card for all the models of a type in the pool: each is bought on its own."""
        unit = placed.unit
        return UnitCard(profile=profile(catalog, unit), copies=placed.entry.count,
                        reminders=reminders(catalog, unit))

    def card_set(self, catalog: HammerWarsCatalog) -> CardSet:
        return CardSet("Unit cards", units=tuple(
            UnitCard(profile=profile(catalog, u), reminders=reminders(catalog, u))
            for u in catalog.units))

    def sheet_cost(self, catalog: HammerWarsCatalog, placed: Priced[HwUnit]) -> str:
        """Pts and xp: a Hero or a Heavy costs both, paid round by round."""
        xp = placed.unit.xp * placed.entry.count
        return pts(placed.cost) + (f" + {xp} xp" if xp else "")

    def sheet_track(self, catalog: HammerWarsCatalog, unit: HwUnit,
                    entry: RosterEntry) -> tuple[tuple[int, ...], str]:
        """A box a life of each model in the pool."""
        return per_model(entry.count, max(1, unit.lives), "life", "lives")

    def sheet_choices(self, catalog: HammerWarsCatalog, roster: Roster) -> tuple[RuleText, ...]:
        name = str(roster.choices.get("goal") or "")
        goal = catalog.goal(name) if name else None
        if goal is None:
            return (RuleText(f"Goal: {name or 'none chosen'}", ""),)
        return (RuleText(f"Goal: {goal.name} ({goal.vp} VP)", goal.text),)
