"""Forms check the shape of what is posted (types, lengths, counts); the engine checks rules.

Every form posts with a CSRF token (Flask-WTF). Forms that change a saved roster carry the
version the page showed, so a stale page is refused instead of overwriting newer work.
"""

from __future__ import annotations

import re
from typing import Any

from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import Field, IntegerField, SelectField, SelectMultipleField, StringField
from wtforms.validators import InputRequired, Length, NumberRange, Optional, ValidationError
from wtforms.widgets import HiddenInput

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


def _hidden_int(lo: int = 0) -> WholeNumber:
    return WholeNumber(widget=HiddenInput(), validators=[InputRequired(),
                                                         NumberRange(lo, MAX_HIDDEN)])


class VersionedForm(FlaskForm):
    """A change to a saved roster, based on the version the page showed."""

    version = _hidden_int(1)


class RosterSettingsFields(FlaskForm):
    name = StringField("Roster name", validators=[
        InputRequired("Give the roster a name."), Length(max=MAX_NAME)])
    factions = SelectMultipleField("Faction", validate_choice=True)
    points_limit = WholeNumber("Points limit", validators=[
        Optional(), NumberRange(1, MAX_POINTS, "The points limit must be 1 to %(max)s.")])


class NewRosterForm(RosterSettingsFields):
    pass


class SettingsForm(RosterSettingsFields, VersionedForm):
    pass


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
            fields[key] = WholeNumber(label, description=spec.help, validators=[
                Optional(), NumberRange(0, 2**31 - 1, "Must be 0 to %(max)s.")])
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
