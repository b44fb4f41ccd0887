"""Sealed lists (listbuilder/engine/events/sealing.py): the canonical text, its SHA-256, the data
revision and the verdict, the same for any copy of one list and different for another list."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from listbuilder.engine.events.sealing import seal
from listbuilder.engine.library import Library
from listbuilder.engine.model import Catalog, Roster
from listbuilder.engine.report import report
from listbuilder.engine.roster_file import dump_roster
from listbuilder.engine.system import RuleSystem

ROOT = Path(__file__).resolve().parents[3]
LEGAL = ROOT / "examples" / "op40k" / "legal.yaml"


def test_a_seal_is_the_canonical_text_and_its_sha256(library: Library) -> None:
    loaded = library.read_roster_file(LEGAL)
    sealed = seal(loaded)
    assert sealed.text == dump_roster(loaded.roster, loaded.system, loaded.catalog)
    assert sealed.sha256 == hashlib.sha256(sealed.text.encode()).hexdigest()
    assert sealed.data_revision == loaded.catalog.revision
    assert sealed.legal and sealed.state == "legal" and sealed.problems == ()


def test_copies_of_one_list_seal_alike_and_another_list_does_not(library: Library) -> None:
    text = LEGAL.read_text()
    sealed = seal(library.read_roster(text, "legal.yaml"))
    commented = "# brought to the club night\n" + text.replace("\n", "\n\n", 3)
    assert seal(library.read_roster(commented, "copy.yaml")).sha256 == sealed.sha256
    canonical_again = seal(library.read_roster(sealed.text, "sealed.yaml"))
    assert canonical_again.text == sealed.text
    renamed = text.replace(f"name: {sealed_name(text)}", "name: Another List", 1)
    assert renamed != text
    assert seal(library.read_roster(renamed, "other.yaml")).sha256 != sealed.sha256


def test_an_illegal_list_is_sealed_with_each_problem_named(library: Library) -> None:
    sealed = seal(library.read_roster_file(ROOT / "examples" / "op40k" / "illegal.yaml"))
    assert sealed.state == "illegal" and not sealed.legal
    assert sealed.problems and all(problem.strip() for problem in sealed.problems)


def sealed_name(text: str) -> str:
    line = next(line for line in text.splitlines() if line.startswith("name:"))
    return line.removeprefix("name:").strip()


def test_the_events_own_terms_are_flags_beside_the_games_verdict(library: Library) -> None:
    """A list legal by its game is still flagged when it breaks the event's terms: over the
    event's points limit, a pack the event does not name, another data revision."""
    from dataclasses import replace

    from listbuilder.engine.events.sealing import Terms, pack_token
    from listbuilder.engine.model import PackUse

    loaded = library.read_roster_file(LEGAL)
    points = report(loaded.system, loaded.catalog, loaded.roster).totals.points
    revision = loaded.catalog.revision
    assert seal(loaded, Terms(points, (), revision), revision).flags == ()
    under = seal(loaded, Terms(points - 1, (), revision), revision)
    assert under.legal and under.flags == (
        f"{points} pts: over the event's limit of {points - 1} pts",)
    assert seal(loaded, Terms(None, (), "older"), revision).flags == (
        f"priced on data revision {revision}; the event is played on older",)
    # a pack is named by its share link's token, whatever host it was copied from
    link = "https://club.example/studio/s/AbCdEfGh12345678"
    assert pack_token(link) == "AbCdEfGh12345678" and pack_token("") == ""
    pack = PackUse(name="Club pack", text="x: 1", link=link)
    packed = Packed(replace(loaded.roster, packs=(pack,)), loaded.system, loaded.catalog)
    assert seal(packed, Terms(None, {"AbCdEfGh12345678"})).flags == ()
    assert seal(packed, Terms(None, {"another"})).flags == (
        "builds with the pack 'Club pack' (from another studio link), which the event does "
        "not allow",)


@dataclass(frozen=True)
class Packed:
    roster: Roster
    system: RuleSystem
    catalog: Catalog
