"""The home page (the systems, this browser's rosters), starting a roster and opening a file."""

from __future__ import annotations

import secrets

from flask import Blueprint, abort, redirect, render_template, url_for
from werkzeug.wrappers import Response

from listbuilder.engine.model import Roster
from listbuilder.engine.registry import SYSTEMS, get_system
from listbuilder.engine.system import RuleSystem
from listbuilder.web import services
from listbuilder.web.forms import ImportForm, NewRosterForm, TokenForm
from listbuilder.web.rosters import canonical
from listbuilder.web.uploads import UploadProblem, read_upload

bp = Blueprint("home", __name__)

SEED_RANGE = 1_000_000


def _system(system_id: str) -> RuleSystem:
    try:
        return get_system(system_id)
    except ValueError:
        abort(404, f"There is no system {system_id!r}; pick one on the home page.")


def _home(import_form: ImportForm | None = None, problems: list[str] | None = None,
          status: int = 200) -> tuple[str, int]:
    lib = services.library()
    mine = services.store().by_edit_tokens(services.remembered())
    custom_problems = []
    for system in SYSTEMS:
        custom_problems += [f"{system.name}: {p}" for p in lib.loaded(system).problems]
    return render_template("web/home.html", mine=mine, import_form=import_form or ImportForm(),
                           forget_form=TokenForm(), problems=problems or [],
                           custom_problems=custom_problems), status


@bp.get("/")
def index() -> tuple[str, int]:
    return _home()


def _new_form(system: RuleSystem) -> NewRosterForm:
    form = NewRosterForm()
    catalog = services.library().catalog(system)
    form.factions.choices = [f.name for f in catalog.factions]
    if not form.is_submitted():
        form.points_limit.data = system.default_points_limit
    return form


@bp.route("/new/<system_id>", methods=["GET", "POST"])
def new(system_id: str) -> tuple[str, int] | Response:
    system = _system(system_id)
    form = _new_form(system)
    if form.validate_on_submit():
        catalog = services.library().catalog(system)
        seeds = {key: secrets.randbelow(SEED_RANGE) for key in system.random_choices()}
        roster = Roster(system=system.id, name=(form.name.data or "").strip(),
                        points_limit=form.points_limit.data if system.uses_points() else None,
                        factions=tuple(form.factions.data or ()), choices=seeds)
        _stored, token = services.store().create(system.id, roster.name,
                                                canonical(roster, system, catalog))
        services.remember(token)
        return redirect(url_for("builder.edit", token=token))
    status = 422 if form.is_submitted() else 200
    return render_template("web/new.html", system=system, form=form), status


@bp.post("/import")
def import_file() -> tuple[str, int] | Response:
    """Open a roster file as a new saved roster."""
    form = ImportForm()
    if not form.validate_on_submit():
        return _home(form, status=422)
    try:
        loaded = read_upload(services.library(), form.file.data)
    except UploadProblem as exc:
        return _home(form, exc.lines, status=422)
    text = canonical(loaded.roster, loaded.system, loaded.catalog)
    _, token = services.store().create(loaded.system.id, loaded.roster.name, text)
    services.remember(token)
    return redirect(url_for("builder.edit", token=token))


@bp.post("/forget")
def forget() -> tuple[str, int] | Response:
    """Take a roster off this browser's list (the roster itself stays saved)."""
    form = TokenForm()
    if not form.validate_on_submit():
        return _home(status=422)
    services.forget(form.token.data or "")
    return redirect(url_for("home.index"))
