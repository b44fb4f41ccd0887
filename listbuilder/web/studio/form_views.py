"""The faction studio's form view: a pack edited through boxes made from its game's schema
(`studio.fields`) instead of as YAML. Every post rebuilds the pack's text from the boxes, so
the form, the live check and the YAML view always agree, and it works without JavaScript: Add
and Remove post the form and draw the page again. With htmx they swap in only what they
change (the form, its notices and the check), and a typed change only refreshes the check.

The pack is kept as its text (`PackStore`), as the YAML view keeps it: the same save, the
same version check, the same page (studio._edit_page) with the form in the text's place.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from flask import Blueprint, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as WerkzeugResponse

from listbuilder.engine.errors import DataError, DataLoadError
from listbuilder.engine.packs import pack_file_name
from listbuilder.engine.registry import get_system
from listbuilder.store.packs import PackTooLarge, StalePack, StoredPack
from listbuilder.web import services
from listbuilder.web.studio import views as studio
from listbuilder.web.studio.fields import (
    FACTION_NAMES,
    Drawn,
    Spec,
    TooManyFields,
    draw,
    faction_names,
    focus_after,
    form_spec,
    leading_comments,
    pack_data,
    pack_text,
    read_boxes,
    refusals,
)
from listbuilder.web.studio.forms import PackForm

bp = Blueprint("studio_form", __name__, url_prefix="/studio")

NOT_SAVED = "Not saved yet: Save keeps these changes as a new version."


def _stored_data(stored: StoredPack) -> dict[str, Any] | None:
    try:
        return pack_data(stored.text, pack_file_name(stored.name))
    except DataLoadError:
        return None


def _page(token: str, stored: StoredPack, form: PackForm, text: str, data: dict[str, Any] | None,
          said: str = "", status: int = 200, action: str = "",
          part: bool = False, refused: Sequence[DataError] = ()) -> tuple[str, int]:
    """The pack's page in the form view: `data` drawn as the form (or, when the text can't be
    drawn, why not, with the text carried along unchanged), checked as `text`. `part`: only
    the parts an Add or Remove changes, for htmx; `refused`: boxes kept as typed, and why."""
    system = get_system(stored.system)
    spec = form_spec(system)
    file = pack_file_name(form.name.data or stored.name)
    form.text.data = text
    drawn: Drawn | None = None
    problem = ""
    if data is None:
        try:
            data = pack_data(text, file)
        except DataLoadError as exc:
            problem = str(exc.errors[0])
    if data is not None:
        try:
            drawn = draw(spec, data, file)
        except TooManyFields as exc:  # the text the boxes wrote is carried instead
            problem = str(exc)
    builtin = (f.name for f in services.library().catalog(system).factions)
    return studio._edit_page(token, stored, form, said=said, status=status, extra={
        "view": "form", "drawn": drawn, "problem": problem,
        "field_of": drawn.field_of if drawn else None,
        "focus": focus_after(spec, action, data) if data is not None else "",
        "unsaved": data is not None and data != _stored_data(stored),
        "suggestions": {FACTION_NAMES: faction_names(data, builtin)}}, part=part,
        refused=refused)


def _from_form(spec: Spec, stored: StoredPack, file: str,
               action: str = "") -> tuple[str, dict[str, Any], tuple[DataError, ...]]:
    """The posted boxes as the pack's data and its text, and the boxes kept as typed because
    their YAML was refused (named in `file`, the pack's); a form that carries the text it
    could not draw (not YAML, not a mapping) posts that text, unchanged."""
    if "text" in request.form:
        return request.form["text"].replace("\r\n", "\n"), {}, ()
    data, refused = read_boxes(spec, request.form, action)
    text = pack_text(data, leading_comments(stored.text))
    return text, data, refusals(refused, text, file)


@bp.get("/p/<token>/form")
def edit(token: str) -> tuple[str, int]:
    stored = studio.pack_by_edit_token(token)
    form = PackForm(data={"name": stored.name, "text": stored.text,
                          "pack_version": stored.version})
    return _page(token, stored, form, stored.text, None)


@bp.post("/p/<token>/form")
def post(token: str) -> tuple[str, int] | WerkzeugResponse:
    """Every button of the form view: save, check (without JavaScript), add or remove an item,
    the YAML view; and the YAML view's Form button, which posts its text here."""
    stored = studio.pack_by_edit_token(token)
    system = get_system(stored.system)
    spec = form_spec(system)
    form = PackForm()
    valid = form.validate_on_submit()
    action = request.form.get("action", "")[:200]
    # Add and Remove from a page with htmx: the form is swapped, not the page drawn again
    part = services.is_htmx() and action.partition(":")[0] in ("add", "remove")
    if action == "form":  # from the YAML view: its text, drawn as boxes, not saved
        return _page(token, stored, form, form.text.data or "", None)
    file = pack_file_name(form.name.data or stored.name)
    try:
        text, data, refused = _from_form(spec, stored, file, action)
    except TooManyFields as exc:
        return _page(token, stored, form, stored.text, None, status=422, said=f"Not saved: {exc}.",
                     part=part)
    carried = "text" in request.form
    if action == "yaml":
        return _yaml_view(token, stored, form, text, None if carried else data)
    if action != "save":
        return _page(token, stored, form, text, None if carried else data, action=action,
                     part=part, refused=refused)
    if not valid:
        return _page(token, stored, form, text, None if carried else data, status=422,
                     refused=refused)
    if refused:  # saved, the box would hold its text in quotes: no longer what was typed
        return _page(token, stored, form, text, data, status=422, refused=refused,
                     said="Not saved: a box holds more than a pack can (its problem is "
                          "named below). What you typed is still in it: change it and "
                          "save again.")
    try:
        saved = services.packs().save(stored.id, form.pack_version.data or 0,
                                    (form.name.data or "").strip(), text)
    except StalePack as exc:
        # the boxes show what was posted; its version is told to show the current one
        form.pack_version.data = exc.current.version
        form.pack_version.raw_data = [str(exc.current.version)]
        return _page(token, exc.current, form, text, None if carried else data, status=409,
                     said="Not saved: this pack was saved elsewhere since this page was "
                          "opened. Your changes are still below; save again to replace that "
                          "version with them, or reload to see it.", refused=refused)
    except PackTooLarge as exc:
        return _page(token, stored, form, text, None if carried else data, status=422,
                     said=f"Not saved: {exc}.", refused=refused)
    except LookupError:  # deleted (from another tab) since this request found it
        studio._no_pack(token)
    return redirect(url_for("studio_form.edit", token=token, saved=saved.version))


def _yaml_view(token: str, stored: StoredPack, form: PackForm, text: str,
               data: dict[str, Any] | None) -> tuple[str, int]:
    """The YAML view with what the boxes hold. Unchanged boxes give back the saved text as it
    was written (its comments, its layout), not the form's rewrite of it."""
    unchanged = data is not None and data == _stored_data(stored)
    form.text.data = stored.text if unchanged else text
    return studio._edit_page(token, stored, form, extra={
        "view": "yaml", "unsaved": not unchanged and form.text.data != stored.text})


@bp.post("/p/<token>/form/check")
def check(token: str) -> tuple[str, int]:
    """The live check of the form as the player types (htmx): the same panel as the YAML
    view's, each problem linked to the box it is about."""
    stored = studio.pack_by_edit_token(token)
    system = get_system(stored.system)
    form = PackForm()
    form.validate()
    name = form.name.data or stored.name
    file = pack_file_name(name)
    field_of = None
    try:
        text, data, refused = _from_form(form_spec(system), stored, file)
    except TooManyFields as exc:
        text, data = "", {}
        view = studio.CheckView((DataError(file, (), str(exc)),))
    else:
        view = studio.check_view(system, name, text)
        view = replace(view, errors=(*refused, *view.errors))
        if "text" not in request.form:
            with contextlib.suppress(TooManyFields):  # no boxes to link its problems to
                field_of = draw(form_spec(system), data, file).field_of
    return render_template("studio/_check.html", check=view, system=system,
                           field_of=field_of), 200
