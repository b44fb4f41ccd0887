"""Helpers for the events' tests: an organiser making an event and players handing lists in,
through the test client as a browser without scripts would."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

from flask.testing import FlaskClient
from webtools import csrf_of, upload

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def later(days: int = 7) -> str:
    """A deadline `days` from now, as the form's datetime-local box sends it."""
    return (datetime.now(UTC) + timedelta(days=days)).strftime("%Y-%m-%dT%H:%M")


def make_event(client: FlaskClient, *, system: str = "op40k", name: str = "Club night",
               rounds: int | None = 3, deadline: str | None = None, points_limit: str = "",
               packs: str = "") -> tuple[str, str]:
    """The organiser's token and the public one of a new event."""
    page = client.get("/events/new").get_data(as_text=True)
    data = {"csrf_token": csrf_of(page), "name": name, "system": system,
            "points_limit": points_limit, "kind": "rounds" if rounds else "league",
            "rounds": str(rounds or ""), "deadline": deadline or later(), "packs": packs}
    response = client.post("/events/new", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    organiser = response.headers["Location"].split("/e/")[1].split("?")[0]
    return organiser, public_token(client, organiser)


def public_token(client: FlaskClient, organiser: str) -> str:
    page = client.get(f"/e/{organiser}").get_data(as_text=True)
    found = re.search(r'id="public-link" type="text" readonly value="[^"]*/e/([A-Za-z0-9_-]+)"',
                      page)
    assert found is not None, page
    return found[1]


def stored_roster(client: FlaskClient, path: Path | str) -> str:
    """A roster stored from a file (an example's path, or its text): its edit token."""
    data = path.read_bytes() if isinstance(path, Path) else path.encode("utf-8")
    response = upload(client, data)
    assert response.status_code in (302, 303), response.get_data(as_text=True)
    return response.headers["Location"].split("/r/")[1].split("?")[0].split("/")[0]


def hand_in(client: FlaskClient, public: str, link: str, player: str):  # type: ignore[no-untyped-def]
    # the session's token: the event's page has no form once lists are closed
    page = client.get("/").get_data(as_text=True)
    return client.post(f"/e/{public}/hand-in",
                       data={"csrf_token": csrf_of(page), "link": link, "player": player})


def player_key(response) -> str:  # type: ignore[no-untyped-def]
    """The player's own key, from the answer to a hand-in."""
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"].split("/p/")[1].split("?")[0]
