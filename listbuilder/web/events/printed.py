"""An event's prints: a sealed list's sheet and cards, carrying the list's code and a QR code
of its verify page (printing/seal.py), and the organiser's zip of every list (the sealed
files, and one PDF of every roster sheet, each with its seal). Both go through the print
queue as every print does (web/prints/answers.py: the waiting page, a full queue), and count
as prints in the rate limits."""

from __future__ import annotations

import dataclasses
import io
import zipfile

from flask import Blueprint, Response, abort, url_for

from listbuilder.engine.registry import get_system
from listbuilder.jobs.print_job import PrintJob
from listbuilder.printing import PrintError, PrintOptions
from listbuilder.printing.seal import Seal
from listbuilder.store.events import StoredEvent, StoredList
from listbuilder.web import services
from listbuilder.web.events.views import events, organiser_event
from listbuilder.web.prints.answers import (
    Asked,
    download_name,
    file_part,
    file_response,
    in_words,
    queued,
    sent_values,
)
from listbuilder.web.prints.cache import check_print_size, print_key

bp = Blueprint("event_prints", __name__)


def seal_of(event: StoredEvent, sealed: StoredList) -> Seal:
    return Seal(event.name, sealed.code,
                url_for("events.verify", code=sealed.code, _external=True))


@bp.get("/v/<code>/print")
def sealed(code: str) -> Response:
    """The sealed list's sheet and cards (the print menu's options in the query; the sheet
    is always in: it carries the seal)."""
    found = events().by_code(code)
    if found is None:
        abort(404, "No sealed list has this code. Check the code on the sheet.")
    event, listed = found
    try:
        options = PrintOptions.from_strings(sent_values())
    except PrintError as exc:
        abort(422, "This print can't be made: " + "; ".join(in_words(exc.problems)))
    seal = seal_of(event, listed)
    revision = services.library().catalog(event.system).revision
    key = print_key("sealed", revision, dataclasses.asdict(options),
                    [listed.text, *seal.as_dict().values()])
    job = PrintJob("roster", event.system, dataclasses.asdict(options), text=listed.text,
                   seal=seal.as_dict())

    def check() -> None:  # the cards a browser's print lays out are bounded, as for any roster
        if options.what in ("cards", "all"):
            read = services.library().read_roster(listed.text, f"{listed.code}.yaml")
            check_print_size(len(read.system.cards().unit_cards(read.catalog, read.roster,
                                                                 merge=options.merge)))

    try:
        pdf = queued(key, job, Asked(f"{listed.player}'s list", url_for("events.verify",
                                                                        code=code),
                                     "back to the list"), check)
    except PrintError as exc:
        abort(422, "This print can't be made: " + "; ".join(in_words(exc.problems)))
    if isinstance(pdf, Response):
        return pdf
    return file_response(pdf, options, event.name, listed.player, listed.code)


@bp.get("/e/<token>/lists.zip")
def lists_zip(token: str) -> Response:
    """Every list of the event: each sealed file, an index of codes and hashes, and one PDF
    of every roster sheet with its seal."""
    event = organiser_event(token)
    lists = events().lists(event.id)
    if not lists:
        abort(404, "No list is handed in yet: there is nothing to export.")
    options = PrintOptions(what="sheet")
    seals = [seal_of(event, li) for li in lists]
    revision = services.library().catalog(event.system).revision
    key = print_key("sheets", revision, dataclasses.asdict(options),
                    [part for li, seal in zip(lists, seals, strict=True)
                     for part in (li.text, *seal.as_dict().values())])
    job = PrintJob("sheets", event.system, dataclasses.asdict(options),
                   lists=tuple({"text": li.text, "seal": seal.as_dict()}
                               for li, seal in zip(lists, seals, strict=True)))
    try:
        pdf = queued(key, job, Asked(f"Every list of {event.name}",
                                     url_for("events.page", token=token), "back to the event"))
    except PrintError as exc:
        abort(422, "The lists can't be printed: " + "; ".join(in_words(exc.problems)))
    if isinstance(pdf, Response):
        return pdf
    name = download_name(event.name, "lists")
    return Response(_zipped(event, lists, pdf), mimetype="application/zip", headers={
        "Content-Disposition": f'attachment; filename="{name}.zip"',
        "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"})


def _zipped(event: StoredEvent, lists: list[StoredList], pdf: bytes) -> bytes:
    game = get_system(event.system).name
    index = [f"{event.name} ({game}): {len(lists)} lists, as sealed. Check a file with "
             "`listbuilder verify FILE.yaml`: it prints the hash below.", ""]
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for number, li in enumerate(lists, start=1):
            file = f"{number:03d}-{file_part(li.player) or 'player'}-{li.code}.yaml"
            archive.writestr(file, li.text)
            verdict = "legal" if li.legal else li.state
            flags = f", flagged: {'; '.join(li.flags)}" if li.flags else ""
            index.append(f"{file}  {li.sha256}  {li.player}: {verdict}{flags}")
        archive.writestr("index.txt", "\n".join(index) + "\n")
        archive.writestr("roster-sheets.pdf", pdf)
    return out.getvalue()
