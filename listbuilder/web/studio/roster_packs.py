"""A roster's faction packs (`/r/<token>/packs`): add one by its share link from the studio,
update it to the pack's latest version (seeing first what that changes for the roster's
units), or take it off; or start a new roster with a pack from the pack's page. The roster
carries each pack whole (docs/roster-format.md), so its file validates and prints anywhere;
the link says where to look for a newer version.

Adding, updating and removing change the catalog the roster is read with, so they are saved
here, each as one change of the roster (with its place in the undo history), not through
the builder's `apply`, which keeps the catalog the roster was opened with.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime

from flask import Blueprint, abort, redirect, render_template, url_for
from werkzeug.wrappers import Response
from wtforms import StringField
from wtforms.validators import InputRequired, Length, NumberRange

from listbuilder.engine.errors import DataLoadError
from listbuilder.engine.model import Catalog, PackUse, Roster
from listbuilder.engine.packs import MAX_PACKS, pack_changes, pack_file_name, pack_revision
from listbuilder.engine.registry import get_system
from listbuilder.engine.roster_file import pack_share
from listbuilder.engine.system import RuleSystem
from listbuilder.store.packs import StoredPack
from listbuilder.store.rosters import StaleRoster
from listbuilder.web import collection, services
from listbuilder.web.forms import VersionedForm, WholeNumber
from listbuilder.web.rosters import (
    Opened,
    RosterShapeError,
    canonical,
    fresh_seeds,
)

bp = Blueprint("roster_packs", __name__, url_prefix="/r/<token>/packs")

SHARE = re.compile(r"(?:/studio/s/)?([A-Za-z0-9_-]{8,100})/?(?:[?#].*)?$")


class AddPackForm(VersionedForm):
    link = StringField("The pack's share link", validators=[
        InputRequired("Paste the pack's share link from the faction studio."),
        Length(max=300)])


class PackIndexForm(VersionedForm):
    index = WholeNumber(validators=[InputRequired(), NumberRange(0, MAX_PACKS - 1)])


@dataclass(frozen=True)
class PackView:
    """A pack the roster uses, and what its studio holds now."""

    index: int
    use: PackUse
    revision: str
    units: tuple[str, ...]  # the roster's entries of the pack's units
    latest: StoredPack | None  # the pack its link names, when this server has it
    changes: tuple[str, ...]  # what the latest version changes for the roster's units
    deleted: datetime | None = None  # when its owner deleted the pack from the studio

    @property
    def newer(self) -> bool:
        return self.latest is not None and self.latest.revision != self.revision

    @property
    def page(self) -> str | None:
        """The pack's page on this server, when it has the pack. Made from the link's share
        token, never the link's own text: whatever a roster file said there (a `javascript:`
        address, another site) never becomes a link on the page."""
        token = pack_share(self.use.link) if self.latest is not None else None
        return url_for("studio.shared", share=token) if token else None


def _share_token(link: str) -> str | None:
    found = SHARE.search(link.strip())
    return found[1] if found else None


def _latest(use: PackUse) -> StoredPack | None:
    token = pack_share(use.link)
    return services.packs().by_share_token(token) if token else None


def _deleted(use: PackUse) -> datetime | None:
    """When the pack's owner deleted it here (its link then opens only a page saying so)."""
    token = pack_share(use.link)
    return services.packs().deleted_by_share_token(token) if token else None




def _catalog(opened: Opened, uses: tuple[PackUse, ...]) -> Catalog:
    return _catalog_of(opened.system, uses)


def _catalog_of(system: RuleSystem, uses: tuple[PackUse, ...]) -> Catalog:
    return services.library().catalog_with_packs(system, uses)


def _views(opened: Opened) -> list[PackView]:
    out = []
    for i, use in enumerate(opened.roster.packs):
        file = pack_file_name(use.name)
        units = tuple(dict.fromkeys(
            p.entry.unit for p in opened.system.priced(opened.catalog, opened.roster)
            if p.unit.origin.file == file))
        latest = _latest(use)
        changes: tuple[str, ...] = ()
        if latest is not None and latest.revision != pack_revision(use.text):
            newer = _with_text(opened.roster.packs, i, latest)
            try:
                after = _catalog(opened, newer)
                changes = tuple(pack_changes(opened.system, opened.roster, opened.catalog,
                                             after))
            except DataLoadError as exc:
                changes = (f"the latest version does not load: {exc.errors[0]}",)
        out.append(PackView(i, use, pack_revision(use.text), units, latest, changes,
                            _deleted(use) if latest is None else None))
    return out


def pack_news(opened: Opened) -> tuple[str, ...]:
    """For the roster's page, as it says when the game data changed: each pack of the roster
    whose studio holds a newer version, and what that version changes for its units."""
    return tuple(f"{v.use.name} has a newer version (version {v.latest.version})"
                 + (f": {'; '.join(v.changes)}." if v.changes
                    else "; it changes none of this roster's units.")
                 for v in _views(opened) if v.newer and v.latest is not None)


def _with_text(uses: tuple[PackUse, ...], index: int,
               latest: StoredPack) -> tuple[PackUse, ...]:
    return tuple(replace(u, name=latest.name, text=latest.text) if i == index else u
                 for i, u in enumerate(uses))


def _page(token: str, opened: Opened, problems: list[str] | None = None, status: int = 200,
          form: AddPackForm | None = None) -> tuple[str, int]:
    return render_template("studio/roster_packs.html", token=token, opened=opened,
                           views=_views(opened), problems=problems or [],
                           form=form or AddPackForm(data={"version": opened.stored.version}),
                           index_form=PackIndexForm, max_packs=MAX_PACKS), status


@bp.get("")
def page(token: str) -> tuple[str, int]:
    return _page(token, services.roster_by_edit_token(token))


Change = Callable[[Opened], tuple[Roster, str]]  # the new roster, and the change in words


def _save(token: str, opened: Opened, form: VersionedForm, change: Change,
          add_form: AddPackForm | None = None) -> tuple[str, int] | Response:
    if (form.version.data or 0) != opened.stored.version:
        return _page(token, opened, [
            "Not saved: this roster changed since this page was loaded (another tab or "
            "device). This is the latest; try again."], 409)
    try:
        roster, what = change(opened)
        catalog = _catalog(opened, roster.packs)
        text = canonical(roster, opened.system, catalog, before=opened.roster)
        services.store().save(opened.stored.id, opened.stored.version, roster.name, text,
                              read=opened.stored, label=what)
    except _Refused as exc:
        return _page(token, opened, exc.lines, 422, add_form)
    except DataLoadError as exc:
        return _page(token, opened, ["Not saved: the pack does not load beside this "
                                     "roster's data and packs:", *map(str, exc.errors[:20])],
                     422, add_form)
    except RosterShapeError as exc:
        return _page(token, opened, [f"Not saved: {exc}"], 422, add_form)
    except StaleRoster:
        return _page(token, services.roster_by_edit_token(token), [
            "Not saved: this roster changed meanwhile. This is the latest; try again."], 409)
    return redirect(url_for("roster_packs.page", token=token, said=what))


class _Refused(Exception):
    def __init__(self, *lines: str) -> None:
        self.lines = list(lines)
        super().__init__(" ".join(lines))


def _factions_with(system: RuleSystem, have: tuple[str, ...],
                   added: tuple[str, ...]) -> tuple[str, ...]:
    """The roster's factions once a pack adds `added`: all of them where the game allows
    several; the pack's own where the roster has none yet; else unchanged (the player picks
    under the roster's settings)."""
    most = system.max_factions
    if most is None or len(have) + len(added) <= most:
        return (*have, *(f for f in added if f not in have))
    return have


def with_pack(system: RuleSystem, roster: Roster, found: StoredPack) -> Roster:
    """`roster` with the pack taken on: its whole text and its share link, and its factions
    where the roster can take them. DataLoadError when it does not load beside the roster's
    data and packs. Adding a pack by its link and starting a roster from the pack's page
    (`start_roster_with`) both come here."""
    link = url_for("studio.shared", share=found.share_token, _external=True)
    uses = (*roster.packs, PackUse(name=found.name, text=found.text, link=link))
    catalog = services.library().catalog_with_packs(system, uses)
    added = tuple(f.name for f in catalog.factions
                  if f.origin.file == pack_file_name(found.name))
    return replace(roster, packs=uses, factions=_factions_with(system, roster.factions, added))


def start_roster_with(found: StoredPack) -> str:
    """A new roster of the pack's game with the pack on it (the pack's page's "Start a new
    roster with this pack"), as starting one on the home page and adding the pack on its
    Faction packs page would make it: named after the pack, the game's usual points limit,
    a random draw where the game has one, the pack's factions where it can take them. Put
    first in this browser's list; its edit token. DataLoadError when the pack does not load
    (a saved version with problems)."""
    system = get_system(found.system)
    seeds = fresh_seeds(system)
    roster = with_pack(system, Roster(
        system=system.id, name=collection.distinct_name(found.name),
        points_limit=system.default_points_limit if system.uses_points else None,
        choices=seeds), found)
    catalog = _catalog_of(system, roster.packs)
    _stored, token = services.store().create(system.id, roster.name,
                                             canonical(roster, system, catalog))
    collection.remember(token)
    return token


@bp.post("/add")
def add(token: str) -> tuple[str, int] | Response:
    opened = services.roster_by_edit_token(token)
    form = AddPackForm()
    if not form.validate_on_submit():
        lines = [e for name, errs in form.errors.items() if name != "csrf_token" for e in errs]
        if "version" in form.errors or "csrf_token" in form.errors:
            abort(400, "This form had expired; reload the page and try again.")
        return _page(token, opened, lines, 422, form)

    def change(o: Opened) -> tuple[Roster, str]:
        share = _share_token(form.link.data or "")
        found = services.packs().by_share_token(share) if share else None
        if found is None:
            raise _Refused("No pack has this share link. Copy the whole share link from the "
                           "pack's page in the faction studio.")
        if found.system != o.system.id:
            raise _Refused(f"{found.name} is a pack for another game; this roster is "
                           f"{o.system.name}.")
        if any(pack_share(u.link) == share for u in o.roster.packs):
            raise _Refused(f"{found.name} is in this roster already: update it below.")
        if len(o.roster.packs) >= MAX_PACKS:
            raise _Refused(f"A roster builds with at most {MAX_PACKS} packs: take one off "
                           f"first.")
        return with_pack(o.system, o.roster, found), f"Add the pack {found.name}"

    return _save(token, opened, form, change, form)


@bp.post("/update")
def update(token: str) -> tuple[str, int] | Response:
    opened = services.roster_by_edit_token(token)
    form = PackIndexForm()
    if not form.validate_on_submit() or (form.index.data or 0) >= len(opened.roster.packs):
        abort(400, "This form had expired; reload the page and try again.")

    def change(o: Opened) -> tuple[Roster, str]:
        index = form.index.data or 0
        latest = _latest(o.roster.packs[index])
        if latest is None:
            if _deleted(o.roster.packs[index]) is not None:
                raise _Refused("Not updated: its owner deleted the pack from the studio, so "
                               "there is no newer version; this roster keeps the one it has.")
            raise _Refused("The pack's link no longer opens a pack on this server.")
        roster = replace(o.roster, packs=_with_text(o.roster.packs, index, latest))
        return roster, f"Update the pack {latest.name} to version {latest.version}"

    return _save(token, opened, form, change)


@bp.post("/remove")
def remove(token: str) -> tuple[str, int] | Response:
    opened = services.roster_by_edit_token(token)
    form = PackIndexForm()
    if not form.validate_on_submit() or (form.index.data or 0) >= len(opened.roster.packs):
        abort(400, "This form had expired; reload the page and try again.")

    def change(o: Opened) -> tuple[Roster, str]:
        view = _views(o)[form.index.data or 0]
        if view.units:
            raise _Refused(f"{view.use.name} is not taken off: the roster has its units "
                           f"{', '.join(view.units)}. Remove them first.")
        file = pack_file_name(view.use.name)
        theirs = {f.name for f in o.catalog.factions if f.origin.file == file}
        roster = replace(o.roster, packs=tuple(u for i, u in enumerate(o.roster.packs)
                                                if i != view.index),
                         factions=tuple(f for f in o.roster.factions if f not in theirs))
        return roster, f"Take off the pack {view.use.name}"

    return _save(token, opened, form, change)
