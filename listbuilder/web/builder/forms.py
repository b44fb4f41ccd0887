"""The builder's forms: one per change a player makes on the roster page. Each checks the
shape of what is posted; the engine checks the rules (listbuilder/web/forms.py says how)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_wtf import FlaskForm
from wtforms import SelectField, SelectMultipleField, StringField
from wtforms.validators import InputRequired, Length, NumberRange, Optional
from wtforms.widgets import HiddenInput

from listbuilder.engine.schema import MAX_COUNT
from listbuilder.engine.system import RuleSystem
from listbuilder.web.forms import (
    LIMIT_WORDS,
    MAX_HIDDEN,
    MAX_KEY,
    MAX_NAME,
    MAX_PICKS,
    MAX_POINTS,
    ImportForm,
    InRange,
    RosterSettingsFields,
    VersionedForm,
    WholeNumber,
    _at_most,
    _hidden_int,
    typed_number,
)


class SettingsForm(RosterSettingsFields, VersionedForm):
    def without_points(self) -> None:
        """A game with no points limit shows no box: a limit sent anyway is checked (as the
        box would check it), not needed, and not kept (builder.settings)."""
        self.points_limit.validators = [InRange(1, MAX_POINTS, LIMIT_WORDS, optional=True,
                                                absent_ok=True)]


def choices_form(system: RuleSystem,
                 options: Mapping[str, tuple[tuple[str, str], ...]]) -> type:
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
                if key in system.builder().random_choices() else ""
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
    """Undo or redo: the version the page showed names the change (engine/history.py)."""

    # the change the page was last refused, which an undo right after it cannot undo
    refused = StringField(widget=HiddenInput(), validators=[Optional()])


class ReplaceForm(ImportForm, VersionedForm):
    pass
