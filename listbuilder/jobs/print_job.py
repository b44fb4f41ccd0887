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
from listbuilder.engine.model import Catalog, Roster
from listbuilder.engine.registry import get_system
from listbuilder.engine.roster_file import RosterModel, to_roster
from listbuilder.engine.yaml_limits import ROSTER
from listbuilder.printing import PrintOptions
from listbuilder.printing.seal import Seal

KINDS = ("roster", "rules", "deck", "chits", "sheets")


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
    # a list sealed for an event: printed with its code and QR code (printing/seal.py)
    seal: Mapping[str, str] = field(default_factory=dict)
    # sheets: every list of an event, each {"text": its file, "seal": its seal}, one PDF
    lists: tuple[Mapping[str, Any], ...] = ()

    def to_json(self) -> str:
        return json.dumps(asdict(self) | {"options": dict(self.options), "seal": dict(self.seal),
                                          "lists": [dict(li) for li in self.lists]},
                          sort_keys=True)

    @classmethod
    def from_json(cls, raw: str) -> PrintJob:
        data = json.loads(raw)
        return cls(kind=str(data["kind"]), system=str(data["system"]),
                   options=dict(data.get("options") or {}), text=str(data.get("text", "")),
                   faction=str(data.get("faction", "")), seal=dict(data.get("seal") or {}),
                   lists=tuple(dict(li) for li in data.get("lists") or ()))

    def _roster(self, library: Library, text: str) -> tuple[Catalog, Roster]:
        # the text was read when it was saved: read again here, with the same bounds
        roster = to_roster(RosterModel.model_validate(
            parse_yaml(text, "stored roster", ROSTER)))
        system = get_system(self.system)
        if roster.packs:  # the roster's own faction packs, built in beside the data
            return library.catalog_with_packs(system, roster.packs), roster
        return library.catalog(system), roster

    def make(self, library: Library) -> bytes:
        """The PDF (or the zip of images, for `format` png or tts); PrintError when the print
        can't be made as asked."""
        system = get_system(self.system)
        catalog = library.catalog(system)
        options = PrintOptions(**self.options)
        if self.kind == "roster":
            catalog, roster = self._roster(library, self.text)
            return printing.print_roster(catalog, system, roster, options,
                                         seal=Seal.of(self.seal)).data
        if self.kind == "sheets":
            sealed = [(*self._roster(library, str(li["text"])), Seal.of(li.get("seal")))
                      for li in self.lists]
            return printing.print_sheets(system, sealed, options).data
        if self.kind == "rules":
            return printing.print_rules(catalog, system, options).data
        if self.kind == "deck":
            return printing.print_deck(catalog, system, options).data
        if self.kind == "chits":
            return printing.print_chits(catalog, system, self.faction, options).data
        raise ValueError(f"unknown kind of print {self.kind!r}")
