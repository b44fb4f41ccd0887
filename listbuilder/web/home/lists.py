"""Your rosters on every device, without an account: a private link to a player's list.

A browser keeps the edit links of the rosters it made or opened in its session cookie. Asked
for a list link, it gets one (`/l/<token>`). Opened on a phone, the link shows what it is and
asks; once the player joins it there (a POST), the phone shows the same list, and from then on
every device that follows the link adds to and takes from the same list. Joining brings the
phone's own rosters onto the list only when the player ticks the box that says how many: a
link is a key, and a stranger's link must not collect the rosters of whoever opens it.

The list lives in the database sealed (AES-GCM) with a key derived from the link's token, and
is found by a digest of that token: the database alone opens none of its edit links, the
link alone does. Two devices saving at once: the second reads the list again and redoes its
change (a version on the row).
"""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, session, url_for
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response

from listbuilder.web import collection
from listbuilder.web.collection import LIST, change, create, followed, merged, read

bp = Blueprint("roster_lists", __name__)

@bp.post("/mine/link")
def make_link() -> Response:
    """Give this browser's list a private link (once: asked again, the same link)."""
    if not FlaskForm().validate_on_submit():
        return redirect(url_for("home.index", _anchor="devices"))
    if followed() is None:
        session[LIST] = create(collection.remembered())
        session.permanent = True
    return redirect(url_for("home.index", _anchor="devices"))


def _no_list() -> tuple[str, int]:
    return render_template("site/error.html", code=404, title="No list has this link",
                           message="Check that the whole link was copied. A list link "
                                   "looks like /l/ followed by 43 letters and digits."), 404


def _opened(token: str) -> list[str] | None:
    return read(token) if len(token) <= 100 else None


@bp.get("/l/<token>")
def follow(token: str) -> tuple[str, int]:
    """What a list link is, and a button to show it on this device. Opening the link changes
    nothing: a stranger's link posted in a chat must not take this browser's rosters (nor the
    ones it makes later) until the player has read what joining does and asked for it."""
    listed = _opened(token)
    if listed is None:
        return _no_list()
    here = [t for t in collection.local_remembered() if t not in listed]
    return render_template("home/list_join.html", token=token, on_list=len(listed),
                           here=len(here), already=followed() == token), 200


@bp.post("/l/<token>/join")
def join(token: str) -> tuple[str, int] | Response:
    """Follow the list link on this device. This browser's own rosters go onto the list only
    when the player ticked the box that names how many."""
    if _opened(token) is None:
        return _no_list()
    form = FlaskForm()
    if not form.validate_on_submit():
        return redirect(url_for("roster_lists.follow", token=token))
    brought = request.form.get("bring") == "yes"
    if brought:
        here = collection.local_remembered()
        change(token, lambda tokens: merged(tokens, here))
    session[LIST] = token
    session.permanent = True
    return redirect(url_for("home.index", linked=2 if brought else 1, _anchor="devices"))


@bp.post("/mine/unlink")
def unlink() -> Response:
    """Stop following the list link on this device: it keeps the list as it is now, alone."""
    if FlaskForm().validate_on_submit() and (token := followed()) is not None:
        # the list as it is now, and this device's own rosters that never went onto it
        collection.keep_locally(merged(read(token) or [], collection.local_remembered()))
        session.pop(LIST, None)
    return redirect(url_for("home.index", _anchor="devices"))
