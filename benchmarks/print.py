"""Print speed: each distinct card laid out once and imposed with pikepdf, against the same
sheets laid out straight through WeasyPrint (every copy in place).

Each measurement runs in a fresh interpreter. Imports and data loading come first, then the
renderer's one-time set-up (`render.warm_up`: stylesheets parsed, fonts loaded, the C
bindings' types learnt), timed on its own and shown as "set-up": a server pays it once at
start, a command-line print once per run. Time is then the print call alone; memory is the
peak resident size of that process or of its forked layout helper, whichever is larger.
`--cold` leaves the set-up inside the print call instead (the first print of a process).
`--halves` instead lays out the roster's two halves alone and side by side, and its faces all
in one process: what a second busy core costs each half.

Run: .venv/bin/python benchmarks/print.py [--runs N] [--no-straight] [--halves]
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import click
from machine import machine_speed

ROOT = Path(__file__).resolve().parents[1]

# A 2000 pts ActionHammer army across both sample factions (built for size, not legality).
ROSTER_2000 = """
format: 1
system: actionhammer
name: Two thousand
points_limit: 2000
factions: [Cobalt Brigade, Ashen Horde]
entries:
  - {unit: Line Troopers, count: 10, upgrades: [Frag Grenades, Vox Caster], label: line}
  - {unit: Brigade Captain, upgrades: [Refractor Field], joins: line}
  - {unit: Line Troopers, count: 10}
  - {unit: Shock Squad, count: 6, label: shock}
  - {unit: Field Commissar, joins: shock}
  - {unit: Dragoon Riders, count: 4, upgrades: [Regimental Standard]}
  - {unit: Strider Walker}
  - {unit: Skyhawk Jumpers, count: 5}
  - {unit: Heavy Weapons Crew, count: 3}
  - {unit: Sniper Team, count: 2}
  - {unit: Ravager Wagon}
  - {unit: Tusk Riders, count: 4, upgrades: [Iron Tusks]}
  - {unit: Reaver Mob, count: 12, upgrades: [War Paint, Banner of Skulls]}
  - {unit: Sergeant Hale}
  - {unit: Carrion Flyers, count: 6}
  - {unit: Gorehound Pack, count: 6}
  - {unit: Scrap Gunners, count: 6}
"""


# the one change of the "again" figure: a unit's size, so only its card differs
ONE_CHANGE = ("{unit: Sniper Team, count: 2}", "{unit: Sniper Team, count: 3}")
assert ONE_CHANGE[0] in ROSTER_2000


def _deck(copies_total: int | None) -> tuple[Any, Any, Any]:
    from listbuilder.engine.library import Library
    from listbuilder.engine.registry import get_system

    system = get_system("spaceempires")
    catalog = Library().catalog(system)
    deck = system.cards().card_set(catalog)
    assert deck is not None
    if copies_total is not None:  # the 18 kinds, as many copies of each as makes the total
        n = len(deck.cards)
        counts = [copies_total // n + (1 if i < copies_total % n else 0) for i in range(n)]
        deck = replace(deck, cards=tuple(replace(c, copies=k)
                                         for c, k in zip(deck.cards, counts, strict=True)))
    return system, catalog, deck


def measure(case: str, mode: str, cold: bool = False) -> dict[str, Any]:
    """Run one case in this process; returns seconds, set-up, cards, distinct, pages, bytes."""
    from listbuilder.engine.library import Library
    from listbuilder.printing.options import PrintOptions
    from listbuilder.printing.render import (
        GUTTER,
        Face,
        _context,
        _stock,
        print_play_cards,
        print_unit_cards,
        unit_faces,
        warm_up,
    )
    from listbuilder.printing.straight import render_straight

    options = PrintOptions(what="cards")
    if case == "roster":
        loaded = Library().read_roster(ROSTER_2000, "2000.yaml")
        system, catalog, roster = loaded.system, loaded.catalog, loaded.roster
        cards = system.cards().unit_cards(catalog, roster)
        title = roster.name
        fronts = unit_faces(system, cards)

        def imposed() -> Any:
            return print_unit_cards(system, cards, options, title)
    else:
        system, catalog, deck = _deck(450 if case == "450" else None)
        title = deck.title
        fronts = [(Face(["print/play_card.html"], c, "play", c.name), c.copies)
                  for c in deck.cards]

        def imposed() -> Any:
            return print_play_cards(system, deck, options)

    context = _context(system, options, title, deck_title=title)
    setup = 0.0 if cold else warm_up()
    laid_out = None
    if mode == "again":  # printed once, then again with one unit changed (timed)
        imposed()
        changed = Library().read_roster(ROSTER_2000.replace(*ONE_CHANGE), "2000.yaml").roster
        cards = system.cards().unit_cards(catalog, changed)
    start = time.perf_counter()
    if mode in ("imposed", "again"):
        printed = imposed()
        pdf, distinct, cards_out, pages = printed.pdf, printed.faces, printed.cards, \
            printed.pages
        laid_out = printed.laid_out
    else:
        pdf = render_straight(fronts, _stock(options), options.paper, GUTTER, context)
        distinct = len(fronts)
        cards_out = sum(n for _, n in fronts)
        pages = -(-cards_out // 9)
    seconds = time.perf_counter() - start
    # the larger of this process and the forked layout helper, if one ran
    peak = max(resource.getrusage(who).ru_maxrss
               for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    return {"seconds": seconds, "setup": setup, "cards": cards_out, "distinct": distinct,
            "pages": pages, "bytes": len(pdf), "peak_mb": peak / 1024, "laid_out": laid_out}


def longest(card: str = "poker") -> None:
    """Lay out every unit card there is (all upgrades taken; ActionHammer: every Leader on
    every Bodyguard it may join, at full strength), each at the largest size it fits (a
    roster's print then takes its longest card's), as a roster's print draws them (mini cards
    name their rules: render.BRIEF), and name the ones with the smallest text."""
    from listbuilder.engine.library import Library
    from listbuilder.engine.model import Roster, RosterEntry
    from listbuilder.engine.registry import all_systems
    from listbuilder.printing.layout import lay_out_each
    from listbuilder.printing.options import PrintOptions
    from listbuilder.printing.render import BRIEF, _context, _stock, unit_faces

    library = Library()
    options = PrintOptions(card=card)  # type: ignore[arg-type]
    found = []
    for system in all_systems():
        catalog = library.catalog(system)
        rosters = []
        for unit in catalog.units:
            lo, hi = system.count_bounds(unit)
            rosters.append([RosterEntry(unit=unit.name, faction=unit.faction, count=hi or lo,
                                        upgrades=tuple(u.name for u in unit.upgrades))])
        if system.id == "actionhammer":
            for leader in catalog.units:
                for guard in catalog.units:
                    if (system.builder().can_join(leader) and not system.builder().can_join(guard)
                            and guard.faction == leader.faction
                            and getattr(guard, "move", 0) == getattr(leader, "move", 1)
                            and system.count_bounds(guard)[1] not in (None, 1)):
                        rosters.append([
                            RosterEntry(unit=guard.name, count=system.count_bounds(guard)[1]
                                        or 2, label="g",
                                        upgrades=tuple(u.name for u in guard.upgrades)),
                            RosterEntry(unit=leader.name, joins="g",
                                        upgrades=tuple(u.name for u in leader.upgrades))])
        cards = []
        for entries in rosters:
            roster = Roster(system=system.id, name="all", entries=tuple(entries),
                            factions=tuple({e.faction for e in entries if e.faction}))
            cards += system.cards().unit_cards(catalog, roster)[:1]
        laid = lay_out_each([face for face, _ in unit_faces(system, cards)], _stock(options),
                            _context(system, options, "all", brief=card in BRIEF))
        for c, size, pages in zip(cards, laid.font_pt, laid.pages, strict=True):
            # a joined Leader is printed on the Bodyguard's card, under the card's own name
            found.append((size, -len(pages), system.name, c.profile.name))
    found.sort()
    print(f"{len(found)} unit cards on {card} cards; the ones with the smallest text:")
    for size, pages, system_name, name in found[:5]:
        print(f"  {size:.2f} pt, {-pages} card(s): {name} ({system_name})")


def halves(rounds: int) -> None:
    """The 2000 pts roster's faces shared out as a print shares them (`workers.split_work`),
    each half laid out alone in this process, then both at once (the other in a forked
    child, as a print does), and all 17 in one process: what the second busy core costs each
    half, and how the two halves compare with one whole (docs/printing.md, "Speed")."""
    from listbuilder.engine.library import Library
    from listbuilder.printing import layout
    from listbuilder.printing.options import PrintOptions
    from listbuilder.printing.render import _context, _stock, unit_faces, warm_up
    from listbuilder.printing.workers import split_work

    warm_up()
    loaded = Library().read_roster(ROSTER_2000, "2000.yaml")
    options = PrintOptions(what="cards")
    faces = [face for face, _ in unit_faces(loaded.system, loaded.system.cards().unit_cards(
        loaded.catalog, loaded.roster))]
    context = _context(loaded.system, options, "Halves")
    stock = layout.sheet_size(faces, _stock(options), context)
    shares = split_work(layout._weights(faces))
    if len(shares) != 2:
        raise SystemExit("the faces are not shared out here (one core, or "
                         "LISTBUILDER_PRINT_WORKERS=1)")

    def lay(share: list[int]) -> float:
        start = time.perf_counter()
        layout._lay_out_here([faces[i] for i in share], stock, context)
        return time.perf_counter() - start

    def together() -> tuple[float, float]:
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read_end)
            os.write(write_end, repr(lay(shares[1])).encode())
            os._exit(0)
        os.close(write_end)
        mine = lay(shares[0])
        with os.fdopen(read_end) as pipe:
            theirs = float(pipe.read())
        os.waitpid(pid, 0)
        return mine, theirs

    lay(shares[0]), lay(shares[1]), lay(list(range(len(faces))))  # warm
    alone: list[tuple[float, float]] = []
    both: list[tuple[float, float]] = []
    whole: list[float] = []
    for _ in range(rounds):
        alone.append((lay(shares[0]), lay(shares[1])))
        both.append(together())
        whole.append(lay(list(range(len(faces)))))

    def ms(values: list[float]) -> str:
        return f"{statistics.median(values) * 1000:.0f} ms ({min(values) * 1000:.0f}-" \
               f"{max(values) * 1000:.0f})"

    print(f"the 2000 pts roster's {len(faces)} faces in halves of {len(shares[0])} and "
          f"{len(shares[1])}, median (range) of {rounds} rounds:")
    for n in (0, 1):
        print(f"  half {n + 1}: alone {ms([a[n] for a in alone])}, "
              f"beside the other {ms([b[n] for b in both])}")
    print(f"  all {len(faces)} in one process: {ms(whole)}")
    print(f"this machine's speed: a fixed Python loop took {machine_speed():.0f} ms")


def run_child(case: str, mode: str, cold: bool = False) -> dict[str, Any]:
    out = subprocess.run([sys.executable, __file__, "--child", case, mode,
                          *(["--cold"] if cold else [])], cwd=ROOT,
                         capture_output=True, text=True, check=True)
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


CASES = (("roster", "ActionHammer 2000 pts roster, its cards"),
         ("deck", "Space Empires action deck"),
         ("450", "450 cards of 18 kinds"))


# the docstring's line breaks kept, as it is set out (click's "\b" stops it rewrapping a paragraph)
@click.command(help="\n\n".join(f"\b\n{part}" for part in __doc__.split("\n\n")),
               context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--runs", "processes", type=int, default=3, help="fresh processes per figure")
@click.option("--no-straight", is_flag=True,
              help="skip the slow straight-through WeasyPrint reference")
@click.option("--longest", "card", metavar="[CARD]", is_flag=False, flag_value="poker",
              help="instead: find the longest unit cards (poker, mini or tarot)")
@click.option("--cold", is_flag=True,
              help="time each print with the renderer's one-time set-up inside it")
@click.option("--halves", "halves_", is_flag=True,
              help="instead: time the roster's two halves alone and side by side")
@click.option("--child", nargs=2, hidden=True)
def main(processes: int, no_straight: bool, card: str | None, cold: bool, halves_: bool,
         child: tuple[str, str] | None) -> None:
    if halves_:
        halves(max(processes, 5))
        return
    if card:
        longest(card)
        return
    if child:
        print(json.dumps(measure(*child, cold=cold)))
        return
    when = ("with the renderer's one-time set-up inside (--cold)" if cold else
            "after imports, data loading and the renderer's one-time set-up (timed apart)")
    print(f"print benchmark: median (best) of {processes} fresh processes each; time is the "
          f"print call {when}; memory is the peak RSS of one process; "
          f"load average {os.getloadavg()[0]:.1f} at the start")
    print(f"{'case':<40}{'cards':>6}{'kinds':>6}{'pages':>6} {'set-up':>7}  {'imposed':>29}  "
          f"{'straight WeasyPrint':>24}  {'speed-up':>8}")
    for case, label in CASES:
        # the straight runs taken between the imposed ones, so both meet the same spells of
        # this machine (run one set after the other, a drift of its speed skewed the ratio)
        straight_runs = 0 if no_straight else max(1, processes // 2)
        runs, slow_runs = [], []
        for i in range(processes):
            runs.append(run_child(case, "imposed", cold))
            if i < straight_runs:
                slow_runs.append(run_child(case, "straight", cold))
        fast = {k: statistics.median(r[k] for r in runs)
                for k in ("seconds", "setup", "peak_mb", "bytes")}
        first = runs[0]
        best = min(r["seconds"] for r in runs)
        line = (f"{label:<40}{first['cards']:>6}{first['distinct']:>6}{first['pages']:>6} "
                f"{fast['setup']:>5.2f} s  {fast['seconds']:>5.2f} s ({best:.2f}) "
                f"{fast['peak_mb']:>4.0f} MB {fast['bytes'] / 1024:>4.0f} KB")
        if no_straight:
            print(line)
            continue
        slow = {k: statistics.median(r[k] for r in slow_runs)
                for k in ("seconds", "peak_mb", "bytes")}
        print(f"{line}  {slow['seconds']:>6.2f} s {slow['peak_mb']:>5.0f} MB "
              f"{slow['bytes'] / 1024:>5.0f} KB  {slow['seconds'] / fast['seconds']:>7.1f}x")
    runs = [run_child("roster", "again", cold) for _ in range(processes)]
    again = statistics.median(r["seconds"] for r in runs)
    print(f"{'the roster again, one unit changed':<40}{runs[0]['cards']:>6}"
          f"{runs[0]['distinct']:>6}{runs[0]['pages']:>6} {'':>7}  {again:>5.2f} s "
          f"({min(r['seconds'] for r in runs):.2f}), {runs[0]['laid_out']} face laid out again")
    print(f"this machine's speed: a fixed Python loop took {machine_speed():.0f} ms at the end "
          f"(37-41 ms in its fast spells, 2-3 times that in slow ones)")
    print("goals: 450 cards <= 1 s, >= 10x faster than straight, < 120 MB; roster <= 0.25 s "
          "and >= 2x straight; again after one change <= 0.1 s")


if __name__ == "__main__":
    main()
