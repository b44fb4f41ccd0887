"""The YAML bombs of the security review (issue 37, items 2 and 5), as an attacker writes
them: shared by the tests that pin their refusal and by benchmarks/yaml_bombs.py, which
measures what each costs the server."""

from __future__ import annotations


def anchor_bomb(chars: int = 50_000, aliases: int = 100) -> str:
    """One form box: an anchored text of `chars` characters, then `aliases` aliases of it.
    50,000 and 100 (50 KB) write out as 5 MB; 50,000 and 5,000 (70 KB) as 250 MB."""
    return "[&a " + "A" * chars + "".join(", *a" for _ in range(aliases)) + "]"


def unit_pack(units: int = 700, upgrades: int = 99, prefix: str = "") -> str:
    """An op40k pack of `units` units that all share one anchored list of `upgrades`
    upgrades: 700 and 99 make 119 KB that read as half a million values (just inside the
    data files' limit of values, the one a pack was held to before characters counted)."""
    listed = "".join(f"      - name: {prefix}Upgrade {i}\n        pts: 1\n"
                     f"        text: One more upgrade.\n" for i in range(upgrades))
    rows = [f"factions:\n  - name: {prefix}Bombers\n    text: A faction of many units.\n",
            "units:\n"]
    for i in range(units):
        shared = "&up\n" + listed if i == 0 else "*up\n"
        rows.append(f"  - name: {prefix}Bombing Unit Number {i}\n"
                    f"    faction: {prefix}Bombers\n    kind: unit\n    size: 5\n"
                    f"    quality: 4\n    pts_per_model: 5\n    equipment: [Slugga]\n"
                    f"    upgrades: {shared}")
    return "".join(rows)


def roster_with_packs(texts: list[str], system: str = "op40k") -> str:
    """A roster file carrying `texts` as its faction packs, each whole in its `text`."""
    packs = "".join(f"  - name: Pack {i}\n    text: |\n"
                    + "".join(f"      {line}\n" for line in text.splitlines())
                    for i, text in enumerate(texts))
    return (f"format: 1\nsystem: {system}\nname: Bombs\nfactions: [Orks]\n"
            f"entries:\n  - unit: Ork Boyz\n    count: 10\npacks:\n{packs}")
