"""What a system hands to printing: the cards a roster yields, a system's card set, chits and
the roster sheet, as display data.

Which cards exist, what each says and how many copies are printed are rules decisions, so the
systems make them (`Cards` in engine/system.py, each game's in its cards.py); templates
only lay these out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from listbuilder.engine.effects import shown_on_card
from listbuilder.engine.model import Unit
from listbuilder.engine.profile import Profile, RuleText


@dataclass(frozen=True)
class UnitCard:
    """A unit's card for a roster: its profile plus what the roster entry adds."""

    profile: Profile
    copies: int = 1  # how many of this unit the card stands for ("x3" on the card)
    size: str = ""  # "10 models"; empty where every unit is one model
    cost: str = ""  # what this entry costs, upgrades included: "142 pts"
    upgrades: tuple[RuleText, ...] = ()  # the upgrades taken, with their cost and text
    # the unit's own numbers for the core rules a player checks most, printed as one line
    # ("Save 4+ (3+ in cover) · Morale 3+ at 5 models or fewer"); what the rules themselves
    # say is on the quick-reference card and the roster sheet (Cards.core_rules)
    reminders: tuple[RuleText, ...] = ()

    def has_notes(self) -> bool:
        return bool(self.profile.note)

    def without_notes(self) -> UnitCard:
        """The same card without its flavour line (`Profile.note`): what a card too long for
        its stock gives up before it runs onto a second card."""
        return replace(self, profile=replace(self.profile, note=""))

    def is_reference(self) -> bool:
        """The quick-reference card (`reference_card`), not a unit's."""
        return self.profile.name == REFERENCE and not self.cost and not self.size

    def rules_used(self) -> tuple[RuleText, ...]:
        """Every special rule this card prints."""
        return self.profile.rules


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


RUN = 5  # tick boxes are set in runs of five, to count at a glance


@dataclass(frozen=True)
class SheetLine:
    name: str
    count: int  # what RosterSheet.count_label says it counts
    detail: str  # upgrades taken, who it joins
    cost: str
    stats: str = ""  # the card's stats on one line: '8" Move · 4+ Save · 1 Wound'
    # the boxes to tick off in play, one number a model: its boxes (its wounds, its lives;
    # 1 where a model is lost at once), and what they stand for ("4 models, 3 wounds each")
    track: tuple[int, ...] = ()
    track_label: str = ""
    group: str = ""  # the rows it is listed under, when a sheet has more than one kind

    @property
    def box_groups(self) -> tuple[tuple[int, ...], ...]:
        """The boxes as printed: a group a model, each in runs of at most five (a model of
        12 wounds: (5, 5, 2)); models of one box each are grouped five to a group."""
        if all(n == 1 for n in self.track):
            return tuple((min(RUN, len(self.track) - i),)
                         for i in range(0, len(self.track), RUN))
        return tuple(tuple(min(RUN, n - i) for i in range(0, n, RUN)) for n in self.track)


def per_model(models: int, each: int, box: str,
              boxes: str | None = None) -> tuple[tuple[int, ...], str]:
    """A sheet line's boxes when each of `models` models has `each` of something (wounds,
    lives) to tick off, and what they stand for: '10 models', '5 wounds', '4 models, 3
    wounds each'."""
    def count(n: int, word: str, many: str) -> str:
        return f"{n} {word if n == 1 else many}"

    many = boxes or box + "s"
    if each == 1:
        return (1,) * models, count(models, "model", "models")
    if models == 1:
        return (each,), count(each, box, many)
    return (each,) * models, f"{models} models, {count(each, box, many)} each"


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

    @property
    def has_details(self) -> bool:
        """Whether any line has upgrades or joins: else the sheet leaves that column out."""
        return any(line.detail for line in self.lines)
    core: tuple[RuleText, ...] = ()  # the core rules the cards leave to the reference card


def stats_line(profile: Profile) -> str:
    """A card's stats as the roster sheet prints them, on one line: '1 Wound', '3 Wounds'."""
    return " · ".join(f"{s.value} {singular(s.label) if s.value == '1' else s.label}"
                      for s in profile.stats)


def singular(label: str) -> str:
    """A stat's name for a value of 1: 'Wounds' reads 'Wound', 'Lives' 'Life', 'Models'
    'Model'; a name that is no plural ('Quality', 'Move', 'In the pile') stays."""
    if label.endswith("ives"):
        return label[:-3] + "fe"
    if label.endswith("s") and not label.endswith(("ss", "us")) and " " not in label:
        return label[:-1]
    return label


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


def upgrades_taken(unit: Unit, names: Iterable[str],
                   price: Callable[[int], str]) -> tuple[RuleText, ...]:
    """Each upgrade taken, once, as a card lists it: its name and price, and its words only
    where the card does not show what it does (`shown_on_card`)."""
    out = []
    for name in dict.fromkeys(names):
        if (u := unit.upgrade(name)) is not None:
            label = f"{u.name} (+{price(u.pts)}{' per model' if u.per_model else ''})"
            out.append(RuleText(label, "" if shown_on_card(u.effects) else u.text))
    return tuple(out)


REFERENCE = "Quick reference"


def reference_card(system_name: str, rules: tuple[RuleText, ...]) -> UnitCard:
    """The card printed after a roster's unit cards: the core rules their cards leave out,
    so each unit card keeps its room for its own numbers and rules."""
    return UnitCard(profile=Profile(name=REFERENCE, subtitle=system_name, cost="",
                                    rules=rules))


def pts(n: int) -> str:
    return f"{n} pt" if n == 1 else f"{n} pts"
