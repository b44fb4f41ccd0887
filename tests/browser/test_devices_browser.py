"""My rosters on every device, in real Chromium: a laptop's list link opened in a phone-sized
browser with no cookies shows the same list, and a roster started on the phone shows on the
laptop."""

from __future__ import annotations

from typing import Any

import pytest
from browsertools import opened
from test_builder_browser import start, submit_start

pytestmark = pytest.mark.browser


def test_a_list_link_opens_the_same_list_on_a_phone(context: Any, browser: Any,
                                                    server: str) -> None:
    laptop = context.new_page()
    start(laptop, server, "WarStuff", "Laptop list")
    submit_start(laptop)
    laptop.goto(server + "/")
    laptop.locator("#devices summary").click()
    with laptop.expect_navigation():
        laptop.get_by_role("button", name="Get a link to this list").click()
    link = laptop.locator("#list-link").input_value()
    assert "/l/" in link
    phone_context = browser.new_context(viewport={"width": 375, "height": 740},
                                        is_mobile=True, has_touch=True)
    try:
        phone = phone_context.new_page()
        phone.goto(server + "/")
        assert phone.locator(".mine-name").count() == 0  # "None yet"
        phone.goto(link)
        # opening the link only asks; the phone has no rosters, so there is nothing to bring
        assert phone.locator(".mine-name").count() == 0
        with phone.expect_navigation():
            phone.get_by_role("button", name="Show the list on this device").click()
        opened(phone, "#devices")
        assert phone.locator(".mine-name").all_inner_texts() == ["Laptop list"]
        assert "now shows the list of this link" in phone.locator("#devices").inner_text()
        start(phone, server, "WarStuff", "Phone list")
        submit_start(phone)
    finally:
        phone_context.close()
    laptop.goto(server + "/")
    assert sorted(laptop.locator(".mine-name").all_inner_texts()) == ["Laptop list",
                                                                       "Phone list"]
