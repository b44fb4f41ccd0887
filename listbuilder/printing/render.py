"""What can be printed, start to finish: a roster's cards and sheet, a system's card set (an
action deck, Hammer Wars' unit cards), a faction's chits and a system's rules sheet."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from jinja2 import TemplateNotFound

from listbuilder.engine.cards import CardSet, ChitFace, UnitCard, glossary, reference_card
from listbuilder.engine.model import Catalog, Roster
from listbuilder.engine.profile import Profile, RuleText, Stat, Table
from listbuilder.engine.system import RuleSystem
from listbuilder.printing.columns import column_start, column_width
from listbuilder.printing.geometry import BLEED, CARDS, CHIT, CHIT_GUTTER, GUTTER, fold_sheet, grid
from listbuilder.printing.impose import (
    Progress,
    Slot,
    concatenate,
    impose_bleed,
    impose_fold,
    impose_grid,
)
from listbuilder.printing.layout import (
    PAGE_CSS,
    STYLES,
    UA_CSS,
    Face,
    LaidOut,
    Stock,
    lay_out,
    render_rules_document,
    render_sheet_document,
)
from listbuilder.printing.options import PrintError, PrintOptions
from listbuilder.printing.seal import Seal
from listbuilder.printing.templating import system_template, without_price

# Base text size per card size (pt); the layout lowers it for long cards, never below FLOOR:
# the smallest text on a card (labels, keywords) is never under FLOOR either (faces.html).
# The cards of a print share one size (layout.lay_out), the largest its longest card fits.
MAX_PT = {"poker": 10.5, "mini": 9.0, "tarot": 12.5}  # a short card's text grows up to this
# Faces are first laid out at the largest size: most cards of a roster end there or near it,
# so most need no second layout (starting small, nearly every face grew: a round more)
FONT_PT = MAX_PT
# a card's text is read across the table at arm's length: none of it is smaller than this
# (issue 38), labels and keywords included; a card too long even at this size runs onto a
# continuation card rather than shrink further
FLOOR_PT = 7.5
# card sizes whose unit cards of a roster name their rules and upgrades without their words
# (which the quick-reference card after them holds, and the roster sheet): a 44 mm card is
# for its numbers, stats and weapons, read at the size above (issue 38)
BRIEF = frozenset({"mini"})
PLAY_TEXT_EM = 1.3  # a deck card's effect, in ems of its size (print-cards.css .play .text)
CHIT_FONT_PT = 6.5
CHIT_FLOOR_PT = 6.0
# rules sheets: the first size that fits a page, from large (a short sheet fills its page
# instead of leaving a column empty) down to 6.7 pt, which keeps their 0.9 em text at 6 pt
BACK_FILL = (0x24 / 255, 0x31 / 255, 0x3E / 255)  # .back in print-cards.css: runs into gutters
# a faction's colour on its chits' fronts and backs (.fc-N in print-cards.css), by the faction's
# place in the game's list, so piles laid out side by side never look alike; dark enough for
# white text at more than 7:1
FACTION_COLOURS = ("#7a1f1f", "#1f4e79", "#2e6b30", "#5b2a86", "#7a4a00", "#0f5e5e",
                   "#8a1f5c", "#4a5a0f")
RULES_PT = (10.0, 9.4, 8.8, 8.3, 7.8, 7.3, 6.7)


@dataclass(frozen=True)
class Back:
    """What the back of a card shows."""

    system: str
    kind: str  # "Unit card", "Action deck", a faction's name
    name: str = ""  # unit cards name their unit; deck cards and chits must all look alike
    chit: bool = False


@dataclass
class Printed:
    """A finished PDF, or zip of images, and what the renderer learnt on the way (for tests
    and the CLI)."""

    pdf: bytes
    faces: int = 0  # distinct fronts laid out
    cards: int = 0  # cards (or chits) printed
    noun: str = "cards"
    pages: int = 0
    refused: tuple[str, ...] = ()  # URLs the fetcher refused (empty for our own templates)
    # the face laid out with the smallest text: its name, text size (pt), cards it took
    longest: tuple[str, float, int] = ("", 0.0, 0)
    # faces (backs too) laid out for this print; the others this process had laid out before
    laid_out: int = 0
    images: bytes = b""  # the zip, for the png and tts formats (`pdf` is then empty)

    @property
    def data(self) -> bytes:
        """The file asked for: the zip of images, or the PDF."""
        return self.images or self.pdf

    @property
    def page_noun(self) -> str:
        """What `pages` counts."""
        return "image" if self.images else "page"


# -- cards ------------------------------------------------------------------------------------

def _stock(options: PrintOptions) -> Stock:
    w, h = CARDS[options.card]
    return Stock(w, h, BLEED if options.bleed else 0.0, FONT_PT[options.card], FLOOR_PT,
                 MAX_PT[options.card])


def print_faces(fronts: Sequence[tuple[Face, int]], backs: Sequence[Face | None], *,
                stock: Stock, gutter: float, options: PrintOptions, context: dict[str, Any],
                title: str, progress: Progress | None = None,
                back_fill: tuple[float, float, float] = BACK_FILL,
                noun: str = "cards", bleed_sheets: bool = False) -> Printed:
    """Lay out each distinct face once, then place `copies` of each on sheets (or, for the
    image formats, draw each as an image: `_as_images`).

    `fronts` pairs each face with how many times it is printed; `backs[i]` is the back of
    `fronts[i]`, needed only when both sides are printed. Equal backs are laid out once.
    `bleed_sheets`: with bleed, the faces (chits) go many to a sheet, each with its bleed and
    crop marks on its cut lines, instead of one to a page.
    """
    faces = [face for face, _ in fronts]
    back_index: dict[int, int] = {}
    if options.backs:
        seen: dict[int, int] = {}
        for i, back in enumerate(backs):
            if back is None:
                continue
            key = id(back)
            if key not in seen:
                seen[key] = len(faces)
                faces.append(back)
            back_index[i] = seen[key]
    laid: LaidOut = lay_out(faces, stock, context, progress)
    laid_out = len(faces) if laid.laid_out is None else laid.laid_out
    if options.images:
        return _as_images(laid, fronts, back_index, stock, options, title, noun, laid_out)
    slots = []
    for i, (_, copies) in enumerate(fronts):
        back_pages = laid.pages[back_index[i]] if i in back_index else [None]
        for _ in range(copies):
            for page in laid.pages[i]:
                slots.append(Slot(page, back_pages[0]))
    if options.bleed and bleed_sheets:
        bled = grid(options.paper, (stock.width + 2 * stock.bleed,
                                    stock.height + 2 * stock.bleed), 0.0)
        pdf = impose_grid(laid.pdf, slots, bled, duplex=options.duplex, cut_marks=True,
                          title=title, progress=progress, bleed=stock.bleed)
        pages = -(-len(slots) // bled.per_page) * (2 if options.duplex != "none" else 1)
    elif options.bleed:
        pdf = impose_bleed(laid.pdf, slots, (stock.width, stock.height), duplex=options.duplex,
                           title=title, progress=progress)
        pages = len(slots) * (2 if options.duplex != "none" else 1)
    elif options.gutter_fold:
        sheet = fold_sheet(options.paper, (stock.width, stock.height), gutter)
        pdf = impose_fold(laid.pdf, slots, sheet, cut_marks=options.cut_marks, title=title,
                          progress=progress)
        pages = -(-len(slots) // sheet.per_page)
    else:
        layout = grid(options.paper, (stock.width, stock.height), gutter)
        pdf = impose_grid(laid.pdf, slots, layout, duplex=options.duplex,
                          cut_marks=options.cut_marks, title=title, progress=progress,
                          back_fill=None if options.ink_saver else back_fill)
        pages = -(-len(slots) // layout.per_page) * (2 if options.duplex != "none" else 1)
    return Printed(pdf, faces=len(fronts), cards=len(slots), pages=pages, noun=noun,
                   refused=tuple(laid.refused), laid_out=laid_out,
                   longest=_longest(fronts, laid))


def _longest(fronts: Sequence[tuple[Face, int]], laid: LaidOut) -> tuple[str, float, int]:
    """The front laid out with the smallest text: its name, text size and cards it took."""
    front_sizes = laid.font_pt[:len(fronts)]
    # a quick-reference card on several cards is no long card: each holds its rules whole
    units = [i for i, (face, _) in enumerate(fronts)
             if not (isinstance(face.item, UnitCard) and face.item.is_reference())]
    smallest = min(units or range(len(fronts)),
                   key=lambda i: (front_sizes[i], -len(laid.pages[i])))
    return (fronts[smallest][0].title, front_sizes[smallest], len(laid.pages[smallest]))


def _as_images(laid: LaidOut, fronts: Sequence[tuple[Face, int]], back_index: dict[int, int],
               stock: Stock, options: PrintOptions, title: str, noun: str,
               laid_out: int) -> Printed:
    """The laid-out faces drawn as images (printing/images.py), instead of imposed on paper:
    each distinct face is drawn once, whatever its copies."""
    from listbuilder.printing.images import Card, card_images

    cards = [Card(face.title, tuple(laid.pages[i]), copies,
                  laid.pages[back_index[i]][0] if i in back_index else None)
             for i, (face, copies) in enumerate(fronts)]
    face_mm = (stock.width + 2 * stock.bleed, stock.height + 2 * stock.bleed)
    made = card_images(options.format, laid.pdf, cards, face_mm, stock.bleed, title, noun)
    return Printed(b"", faces=len(fronts), cards=sum(c.copies * len(c.pages) for c in cards),
                   noun=noun, pages=made.images, refused=tuple(laid.refused),
                   laid_out=laid_out, longest=_longest(fronts, laid), images=made.data)


def _context(system: RuleSystem, options: PrintOptions, title: str, **extra: Any) -> dict[str,
                                                                                         Any]:
    return {"system_id": system.id, "system_name": system.name, "ink_saver": options.ink_saver,
            "title": title, **extra}


def _rgb(hex_colour: str) -> tuple[float, float, float]:
    return (int(hex_colour[1:3], 16) / 255, int(hex_colour[3:5], 16) / 255,
            int(hex_colour[5:7], 16) / 255)


def emblem(faction: str) -> str:
    """A faction's mark on its chits: the initials of its name's first two words."""
    return "".join(word[0] for word in faction.split()[:2]).upper()


def unit_faces(system: RuleSystem, cards: Sequence[UnitCard]) -> list[tuple[Face, int]]:
    """A unit card is printed once; a count on it says how many units it stands for."""
    template = system_template(system.id, "unit_card.html")
    return [(Face(template, card, "unit", card.profile.name), 1) for card in cards]


def _back_kind(card: UnitCard) -> str:
    """What a card's back says it is: the quick-reference card is no unit's."""
    return "Rules" if card.is_reference() else "Unit card"


def print_unit_cards(system: RuleSystem, cards: Sequence[UnitCard], options: PrintOptions,
                     title: str, progress: Progress | None = None,
                     brief: bool = False) -> Printed:
    """`brief`: the cards name their rules and upgrades, whose words a quick-reference card
    among `cards` holds (`left_out`)."""
    backs = [Face(["print/back.html"], Back(system.brief_name, _back_kind(c), c.profile.name),
                  "back", c.profile.name) for c in cards]
    return print_faces(unit_faces(system, cards), backs, stock=_stock(options), gutter=GUTTER,
                       options=options, context=_context(system, options, title, brief=brief),
                       title=title, progress=progress)


def left_out(cards: Sequence[UnitCard]) -> tuple[RuleText, ...]:
    """What brief cards name without its words, for the quick-reference card: each special
    rule they print and each upgrade taken that has words of its own (without its price),
    once each, in one list by name."""
    found = {rule.name.casefold(): rule for rule in glossary(cards)}
    for card in cards:
        for upgrade in card.upgrades:
            name = without_price(upgrade.name)
            if upgrade.text:
                found.setdefault(name.casefold(), RuleText(name, upgrade.text))
    return tuple(found[key] for key in sorted(found))


def with_reference(catalog: Catalog, system: RuleSystem, cards: Sequence[UnitCard],
                   brief: bool) -> tuple[tuple[UnitCard, ...], bool]:
    """The cards and, after them, the quick-reference card: the core rules the cards leave
    out, once, and when the cards are `brief` (BRIEF), the words of the rules they name
    (`left_out`). Returns the cards and whether they may be brief (only with a
    quick-reference card to hold those words)."""
    rules = system.cards().core_rules(catalog, cards)
    if brief:
        rules = (*rules, *left_out(cards))
    if not rules:
        return tuple(cards), False
    # the game's short name: a card's subtitle has the room of a line
    return (*cards, reference_card(system.brief_name, rules)), brief


def print_play_cards(system: RuleSystem, deck: CardSet, options: PrintOptions,
                     progress: Progress | None = None) -> Printed:
    template = system_template(system.id, "play_card.html")
    fronts = [(Face(template, card, "play", card.name), card.copies) for card in deck.cards]
    back = Face(["print/back.html"], Back(system.brief_name, deck.title), "back", deck.title)
    context = _context(system, options, deck.title, deck_title=deck.title)
    # a deck card's text is 1.3 times its size (its headline more): the size may go down to
    # the one that keeps that text at the floor, its footer held there on its own (`least_pt`)
    stock = replace(_stock(options), floor_pt=round(FLOOR_PT / PLAY_TEXT_EM, 2),
                    least_pt=FLOOR_PT)
    return print_faces(fronts, [back] * len(fronts), stock=stock, gutter=GUTTER,
                       options=options, context=context, title=f"{system.name}: {deck.title}",
                       progress=progress)


# -- the public entry points ------------------------------------------------------------------


def print_roster(catalog: Catalog, system: RuleSystem, roster: Roster,
                 options: PrintOptions | None = None,
                 progress: Progress | None = None, seal: Seal | None = None) -> Printed:
    """The roster's unit cards, its roster sheet, or both (`options.what`), as one PDF. A
    list sealed for an event (`seal`) always has its sheet, which carries the seal."""
    options = options or PrintOptions()
    if seal is not None and options.what == "cards" and not options.images:
        options = replace(options, what="all")
    parts: list[Printed] = []
    cards_part: Printed | None = None
    if options.what in ("sheet", "all") and not options.images:  # images: the cards alone
        parts.append(print_sheet(catalog, system, roster, options, seal))
    if options.what in ("cards", "all"):
        cards = system.cards().unit_cards(catalog, roster, merge=options.merge)
        if cards:
            cards, brief = with_reference(catalog, system, cards, options.card in BRIEF)
            cards_part = print_unit_cards(system, cards, options, roster.name, progress,
                                          brief=brief)
            parts.append(cards_part)
        elif options.what == "cards" or options.images:
            raise PrintError(f"{roster.name!r} has no units to print: add entries to it")
    if options.images and cards_part is not None:
        return cards_part
    return Printed(concatenate([p.pdf for p in parts], roster.name),
                   faces=sum(p.faces for p in parts), cards=sum(p.cards for p in parts),
                   pages=sum(p.pages for p in parts),
                   refused=tuple(u for p in parts for u in p.refused),
                   longest=cards_part.longest if cards_part else ("", 0.0, 0),
                   laid_out=sum(p.laid_out for p in parts))


def print_deck(catalog: Catalog, system: RuleSystem, options: PrintOptions | None = None,
               progress: Progress | None = None) -> Printed:
    """The system's own card set: Space Empires' action deck, Hammer Wars' 11 unit cards."""
    options = options or PrintOptions()
    deck = system.cards().card_set(catalog)
    if deck is None:
        raise PrintError(f"{system.name} has no card deck to print; print a roster's cards "
                         f"instead (listbuilder print ROSTER.yaml)")
    if deck.units:
        # on mini cards (BRIEF) the set's cards name their rules, which quick-reference cards
        # after them say, with the game's core rules; on the others the set is its cards alone
        units: tuple[UnitCard, ...] = deck.units
        brief = options.card in BRIEF
        if brief:
            units, brief = with_reference(catalog, system, units, brief=True)
        return print_unit_cards(system, units, options, f"{system.name}: {deck.title}",
                                progress, brief=brief)
    return print_play_cards(system, deck, options, progress)


def print_chits(catalog: Catalog, system: RuleSystem, faction: str,
                options: PrintOptions | None = None,
                progress: Progress | None = None) -> Printed:
    """The counters of a faction's chit pile, each as many times as the pile holds it."""
    options = options or PrintOptions()
    known = catalog.faction(faction)
    printed = system.cards()
    chits: tuple[ChitFace, ...] = printed.chits(catalog, known.name) if known else ()
    if not chits:
        with_chits = [f.name for f in catalog.factions if printed.chits(catalog, f.name)]
        if not with_chits:
            raise PrintError(f"{system.name} is not played with chits")
        raise PrintError(f"{faction!r} has no chit pile in {system.name}; factions: "
                         f"{', '.join(with_chits)}")
    faction_name = chits[0].faction
    colour = [f.name for f in catalog.factions].index(faction_name) % len(FACTION_COLOURS)
    template = system_template(system.id, "chit.html")
    fronts = [(Face(template, chit, "chit", chit.name), chit.copies) for chit in chits]
    # a chit is too small for the system's name: its back shows whose pile it belongs to
    back = Face(["print/back.html"], Back("", faction_name, chit=True), "back", faction_name)
    stock = Stock(CHIT[0], CHIT[1], BLEED if options.bleed else 0.0, CHIT_FONT_PT,
                  CHIT_FLOOR_PT, CHIT_FONT_PT)
    title = f"{system.name}: {faction_name} chits"
    return print_faces(fronts, [back] * len(fronts), stock=stock, gutter=CHIT_GUTTER,
                       options=options, title=title, progress=progress,
                       context=_context(system, options, title, faction_colour=colour,
                                        emblem=emblem(faction_name)),
                       back_fill=_rgb(FACTION_COLOURS[colour]), noun="chits",
                       bleed_sheets=True)


# -- whole pages ------------------------------------------------------------------------------

def print_sheet(catalog: Catalog, system: RuleSystem, roster: Roster,
                options: PrintOptions, seal: Seal | None = None) -> Printed:
    sheet = system.cards().roster_sheet(catalog, roster)
    context = _context(system, options, roster.name, sheet=sheet, paper=options.paper,
                       seal=seal)
    width = column_width(options.paper)
    starts = {"core": column_start(sheet.core, width),
              "glossary": column_start(sheet.glossary, width)}
    pdf, pages, refused = render_sheet_document(system_template(system.id, "sheet.html"),
                                                context, starts)
    return Printed(pdf, pages=pages, refused=tuple(refused))


def print_sheets(system: RuleSystem, sealed: Sequence[tuple[Catalog, Roster, Seal | None]],
                 options: PrintOptions | None = None) -> Printed:
    """Many rosters' sheets in one PDF, each starting a page: an event's lists, for its
    organiser (each with its seal)."""
    options = options or PrintOptions()
    if not sealed:
        raise PrintError("there are no lists to print")
    parts = [print_sheet(catalog, system, roster, options, seal)
             for catalog, roster, seal in sealed]
    return Printed(concatenate([p.pdf for p in parts], "Lists"),
                   pages=sum(p.pages for p in parts),
                   refused=tuple(u for p in parts for u in p.refused))


def print_rules(catalog: Catalog, system: RuleSystem,
                options: PrintOptions | None = None) -> Printed:
    """The rules sheet: the text shrinks a step at a time until it fits one page."""
    options = options or PrintOptions()
    if options.images:
        raise PrintError(f"format: the rules sheet is a page, printed as pdf only (not "
                         f"{options.format})")
    context = _context(system, options, f"{system.name}: rules reference", catalog=catalog,
                       paper=options.paper)
    try:
        pdf, pages, size, refused = render_rules_document(
            [f"{system.id}/rules.html"], context, sizes=RULES_PT)
    except TemplateNotFound:
        raise PrintError(f"{system.name} has no rules sheet yet "
                         f"(templates/rules.html in {system.package()})") from None
    return Printed(pdf, pages=pages, refused=tuple(refused),
                   longest=(f"{system.name} rules", size, pages))


# -- one-time set-up --------------------------------------------------------------------------

def _sample_card() -> UnitCard:
    profile = Profile(
        "Sample", "Sample · Infantry", "10 pts per model",
        stats=(Stat("Move", '6"'), Stat("Save", "4+"), Stat("Models", "5")),
        tables=(Table("Weapons", ("Weapon", "Range", "Att"), (("Blade", "Melee", "2"),)),),
        rules=(RuleText("Rule", "What it does."),), keywords=("Infantry",), note="A note.")
    return UnitCard(profile, copies=2, size="5 models", cost="50 pts",
                    upgrades=(RuleText("Upgrade", "What it adds."),),
                    reminders=(RuleText("Save 4+", "(3+ in cover)"),))


def warm_up() -> float:
    """Do the renderer's one-time work now rather than in the first print: parse the
    stylesheets, load the fonts, compile the card templates, let WeasyPrint's C bindings learn
    their types, by printing a sample card with its back and throwing it away (about a quarter
    of a second). `listbuilder serve` calls it at start. Returns the seconds it took."""
    start = time.perf_counter()
    options = PrintOptions(duplex="long", cut_marks=True)
    back = Face(["print/back.html"], Back("Sample", "Unit card", "Sample"), "back", "Sample")
    print_faces([(Face(["print/unit_card.html"], _sample_card(), "unit", "Sample"), 1)],
                [back], stock=_stock(options), gutter=GUTTER, options=options,
                context={"system_id": "sample", "system_name": "Sample", "ink_saver": False,
                         "title": "Sample"}, title="Sample")
    with STYLES.borrow() as styles:
        styles.get(PAGE_CSS)
        styles.get(UA_CSS[PAGE_CSS])
    return time.perf_counter() - start
