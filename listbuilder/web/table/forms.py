"""The tracker's forms: starting a match, and the two changes a match takes (an event, undo).

A change carries the match's version the page showed (`base`, not `version`: the roster page's
change queue, static/js/edits.js, claims every form with a `version` field). An event's own
values come as `v_<name>` fields, read by the kind's types in `event_from_form`.
"""

from __future__ import annotations

import re
from typing import Any

from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from werkzeug.datastructures import MultiDict
from wtforms import RadioField, SelectChoice, StringField
from wtforms.validators import InputRequired, Length, NumberRange, Optional

from listbuilder.engine.match import Event, Kind, Play, Setting, Value
from listbuilder.engine.word_counts import SEPARATOR, joined
from listbuilder.web.forms import (
    MAX_HIDDEN,
    MAX_NAME,
    InRange,
    WholeNumber,
    _hidden_int,
    typed_number,
)

SOURCES = (("link", "Their roster's share link"), ("file", "Their roster file"),
           ("solo", "No opponent here (solo, or theirs kept on paper)"))
NAME_WORDS = f"Enter a name of 1 to {MAX_NAME} characters."
MAX_VALUE_CHARS = 80
MAX_EVENT_VALUES = 8  # the most any game's event takes is four
# a list of picks (t_<name>.<word>): the words offered (Space Empires' deck has 18 kinds of
# card) and the picks in all (a hand is 7)
MAX_LISTED_WORDS = 60
MAX_LISTED_PICKS = 60
_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")


class StartForm(FlaskForm):
    me = StringField("Your name", validators=[InputRequired(NAME_WORDS),
                                              Length(max=MAX_NAME, message=NAME_WORDS)])
    opponent = StringField("Opponent's name", validators=[
        Optional(), Length(max=MAX_NAME, message=NAME_WORDS)])
    source = RadioField("Opponent's roster", choices=[SelectChoice(v, t) for v, t in SOURCES],
                        default="link")
    link = StringField("Share link", validators=[Optional(), Length(max=400)])
    file = FileField("Roster file")


def start_form(play: Play[Any]) -> StartForm:
    """The start form with a box for each of the game's match settings (`opt_<name>`), read
    from the request when it was posted (its file too)."""

    class Form(StartForm):
        pass

    for setting in play.settings:
        setattr(Form, f"opt_{setting.name}", typed_number(
            setting.label, InRange(setting.low, setting.high, optional=True),
            setting.help or f"{setting.low} to {setting.high}; {setting.default} if left "
                            f"empty."))
    return Form()


def chosen_settings(form: StartForm, settings: tuple[Setting, ...]) -> dict[str, Value]:
    out: dict[str, Value] = {}
    for setting in settings:
        value = getattr(form, f"opt_{setting.name}").data
        out[setting.name] = setting.default if value is None else int(value)
    return out


class ChangeForm(FlaskForm):
    """Undo, or the frame of an event: the version the page showed."""

    base = _hidden_int(1)


class EventForm(ChangeForm):
    kind = StringField(validators=[InputRequired(), Length(max=40)])
    side = WholeNumber(validators=[Optional(), NumberRange(0, 2)])
    unit = WholeNumber(validators=[Optional(), NumberRange(1, MAX_HIDDEN)])
    id = StringField(validators=[Optional(), Length(max=40)])


class BadEvent(ValueError):
    pass


def event_from_form(form: EventForm, raw: MultiDict[str, str], kinds: dict[str, Kind]) -> Event:
    """The event a tap posted: its values (`v_<name>`) read by its kind's types; an unknown
    kind keeps its values as words, for the rules to refuse by name. A list of picks comes as
    a number box a word (`t_<name>.<word>`: how many of it), joined into one word value
    (engine/word_counts.py), so that a picker needs no script."""
    kind = kinds.get(form.kind.data or "")
    values: list[tuple[str, Value]] = list(_listed(raw).items())
    if sum(1 for key in raw if key.startswith("v_")) + len(values) > MAX_EVENT_VALUES:
        raise BadEvent(f"an event has at most {MAX_EVENT_VALUES} values")
    for key in raw:
        if not key.startswith("v_"):
            continue
        name, text = key[2:], raw.get(key, "").strip()
        if len(name) > 40 or len(text) > MAX_VALUE_CHARS:
            raise BadEvent(f"'{name[:40]}' is too long")
        if any(name == listed for listed, _ in values):
            raise BadEvent(f"'{name}' is given twice")
        typ = kind.values.get(name) if kind else None
        if text == "" and kind is not None and name in kind.optional:
            continue
        values.append((name, _typed(name, text, typ)))
    event_id = (form.id.data or "").strip()
    if event_id and not _ID.fullmatch(event_id):
        raise BadEvent("an event's id is letters, digits, - and _, at most 40")
    return Event(form.kind.data or "", form.side.data or None, form.unit.data,
                 tuple(sorted(values)), event_id)


def _listed(raw: MultiDict[str, str]) -> dict[str, str]:
    """The lists of picks a form's number boxes give (`t_<name>.<word>`), each joined."""
    picks: dict[str, list[tuple[str, int]]] = {}
    boxes = [key for key in raw if key.startswith("t_")]
    if len(boxes) > MAX_LISTED_WORDS:
        raise BadEvent(f"a list has at most {MAX_LISTED_WORDS} words to pick from")
    for key in boxes:
        name, dot, word = key[2:].partition(".")
        word, text = word.strip(), raw.get(key, "").strip()
        if not name or not dot or not word or SEPARATOR.strip() in word:
            raise BadEvent(f"'{key[:40]}' is not a word of a list")
        if len(name) > 40 or len(word) > MAX_VALUE_CHARS:
            raise BadEvent(f"'{key[:40]}' is too long")
        if not re.fullmatch(r"[0-9]{0,2}", text):
            raise BadEvent(f"how many {word} is a whole number from 0 to 99, not {text[:9]!r}")
        picks.setdefault(name, []).append((word, int(text or 0)))
    for name, words in picks.items():
        if sum(n for _, n in words) > MAX_LISTED_PICKS:
            raise BadEvent(f"'{name}' lists at most {MAX_LISTED_PICKS} picks")
    return {name: joined(words) for name, words in picks.items()}


def _typed(name: str, text: str, typ: type | None) -> Value:
    if typ is bool:
        if text.lower() in ("yes", "true", "on", "1"):
            return True
        if text.lower() in ("no", "false", "off", "0"):
            return False
        raise BadEvent(f"'{name}' is yes or no, not {text!r}")
    if typ is int:
        if not re.fullmatch(r"-?[0-9]{1,9}", text):
            raise BadEvent(f"'{name}' is a whole number, not {text!r}")
        return int(text)
    return text


CLOCK_ACTIONS = ("clock-start", "clock-switch", "clock-pause", "clock-resume")


class ClockForm(ChangeForm):
    """A clock tap: its kind, the side it names, the match's time limit (a start's), and the
    phone's own time of the tap in ms (`sent`, added by table.js; none with scripts off)."""

    kind = StringField(validators=[InputRequired(), Length(max=40)])
    side = WholeNumber(validators=[Optional(), NumberRange(1, 2)])
    minutes = typed_number("Time limit (minutes)", InRange(1, 24 * 60, optional=True,
                                                           absent_ok=True))
    sent = StringField(validators=[Optional(), Length(max=16)])
    id = StringField(validators=[Optional(), Length(max=40)])

    def sent_ms(self) -> int | None:
        text = (self.sent.data or "").strip()
        return int(text) if re.fullmatch(r"[0-9]{1,15}", text) else None

    def event_id(self) -> str:
        text = (self.id.data or "").strip()
        if text and not _ID.fullmatch(text):
            raise BadEvent("an event's id is letters, digits, - and _, at most 40")
        return text
