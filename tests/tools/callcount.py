"""Counting what one change on the roster page asks of its game: every call to a method of
the game's `RuleSystem` object, and of the objects it hands out for a part of its work
(`builder()`, `cards()`, `resolver()`), during one htmx "Add" through Flask's test client.

Shared by tests/web/builder/test_report_calls.py (which holds the count under a bound) and
benchmarks/calls.py (which prints it).
"""

from __future__ import annotations

import functools
import re
import secrets
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from listbuilder.engine.registry import get_system

# the roster each game's count is taken on: the game, its factions and limit, and the unit
# added (twice: once before counting, so the roster holds an entry, then counted)
CASES: tuple[tuple[str, tuple[str, ...], int | None, str], ...] = (
    ("hammerwars", ("Lizardmen",), None, "Assault Infantry"),
    ("op40k", ("Orks",), 500, "Ork Boyz"),
    ("warstuff", (), 150, "Human Warrior"),
    ("actionhammer", ("Cobalt Brigade",), 2000, "Line Troopers"),
    ("spaceempires", ("Orks",), None, "Warboss"),
)
SEED = 4242
HANDED_OUT = ("builder", "cards", "resolver")  # methods whose answers are counted too


def _hidden(html: str, name: str) -> str:
    found = re.search(rf'name="{name}" (?:type="hidden" )?value="([^"]+)"', html) or re.search(
        rf'id="{name}" name="{name}" type="hidden" value="([^"]+)"', html)
    assert found is not None, f"no {name} on the page"
    return found[1]


class _Counted:
    """An object handed out by the game (a module, say) with its calls counted."""

    def __init__(self, inner: object, prefix: str, calls: Counter[str]) -> None:
        self._inner, self._prefix, self._calls = inner, prefix, calls

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._inner, name)
        if not callable(found) or isinstance(found, type):
            return found
        return _counting(found, f"{self._prefix}.{name}", self._calls)


def _counting(method: Callable[..., Any], name: str, calls: Counter[str]) -> Callable[..., Any]:
    @functools.wraps(method)
    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[name] += 1
        found = method(*args, **kwargs)
        if name in HANDED_OUT and found is not None:
            return _Counted(found, name, calls)
        return found
    return counted


@contextmanager
def counting(system_id: str) -> Iterator[Counter[str]]:
    """Every call to a method of the game's system object while inside, by name (a method of
    an object it handed out as "<hook>.<name>")."""
    system = get_system(system_id)
    calls: Counter[str] = Counter()
    names = [name for name in dir(type(system))
             if not name.startswith("__") and callable(getattr(system, name))
             and not isinstance(getattr(type(system), name, None), (type, classmethod,
                                                                    staticmethod))]
    for name in names:
        setattr(system, name, _counting(getattr(system, name), name, calls))
    try:
        yield calls
    finally:
        for name in names:
            delattr(system, name)


def calls_of_an_add(app: Flask, system_id: str, factions: tuple[str, ...],
                    limit: int | None, unit: str, other: Flask | None = None) -> Counter[str]:
    """The game-method calls of one htmx Add on a roster holding one entry (the page loaded
    first, as a player has it). `other`: an app on the same database and instance folder (a
    second worker, which has drawn a page of another roster of the game) answers the Add,
    where the page was drawn by `app`."""
    client = app.test_client()

    def start() -> str:
        page = client.get(f"/new/{system_id}").get_data(as_text=True)
        form: dict[str, object] = {"csrf_token": _hidden(page, "csrf_token"), "name": "Count",
                                   "factions": list(factions)}
        if limit:
            form["points_limit"] = limit
        drawn = secrets.randbelow
        # a random draw (Space Empires' starting forces) of its own each time would count
        # differently each run: every count draws with one seed
        secrets.randbelow = lambda _: SEED
        try:
            created = client.post(f"/new/{system_id}", data=form)
        finally:
            secrets.randbelow = drawn
        return created.headers["Location"].rsplit("/", 1)[1]

    token = start()

    def add(html: str, by: FlaskClient) -> int:
        body = {"csrf_token": _hidden(html, "csrf_token"), "version": _hidden(html, "version"),
                "unit": unit}
        return by.post(f"/r/{token}/add", data=body, headers={"HX-Request": "true"}).status_code

    assert add(client.get(f"/r/{token}").get_data(as_text=True), client) == 200
    html = client.get(f"/r/{token}").get_data(as_text=True)
    answering = client
    if other is not None:
        answering = other.test_client()
        if (cookie := client.get_cookie("session")) is not None:  # the same browser
            answering.set_cookie("session", cookie.value)
        assert answering.get(f"/r/{start()}").status_code == 200
    with counting(system_id) as calls:
        assert add(html, answering) == 200
    return calls
