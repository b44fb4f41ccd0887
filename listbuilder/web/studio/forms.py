"""The faction studio's forms: their shape only; the pack's content is checked by the engine
(`listbuilder.engine.packs`), in the data loader's words."""

from __future__ import annotations

from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import SelectField, StringField, TextAreaField
from wtforms.validators import InputRequired, Length, NumberRange

from listbuilder.engine.packs import MAX_PACK_BYTES
from listbuilder.engine.registry import all_systems
from listbuilder.web.forms import MAX_HIDDEN, MAX_NAME, WholeNumber

NAME_HINT = "1 to 80 characters; players see it when they add the pack to a roster."


def _system_choices() -> list[tuple[str, str]]:
    return [(s.id, s.name) for s in all_systems()]


class NewPackForm(FlaskForm):
    system = SelectField("Game", validators=[InputRequired()])
    name = StringField("Pack name", validators=[InputRequired(), Length(1, MAX_NAME)],
                       description=NAME_HINT)

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.system.choices = _system_choices()


class ImportPackForm(FlaskForm):
    system = SelectField("Game", validators=[InputRequired()])
    file = FileField("Pack file (YAML)", validators=[FileRequired("Choose a .yaml file.")])

    def __init__(self, *args: object, **kwargs: object) -> None:
        # beside the new-pack form on one page: its own ids ("import-system")
        super().__init__(*args, prefix="import", **kwargs)
        self.system.choices = _system_choices()


class PackForm(FlaskForm):
    """The pack's name and text. Its version is `pack_version`, not `version`: the roster
    page's change queue (static/js/edits.js) takes forms with a `version` for its own."""

    name = StringField("Pack name", validators=[InputRequired(), Length(1, MAX_NAME)],
                       description=NAME_HINT)
    text = TextAreaField("The pack, as YAML",
                         validators=[Length(max=MAX_PACK_BYTES,
                                            message="The pack is too long: split it.")])
    pack_version = WholeNumber(validators=[InputRequired(), NumberRange(1, MAX_HIDDEN)])
