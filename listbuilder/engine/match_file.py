"""The match file: a match written down as YAML (docs/match-format.md), read back and replayed.

Each player's roster travels inside it as its roster file's own text, so a match file is
whole on its own: `listbuilder match FILE` needs nothing else. A file from a stranger is held
to `MATCH`'s limits before anything is built, and every problem names the file, the line and
the fix.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import yaml

from listbuilder.engine.catalog import Locator, parse_yaml
from listbuilder.engine.errors import DataError, DataLoadError, Loc
from listbuilder.engine.match import MAX_EVENTS, Event, Match, Player, Value
from listbuilder.engine.roster_file import MAX_ROSTER_BYTES, LoadedRoster, RosterFileError
from listbuilder.engine.yaml_limits import Limits

FORMAT = "listbuilder-match/2"  # what is written: version 2 adds the clock's events
# what is read: a version-1 file is a version-2 file without clock events, so it replays as
# it always did
READS = ("listbuilder-match/1", FORMAT)
MAX_PLAYERS = 2
# two rosters of the largest size and a long game's events; a value at most a roster's text
MATCH = Limits(depth=8, nodes=8 * MAX_EVENTS + 200, chars=2 * MAX_ROSTER_BYTES + 1024 * 1024,
               digits=13, text=MAX_ROSTER_BYTES, what="match")  # 13: a clock's time
EVENT_KEYS = ("kind", "side", "unit", "id")

ReadRoster = Callable[[str, str], LoadedRoster]  # text, name for messages -> the roster


@dataclass(frozen=True)
class LoadedMatch:
    match: Match
    rosters: tuple[LoadedRoster, ...]
    lines: tuple[int | None, ...]  # each event's line in the file
    options_line: int | None = None  # where the options are (a refused option points there)


class MatchFileError(DataLoadError):
    pass


def read_match(text: str, file: str, read_roster: ReadRoster) -> LoadedMatch:
    """Parse and check a match file (its shape, and each roster as a roster file); the events
    are replayed by the caller, who knows the game's rules of play."""
    if len(text.encode("utf-8", "surrogatepass")) > MATCH.chars:
        raise MatchFileError([DataError(file, (), f"a match file is at most "
                                                  f"{MATCH.chars // 1024} KB")])
    data = parse_yaml(text, file, MATCH)
    where = Locator(text)

    def fail(loc: Loc, message: str) -> MatchFileError:
        return MatchFileError([DataError(file, loc, message, where(loc))])

    if not isinstance(data, dict):
        raise fail((), "a match file is a mapping with format, system, players and events")
    if data.get("format") not in READS:
        raise fail(("format",), f"write format: {FORMAT} (or {READS[0]}, which reads the "
                                f"same; this file says {data.get('format')!r})")
    unknown = sorted(set(map(str, data)) - {"format", "system", "players", "options", "events"})
    if unknown:
        raise fail((unknown[0],), f"unknown key '{unknown[0]}': a match file has format, "
                                  f"system, players, options and events")
    system = data.get("system")
    if not isinstance(system, str):
        raise fail(("system",), "write the game's id, such as system: hammerwars")
    players_raw = data.get("players")
    if not isinstance(players_raw, list) or not 1 <= len(players_raw) <= MAX_PLAYERS:
        raise fail(("players",), "list one player (a solo game) or two, each with a name "
                                 "and a roster")
    players, rosters = [], []
    for i, raw in enumerate(players_raw):
        if not isinstance(raw, dict) or not isinstance(raw.get("name"), str) \
                or not isinstance(raw.get("roster"), str):
            raise fail(("players", i), "a player has a name and a roster (the roster file's "
                                       "text, as a block: roster: |)")
        name = raw["name"].strip()[:80] or f"Player {i + 1}"
        try:
            loaded = read_roster(raw["roster"], f"{file}: player {i + 1}'s roster")
        except RosterFileError as exc:
            at = where(("players", i, "roster")) or 0
            raise MatchFileError([DataError(e.file, e.loc, e.message,
                                            at + e.line if e.line else at or None)
                                  for e in exc.errors]) from None
        if loaded.system.id != system:
            raise fail(("players", i, "roster"), f"this roster is for {loaded.system.id}, "
                                                 f"the match for {system}")
        players.append(Player(name, loaded.roster, raw["roster"], loaded.catalog))
        rosters.append(loaded)
    options = data.get("options") or {}
    if not isinstance(options, dict) or not all(
            isinstance(k, str) and _is_value(v) for k, v in options.items()):
        raise fail(("options",), "options are names with a number, a word or yes/no each")
    events_raw = data.get("events") or []
    if not isinstance(events_raw, list):
        raise fail(("events",), "events is a list, one event a line: - {kind: ..., side: 1}")
    if len(events_raw) > MAX_EVENTS:
        raise fail(("events",), f"a match holds at most {MAX_EVENTS} events")
    events = tuple(_event(raw, ("events", i), fail) for i, raw in enumerate(events_raw))
    match = Match(system, tuple(players), events, tuple(sorted(options.items())))
    lines = tuple(where(("events", i)) for i in range(len(events)))
    return LoadedMatch(match, tuple(rosters), lines,
                       where(("options",)) if "options" in data else None)


def _is_value(value: Any) -> bool:
    return isinstance(value, (int, str, bool)) and not isinstance(value, float)


def _event(raw: Any, loc: Loc, fail: Callable[[Loc, str], MatchFileError]) -> Event:
    if not isinstance(raw, dict) or not isinstance(raw.get("kind"), str):
        raise fail(loc, "an event is a mapping with its kind: - {kind: round-end}")
    for key in ("side", "unit"):
        value = raw.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise fail((*loc, key), f"{key} is a number ({key}: 1), not {value!r}")
    ev_id = raw.get("id", "")
    if not isinstance(ev_id, str) or len(ev_id) > 40:
        raise fail((*loc, "id"), "an event's id is a word of at most 40 characters")
    values: list[tuple[str, Value]] = []
    for key, value in raw.items():
        if key in EVENT_KEYS:
            continue
        if not isinstance(key, str) or not _is_value(value):
            raise fail((*loc, str(key)), f"'{key}' holds a number, a word or yes/no, "
                                         f"not {value!r}")
        values.append((key, value))
    return Event(raw["kind"], raw.get("side"), raw.get("unit"), tuple(sorted(values)), ev_id)


class _Dumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]
    pass


def _block(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _block)


def dump_match(match: Match) -> str:
    """The match file of `match`: its header, players (rosters as blocks), options and one
    event a line."""
    head = yaml.dump({"format": FORMAT, "system": match.system,
                      "players": [{"name": p.name, "roster": p.text} for p in match.players],
                      **({"options": dict(match.options)} if match.options else {})},
                     Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)
    if not match.events:
        return head + "events: []\n"
    lines = [yaml.dump(e.to_data(), Dumper=_Dumper, default_flow_style=True, sort_keys=False,
                       allow_unicode=True, width=1000).strip() for e in match.events]
    return head + "events:\n" + "".join(f"- {line}\n" for line in lines)
