"""What a system hands to printing: the cards a roster yields, a system's card set, chits and
the roster sheet, as display data.

Which cards exist, what each says and how many copies are printed are rules decisions, so the
systems make them (the printing hooks of `RuleSystem`); templates only lay these out.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from listbuilder.engine.profile import Profile, RuleText


@dataclass(frozen=True)
class UnitCard:
    """A unit's card for a roster: its profile plus what the roster entry adds."""

    profile: Profile
    copies: int = 1  # how many of this unit the card stands for ("x3" on the card)
    size: str = ""  # "10 models"; empty where every unit is one model
    cost: str = ""  # what this entry costs, upgrades included: "142 pts"
    upgrades: tuple[RuleText, ...] = ()  # the upgrades taken, with their cost and text
    attached: tuple[UnitCard, ...] = ()  # units riding on this card (an ActionHammer Leader)
    # what a player looks up most while playing this unit, worked out from its own numbers
    # ("Save 4+: ..."). Not rules of the game, so the roster sheet's glossary leaves them out.
    reminders: tuple[RuleText, ...] = ()

    def has_notes(self) -> bool:
        return bool(self.profile.note) or any(card.has_notes() for card in self.attached)

    def without_notes(self) -> UnitCard:
        """The same card without its flavour lines (`Profile.note`), its riders' too: what a
        card too long for its stock gives up before it runs onto a second card."""
        return replace(self, profile=replace(self.profile, note=""),
                       attached=tuple(card.without_notes() for card in self.attached))

    def rules_used(self) -> tuple[RuleText, ...]:
        """Every special rule this card prints, attached units' included."""
        out = list(self.profile.rules)
        for card in self.attached:
            out += card.rules_used()
        return tuple(out)


@dataclass(frozen=True)
class PlayCard:
    """A card of a shared deck (Space Empires' action deck)."""

    name: str
    text: str
    copies: int = 1  # how many the deck holds
    headline: str = ""  # the effect at a glance: "+5 Force", "Move 2 stacks"
    tag: str = ""  # the kind of card: "Move", "Battle", "Look"


@dataclass(frozen=True)
class ChitFace:
    """One counter of a chit pile: what is printed on it and how many the pile holds."""

    name: str
    force: str
    types: str  # the printed type letters, "VL"
    speed: str  # the speed letter, "F", "M" or "S"
    copies: int
    faction: str
    note: str = ""  # "BF", "SHT"
    leader: bool = False


@dataclass(frozen=True)
class CardSet:
    """A system's own printable set: Hammer Wars' unit cards or an action deck."""

    title: str
    units: tuple[UnitCard, ...] = ()
    cards: tuple[PlayCard, ...] = ()

    @property
    def total(self) -> int:
        return sum(c.copies for c in self.units) + sum(c.copies for c in self.cards)


@dataclass(frozen=True)
class SheetLine:
    name: str
    count: int  # what RosterSheet.count_label says it counts
    detail: str  # upgrades taken, who it joins
    cost: str


@dataclass(frozen=True)
class RosterSheet:
    """The roster sheet: the list with costs and totals, choices and a glossary."""

    title: str
    system: str
    factions: tuple[str, ...]
    choices: tuple[RuleText, ...]  # "Goal: Duty" with the goal's text
    count_label: str  # what a line's count means: "models", "copies", "chits"
    lines: tuple[SheetLine, ...]
    total: str  # "1985 / 2000 pts"
    summary: tuple[tuple[str, str], ...]  # the system's own totals
    glossary: tuple[RuleText, ...]  # only the rules the roster's cards print
    problems: tuple[str, ...] = ()  # what makes the roster illegal, if anything


def merge_identical(cards: Iterable[UnitCard]) -> tuple[UnitCard, ...]:
    """Identical cards become one whose `copies` is the sum, in first-seen order."""
    merged: dict[UnitCard, int] = {}
    for card in cards:
        key = replace(card, copies=1)
        merged[key] = merged.get(key, 0) + card.copies
    return tuple(replace(card, copies=n) for card, n in merged.items())


def glossary(cards: Iterable[UnitCard]) -> tuple[RuleText, ...]:
    """Each rule the cards print, once, sorted by name."""
    seen: dict[str, RuleText] = {}
    for card in cards:
        for rule in card.rules_used():
            seen.setdefault(rule.name.casefold(), rule)
    return tuple(seen[k] for k in sorted(seen))


def pts(n: int) -> str:
    return f"{n} pt" if n == 1 else f"{n} pts"
