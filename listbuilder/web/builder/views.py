"""The roster page behind the private edit link, and every change made on it.

Each change posts a small form with the version the page showed. The view checks the form's
shape, applies one pure edit (`edits`), stores the canonical YAML and shows the page again:
in place for htmx, by redirect otherwise. A stale version is refused and nothing is lost.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_wtf import FlaskForm
from markupsafe import Markup
from werkzeug.wrappers import Response as WerkzeugResponse

from listbuilder.engine import edits, history
from listbuilder.engine.history import HistoryStep
from listbuilder.engine.model import Catalog, Roster, UnitDesign
from listbuilder.engine.report import find_by_key, report
from listbuilder.store.rosters import StaleRoster
from listbuilder.web import collection, services
from listbuilder.web.builder import forms, parts
from listbuilder.web.builder.page import Notice, design_cost_view, roster_context, unit_filters
from listbuilder.web.builder.roster_parts import ROSTER_PARTS
from listbuilder.web.forms import VersionedForm
from listbuilder.web.rosters import (
    SEED_RANGE,
    Opened,
    RosterShapeError,
    StoredRosterError,
    canonical,
    disposition,
    file_name,
    parse_stored,
)
from listbuilder.web.templating import kept_args
from listbuilder.web.uploads import UploadProblem, read_upload

bp = Blueprint("builder", __name__, url_prefix="/r/<token>")

Page = str | tuple[str, int] | Response | WerkzeugResponse
Change = Callable[[Opened, Any], Roster]
# What a change is called in the roster's history ("Add Trukk"): its words, or worked out from
# the roster before and after it (engine/history.py).
Label = str | Callable[[Opened, Roster], str]
# A refused form's problems said in the page's own words: the notice's lines and what the
# page shows beside the fields (roster_context's keywords), from the lines _form_problems gave.
Explain = Callable[[Opened, Any, list[str]], tuple[list[str], dict[str, Any]]]





def _page(token: str, opened: Opened, status: int = 200, notices: list[Notice] | None = None,
          **kwargs: Any) -> tuple[str, int]:
    ctx = roster_context(opened, token, notices, **kwargs)
    return render_template("builder/roster.html", **ctx), status


def _changed_parts(token: str, before: Opened | None, after: Opened, status: int = 200,
                   notices: list[Notice] | None = None, said: str = "",
                   **beside: Any) -> Response:
    """The answer to a change made with htmx: the page's title and the parts whose reads
    differ from the page the change was made on (roster_parts.py), the notices, and the part
    of the form used (so a refused value is put back). The page before and the page after
    are each worked out from the roster's report (`engine.report`); `before` None: that page
    is not known, and every part is drawn."""
    steps = services.history(after.stored)  # read once: both pages' undo and redo
    filters = unit_filters()
    assessed = report(after.system, after.catalog, after.roster)
    old: parts.Reads = {}
    if before is not None:
        # a change refused or finding nothing to do leaves the roster as it was
        was = assessed if before.roster is after.roster and before.catalog is after.catalog \
            else report(before.system, before.catalog, before.roster)
        old = parts.reads_of(ROSTER_PARTS, roster_context(before, token, assessed=was,
                                                          filters=filters, steps=steps))
    ctx = roster_context(after, token, notices, assessed=assessed, filters=filters,
                         steps=steps, **beside)
    ctx["said"] = said  # for screen readers: saved (the page itself shows what changed)
    anchor = request.form.get("anchor", "")[:40]
    always = ("notices", "saved-version", anchor) + (("said",) if said else ())
    swaps, _ = parts.changes(ROSTER_PARTS, old, ctx, always)
    title = Markup("<title>{}</title>").format(
        Markup(render_template("builder/_title.html", **ctx)))
    return Response(title + Markup("\n").join(swaps), status, headers={"HX-Reswap": "none"})


@bp.get("")
def edit(token: str) -> Page:
    gone = services.store().deleted_by_edit_token(token)
    if gone is not None:  # the edit link still undoes a delete, from any browser
        return render_template("builder/deleted.html", stored=gone, token=token), 404
    opened = services.roster_by_edit_token(token)
    # Opening an edit link changes nothing, not even this browser's list: a link a stranger
    # sent must not slip a roster of theirs in among the player's own. The page offers to
    # keep it on the list instead (home.keep).
    ctx = roster_context(opened, token, _step_notice(opened))
    return render_template("builder/roster.html", **ctx,
                           not_kept=token not in collection.remembered())


def _form_problems(form: FlaskForm) -> list[str]:
    out = []
    for name, errors in form.errors.items():
        if name == "csrf_token":
            continue
        field = getattr(form, name, None)
        label = field.label.text if field is not None and field.label.text else name
        # a message that names its box already (forms.InRange's) is not named twice
        out += [e if e.startswith(f"{label}:") else f"{label}: {e}" for e in errors]
    return out


def _retry_fields() -> list[tuple[str, str]]:
    return [(k, v) for k, values in request.form.lists()
            if k not in ("csrf_token", "version", "edit", "shown") for v in values]


def _conflict(token: str, latest: Opened, what: str, base: int | None) -> tuple[str, int]:
    had = f"version {base}" if base else "an older version"
    notice = Notice("conflict", "Not saved: this roster changed since this page was loaded", [
        f"It was saved in another tab or by someone else with the edit link (you had {had}; "
        f"it is now version {latest.stored.version}).",
        f"Your change, {what}, was not applied. The roster below is the latest saved one; "
        f"apply your change to it, or leave it."],
        retry=_retry_fields(), retry_action=request.path)
    return _page(token, latest, 409, [notice])


EDIT_ID = re.compile(r"[A-Za-z0-9_-]{8,40}")


def _edit_id() -> str:
    """The change's own id, which the page's script (static/js/edits.js) gives every change
    it sends, and sends again with it after a dropped connection; empty without the script."""
    sent = request.form.get("edit", "")
    return sent if EDIT_ID.fullmatch(sent) else ""


def _already_saved(token: str, opened: Opened, base: int, what: str) -> Page:
    """A change sent again whose first sending was saved, its answer lost with the
    connection: not applied twice. The page, still at `base`, gets the roster as saved."""
    if not services.is_htmx():
        return redirect(url_for("builder.edit", token=token, **kept_args()))
    # the page shows `base`, or a later version when it was loaded again since (`shown`)
    shown = request.form.get("shown", "")
    if shown.isdigit() and int(shown) <= opened.stored.version:
        base = int(shown)
    return _changed_parts(token, _at_version(opened, base), opened,
                          said=f"Saved: {what} (the server had saved it when it was first "
                               f"sent; that answer did not reach this page).")


def _at_version(opened: Opened, version: int) -> Opened | None:
    """The roster as it was at `version`, read with today's catalog; None when that version
    is no longer in its history or no longer reads."""
    if version == opened.stored.version:
        return opened
    text = services.store().history_text(opened.stored.id, version)
    if text is None:
        return None
    try:
        roster = parse_stored(text)
    except StoredRosterError:
        return None
    if roster.packs != opened.roster.packs:  # read with another catalog: not known here
        return None
    return Opened(replace(opened.stored, version=version, text=text), roster, opened.system,
                  opened.catalog)


def apply(token: str, form: FlaskForm, change: Change, what: str,
          explain: Explain | None = None, label: Label = "",
          catalog: Catalog | None = None) -> Page:
    """Check the form, apply the change to the saved version it was based on, save, show.
    A form refused is said in the notice (and beside its fields, as `explain` words it).
    `label` names the change in the roster's history (its undo button). `catalog` is the one
    the changed roster reads in, when it is not the open roster's (a file bringing its own
    faction packs)."""
    opened = services.roster_by_edit_token(token)
    if not form.validate_on_submit():
        if isinstance(form, VersionedForm) and form.version.errors:
            abort(400)
        lines = _form_problems(form)
        beside: dict[str, Any] = {}
        if explain is not None:
            lines, beside = explain(opened, form, lines)
        return _refused(token, opened, [Notice("error", f"Not changed: {what}", lines,
                                               refused=what)], **beside)
    base = getattr(form, "version", None)
    base_version = base.data if base is not None else opened.stored.version
    edit_id = _edit_id()
    if edit_id and edit_id == opened.stored.last_edit:
        return _already_saved(token, opened, base_version, what)
    if base_version != opened.stored.version:
        return _conflict(token, opened, what, base_version)
    try:
        roster = change(opened, form)
        text = canonical(roster, opened.system, catalog or opened.catalog, before=opened.roster)
        if text == opened.stored.text:
            # the same values sent twice (a count box's change, then Enter's submit) find
            # nothing to do the second time: no version, so no Undo step that undoes nothing
            if services.is_htmx():
                return _changed_parts(token, opened, opened)
            return _page_after_change(token)
        named = label(opened, roster) if callable(label) else label
        stored = services.store().save(opened.stored.id, base_version, roster.name, text,
                                       read=opened.stored, edit_id=edit_id,
                                       label=named or what[:1].upper() + what[1:])
    except (edits.EditError, RosterShapeError) as exc:
        return _refused(token, opened, [Notice("error", f"Not changed: {what}", [str(exc)],
                                               refused=what)])
    except StaleRoster:
        return _conflict(token, services.roster_by_edit_token(token), what, base_version)
    if services.is_htmx():
        # the roster as saved (its costs recorded), as the next page load reads it
        saved = Opened(stored, parse_stored(text), opened.system, opened.catalog)
        return _changed_parts(token, opened, saved, said=f"Saved: {what}.")
    return _page_after_change(token)


def _page_after_change(token: str) -> WerkzeugResponse:
    """Without htmx, a change is answered with the page again, at the entry changed and
    unfolded."""
    anchor = request.form.get("anchor", "")[:40]
    unfold: dict[str, Any] = {"open": anchor} if anchor.startswith("entry-") else {}
    return redirect(url_for("builder.edit", token=token, _anchor=anchor or None,
                            **kept_args(), **unfold))


def _refused(token: str, opened: Opened, notices: list[Notice], **beside: Any) -> Page:
    """A change that was not made: the page with the reason (with htmx, only the notice and
    the form used), and `beside` the fields (roster_context's keywords)."""
    if services.is_htmx():
        return _changed_parts(token, opened, opened, 422, notices, **beside)
    return _page(token, opened, 422, notices, **beside)


# -- roster settings and choices --------------------------------------------------------------

@bp.post("/settings")
def settings(token: str) -> Page:
    opened = services.roster_by_edit_token(token)
    form = forms.SettingsForm()
    form.factions.choices = [f.name for f in opened.catalog.factions]
    if not opened.system.uses_points:
        form.without_points()

    def change(o: Opened, f: forms.SettingsForm) -> Roster:
        # a game without a limit shows no field; a limit sent anyway is checked, not kept
        limit = f.points_limit.data if o.system.uses_points else None
        return edits.set_settings(o.roster, f.name.data or "", limit, f.factions.data or ())

    return apply(token, form, change, "the roster's name, factions and points limit",
                 explain=lambda o, f, lines: (lines, {"settings_refused": f}),
                 label=lambda o, after: history.settings_label(o.roster, after))


@bp.post("/choices")
def choices(token: str) -> Page:
    opened = services.roster_by_edit_token(token)
    form = forms.choices_form(opened.system, opened.system.builder().choice_options(
        opened.catalog, opened.roster))()

    def change(o: Opened, f: FlaskForm) -> Roster:
        return edits.set_choices(o.roster, {k: getattr(f, k).data for k in o.system.choices})

    return apply(token, form, change, "the roster's choices", label="Change the choices",
                 explain=lambda o, f, lines: (lines, {"choices_refused": f}))


def new_seed() -> int:
    """A new random draw's seed (the tests set their own)."""
    return secrets.randbelow(SEED_RANGE)


@bp.post("/redraw")
def redraw(token: str) -> Page:
    """A new random draw, saved at once; but one that would make a legal roster illegal is
    not kept silently: the answer shows what it breaks and asks. "Keep this draw" sends the
    same draw back (`seed`), saved as asked; "Keep the old draw" saves nothing."""
    form = forms.RedrawForm()
    seed = form.seed.data if isinstance(form.seed.data, int) else new_seed()
    if form.seed.data is None and form.validate_on_submit():
        opened = services.roster_by_edit_token(token)
        key = form.key.data or ""
        if key in opened.system.builder().random_choices() \
                and form.version.data == opened.stored.version:
            breaks = _broken_by(opened, edits.set_choices(opened.roster, {key: seed}))
            if breaks:
                return _ask_before_keeping(token, opened, key, seed, breaks)

    def change(o: Opened, f: forms.RedrawForm) -> Roster:
        if f.key.data not in o.system.builder().random_choices():
            raise edits.EditError(f"{o.system.name} has no random draw called {f.key.data!r}.")
        return edits.set_choices(o.roster, {f.key.data: seed})

    return apply(token, form, change, "keeping the new draw" if form.seed.data is not None
                 else "a new draw", label="New draw")


def _broken_by(opened: Opened, roster: Roster) -> list[str]:
    """What `roster` breaks when the saved roster is legal: its errors (the engine's words);
    nothing when the saved one was not legal to begin with, or still is."""
    system, catalog = opened.system, opened.catalog
    if report(system, catalog, opened.roster).status.state != "legal":
        return []
    return [v.message for v in system.validate(catalog, roster, system.priced(catalog, roster))
            if v.severity == "error"]


def _ask_before_keeping(token: str, opened: Opened, key: str, seed: int,
                        breaks: list[str]) -> Page:
    """The roster as saved, with a notice: what the new draw is and breaks, and the choice."""
    trial = edits.set_choices(opened.roster, {key: seed})
    drawn = [f"{s.title}: " + "; ".join(f"{k}: {v}" for k, v in s.lines)
             for s in opened.system.sections(opened.catalog, trial)]
    notice = Notice(
        "conflict", "Not saved yet: the new draw makes the roster illegal",
        [*drawn, *breaks, "Keep this draw and fix the roster, or keep the old draw (the "
                          "roster as it is, still legal)."],
        retry=[("key", key), ("seed", str(seed))], retry_action=request.path,
        retry_label="Keep this draw", leave_label="Keep the old draw")
    if services.is_htmx():
        return _changed_parts(token, opened, opened, 200, [notice])
    return _page(token, opened, 200, [notice])


# -- entries ----------------------------------------------------------------------------------

@bp.post("/add")
def add(token: str) -> Page:
    form = forms.AddForm()

    def change(o: Opened, f: forms.AddForm) -> Roster:
        unit = find_by_key(o.catalog, f.unit.data or "")
        if unit is None:
            raise edits.EditError(f"{f.unit.data!r} is not a unit of {o.system.name}.")
        return edits.add_unit(o.system, o.catalog, o.roster, unit)

    unit = history.unit_name(form.unit.data or "")
    return apply(token, form, change, f"adding {unit}", label=f"Add {unit}")


@bp.post("/entry")
def entry(token: str) -> Page:
    form = forms.EntryForm()

    def change(o: Opened, f: forms.EntryForm) -> Roster:
        return edits.update_entry(o.roster, given(f.index.data), f.unit.data or "",
                                  given(f.count.data),
                                  f.upgrades.data or ())

    return apply(token, form, change, f"changing {form.unit.data or 'an entry'}",
                 explain=_count_refused, label=lambda o, after: history.entry_label(
                     o.roster, after, given(form.index.data), o.system.count_label))


def _count_refused(o: Opened, f: forms.EntryForm,
                   lines: list[str]) -> tuple[list[str], dict[str, Any]]:
    """A count that is no count (0, -3, 2.5, empty, text, past the most a roster holds) is
    said in the words the page's script shows beside the box: the unit's range and the size
    the roster keeps (EntryView.count_refused)."""
    index = f.index.data
    entries = o.roster.entries
    if not f.count.errors or f.index.errors or not isinstance(index, int) \
            or not 0 <= index < len(entries) or entries[index].unit != f.unit.data:
        return lines, {}
    said = report(o.system, o.catalog, o.roster).entries[index].count_refused(
        o.system.count_label)
    label = f.count.label.text
    others = [line for line in lines if not line.startswith(f"{label}: ")]
    return [said, *others], {"count_refused": index}


@bp.post("/remove")
def remove(token: str) -> Page:
    form = forms.RemoveForm()

    def change(o: Opened, f: forms.RemoveForm) -> Roster:
        return edits.remove_entry(o.roster, given(f.index.data), f.unit.data or "")

    return apply(token, form, change, f"removing {form.unit.data or 'an entry'}",
                 label=f"Remove {form.unit.data}")


@bp.post("/move")
def move(token: str) -> Page:
    form = forms.MoveForm()

    def change(o: Opened, f: forms.MoveForm) -> Roster:
        return edits.move_entry(o.roster, given(f.index.data), f.unit.data or "",
                                given(f.step.data))

    down = isinstance(form.step.data, int) and form.step.data > 0
    return apply(token, form, change, f"moving {form.unit.data or 'an entry'}",
                 label=f"Move {form.unit.data} {'down' if down else 'up'}")


@bp.post("/reorder")
def reorder(token: str) -> Page:
    """Move an entry straight to another place: one change, one version, however far."""
    form = forms.ReorderForm()

    def change(o: Opened, f: forms.ReorderForm) -> Roster:
        return edits.move_entry_to(o.roster, given(f.index.data), f.unit.data or "",
                                   given(f.to.data))

    to = form.to.data
    where = f" to line {to + 1}" if isinstance(to, int) and to >= 0 else ""
    return apply(token, form, change, f"moving {form.unit.data or 'an entry'}{where}",
                 label=f"Move {form.unit.data}{where}")


@bp.post("/duplicate-entry")
def duplicate_entry(token: str) -> Page:
    """A copy of an entry right after it (edits.duplicate_entry says what it keeps)."""
    form = forms.DuplicateForm()

    def change(o: Opened, f: forms.DuplicateForm) -> Roster:
        return edits.duplicate_entry(o.roster, given(f.index.data), f.unit.data or "",
                                     o.system.builder().stacks_entries())

    return apply(token, form, change, f"duplicating {form.unit.data or 'an entry'}",
                 label=f"Duplicate {form.unit.data}")


@bp.post("/join")
def join(token: str) -> Page:
    form = forms.JoinForm()

    def change(o: Opened, f: forms.JoinForm) -> Roster:
        target, _, target_unit = (f.target.data or "").partition(":")
        if not target:
            return edits.join_entry(o.roster, given(f.index.data), f.unit.data or "", None, None)
        if not (target.isascii() and target.isdigit() and len(target) <= 6):
            raise edits.EditError("Pick the unit to join from the list.")
        return edits.join_entry(o.roster, given(f.index.data), f.unit.data or "", int(target),
                                target_unit)

    target_unit = (form.target.data or "").partition(":")[2]
    return apply(token, form, change, f"attaching {form.unit.data or 'a unit'}",
                 label=f"Attach {form.unit.data} to {target_unit}" if target_unit
                 else f"Detach {form.unit.data}")


def given(value: int | None) -> int:
    """A number its form requires (InputRequired): present once the form validated."""
    if value is None:
        raise edits.EditError("A number is missing from the form: reload the page and try again.")
    return value


# -- designs (systems that allow them) --------------------------------------------------------

def _design(f: forms.DesignForm) -> UnitDesign:
    return UnitDesign(name=(f.name.data or "").strip(), quality=given(f.quality.data),
                      rules=tuple(dict.fromkeys(f.rules.data or ())))


@bp.post("/design")
def design(token: str) -> Page:
    form = forms.DesignForm()
    opened = services.roster_by_edit_token(token)
    if not opened.system.allows_designs:
        abort(404, f"{opened.system.name} has no unit designs.")
    if "preview" in request.form:  # no script: work the cost out without saving
        form.validate()
        return _page(token, opened, 200, design_form=form)

    def change(o: Opened, f: forms.DesignForm) -> Roster:
        new = _design(f)
        roster = edits.save_design(o.roster, new, f.replacing.data or None)
        if not f.replacing.data and request.form.get("add_entry"):
            roster = edits.add_design_entry(roster, new, o.system.builder().stacks_entries())
        return roster

    return apply(token, form, change, f"saving the design {form.name.data or ''}".strip(),
                 label=f"Save the design {form.name.data}")


@bp.post("/design/remove")
def design_remove(token: str) -> Page:
    form = forms.DesignRef()

    def change(o: Opened, f: forms.DesignRef) -> Roster:
        return edits.remove_design(o.roster, f.name.data or "")

    return apply(token, form, change, f"removing the design {form.name.data or ''}".strip(),
                 label=f"Remove the design {form.name.data}")


@bp.post("/design/field")
def design_field(token: str) -> Page:
    form = forms.DesignRef()

    def change(o: Opened, f: forms.DesignRef) -> Roster:
        found = o.roster.design(f.name.data or "")
        if found is None:
            raise edits.EditError(f"There is no design called {f.name.data!r} any more.")
        return edits.add_design_entry(o.roster, found, o.system.builder().stacks_entries())

    return apply(token, form, change, f"adding {form.name.data or 'a design'}",
                 label=f"Add {form.name.data}")


@bp.get("/design-cost")
def design_cost(token: str) -> str:
    """The creator's cost line, worked out as boxes are ticked (htmx)."""
    opened = services.roster_by_edit_token(token)
    form = forms.DesignForm(request.args, meta={"csrf": False})
    form.validate()
    return render_template("builder/_design_cost.html", cost=design_cost_view(opened, form),
                           cost_unit=opened.system.cost_unit)


# -- undo and redo ----------------------------------------------------------------------------

STEP_ARG = "step"  # after an undo or redo without the script: the version it saved
DONE = {"undo": "Undone", "redo": "Redone"}


@bp.post("/undo")
def undo(token: str) -> Page:
    """Put the roster back as it was before its last change (engine/history.py), as a new
    version, so every other page meets it as it meets any change."""
    return _step(token, "undo")


@bp.post("/redo")
def redo(token: str) -> Page:
    """Make the change last undone again, as a new version."""
    return _step(token, "redo")


def _next(stacks: history.Stacks, kind: str) -> history.Undoable | None:
    return stacks.next_undo if kind == "undo" else stacks.next_redo


def _step(token: str, kind: str) -> Page:
    """An undo or a redo, on the version the page showed: the change its button named."""
    form = forms.HistoryForm()
    opened = services.roster_by_edit_token(token)
    if not form.validate_on_submit():
        abort(400)  # only the version can be wrong: a post no page of ours made
    base = given(form.version.data)
    steps = services.store().history(opened.stored.id)
    shown = _next(history.replay_until(steps, base), kind)
    what = f"{kind}ing {shown.label}" if shown else f"{kind}ing the last change"
    edit_id = _edit_id()
    if edit_id and edit_id == opened.stored.last_edit:
        return _already_saved(token, opened, base, what)
    if base != opened.stored.version:
        return _step_conflict(token, opened, kind, base, steps)
    refused = (form.refused.data or "").strip()[:200]
    if kind == "undo" and refused:
        return _refused(token, opened, [_undo_after_refusal(refused, shown)])
    if shown is None:
        return _refused(token, opened, [_nothing_to(kind)])
    return _take_step(token, opened, kind, shown, edit_id)


def _take_step(token: str, opened: Opened, kind: str, step: history.Undoable,
               edit_id: str) -> Page:
    """Save the text the roster had before the change (undo) or after it (redo)."""
    store = services.store()
    text = store.history_text(opened.stored.id, step.before if kind == "undo" else step.after)
    if text is None:  # gone from the history since the page read it
        return _refused(token, opened, [_nothing_to(kind)])
    try:
        roster = parse_stored(text)
        stored = store.save(opened.stored.id, opened.stored.version, roster.name, text,
                            read=opened.stored, edit_id=edit_id, label=step.label, kind=kind)
    except StoredRosterError:
        return _refused(token, opened, [Notice("error", f"Not {DONE[kind].lower()}: "
                                                        f"{step.label}", [
            "That version of the roster no longer reads as a roster of this game."])])
    except StaleRoster:
        latest = services.roster_by_edit_token(token)
        return _step_conflict(token, latest, kind, opened.stored.version,
                              store.history(latest.stored.id))
    done = f"{DONE[kind]}: {step.label}"
    if services.is_htmx():
        # a step over adding or taking off a faction pack reads with another catalog
        saved = Opened(stored, roster, opened.system, opened.catalog) \
            if roster.packs == opened.roster.packs else services.roster_by_edit_token(token)
        return _changed_parts(token, opened, saved, notices=[Notice("info", done)],
                              said=f"{done}.")
    where: dict[str, Any] = {STEP_ARG: stored.version, **kept_args()}
    return redirect(url_for("builder.edit", token=token, **where))


def _nothing_to(kind: str) -> Notice:
    if kind == "undo":
        return Notice("error", "Nothing to undo", [
            f"No saved change to this roster is left to undo: undo reaches back over at least "
            f"the last {history.UNDO_REACH} changes."])
    return Notice("error", "Nothing to redo", [
        "Redo makes a change you undid again, and no undone change is waiting: a new change "
        "after an undo takes the place of what was undone."])


def _undo_after_refusal(refused: str, last: history.Undoable | None) -> Notice:
    """Undo pressed right after a change the server refused: that change was never saved, so
    it is not undone, and neither is the change before it, which the player did not ask for."""
    return Notice("error", f"Nothing undone: {refused} was not saved", [
        "The roster is as it was before it, so there was nothing of it to undo.",
        f"Undo again to undo the last change saved: {last.label}." if last
        else "No saved change is left to undo either."])


def _step_conflict(token: str, latest: Opened, kind: str, base: int,
                   steps: list[HistoryStep]) -> Page:
    """An undo or redo from a page behind the saved roster: nothing is done, since the change
    its button named may not be the last one any more. The latest page names what its own
    button would do, and offers to do it."""
    now = _next(history.replay(steps, latest.stored.version), kind)
    lines = [f"It was saved in another tab or on another device (you had version {base}; it "
             f"is now version {latest.stored.version}), so nothing was "
             f"{DONE[kind].lower()}."]
    if now is None:
        lines.append(f"The latest version has nothing to {kind}.")
    else:
        lines.append(f"On the latest version, {kind} would {kind} {now.label}: {kind} it, or "
                     f"leave it." if kind == "undo" else
                     f"On the latest version, redo would make {now.label} again: redo it, or "
                     f"leave it.")
    retry = [(k, v) for k, v in _retry_fields() if k != "refused"]
    notice = Notice("conflict", f"Not {DONE[kind].lower()}: this roster changed since this "
                                f"page was loaded", lines,
                    retry=retry if now else None, retry_action=request.path,
                    retry_label=f"{kind.capitalize()}: {now.label}" if now else "")
    return _page(token, latest, 409, [notice])


def _step_notice(opened: Opened) -> list[Notice]:
    """The page an undo or redo without the script leads to says what it did, while that is
    still the roster's latest version (the address may be kept, or loaded again later)."""
    asked = request.args.get(STEP_ARG, "")[:12]
    if not asked.isdigit() or int(asked) != opened.stored.version:
        return []
    step = next((s for s in services.store().history(opened.stored.id)
                 if s.version == opened.stored.version), None)
    if step is None or step.kind not in DONE:
        return []
    return [Notice("info", f"{DONE[step.kind]}: {step.label}")]


# -- files ------------------------------------------------------------------------------------

@bp.post("/import")
def replace_from_file(token: str) -> Page:
    """Replace the roster with an uploaded file of the same system; a bad file changes nothing."""
    form = forms.ReplaceForm()
    opened = services.roster_by_edit_token(token)
    if form.validate_on_submit() and form.version.data == opened.stored.version:
        try:
            loaded = read_upload(services.library(), form.file.data)
        except UploadProblem as exc:
            return _page(token, opened, 422, [Notice(
                "error", f"{exc.name or 'The file'} was not imported; the roster is unchanged",
                exc.lines, focus=True)])
        if loaded.system.id != opened.system.id:
            return _page(token, opened, 422, [Notice(
                "error", "The file was not imported; the roster is unchanged",
                [f"The file is a {loaded.system.name} roster and this one is "
                 f"{opened.system.name}: open it from the home page as a new roster."],
                focus=True)])

        def change(o: Opened, f: forms.ReplaceForm) -> Roster:
            return loaded.roster

        return apply(token, form, change, "importing the file", label="Import a file",
                     catalog=loaded.catalog)
    return apply(token, form, lambda o, f: o.roster, "importing the file")


@bp.post("/acknowledge")
def acknowledge(token: str) -> Page:
    """Save the roster with today's costs, which clears the 'data changed' list."""
    return apply(token, VersionedForm(), lambda o, f: o.roster, "keeping today's costs",
                 label="Keep today's costs")


@bp.get("/export.yaml")
def export(token: str) -> Response:
    opened = services.roster_by_edit_token(token)
    return yaml_download(opened)


@bp.get("/roster.txt")
def text(token: str) -> Response:
    opened = services.roster_by_edit_token(token)
    return text_download(opened)


def yaml_download(opened: Opened) -> Response:
    body = canonical(opened.roster, opened.system, opened.catalog)
    return Response(body, mimetype="application/yaml", headers={
        "Content-Disposition": disposition("attachment", file_name(opened.roster, ".yaml"))})


def text_download(opened: Opened) -> Response:
    body = report(opened.system, opened.catalog, opened.roster).text
    return Response(body, mimetype="text/plain", headers={
        "Content-Disposition": disposition("inline", file_name(opened.roster, ".txt"))})
