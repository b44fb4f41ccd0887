"""What a print is: everything a worker needs to make it, kept as JSON in its row of the
line (store/tables.py, PrintJobRow), and how it is made."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from listbuilder import printing
from listbuilder.engine.catalog import parse_yaml
from listbuilder.engine.library import Library
from listbuilder.engine.registry import get_system
from listbuilder.engine.roster_file import RosterModel, to_roster
from listbuilder.engine.yaml_limits import ROSTER
from listbuilder.printing import PrintOptions

KINDS = ("roster", "rules", "deck", "chits")


@dataclass(frozen=True)
class PrintJob:
    """Everything a worker needs to make the print, kept as JSON in its row: the roster's text
    itself (not its id: the print is of the roster as it was asked for, whose text is part of
    the print's key), or the system and faction."""

    kind: str  # one of KINDS
    system: str
    options: Mapping[str, Any] = field(default_factory=dict)  # PrintOptions' fields
    text: str = ""  # roster prints: the roster file
    faction: str = ""  # chits

    def to_json(self) -> str:
        return json.dumps(asdict(self) | {"options": dict(self.options)}, sort_keys=True)

    @classmethod
    def from_json(cls, raw: str) -> PrintJob:
        data = json.loads(raw)
        return cls(kind=str(data["kind"]), system=str(data["system"]),
                   options=dict(data.get("options") or {}), text=str(data.get("text", "")),
                   faction=str(data.get("faction", "")))

    def make(self, library: Library) -> bytes:
        """The PDF (or the zip of images, for `format` png or tts); PrintError when the print
        can't be made as asked."""
        system = get_system(self.system)
        catalog = library.catalog(system)
        options = PrintOptions(**self.options)
        if self.kind == "roster":
            # the text was read when it was saved: read again here, with the same bounds
            roster = to_roster(RosterModel.model_validate(
                parse_yaml(self.text, "stored roster", ROSTER)))
            if roster.packs:  # the roster's own faction packs, built in beside the data
                catalog = library.catalog_with_packs(system, roster.packs)
            return printing.print_roster(catalog, system, roster, options).data
        if self.kind == "rules":
            return printing.print_rules(catalog, system, options).data
        if self.kind == "deck":
            return printing.print_deck(catalog, system, options).data
        if self.kind == "chits":
            return printing.print_chits(catalog, system, self.faction, options).data
        raise ValueError(f"unknown kind of print {self.kind!r}")
