"""One Page 40k on paper: a datasheet's profile and an entry's card (its size, the upgrades
taken and the weapons they bring), in `Op40kCards`, the game's printing hooks."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from listbuilder.engine.cards import UnitCard, pts, upgrades_taken
from listbuilder.engine.profile import Profile, RuleText, Stat, Table
from listbuilder.engine.system import Cards, Priced
from listbuilder.systems.op40k.model import (
    VEHICLE,
    Action,
    Datasheet,
    Facing,
    Op40kCatalog,
    Weapon,
)

EQUIPMENT = ("Weapon", "Range")
EQUIPMENT_LABELS = ("", "")  # a card's line: Lasgun 24" (a range reads alone)
EQUIPMENT_WIDTHS = (72, 28)


def _weapon_row(weapon: Weapon) -> tuple[str, str]:
    return (weapon.name, "Melee" if weapon.melee else f'{weapon.range}"')


def cost_text(unit: Datasheet) -> str:
    return pts(unit.pts_per_model) if unit.is_vehicle else f"{pts(unit.pts_per_model)} per model"


def profile(catalog: Op40kCatalog, unit: Datasheet) -> Profile:
    size = str(unit.size)
    if (unit.min_size, unit.max_size) != (unit.size, unit.size):
        size += f" ({unit.min_size}-{unit.max_size})"
    rules = tuple(RuleText(r.name, r.text) for name in unit.special_rules
                  if (r := catalog.rule(name)) is not None)
    subtitle = unit.faction or ""
    if unit.is_vehicle:
        subtitle += " · Vehicle"
    return Profile(
        name=unit.name, subtitle=subtitle, cost=cost_text(unit),
        stats=(Stat("Size", size), Stat("Quality", f"{unit.quality}+")),
        tables=(Table("Equipment", EQUIPMENT, tuple(_weapon_row(w) for w in unit.equipment),
                      EQUIPMENT_LABELS, EQUIPMENT_WIDTHS),),
        rules=rules, keywords=unit.keywords)


def _action(action: Action) -> str:
    """An action as a card line: its move and what the unit may do after it."""
    reach = f'{action.move}"' if action.move else "stay put"
    reach += " over open ground" if action.open_terrain_only else ""
    if action.assault:
        then = "into contact and fight"
    elif action.fire == "one-unit":
        extra = action.shooting_dice
        then = "shoot one unit" + (f" with {extra} extra {'die' if extra == 1 else 'dice'}"
                                   if extra else "")
    elif action.fire == "reaction":
        then = "shoot a unit as it moves in sight"
    elif action.fire == "all-weapons":
        then = "shoot every weapon, any targets"
    elif action.fire == "one-weapon":
        then = "shoot one weapon at one unit"
    else:
        then = "no shooting"
    return f"{action.name}: {reach}, {then}"


def _facing(facing: Facing) -> str:
    if facing.dice == 1 or facing.keep is None:
        return f"{facing.name} one die"
    which = ("lower" if facing.keep == "lowest" else "higher") if facing.dice == 2 else \
        facing.keep
    return f"{facing.name} the {which} of {facing.dice}"


def reminders(catalog: Op40kCatalog, unit: Datasheet) -> tuple[RuleText, ...]:
    """For one line: the roll every test of this unit needs (its Quality), and what it is
    rolled for; the actions, morale and damage are on the quick-reference card."""
    uses = "to hit, to block and for Shaken tests" if unit.is_vehicle else \
        "to hit, to block and for morale"
    return (RuleText(f"Quality {unit.quality}+", uses),)


class Op40kCards(Cards[Op40kCatalog, Datasheet]):
    """One Page 40k's printing hooks: each entry's card as fielded, and the core rules its
    cards leave out."""

    def entry_card(self, catalog: Op40kCatalog, placed: Priced[Datasheet]) -> UnitCard:
        """The datasheet as fielded: its equipment after upgrades, each weapon with how many
        models carry it."""
        unit, entry, cost = placed.unit, placed.entry, placed.cost
        fielded = unit.fielded(catalog, entry.count, entry.upgrades)
        base = profile(catalog, fielded.unit)
        rows = tuple((f"{c.models}x {c.weapon.name}" if not unit.is_vehicle or c.models > 1
                      else c.weapon.name, _weapon_row(c.weapon)[1]) for c in fielded.weapons)
        tables = tuple(replace(t, rows=rows) for t in base.tables)
        upgrades = upgrades_taken(unit, entry.upgrades, pts)
        # the card shows the unit as fielded: its size is the entry's, not the datasheet's range
        stats = tuple(Stat("Size", str(fielded.models)) if s.label == "Size" else s
                      for s in base.stats)
        shown = {r.name for r in base.rules}
        gained = tuple(RuleText(r.name, r.text) for name in fielded.rules
                       if (r := catalog.rule(name)) is not None and r.name not in shown)
        return UnitCard(profile=Profile(name=base.name, subtitle=base.subtitle, cost=base.cost,
                                        stats=stats, tables=tables, rules=base.rules + gained,
                                        keywords=base.keywords, note=base.note),
                        size="" if unit.is_vehicle else f"{fielded.models} models", cost=pts(cost),
                        upgrades=upgrades, reminders=reminders(catalog, fielded.unit))

    def core_rules(self, catalog: Op40kCatalog,
                   cards: Sequence[UnitCard]) -> tuple[RuleText, ...]:
        """Quality, then the actions, morale and vehicle damage, as far as the cards need them."""
        vehicles = [VEHICLE in c.profile.keywords for c in cards]
        # blocking rolls a die for each model of the unit hit, not for each hit (seed: "one
        # dice per model in the target unit", shot at or in an assault)
        out = [RuleText("Quality", "Every roll a unit makes needs its Quality or more: a die a "
                                   "model to hit or strike, a die a target's model to "
                                   "block, a die for morale (a vehicle: a die a weapon, "
                                   "and for Shaken tests).")]
        if not all(vehicles):
            out.append(RuleText("Actions", " · ".join(_action(a) for a in catalog.unit_actions)
                                + "."))
            flee = catalog.setup.flee_dice
            out.append(RuleText("Morale", f"A unit tests after losing an assault or when any "
                                          f"attack leaves it at half its models or fewer: its "
                                          f"Quality or more, or it flees {flee}D6\" from the "
                                          f"nearest enemy it sees."))
        if any(vehicles):
            out.append(RuleText("Vehicle actions", " · ".join(
                _action(a) for a in catalog.vehicle_actions) + "."))
            results = ", ".join(
                f"{r.roll_min}{'' if r.roll_max == r.roll_min else f'-{r.roll_max}'} "
                f"{r.text.split('.')[0]}" for r in catalog.vehicle_damage)
            facings = ", ".join(_facing(f) for f in catalog.facings)
            out.append(RuleText("Damage", f"When a vehicle fails to block one hit or more, roll "
                                          f"once on the damage table ({facings}): {results}. "
                                          f"Cover never helps it."))
        return tuple(out)
