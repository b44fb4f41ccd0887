"""Hostile and odd inputs, made from a seeded random source: roster files of every system
(built from the real catalogs, then bent), their text mutated byte by byte, form posts and
query strings. The Hypothesis tests drive these with Hypothesis' own random source (so a
failure shrinks and replays), and benchmarks/fuzz.py runs thousands of them against the
command line and a running server.
"""

from __future__ import annotations

import random
import string
from dataclasses import dataclass
from typing import Any

import yaml

from listbuilder.engine.library import Library
from listbuilder.engine.registry import all_systems

# Values that have broken parsers and forms somewhere: huge and odd numbers, other scripts'
# digits, YAML's special words, markup, control characters, long and empty text.
ODD_NUMBERS = ["9" * 400, "9" * 5000, "-" + "9" * 40, "1e999", "-1", "0", "2147483648",
               "١٢٣", "²", "12.5", "0x10", "0o17", "1_000", "+5", " 7 ", "nan", ".inf", "1:20"]
ODD_TEXT = ["", " ", "~", "null", "yes", "no", "on", "2020-13-45", "2001-01-01", "!!binary x",
            "<script>alert(1)</script>", "\"'&<>", "\u202eevil", "\x00", "\t", "\r\n",
            "x" * 81, "x" * 6000, "Ork Boyz|Orks", "0:x", "../../etc/passwd", "%s%n", "{{7*7}}",
            "😀" * 30, "a b", "-", "*a", "&a", "[", "{", "? x", "|", ">"]
YAML_SNIPPETS = ["[", "]", "{", "}", ": ", "- ", "&a ", "*a", "!!python/object:os.system ",
                 "!!int ", "!!float ", "!!timestamp ", "<<: *a", "---\n", "...\n", "\t", "#",
                 "'", '"', "|\n", ">\n", "? ", "\ufeff", "\x00", "9" * 5000, "[" * 60,
                 "{a: " * 40, "- " * 40, "\n  " * 10, "%YAML 1.1\n", "%TAG ! tag:x,2000:\n"]


def odd_value(rng: random.Random) -> Any:
    kind = rng.random()
    if kind < 0.35:
        return rng.choice(ODD_NUMBERS)
    if kind < 0.7:
        return rng.choice(ODD_TEXT)
    if kind < 0.8:
        return rng.randint(-10**6, 10**6)
    if kind < 0.9:
        return [rng.choice(ODD_TEXT) for _ in range(rng.randint(0, 3))]
    return "".join(rng.choice(string.printable) for _ in range(rng.randint(0, 40)))


@dataclass(frozen=True)
class Names:
    """The names a system's catalog knows, to build rosters that mostly make sense."""

    system: str
    factions: tuple[str, ...]
    units: tuple[tuple[str, tuple[str, ...]], ...]  # name and its upgrades
    rules: tuple[str, ...]
    choices: tuple[str, ...]


def catalog_names(library: Library) -> list[Names]:
    out = []
    for system in all_systems():
        catalog = library.catalog(system)
        out.append(Names(system.id, tuple(f.name for f in catalog.factions),
                         tuple((u.name, tuple(g.name for g in u.upgrades))
                               for u in catalog.units[:300]),
                         tuple(r.name for r in catalog.rules), tuple(system.choices)))
    return out


def _maybe(rng: random.Random, good: Any, odd_rate: float) -> Any:
    return odd_value(rng) if rng.random() < odd_rate else good


def roster_data(rng: random.Random, names: Names, odd_rate: float = 0.1) -> dict[str, Any]:
    """A roster as data: catalog names mostly, odd values now and then."""
    data: dict[str, Any] = {"format": _maybe(rng, 1, odd_rate / 3),
                            "system": _maybe(rng, names.system, odd_rate / 3),
                            "name": _maybe(rng, f"Army {rng.randint(1, 999)}", odd_rate)}
    if rng.random() < 0.7:
        data["points_limit"] = _maybe(rng, rng.choice([150, 500, 1000, 2000]), odd_rate)
    if names.factions and rng.random() < 0.9:
        data["factions"] = [_maybe(rng, rng.choice(names.factions), odd_rate)
                            for _ in range(rng.choice([1, 1, 1, 2]))]
    if names.choices and rng.random() < 0.8:
        data["choices"] = {str(_maybe(rng, key, odd_rate / 2)): _maybe(rng, rng.randint(0, 9),
                                                                       odd_rate)
                           for key in names.choices if rng.random() < 0.7}
    if names.system == "warstuff" and rng.random() < 0.5:
        data["designs"] = [{"name": f"Design {i}", "quality": _maybe(rng, rng.randint(2, 6),
                                                                      odd_rate),
                            "rules": [_maybe(rng, rng.choice(names.rules), odd_rate)
                                      for _ in range(rng.randint(0, 3))]}
                           for i in range(rng.randint(1, 3))]
    entries = []
    labels: list[str] = []
    for i in range(rng.choice([0, 1, 2, 3, 5, 8, 20])):
        unit, upgrades = rng.choice(names.units)
        entry: dict[str, Any] = {"unit": _maybe(rng, unit, odd_rate),
                                 "count": _maybe(rng, rng.randint(1, 12), odd_rate)}
        if upgrades and rng.random() < 0.4:
            entry["upgrades"] = [_maybe(rng, u, odd_rate)
                                 for u in rng.sample(upgrades, rng.randint(1, len(upgrades)))]
        if rng.random() < 0.2:
            labels.append(f"l{i}")
            entry["label"] = f"l{i}"
        if labels and rng.random() < 0.2:
            entry["joins"] = rng.choice(labels)
        if rng.random() < odd_rate:
            entry[rng.choice(["cuont", "pts", "faction", "note"])] = odd_value(rng)
        entries.append(entry)
    data["entries"] = entries
    if rng.random() < odd_rate:
        data[rng.choice(["foo", "entries", "designs", "data_revision"])] = odd_value(rng)
    return data


def mutate(rng: random.Random, text: str, rounds: int | None = None) -> str:
    """Bend a text: cut, repeat, swap and insert pieces, YAML's special tokens among them."""
    for _ in range(rounds if rounds is not None else rng.randint(1, 4)):
        if not text:
            text = rng.choice(YAML_SNIPPETS)
            continue
        at = rng.randrange(len(text) + 1)
        op = rng.random()
        if op < 0.3:
            text = text[:at] + rng.choice(YAML_SNIPPETS) + text[at:]
        elif op < 0.45:
            text = text[:at] + text[at + rng.randint(1, 20):]
        elif op < 0.6:
            piece = text[at:at + rng.randint(1, 60)]
            text = text[:at] + piece * rng.randint(2, 50) + text[at:]
        elif op < 0.7:
            other = rng.randrange(len(text) + 1)
            a, b = sorted((at, other))
            text = text[:a] + text[b:] + text[a:b]
        elif op < 0.8:
            text = text[:at] + str(odd_value(rng)) + text[at:]
        elif op < 0.9:
            text = text[:at] + chr(rng.randint(0, 0x2FFF)) + text[at + 1:]
        else:  # nest a piece deeply
            depth = rng.choice([30, 500, 20_000])
            text = text[:at] + "[" * depth + "]" * depth + text[at:]
    return text


def roster_text(rng: random.Random, names: list[Names]) -> str:
    """A roster file's text: good, odd, or mutated past recognition."""
    data = roster_data(rng, rng.choice(names), odd_rate=rng.choice([0.0, 0.05, 0.2]))
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=rng.random() < 0.5,
                          default_flow_style=rng.random() < 0.2, width=rng.choice([60, 4096]))
    if rng.random() < 0.6:
        text = mutate(rng, text)
    return text


# -- the web: form posts and queries ----------------------------------------------------------

POSTS: dict[str, tuple[str, ...]] = {
    "settings": ("name", "factions", "points_limit"),
    "choices": ("seed", "treasury", "goal", "homeworlds", "rich_planets", "poor_planets"),
    "add": ("unit",),
    "entry": ("index", "unit", "count", "upgrades"),
    "remove": ("index", "unit"),
    "move": ("index", "unit", "step"),
    "reorder": ("index", "unit", "to"),
    "duplicate-entry": ("index", "unit"),
    "join": ("index", "unit", "target"),
    "design": ("name", "quality", "rules", "replacing", "add_entry"),
    "design/remove": ("name",),
    "design/field": ("name",),
    "redraw": ("key",),
    "acknowledge": (),
}
QUERIES: dict[str, tuple[str, ...]] = {
    "": ("q", "category", "max_cost", "preview", "copy_unit", "edit_design"),
    "/design-cost": ("name", "quality", "rules"),
    "/resolve": ("attacker", "defender", "attacker_extra", "target", "set"),
    "/print": ("what", "paper", "card", "duplex", "gutter_fold", "cut_marks", "bleed",
               "ink_saver", "merge"),
}


def form_post(rng: random.Random, names: Names, page_units: list[str]
              ) -> tuple[str, dict[str, Any]]:
    """An edit post: mostly sensible values from the catalog and the page, some odd ones."""
    action = rng.choice(list(POSTS))
    unit, upgrades = rng.choice(names.units)
    sensible: dict[str, Any] = {
        "name": f"Unit {rng.randint(1, 99)}", "factions": rng.choice(names.factions or ("x",)),
        "points_limit": rng.choice([150, 500, 2000]), "seed": rng.randint(0, 999),
        "treasury": rng.randint(0, 20), "goal": "Duty", "homeworlds": 1, "rich_planets": 1,
        "poor_planets": 0, "unit": rng.choice(page_units or [unit]),
        "index": rng.randint(0, 3), "count": rng.randint(1, 10),
        "upgrades": list(upgrades[:rng.randint(0, len(upgrades))]), "step": rng.choice([-1, 1]),
        "to": rng.randint(0, 3),
        "target": f"{rng.randint(0, 3)}:{unit}", "quality": rng.randint(2, 6),
        "rules": list(rng.sample(names.rules, min(len(names.rules), rng.randint(0, 2)))),
        "replacing": "", "add_entry": "1", "key": rng.choice(["seed", "treasury", "x"]),
    }
    odd_rate = rng.choice([0.0, 0.1, 0.5])
    data = {f: _maybe(rng, sensible[f], odd_rate) for f in POSTS[action]}
    if rng.random() < 0.05:
        data[rng.choice(["zzz", "csrf_token", "version"])] = odd_value(rng)
    return action, data


def query(rng: random.Random, names: Names) -> tuple[str, dict[str, Any]]:
    path = rng.choice(list(QUERIES))
    unit, _ = rng.choice(names.units)
    params = {}
    for key in QUERIES[path]:
        if rng.random() < 0.6:
            params[key] = _maybe(rng, rng.choice([unit, "1", "poker", "a4", "yes"]), 0.5)
    if rng.random() < 0.1:
        params[str(odd_value(rng))[:100] or "k"] = "v"
    return path, params


# -- faction packs ----------------------------------------------------------------------------

def _bend(rng: random.Random, value: Any, odd_rate: float) -> Any:
    """A starter pack's data with some of its values (at any depth) made odd."""
    if isinstance(value, dict):
        return {k: _bend(rng, v, odd_rate) for k, v in value.items()
                if rng.random() > odd_rate / 4}
    if isinstance(value, list):
        return [_bend(rng, v, odd_rate) for v in value]
    return odd_value(rng) if rng.random() < odd_rate else value


def pack_text(rng: random.Random, system_id: str) -> str:
    """A faction pack's text for a system: its starter, its values bent, or mutated."""
    from listbuilder.engine.registry import get_system

    starter = get_system(system_id).pack_starter()
    if rng.random() < 0.2:
        return mutate(rng, starter)
    data = _bend(rng, yaml.safe_load(starter), rng.choice([0.0, 0.05, 0.2]))
    if rng.random() < 0.3 and isinstance(data, dict):  # more units, some named twice
        for key in ("datasheets", "units"):
            if isinstance(data.get(key), list) and data[key]:
                data[key] = data[key] * rng.randint(1, 30)
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True,
                          default_flow_style=rng.random() < 0.2)
    return mutate(rng, text) if rng.random() < 0.4 else text
