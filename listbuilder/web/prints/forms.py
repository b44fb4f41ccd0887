"""The print forms, as WTForms forms: what each print offers, read from its query string.

A print changes nothing, so its form is a GET. These are plain `wtforms.Form`s fed the query
the view read (`prints.views.sent_values`), not FlaskForms: a FlaskForm carries a CSRF token a
GET has no use for, and reads the request behind the view's back, while one page builds
several of these forms (a system's print page), each from its own values or from none.

Each field reads the words `PrintOptions.from_strings` reads (any case, spaces around): a value
it can't take is a field error and the field shows its default. What a refused print shows
are the printer's problems (`PrintOptions`, shared with the command line), called by the
labels here (`LABELS`), so each problem is said once and in one set of words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields
from typing import Any

from flask import url_for
from werkzeug.datastructures import MultiDict
from wtforms import BooleanField, Form, RadioField, SelectChoice, SelectField

from listbuilder.engine.system import RuleSystem
from listbuilder.printing import Printables, PrintOptions
from listbuilder.printing.geometry import CARDS, CHIT, CHIT_GUTTER, GUTTER, PAPERS, grid
from listbuilder.printing.options import FALSE, TRUE

DEFAULTS: dict[str, Any] = {f.name: f.default for f in fields(PrintOptions)}

# How each option is named to players, in the forms and in the problems reported.
LABELS = {
    "what": "What to print", "paper": "Paper", "card": "Card size",
    "duplex": "Backs", "gutter_fold": "Gutter fold", "cut_marks": "Cut marks",
    "bleed": "Bleed, for a print shop", "ink_saver": "Ink saver", "merge": "One card per entry",
    "faction": "Faction", "format": "File type",
}
PAPER_NAMES = {"a4": "A4", "letter": "Letter"}
PAPER_SIZES = {"letter": "8.5 × 11 in"}  # how its players know it; else the size in mm
CARD_NAMES = {"poker": "Poker", "mini": "Mini", "tarot": "Tarot"}
WHAT = (("all", "Unit cards and roster sheet"), ("cards", "Unit cards only"),
        ("sheet", "Roster sheet only"))
INK_SAVER = "No coloured fills: dark text on white."
DUPLEX = (("none", "One-sided: no backs"),
          ("long", "Double-sided, flipped on the long edge"),
          ("short", "Double-sided, flipped on the short edge"))


# -- the fields -------------------------------------------------------------------------------

class PrintRadio(RadioField):
    """One of a few choices, each with a hint beside its label (`hints`: value -> hint)."""

    def __init__(self, label: str, description: str, choices: Sequence[tuple[str, str]],
                 default: str, hints: Mapping[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(label, description=description, default=default, **kwargs,
                         choices=[SelectChoice(value, text) for value, text in choices])
        self.hints = dict(hints or {})

    def process_formdata(self, valuelist: list[str]) -> None:
        if not valuelist:
            return
        text = valuelist[0].strip().lower()
        allowed = [c.value for c in self.choices]
        if text not in allowed:  # the default stays
            raise ValueError(f"{valuelist[0]!r} is not one of {', '.join(allowed)}")
        self.data = text


class PrintSelect(SelectField):
    """A list of names, read whatever their case (a faction)."""

    def process_formdata(self, valuelist: list[str]) -> None:
        if not valuelist:
            return
        wanted = valuelist[0].strip().casefold()
        found = next((c.value for c in self.choices if c.value.casefold() == wanted), None)
        if found is None:  # the default stays
            raise ValueError(f"{valuelist[0]!r} is not one of the choices")
        self.data = found


class PrintCheck(BooleanField):
    """A tick box. `sends` is what a tick sends: "yes", or "no" for an option a tick turns
    off (merge: the box says "One card per entry"). Ticked when the query says so."""

    def __init__(self, label: str, description: str, sends: str = "yes",
                 **kwargs: Any) -> None:
        super().__init__(label, description=description, **kwargs)
        self.sends = sends

    def process_formdata(self, valuelist: list[str]) -> None:
        if not valuelist:
            return
        text = valuelist[0].strip().lower()
        if text not in TRUE | FALSE:  # unticked
            raise ValueError(f"{valuelist[0]!r} is not yes or no")
        self.data = text in (TRUE if self.sends in TRUE else FALSE)


def _radio(name: str, help_: str, choices: Sequence[tuple[str, str]],
           hints: Mapping[str, str] | None = None) -> Any:
    return PrintRadio(LABELS[name], help_, choices, str(DEFAULTS[name]), hints)


def _check(name: str, help_: str, sends: str = "yes") -> Any:
    return PrintCheck(LABELS[name], help_, sends)


def _per_sheet(size: tuple[float, float], gutter: float) -> str:
    counts = {PAPER_NAMES.get(p, p): grid(p, size, gutter).per_page for p in PAPERS}
    if len(set(counts.values())) == 1:
        return f"{next(iter(counts.values()))} to a sheet"
    return ", ".join(f"{n} on {paper}" for paper, n in counts.items())


def _mm(size: tuple[float, float]) -> str:
    return f"{size[0]:g} × {size[1]:g} mm"


def _paper() -> Any:
    return _radio("paper", "The paper in your printer.",
                  [(p, PAPER_NAMES.get(p, p)) for p in PAPERS],
                  {p: PAPER_SIZES.get(p, _mm(size)) for p, size in PAPERS.items()})


def _card_size() -> Any:
    return _radio("card", "Poker is the usual playing-card size; mini fits more on a sheet; "
                          "tarot leaves room for long rules.",
                  [(c, CARD_NAMES.get(c, c)) for c in CARDS],
                  {c: f"{_mm(size)}, {_per_sheet(size, GUTTER)}" for c, size in CARDS.items()})


def _sides(what: str) -> dict[str, Any]:
    return {
        "duplex": _radio("duplex", f"Double-sided puts a page of backs after each page of "
                                   f"{what}; pick the flip your printer's two-sided setting "
                                   f"uses.", DUPLEX),
        "gutter_fold": _check("gutter_fold", "Each back printed beside its front: fold the "
                                             "sheet down the middle, glue, then cut. Instead "
                                             "of double-sided."),
        "cut_marks": _check("cut_marks", "Short lines in the margins along every edge, to "
                                         "line up a ruler or a guillotine."),
        "bleed": _check("bleed", "3 mm extra all round each card (one a page) or chit "
                                 "(many a sheet, with their crop marks), for a print shop to "
                                 "trim. Not with cut marks or gutter fold."),
        "ink_saver": _check("ink_saver", INK_SAVER),
    }


# -- the forms --------------------------------------------------------------------------------

class PrintForm(Form):
    """A print's form, filled from the query sent (`sent`), or at its defaults.

    `id` names the form's section on its page and prefixes its fields' element ids (a page
    has several forms); `problems` are those of a print that was refused. A print of cards
    (`images`) also downloads as images: its buttons send `format` (the PDF's sends none)."""

    images = False
    format_label = LABELS["format"]

    def __init__(self, id_: str, action: str, title: str, intro: str,
                 sent: Mapping[str, str], problems: tuple[str, ...] = ()) -> None:
        super().__init__(MultiDict(sent))
        self.id, self.action, self.title, self.intro = id_, action, title, intro
        self.problems = problems
        for field in self:
            field.id = f"{id_}-{field.name}"
        self.validate()

    @property
    def choices(self) -> list[Any]:
        """The fields that pick one of several (radio buttons, a list), in order."""
        return [f for f in self if not isinstance(f, PrintCheck)]

    @property
    def checks(self) -> list[Any]:
        """The tick boxes, in order: the form's extras."""
        return [f for f in self if isinstance(f, PrintCheck)]


def _form_class(name: str, images: bool = False, **fields: Any) -> type[PrintForm]:
    """A form class with these fields, in the order given (`images`: see PrintForm)."""
    return type(name, (PrintForm,), {**fields, "images": images})


RosterPrintForm = _form_class(
    "RosterPrintForm", images=True,
    what=_radio("what", "The roster sheet lists each unit with its stats, its cost and boxes "
                        "to tick off in play, the totals and the rules the roster uses. The "
                        "unit cards end with a quick-reference card of the core rules.", WHAT),
    paper=_paper(), card=_card_size(), **_sides("card fronts"),
    merge=_check("merge", "By default identical entries share one card marked ×N.",
                 sends="no"))
RulesPrintForm = _form_class("RulesPrintForm", paper=_paper(),
                             ink_saver=_check("ink_saver", INK_SAVER))
DeckPrintForm = _form_class("DeckPrintForm", images=True, paper=_paper(), card=_card_size(),
                            **_sides("card fronts"))


def chits_form_class(factions: Sequence[str]) -> type[PrintForm]:
    """The chits' form: its list of factions is the system's."""
    return _form_class("ChitsPrintForm", images=True,
                       faction=PrintSelect(LABELS["faction"],
                                           description="Whose pile of counters to print.",
                                           choices=[SelectChoice(f) for f in factions],
                                           default=factions[0] if factions else ""),
                       paper=_paper(), **_sides("chits"))


def roster_form(action: str, sent: Mapping[str, str],
                problems: tuple[str, ...] = ()) -> PrintForm:
    return RosterPrintForm("print", action, "Print", "Unit cards and the roster sheet as a "
                           "PDF, ready for your printer.", sent, problems)


def rules_form(system: RuleSystem, sent: Mapping[str, str],
               problems: tuple[str, ...] = ()) -> PrintForm:
    return RulesPrintForm("print-rules", url_for("print.rules", system_id=system.id),
                          "Rules reference sheet",
                          f"The rules of {system.name} on one page, in our own words, to keep "
                          f"beside the table.", sent, problems)


def deck_form(system: RuleSystem, offer: Printables, sent: Mapping[str, str],
              problems: tuple[str, ...] = ()) -> PrintForm:
    return DeckPrintForm("print-deck", url_for("print.deck", system_id=system.id),
                         offer.deck or "Cards",
                         f"All {offer.deck_cards} cards of the set, each printed as many "
                         f"times as the game uses it.", sent, problems)


def chits_form(system: RuleSystem, offer: Printables, sent: Mapping[str, str],
               problems: tuple[str, ...] = ()) -> PrintForm:
    form_class = chits_form_class(offer.chit_factions)
    return form_class("print-chits", url_for("print.chits", system_id=system.id), "Chits",
                      f"A faction's pile of counters, each chit as many times as the pile "
                      f"holds it. Chits are {_mm(CHIT)} squares, "
                      f"{_per_sheet(CHIT, CHIT_GUTTER)}.", sent, problems)
