"""ActionHammer on paper: a datasheet's profile, an entry's card, and a Leader printed on its
Bodyguard's card, since the two fight as one unit (`ActionHammerCards`, the game's printing
hooks)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from listbuilder.engine.cards import UnitCard, per_model, pts, upgrades_taken
from listbuilder.engine.effects import Fielded
from listbuilder.engine.model import Roster, RosterEntry
from listbuilder.engine.profile import Profile, RuleText, Stat, Table
from listbuilder.engine.system import Cards, Priced, plural
from listbuilder.systems.actionhammer.limits import Placed, joined_to
from listbuilder.systems.actionhammer.model import ActionHammerCatalog, Datasheet, Weapon
from listbuilder.systems.actionhammer.resolve import FEARLESS

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
    # the unit's own abilities; what its weapons' features do is the same on every card, so
    # the quick-reference card explains them (core_rules)
    rules = tuple(RuleText(r.name, r.text) for name in dict.fromkeys(sheet.special_rules)
                  if (r := catalog.rule(name)) is not None)
    return Profile(
        name=sheet.name, subtitle=sheet.faction or "", cost=cost_text(sheet),
        stats=tuple(stats),
        tables=(Table("Weapons", WEAPONS, tuple(_weapon_row(w) for w in sheet.weapons),
                      WEAPON_LABELS, WEAPON_WIDTHS),),
        rules=rules, keywords=sheet.keywords, note=sheet.text)


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def reminders(catalog: ActionHammerCatalog, fielded: Fielded[Datasheet, Weapon],
              joined: Sequence[Fielded[Datasheet, Weapon]] = ()) -> tuple[RuleText, ...]:
    """The unit's numbers (as fielded) for the rolls a player makes for it most, for one
    line: the save (and in cover), and when it tests morale (half its starting models, or
    Wounds for one model; a Leader and its Bodyguard count together and test on their best
    Morale)."""
    sheet = fielded.unit
    covered = max(2, sheet.save - catalog.terrain.cover_save_bonus)
    out = [RuleText(f"Save {sheet.save}+", f"({covered}+ vs shots in cover)")]
    half = catalog.game.morale_divisor
    models = fielded.models + sum(j.models for j in joined)
    morale = min([sheet.morale, *(j.unit.morale for j in joined)])
    if any(FEARLESS in s.special_rules for s in (sheet, *(j.unit for j in joined))):
        below = ""  # Fearless: it never tests, as quick resolve has it
    elif models > 1:
        below = f"{plural(models // half, 'model')} or fewer"
    elif sheet.wounds // half:
        below = f"{plural(sheet.wounds // half, 'Wound')} or fewer"
    else:
        below = ""  # one wound: it is gone before it could test
    if below:
        out.append(RuleText(f"Morale {morale}+", f"at {below}"))
    return tuple(out)


def fielded_card(catalog: ActionHammerCatalog, sheet: Datasheet, entry: RosterEntry) -> UnitCard:
    """The unit as fielded: its stats after upgrades, each weapon with how many models carry
    it, its models the entry's rather than the datasheet's range."""
    upgrades = upgrades_taken(sheet, entry.upgrades, pts)
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
                    reminders=reminders(catalog, fielded))


def _subtitled(card: UnitCard, more: str) -> UnitCard:
    return replace(card, profile=replace(card.profile,
                                         subtitle=f"{card.profile.subtitle} · {more}"))


class ActionHammerCards(Cards[ActionHammerCatalog, Datasheet]):
    """ActionHammer's printing hooks: each entry's card as fielded, a Leader's after his
    Bodyguard's, the core rules the cards' reminders refer to, and a wound box a model."""

    def entry_card(self, catalog: ActionHammerCatalog, placed: Priced[Datasheet]) -> UnitCard:
        return fielded_card(catalog, placed.unit, placed.entry)

    def entry_cards(self, catalog: ActionHammerCatalog, roster: Roster) -> list[UnitCard]:
        """One card per entry. A Leader that joins a Bodyguard gets a card of his own, printed
        right after theirs (one card for both pushed every word to the smallest size): each says
        whom it leads or is led by, and both carry the morale of the unit they make together."""
        placed = Placed.each(self.system.priced(catalog, roster))
        joins = joined_to(placed)
        leaders: dict[int, list[Placed]] = {}
        for p in placed:
            if p.index in joins:
                leaders.setdefault(joins[p.index].index, []).append(p)
        out = []
        for p in placed:
            if p.index in joins:
                continue  # after the unit he leads
            card = fielded_card(catalog, p.sheet, p.entry)
            group = leaders.get(p.index, [])
            if not group:
                out.append(card)
                continue
            fielded = [g.sheet.fielded(g.entry.count, g.entry.upgrades) for g in group]
            together = reminders(catalog, p.sheet.fielded(p.entry.count, p.entry.upgrades),
                                 fielded)
            names = " & ".join(leader.sheet.name for leader in group)
            out.append(_subtitled(replace(card, reminders=together), f"led by {names}"))
            for leader, his in zip(group, fielded, strict=True):
                own = fielded_card(catalog, leader.sheet, leader.entry)
                out.append(_subtitled(replace(own, reminders=reminders(catalog, his)[:1]
                                              + together[1:]), f"leads {p.sheet.name}"))
        return out

    def core_rules(self, catalog: ActionHammerCatalog,
                   cards: Sequence[UnitCard]) -> tuple[RuleText, ...]:
        """Saves, morale tests and stances, which every card's one-line reminder refers to, and
        the features of the weapons the cards list."""
        bonus = catalog.terrain.cover_save_bonus
        out = [RuleText("Save", f"Each hit calls for a save: roll a die and add the attack's AP; "
                                f"the unit's Save or more stops the hit. Against shooting, a unit "
                                f"in cover saves on {bonus} less."),
               RuleText("Morale", f"A unit down to 1/{catalog.game.morale_divisor} of its starting "
                                  f"models or fewer (a single model: of its Wounds) rolls when it "
                                  f"activates: its Morale or more, or it is Stunned. A Leader and "
                                  f"its Bodyguard count together and roll the better Morale.")]
        if catalog.stances:
            out.append(RuleText("Stances", "To hit: the unit's own attacks / enemies attacking it. "
                                + " · ".join(f"{s.name} {_signed(s.own_hit)}/{_signed(s.enemy_hit)}"
                                             for s in catalog.stances) + "."))
        features = [f.strip() for card in cards for table in card.profile.tables
                    for row in table.rows
                    for f in row[-1].split(",") if f.strip()]
        out += [RuleText(r.name, r.text) for name in dict.fromkeys(features)
                if (r := catalog.rule(name)) is not None]
        return tuple(out)

    def sheet_track(self, catalog: ActionHammerCatalog, unit: Datasheet,
                    entry: RosterEntry) -> tuple[tuple[int, ...], str]:
        """A box a wound of each model as fielded (upgrades may change both)."""
        fielded = unit.fielded(entry.count, entry.upgrades)
        return per_model(fielded.models, max(1, fielded.unit.wounds), "wound")
