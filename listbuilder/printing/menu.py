"""What a system can print, for a Print menu: cheap to ask (no PDF library is loaded)."""

from __future__ import annotations

from dataclasses import dataclass

from listbuilder.engine.model import Catalog
from listbuilder.engine.system import RuleSystem


@dataclass(frozen=True)
class Printables:
    deck: str | None  # the title of the system's own card set ("Action deck"), if it has one
    deck_cards: int  # how many cards that set prints
    chit_factions: tuple[str, ...]  # factions whose chit pile can be printed
    rules: bool  # a one-page rules sheet exists


def printables(catalog: Catalog, system: RuleSystem) -> Printables:
    printed = system.cards()
    deck = printed.card_set(catalog)
    return Printables(
        deck=deck.title if deck else None, deck_cards=deck.total if deck else 0,
        chit_factions=tuple(f.name for f in catalog.factions if printed.chits(catalog, f.name)),
        rules=(system.templates_folder() / "rules.html").is_file())
