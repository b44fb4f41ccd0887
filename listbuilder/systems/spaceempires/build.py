"""The Space Empires catalog built from the checked files, with the cross-file checks (unknown
letters, speeds, notes, factions; repeated names; missing constants)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from listbuilder.engine.errors import Loc, Problems
from listbuilder.engine.merge import items, single, unique
from listbuilder.engine.model import Faction, Origin, SpecialRule
from listbuilder.engine.system import RuleSystem, SourceFile
from listbuilder.systems.spaceempires.model import (
    PLANET_CHOICES,
    Abbreviation,
    ActionCard,
    ActionDeck,
    Chit,
    Constants,
    Docs,
    Phase,
    PlanetKind,
    SpaceEmpiresCatalog,
    Speed,
    UnitNote,
    UnitType,
)
from listbuilder.systems.spaceempires.schema import (
    CardModel,
    SpaceEmpiresFile,
    UnitModel,
)


def _check_letters(problems: Problems, origin: Origin, loc: Loc, letters: Iterable[str],
                   known: set[str]) -> None:
    for j, letter in enumerate(letters):
        if letter not in known:
            problems.add(origin, (*loc, j), f"unknown unit type {letter!r}; known: "
                                            f"{', '.join(sorted(known))}")


def _check_card(problems: Problems, origin: Origin, loc: Loc, card: CardModel,
                letters: set[str], planets: set[str]) -> None:
    needs: dict[str, tuple[str, ...]] = {
        "move": ("stacks",), "force": ("bonus", "scope"), "look": ("look_at",),
        "upgrade": ("cost", "upgrade_from", "upgrade_to"), "cancel-move": ()}
    for key in needs[card.kind]:
        if getattr(card, key) is None:
            problems.add(origin, loc, f"a {card.kind} card needs {key}: add it")
    if card.kind == "force" and not card.bonus_types:
        problems.add(origin, loc, "a force card needs bonus_types: add the unit type letters")
    _check_letters(problems, origin, (*loc, "bonus_types"), card.bonus_types, letters)
    for key in ("upgrade_from", "upgrade_to"):
        value = getattr(card, key)
        if value is not None and value.casefold() not in planets:
            problems.add(origin, (*loc, key), f"unknown planet kind {value!r}")


def _check_unit(problems: Problems, origin: Origin, i: int, unit: UnitModel,
                known: Mapping[str, set[str]]) -> None:
    if unit.faction.casefold() not in known["factions"]:
        problems.add(origin, ("units", i, "faction"), f"unknown faction {unit.faction!r}: add it "
                                                      f"under factions or fix the name")
    if unit.speed.casefold() not in known["speeds"]:
        problems.add(origin, ("units", i, "speed"), f"unknown speed {unit.speed!r}; known: "
                                                    f"{', '.join(sorted(known['speeds']))}")
    if unit.note is not None and unit.note.casefold() not in known["notes"]:
        problems.add(origin, ("units", i, "note"), f"unknown note {unit.note!r}: add it "
                                                   f"under notes or fix the code")
    _check_letters(problems, origin, ("units", i, "types"), unit.types, known["letters"])


def _check_units_and_cards(problems: Problems, docs: Docs, known: Mapping[str, set[str]],
                           planets: set[str]) -> None:
    seen: dict[tuple[str, str], str] = {}
    for origin, doc in docs:
        for i, unit in enumerate(doc.units):
            key = (unit.faction.casefold(), unit.name.casefold())
            if key in seen:
                problems.add(origin, ("units", i, "name"), f"{unit.name!r} is already in "
                             f"{unit.faction} (from {seen[key]}): rename it")
            seen[key] = origin.file
            _check_unit(problems, origin, i, unit, known)
        for d, deck in enumerate(doc.decks):
            names: set[str] = set()
            for c, card in enumerate(deck.cards):
                loc = ("decks", d, "cards", c)
                if card.name.casefold() in names:
                    problems.add(origin, (*loc, "name"), f"card {card.name!r} is listed twice "
                                                         f"in {deck.name}: give one count")
                names.add(card.name.casefold())
                _check_card(problems, origin, loc, card, known["letters"], planets)


def build_catalog(system: RuleSystem[Any, Any], files: Sequence[SourceFile],
                  revision: str) -> SpaceEmpiresCatalog:
    """The catalog the files make (`RuleSystem.build_catalog`), every problem reported at once."""
    problems = Problems()
    docs = [(f.origin, f.data) for f in files if isinstance(f.data, SpaceEmpiresFile)]
    found = single(problems, docs, "constants")
    constants = Constants.from_schema(found[1]) if found else None
    types = unique(problems, items(docs, "unit_types"), "unit_types", field="letter",
                   what="unit type")
    speeds = unique(problems, items(docs, "speeds"), "speeds", what="speed")
    planets = unique(problems, items(docs, "planets"), "planets", what="planet kind")
    notes = unique(problems, items(docs, "notes"), "notes", field="code", what="note")
    factions = unique(problems, items(docs, "factions"), "factions", what="faction")
    phases = unique(problems, items(docs, "phases"), "phases", what="phase")
    rules = unique(problems, items(docs, "rules"), "rules", what="rule")
    decks = unique(problems, items(docs, "decks"), "decks", what="deck")
    planet_names = {p.name.casefold() for _, _, p in planets}
    for _, kind in PLANET_CHOICES:
        if kind.casefold() not in planet_names:
            problems.add(docs[0][0] if docs else Origin(), ("planets",),
                         f"planet kind {kind!r} is missing: the roster choices count it")
    known = {"factions": {f.name.casefold() for _, _, f in factions},
             "speeds": {s.name.casefold() for _, _, s in speeds},
             "notes": {n.code.casefold() for _, _, n in notes},
             "letters": {t.letter for _, _, t in types}}
    _check_units_and_cards(problems, docs, known, planet_names)
    if constants is not None and constants.transport_speed.casefold() not in known["speeds"]:
        origin = next(o for o, d in docs if d.constants is not None)
        problems.add(origin, ("constants", "transport_speed"),
                     f"unknown speed {constants.transport_speed!r}: name one of the speeds")
    problems.raise_if_any()
    assert constants is not None  # raise_if_any has reported its absence
    type_names = {t.letter: t.name for _, _, t in types}
    return SpaceEmpiresCatalog(
        system=system.id, revision=revision,
        factions=tuple(Faction(name=f.name, text=f.text, origin=o) for o, _, f in factions),
        units=tuple(Chit.from_schema(u, o, constants.leader_cost_divisor, type_names)
                    for o, d in docs for u in d.units),
        rules=tuple(SpecialRule(name=r.name, text=r.text, origin=o) for o, _, r in rules),
        decks=tuple(ActionDeck(name=d.name, origin=o,
                               cards=tuple(ActionCard.from_schema(c) for c in d.cards))
                    for o, _, d in decks),
        unit_types=tuple(UnitType(letter=t.letter, name=t.name, text=t.text, origin=o)
                         for o, _, t in types),
        speeds=tuple(Speed(name=s.name, letter=s.letter, min_move=s.min_move,
                           max_move=s.max_move, origin=o) for o, _, s in speeds),
        planets=tuple(PlanetKind(name=p.name, revenue=p.revenue, recruit_limit=p.recruit_limit,
                                 recruits_space=p.recruits_space, origin=o) for o, _, p in planets),
        phases=tuple(Phase(name=p.name, text=p.text, origin=o) for o, _, p in phases),
        abbreviations=tuple(Abbreviation(code=a.code, meaning=a.meaning, origin=o)
                            for o, d in docs for a in d.abbreviations),
        notes=tuple(UnitNote(code=n.code, name=n.name, faction=n.faction, origin=o)
                    for o, _, n in notes),
        constants=constants,
    )

