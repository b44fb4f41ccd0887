"""WarStuff on paper: a one-model unit's profile (Quality, rules, the formula's cost) and its
card, which stands for every copy the roster takes (`WarStuffCards`, the game's printing
hooks)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from listbuilder.engine.cards import UnitCard, pts
from listbuilder.engine.model import Catalog, RosterEntry
from listbuilder.engine.profile import Profile, RuleText, Stat, Table
from listbuilder.engine.system import Cards, Priced, plural
from listbuilder.systems.warstuff.model import WarStuffCatalog, WarStuffUnit


def profile(catalog: Catalog, unit: WarStuffUnit) -> Profile:
    rules = tuple(RuleText(r.name, r.text) for name in unit.special_rules
                  if (r := catalog.rule(name)) is not None)
    note = ""
    if unit.printed_pts is not None and unit.printed_pts != unit.pts:
        note = f"The quickplay list prints {pts(unit.printed_pts)}; the unit formula gives " \
               f"{pts(unit.pts)}, which is what it costs."
    subtitle = "Own design" if unit.designed else (unit.genre or "")
    return Profile(name=unit.name, subtitle=subtitle, cost=pts(unit.pts),
                   stats=(Stat("Quality", str(unit.quality)),), rules=rules, note=note)


def in_play(catalog: Catalog, quality: int) -> tuple[Table, tuple[RuleText, ...]]:
    """What a unit's Quality means at the table: the roll it needs to hit each Quality (a
    table), and for one line the rolls that kill or stun it (the rules themselves are on the
    quick-reference card)."""
    from listbuilder.systems.warstuff.resolve import to_hit

    low, high = getattr(catalog, "quality_range", (1, 5))
    targets = range(low, high + 1)
    table = Table("To hit", ("Target Quality", *(str(q) for q in targets)),
                  (("Hits on", *(f"{to_hit(quality, q)}+" for q in targets)),))
    # a hit kills when a die plus the wounds already taken beats the Quality
    kill = "6" if quality == 5 else f"{quality + 1}+"
    stun = f"{quality + 1}+" if quality < 6 else "never"
    return table, (RuleText("Killed on", f"{kill} (a die + its wounds)"),
                   RuleText("Stunned on", stun))


class WarStuffCards(Cards[WarStuffCatalog, WarStuffUnit]):
    """WarStuff's printing hooks: a card a unit, with what its Quality means in play, and a
    wound box for each wound a copy can take."""

    def entry_card(self, catalog: WarStuffCatalog, placed: Priced[WarStuffUnit]) -> UnitCard:
        """Each copy is a unit of one model, so one card stands for all of them. The card also
        says what its Quality means in play."""
        unit = placed.unit
        base = profile(catalog, unit)
        table, rules = in_play(catalog, unit.quality)
        card = replace(base, tables=(*base.tables, table))
        return UnitCard(profile=card, copies=placed.entry.count, reminders=rules)

    def core_rules(self, catalog: WarStuffCatalog,
                   cards: Sequence[UnitCard]) -> tuple[RuleText, ...]:
        """How a hit wounds or kills and how a morale test stuns, for every card alike."""
        return (RuleText("Wounds", "When a unit is hit, roll a die and add the wounds it already "
                                   "has: more than its Quality kills it, else it takes one more "
                                   "wound."),
                RuleText("Morale", "A die over the unit's Quality stuns it: it fights at Quality 0 "
                                   "until it recovers."))

    def sheet_track(self, catalog: WarStuffCatalog, unit: WarStuffUnit,
                    entry: RosterEntry) -> tuple[tuple[int, ...], str]:
        """A box for each wound a copy can take: a hit kills when a die and the wounds taken
        beat its Quality, so a copy with as many wounds as its Quality dies to its next hit."""
        boxes = max(1, unit.quality)
        taken = "wound taken" if boxes == 1 else "wounds taken"
        label = taken if entry.count == 1 else f"{plural(entry.count, 'model')}: {taken}"
        return (boxes,) * entry.count, label
