"""The contract every rule system passes, built in or installed from another package.

A system's own tests call `check_system` with a legal roster of their game; Listbuilder's
tests call it for each of the five (tests/test_contract.py), and the test game of
tests/plugin_game, installed on its own beside a built wheel, passes it too
(tests/test_wheel.py). It checks what the rest of Listbuilder relies on: the system is found
through its entry point, its data loads from its package, the roster reads, validates and
costs consistently, every entry gives a card, and the cards, sheet and rules print as PDFs;
a system with a tracker plays random matches by its own offers (`check_play`).
A failure is an AssertionError saying what to fix.
"""

from __future__ import annotations

import random
import re
from typing import Any

from listbuilder.engine.cards import UnitCard
from listbuilder.engine.library import Library
from listbuilder.engine.registry import all_systems
from listbuilder.engine.report import report
from listbuilder.engine.system import RuleSystem


def check_system(system: RuleSystem[Any, Any], legal_roster: str,
                 library: Library | None = None) -> None:
    """Assert that `system` keeps the contract, with `legal_roster` (a roster file's text)."""
    library = library or Library()
    assert re.fullmatch(r"[a-z][a-z0-9_]*", system.id), (
        f"{system.id!r}: a system's id is lowercase letters, digits and _ (it names URLs, "
        f"folders and entry points)")
    assert system.name.strip() and system.blurb.strip(), f"{system.id}: set name and blurb"
    assert system.id in {s.id for s in all_systems()}, (
        f"{system.id}: not found through the entry-point group listbuilder.systems: declare it "
        f"in your package's pyproject.toml and install the package")
    assert system.data_folder().is_dir(), f"{system.id}: no data/ folder in {system.package()}"

    catalog = library.catalog(system)
    assert catalog.system == system.id and catalog.units, f"{system.id}: its catalog is empty"
    names = {f.name for f in catalog.factions}
    builder = system.builder()
    for unit in catalog.units:
        assert unit.faction is None or unit.faction in names, (
            f"{system.id}: {unit.name} names the unknown faction {unit.faction!r}")
        # every unit is of the class the system's hooks are written for: they read its fields
        system.profile(catalog, unit)  # so every unit can be shown
        lo, hi = system.count_bounds(unit)
        assert lo >= 1 and (hi is None or lo <= hi), (
            f"{system.id}: {unit.name} has count bounds {lo} to {hi}")
        assert lo <= builder.default_count(unit), (
            f"{system.id}: {unit.name} starts below its smallest count")

    loaded = library.read_roster(legal_roster, f"<{system.id} contract roster>")
    roster = loaded.roster
    assert loaded.system.id == system.id, "the contract roster is of another system"
    assessed = report(system, catalog, roster)
    found = assessed.violations
    assert assessed.status.state == "legal", (
        f"{system.id}: the contract roster should be legal, got {[str(v) for v in found]}")
    costs = [system.entry_cost(catalog, p.unit, p.entry) for p in assessed.priced]
    assert all(cost >= 0 for cost in costs), f"{system.id}: a negative cost: {costs}"
    assert assessed.totals.points == sum(costs), (
        f"{system.id}: the totals' points are not the sum of entry_cost")
    printed, placed = system.cards(), {p.index: p for p in assessed.priced}
    for i, entry in enumerate(roster.entries):  # (a system may print joined entries on one card)
        assert i in placed and isinstance(printed.entry_card(catalog, placed[i]), UnitCard), (
            f"{system.id}: {entry.unit} gives no card")

    from listbuilder import printing

    for what in ("cards", "sheet"):
        pdf = printing.print_roster(catalog, system, roster, printing.PrintOptions(what=what)).pdf
        assert pdf.startswith(b"%PDF-"), f"{system.id}: the {what} print is not a PDF"
    if printing.printables(catalog, system).rules:
        assert printing.print_rules(catalog, system, printing.PrintOptions()).pdf.startswith(
            b"%PDF-"), f"{system.id}: the rules sheet is not a PDF"
    check_play(system, legal_roster, library)


def check_play(system: RuleSystem[Any, Any], legal_roster: str, library: Library | None = None,
               games: int = 3, longest: int = 150) -> None:
    """Assert that `system`'s tracker, if it has one, keeps the contract of
    `listbuilder.engine.match.Play`: every kind's handler and checks exist; in `games`
    seeded random matches of `legal_roster` against itself, each event picked from `offers`
    is accepted, whose move it is (`acting`) is a side offered a move, every unit has its
    row (`units`, `standing`), and the log replays to the state it was played to."""
    from listbuilder.engine.match import Match, Player, Standing, push, replay

    play = system.play()
    if play is None:
        return
    for name, kind in play.kinds.items():
        for method in (kind.method(name), *kind.checks):
            assert callable(getattr(play, method, None)), (
                f"{system.id}: event kind {name!r} names {method!r}, which its Play lacks")
    library = library or Library()
    loaded = library.read_roster(legal_roster, f"<{system.id} contract roster>")
    players = tuple(Player(name, loaded.roster, legal_roster, loaded.catalog)
                    for name in ("One", "Two"))
    for seed in range(games):
        pick = random.Random(seed)
        match = Match(system.id, players)
        state = play.start(match)
        for _ in range(longest):
            offered = play.offers(state)
            if play.outcome(state).over:
                assert not offered, f"{system.id}: the game is over, yet offers {offered[0]}"
                break
            assert offered, f"{system.id}: nothing offered after {len(match.events)} events"
            side, _ = play.acting(state)
            assert side is None or side in {ev.side for ev in offered}, (
                f"{system.id}: acting names side {side}, which is offered no move")
            moves = [ev for ev in offered if ev.kind != "concede"] or offered
            match, state = push(play, match, state, pick.choice(moves))
        for side in (1, 2):
            for unit in play.units(state, side):
                assert {"unit", "name", "alive"} <= set(unit), f"{system.id}: a row lacks them"
                assert isinstance(play.standing(unit), Standing)
        assert play.to_data(replay(play, match)) == play.to_data(state), (
            f"{system.id}: the log does not replay to the state it was played to")
