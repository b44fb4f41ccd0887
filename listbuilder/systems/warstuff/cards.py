"""WarStuff on paper: a one-model unit's profile (Quality, rules, the formula's cost) and its
card, which stands for every copy the roster takes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from listbuilder.engine.cards import UnitCard, pts
from listbuilder.engine.model import Catalog, RosterEntry
from listbuilder.engine.profile import Profile, RuleText, Stat

if TYPE_CHECKING:  # the package imports this module, so the classes come from it lazily
    from listbuilder.systems.warstuff import WarStuffUnit


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


def entry_card(catalog: Catalog, unit: WarStuffUnit, entry: RosterEntry) -> UnitCard:
    """Each copy is a unit of one model, so one card stands for all of them."""
    return UnitCard(profile=profile(catalog, unit), copies=entry.count)
