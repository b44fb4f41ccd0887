"""WarStuff on paper: a one-model unit's profile (Quality, rules, the formula's cost) and its
card, which stands for every copy the roster takes."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from listbuilder.engine.cards import UnitCard, pts
from listbuilder.engine.model import Catalog, RosterEntry
from listbuilder.engine.profile import Profile, RuleText, Stat, Table

if TYPE_CHECKING:  # the package imports this module, so the classes come from it lazily
    from listbuilder.systems.warstuff.model import WarStuffUnit


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


def core_rules() -> tuple[RuleText, ...]:
    """How a hit wounds or kills and how a morale test stuns, for every card alike."""
    return (RuleText("Wounds", "When a unit is hit, roll a die and add the wounds it already "
                               "has: more than its Quality kills it, else it takes one more "
                               "wound."),
            RuleText("Morale", "A die over the unit's Quality stuns it: it fights at Quality 0 "
                               "until it recovers."))


def entry_card(catalog: Catalog, unit: WarStuffUnit, entry: RosterEntry) -> UnitCard:
    """Each copy is a unit of one model, so one card stands for all of them. The card also
    says what its Quality means in play."""
    base = profile(catalog, unit)
    table, rules = in_play(catalog, unit.quality)
    card = replace(base, tables=(*base.tables, table))
    return UnitCard(profile=card, copies=entry.count, reminders=rules)
