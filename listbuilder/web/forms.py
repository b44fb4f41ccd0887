"""Forms check the shape of what is posted (types, lengths, counts); the engine checks rules.

Every form posts with a CSRF token (Flask-WTF). Forms that change a saved roster carry the
version the page showed, so a stale page is refused instead of overwriting newer work.

A box a player types a whole number in (a points limit, a Space Empires choice) says one
sentence of whatever it refuses (`InRange`): the box's name, its range and the fix. The page
shows it beside the box, marked invalid (macros.field), and in the notice; the box keeps what
was typed. The browser adds no words of its own: such boxes are text boxes with a numeric
keyboard, with no limits for it to check (docs/builder.md, "Bad input").
"""

from __future__ import annotations

import re
from typing import Any

from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import Field, IntegerField, SelectField, SelectMultipleField, StringField
from wtforms.validators import (
    InputRequired,
    Length,
    NumberRange,
    Optional,
    StopValidation,
    ValidationError,
)
from wtforms.widgets import HiddenInput, TextInput

from listbuilder.engine.schema import MAX_COUNT
from listbuilder.engine.system import RuleSystem

MAX_NAME = 80
MAX_POINTS = 1_000_000
MAX_KEY = 170  # a unit key is "name|faction"
MAX_PICKS = 50  # upgrades or special rules ticked at once
MAX_DIGITS = 12  # digits a number field reads; every real value has far fewer
MAX_HIDDEN = 2**31 - 1  # versions and indices fit the database's integer


def _at_most(n: int, what: str) -> Any:
    def check(form: FlaskForm, field: Field) -> None:
        if len(field.data or []) > n:
            raise ValidationError(f"At most {n} {what}.")
        if any(len(v) > MAX_NAME for v in field.data or []):
            raise ValidationError(f"Each of the {what} is at most {MAX_NAME} characters.")

    return check


class WholeNumber(IntegerField):
    """An integer field that reads only ASCII digits, at most MAX_DIGITS of them. Python's own
    int() takes any length (and any script's digits), and WTForms' range check turns the
    number into a float, which overflows past about 309 digits: so a long number would be a
    server error instead of a message."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        if not valuelist:
            return
        text = str(valuelist[0]).strip()
        self.data = None
        if not re.fullmatch(r"[+-]?[0-9]+", text, flags=re.ASCII):
            raise ValueError(self.gettext("Give a whole number, such as 10."))
        if len(text.lstrip("+-").lstrip("0")) > MAX_DIGITS:
            raise ValueError(self.gettext(f"Too large: give a number of at most {MAX_DIGITS} "
                                          f"digits."))
        self.data = int(text)


def whole_number_words(label: str, low: int, high: int, more: str = "") -> str:
    """The one sentence a whole-number box says of any value it refuses: "Points limit:
    enter a whole number from 1 to 1,000,000." (`more`: what else would do, ", or ...")."""
    return f"{label}: enter a whole number from {low:,} to {high:,}{more}."


class InRange:
    """A whole-number box's one check (on a WholeNumber): nothing typed, text, a fraction,
    23 digits or a number out of range are all answered with `whole_number_words`, which
    names the box, its range and the fix; the field's own words about the shape are dropped.
    `optional`: an empty box is no value (a Space Empires choice: its default counts), else
    it is refused too. `absent_ok`: a post without the box at all is no value (a script's:
    the browser always sends the box)."""

    def __init__(self, low: int, high: int, more: str = "", optional: bool = False,
                 absent_ok: bool = False) -> None:
        self.low, self.high, self.more = low, high, more
        self.optional, self.absent_ok = optional, absent_ok

    def words(self, field: Field) -> str:
        return whole_number_words(str(field.label.text), self.low, self.high, self.more)

    def __call__(self, form: FlaskForm, field: Field) -> None:
        raw = field.raw_data or []
        empty = not raw or not str(raw[0]).strip()
        if (not raw and self.absent_ok) or (empty and self.optional):
            field.errors[:] = []
            field.data = None
            raise StopValidation()
        if field.process_errors or not isinstance(field.data, int) \
                or not self.low <= field.data <= self.high:
            field.errors[:] = []
            raise StopValidation(self.words(field))


def typed_number(label: str, check: InRange, description: str = "") -> WholeNumber:
    """A whole-number box as a text box with a numeric keyboard: a number box of the browser
    would drop letters silently (Space Empires' "abc" became an empty box) and say its own
    words ("Value must be greater than or equal to 1") before the server's."""
    return WholeNumber(label, description=description, validators=[check],
                       widget=TextInput(), render_kw={
                           "inputmode": "numeric", "autocomplete": "off",
                           "spellcheck": "false"})


def refused_state(form: FlaskForm | None) -> tuple[tuple[str, tuple[str, ...], tuple[str, ...]],
                                                    ...]:
    """What a refused form shows again (each box as typed, and what it said): for the roster
    page's parts (roster_parts.py), which are drawn again when it differs."""
    if form is None:
        return ()
    return tuple((f.name, tuple(map(str, f.raw_data or ())), tuple(map(str, f.errors)))
                 for f in form if f.name not in ("csrf_token", "version"))


def _hidden_int(lo: int = 0) -> WholeNumber:
    return WholeNumber(widget=HiddenInput(), validators=[InputRequired(),
                                                         NumberRange(lo, MAX_HIDDEN)])


class VersionedForm(FlaskForm):
    """A change to a saved roster, based on the version the page showed."""

    version = _hidden_int(1)


NAME_WORDS = f"Roster name: enter a name of 1 to {MAX_NAME} characters."
LIMIT_WORDS = ", the game's size in points"


class RosterSettingsFields(FlaskForm):
    name = StringField("Roster name", validators=[
        InputRequired(NAME_WORDS), Length(max=MAX_NAME, message=NAME_WORDS)])
    factions = SelectMultipleField("Faction", validate_choice=True)
    # An empty box is refused: a game with points is played at a size, and a roster without
    # one is illegal ("roster.no-points-limit"); emptying the box used to remove the limit.
    points_limit = typed_number("Points limit", InRange(1, MAX_POINTS, LIMIT_WORDS))


class NewRosterForm(RosterSettingsFields):
    # a script's post without the box starts a roster without a limit, as it always has
    points_limit = typed_number("Points limit", InRange(1, MAX_POINTS, LIMIT_WORDS,
                                                        absent_ok=True))


class SettingsForm(RosterSettingsFields, VersionedForm):
    def without_points(self) -> None:
        """A game with no points limit shows no box: a limit sent anyway is checked (as the
        box would check it), not needed, and not kept (builder.settings)."""
        self.points_limit.validators = [InRange(1, MAX_POINTS, LIMIT_WORDS, optional=True,
                                                absent_ok=True)]


def choices_form(system: RuleSystem, options: dict[str, tuple[tuple[str, str], ...]]) -> type:
    """A form class with one field per roster choice of the system."""
    fields: dict[str, Any] = {}
    for key, spec in system.choices.items():
        label = key.replace("_", " ").capitalize()
        if options.get(key):
            fields[key] = SelectField(label, description=spec.help,
                                      choices=["", *[v for v, _ in options[key]]],
                                      validators=[Optional()])
        elif spec.kind is int:
            low = spec.low if spec.low is not None else 0
            high = spec.high if spec.high is not None else MAX_HIDDEN
            more = ", or Re-draw below for a random one" \
                if key in system.random_choices() else ""
            # unset, a choice counts its default: an empty box is that (a required one is
            # refused, as leaving it unset would make the roster illegal)
            fields[key] = typed_number(label, InRange(
                low, high, more, optional=not spec.required), description=spec.help)
        else:
            fields[key] = StringField(label, description=spec.help,
                                      validators=[Optional(), Length(max=MAX_NAME)])
    return type(f"{system.id.capitalize()}ChoicesForm", (VersionedForm,), fields)


class UnitFilterForm(FlaskForm):
    class Meta:
        csrf = False  # a search, sent with GET: changes nothing

    q = StringField("Search", validators=[Optional(), Length(max=MAX_NAME)])
    category = StringField("Category", validators=[Optional(), Length(max=MAX_NAME)])
    max_cost = WholeNumber("Cost at most", validators=[Optional(), NumberRange(0, MAX_POINTS)])


class AddForm(VersionedForm):
    unit = StringField(widget=HiddenInput(), validators=[InputRequired(), Length(max=MAX_KEY)])


class EntryRef(VersionedForm):
    index = _hidden_int(0)
    unit = StringField(widget=HiddenInput(), validators=[InputRequired(), Length(max=MAX_NAME)])


class EntryForm(EntryRef):
    count = WholeNumber("Count", validators=[
        InputRequired("Give a number."),
        NumberRange(1, MAX_COUNT, "Must be 1 to %(max)s.")])
    upgrades = SelectMultipleField("Upgrades", validate_choice=False,
                                   validators=[_at_most(MAX_PICKS, "upgrades")])


class RemoveForm(EntryRef):
    pass


class MoveForm(EntryRef):
    step = WholeNumber(widget=HiddenInput(), validators=[InputRequired(), NumberRange(-1, 1)])


class ReorderForm(EntryRef):
    """Move an entry to another place in one step (dragged, or moved from the keyboard)."""

    to = WholeNumber("New place", widget=HiddenInput(), validators=[
        InputRequired("Say where to move it."),
        NumberRange(0, MAX_HIDDEN, "Pick a place in the list.")])


class DuplicateForm(EntryRef):
    pass


class JoinForm(EntryRef):
    target = StringField("Joins", validators=[Optional(), Length(max=MAX_KEY)])


class DesignForm(VersionedForm):
    name = StringField("Unit name", validators=[
        InputRequired("Give the unit a name."), Length(max=MAX_NAME)])
    quality = WholeNumber("Quality", validators=[
        InputRequired("Pick a Quality."), NumberRange(0, 99)])
    rules = SelectMultipleField("Special rules", validate_choice=False,
                                validators=[_at_most(MAX_PICKS, "special rules")])
    replacing = StringField(widget=HiddenInput(), validators=[Optional(), Length(max=MAX_NAME)])


class DesignRef(VersionedForm):
    name = StringField(widget=HiddenInput(), validators=[InputRequired(), Length(max=MAX_NAME)])


class RedrawForm(VersionedForm):
    key = StringField(widget=HiddenInput(), validators=[InputRequired(), Length(max=MAX_NAME)])
    # a draw shown before and kept by the player ("Keep this draw"); none: a new one
    seed = WholeNumber(widget=HiddenInput(), validators=[Optional(), NumberRange(0, MAX_HIDDEN)])


class HistoryForm(VersionedForm):
    """Undo or redo: the version the page showed names the change (web/history.py)."""

    # the change the page was last refused, which an undo right after it cannot undo
    refused = StringField(widget=HiddenInput(), validators=[Optional()])


class ImportForm(FlaskForm):
    file = FileField("Roster file (.yaml)", validators=[FileRequired("Choose a roster file.")])


class ReplaceForm(ImportForm, VersionedForm):
    pass


class TokenForm(FlaskForm):
    token = StringField(widget=HiddenInput(), validators=[InputRequired(), Length(max=100)])



class RenameForm(VersionedForm):
    name = StringField("New name", validators=[
        InputRequired("Give the roster a name."), Length(max=MAX_NAME)])
