"""Home's forms: starting a roster and renaming one in this browser's list."""

from __future__ import annotations

from wtforms import StringField
from wtforms.validators import InputRequired, Length

from listbuilder.web.forms import (
    LIMIT_WORDS,
    MAX_NAME,
    MAX_POINTS,
    InRange,
    RosterSettingsFields,
    VersionedForm,
    typed_number,
)


class NewRosterForm(RosterSettingsFields):
    # a script's post without the box starts a roster at the game's usual limit, the one the
    # page fills in (home.views.new): a roster with no limit at all is never made
    points_limit = typed_number("Points limit", InRange(1, MAX_POINTS, LIMIT_WORDS,
                                                        absent_ok=True))


class RenameForm(VersionedForm):
    name = StringField("New name", validators=[
        InputRequired("Give the roster a name."), Length(max=MAX_NAME)])
