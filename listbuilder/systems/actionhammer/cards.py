"""ActionHammer on paper: a datasheet's profile, an entry's card, and a Leader printed on its
Bodyguard's card, since the two fight as one unit."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from listbuilder.engine.cards import UnitCard, pts
from listbuilder.engine.model import RosterEntry
from listbuilder.engine.profile import Profile, RuleText, Stat, Table
from listbuilder.engine.system import plural
from listbuilder.systems.actionhammer.limits import Placed, joined_to
from listbuilder.systems.actionhammer.model import ActionHammerCatalog, Datasheet, Weapon

WEAPONS = ("Weapon", "Range", "Att", "Sk", "AP", "Features")
# a card's weapon line: 12" · Att 1 · Sk 3+ · AP -1 · Keen (range and features read alone)
WEAPON_LABELS = ("", "", "Att", "Sk", "AP", "")
# per cent of a card's width: names (with how many carry each, "3x Autocannon") and rules need
# most
WEAPON_WIDTHS = (36, 14, 8, 9, 8, 25)


def _ap(ap: int) -> str:
    return str(ap) if ap else "0"


def _weapon_row(weapon: Weapon) -> tuple[str, ...]:
    return (weapon.name, weapon.range_text, str(weapon.att), f"{weapon.sk}+", _ap(weapon.ap),
            ", ".join(weapon.features))


def cost_text(sheet: Datasheet) -> str:
    return pts(sheet.pts) if sheet.max_models == 1 else f"{pts(sheet.pts)} per model"


def profile(catalog: ActionHammerCatalog, sheet: Datasheet) -> Profile:
    stats = [Stat("Move", f'{sheet.move}"'), Stat("Save", f"{sheet.save}+"),
             Stat("Wounds", str(sheet.wounds)), Stat("Morale", f"{sheet.morale}+"),
             Stat("Control", str(sheet.control))]
    if sheet.max_models > 1:
        stats.append(Stat("Models", f"{sheet.min_models}-{sheet.max_models}"))
    # Weapon features are explained beside the unit's abilities: a card is read alone.
    names = [*sheet.special_rules, *(f for w in sheet.weapons for f in w.features)]
    rules = tuple(RuleText(r.name, r.text) for name in dict.fromkeys(names)
                  if (r := catalog.rule(name)) is not None)
    return Profile(
        name=sheet.name, subtitle=sheet.faction or "", cost=cost_text(sheet),
        stats=tuple(stats),
        tables=(Table("Weapons", WEAPONS, tuple(_weapon_row(w) for w in sheet.weapons),
                      WEAPON_LABELS, WEAPON_WIDTHS),),
        rules=rules, keywords=sheet.keywords, note=sheet.text)


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def reminders(catalog: ActionHammerCatalog, sheet: Datasheet, models: int,
              joined: Sequence[Placed] = ()) -> tuple[RuleText, ...]:
    """What a player checks in play, in this unit's numbers: the save roll a hit calls for,
    when it tests morale (half its starting models, or Wounds for one model; a Leader and its
    Bodyguard count together and test on their best Morale) and the stances' hit changes."""
    out = [RuleText(f"Save {sheet.save}+",
                    f"each hit on it, a die plus the attack's AP; {sheet.save}+ saves "
                    f"(+{catalog.terrain.cover_save_bonus} against shooting in cover).")]
    half = catalog.game.morale_divisor
    models += sum(p.entry.count for p in joined)
    morale = min([sheet.morale, *(p.sheet.morale for p in joined)])
    if models > 1:
        below = f"{plural(models // half, 'model')} or fewer"
    elif sheet.wounds // half:
        below = f"{sheet.wounds // half} Wounds or fewer"
    else:
        below = ""  # one wound: it is gone before it could test
    if below:
        out.append(RuleText(f"Morale {morale}+", f"at {below}, roll {morale}+ on activating "
                                                 f"or be Stunned."))
    if catalog.stances:
        out.append(RuleText("Stances", "to hit, its own/enemies': " + " · ".join(
            f"{s.name} {_signed(s.own_hit)}/{_signed(s.enemy_hit)}" for s in catalog.stances)
                            + "."))
    return tuple(out)


def entry_card(catalog: ActionHammerCatalog, sheet: Datasheet, entry: RosterEntry) -> UnitCard:
    """The unit as fielded: its stats after upgrades, each weapon with how many models carry
    it, its models the entry's rather than the datasheet's range."""
    upgrades = tuple(
        RuleText(f"{u.name} (+{pts(u.pts)}{' per model' if u.per_model else ''})", u.text)
        for name in dict.fromkeys(entry.upgrades) if (u := sheet.upgrade(name)) is not None)
    fielded = sheet.fielded(entry.count, entry.upgrades)
    weapons = tuple(c.weapon for c in fielded.weapons)
    base = profile(catalog, replace(fielded.unit, weapons=weapons))
    many = sheet.max_models > 1
    rows = tuple((f"{c.models}x {c.weapon.name}" if many else c.weapon.name,
                  *_weapon_row(c.weapon)[1:]) for c in fielded.weapons)
    shown = {r.name for r in base.rules}
    gained = tuple(RuleText(r.name, r.text) for name in fielded.rules
                   if (r := catalog.rule(name)) is not None and r.name not in shown)
    card = replace(base, stats=tuple(Stat("Models", str(fielded.models)) if s.label == "Models"
                                     else s for s in base.stats),
                   tables=tuple(replace(t, rows=rows) for t in base.tables),
                   rules=base.rules + gained, keywords=base.keywords)
    return UnitCard(profile=card, size=f"{fielded.models} models" if many else "",
                    cost=pts(sheet.cost(entry.count, entry.upgrades)), upgrades=upgrades,
                    reminders=reminders(catalog, fielded.unit, fielded.models))


def entry_cards(catalog: ActionHammerCatalog, placed: Sequence[Placed]) -> list[UnitCard]:
    """One card per unit on the table: a Leader that joins a Bodyguard rides on its card."""
    joins = joined_to(placed)
    riders: dict[int, list[UnitCard]] = {}
    joined: dict[int, list[Placed]] = {}
    for p in placed:
        if p.index in joins:
            # the host card's reminders speak for the whole unit; the rider's numbers are
            # on its own stats line
            riders.setdefault(joins[p.index].index, []).append(
                replace(entry_card(catalog, p.sheet, p.entry), reminders=()))
            joined.setdefault(joins[p.index].index, []).append(p)
    out = []
    for p in placed:
        if p.index in joins:
            continue
        card = entry_card(catalog, p.sheet, p.entry)
        if p.index in riders:
            card = replace(card, attached=_without_repeats(card, riders[p.index]),
                           reminders=reminders(catalog, p.sheet, p.entry.count,
                                               joined[p.index]))
        out.append(card)
    return out


def _without_repeats(card: UnitCard, riders: Sequence[UnitCard]) -> tuple[UnitCard, ...]:
    """Riders print only the rules the card does not already explain: one card, one
    explanation of each rule."""
    seen = {r.name for r in card.profile.rules}
    out = []
    for rider in riders:
        rules = tuple(r for r in rider.profile.rules if r.name not in seen)
        seen.update(r.name for r in rules)
        out.append(replace(rider, profile=replace(rider.profile, rules=rules)))
    return tuple(out)
