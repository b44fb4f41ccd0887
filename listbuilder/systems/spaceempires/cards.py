"""Space Empires on paper: a chit's profile, the counters of a faction's pile (each as many
times as the pile holds it) and the 49-card action deck with each card's effect at a glance
(`SpaceEmpiresCards`, the game's printing hooks)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from listbuilder.engine.cards import CardSet, ChitFace, PlayCard, UnitCard
from listbuilder.engine.model import Roster, RosterEntry
from listbuilder.engine.profile import Profile, RuleText, Stat
from listbuilder.engine.system import Cards, Priced, plural
from listbuilder.systems.spaceempires.limits import CHOICE_DEFAULTS, Empire
from listbuilder.systems.spaceempires.model import ActionCard, Chit, SpaceEmpiresCatalog


def speed_letter(catalog: SpaceEmpiresCatalog, chit: Chit) -> str:
    speed = catalog.speed(chit.speed)
    return speed.letter if speed else chit.speed[:1]


def cost_text(chit: Chit) -> str:
    """What it costs to recruit (a Leader half its Force, the others their Force). The Force
    itself is the card's first stat: said here too, it was printed twice."""
    return f"Costs {chit.cost}" + (" (half its Force)" if chit.is_leader else "")


# the rules of a kind of unit that every card of that kind shares: on the quick-reference card
SPACE_RULES, GROUND_RULES = ("Space Casualties", "Bombardment"), ("Transports",)


def _rules(catalog: SpaceEmpiresCatalog, chit: Chit) -> tuple[RuleText, ...]:
    """The rules that make this unit unlike others of its kind: a Leader's bonus, a
    fortification's (what every space or ground unit shares is in `core_rules`)."""
    names = []
    if chit.is_leader:
        names.append("Leader Bonus")
    if chit.fortification:
        names.append("Fortifications")
    return tuple(RuleText(r.name, r.text) for n in names if (r := catalog.rule(n)) is not None)


def profile(catalog: SpaceEmpiresCatalog, chit: Chit) -> Profile:
    speed = catalog.speed(chit.speed)
    spaces = []
    if speed:
        reach = f"{speed.min_move}-{speed.max_move}" if speed.max_move != speed.min_move else \
            str(speed.max_move)
        spaces.append(Stat("Spaces", reach))
    note = next((f"{n.code}: {n.name}" for n in catalog.notes if n.code == chit.note), "")
    return Profile(
        name=chit.name, subtitle=f"{chit.faction} · {chit.category}", cost=cost_text(chit),
        stats=(Stat("Force", str(chit.force)), Stat("Type", "".join(chit.types)),
               Stat("Speed", chit.speed), *spaces, Stat("In the pile", str(chit.pile))),
        rules=_rules(catalog, chit), keywords=chit.keywords, note=note)


def reminders(catalog: SpaceEmpiresCatalog, chit: Chit) -> tuple[RuleText, ...]:
    """For one line: what its type letters stand for, the Force it bombards with (a space
    unit), and which action cards add to its Force in its battle."""
    from listbuilder.systems.spaceempires.resolve import GROUND, SPACE, card_applies, force_cards

    kinds = _type_names(catalog, chit.types) if chit.types else ""
    # a type the card's keywords already name ("Infantry") is not said a second time
    shown = set(chit.keywords)
    out = [] if kinds and set(kinds.split(" & ")) <= shown else \
        [RuleText(kinds or ("Space unit" if chit.is_space else "Ground unit"), "")]
    if chit.is_space:
        bombard = Fraction(chit.force, catalog.constants.bombard_force_divisor)
        force = str(bombard) if bombard.denominator == 1 else f"{float(bombard):g}"
        out.append(RuleText("Bombards", f"at Force {force}"))
    own = SPACE if chit.is_space else GROUND
    played = [f"{card.name} +{card.bonus}{' each' if card.scope == 'all' else ''}"
              for card in force_cards(catalog) if card_applies(card, chit, own)]
    if played:
        out.append(RuleText("Cards", ", ".join(played)))
    return tuple(out)


def _type_names(catalog: SpaceEmpiresCatalog, letters: tuple[str, ...]) -> str:
    names = {t.letter: t.name for t in catalog.unit_types}
    return " & ".join(names.get(letter, letter) for letter in letters)


def play_card(catalog: SpaceEmpiresCatalog, card: ActionCard) -> PlayCard:
    headline, tag = "", ""
    if card.kind == "move":
        headline, tag = f"Move {plural(card.stacks or 0, 'stack')}", "Move"
    elif card.kind == "force":
        who = _type_names(catalog, card.bonus_types)
        headline, tag = f"+{card.bonus} Force", f"{'One' if card.scope == 'one' else 'All'} " \
                                                f"{who}"
    elif card.kind == "look":
        headline, tag = f"Look at a {card.look_at}", "Intelligence"
    elif card.kind == "upgrade":
        headline, tag = f"Pay {card.cost}", f"{card.upgrade_from} to {card.upgrade_to}"
    elif card.kind == "cancel-move":
        headline, tag = "Cancel a move", "Move"
    return PlayCard(name=card.name, text=card.text, copies=card.count, headline=headline,
                    tag=tag)


class SpaceEmpiresCards(Cards[SpaceEmpiresCatalog, Chit]):
    """Space Empires' printing hooks: a card a kind of chit recruited, the chit piles, the
    action deck, and the roster sheet's recruits, starting draw and empire."""

    sheet_headings = ("Recruited this turn", "Starting draw")

    def entry_card(self, catalog: SpaceEmpiresCatalog, placed: Priced[Chit]) -> UnitCard:
        """A card stands for every chit of the kind recruited."""
        chit = placed.unit
        return UnitCard(profile=profile(catalog, chit), copies=placed.entry.count,
                        reminders=reminders(catalog, chit))

    def core_rules(self, catalog: SpaceEmpiresCatalog,
                   cards: Sequence[UnitCard]) -> tuple[RuleText, ...]:
        """What the cards' type letters stand for, and the rules every space or ground unit
        shares, as far as the cards need them."""
        chits = [c for card in cards if (c := catalog.find_unit(card.profile.name)) is not None]
        letters = dict.fromkeys(t for c in chits for t in c.types)
        names = {t.letter: t.name for t in catalog.unit_types}
        out = []
        if letters:
            out.append(RuleText("Types", ", ".join(f"{t} {names.get(t, t)}" for t in letters)
                                + "; a unit with no letter fights on the ground."))
        out.append(RuleText("Action cards", "A Force card adds its bonus to one unit of a type it "
                                            "names (to each of them when it says each), in the "
                                            "battle it is played in."))
        wanted = [*(SPACE_RULES if any(c.is_space for c in chits) else ()),
                  *(GROUND_RULES if any(not c.is_space for c in chits) else ())]
        out += [RuleText(r.name, r.text) for n in wanted if (r := catalog.rule(n)) is not None]
        return tuple(out)

    def card_set(self, catalog: SpaceEmpiresCatalog) -> CardSet | None:
        deck = catalog.action_deck("Action") or (catalog.decks[0] if catalog.decks else None)
        if deck is None:
            return None
        return CardSet(f"{deck.name} deck", cards=tuple(
            play_card(catalog, c) for c in deck.cards))

    def chits(self, catalog: SpaceEmpiresCatalog, faction: str) -> tuple[ChitFace, ...]:
        return tuple(
            ChitFace(name=c.name, force=str(c.force), types="".join(c.types),
                     speed=speed_letter(catalog, c), copies=c.pile, faction=c.faction or "",
                     note=c.note or "", leader=c.is_leader)
            for c in catalog.pile(faction))

    def sheet_track(self, catalog: SpaceEmpiresCatalog, unit: Chit,
                    entry: RosterEntry) -> tuple[tuple[int, ...], str]:
        """A box a chit: a chit is lost whole."""
        return (1,) * entry.count, "lost"

    def sheet_choices(self, catalog: SpaceEmpiresCatalog,
                      roster: Roster) -> tuple[RuleText, ...]:
        """The roster sheet's lines on the empire's choices: what its seed is for, and what it
        holds (two lines, so the sheet keeps to one page)."""
        seed = roster.choices.get("seed")
        k = catalog.constants
        drawn = f"{k.setup_space_units} space and {k.setup_ground_units} ground units"
        if seed is None:
            out = [RuleText("No seed yet", f"a seed picks the {drawn} of the starting draw")]
        else:
            listed = " (listed below)" if Empire.of(catalog, roster).draw(catalog) else ""
            out = [RuleText(f"Seed {seed}", f"picks the {drawn} of the starting draw{listed}; "
                                            f"the same seed always draws the same units")]
        held = {key: roster.choices.get(key, CHOICE_DEFAULTS[key])
                for key in ("poor_planets", "rich_planets", "homeworlds", "treasury")}

        def count(key: str, one: str, many: str) -> str:
            return f"{held[key]} {one if held[key] == 1 else many}"

        out.append(RuleText("Holds", f"{count('poor_planets', 'Poor planet', 'Poor planets')}, "
                                     f"{count('rich_planets', 'Rich planet', 'Rich planets')}, "
                                     f"{count('homeworlds', 'Homeworld', 'Homeworlds')}; "
                                     f"{held['treasury']} revenue saved in the treasury"))
        return tuple(out)
