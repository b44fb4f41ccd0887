"""A stranger's link opened in the player's own Chromium, over TLS behind nginx as a club
deploys it: the attacker's list link, then the attacker's roster's edit link. Reported: the
list link took 2 of 2 edit links of whoever opened it, and the attacker renamed a roster."""

from __future__ import annotations

from typing import Any

import pytest
from browsertools import opened
from test_builder_browser import start, submit_start

pytestmark = pytest.mark.browser


def make(page: Any, base: str, name: str) -> None:
    start(page, base, "WarStuff", name)
    submit_start(page)


def test_a_strangers_links_take_nothing_from_the_player_who_opens_them(
        tls_context: Any, https: str) -> None:
    attacker_context = tls_context.browser.new_context(ignore_https_errors=True)
    try:
        attacker = attacker_context.new_page()
        make(attacker, https, "Bait")
        bait, bait_share = attacker.url, attacker.get_by_label("Share link").input_value()
        attacker.goto(https + "/")
        attacker.locator("#devices summary").click()
        with attacker.expect_navigation():
            attacker.get_by_role("button", name="Get a link to this list").click()
        link = attacker.locator("#list-link").input_value()

        victim = tls_context.new_page()
        make(victim, https, "Mine one")
        make(victim, https, "Mine two")
        victim.goto(link)  # clicked in the club chat
        assert "Show this roster list on this device?" in victim.locator("h1").inner_text()
        assert victim.get_by_text("Join only a link you made yourself").count() == 1
        victim.get_by_role("link", name="Leave it").click()
        opened(victim, "#mine-title")
        make(victim, https, "Made later")
        victim.goto(bait)  # the attacker's roster: shown, not slipped into the list
        assert victim.get_by_role("button", name="Keep on my list").count() == 1
        victim.goto(bait_share)
        victim.goto(https + "/")
        assert sorted(victim.locator(".mine-name").all_inner_texts()) == [
            "Made later", "Mine one", "Mine two"]

        attacker.goto(https + "/")
        assert attacker.locator(".mine-name").all_inner_texts() == ["Bait"]
    finally:
        attacker_context.close()
