"""Print options: one frozen dataclass, built from keyword arguments or from strings (a web
form, a query string) with every bad field reported at once."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Literal, get_args

from listbuilder.printing.geometry import CARDS, PAPERS

Paper = Literal["a4", "letter"]
CardSize = Literal["poker", "mini", "tarot"]
Duplex = Literal["none", "long", "short"]
What = Literal["cards", "sheet", "all"]
Format = Literal["pdf", "png", "tts"]

# What each format's file is: its media type and file name ending (the web's answer, the CLI's
# default file). png and tts are zips of images (printing/images.py).
FILES: dict[str, tuple[str, str]] = {"pdf": ("application/pdf", ".pdf"),
                                     "png": ("application/zip", ".zip"),
                                     "tts": ("application/zip", ".zip")}

TRUE = {"1", "true", "yes", "on", "y"}
FALSE = {"0", "false", "no", "off", "n", ""}


class PrintError(ValueError):
    """A print that cannot be made as asked; `problems` says what to change, one per line."""

    def __init__(self, problems: list[str] | str) -> None:
        self.problems = [problems] if isinstance(problems, str) else list(problems)
        super().__init__("\n".join(self.problems))

    def __reduce__(self) -> tuple[type[PrintError], tuple[list[str]]]:
        # raised in a layout process, it crosses back with its problems one by one
        return (PrintError, (self.problems,))


@dataclass(frozen=True, kw_only=True)
class PrintOptions:
    """How to print. Every field has a default, so `PrintOptions()` is the usual print.

    paper: a4 or letter. card: poker (63x88 mm), mini (44x68 mm) or tarot (70x120 mm).
    cut_marks: crop marks in the margins, on the line of every card edge.
    bleed: 3 mm of bleed around each card, for print shops: one card per page (chits many to
    a sheet, with crop marks on their cut lines).
    duplex: none, long (backs page after each fronts page, turned over the long edge: columns
    mirrored on an upright page, rows on a landscape one) or short (the other way round).
    gutter_fold: fronts and backs side by side, fold down the middle.
    ink_saver: no fills, dark text. merge: identical entries share one card with a count
    (False: one card per entry). what: cards, sheet (the roster sheet) or all.
    format: pdf; png (each card side as a PNG at 300 dpi, in a zip, for print shops) or tts
    (Tabletop Simulator deck sheets and backs, in a zip). Images are of cards only: they take
    the card size, bleed (png), ink saver and merge, and always include the backs; the roster
    sheet and the options that place cards on paper are the PDF's.
    """

    paper: Paper = "a4"
    card: CardSize = "poker"
    cut_marks: bool = False
    bleed: bool = False
    duplex: Duplex = "none"
    ink_saver: bool = False
    gutter_fold: bool = False
    merge: bool = True
    what: What = "all"
    format: Format = "pdf"

    def __post_init__(self) -> None:
        problems = [*self._bad_choices(), *self._clashes()]
        if problems:
            raise PrintError(problems)

    def _bad_choices(self) -> list[str]:
        out = []
        for name, allowed in (("paper", tuple(PAPERS)), ("card", tuple(CARDS)),
                              ("duplex", get_args(Duplex)), ("what", get_args(What)),
                              ("format", get_args(Format))):
            value = getattr(self, name)
            if value not in allowed:
                out.append(f"{name}: {value!r} is not one of {', '.join(allowed)}")
        return out

    def _clashes(self) -> list[str]:
        out = []
        if self.gutter_fold and self.duplex != "none":
            out.append("gutter-fold already prints each back beside its front: choose "
                       "gutter-fold or double-sided (duplex), not both")
        if self.bleed and self.gutter_fold:
            out.append("bleed prints each card on a page of its own for a print shop: choose "
                       "bleed or gutter-fold, not both")
        if self.bleed and self.cut_marks:
            out.append("bleed pages are cut by the print shop along their trim box: drop the "
                       "cut marks")
        if self.images and self.what == "sheet":
            out.append(f"format: {self.format} makes images of cards, and the roster sheet is "
                       f"a page: print the sheet as pdf, or choose the cards")
        return out

    @property
    def images(self) -> bool:
        """Cards as images (png, tts) rather than a PDF."""
        return self.format in ("png", "tts")

    @property
    def backs(self) -> bool:
        """Backs are made: printed double-sided or folded, or as images (a print shop prints
        both sides; a digital table shows the back of every card)."""
        return self.duplex != "none" or self.gutter_fold or self.images

    @classmethod
    def from_strings(cls, values: Mapping[str, str]) -> PrintOptions:
        """Options from text, as a web form or the command line sends them.

        Names are the field names (a dash works as an underscore); booleans take
        1/0, true/false, yes/no, on/off; an absent key keeps its default; unknown keys and
        bad values are all reported in one PrintError.
        """
        known = {f.name: f for f in fields(cls)}
        kwargs: dict[str, object] = {}
        problems = []
        for raw_key, raw in values.items():
            key = raw_key.strip().replace("-", "_")
            field = known.get(key)
            if field is None:
                problems.append(f"{raw_key}: unknown print option; known: {', '.join(known)}")
                continue
            text = str(raw).strip().lower()
            if field.type == "bool":
                if text not in TRUE | FALSE:
                    problems.append(f"{raw_key}: {raw!r} is not yes or no")
                    continue
                kwargs[key] = text in TRUE
            else:
                kwargs[key] = text
        try:
            options = cls(**kwargs)  # type: ignore[arg-type]  # checked in __post_init__
        except PrintError as exc:
            problems += exc.problems
        if problems:
            raise PrintError(problems)
        return options
