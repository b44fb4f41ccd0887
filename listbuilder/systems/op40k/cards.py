"""One Page 40k on paper: a datasheet's profile and an entry's card (its size, the upgrades
taken and the weapons they bring)."""

from __future__ import annotations

from dataclasses import replace

from listbuilder.engine.cards import UnitCard, pts
from listbuilder.engine.model import RosterEntry
from listbuilder.engine.profile import Profile, RuleText, Stat, Table
from listbuilder.systems.op40k.models import Datasheet, Op40kCatalog, Op40kUpgrade, Weapon

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


def entry_card(catalog: Op40kCatalog, unit: Datasheet, entry: RosterEntry,
               cost: int) -> UnitCard:
    """The datasheet as fielded: upgrade weapons join the equipment table."""
    base = profile(catalog, unit)
    taken = [u for name in dict.fromkeys(entry.upgrades)
             if isinstance(u := unit.upgrade(name), Op40kUpgrade)]
    extra = tuple(_weapon_row(u.weapon) for u in taken if u.weapon is not None)
    tables = tuple(replace(t, rows=t.rows + extra) for t in base.tables)
    upgrades = tuple(RuleText(f"{u.name} (+{pts(u.pts)}{' per model' if u.per_model else ''})",
                              u.text) for u in taken)
    # the card shows the unit as fielded: its size is the entry's, not the datasheet's range
    stats = tuple(Stat("Size", str(entry.count)) if s.label == "Size" else s for s in base.stats)
    return UnitCard(profile=Profile(name=base.name, subtitle=base.subtitle, cost=base.cost,
                                    stats=stats, tables=tables, rules=base.rules,
                                    keywords=base.keywords, note=base.note),
                    size="" if unit.is_vehicle else f"{entry.count} models", cost=pts(cost),
                    upgrades=upgrades)
