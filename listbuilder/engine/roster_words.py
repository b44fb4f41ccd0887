"""What a roster file's schema errors mean, in players' words: what was expected, what was
found, and what to write instead. The schema itself (`roster_file.RosterModel`) only knows
types; these words know the roster format (docs/roster-format.md)."""

from __future__ import annotations

from typing import Any

from listbuilder.engine.errors import closest

# For each key: what it holds, and an example of writing it.
GUIDE: dict[str, tuple[str, str]] = {
    "format": ("the format version", "`format: 1`"),
    "system": ("the game system's id", "`system: warstuff` (`listbuilder systems` lists them)"),
    "data_revision": ("the data revision Listbuilder saved it against",
                      "leave it as exported, or delete the line"),
    "name": ("a name of 1 to 80 characters", "`name: Raiders of the Red Sun`"),
    "points_limit": ("a whole number of points", "`points_limit: 500`, without quotes"),
    "factions": ("a list of faction names", "`factions: [Orks]`"),
    "choices": ("each choice on its own line as `key: value`",
                "`choices:`, then `  treasury: 10` on the next line"),
    "designs": ("a list of designed units", "`- name: Scout`, with `quality: 4` and "
                                            "`rules: [Fast]` on the lines below"),
    "quality": ("a whole number", "`quality: 4`"),
    "rules": ("a list of special rule names", "`rules: [Fast, Tough]`"),
    "entries": ("a list of units, each starting with `- unit:`",
                "`- unit: Boyz`, with `count: 10` on the next line, lined up with `unit`"),
    "unit": ("the unit's name as the catalog spells it", "`unit: Boyz`"),
    "count": ("a whole number from 1 to 10,000", "`count: 10`"),
    "upgrades": ("a list of upgrade names", "`upgrades: [Big Choppa]`"),
    "faction": ("the faction's name (needed only when two factions share the unit's name)",
                "`faction: Orks`"),
    "label": ("a short handle of letters, digits, - and _ (no spaces)", "`label: boss-squad`"),
    "joins": ("the label of the entry this one joins", "`joins: boss-squad`"),
    "pts": ("the cost when saved, written by Listbuilder", "a whole number, or delete the line"),
}
ITEM = {  # a list item of these keys
    "factions": ("a faction name", "`- Orks`"),
    "rules": ("a special rule name", "`- Fast`"),
    "upgrades": ("an upgrade name", "`- Big Choppa`"),
    "entries": ("a unit entry: keys such as unit and count, not a list or a bare name",
                "`- unit: Boyz`, with `count: 10` on the next line, lined up with `unit`"),
    "designs": ("a designed unit: keys name, quality and rules",
                "`- name: Scout`, with `quality: 4` below it"),
}
KEYS = {  # the keys each part of the file may hold
    (): "format, system, name, points_limit, factions, choices, designs, entries "
        "(and data_revision)",
    ("entries",): "unit, count, upgrades, faction, label, joins (and pts)",
    ("designs",): "name, quality, rules",
}
EXPECTED = {
    "int_type": "a whole number", "int_parsing": "a whole number", "int_from_float": "a whole "
    "number", "string_type": "text", "list_type": "a list", "dict_type": "keys with values",
    "model_type": "keys with values", "model_attributes_type": "keys with values",
    "bool_type": "yes or no",
}


def _found(value: Any) -> str:
    if isinstance(value, dict):
        return "keys with values"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"yes/no ({value})"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text {value[:40]!r}" + ("…" if len(value) > 40 else "")
    return type(value).__name__


def _guide(loc: tuple[Any, ...]) -> tuple[str, str] | None:
    if loc and isinstance(loc[-1], int) and len(loc) > 1 and loc[-2] in ITEM:
        return ITEM[loc[-2]]
    names = [p for p in loc if isinstance(p, str)]
    return GUIDE.get(names[-1]) if names else None


def _section(loc: tuple[Any, ...]) -> tuple[str, ...]:
    """Which part of the file an unknown key sits in: the top, an entry or a design."""
    return tuple(p for p in loc[:-1] if isinstance(p, str))[:1]


def describe_roster_error(err: Any) -> str:
    """One schema error of a roster file as a player-facing message with the fix."""
    kind = str(err.get("type", ""))
    loc = tuple(err.get("loc", ()))
    given = err.get("input")
    ctx = err.get("ctx") or {}
    guide = _guide(loc)
    write = f"write {guide[1]}" if guide else "check the roster format (docs/roster-format.md)"
    if kind == "extra_forbidden":
        section = _section(loc)
        allowed = KEYS.get(section, "")
        name = str(loc[-1]) if loc else "?"
        near = closest(name, [k.strip("() ") for k in allowed.replace("(and", ",").split(",")])
        where = {(): "the roster", ("entries",): "an entry", ("designs",): "a design"}
        return (f"unknown key {name!r}{near}: remove it or fix its spelling; "
                f"{where.get(section, 'this part')} may hold {allowed}")
    if kind == "missing":
        return f"missing: add {guide[1] if guide else 'it'}"
    if kind == "literal_error" and loc == ("format",):
        return f"this Listbuilder reads format 1 only, found {_found(given)}: {write}"
    if kind in EXPECTED:
        what = guide[0] if guide else EXPECTED[kind]
        return f"expected {what}, found {_found(given)}: {write}"
    if kind == "too_long":
        most = ctx.get("max_length")
        found = len(given) if isinstance(given, list | str) else "more"
        what = {"entries": "entries", "designs": "designs", "factions": "factions",
                "upgrades": "upgrades", "rules": "rules"}.get(str(loc[-1]) if loc else "",
                                                             "items")
        return (f"at most {most} {what}, found {found}: split the army into several rosters"
                if what == "entries" else f"at most {most} {what}, found {found}: remove some")
    if kind == "string_too_long":
        return (f"at most {ctx.get('max_length')} characters, found "
                f"{len(given) if isinstance(given, str) else 'more'}: shorten it")
    if kind == "string_too_short":
        return f"is empty: {write}"
    if kind == "string_pattern_mismatch":
        return f"{_found(given)} can't be used here: {guide[0] if guide else ''}; {write}"
    if kind.startswith("value_error"):
        message = str(err.get("msg", "")).removeprefix("Value error, ")
        return f"{message}: {write}"
    return f"{str(err.get('msg', 'not valid'))[:1].lower()}{str(err.get('msg', ''))[1:]}: {write}"
