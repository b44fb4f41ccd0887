"""The roster page's context: the engine's report of the roster (`engine.report`) plus one form
per change, each carrying the saved version the page shows."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from flask import request
from flask_wtf import FlaskForm
from werkzeug.datastructures import MultiDict

from listbuilder.engine import history
from listbuilder.engine.history import HistoryStep
from listbuilder.engine.model import Unit, UnitDesign
from listbuilder.engine.profile import Profile
from listbuilder.engine.report import (
    RosterReport,
    categories,
    design_preview,
    find_by_key,
    report,
    unit_rows,
)
from listbuilder.engine.system import Violation
from listbuilder.store.rosters import Stored
from listbuilder.web import services
from listbuilder.web.builder import forms
from listbuilder.web.rosters import Opened


@dataclass
class Notice:
    """A message above the roster: a refused change, a stale page, errors in a file."""

    kind: str  # "error", "conflict", "info"
    title: str
    lines: list[str] = field(default_factory=list)
    retry: list[tuple[str, str]] | None = None  # the refused change's fields, to apply again
    retry_action: str = ""
    retry_label: str = "Apply my change to the latest version"
    leave_label: str = "Leave it"  # reloads the page: nothing saved
    # the change refused, when this notice refuses one: an undo pressed right after it says
    # that change was not saved, rather than undo the one before (builder/_history.html)
    refused: str = ""
    # a whole page that answers a refusal (a file not imported) opens focused on its notice,
    # as the home page's file not opened does: the player sees why, a screen reader reads it
    focus: bool = False


def _design_prefill(view: RosterReport,
                    args: MultiDict[str, str]) -> tuple[UnitDesign | None, str]:
    """The creator's starting values: a design being edited, or a catalog unit to copy."""
    catalog, roster = view.catalog, view.roster
    if name := args.get("edit_design", ""):
        design = roster.design(name[:100])
        return (design, design.name) if design else (None, "")
    if key := args.get("copy_unit", ""):
        unit = find_by_key(catalog, key[:200])
        design = view.system.builder().design_of(unit) if unit is not None else None
        if design is not None:
            return replace(design, name=f"{design.name} (mine)"[:80]), ""
    return None, ""


def _pack_news(opened: Opened) -> tuple[str, ...]:
    if not opened.roster.packs:
        return ()
    from listbuilder.web.studio.roster_packs import pack_news  # the studio's, which imports pages

    return pack_news(opened)


def roster_context(opened: Opened, token: str | None, notices: list[Notice] | None = None,
                   design_form: forms.DesignForm | None = None,
                   count_refused: int | None = None,
                   settings_refused: forms.SettingsForm | None = None,
                   choices_refused: FlaskForm | None = None, *,
                   assessed: RosterReport | None = None,
                   filters: forms.UnitFilterForm | None = None,
                   steps: list[HistoryStep] | None = None) -> dict[str, Any]:
    """Everything the roster page (editable when `token` is given) shows; `count_refused`:
    the entry whose count box was sent something that is no count (said beside the box);
    `settings_refused`, `choices_refused`: a settings or choices form refused, shown again as
    typed with what each box said beside it. `assessed` (the roster's report), `filters`
    (the address's unit filters) and `steps` (the roster's history): worked out here unless
    given, as an answer to a change gives them for the page before and after it."""
    system, catalog, roster = opened.system, opened.catalog, opened.roster
    view = assessed if assessed is not None else report(system, catalog, roster)
    stored: Stored = opened.stored
    filters = filters if filters is not None else unit_filters()
    max_cost = filters.max_cost.data if not filters.max_cost.errors else None
    rows = unit_rows(system, catalog, roster, (filters.q.data or "") if not filters.q.errors
                     else "", (filters.category.data or "")[:80], max_cost,
                     points_left=view.points_left)
    preview, preview_unit, preview_entry = _preview(view, request.args.get("preview", "")[:200])
    if settings_refused is not None and not system.uses_points \
            and "points_limit" in settings_refused:
        del settings_refused.points_limit  # checked when sent; never shown
    ctx: dict[str, Any] = {
        "view": view, "system": system, "stored": stored, "token": token,
        "editable": token is not None, "said": "",
        "rows": rows, "categories": categories(catalog, roster), "filters": filters,
        "preview": preview, "preview_unit": preview_unit, "preview_entry": preview_entry,
        "notices": notices or [],
        # a previewed unit the player may copy into the unit creator (systems with designs)
        "preview_copyable": bool(preview_unit and not preview_entry and system.allows_designs
                                 and system.builder().design_of(preview_unit)),
        "open_entry": open_entry(),
        "count_refused": count_refused,
        "pack_news": _pack_news(opened),
        "settings_refused": settings_refused, "choices_refused": choices_refused,
        "choice_said": _choice_said(choices_refused),
    }
    if token is None:
        return ctx
    version = {"version": stored.version}

    # The forms are built when a template asks (an answer to a change renders only the parts
    # it may send, and a kept part not at all): each is a call, made once.
    @cache
    def settings_form() -> forms.SettingsForm:
        if settings_refused is not None:  # as typed, with what it said
            return settings_refused
        form = forms.SettingsForm(formdata=None, data={
            "name": roster.name, "points_limit": roster.points_limit,
            "factions": list(roster.factions), **version})
        form.factions.choices = [f.name for f in catalog.factions]
        if not system.uses_points:  # nor shows a limit
            del form.points_limit
        return form

    @cache
    def design() -> forms.DesignForm:
        if design_form is not None:
            return design_form
        prefill, replacing = _design_prefill(view, request.args)
        return forms.DesignForm(formdata=None, data={
            "name": prefill.name if prefill else "",
            "quality": prefill.quality if prefill else None,
            "rules": list(prefill.rules) if prefill else [],
            "replacing": replacing, **version})

    ctx.update({
        # as at the page's version (an answer works the page before a change out too)
        "history": history.replay_until(steps if steps is not None
                                        else services.history(stored), stored.version),
        "settings_form": settings_form, "design_form": design,
        "design_cost": lambda: design_cost_view(opened, design()),
        "version": stored.version,
        "import_form": cache(lambda: forms.ReplaceForm(formdata=None, data=version)),
    })
    return ctx


def _choice_said(form: FlaskForm | None) -> dict[str, tuple[str, str]]:
    """A refused choices form's boxes: each as typed, and what it said ("" if nothing)."""
    if form is None:
        return {}
    return {f.name: (str(f.raw_data[0]) if f.raw_data else "", " ".join(map(str, f.errors)))
            for f in form if f.name not in ("csrf_token", "version")}


def unit_filters() -> forms.UnitFilterForm:
    """The unit list's filters, from the address (the page before a change and after it have
    the same address, so an answer reads them once for both)."""
    found = forms.UnitFilterForm(request.args)
    found.validate()
    return found


_ENTRY = re.compile(r"entry-(\d{1,5})")


def _preview(view: RosterReport, wanted: str) -> tuple[Profile | None, Unit | None, bool]:
    """The profile the address asks to preview: a unit of the catalog as printed ("Nobz",
    "Knight|Fantasy"), or a roster entry as fielded ("entry-2": its card's profile, with its
    size, upgrades and the weapons they leave each model). The last: whether it is an entry."""
    if not wanted:
        return None, None, False
    system, catalog = view.system, view.catalog
    if m := _ENTRY.fullmatch(wanted):
        priced = next((p for p in view.priced if p.index == int(m[1])), None)
        if priced is not None:
            return system.cards().entry_card(catalog, priced).profile, priced.unit, True
    unit = find_by_key(catalog, wanted)
    return (system.profile(catalog, unit) if unit else None), unit, False


def open_entry() -> int | None:
    """The entry shown unfolded: the one just changed (its form names it), or the one the
    address names after a change without JavaScript (?open=entry-N)."""
    name = request.form.get("anchor", "") if request.method == "POST" else ""
    name = name or request.args.get("open", "")
    number = name.removeprefix("entry-")
    return int(number) if name.startswith("entry-") and number.isdigit() \
        and len(number) < 6 else None


@dataclass(frozen=True)
class DesignCost:
    cost: int | None
    problems: tuple[Violation, ...]


def design_cost_view(opened: Opened, form: forms.DesignForm) -> DesignCost:
    """What the design in the creator costs and what is wrong with it, by the engine."""
    quality = form.quality.data
    if not opened.system.allows_designs or not isinstance(quality, int):
        return DesignCost(None, ())
    name = (form.name.data or "").strip()[:80] or "New unit"
    design = UnitDesign(name=name, quality=quality,
                        rules=tuple(dict.fromkeys(form.rules.data or ()))[:50])
    return DesignCost(*design_preview(opened.system, opened.catalog, opened.roster, design))
