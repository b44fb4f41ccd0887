"""The quick-resolve panel's form, as WTForms forms: the attackers and the target
(`PanelForm`), and one field per situation option in a form class built for the situation
(`situation_form`), as `forms.choices_form` builds one for a system's roster choices.

A search changes nothing, so the panel's form is a GET with no CSRF token. These are plain
`wtforms.Form`s fed the query the view read, not FlaskForms (which carry a token and read the
request themselves): `resolve.present` builds them without Flask, and tests build them alone.

Fields read the last value sent (a tick box sends its hidden "no" first), cut short. A
situation field reads its value with its option's own parser, so a value the option can't take
is the field's error in the engine's words, and the box shows what was typed. Looking a unit
up (an attacker's entry, a target's name) is the engine's, not a validator's: the panel adds
what it finds wrong to the field's errors.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from wtforms import Field, Form, HiddenField, RadioField, SelectChoice, SelectField, StringField

from listbuilder.engine.resolve import Option, OptionValue, ResolveError

MAX_TEXT = 200  # longest value read of a field; longer input is cut
MAX_SHOWN = 4000  # the form's list of the controls it showed
MAX_SELECT = 40  # a number option with more choices than this is a number box, not a list


class Suggestion(NamedTuple):
    """One entry of a text box's list of suggestions (a datalist): a value and what it is."""

    value: str
    text: str


def sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


class ErrorLine:
    """A field's first error, or "" (the panel shows one line under each field)."""

    errors: list[str]

    @property
    def error(self) -> str:
        return self.errors[0] if self.errors else ""


class LastValue:
    """Reads the last value sent, cut to `cut` characters (and with `strip`, spaces around
    dropped)."""

    cut = MAX_TEXT
    strip = False
    data: str | None

    def process_formdata(self, valuelist: list[str]) -> None:
        if valuelist:
            text = valuelist[-1][:self.cut]
            self.data = text.strip() if self.strip else text


class Text(LastValue, ErrorLine, StringField):
    strip = True


class Hidden(LastValue, HiddenField):
    pass


class ControlsShown(Hidden):
    cut = MAX_SHOWN


class Entries(LastValue, ErrorLine, SelectField):
    """A unit of a roster, as 'index:unit'. What was sent stays as sent: the panel finds the
    entry it names (`resolve.present._entry_index`) and shows that one, or says why not."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, choices=[], validate_choice=False, **kwargs)


class Source(RadioField):
    """Where the target comes from: anything but "roster" is the catalog."""

    def process_formdata(self, valuelist: list[str]) -> None:
        if valuelist:
            self.data = "roster" if valuelist[-1] == "roster" else "catalog"


class ShownForm(Form):
    """Forms are equal when they show the same: each field's value, choices and errors. An
    answer to a change leaves the panel as it was when it reads the same
    (web/builder/roster_parts.py), so a form compares by what it shows, not by identity."""

    def shows(self) -> tuple[object, ...]:
        return tuple((f.name, f.data, f.raw_data, list(f.errors), getattr(f, "option", None),
                      list(getattr(f, "choices", None) or []))
                     for f in self)

    def __eq__(self, other: object) -> bool:
        # a situation's form class is built for each panel: alike by name and fields
        return isinstance(other, ShownForm) and type(other).__name__ == type(self).__name__ \
            and self.shows() == other.shows()

    @property
    def has_errors(self) -> bool:
        return any(f.errors for f in self)

    __hash__ = None  # type: ignore[assignment]


# the attacker lists: each one's name (its id is "rs-" and the name) and label; the second
# offers nobody first
ATTACKERS = {"a1": "Attacker", "a2": "Compare with (optional)"}
NOBODY = ("", "Nobody: one attacker")


class PanelForm(ShownForm):
    """The attackers (a1, a2: the roster's entries; a2 may be none), where the target comes
    from (source), the target: a name (target) or a unit (te) of the roster a share link
    (link) opened (te_for: that roster's share token), and the situation's controls shown
    (shown: 'field:mark,...', see `resolve.present._fingerprint`)."""

    a1 = Entries(ATTACKERS["a1"], id="rs-a1")
    a2 = Entries(ATTACKERS["a2"], id="rs-a2")
    source = Source(choices=[SelectChoice("catalog", "Any unit of this game"),
                             SelectChoice("roster", "A unit of another roster")],
                    default="catalog")
    target = Text("Target unit", id="rs-target", default="")
    link = Text("Link to the other roster", id="rs-link", default="")
    te_for = Hidden(default="")
    te = Entries(id="rs-te")
    shown = ControlsShown(default="")

    def __init__(self, formdata: Any, attackers: Sequence[SelectChoice]) -> None:
        super().__init__(formdata)
        self.a1.choices = list(attackers)
        self.a2.choices = [SelectChoice(*NOBODY), *attackers]
        self.validate()  # no check of its own here: the fields' errors become lists to add to


class OptionField(ErrorLine, Field):
    """One situation option: its value parsed by the option (`data`; None when the text sent
    is not one it takes, the field's error saying why). Named `o-<key>` when it applies to
    every attacker, `o1-<key>` / `o2-<key>` when it is one attacker's own."""

    data: OptionValue | None

    def __init__(self, option: Option, **kwargs: Any) -> None:
        super().__init__(option.label, description=option.help, default=option.default,
                         **kwargs)
        self.option = option

    def process_formdata(self, valuelist: list[str]) -> None:
        if not valuelist:
            return
        self.data = None
        try:
            self.data = self.option.parse(valuelist[-1][:MAX_TEXT])
        except ResolveError as exc:
            raise ValueError(sentence(str(exc))) from exc

    @property
    def text(self) -> str:
        """The value as the control shows it: as typed, when it could not be read."""
        if self.process_errors and self.raw_data:
            return str(self.raw_data[-1][:MAX_TEXT])
        return self.option.text(self.option.default if self.data is None else self.data)

    @property
    def kind(self) -> str:
        """checkbox (yes/no), fixed (one choice only), number (a long range) or select."""
        if self.option.kind == "bool":
            return "checkbox"
        if len(self.option.choices) == 1:
            return "fixed"
        if self.option.kind == "int" and len(self.option.choices) > MAX_SELECT:
            return "number"
        return "select"

    @property
    def checked(self) -> bool:
        return self.text == "yes"

    @property
    def lo(self) -> str:
        return self.option.choices[0]

    @property
    def hi(self) -> str:
        return self.option.choices[-1]


class SituationForm(ShownForm):
    """The situation's controls: the fields are the situation's (`situation_form`)."""

    def settings(self, names: Sequence[str]) -> dict[str, Any] | None:
        """The options' values under these field names, by option key; None when one is
        wrong (its field says which, and nothing is guessed)."""
        fields = [self[name] for name in names]
        if any(f.errors for f in fields):
            return None
        return {f.option.key: f.data for f in fields}


def situation_form(controls: Sequence[tuple[str, Option]]) -> type[SituationForm]:
    """A form class with one field per (field name, option), in that order."""
    fields = {name: OptionField(option, id=f"rs-{name}") for name, option in controls}
    return type("SituationForm", (SituationForm,), fields)
