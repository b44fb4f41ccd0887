"""The home page (the systems, this browser's rosters), starting a roster and opening a file;
managing the rosters listed there: duplicate, rename, delete (asked first, and undone later)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from flask import Blueprint, abort, redirect, render_template, request, session, url_for
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response

from listbuilder.engine.model import Roster
from listbuilder.engine.registry import all_systems, get_system
from listbuilder.engine.report import report
from listbuilder.engine.system import RuleSystem
from listbuilder.store.rosters import StaleRoster, Stored
from listbuilder.web import collection, services
from listbuilder.web.forms import ImportForm, TokenForm
from listbuilder.web.home.forms import NewRosterForm, RenameForm
from listbuilder.web.rosters import StoredRosterError, canonical, fresh_seeds, open_stored
from listbuilder.web.uploads import UploadProblem, read_upload

bp = Blueprint("home", __name__)



def _system(system_id: str) -> RuleSystem:
    try:
        return get_system(system_id)
    except ValueError:
        abort(404, f"There is no system {system_id!r}; pick one on the home page.")


DELETED = "deleted"  # session key: edit tokens of rosters deleted here, for their undo


@dataclass(frozen=True)
class Listed:
    """A roster in this browser's list, as the home page shows it."""

    token: str
    stored: Stored
    system: str  # the system's name
    total: str  # "145/150 pts", as the system reads its total ("" when it can't be read)
    status: str  # "Legal", "Not legal yet", "Empty", or why it can't be opened
    state: str  # "legal", "illegal", "empty", "unreadable"


def _listed(token: str, stored: Stored) -> Listed:
    try:
        opened = open_stored(services.library(), stored)
    except StoredRosterError:
        return Listed(token, stored, stored.system, "", "Can't be opened", "unreadable")
    found = report(opened.system, opened.catalog, opened.roster)
    return Listed(token, stored, opened.system.name, found.totals.headline, found.status.label,
                  found.status.state)


def _deleted() -> list[tuple[str, Stored]]:
    out = []
    for token in session.get(DELETED, []):
        gone = services.store().deleted_by_edit_token(token) if isinstance(token, str) else None
        if gone is not None:
            out.append((token, gone))
    return out


def _home(import_form: ImportForm | None = None, problems: list[str] | None = None,
          status: int = 200, said: str = "",
          upload: UploadProblem | None = None) -> tuple[str, int]:
    lib = services.library()
    mine = [_listed(token, stored)
            for token, stored in services.store().by_edit_tokens(collection.remembered())]
    custom_problems = []
    for system in all_systems():
        custom_problems += [f"{system.name}: {p}" for p in lib.loaded(system).problems]
    shared = collection.followed()
    return render_template("home/index.html", mine=mine, import_form=import_form or ImportForm(),
                           forget_form=TokenForm(), problems=problems or [],
                           custom_problems=custom_problems, deleted=_deleted(),
                           said=said, upload=upload, linked=request.args.get("linked", "")[:1],
                           list_link=url_for("roster_lists.follow", token=shared,
                                             _external=True) if shared else ""), status


@bp.get("/")
def index() -> tuple[str, int]:
    return _home()


def _new_form(system: RuleSystem) -> NewRosterForm:
    form = NewRosterForm()
    catalog = services.library().catalog(system)
    form.factions.choices = [f.name for f in catalog.factions]
    if not system.uses_points:  # the form shows, checks and reads no limit
        del form.points_limit
    elif not form.is_submitted():
        form.points_limit.data = system.default_points_limit
    return form


@bp.route("/new/<system_id>", methods=["GET", "POST"])
def new(system_id: str) -> tuple[str, int] | Response:
    system = _system(system_id)
    form = _new_form(system)
    if form.validate_on_submit():
        catalog = services.library().catalog(system)
        seeds = fresh_seeds(system)
        limit = None
        if "points_limit" in form:
            limit = form.points_limit.data or system.default_points_limit
        roster = Roster(system=system.id, name=(form.name.data or "").strip(),
                        points_limit=limit,
                        factions=tuple(form.factions.data or ()), choices=seeds)
        _stored, token = services.store().create(system.id, roster.name,
                                                canonical(roster, system, catalog))
        collection.remember(token)
        return redirect(url_for("builder.edit", token=token))
    status = 422 if form.is_submitted() else 200
    return render_template("home/new.html", system=system, form=form), status


@bp.post("/import")
def import_file() -> tuple[str, int] | Response:
    """Open a roster file as a new saved roster."""
    form = ImportForm()
    if not form.validate_on_submit():
        return _home(form, status=422)
    try:
        loaded = read_upload(services.library(), form.file.data)
    except UploadProblem as exc:
        return _home(form, exc.lines, status=422, upload=exc)
    roster = replace(loaded.roster, name=collection.distinct_name(loaded.roster.name))
    text = canonical(roster, loaded.system, loaded.catalog)
    _, token = services.store().create(loaded.system.id, roster.name, text)
    collection.remember(token)
    return redirect(url_for("builder.edit", token=token))


@bp.post("/forget")
def forget() -> tuple[str, int] | Response:
    """Take a roster off this browser's list (the roster itself stays saved)."""
    form = TokenForm()
    if not form.validate_on_submit():
        return _home(status=422)
    collection.forget(form.token.data or "")
    return redirect(url_for("home.index"))


# -- managing a listed roster (each needs its edit link) --------------------------------------

@bp.post("/r/<token>/keep")
def keep(token: str) -> tuple[str, int] | Response:
    """Put a roster opened by its edit link on this browser's list (and the list link's, when
    it follows one): asked for on the roster's page, never done by opening the link."""
    stored = services.by_edit_token(token)
    if not FlaskForm().validate_on_submit():
        return _home(status=422, said=f"{stored.name} was not kept: the form had expired. "
                                      f"Open the roster again and press Keep.")
    collection.remember(token)
    return redirect(url_for("builder.edit", token=token))


@bp.post("/r/<token>/duplicate")
def duplicate(token: str) -> tuple[str, int] | Response:
    """A new roster with the same contents and its own links, first in this browser's list."""
    if not FlaskForm().validate_on_submit():
        return _home(status=422)
    stored = services.by_edit_token(token)
    try:
        opened = open_stored(services.library(), stored)
    except StoredRosterError:
        return _home(status=422, said=f"{stored.name} can't be opened, so it was not copied.")
    roster = replace(opened.roster,
                     name=collection.distinct_name(f"{opened.roster.name} (copy)"[:80]))
    _, new = services.store().create(stored.system, roster.name,
                                     canonical(roster, opened.system, opened.catalog))
    collection.remember(new)
    return redirect(url_for("home.index", _anchor="mine-title"))


@bp.post("/r/<token>/rename")
def rename(token: str) -> tuple[str, int] | Response:
    stored = services.by_edit_token(token)
    form = RenameForm()
    if not form.validate_on_submit():
        problems = [e for name, errs in form.errors.items() if name != "csrf_token" for e in errs]
        return _home(status=422, said=f"{stored.name} was not renamed: {' '.join(problems)}")
    try:
        opened = open_stored(services.library(), stored)
        roster = replace(opened.roster, name=(form.name.data or "").strip())
        services.store().save(stored.id, form.version.data or 0, roster.name,
                              canonical(roster, opened.system, opened.catalog),
                              label=f"Rename to {roster.name}")
    except StoredRosterError:
        return _home(status=422, said=f"{stored.name} can't be opened, so it was not renamed.")
    except StaleRoster:
        return _home(status=409, said=f"{stored.name} was not renamed: it changed since this "
                                      f"page was loaded. Here is the latest; try again.")
    return redirect(url_for("home.index", _anchor="mine-title"))


@bp.route("/r/<token>/delete", methods=["GET", "POST"])
def delete(token: str) -> tuple[str, int] | Response:
    """Asks first (a page of its own); deleting hides the roster from every link until it is
    restored here or purged (`listbuilder db purge`)."""
    stored = services.by_edit_token(token)
    form = FlaskForm()
    if not form.validate_on_submit():
        return render_template("home/delete.html", stored=stored, token=token,
                               listed=_listed(token, stored)), 200
    services.store().delete(stored.id)
    collection.forget(token)
    session[DELETED] = [token, *[t for t in session.get(DELETED, []) if t != token]][:10]
    return redirect(url_for("home.index", _anchor="deleted"))


@bp.post("/r/<token>/restore")
def restore(token: str) -> tuple[str, int] | Response:
    """Undo a delete: the roster and its links work again."""
    if not FlaskForm().validate_on_submit():
        return _home(status=422)
    gone = services.store().deleted_by_edit_token(token)
    if gone is None:
        abort(404, "There is no deleted roster with this edit link to restore.")
    services.store().restore(gone.id)
    session[DELETED] = [t for t in session.get(DELETED, []) if t != token]
    collection.remember(token)
    return redirect(url_for("home.index", _anchor="mine-title"))
