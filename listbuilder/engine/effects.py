"""What an upgrade does to the unit as fielded, as data, and the unit that results.

An upgrade keeps its `text` for the card; its `effects` are what the engine applies. Each
effect is one small YAML mapping, the same in every system that has upgrades:

    {set: save, to: 2}                       a stat becomes a value
    {change: morale, by: 1}                  a stat goes up or down
    {add: Frag Grenade}                      every model gains a weapon ({models: 1}: one)
    {replace: Slugga, with: Shoota}          every model that carries one swaps it
    {replace: Choppa, with: Power Klaw, models: 1}
    {replace: [Slugga, Shoota], with: Rokkit Launcha, models: 1}   the first still carried
    {remove: Autocannon}                     the weapon goes (from every model, or `models`)
    {weapon: Boar Spear, set: ap, to: -2}    one of a weapon's own stats becomes a value
    {rule: Stubborn}                         the unit gains a special rule
    {keyword: Flying}                        the unit gains a keyword
    {models: 1}                              the unit fields that many models more (or fewer);
                                             they carry only what a later effect gives them

`field` applies an entry's upgrades, in the order the datasheet lists them, to give its
fielded profile: the stats after upgrades, each weapon with how many models carry it, and the
rules and keywords gained. Which stats and weapons exist is the system's business: it checks
each effect's names when the data is loaded (`check`), so a typo is an error naming the file,
the line and the fix, never an upgrade that silently does nothing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Generic, Literal, Protocol, TypeVar

from pydantic import Discriminator, Field, Tag

from listbuilder.engine.errors import closest
from listbuilder.engine.schema import Name, Schema, in_range

Models = Annotated[int, in_range(1, 10_000)] | Literal["all"]


class SetStatModel(Schema):
    set: Name
    to: int


class ChangeStatModel(Schema):
    change: Name
    by: Annotated[int, in_range(-100, 100)]


class AddWeaponModel(Schema):
    add: Name
    models: Models = "all"


class ReplaceWeaponModel(Schema):
    replace: Name | list[Name]  # several: the first one the models still carry
    with_: Name = Field(alias="with")
    models: Models = "all"

    @property
    def replaced(self) -> tuple[str, ...]:
        return (self.replace,) if isinstance(self.replace, str) else tuple(self.replace)



class RemoveWeaponModel(Schema):
    remove: Name
    models: Models = "all"


class SetWeaponStatModel(Schema):
    weapon: Name
    set: Name
    to: int


class AddRuleModel(Schema):
    rule: Name


class AddKeywordModel(Schema):
    keyword: Name


class ChangeModelsModel(Schema):
    models: Annotated[int, in_range(-10_000, 10_000)]


# What each shape is told apart by: the key only it has (`set` with `weapon` is a weapon's).
_KINDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("weapon", ("weapon",)), ("set", ("set",)), ("change", ("change",)), ("add", ("add",)),
    ("replace", ("replace",)), ("remove", ("remove",)), ("rule", ("rule",)),
    ("keyword", ("keyword",)), ("models", ("models",)))
KINDS_TEXT = "set, change, add, replace, remove, weapon, rule, keyword or models"
# An upgrade's `effects` as the studio's form asks for them (the schema's description)
EFFECTS_HINT = ("what the upgrade does, as YAML: [{set: save, to: 3}] or [{add: Grenade}] "
                "(Upgrades in docs/roster-format.md)")


def _kind(value: Any) -> str | None:
    if not isinstance(value, Mapping):
        return None
    return next((kind for kind, keys in _KINDS if all(k in value for k in keys)), None)


EffectModel = Annotated[
    Annotated[SetWeaponStatModel, Tag("weapon")] | Annotated[SetStatModel, Tag("set")]
    | Annotated[ChangeStatModel, Tag("change")] | Annotated[AddWeaponModel, Tag("add")]
    | Annotated[ReplaceWeaponModel, Tag("replace")] | Annotated[RemoveWeaponModel, Tag("remove")]
    | Annotated[AddRuleModel, Tag("rule")] | Annotated[AddKeywordModel, Tag("keyword")]
    | Annotated[ChangeModelsModel, Tag("models")],
    Discriminator(_kind, custom_error_type="effect_kind",
                  custom_error_message=f"an effect starts with one of {KINDS_TEXT} "
                                       "(see docs/roster-format.md, Upgrades)"),
]


# -- checked when the data is loaded ----------------------------------------------------------

class HasName(Protocol):
    @property
    def name(self) -> str: ...


def check(effects: Sequence[EffectModel], stats: Iterable[str], weapons: Iterable[str],
          weapon_stats: Iterable[str] = (), define: str = "define it under weapons",
          rules: Iterable[str] | None = None) -> list[tuple[tuple[str | int, ...], str]]:
    """Each effect naming a stat or weapon the unit doesn't have: (where in the effect, what
    is wrong and the fix). `weapons` are those an effect may name: the unit's own and those
    it may be given (`define` says where a new one goes); `rules`, when given, the special
    rules an effect may grant."""
    stats, weapons, weapon_stats = list(stats), list(weapons), list(weapon_stats)
    folded = {w.casefold() for w in weapons}
    out: list[tuple[tuple[str | int, ...], str]] = []

    def stat(i: int, key: str, name: str, known: list[str], what: str) -> None:
        if name not in known:
            out.append(((i, key), f"unknown {what} {name!r}{closest(name, known)}: use one of "
                                  f"{', '.join(known) or 'none (this system has none)'}"))

    def weapon(i: int, key: str, name: str) -> None:
        if name.casefold() not in folded:
            out.append(((i, key), f"unknown weapon {name!r}{closest(name, weapons)}: name "
                                  f"one of the unit's weapons, or {define}"))

    for i, effect in enumerate(effects):
        match effect:
            case SetStatModel():
                stat(i, "set", effect.set, stats, "stat")
            case ChangeStatModel():
                stat(i, "change", effect.change, stats, "stat")
            case AddWeaponModel():
                weapon(i, "add", effect.add)
            case RemoveWeaponModel():
                weapon(i, "remove", effect.remove)
            case ReplaceWeaponModel():
                for name in effect.replaced:
                    weapon(i, "replace", name)
                weapon(i, "with", effect.with_)
            case SetWeaponStatModel():
                weapon(i, "weapon", effect.weapon)
                stat(i, "set", effect.set, weapon_stats, "weapon stat")
            case AddRuleModel() if rules is not None:
                known = list(rules)
                if effect.rule.casefold() not in {r.casefold() for r in known}:
                    out.append(((i, "rule"), f"unknown rule {effect.rule!r}"
                                             f"{closest(effect.rule, known)}: define it with the "
                                             f"other rules, or name the upgrade itself"))
    return out


# -- what the engine applies (built from the checked YAML) -----------------------------------

AllModels = Literal["all"]


@dataclass(frozen=True)
class SetStat:
    stat: str
    to: int


@dataclass(frozen=True)
class ChangeStat:
    stat: str
    by: int


@dataclass(frozen=True)
class AddWeapon:
    weapon: str
    models: int | AllModels = "all"


@dataclass(frozen=True)
class ReplaceWeapon:
    replaced: tuple[str, ...]  # the first one the models still carry
    weapon: str
    models: int | AllModels = "all"


@dataclass(frozen=True)
class RemoveWeapon:
    weapon: str
    models: int | AllModels = "all"


@dataclass(frozen=True)
class SetWeaponStat:
    weapon: str
    stat: str
    to: int


@dataclass(frozen=True)
class AddRule:
    rule: str


@dataclass(frozen=True)
class AddKeyword:
    keyword: str


@dataclass(frozen=True)
class ChangeModels:
    by: int


Effect = (SetStat | ChangeStat | AddWeapon | ReplaceWeapon | RemoveWeapon | SetWeaponStat
          | AddRule | AddKeyword | ChangeModels)


def shown_on_card(effects: Sequence[Effect]) -> bool:
    """Whether a card shows all that these effects do (stats, weapons, keywords, models are
    printed as fielded), so an upgrade with them needs no words there; a rule gained, or an
    upgrade with no effects at all (free text), still does."""
    return bool(effects) and not any(isinstance(e, AddRule) for e in effects)


def effect_of(model: EffectModel) -> Effect:
    """The effect a checked YAML mapping describes."""
    match model:
        case SetStatModel():
            return SetStat(model.set, model.to)
        case ChangeStatModel():
            return ChangeStat(model.change, model.by)
        case AddWeaponModel():
            return AddWeapon(model.add, model.models)
        case ReplaceWeaponModel():
            return ReplaceWeapon(model.replaced, model.with_, model.models)
        case RemoveWeaponModel():
            return RemoveWeapon(model.remove, model.models)
        case SetWeaponStatModel():
            return SetWeaponStat(model.weapon, model.set, model.to)
        case AddRuleModel():
            return AddRule(model.rule)
        case AddKeywordModel():
            return AddKeyword(model.keyword)
        case ChangeModelsModel():
            return ChangeModels(model.models)
    raise TypeError(model)


# -- the unit as fielded ----------------------------------------------------------------------

U = TypeVar("U")
W = TypeVar("W", bound=HasName)


@dataclass(frozen=True)
class Carried(Generic[W]):
    """A weapon and how many of the unit's models carry it."""

    weapon: W
    models: int

    @property
    def text(self) -> str:
        return f"{self.models}x {self.weapon.name}"


@dataclass(frozen=True)
class Fielded(Generic[U, W]):
    """An entry's unit after its upgrades."""

    unit: U  # the datasheet with its stats after upgrades
    models: int
    weapons: tuple[Carried[W], ...]
    stats: tuple[tuple[str, int], ...] = ()  # the stats upgrades may change, after them
    rules: tuple[str, ...] = ()  # special rules gained
    keywords: tuple[str, ...] = ()  # keywords gained
    upgrades: tuple[str, ...] = ()  # those taken, in the datasheet's order

    @property
    def weapons_text(self) -> str:
        """"14x Shoota, 1x Power Klaw": what the models carry, as a card or a chat shows it."""
        return ", ".join(c.text for c in self.weapons)

    def to_json(self) -> dict[str, object]:
        """What `validate --json` gives of each entry."""
        return {"unit": getattr(self.unit, "name", str(self.unit)), "models": self.models,
                "stats": dict(self.stats),
                "weapons": [{"name": c.weapon.name, "models": c.models} for c in self.weapons],
                "rules_gained": list(self.rules), "keywords_gained": list(self.keywords),
                "upgrades": list(self.upgrades)}


class Upgraded(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def effects(self) -> tuple[Effect, ...]: ...


def field(unit: U, models: int, weapons: Sequence[W], upgrades: Sequence[Upgraded],
          find_weapon: Callable[[str], W | None], stat_names: Sequence[str] = ()
          ) -> Fielded[U, W]:
    """`unit` fielded with `models` models, each carrying `weapons`, after `upgrades` (taken
    in this order). `find_weapon` gives a weapon an effect names (checked at load time, so a
    name it can't find is a bug in the data's checks and raises); `stat_names` are the stats
    to list (the unit's fields effects may change)."""
    carried: list[list[Any]] = [[w, models] for w in weapons]
    stats: dict[str, int] = {}
    rules: list[str] = []
    keywords: list[str] = []
    extra = 0

    def weapon_named(name: str) -> W:
        found = next((c[0] for c in carried if c[0].name.casefold() == name.casefold()), None)
        found = found or find_weapon(name)
        if found is None:
            raise LookupError(f"no weapon {name!r} for {getattr(unit, 'name', unit)!r}")
        return found

    def give(weapon: W, n: int, at: int | None = None) -> None:
        """`n` more models carry `weapon`: listed where it already is, else after the row
        at `at` (the weapon it replaces), or in its place when none carry that any more."""
        if n <= 0:
            return
        for c in carried:
            if c[0] == weapon:
                c[1] += n
                return
        if at is None:
            carried.append([weapon, n])
        else:
            carried.insert(at + 1 if carried[at][1] else at, [weapon, n])

    def take(names: Sequence[str], wanted: int | Literal["all"]) -> tuple[int, int | None]:
        """Take the weapons named from `wanted` models (every one that carries them), the
        first name first: how many were taken, and where the first of them was listed."""
        taken, first = 0, None
        for name in names:
            for i, c in enumerate(carried):
                if c[0].name.casefold() == name.casefold() and c[1] > 0:
                    n = c[1] if wanted == "all" else min(wanted - taken, c[1])
                    c[1] -= n
                    taken += n
                    first = i if first is None and n else first
            if wanted != "all" and taken >= wanted:
                break
        return taken, first

    for upgrade in upgrades:
        for effect in upgrade.effects:
            match effect:
                case SetStat():
                    stats[effect.stat] = effect.to
                case ChangeStat():
                    stats[effect.stat] = stats.get(
                        effect.stat, getattr(unit, effect.stat)) + effect.by
                case AddWeapon():
                    # an explicit number may pass the models: a vehicle's two sponsons
                    give(weapon_named(effect.weapon),
                         models + extra if effect.models == "all" else effect.models)
                case ReplaceWeapon():
                    new = weapon_named(effect.weapon)
                    give(new, *take(effect.replaced, effect.models))
                case RemoveWeapon():
                    take((effect.weapon,), effect.models)
                case SetWeaponStat():
                    old = weapon_named(effect.weapon)
                    new = dataclasses.replace(old, **{effect.stat: effect.to})  # type: ignore[type-var]
                    for c in carried:
                        if c[0] == old:
                            c[0] = new
                case AddRule():
                    rules.append(effect.rule)
                case AddKeyword():
                    keywords.append(effect.keyword)
                case ChangeModels():
                    extra += effect.by
    changes: dict[str, object] = dict(stats)
    # the unit as fielded has the rules and keywords it gained, so what reads a unit's rules
    # (quick-resolve's Stealthy or Furious, a card's rule list) sees them too
    for attr, gained in (("special_rules", rules), ("keywords", keywords)):
        had = getattr(unit, attr, None)
        if had is not None and gained:
            changes[attr] = tuple(dict.fromkeys((*had, *gained)))
    fielded_unit = dataclasses.replace(unit, **changes) if changes else unit  # type: ignore[type-var]
    return Fielded(fielded_unit, max(1, models + extra),
                   tuple(Carried(w, n) for w, n in carried if n > 0),
                   tuple((s, getattr(fielded_unit, s)) for s in stat_names),
                   tuple(rules), tuple(keywords), tuple(u.name for u in upgrades))

