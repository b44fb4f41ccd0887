"""The parts of the roster page (web/builder/templates/roster.html) and what each reads.

A part's `reads` lists what its template shows that a change to the roster can alter: nearly
all of it the roster's report (`view`, an `engine.report.RosterReport`). What is
the same for every version of one roster page is left out: the game, the catalog, the edit
link, the address's filters and preview (an answer's page before is the same address's), and
the saved version and CSRF token in the forms (the script sets every form to the version an
answer brings; an older token stays valid). Pinned by test_partial_answers.py, which rebuilds
the page from answers and compares it with a fresh load.
"""

from __future__ import annotations

from listbuilder.engine.model import Roster
from listbuilder.web.builder.parts import Context, Item, Items, Part
from listbuilder.web.forms import refused_state
from listbuilder.web.resolve.slot import my_rosters


def _entries(c: Context) -> list[Item]:
    view = c["view"]
    last = len(view.entries) - 1
    # an entry reads its view, whether it is unfolded or last (no Move down), the names of
    # the units it may join and whether its count box was refused (_entry.html)
    return [Item(f"entry-{e.index}", {"e": e}, (
        e, c["open_entry"] == e.index, e.index == last,
        tuple(view.entries[j].entry.unit for j, _ in e.join_targets),
        c.get("count_refused") == e.index)) for e in view.order]


def _unit_rows(c: Context) -> list[Item]:
    return [Item(row.dom_id, {"row": row}, row) for row in c["rows"]]


def _roster(c: Context) -> Roster:
    roster: Roster = c["view"].roster
    return roster


def _resolve_state(c: Context) -> tuple[bool, bool]:
    """Whether the panel is offered, and whether it has a form (a usable unit to pick)."""
    choices = c["view"].attackers
    if choices is None:
        return False, False
    return True, not all(off for _, _, off in choices)


ROSTER_PARTS: tuple[Part | Items, ...] = (
    Part("roster-title", "builder/_heading.html",
         lambda c: (_roster(c).name, _roster(c).factions)),
    Part("saved-version", "builder/_version.html", lambda c: None, inside="roster-title"),
    Part("strip", "builder/_strip.html",
         lambda c: (c["view"].totals, c["view"].status, c["view"].errors)),
    # undo and redo name the change each would make (a change just refused, which an undo
    # right after it says was not saved, is the notice's: static/js/undo.js)
    Part("history", "builder/_history.html", lambda c: (
        c["history"].next_undo and c["history"].next_undo.label,
        c["history"].next_redo and c["history"].next_redo.label)),
    Part("notices", "builder/_notices.html", lambda c: c["notices"]),
    Part("said", "builder/_said.html", lambda c: c["said"]),
    Part("data-changes", "builder/_changes.html", lambda c: (c["view"].changes, c["pack_news"])),
    Part("totals", "builder/_totals.html", lambda c: (
        c["view"].totals, c["view"].status, c["view"].general, c["view"].sections)),
    # the game's own part: WarStuff's unit creator and designs; the others are fixed text
    Part("system-panel", "builder/_system_panel.html",
         lambda c: (c["view"].designs, c["view"].design_qualities)),
    # a refused form is drawn again as typed, with what each box said (forms.refused_state)
    Part("choices", "builder/_choices.html",
         lambda c: (c["view"].choices, refused_state(c.get("choices_refused")))),
    Part("entries-head", "builder/_entries_head.html", lambda c: len(c["view"].entries)),
    Items("entry-list", "builder/_entry_list.html", "builder/_entry.html", _entries),
    Part("settings-part", "builder/_settings.html",
         lambda c: (_roster(c).name, _roster(c).points_limit, _roster(c).factions,
                    tuple(p.name for p in _roster(c).packs),
                    refused_state(c.get("settings_refused")))),
    Part("filters", "builder/_filters.html", lambda c: c["categories"]),
    Part("preview-part", "builder/_preview.html",
         lambda c: (c["preview"], c["preview_copyable"], c["preview_entry"])),
    Part("unit-count", "builder/_unit_count.html",
         lambda c: (len(c["rows"]), all(row.fits for row in c["rows"]))),
    Items("unit-rows", "builder/_unit_rows.html", "builder/_unit_row.html", _unit_rows),
    Part("text", "builder/_text.html", lambda c: c["view"].text),
    # the Print menu reads only the roster's links and its game's print offer
    Part("print-slot", "builder/_print_slot.html", lambda c: c["view"].system.id),
    # the quick-resolve panel is drawn whole only when it comes or goes (the first unit
    # added, the last removed) or this browser's other rosters change; else a change redraws
    # only its attacker lists, and a target picked, with its odds, stays
    Part("resolve-slot", "builder/_resolve_slot.html", lambda c: (
        _resolve_state(c), my_rosters(c["view"].system.id, c["stored"].share_token,
                                      c["token"]))),
    Part("rs-attackers", "builder/_rs_attackers.html", lambda c: c["view"].attackers,
         inside="resolve-slot"),
)
