"""Printing from the browser: a roster's unit cards and sheet (by its edit or its share link),
and each system's own prints (its card set, a faction's chits, the rules sheet) from the
system's print page.

A print changes nothing, so every form is a GET that works without JavaScript: the answer is
the PDF (or, for `format=png|tts`, a zip of the cards as images) as a download and the page
stays as it was. A print not made yet is queued and laid
out beside the edits (`prints.queue`): the answer (202) is a small page with the print's place
in line that asks again every second, until the same address answers the PDF. A full queue is
a page too (503, with Retry-After). A print that can't be made comes back as a page (422)
naming each problem in words, with the form filled as it was sent. Checking the options and
making the PDF are `listbuilder.printing`'s, the forms `prints.forms`'; this module reads the
query, shows the forms and names the file.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from urllib.parse import urlencode

from flask import Blueprint, Response, abort, render_template, request, url_for

from listbuilder.engine.registry import get_system
from listbuilder.engine.system import RuleSystem
from listbuilder.jobs.print_job import PrintJob
from listbuilder.printing import PrintError, PrintOptions, printables
from listbuilder.store.rosters import Stored
from listbuilder.web import services
from listbuilder.web.prints.answers import (
    MAX_TEXT,
    Asked,
    file_response,
    in_words,
    preview,
    queued,
    sent_values,
)
from listbuilder.web.prints.cache import check_print_size, print_key
from listbuilder.web.prints.forms import (
    PrintForm,
    chits_form,
    deck_form,
    roster_form,
    rules_form,
)
from listbuilder.web.rosters import Opened

bp = Blueprint("print", __name__)

WHAT_FILE = {"all": "cards-and-sheet", "cards": "cards", "sheet": "sheet"}


# -- a roster's cards and sheet ---------------------------------------------------------------



def _print_roster(opened: Opened, action: str, back: str) -> Response:
    sent = sent_values()
    try:
        options = PrintOptions.from_strings(sent)

        def check() -> None:  # only when the print is queued: a poll need not count again
            if options.what in ("cards", "all"):
                check_print_size(len(opened.system.cards().unit_cards(
                    opened.catalog, opened.roster, merge=options.merge)))

        key = print_key("roster", opened.catalog.revision, dataclasses.asdict(options),
                        [opened.stored.text])
        job = PrintJob("roster", opened.system.id, dataclasses.asdict(options),
                       text=opened.stored.text)
        pdf = queued(key, job, Asked(opened.roster.name, back, "back to the roster"), check)
    except PrintError as exc:
        form = roster_form(action, sent, in_words(exc.problems))
        body = render_template("prints/roster.html", form=form, roster=opened.roster,
                               system=opened.system, back=back)
        return Response(body, 422)
    if isinstance(pdf, Response):
        return pdf
    what = "cards" if options.images else options.what  # images are of the cards alone
    return file_response(pdf, options, opened.roster.name, opened.system.id, WHAT_FILE[what])


@bp.get("/r/<token>/print")
def roster_by_edit(token: str) -> Response:
    opened = services.roster_by_edit_token(token)
    return _print_roster(opened, url_for("print.roster_by_edit", token=token),
                         url_for("builder.edit", token=token))


@bp.get("/s/<share>/print")
def roster_by_share(share: str) -> Response:
    opened = services.roster_by_share_token(share)
    return _print_roster(opened, url_for("print.roster_by_share", share=share),
                         url_for("shared.view", share=share))


@bp.app_template_global("print_menu")
def print_menu(stored: Stored, token: str | None) -> PrintForm:
    """The roster page's Print menu at its defaults; by the share link on the read-only page."""
    action = (url_for("print.roster_by_edit", token=token) if token else
              url_for("print.roster_by_share", share=stored.share_token))
    return roster_form(action, {})


# -- a system's own prints --------------------------------------------------------------------

def _system(system_id: str) -> RuleSystem:
    try:
        return get_system(system_id)
    except ValueError:
        abort(404, f"There is no system {system_id!r}; pick one on the home page.")


def _system_page(system: RuleSystem, failed: str = "", sent: Mapping[str, str] | None = None,
                 problems: tuple[str, ...] = ()) -> Response:
    """The system's print page; after a failed print, that print's form as it was sent."""
    offer = printables(services.library().catalog(system), system)

    def as_sent(kind: str) -> tuple[Mapping[str, str], tuple[str, ...]]:
        return (sent or {}, problems) if kind == failed else ({}, ())

    forms = []
    if offer.rules:
        forms.append(rules_form(system, *as_sent("rules")))
    if offer.deck:
        forms.append(deck_form(system, offer, *as_sent("deck")))
    if offer.chit_factions:
        forms.append(chits_form(system, offer, *as_sent("chits")))
    shown = any(f.problems for f in forms)
    body = render_template("prints/system.html", system=system, forms=forms,
                           problems=() if shown else problems)
    return Response(body, 422 if failed else 200)


def _print_system(system: RuleSystem, kind: str, problems: list[str], *name_parts: str,
                  faction: str = "") -> Response:
    """Print, or show the page again with every problem: those of the options and those the
    view found (`problems`), at once."""
    sent = sent_values()
    problems = list(problems)
    options = None
    try:
        options = PrintOptions.from_strings({k: v for k, v in sent.items() if k != "faction"})
    except PrintError as exc:
        problems += exc.problems
    if options is not None and not problems:
        catalog = services.library().catalog(system)
        key = print_key(kind, catalog.revision, dataclasses.asdict(options),
                        [system.id, *name_parts])
        job = PrintJob(kind, system.id, dataclasses.asdict(options), faction=faction)
        asked = Asked(f"{system.name}: {' '.join(name_parts)}",
                      url_for("print.system_page", system_id=system.id),
                      f"back to {system.name}'s prints")
        try:
            pdf = queued(key, job, asked)
        except PrintError as exc:
            problems = exc.problems
        else:
            return pdf if isinstance(pdf, Response) else file_response(pdf, options,
                                                                       system.id, *name_parts)
    return _system_page(system, kind, sent, in_words(problems))


@bp.get("/systems/<system_id>/print")
def system_page(system_id: str) -> Response:
    return _system_page(_system(system_id))


@bp.get("/systems/<system_id>/print/rules")
def rules(system_id: str) -> Response:
    return _print_system(_system(system_id), "rules", [], "rules")


@bp.get("/systems/<system_id>/print/deck")
def deck(system_id: str) -> Response:
    system = _system(system_id)
    offer = printables(services.library().catalog(system), system)
    problems = [] if offer.deck else [
        f"{system.name} has no card deck of its own: a roster's unit cards print from the "
        f"roster's page, under Print."]
    return _print_system(system, "deck", problems, offer.deck or "deck")


@bp.get("/systems/<system_id>/print/chits")
def chits(system_id: str) -> Response:
    system = _system(system_id)
    offer = printables(services.library().catalog(system), system)
    wanted = request.args.get("faction", "").strip()[:MAX_TEXT]
    faction = next((f for f in offer.chit_factions if f.casefold() == wanted.casefold()), "")
    problems = []
    if not offer.chit_factions:
        problems.append(f"{system.name} is not played with chits.")
    elif not wanted:
        problems.append("Faction: pick the faction whose chits to print.")
    elif not faction:
        problems.append(f"Faction: {wanted!r} has no chit pile in {system.name}; pick one of "
                        f"{', '.join(offer.chit_factions)}.")
    return _print_system(system, "chits", problems, faction, "chits", faction=faction)


def _counted(title: str, cards: int) -> str:
    """A card set with its size: "11 unit cards", "49-card action deck"."""
    name = title.lower()
    return f"{cards} {name}" if name.endswith("cards") else f"{cards}-card {name}"


@bp.app_template_global("print_offer")
def print_offer(system: RuleSystem) -> str:
    """What a system's print page offers, in a few words (the home page's link)."""
    offer = printables(services.library().catalog(system), system)
    parts = (["rules sheet"] if offer.rules else []) + \
        ([_counted(offer.deck, offer.deck_cards)] if offer.deck else []) + \
        (["chits"] if offer.chit_factions else [])
    if not parts:
        return "printouts"
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


# -- previews: the first page of the very PDF a form downloads, as a picture --------------------

@bp.app_template_global("print_preview_url")
def print_preview_url(form: PrintForm) -> str:
    """Where the picture of the form's print is: its address with the values it shows."""
    values = {f.name: f.data for f in form.choices if f.data}
    values |= {f.name: f.sends for f in form.checks if f.data}
    return f"{form.action}/preview.png?{urlencode(values)}"


@bp.get("/r/<token>/print/preview.png")
def roster_preview_by_edit(token: str) -> Response:
    return preview(roster_by_edit(token))


@bp.get("/s/<share>/print/preview.png")
def roster_preview_by_share(share: str) -> Response:
    return preview(roster_by_share(share))


@bp.get("/systems/<system_id>/print/<kind>/preview.png")
def system_preview(system_id: str, kind: str) -> Response:
    views = {"rules": rules, "deck": deck, "chits": chits}
    if kind not in views:
        abort(404)
    return preview(views[kind](system_id))
