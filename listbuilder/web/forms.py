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
from wtforms import Field, IntegerField, SelectMultipleField, StringField
from wtforms.validators import (
    InputRequired,
    Length,
    NumberRange,
    StopValidation,
    ValidationError,
)
from wtforms.widgets import HiddenInput, TextInput

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


class ImportForm(FlaskForm):
    file = FileField("Roster file (.yaml)", validators=[FileRequired("Choose a roster file.")])


class TokenForm(FlaskForm):
    token = StringField(widget=HiddenInput(), validators=[InputRequired(), Length(max=100)])
