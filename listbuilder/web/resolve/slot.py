"""The quick-resolve panel as a roster page shows it, offered to the builder (the page that
holds the slot): the panel as first drawn, its attacker picks alone (what a change to the
roster redraws), and this browser's other rosters as targets. The page's roster report
(`engine.report`) says what the picks are."""

from __future__ import annotations

from flask import url_for

from listbuilder.engine.report import RosterReport
from listbuilder.web import collection, services
from listbuilder.web.per_request import once_a_request
from listbuilder.web.resolve.forms import ATTACKERS, NOBODY, Suggestion
from listbuilder.web.resolve.present import Panel, Picks, build_panel


def resolve_panel(view: RosterReport) -> Panel:
    """The panel as the roster page first shows it (no target picked yet)."""
    return build_panel(view.system, view.catalog, view.roster, {})


def attacker_picks(view: RosterReport) -> tuple[Picks, ...]:
    """The panel's attacker lists as first shown (`Panel.picks` with no target picked), from
    the roster's report (`RosterReport.attackers`): what the roster page's lists show when a
    change redraws them alone. None picked but the first unit that can be used, as the
    panel picks it; () when there is none (the panel then shows no form)."""
    found = view.attackers or ()
    usable = [value for value, _, disabled in found if not disabled]
    if not usable:
        return ()
    first = usable[0]
    return (Picks("rs-a1", "a1", ATTACKERS["a1"], "", tuple(
                (value, label, value == first, off) for value, label, off in found)),
            Picks("rs-a2", "a2", ATTACKERS["a2"], "", tuple(
                (value, label, False, off) for value, label, off in ((*NOBODY, False),
                                                                   *found))))


def my_rosters(system_id: str, share: str, token: str | None = None) -> list[Suggestion]:
    """This browser's other rosters of the same game, as share links to offer as targets.
    `token`, the edit link of the roster shown, is left out before the database is asked:
    a player with only this roster costs no query, and the others one a request (the page
    before a change and after it ask alike)."""
    others = [t for t in collection.remembered() if t != token]
    if not others:
        return []
    mine = once_a_request("resolve_mine", tuple(others),
                          lambda: services.store().by_edit_tokens(others))
    return [Suggestion(url_for("shared.view", share=s.share_token, _external=True), s.name)
            for _, s in mine if s.system == system_id and s.share_token != share]
