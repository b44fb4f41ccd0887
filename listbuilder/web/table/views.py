"""The match tracker's pages: start a match from a roster, play it from each side's phone,
watch it, check the odds, and read the summary after.

Every link here is a password (a side's private link plays, the spectators' reads). A GET
changes nothing: starting a match, an event and undo are POSTs with the CSRF token, counted by
the limits (site/limits.py). Each phone asks for the match's version every few seconds
(`board`, 204 while nothing changed), so a change made on one shows on the other without a
reload. An event carries the phone's own id for it: sent twice over a bad connection, it is
kept once, and an id stays spent for the match's whole life, so a retry of a tap undone since
is answered with the board as it stands (store.matches.SpentId).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    url_for,
)
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response as BaseResponse

from listbuilder.engine.clock import stamp
from listbuilder.engine.fight import ResolveError, Result
from listbuilder.engine.match import Event, Match, MatchError, Player, Refused, push
from listbuilder.engine.match import event as clock_event
from listbuilder.engine.match_file import dump_match
from listbuilder.engine.matchup import matchup
from listbuilder.engine.odds import odds, state_settings
from listbuilder.store.matches import MatchFull, SpentId, StaleMatch, new_token
from listbuilder.web import services
from listbuilder.web.resolve.present import share_token
from listbuilder.web.rosters import StoredRosterError, open_stored
from listbuilder.web.table.attacker import attacker_of
from listbuilder.web.table.board import Tap, board, recorded
from listbuilder.web.table.clockface import clock_face, round_list
from listbuilder.web.table.forms import (
    CLOCK_ACTIONS,
    BadEvent,
    ChangeForm,
    ClockForm,
    EventForm,
    chosen_settings,
    event_from_form,
    start_form,
)
from listbuilder.web.table.matches import (
    Table,
    advanced,
    match_ended,
    matches,
    open_match,
    opened,
    second_token,
)
from listbuilder.web.uploads import UploadProblem, read_upload_text

bp = Blueprint("table", __name__)

APPEND_TRIES = 5  # two phones adding at once: each tries again on the log as it now is


# -- starting ------------------------------------------------------------------------------

@bp.route("/r/<token>/play", methods=["GET", "POST"])
def start(token: str) -> Any:
    """Play this roster: the form (GET), and the match it starts (POST)."""
    opened_roster = services.roster_by_edit_token(token)
    system = opened_roster.system
    play = system.play()
    if play is None:
        abort(404, f"{system.name} has no match tracker yet.")
    form = start_form(play)
    problem = ""
    if request.method == "POST" and form.validate():
        mine = Player(form.me.data.strip(), opened_roster.roster, opened_roster.stored.text,
                      opened_roster.catalog)
        players: list[Player] = [mine]
        try:
            other = _opponent(form, system.id)
        except ValueError as exc:
            problem = str(exc)
            other = None
        if other is not None:
            players.append(other)
        if not problem:
            match = Match(system.id, tuple(players),
                          options=tuple(sorted(chosen_settings(form, play.settings).items())))
            try:
                play.start(match)  # options the game refuses, rosters it can't seat
            except MatchError as exc:
                problem = f"{exc.message}. {exc.fix}"
            else:
                tokens = [new_token()]
                if len(players) > 1:
                    tokens.append(second_token(tokens[0]))
                matches().create(system.id, dump_match(match), tokens)
                return redirect(url_for("table.page", token=tokens[0], started=1), 303)
    status = 422 if request.method == "POST" else 200
    return render_template("table/start.html", form=form, system=system, token=token,
                           roster=opened_roster.roster, problem=problem,
                           play=play), status


def _opponent(form: Any, system_id: str) -> Player | None:
    """The other side's player, from a share link or a file; None for a solo game."""
    name = (form.opponent.data or "").strip() or "Opponent"
    if form.source.data == "solo":
        return None
    if form.source.data == "file":
        upload = form.file.data
        if upload is None or not getattr(upload, "filename", ""):
            raise ValueError("Choose their roster file, or pick another way to add them.")
        try:
            loaded, text = read_upload_text(services.library(), upload)
        except UploadProblem as exc:
            raise ValueError(f"Their roster file was not read: {'; '.join(exc.lines)}") \
                from None
        if loaded.system.id != system_id:
            raise ValueError(f"That is a {loaded.system.name} roster: a match is played "
                             f"between two rosters of one game.")
        return Player(name, loaded.roster, text, loaded.catalog)
    link = (form.link.data or "").strip()
    if not link:
        raise ValueError("Paste their roster's share link (it has /s/ in it), or pick "
                         "another way to add them.")
    stored = services.store().by_share_token(share_token(link))
    if stored is None:
        raise ValueError("No roster has this share link. Check that the whole link was "
                         "copied.")
    try:
        other = open_stored(services.library(), stored)
    except StoredRosterError:
        raise ValueError(f"The roster {stored.name!r} can no longer be read; its owner can "
                         f"open and save it again.") from None
    if other.system.id != system_id:
        raise ValueError(f"That is a {other.system.name} roster: a match is played between "
                         f"two rosters of one game.")
    return Player(name, other.roster, stored.text, other.catalog)


# -- playing ---------------------------------------------------------------------------------

def _current() -> tuple[int, int] | None:
    raw = request.args.get("u", "")
    side, _, unit = raw.partition(".")
    if side.isdigit() and unit.isdigit() and len(raw) < 12:
        return int(side), int(unit)
    return None


def _links(table: Table) -> dict[str, str]:
    out = {"watch": url_for("table.page", token=table.stored.watch_token, _external=True)}
    if table.side == 1 and not table.solo:
        out["opponent"] = url_for("table.page", token=second_token(table.token),
                                  _external=True)
    return out


def now_ms() -> int:
    """The server's time in ms since 1970: what a clock tap without the phone's time is
    recorded at, and what the clocks are shown as of."""
    return time.time_ns() // 1_000_000


def _context(table: Table, message: str = "") -> dict[str, Any]:
    return {"table": table, "board": board(table, _current()), "token": table.token,
            "message": message, "links": _links(table), "form": ChangeForm(),
            "system": table.system, "clock": clock_face(table, now_ms())}


@bp.get("/m/<token>")
def page(token: str) -> str:
    table = open_match(token)
    return render_template("table/match.html", started=request.args.get("started") == "1",
                           **_context(table))


@bp.get("/m/<token>/board")
def board_part(token: str) -> BaseResponse:
    """The board alone, for the phone's poll: 204 while the match is at the version the phone
    has (`v`), so a quiet game costs one indexed read a poll."""
    seen = request.args.get("v", "")
    version = matches().version_by_token(token)
    if version is None:
        abort(404, "No match has this link.")
    if seen.isdigit() and int(seen) == version:
        return Response(status=204)
    return _board_answer(open_match(token))


def _board_answer(table: Table, message: str = "", status: int = 200) -> Response:
    body = render_template("table/_board.html", **_context(table, message))
    response = Response(body, status)
    response.headers["Cache-Control"] = "no-store"
    return response


def _answer(table: Table, message: str = "", status: int = 200) -> BaseResponse:
    if services.is_htmx() or request.headers.get("X-Table") == "1":
        return _board_answer(table, message, status)
    if status == 200:
        return redirect(url_for("table.page", token=table.token), 303)
    return Response(render_template("table/match.html", started=False,
                                    **_context(table, message)), status)


def _playing(token: str) -> Table:
    table = open_match(token)
    if table.watching:
        abort(403, "This is the spectators' link: it shows the match and changes nothing.")
    return table


@bp.post("/m/<token>/event")
def event(token: str) -> BaseResponse:
    table = _playing(token)
    form = EventForm()
    if not form.validate():
        return _answer(table, "That tap was not understood: " + "; ".join(
            f"{name}: {' '.join(errors)}" for name, errors in form.errors.items()), 400)
    try:
        ev = event_from_form(form, MultiDict(request.form), dict(table.play.kinds))
    except BadEvent as exc:
        return _answer(table, f"That tap was not understood: {exc}.", 400)
    return _record(table, token, lambda _: ev)


@bp.post("/m/<token>/clock")
def clock_tap(token: str) -> BaseResponse:
    """A tap on the clock: recorded at the phone's time of the tap when it sent one, within
    what the log and the server's clock allow (engine/clock.py `stamp`), else now."""
    table = _playing(token)
    form = ClockForm()
    if not form.validate() or form.kind.data not in CLOCK_ACTIONS:
        return _answer(table, "That clock tap was not understood: " + "; ".join(
            f"{name}: {' '.join(errors)}" for name, errors in form.errors.items()
        ) if form.errors else "That clock tap was not understood.", 400)
    try:
        ev_id = form.event_id()
    except BadEvent as exc:
        return _answer(table, f"That clock tap was not understood: {exc}.", 400)
    sent = form.sent_ms()
    limit = {"minutes": form.minutes.data} if form.minutes.data else {}

    def made(now_table: Table) -> Event:
        at = stamp(now_table.match, sent, now_ms())
        return clock_event(form.kind.data or "", form.side.data, None, ev_id, at=at, **limit)

    return _record(table, token, made)


def _record(table: Table, token: str, made: Callable[[Table], Event]) -> BaseResponse:
    """The event `made` of the match as it stands appended to the log, tried again on the
    log as it now is when the other phone added one meanwhile; answered with the board."""
    for _ in range(APPEND_TRIES):
        try:
            ev = made(table)
        except Refused as exc:
            return _answer(table, f"Not recorded: {exc.message}. {exc.fix}", 422)
        spent = matches().spent(table.stored, ev.id) if ev.id else None
        if spent is not None:
            return _spent(table, spent)
        if table.broken:
            return _answer(table, "This match's log no longer replays: undo its last event "
                                  "first.", 409)
        try:
            after, state = push(table.play, table.match, table.state, ev)
        except MatchError as exc:
            return _answer(table, f"Not recorded: {exc.message}. {exc.fix}", 422)
        if after is table.match:  # its id is in the log: sent again, kept once
            return _answer(table)
        try:
            stored = matches().append(table.stored.id, table.version, ev, table.side,
                                      read=table.stored)
        except StaleMatch as stale:
            table = opened(stale.current, table.side, token)
            continue
        except SpentId as clash:  # posted twice at once: the other post recorded it first
            return _spent(opened(clash.current, table.side, token), clash)
        except MatchFull as exc:
            return _answer(table, f"Not recorded: {exc}. Export the match and start a new "
                                  f"one to go on.", 422)
        now = advanced(table, stored, after, state)  # push's state: no replay
        if now.outcome.over and not table.outcome.over:
            match_ended.send(current_app._get_current_object(),  # type: ignore[attr-defined]
                             match_id=stored.id, outcome=now.outcome)
        return _answer(now)
    return _answer(table, "The match is busy: tap again.", 409)


def _spent(table: Table, spent: SpentId) -> BaseResponse:
    """A tap whose id the match has recorded before. From this phone, it is the same tap sent
    again (its first answer was lost): answered with the board as it stands, so a tap undone
    meanwhile stays undone. From the other phone, two taps that should differ share an id:
    refused in words, never dropped in silence."""
    if spent.side in (None, table.side):
        return _answer(table)
    return _answer(table, "Not recorded: this tap came with the id of a tap the other phone "
                          "made, so it was not kept. Tap it again to record it.", 409)


@bp.post("/m/<token>/undo")
def undo(token: str) -> BaseResponse:
    table = _playing(token)
    form = ChangeForm()
    if not form.validate():
        return _answer(table, "Undo was not understood: reload the page.", 400)
    if not table.stored.log:
        return _answer(table, "There is nothing to undo.", 409)
    try:
        stored = matches().undo(table.stored.id, int(form.base.data or 0))
    except StaleMatch as stale:
        return _answer(opened(stale.current, table.side, token),
                       "Not undone: the match changed on the other phone since. The last "
                       "event is now the one shown under Undo: tap again to take it back.",
                       409)
    return _answer(opened(stored, table.side, token))


# -- reading -------------------------------------------------------------------------------

@bp.get("/m/<token>/match.yaml")
def export(token: str) -> Response:
    table = open_match(token)
    response = Response(dump_match(table.match), mimetype="application/x-yaml")
    response.headers["Content-Disposition"] = \
        f'attachment; filename="{table.system.id}-match-{table.stored.id}.yaml"'
    return response


@bp.get("/m/<token>/summary")
def summary(token: str) -> str:
    table = open_match(token)
    return render_template("table/summary.html", rounds=round_list(table, now_ms()),
                           **_context(table))


def _pair(raw: str) -> tuple[int, int] | None:
    side, _, unit = raw.partition(".")
    if side.isdigit() and unit.isdigit() and len(raw) < 12:
        return int(side), int(unit)
    return None


@bp.get("/m/<token>/odds")
def odds_page(token: str) -> Any:
    """Quick-resolve of one unit against an enemy unit, as the match has them now; the
    target's buttons below, to record what the dice did."""
    table = open_match(token)
    attacker, defender = _pair(request.args.get("a", "")), _pair(request.args.get("d", ""))
    # no attacker asked for: the one the log last named (`by`: a shot's shooter), as the
    # players will want, if it is the target's enemy
    named = attacker_of(table)
    if attacker is None and named and (defender is None or named[0] != defender[0]):
        attacker = named
    settings = {k[2:]: v for k, v in request.args.items() if k.startswith("s_") and len(k) < 40}
    result: Result | None = None
    problem = ""
    options: tuple[tuple[str, str], ...] = ()
    from_state: dict[str, object] = {}
    if attacker and defender:
        try:
            from_state = state_settings(table.system, table.play, table.match, table.state,
                                        attacker, defender)
            result = odds(table.system, table.play, table.match, table.state, attacker,
                          defender, settings)
            options = tuple(result.situation)
        except ResolveError as exc:
            problem = str(exc) or "These two units have no odds."
    record: tuple[Tap, ...] = ()
    if defender and not table.watching and not table.outcome.over and not table.broken:
        record = recorded(table, [ev for ev in table.play.offers(table.state)
                                  if (ev.side, ev.unit) == defender], attacker)
    ctx = {**_context(table), "attacker": attacker, "defender": defender, "result": result,
           "problem": problem, "applied": options, "from_state": from_state,
           "record": record, "settings": settings}
    if services.is_htmx():
        return render_template("table/_odds.html", **ctx)
    return render_template("table/odds.html", **ctx)


@bp.get("/m/<token>/matchup")
def matchup_page(token: str) -> str:
    table = open_match(token)
    if table.solo:
        abort(404, "A matchup needs two rosters: this match has one.")
    mine = table.side if table.side in (1, 2) else 1
    a, b = table.match.players[mine - 1], table.match.players[2 - mine]
    grid = matchup(table.system, (a.catalog, a.roster), (b.catalog, b.roster))
    return render_template("table/matchup.html", grid=grid, mine=a.name, theirs=b.name,
                           **_context(table))
