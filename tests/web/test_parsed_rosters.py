"""A stored text is parsed once a process (`rosters._PARSED`): the roster kept for a text,
whether from the save that wrote it or from an earlier opening, is the roster a fresh parse
of that text gives, and the text a change saves is the same either way."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest

from listbuilder.engine import edits
from listbuilder.engine.catalog import parse_yaml
from listbuilder.engine.library import Library
from listbuilder.engine.model import Roster
from listbuilder.engine.roster_file import RosterModel, to_roster
from listbuilder.engine.yaml_limits import ROSTER
from listbuilder.web import rosters

EXAMPLES = sorted(p for p in (Path(__file__).resolve().parents[2] / "examples").glob("*/*.yaml")
                  if p.name != "match.yaml")


def fresh(text: str) -> Roster:
    """The text parsed now, as `parse_stored` does when it has not seen it."""
    return to_roster(RosterModel.model_validate(parse_yaml(text, "stored roster", ROSTER)))


@pytest.fixture(scope="module")
def library() -> Library:
    return Library()


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_roster_kept_for_a_saved_text_is_that_text_parsed(path: Path,
                                                             library: Library) -> None:
    loaded = library.read_roster_file(path)
    system, catalog = loaded.system, loaded.catalog
    roster = loaded.roster
    last = roster.entries[-1] if roster.entries else None
    changes = [roster]
    if last is not None:  # a change as the builder makes one: the last entry added again
        unit = next((u for u in catalog.units if u.name == last.unit), None)
        if unit is not None:
            with contextlib.suppress(edits.EditError):  # a unit with a cap reached, say
                changes.append(edits.add_unit(system, catalog, roster, unit))
    for changed in changes:
        try:
            text = rosters.canonical(changed, system, catalog, before=roster)
        except rosters.RosterShapeError:
            continue  # refused, so never saved: nothing is kept for it
        kept = rosters._PARSED.get(text)
        assert kept is not None, "a saved text is kept for the next change"
        assert kept == fresh(text)
        assert rosters.parse_stored(text) is kept
        # the next change, made to the kept roster or to a fresh parse, saves the same text
        assert rosters.canonical(kept, system, catalog) == \
            rosters.canonical(fresh(text), system, catalog)


def test_a_text_opened_once_is_not_parsed_again(library: Library) -> None:
    text = EXAMPLES[0].read_text(encoding="utf-8") + "\n# opened once\n"
    assert rosters._PARSED.get(text) is None
    first = rosters.parse_stored(text)
    assert first == fresh(text)
    assert rosters.parse_stored(text) is first


def test_the_kept_rosters_are_bounded_by_their_texts_length() -> None:
    kept = rosters.parsed_rosters(chars=100)
    roster = fresh(EXAMPLES[0].read_text(encoding="utf-8"))
    for i in range(10):
        kept.put(f"{i:02d}" + "x" * 38, roster)  # 40 characters each
    assert [kept.get(f"{i:02d}" + "x" * 38) is not None for i in range(10)] == \
        [False] * 8 + [True] * 2
