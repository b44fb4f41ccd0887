"""A pack's unit cards as they will print: each unit of the pack at its usual size, laid out by
the same print queue as a roster's cards (a roster of the pack's units, carrying the pack), as
a PDF and as a picture of its first page beside the studio's editor."""

from __future__ import annotations

import dataclasses

from flask import Blueprint, Response, abort, render_template, url_for

from listbuilder.engine.errors import DataLoadError
from listbuilder.engine.model import PackUse, Roster, RosterEntry
from listbuilder.engine.packs import Pack, check_pack
from listbuilder.engine.registry import get_system
from listbuilder.engine.roster_file import dump_roster
from listbuilder.jobs.print_job import PrintJob
from listbuilder.printing import PrintError, PrintOptions
from listbuilder.store.packs import StoredPack
from listbuilder.web import services
from listbuilder.web.prints.answers import Asked, file_response, preview, queued, sent_values
from listbuilder.web.prints.cache import print_key
from listbuilder.web.studio.views import pack_by_edit_token, pack_by_share_token

bp = Blueprint("studio_print", __name__, url_prefix="/studio")


def cards_roster(stored: StoredPack, link: str) -> str | None:
    """The roster file of one of each of the pack's units, at its usual size, carrying the
    pack; None when the pack has problems (its page lists them) or no units."""
    system = get_system(stored.system)
    pack = Pack(system.id, stored.name, stored.text)
    check = check_pack(system, services.library().loaded(system), pack)
    units = check.units(pack.file)
    if not check.ok or check.loaded is None or not units:
        return None
    factions = tuple(dict.fromkeys(u.faction for u in units if u.faction))
    builder = system.builder()
    roster = Roster(system=system.id, name=stored.name, factions=factions,
                    entries=tuple(RosterEntry(unit=u.name, faction=u.faction,
                                              count=builder.default_count(u)) for u in units),
                    packs=(PackUse(name=stored.name, text=stored.text, link=link),))
    return dump_roster(roster, system, check.loaded.catalog)


def _cards(stored: StoredPack, back: str) -> Response:
    link = url_for("studio.shared", share=stored.share_token, _external=True)
    text = cards_roster(stored, link)
    if text is None:
        abort(Response(render_template("site/error.html", title="No cards to print yet",
                                       message="This pack has problems, or no units yet: "
                                               "its page lists what to fix."), 422))
    try:
        options = PrintOptions.from_strings({"what": "cards", **sent_values()})
        catalog = services.library().read_roster(text, "pack cards").catalog
        key = print_key("roster", catalog.revision, dataclasses.asdict(options), [text])
        job = PrintJob("roster", stored.system, dataclasses.asdict(options), text=text)
        pdf = queued(key, job, Asked(f"{stored.name}: cards", back, "back to the pack"))
    except (PrintError, DataLoadError) as exc:
        abort(Response(render_template("site/error.html", title="These cards can't be printed",
                                       message=str(exc)), 422))
    if isinstance(pdf, Response):
        return pdf
    return file_response(pdf, options, stored.name, stored.system, "cards")


@bp.get("/p/<token>/cards")
def cards_by_edit(token: str) -> Response:
    return _cards(pack_by_edit_token(token), url_for("studio.edit", token=token))


@bp.get("/p/<token>/cards/preview.png")
def preview_by_edit(token: str) -> Response:
    return preview(cards_by_edit(token))


@bp.get("/s/<share>/cards")
def cards_by_share(share: str) -> Response:
    return _cards(pack_by_share_token(share), url_for("studio.shared", share=share))


@bp.get("/s/<share>/cards/preview.png")
def preview_by_share(share: str) -> Response:
    return preview(cards_by_share(share))
