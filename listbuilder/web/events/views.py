"""The events' pages (docs/events.md): make an event; its organiser's page (lists checked,
rounds paired, results entered); its public page (hand a list in, pairings, standings, also
as JSON); a player's own page (their list, their table, Play); a list's verify page.

Links are keys: the organiser's runs the event, the public one reads it and takes lists, a
player's plays their table. A GET changes nothing; making an event, handing a list in and
starting a table's match count as "create", pairing and results as "save" (site/limits.py).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, cast

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from werkzeug.wrappers import Response as BaseResponse

from listbuilder.engine.errors import DataLoadError
from listbuilder.engine.events.sealing import Terms, seal
from listbuilder.engine.match import Match, MatchError, Outcome, Player
from listbuilder.engine.match_file import dump_match
from listbuilder.engine.registry import get_system
from listbuilder.engine.report import report
from listbuilder.store.database import now
from listbuilder.store.events import (
    EventStore,
    ListsLocked,
    RoundRefused,
    StaleEvent,
    StoredEvent,
    StoredGame,
    StoredList,
    standings_of,
)
from listbuilder.web import services
from listbuilder.web.events import sheet
from listbuilder.web.events.forms import (
    MAX_PACK_LINKS,
    HandInForm,
    NewEventForm,
    PairForm,
    PlayForm,
    ResultForm,
    SettingsForm,
    refused_words,
)
from listbuilder.web.events.links import code_of_key, edit_token, player_key, table_token
from listbuilder.web.rosters import StoredRosterError, open_stored
from listbuilder.web.table.matches import match_ended, second_token

bp = Blueprint("events", __name__)

_PACK_SHARE = re.compile(r"(?:/studio/s/)?([A-Za-z0-9_-]{8,100})/?(?:[?#].*)?$")


def events() -> EventStore:
    return cast(EventStore, current_app.extensions["listbuilder.events"])


# -- making one --------------------------------------------------------------------------------

@bp.route("/events/new", methods=["GET", "POST"])
def new() -> Any:
    form = NewEventForm()
    problem = ""
    if request.method == "POST" and form.validate():
        system = get_system(str(form.system.data))
        try:
            packs = _allowed_packs(form.packs.data or "", system.id, system.name)
        except ValueError as exc:
            problem = str(exc)
        else:
            league = form.kind.data == "league"
            _, token = events().create(
                system.id, str(form.name.data).strip(), points_limit=form.points_limit.data,
                packs=packs, data_revision=services.library().catalog(system).revision,
                rounds=None if league else form.rounds.data, deadline=form.closes())
            return redirect(url_for("events.page", token=token, made=1), 303)
    status = 422 if request.method == "POST" else 200
    return render_template("events/new.html", form=form, problem=problem), status


def _allowed_packs(text: str, system_id: str, game: str) -> dict[str, str]:
    """The packs' share links, one a line, as share token -> the pack's name."""
    out: dict[str, str] = {}
    lines = [(n, line.strip()) for n, line in enumerate(text.splitlines(), start=1)
             if line.strip()]
    if len(lines) > MAX_PACK_LINKS:
        raise ValueError(f"Studio packs allowed: at most {MAX_PACK_LINKS} links.")
    for number, line in lines:
        if "/studio/p/" in line:
            raise ValueError(f"Studio packs allowed, line {number}: that is a pack's edit link, "
                             "which lets anyone change it: paste its share link (it has "
                             "/studio/s/ in it).")
        found = _PACK_SHARE.search(line)
        pack = services.packs().by_share_token(found.group(1)) if found else None
        if pack is None:
            raise ValueError(f"Studio packs allowed, line {number}: no pack has this share link. "
                             "Check that the whole link was copied.")
        if pack.system != system_id:
            raise ValueError(f"Studio packs allowed, line {number}: {pack.name!r} is a pack of "
                             f"{get_system(pack.system).name}, and this event plays {game}.")
        out[pack.share_token] = pack.name
    return out


# -- the event's pages --------------------------------------------------------------------------

@bp.get("/e/<token>")
def page(token: str) -> Any:
    """The organiser's page for the private link, the public page for the public one."""
    event = events().by_organiser_token(token)
    if event is not None:
        return _organiser_page(event, token)
    return _public_page(public_event(token), token)


def public_event(token: str) -> StoredEvent:
    event = events().by_public_token(token) or events().by_organiser_token(token)
    if event is None:
        abort(404, "No event has this link. Check that the whole link was copied.")
    return event


def organiser_event(token: str) -> StoredEvent:
    event = events().by_organiser_token(token)
    if event is None:
        if events().by_public_token(token) is not None:
            abort(403, "This is the event's public link: only the organiser's link pairs "
                       "rounds and enters results.")
        abort(404, "No event has this link. Check that the whole link was copied.")
    return event


def _laid_out(event: StoredEvent) -> dict[str, Any]:
    """What every page of the event shows: its lists (without their files), its rounds, the
    standings; the round shown is the one the query names (`round`), else the latest."""
    lists = events().lists(event.id, texts=False)
    games = events().games(event.id)
    seats = sheet.seats(lists)
    paired = sheet.rounds(games, seats)
    lines = sheet.lines(standings_of(event, lists, games), seats)
    asked = request.args.get("round", "")
    shown = int(asked) if asked.isdigit() and 1 <= int(asked) <= len(paired) else len(paired)
    return {"event": event, "system": get_system(event.system), "lists": lists,
            "rounds": paired, "shown": paired[shown - 1] if paired else None,
            "lines": lines, "final": sheet.final(event, paired),
            "public": url_for("events.page", token=event.share_token, _external=True)}


def _organiser_page(event: StoredEvent, token: str, problem: str = "",
                    status: int = 200) -> Response:
    context = _laid_out(event)
    pair = PairForm(formdata=None, base=event.version)
    settings = SettingsForm(formdata=None, base=event.version, name=event.name,
                            deadline=event.deadline.replace(tzinfo=None))
    body = render_template("events/organiser.html", token=token, pair=pair, settings=settings,
                           changes=events().changes(event.id), problem=problem,
                           made=request.args.get("made") == "1",
                           result_form=ResultForm(formdata=None), **context)
    return Response(body, status)


def _public_page(event: StoredEvent, token: str, form: HandInForm | None = None,
                 problem: str = "", status: int = 200) -> Response:
    body = render_template("events/public.html", token=token, problem=problem,
                           form=form or HandInForm(formdata=None), now=now(),
                           **_laid_out(event))
    return Response(body, status)


@bp.get("/e/<token>/standings.json")
def standings_json(token: str) -> Response:
    event = public_event(token)
    context = _laid_out(event)
    response = jsonify(sheet.standings_json(event, context["rounds"], context["lines"]))
    response.headers["Cache-Control"] = "no-store"
    return response


# -- lists in ----------------------------------------------------------------------------------

@bp.post("/e/<token>/hand-in")
def hand_in(token: str) -> BaseResponse:
    event = public_event(token)
    form = HandInForm()
    if not form.validate():
        words = refused_words(form)
        return _public_page(event, token, form, f"Nothing was handed in: {words}", 422)
    try:
        handed = _seal_and_submit(event, str(form.link.data), str(form.player.data).strip())
    except ValueError as exc:
        return _public_page(event, token, form, str(exc), 422)
    return redirect(url_for("events.player", key=player_key(handed.code), handed=1), 303)


def _seal_and_submit(event: StoredEvent, link: str, player: str) -> StoredList:
    """Seal the roster the edit link opens for the event; ValueError, in words, when the
    link is not an edit link, opens nothing, is another game's or the lists are closed."""
    stored = services.store().by_edit_token(edit_token(link))
    if stored is None:
        raise ValueError("No roster has this edit link. Check that the whole link was copied; "
                         "nothing was handed in.")
    try:
        opened = open_stored(services.library(), stored)
    except StoredRosterError:
        raise ValueError(f"The roster {stored.name!r} can no longer be read: open it, save it "
                         "again, and hand it in then.") from None
    game = get_system(event.system)
    if opened.system.id != game.id:
        raise ValueError(f"That roster is of {opened.system.name}, and this event plays "
                         f"{game.name}: hand in a roster of {game.name}.")
    terms = Terms(event.points_limit, frozenset(event.packs), event.data_revision)
    sealed = seal(opened, terms, services.library().catalog(game).revision)
    try:
        return events().submit(event, stored.id, player, sealed)
    except ListsLocked as exc:
        raise ValueError(f"Not handed in: {exc}. The list you handed in before, if any, "
                         "stands.") from None


# -- a player's own page ------------------------------------------------------------------------

def _players_list(key: str) -> tuple[StoredEvent, StoredList]:
    code = code_of_key(key)
    found = events().by_code(code) if code else None
    if found is None:
        abort(404, "No player of any event has this link. Check that the whole link was "
                   "copied.")
    return found


@bp.get("/p/<key>")
def player(key: str) -> str:
    event, mine = _players_list(key)
    context = _laid_out(event)
    tables = [(number, table) for number in context["rounds"] for table in number.tables
              if mine.id in (table.first.list_id, table.second.list_id if table.second else 0)]
    play = get_system(event.system).play() is not None
    return render_template("events/player.html", key=key, mine=mine, tables=tables,
                           play=play, handed=request.args.get("handed") == "1",
                           form=PlayForm(formdata=None), match_link=_match_link, **context)


def _match_link(event: StoredEvent, game: StoredGame, mine: StoredList) -> str:
    """The player's own side's link to the table's match."""
    first = table_token(event, game)
    return url_for("table.page", token=first if game.first == mine.id else second_token(first))


@bp.post("/p/<key>/play/<int:game_id>")
def play(key: str, game_id: int) -> BaseResponse:
    """Play this table on the tracker: the match between the two sealed lists, made by the
    first of the two players to tap, joined by the other."""
    event, mine = _players_list(key)
    if not PlayForm().validate():
        abort(400, "The form was not understood: reload the page and tap again.")
    game = events().game(event.id, game_id)
    if game is None or mine.id not in (game.first, game.second):
        abort(404, "This is not one of your tables: your page lists them.")
    if game.bye:
        abort(409, "A bye is not played: it counts as a win.")
    system = get_system(event.system)
    rules = system.play()
    if rules is None:
        abort(404, f"{system.name} has no match tracker yet.")
    if game.match_id is None:
        by_id = {li.id: li for li in events().lists(event.id)}
        players = []
        for list_id in (game.first, game.second):
            sealed = by_id[cast(int, list_id)]
            try:
                loaded = services.library().read_roster(sealed.text, f"{sealed.code}.yaml")
            except DataLoadError:
                abort(422, f"{sealed.player}'s sealed list no longer reads on this data: the "
                           "organiser can enter the result by hand.")
            players.append(Player(sealed.player, loaded.roster, sealed.text, loaded.catalog))
        match = Match(system.id, tuple(players))
        try:
            rules.start(match)
        except MatchError as exc:
            abort(422, f"This table can't be played on the tracker: {exc.message}. The "
                       "organiser can enter the result by hand.")
        first = table_token(event, game)
        events().start_match(game, system.id, dump_match(match), [first, second_token(first)])
    return redirect(_match_link(event, game, mine), 303)


# -- the organiser's changes ----------------------------------------------------------------------

@bp.post("/e/<token>/pair")
def pair(token: str) -> BaseResponse:
    event = organiser_event(token)
    form = PairForm()
    if not form.validate():
        return _organiser_page(event, token, "The round was not paired: reload the page and "
                                             "try again.", 400)
    if not form.present.data:
        return _organiser_page(event, token, "The round was not paired: tick the players "
                                             "present.", 422)
    try:
        events().pair(replace(event, version=int(form.base.data or 0)), form.present.data)
    except StaleEvent as stale:
        return _organiser_page(stale.current, token, _STALE, 409)
    except RoundRefused as exc:
        return _organiser_page(event, token, f"The round was not paired: {exc}.", 409)
    return redirect(url_for("events.page", token=token) + "#rounds", 303)


_STALE = ("Nothing was changed: the event moved on since this page was drawn (a round paired "
          "or a result entered elsewhere). Here it is as it stands: do it again if it is still "
          "needed.")


@bp.post("/e/<token>/tables/<int:game_id>")
def result(token: str, game_id: int) -> BaseResponse:
    """A result entered or corrected by hand, written in the event's log of changes."""
    event = organiser_event(token)
    game = events().game(event.id, game_id)
    if game is None:
        return _organiser_page(event, token, "No result was entered: this event has no such "
                                             "table. Pick the table from the rounds below.",
                               404)
    if game.bye:
        return _organiser_page(event, token, "No result was entered: a bye counts as a win "
                                             "and has no result to enter.", 409)
    form = ResultForm()
    if not form.validate():
        words = refused_words(form)
        return _organiser_page(event, token, f"No result was entered: {words}", 422)
    winner = {"1": 1, "2": 2}.get(str(form.winner.data))
    scores = (form.score1.data or 0, form.score2.data or 0)
    lists = sheet.seats(events().lists(event.id))
    table = sheet.TableLine(game, lists[game.first], lists[cast(int, game.second)])
    was = table.result or "no result"
    now_table = sheet.TableLine(replace(game, winner=winner, scores=scores, reported=game.reported
                                        or now()), table.first, table.second)
    words = (f"Round {game.round}, table {game.table}: {now_table.result} entered by hand "
             f"(was: {was}).")
    try:
        events().report(replace(event, version=int(form.base.data or 0)), game.id, winner,
                        scores, words)
    except StaleEvent as stale:
        return _organiser_page(stale.current, token, _STALE, 409)
    return redirect(url_for("events.page", token=token, round=game.round) + "#rounds", 303)


@bp.post("/e/<token>/settings")
def settings(token: str) -> BaseResponse:
    """The event renamed, or its deadline moved (lists open again when it moves later)."""
    event = organiser_event(token)
    form = SettingsForm()
    if not form.validate():
        words = refused_words(form)
        return _organiser_page(event, token, f"Nothing was changed: {words}", 422)
    try:
        events().amend(replace(event, version=int(form.base.data or 0)),
                       str(form.name.data).strip(), form.closes())
    except StaleEvent as stale:
        return _organiser_page(stale.current, token, _STALE, 409)
    return redirect(url_for("events.page", token=token) + "#changes", 303)


# -- verify --------------------------------------------------------------------------------------

@bp.get("/v/<code>")
def verify(code: str) -> Any:
    """A sealed list, read-only: what a code or QR code on a printed sheet opens."""
    found = events().by_code(code)
    if found is None:
        abort(404, "No sealed list has this code. Check the code on the sheet.")
    event, sealed = found
    text = ""
    try:
        loaded = services.library().read_roster(sealed.text, f"{sealed.code}.yaml")
        text = report(loaded.system, loaded.catalog, loaded.roster).text
    except DataLoadError:
        text = ""  # shown as its file below
    return render_template("events/verify.html", event=event, sealed=sealed, text=text,
                           system=get_system(event.system))


# -- a tracker's match that ends reports to its table --------------------------------------------

def _report_outcome(app: Any, match_id: int, outcome: Outcome) -> None:
    scores = outcome.scores[0][1] if outcome.scores else ()
    pair_of = (int(scores[0]), int(scores[1])) if len(scores) >= 2 else (0, 0)
    app.extensions["listbuilder.events"].match_ended(match_id, outcome.winner, pair_of)


match_ended.connect(_report_outcome)
