"""The faction studio (`/studio`): a player's own factions, units, chits or goals for one game,
kept as packs. A pack is one YAML file in the format of the game's data files, checked as it is
typed in the data loader's own words, with each unit's profile and cost as the game reads it.

Packs are kept like rosters: a private edit link (remembered in this browser's session), a
read-only share link, and every saved version.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import NoReturn

from flask import (
    Blueprint,
    Response,
    abort,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response as WerkzeugResponse

from listbuilder.engine.catalog import MAX_LISTED
from listbuilder.engine.errors import DataError, DataLoadError
from listbuilder.engine.model import RosterEntry, Unit
from listbuilder.engine.packs import MAX_PACK_BYTES, Pack, PackCheck, check_pack, pack_file_name
from listbuilder.engine.profile import Profile
from listbuilder.engine.registry import get_system
from listbuilder.engine.system import RuleSystem
from listbuilder.store.packs import PackTooLarge, StalePack, StoredPack
from listbuilder.web import services
from listbuilder.web.forms import TokenForm
from listbuilder.web.studio.forms import ImportPackForm, NewPackForm, PackForm
from listbuilder.web.studio.roster_packs import start_roster_with

bp = Blueprint("studio", __name__, url_prefix="/studio")

PACKS = "packs"  # session key: edit tokens of the packs this browser made or opened
PACKS_KEPT = 50


def _remember(token: str) -> None:
    mine = [t for t in session.get(PACKS, []) if isinstance(t, str) and t != token]
    session[PACKS] = [token, *mine][:PACKS_KEPT]
    session.permanent = True


def _gone(deleted: datetime | None) -> None:
    """A link of a deleted pack answers 410 with a page that says so (not "no such pack":
    the link was right, and copying it again will not help)."""
    if deleted is not None:
        abort(Response(render_template("studio/deleted.html", deleted=deleted), 410))


def _no_pack(token: str) -> NoReturn:
    """The answer to an edit link that opens no pack (or no longer: deleted meanwhile)."""
    _gone(services.packs().deleted_by_edit_token(token))
    abort(404, "No pack has this edit link. Check that the whole link was copied.")


def pack_by_edit_token(token: str) -> StoredPack:
    found = services.packs().by_edit_token(token)
    if found is None:
        _no_pack(token)
    return found


def pack_by_share_token(share: str) -> StoredPack:
    found = services.packs().by_share_token(share)
    if found is None:
        _gone(services.packs().deleted_by_share_token(share))
        abort(404, "No pack has this share link. Check that the whole link was copied.")
    return found


# -- what a pack adds, as the studio shows it -------------------------------------------------

@dataclass(frozen=True)
class UnitView:
    unit: Unit
    cost: str  # the price of a unit of its usual size, as the game writes it ("" if none)
    profile: Profile

    @property
    def dom_id(self) -> str:
        return "unit-" + "".join(c if c.isalnum() else "-" for c in self.unit.name.casefold())


@dataclass(frozen=True)
class CheckView:
    errors: tuple[DataError, ...]
    factions: tuple[str, ...] = ()
    units: tuple[UnitView, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def heading(self) -> str:
        """"3 problems to fix"; past the problems listed, the last line counts the rest."""
        n = len(self.errors)
        if n > MAX_LISTED:
            return f"More than {MAX_LISTED} problems to fix"
        return f"{n} problem{'s' if n != 1 else ''} to fix"


def _unit_view(system: RuleSystem, check: PackCheck, unit: Unit) -> UnitView:
    assert check.loaded is not None
    catalog = check.loaded.catalog
    entry = RosterEntry(unit=unit.name, faction=unit.faction,
                        count=system.builder().default_count(unit))
    cost = system.price_text(system.entry_cost(catalog, unit, entry)) \
        if system.uses_points else ""
    return UnitView(unit, cost, system.profile(catalog, unit))


def check_view(system: RuleSystem, name: str, text: str) -> CheckView:
    """The pack's problems, or what it adds, with each unit's profile and cost. A text over
    the size a pack may have is not read at all: that is its one problem."""
    if len(text.encode("utf-8")) > MAX_PACK_BYTES:
        return CheckView((DataError(pack_file_name(name), (),
                                    f"larger than {MAX_PACK_BYTES // 1024} KB: split it"),))
    pack = Pack(system.id, name, text)
    check = check_pack(system, services.library().loaded(system), pack)
    if not check.ok:
        return CheckView(check.errors)
    return CheckView((), tuple(f.name for f in check.factions(pack.file)),
                     tuple(_unit_view(system, check, u) for u in check.units(pack.file)))


# -- pages ------------------------------------------------------------------------------------

def _home(new_form: NewPackForm | None = None, import_form: ImportPackForm | None = None,
          problems: list[str] | None = None, status: int = 200) -> tuple[str, int]:
    tokens = [t for t in session.get(PACKS, []) if isinstance(t, str)]
    mine = [(t, p) for t in tokens if (p := services.packs().by_edit_token(t)) is not None]
    return render_template("studio/home.html", mine=mine,
                           new_form=new_form or NewPackForm(),
                           import_form=import_form or ImportPackForm(),
                           problems=problems or [], system_of=get_system), status


@bp.get("")
def index() -> tuple[str, int]:
    return _home()


@bp.post("/new")
def new() -> tuple[str, int] | WerkzeugResponse:
    form = NewPackForm()
    if not form.validate_on_submit():
        return _home(new_form=form, status=422)
    system = get_system(form.system.data or "")
    _stored, token = services.packs().create(system.id, (form.name.data or "").strip(),
                                    system.pack_starter())
    _remember(token)
    return redirect(url_for("studio.edit", token=token))


@bp.post("/import")
def import_pack() -> tuple[str, int] | WerkzeugResponse:
    """A pack file (one written by hand, or exported from a studio) as a new pack. It is kept
    even with problems, which its page then lists, so nothing the player sent is lost."""
    form = ImportPackForm()
    if not form.validate_on_submit():
        return _home(import_form=form, status=422)
    upload = form.file.data
    file_name = (upload.filename or "pack.yaml")[-100:]
    try:
        raw = upload.read(MAX_PACK_BYTES + 1)
    finally:
        upload.close()  # a large upload is spooled to a temporary file: let it go now
    if len(raw) > MAX_PACK_BYTES:
        return _home(import_form=form, status=422, problems=[
            f"{file_name}: larger than {MAX_PACK_BYTES // 1024} KB: split it into packs of "
            f"one faction each"])
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return _home(import_form=form, status=422,
                     problems=[f"{file_name}: not UTF-8 text: save it as UTF-8 and try again"])
    system = get_system(form.system.data or "")
    name = file_name.rsplit(".", 1)[0].replace("-", " ").replace("_", " ").strip()[:80]
    name = name[:1].upper() + name[1:]  # sea_dogs.yaml -> "Sea dogs"
    _stored, token = services.packs().create(system.id, name or "Imported pack", text)
    _remember(token)
    return redirect(url_for("studio.edit", token=token))


def _edit_page(token: str, stored: StoredPack, form: PackForm | None = None,
               said: str = "", status: int = 200,
               extra: Mapping[str, object] | None = None, part: bool = False,
               refused: Sequence[DataError] = ()) -> tuple[str, int]:
    """The pack's page; `extra` is more for its template (the form view: studio.form_views).
    `part`: only the parts a change of the form redraws (its form, notices and check), for
    htmx to swap in; the page is the same parts in its layout. `refused`: problems found
    before the text was made (the form's boxes kept as typed), listed first."""
    system = get_system(stored.system)
    if form is None:
        form = PackForm(data={"name": stored.name, "text": stored.text,
                              "pack_version": stored.version})
    name, text = form.name.data or stored.name, form.text.data or ""
    check = check_view(system, name, text)
    if refused:
        check = replace(check, errors=(*refused, *check.errors))
    # whether a roster can start with the saved version (the boxes may hold another text)
    usable = None if part else (check.ok if (name, text) == (stored.name, stored.text)
                                else check_view(system, stored.name, stored.text).ok)
    return render_template(
        "studio/_form_part.html" if part else "studio/pack.html", token=token,
        stored=stored, system=system, form=form, check=check, said=said,
        versions=[] if part else services.packs().versions(stored.id),
        cards_url=url_for("studio_print.cards_by_edit", token=token),
        file_name=pack_file_name(name),
        share_link=url_for("studio.shared", share=stored.share_token, _external=True),
        edit_link=url_for("studio.edit", token=token, _external=True),
        not_kept=not part and token not in session.get(PACKS, []), usable=usable,
        **(extra or {})), status


@bp.get("/p/<token>")
def edit(token: str) -> tuple[str, int]:
    # Opening the link keeps nothing: the page offers to (keep, below), as a roster's does.
    return _edit_page(token, pack_by_edit_token(token))


@bp.post("/p/<token>/keep")
def keep(token: str) -> WerkzeugResponse:
    """Put a pack opened by its edit link on this browser's list, when the player asks."""
    pack_by_edit_token(token)
    if not FlaskForm().validate_on_submit():
        abort(400, "This form had expired; reload the page and try again.")
    _remember(token)
    return redirect(url_for("studio.edit", token=token))


@bp.post("/p/<token>")
def save(token: str) -> tuple[str, int] | WerkzeugResponse:
    """Keep the text as typed, problems and all (the page lists them); a roster can use only
    a version without problems."""
    stored = pack_by_edit_token(token)
    form = PackForm()
    if not form.validate_on_submit():
        return _edit_page(token, stored, form, status=422)
    try:
        saved = services.packs().save(stored.id, form.pack_version.data or 0,
                             (form.name.data or "").strip(), form.text.data or "")
    except StalePack as exc:
        # the form shows what was posted: its version is told to show the current one
        form.pack_version.data = exc.current.version
        form.pack_version.raw_data = [str(exc.current.version)]
        return _edit_page(token, exc.current, form, status=409, said=(
            "Not saved: this pack was saved elsewhere since this page was opened. Your text "
            "is still below; save again to replace that version with it, or reload to see "
            "it."))
    except PackTooLarge as exc:
        return _edit_page(token, stored, form, status=422, said=f"Not saved: {exc}.")
    except LookupError:  # deleted (from another tab) since this request found it
        _no_pack(token)
    return redirect(url_for("studio.edit", token=token, saved=saved.version))


@bp.post("/p/<token>/check")
def check(token: str) -> tuple[str, int]:
    """The live check as the player types (htmx): problems, or the units with their costs."""
    stored = pack_by_edit_token(token)
    form = PackForm()
    form.validate()
    system = get_system(stored.system)
    view = check_view(system, form.name.data or stored.name, form.text.data or "")
    return render_template("studio/_check.html", check=view, system=system,
                           cards_url=url_for("studio_print.cards_by_edit", token=token)), 200


def _download(stored: StoredPack, text: str) -> Response:
    response = Response(text, mimetype="application/yaml")
    response.headers["Content-Disposition"] = \
        f'attachment; filename="{pack_file_name(stored.name)}"'
    return response


@bp.get("/p/<token>/export.yaml")
def export(token: str) -> Response:
    return _download(stored := pack_by_edit_token(token), stored.text)


@bp.get("/p/<token>/revision/<revision>.yaml")
def export_revision(token: str, revision: str) -> Response:
    stored = pack_by_edit_token(token)
    text = services.packs().text_at(stored.id, revision)
    if text is None:
        abort(404, "This pack has no saved version with that revision.")
    return _download(stored, text)


@bp.get("/s/<share>")
def shared(share: str) -> str:
    stored = pack_by_share_token(share)
    system = get_system(stored.system)
    return render_template("studio/shared.html", stored=stored, system=system,
                           share=share, check=check_view(system, stored.name, stored.text),
                           cards_url=url_for("studio_print.cards_by_share", share=share),
                           share_link=request.url)


@bp.get("/s/<share>/export.yaml")
def shared_export(share: str) -> Response:
    return _download(stored := pack_by_share_token(share), stored.text)


@bp.post("/s/<share>/copy")
def copy(share: str) -> WerkzeugResponse:
    """A pack of one's own with the shared pack's text (the club's pack, to change for a
    house variant): its own links, in this browser's list; the shared one is not touched."""
    if not FlaskForm().validate_on_submit():
        abort(400, "This form had expired; reload the page and try again.")
    stored = pack_by_share_token(share)
    _copy, token = services.packs().create(stored.system, f"{stored.name} (copy)"[:80], stored.text)
    _remember(token)
    return redirect(url_for("studio.edit", token=token))


@bp.post("/s/<share>/roster")
def new_roster(share: str) -> WerkzeugResponse:
    """A new roster of the pack's game with the saved version of the pack on it, opened in
    the builder: the pack's pages' "Start a new roster with this pack". Made as a roster
    started on the home page with the pack then added on its Faction packs page
    (roster_packs.start_roster_with); a new roster, so limited as one (web/site/limits.py)."""
    if not FlaskForm().validate_on_submit():
        abort(400, "This form had expired; reload the page and try again.")
    stored = pack_by_share_token(share)

    try:
        token = start_roster_with(stored)
    except DataLoadError:
        abort(422, f"No roster was started: the saved version of {stored.name} has problems "
                   f"to fix first. Its page lists them; save it once they are fixed.")
    return redirect(url_for("builder.edit", token=token))


@bp.route("/p/<token>/delete", methods=["GET", "POST"])
def delete(token: str) -> tuple[str, int] | WerkzeugResponse:
    """Asks first (a page of its own, so it works without JavaScript); then the pack and all
    its versions are removed for good, and its links say it was deleted by its owner."""
    stored = pack_by_edit_token(token)
    if not FlaskForm().validate_on_submit():
        return render_template("studio/delete.html", stored=stored, token=token,
                               system=get_system(stored.system),
                               versions=len(services.packs().versions(stored.id))), 200
    services.packs().delete(stored.id)
    session[PACKS] = [t for t in session.get(PACKS, []) if t != token]
    return redirect(url_for("studio.index", deleted=stored.name))


@bp.post("/forget")
def forget() -> WerkzeugResponse:
    """Take a pack off this browser's list (the pack stays, and opens by its links)."""
    form = TokenForm()
    if form.validate_on_submit():
        session[PACKS] = [t for t in session.get(PACKS, []) if t != form.token.data]
    return redirect(url_for("studio.index"))
