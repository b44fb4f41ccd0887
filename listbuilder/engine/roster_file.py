"""Roster files: YAML a player keeps and shares. Read with line-numbered errors, written
deterministically (export, import, export again gives the same bytes).

The format is documented in docs/roster-format.md; `RosterModel` is its schema, and
docs/roster.schema.json is generated from it (`listbuilder schema`).
"""

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import MappingProxyType
from typing import Annotated, Any, Literal

import yaml
from pydantic import Field, StringConstraints, TypeAdapter, ValidationError

from listbuilder.engine.catalog import Locator, parse_yaml, schema_errors
from listbuilder.engine.errors import DataError, DataLoadError, Loc, closest
from listbuilder.engine.model import Catalog, PackUse, Roster, RosterEntry, UnitDesign
from listbuilder.engine.packs import MAX_PACK_BYTES, MAX_PACKS, pack_file_name, pack_revision
from listbuilder.engine.roster_words import describe_roster_error
from listbuilder.engine.schema import Count, Label, Name, Points, Schema, in_range
from listbuilder.engine.system import Priced, RuleSystem
from listbuilder.engine.yaml_limits import ROSTER

FORMAT_VERSION = 1
# a roster's own keys, and the faction packs it carries whole
MAX_ROSTER_BYTES = 256 * 1024 + MAX_PACKS * MAX_PACK_BYTES
MAX_PROBLEMS = 50  # problems listed for one file
# A choice's value and a design's quality: anything the reading limits let through, and no
# more, so that a roster the reader accepts is within those limits without being parsed
# (read_roster_data).
Whole = Annotated[int, in_range(-(10**ROSTER.digits - 1), 10**ROSTER.digits - 1)]
Words = Annotated[str, StringConstraints(max_length=ROSTER.text)]
MAX_LINK = 300
# A pack's link: its share link from a faction studio, `/studio/s/<share>` or a whole http(s)
# address with that path (what a studio writes). Nothing else: the packs page showed any text
# here as "the pack's page", a `javascript:` address or another site's page included. The
# host is not kept for showing (pack_share): the page links to this server's own page.
PACK_LINK = re.compile(r"(?:(?i:https?)://[^/?#@\\\s]+)?/studio/s/([A-Za-z0-9_-]{1,100})")


class EntryModel(Schema):
    unit: Name = Field(description="Unit name exactly as in the catalog (or a design's name)")
    count: Count = Field(1, description="Models in the unit, or copies: see the system's notes")
    upgrades: list[Name] = Field(default_factory=list, max_length=50)
    faction: Name | None = Field(None, description="Only when two factions share the unit name")
    label: Label | None = Field(None, description="A handle other entries can refer to")
    joins: Label | None = Field(None, description="Label of the entry this one joins")
    pts: Points | None = Field(None, description="Cost when saved; informational")


class DesignModel(Schema):
    name: Name
    quality: Whole
    rules: list[Name] = Field(default_factory=list, max_length=40)


class PackModel(Schema):
    name: Name
    revision: str | None = Field(None, max_length=64, description="Written on export")
    link: str | None = Field(None, max_length=MAX_LINK, description="The pack's share link")
    text: str = Field(max_length=MAX_PACK_BYTES,
                      description="The pack: a data file of the roster's game")


class RosterModel(Schema):
    """A roster file. Unknown keys are errors."""

    format: Literal[1] = Field(description="Roster format version")
    system: Name = Field(description="System id, as `listbuilder systems` prints it")
    data_revision: str | None = Field(None, max_length=64)
    name: Name
    points_limit: Points | None = None
    factions: list[Name] = Field(default_factory=list, max_length=20)
    choices: dict[Name, Whole | Words] = Field(default_factory=dict, max_length=20)
    designs: list[DesignModel] = Field(default_factory=list, max_length=200)
    entries: list[EntryModel] = Field(default_factory=list, max_length=500)
    packs: list[PackModel] = Field(default_factory=list, max_length=MAX_PACKS,
                                   description="Faction packs the roster builds with")


# How a reader builds a system's catalog with a roster's packs: DataLoadError naming the
# pack's own file and line when one does not load (Library.catalog_with_packs).
PacksFor = Callable[[RuleSystem, Sequence[PackUse]], Catalog]


class RosterFileError(DataLoadError):
    """The file can't be read as a roster; `errors` says where and how to fix each problem."""


def pack_share(link: str) -> str | None:
    """The share token of a pack's link of our own shape (PACK_LINK), else None."""
    found = PACK_LINK.fullmatch(link)
    return found[1] if found else None


def checked_link(link: str | None) -> str:
    """A pack's link if it has our own shape, else none: what the roster keeps, so that no
    other text reaches a page (a roster stored before links were checked included)."""
    return link if link and pack_share(link) is not None else ""


@dataclass(frozen=True)
class LoadedRoster:
    roster: Roster
    system: RuleSystem
    catalog: Catalog
    where: Callable[[Loc], int | None] = field(repr=False, compare=False)  # a key's line

    @cached_property
    def lines(self) -> tuple[int | None, ...]:
        """The source line of each entry, for messages: worked out when first asked (the
        text is parsed once more for it, and a save reading its own text back never asks)."""
        return tuple(self.where(("entries", i)) for i in range(len(self.roster.entries)))




def roster_text(raw: bytes, file: str) -> str:
    """The text of a roster file's bytes, refused (RosterFileError) when it is too large or
    not UTF-8. `raw` may be cut at MAX_ROSTER_BYTES + 1: anything longer is refused."""
    if len(raw) > MAX_ROSTER_BYTES:
        raise RosterFileError([DataError(file, (), f"the file is larger than "
                                                   f"{MAX_ROSTER_BYTES // 1024} KB: is it a "
                                                   f"roster?")])
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RosterFileError([DataError(file, (), "not UTF-8 text: is it a roster file "
                                                   "(.yaml)? Save it as UTF-8")]) from None


def read_roster_bytes(path: Path) -> bytes:
    """A file's first MAX_ROSTER_BYTES + 1 bytes: enough to tell a roster from anything
    larger, without reading a huge file (or an endless one) whole."""
    try:
        with path.open("rb") as f:
            return f.read(MAX_ROSTER_BYTES + 1)
    except OSError as exc:
        raise RosterFileError([DataError(str(path), (), f"cannot read the file: "
                                                        f"{exc.strerror or exc}")]) from None


def read_roster(
    text: str,
    file: str,
    find_system: Callable[[str], RuleSystem],
    systems: Sequence[str],
    catalog_for: Callable[[RuleSystem], Catalog],
    packs_for: PacksFor | None = None,
) -> LoadedRoster:
    """Parse, schema-check and resolve a roster file against its system's catalog (with the
    roster's own faction packs built in, by `packs_for`)."""
    roster_text(text.encode("utf-8", "surrogatepass"), file)  # the same size check
    try:
        data = parse_yaml(text, file, ROSTER)
    except DataLoadError as exc:
        raise RosterFileError(exc.errors) from exc
    return read_roster_data(data, text, file, find_system, systems, catalog_for, packs_for)


def read_roster_data(
    data: Any,
    text: str,
    file: str,
    find_system: Callable[[str], RuleSystem],
    systems: Sequence[str],
    catalog_for: Callable[[RuleSystem], Catalog],
    packs_for: PacksFor | None = None,
) -> LoadedRoster:
    """`read_roster` after the YAML is parsed: `data` is what `text` reads as (problems name
    their lines in `text`). Saving a roster checks `roster_to_data` through here, the data its
    file is written from, without parsing the file back: `dump_roster_data`'s text reads as
    its data (pinned by test_written_files_read_back_as_their_data), and a roster the schema
    accepts is within the reading limits (test_the_largest_roster_is_within_the_limits)."""
    if not isinstance(data, dict):
        raise RosterFileError([DataError(file, (), "a roster is a mapping with keys such as "
                                                   "format, system, name and entries", 1)])
    where = Locator(text)
    pack_errors: list[DataError] = []
    catalog_for = _with_packs(data, file, where, catalog_for, packs_for, pack_errors)
    link_errors = _link_problems(data, file, where)
    try:
        model = RosterModel.model_validate(data)
    except ValidationError as exc:
        # every problem at once: what the schema refuses, and the names in the parts it
        # accepts (a misspelt unit beside a `count: lots`), in the order of the file
        errors = schema_errors(exc, text, file, describe=describe_roster_error)
        readable = _Readable.of_broken(data)
        if readable is not None:
            names = _name_problems(readable, file, where, find_system, systems, catalog_for)[0]
            # without its packs, the roster's names can't be checked: the pack is the problem
            errors += pack_errors or names
        errors += link_errors
        errors.sort(key=lambda e: e.line if e.line is not None else 1 << 30)
        raise RosterFileError(_at_most(errors, file)) from exc

    readable = _Readable.of_model(model)
    errors, found = _name_problems(readable, file, where, find_system, systems, catalog_for)
    if pack_errors:
        errors = pack_errors
    if link_errors:
        errors = sorted([*errors, *link_errors],
                        key=lambda e: e.line if e.line is not None else 1 << 30)
    if errors or found is None:
        raise RosterFileError(_at_most(errors, file))
    system, catalog = found
    return LoadedRoster(readable.roster, system, catalog, where)


def _with_packs(data: dict[Any, Any], file: str, where: Locator,
                catalog_for: Callable[[RuleSystem], Catalog], packs_for: PacksFor | None,
                errors: list[DataError]) -> Callable[[RuleSystem], Catalog]:
    """How names are looked up when the roster carries faction packs: in the catalog with
    its packs built in. A pack that does not load is a problem of the roster (appended to
    `errors`, naming the pack's own line), and names are then looked up without packs."""
    raw = data.get("packs")
    if not isinstance(raw, list) or not raw or packs_for is None:
        return catalog_for
    uses = [_pack_use(item) for item in raw]
    if any(use is None for use in uses):
        return catalog_for  # the schema says what is wrong with it

    def lookup(system: RuleSystem) -> Catalog:
        try:
            return packs_for(system, [u for u in uses if u is not None])
        except DataLoadError as exc:
            names = [u.name for u in uses if u is not None]
            for problem in exc.errors[:MAX_PROBLEMS]:
                i = next((i for i, n in enumerate(names) if problem.file == pack_file_name(n)), 0)
                loc: Loc = ("packs", i, "text")
                errors.append(DataError(file, loc, f"the pack {names[i]!r} does not load: "
                                                   f"{problem}", where(loc)))
            return catalog_for(system)
    return lookup


def _pack_use(raw: Any) -> PackUse | None:
    try:
        model = PackModel.model_validate(raw)
    except ValidationError:
        return None
    return PackUse(name=model.name, text=model.text, link=checked_link(model.link))


def _link_problems(data: dict[Any, Any], file: str, where: Locator) -> list[DataError]:
    """Each pack's link that is not a pack's share link (PACK_LINK), with what to write.
    (A link that is not text, or too long, is the schema's to name.)"""
    raw = data.get("packs")
    out = []
    for i, item in enumerate(raw if isinstance(raw, list) else []):
        link = item.get("link") if isinstance(item, dict) else None
        if not isinstance(link, str) or not link or len(link) > MAX_LINK or pack_share(link):
            continue
        loc: Loc = ("packs", i, "link")
        shown = link if len(link) <= 60 else link[:60] + "…"
        out.append(DataError(file, loc, f"found {shown!r}, which is not a pack's share link: "
                                        f"write the share link from the pack's page in the "
                                        f"faction studio (`link: https://<site>/studio/s/"
                                        f"<share>`, or `link: /studio/s/<share>`), or delete "
                                        f"the line", where(loc)))
    return out


@dataclass(frozen=True)
class _Readable:
    """What of a roster file can be checked against its catalog: a whole file the schema
    accepted, or of a file it refused the parts it accepts each alone (so their names are
    checked too). `places` maps a list's position here to its index in the file."""

    system: str
    roster: Roster
    choices: Mapping[str, int | str]
    places: Mapping[str, tuple[int, ...]]  # "factions", "designs", "entries"
    labels: tuple[str, ...] | None  # the entries' labels; None: not checked (a broken file)

    @classmethod
    def of_model(cls, model: RosterModel) -> "_Readable":
        roster = to_roster(model)
        return cls(model.system, roster, model.choices,
                   {"factions": tuple(range(len(roster.factions))),
                    "designs": tuple(range(len(roster.designs))),
                    "entries": tuple(range(len(roster.entries)))},
                   tuple(e.label for e in model.entries if e.label))

    @classmethod
    def of_broken(cls, data: dict[Any, Any]) -> "_Readable | None":
        system = data.get("system")
        if not isinstance(system, str) or not system.strip():
            return None  # the schema says so; nothing to check names against

        def items(key: str) -> list[tuple[int, Any]]:
            found = data.get(key)
            return list(enumerate(found)) if isinstance(found, list) else []

        factions = [(i, f) for i, raw in items("factions") if (f := _name(raw)) is not None]
        designs = [(i, d) for i, raw in items("designs")
                   if (d := _part(DesignModel, raw)) is not None]
        entries = [(i, e) for i, raw in items("entries") if (e := _entry_part(raw)) is not None]
        raw_choices = data.get("choices")
        choices = {k: v for k, v in raw_choices.items() if isinstance(k, str)
                   and isinstance(v, int | str) and not isinstance(v, bool)} \
            if isinstance(raw_choices, dict) else {}
        roster = Roster(
            system=system.strip(), name="", factions=tuple(f for _, f in factions),
            designs=tuple(UnitDesign(name=d.name, quality=d.quality, rules=tuple(d.rules))
                          for _, d in designs),
            entries=tuple(RosterEntry(unit=e.unit, count=e.count, upgrades=tuple(e.upgrades),
                                      faction=e.faction) for _, e in entries))
        return cls(system.strip(), roster, choices,
                   {"factions": tuple(i for i, _ in factions),
                    "designs": tuple(i for i, _ in designs),
                    "entries": tuple(i for i, _ in entries)}, None)


_NAME: TypeAdapter[str] = TypeAdapter(Name)


def _name(raw: Any) -> str | None:
    try:
        return _NAME.validate_python(raw)
    except ValidationError:
        return None


def _part(schema: type[DesignModel] | type[EntryModel], raw: Any) -> Any:
    try:
        return schema.model_validate(raw)
    except ValidationError:
        return None


def _entry_part(raw: Any) -> EntryModel | None:
    """An entry of a broken file as far as it reads: whole, else its unit and faction (its
    other keys' problems are the schema's), else nothing."""
    found: EntryModel | None = _part(EntryModel, raw)
    if found is not None or not isinstance(raw, dict):
        return found
    named: EntryModel | None = _part(EntryModel, {k: raw[k] for k in ("unit", "faction")
                                                   if k in raw})
    return named if named is not None else _part(EntryModel, {"unit": raw.get("unit")})


def _name_problems(
    readable: _Readable,
    file: str,
    where: Locator,
    find_system: Callable[[str], RuleSystem],
    systems: Sequence[str],
    catalog_for: Callable[[RuleSystem], Catalog],
) -> tuple[list[DataError], tuple[RuleSystem, Catalog] | None]:
    """Every name in the file its system's catalog does not hold (the system, factions,
    units, upgrades, special rules, choices), each with its line and the nearest name; and
    the system and catalog, when the system is known."""
    errors: list[DataError] = []
    roster = readable.roster

    def err(loc: Loc, message: str) -> None:
        errors.append(DataError(file, loc, message, where(loc)))

    try:
        system = find_system(readable.system)
    except ValueError:
        err(("system",), f"unknown system {readable.system!r}"
                         f"{closest(readable.system, systems)}; known: {', '.join(systems)}")
        return errors, None
    catalog = catalog_for(system)
    at = readable.places

    for key, value in readable.choices.items():
        spec = system.choices.get(key)
        if spec is None:
            known = ", ".join(system.choices) or "none"
            err(("choices", key), f"{system.name} has no choice {key!r}"
                                  f"{closest(key, system.choices)}; its choices: {known}")
        elif not isinstance(value, spec.kind):
            err(("choices", key), f"must be {'a number' if spec.kind is int else 'text'}, "
                                  f"got {value!r}")
    # A missing required choice is the system's rule problem (validate), not a reading one:
    # an unfinished roster is still a roster (docs/roster-format.md).
    if roster.designs and not system.allows_designs:
        err(("designs",), f"{system.name} has no unit designs: remove the designs section")
    for i, design in zip(at["designs"], roster.designs, strict=True):
        for j, rule in enumerate(design.rules):
            if catalog.rule(rule) is None:
                err(("designs", i, "rules", j), f"unknown special rule {rule!r}"
                                                f"{closest(rule, (r.name for r in catalog.rules))}")
    for i, faction in zip(at["factions"], roster.factions, strict=True):
        if catalog.faction(faction) is None:
            err(("factions", i), f"unknown faction {faction!r}"
                                 f"{closest(faction, (f.name for f in catalog.factions))}")

    labels = readable.labels
    units = system.find_units(catalog, roster, roster.entries)
    for i, entry, unit in zip(at["entries"], roster.entries, units, strict=True):
        if unit is None:
            err(("entries", i, "unit"), _unknown_unit(catalog, roster, entry))
            continue
        for j, upgrade in enumerate(entry.upgrades):
            if unit.upgrade(upgrade) is None:
                options = [u.name for u in unit.upgrades]
                err(("entries", i, "upgrades", j),
                    f"{unit.name} has no upgrade {upgrade!r}{closest(upgrade, options)}"
                    + (f"; its upgrades: {', '.join(options)}" if options else ""))
        if labels is None:
            continue  # a broken file's labels are not read
        if entry.joins and entry.joins not in labels:
            err(("entries", i, "joins"), f"no entry has the label {entry.joins!r}: "
                                         f"give the entry it joins `label: {entry.joins}`")
        if entry.label and labels.count(entry.label) > 1:
            err(("entries", i, "label"), f"label {entry.label!r} is used twice: make each unique")
    return errors, (system, catalog)


def _at_most(errors: list[DataError], file: str) -> list[DataError]:
    """The first MAX_PROBLEMS problems and a line counting the rest: a page of 500 alike
    lines helps nobody, and the first ones show what to fix."""
    if len(errors) <= MAX_PROBLEMS:
        return errors
    rest = len(errors) - MAX_PROBLEMS
    return [*errors[:MAX_PROBLEMS],
            DataError(file, (), f"and {rest} more problems like these: fix the ones above and "
                                f"read the file again")]


def _unknown_unit(catalog: Catalog, roster: Roster, entry: RosterEntry) -> str:
    same_name = catalog.units_named(entry.unit)
    if len(same_name) > 1:
        homes = sorted({u.faction or "?" for u in same_name})
        return (f"{entry.unit!r} is in {' and '.join(homes)}: add `faction: {homes[0]}` "
                f"(or another) to say which")
    if same_name and entry.faction:
        return (f"{entry.unit!r} belongs to {same_name[0].faction}, not {entry.faction}: "
                f"fix the entry's faction")
    chosen = {f.casefold() for f in roster.factions}
    pool = [u.name for u in catalog.units
            if not chosen or u.faction is None or u.faction.casefold() in chosen]
    if not pool:  # the factions themselves are unknown (reported apart): suggest from all
        pool = [u.name for u in catalog.units]
    pool += [d.name for d in roster.designs]
    return f"unknown unit {entry.unit!r}{closest(entry.unit, pool)}"


def to_roster(model: RosterModel) -> Roster:
    return Roster(
        system=model.system,
        name=model.name,
        points_limit=model.points_limit,
        factions=tuple(model.factions),
        choices=MappingProxyType(dict(model.choices)),
        designs=tuple(UnitDesign(name=d.name, quality=d.quality, rules=tuple(d.rules))
                      for d in model.designs),
        entries=tuple(RosterEntry(unit=e.unit, count=e.count, upgrades=tuple(e.upgrades),
                                  faction=e.faction, label=e.label, joins=e.joins, pts=e.pts)
                      for e in model.entries),
        data_revision=model.data_revision,
        packs=tuple(PackUse(name=p.name, text=p.text, link=checked_link(p.link))
                    for p in model.packs),
    )


def roster_to_data(roster: Roster, system: RuleSystem, catalog: Catalog) -> dict[str, Any]:
    """The roster as plain data in file order, with today's costs and data revision recorded."""
    out: dict[str, Any] = {"format": FORMAT_VERSION, "system": system.id,
                           "data_revision": catalog.revision, "name": roster.name}
    if roster.points_limit is not None:
        out["points_limit"] = roster.points_limit
    if roster.factions:
        out["factions"] = list(roster.factions)
    if roster.choices:
        out["choices"] = dict(roster.choices)
    if roster.designs:
        out["designs"] = [{"name": d.name, "quality": d.quality, "rules": list(d.rules)}
                          for d in roster.designs]
    costs = {p.index: p.cost for p in system.priced(catalog, roster)}
    entries = []
    for i, entry in enumerate(roster.entries):
        row: dict[str, Any] = {"unit": entry.unit, "count": entry.count}
        if entry.faction:
            row["faction"] = entry.faction
        if entry.upgrades:
            row["upgrades"] = list(entry.upgrades)
        if entry.label:
            row["label"] = entry.label
        if entry.joins:
            row["joins"] = entry.joins
        if i in costs:
            row["pts"] = costs[i]
        entries.append(row)
    out["entries"] = entries
    if roster.packs:
        out["packs"] = [{"name": p.name, "revision": pack_revision(p.text),
                         **({"link": p.link} if p.link else {}), "text": Block(p.text)}
                        for p in roster.packs]
    return out


class Block(str):
    """A pack's text in a roster file: written as a literal block, line for line as the
    pack's own file, so it reads (and can be copied out) as one."""


def _block(dumper: yaml.SafeDumper, value: Block) -> yaml.ScalarNode:
    # a literal block can't hold trailing spaces or tabs faithfully: those go quoted
    style = "|" if not any(line != line.rstrip() for line in value.splitlines()) else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", str(value), style=style)


# libyaml's emitter where PyYAML was built with it: a few times faster, and every change a
# player makes is saved through here. It folds long quoted lines at slightly different places
# than the pure-Python one; both read back to the same roster.
class _Dumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]
    pass


_Dumper.add_representer(Block, _block)
_DUMPER = _Dumper


def dump_roster(roster: Roster, system: RuleSystem, catalog: Catalog) -> str:
    return dump_roster_data(roster_to_data(roster, system, catalog), system)


def dump_roster_data(data: dict[str, Any], system: RuleSystem) -> str:
    """The roster file for `roster_to_data`'s data."""
    body = yaml.dump(data, Dumper=_DUMPER, sort_keys=False, allow_unicode=True,
                     default_flow_style=False, width=100)
    return f"# Listbuilder roster ({system.name}); format: docs/roster-format.md\n{body}"


def data_changes(roster: Roster, system: RuleSystem, catalog: Catalog,
                 priced: Sequence[Priced] | None = None) -> list[str]:
    """What changed for this roster's units since the data revision it was saved against.
    `priced`: the roster's entries as `RuleSystem.priced` gave them, when known already."""
    if roster.data_revision is None or roster.data_revision == catalog.revision:
        return []
    if priced is None:
        priced = system.priced(catalog, roster)
    costs = {p.index: p.cost for p in priced}
    out = []
    for i, entry in enumerate(roster.entries):
        if i not in costs:
            out.append(f"{entry.unit}: no longer in the catalog")
            continue
        now = costs[i]
        if entry.pts is not None and entry.pts != now:
            out.append(f"{entry.unit}: {entry.pts} -> {now} pts")
    if not out:
        out.append(f"The data changed since this roster was saved (revision "
                   f"{roster.data_revision} -> {catalog.revision}); none of its units changed.")
    return out


def roster_json_schema(system_ids: Sequence[str]) -> dict[str, Any]:
    """JSON Schema of roster files, for editors with a YAML language server."""
    schema = RosterModel.model_json_schema()
    schema["properties"]["system"] = {
        "title": "System", "description": "System id, as `listbuilder systems` prints it",
        "enum": list(system_ids), "type": "string"}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "Listbuilder roster", **schema}
