"""The events' forms: making an event, handing a list in, pairing a round and entering a
result. A change to an event carries the version the organiser's page showed (`base`: the
roster page's change queue, static/js/edits.js, claims every form with a `version` field), so
two devices of one organiser can't pair one round twice."""

from __future__ import annotations

from datetime import UTC, datetime

from flask_wtf import FlaskForm
from wtforms import (
    DateTimeLocalField,
    RadioField,
    SelectChoice,
    SelectField,
    SelectMultipleField,
    StringField,
    TextAreaField,
)
from wtforms.validators import InputRequired, Length, ValidationError

from listbuilder.engine.registry import all_systems
from listbuilder.web.forms import MAX_NAME, MAX_POINTS, InRange, _hidden_int, typed_number

MAX_ROUNDS = 20
MAX_PACK_LINKS = 10
MAX_LINK = 300
MAX_PLAYERS = 512  # lists an event takes; a present list of more is not one event's
NAME_WORDS = f"Enter a name of 1 to {MAX_NAME} characters."


def refused_words(form: FlaskForm) -> str:
    """What a form refused, its fields' words in one sentence, for the page's notice."""
    return "; ".join(" ".join(errors) for errors in form.errors.values())


class NewEventForm(FlaskForm):
    name = StringField("Event name", validators=[InputRequired(NAME_WORDS),
                                                 Length(max=MAX_NAME, message=NAME_WORDS)])
    system = SelectField("Game", validators=[InputRequired("Choose the event's game.")])
    points_limit = typed_number("Points limit", InRange(1, MAX_POINTS, ", the lists' size",
                                                          optional=True),
                                "Every list is checked against it; leave it empty to go by "
                                "each list's own limit.")
    kind = RadioField("Rounds", choices=[
        SelectChoice("rounds", "A tournament of a number of rounds"),
        SelectChoice("league", "A league: a night at a time, open-ended")], default="rounds")
    rounds = typed_number("Number of rounds", InRange(1, MAX_ROUNDS, optional=True))
    deadline = DateTimeLocalField("Lists close at (UTC)",
                                  validators=[InputRequired("Give the date and time lists "
                                                            "close, such as 2026-12-12 09:00.")])
    packs = TextAreaField("Studio packs allowed",
                          validators=[Length(max=MAX_PACK_LINKS * MAX_LINK)],
                          description="One pack's share link a line (it has /studio/s/ in "
                                      "it). Lists building with any other pack are flagged.")

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.system.choices = [SelectChoice(s.id, s.name) for s in all_systems()]

    def validate_rounds(self, field: object) -> None:
        if self.kind.data == "rounds" and self.rounds.data is None:
            raise ValidationError(f"Number of rounds: give 1 to {MAX_ROUNDS}, or choose a "
                                  "league.")

    def closes(self) -> datetime:
        chosen: datetime = self.deadline.data
        return chosen.replace(tzinfo=UTC)


class SettingsForm(FlaskForm):
    """What an organiser may change once lists are in: the name and the deadline."""

    base = _hidden_int(1)
    name = StringField("Event name", validators=[InputRequired(NAME_WORDS),
                                                 Length(max=MAX_NAME, message=NAME_WORDS)])
    deadline = DateTimeLocalField("Lists close at (UTC)",
                                  validators=[InputRequired("Give the date and time lists "
                                                            "close, such as 2026-12-12 09:00.")])

    def closes(self) -> datetime:
        chosen: datetime = self.deadline.data
        return chosen.replace(tzinfo=UTC)


class HandInForm(FlaskForm):
    link = StringField("Your roster's edit link",
                       validators=[InputRequired("Paste your roster's edit link (it has /r/ in "
                                                 "it)."), Length(max=MAX_LINK)])
    player = StringField("Your name", validators=[InputRequired(NAME_WORDS),
                                                  Length(max=MAX_NAME, message=NAME_WORDS)])


class PairForm(FlaskForm):
    base = _hidden_int(1)
    present = SelectMultipleField("Playing this round", coerce=int, validate_choice=False)

    def validate_present(self, field: SelectMultipleField) -> None:
        if len(field.data or []) > MAX_PLAYERS:
            raise ValidationError(f"At most {MAX_PLAYERS} players.")


class ResultForm(FlaskForm):
    base = _hidden_int(1)
    winner = RadioField("Result", choices=[SelectChoice("1", "First player won"),
                                           SelectChoice("2", "Second player won"),
                                           SelectChoice("0", "A draw")],
                        validators=[InputRequired("Choose who won, or a draw.")])
    score1 = typed_number("First player's score", InRange(0, 100_000, optional=True))
    score2 = typed_number("Second player's score", InRange(0, 100_000, optional=True))


class PlayForm(FlaskForm):
    """Play this table on the tracker: the CSRF token alone."""
