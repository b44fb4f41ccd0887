"""The faction studio driven through the test client: a new pack, its text box and version, and
the boxes of its form view."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

from flask.testing import FlaskClient
from webtools import csrf_of


def start(client: FlaskClient, system: str = "actionhammer", name: str = "House Brigade") -> str:
    page = client.get("/studio").get_data(as_text=True)
    response = client.post("/studio/new", data={"csrf_token": csrf_of(page), "system": system,
                                                "name": name})
    assert response.status_code == 302
    return response.headers["Location"]


def pack_version(page: str) -> int:
    found = re.search(r'<input[^>]*name="pack_version"[^>]*value="(\d+)"', page)
    assert found is not None
    return int(found[1])


def textarea(page: str) -> str:
    found = re.search(r'<textarea[^>]*name="text"[^>]*>\r?\n?(.*?)</textarea>', page, re.S)
    assert found is not None
    return html.unescape(found[1])




def boxes(page: str) -> dict[str, str]:
    form = _Form()
    form.feed(page)
    return form.values


def form_page(client: FlaskClient, system: str = "actionhammer") -> tuple[str, str]:
    link = start(client, system)
    page = client.get(link + "/form")
    assert page.status_code == 200
    return link, page.get_data(as_text=True)




class _Form(HTMLParser):
    """What a browser would post for the page's #pack-form: its boxes, as they stand."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.values: dict[str, str] = {}
        self.inside = False
        self.select: str | None = None
        self.options: list[tuple[str, bool]] = []
        self.option: tuple[str | None, bool] | None = None
        self.area: str | None = None
        self.text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form" and a.get("id") == "pack-form":
            self.inside = True
        if not self.inside:
            return
        if tag == "option" and self.select is not None:
            self.option, self.text = (a.get("value"), "selected" in a), ""
            return
        name = a.get("name")
        if not name or tag == "button":
            return
        if tag == "input" and a.get("type") == "checkbox":
            if "checked" in a:
                self.values[name] = a.get("value", "on")
        elif tag == "input":
            self.values[name] = a.get("value", "")
        elif tag == "select":
            self.select, self.options = name, []
        elif tag == "textarea":
            self.area, self.text = name, ""

    def handle_data(self, data: str) -> None:
        self.text += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False
        elif tag == "option" and self.option is not None:
            value, chosen = self.option
            self.options.append((self.text if value is None else value, chosen))
            self.option = None
        elif tag == "select" and self.select is not None:
            chosen = [v for v, on in self.options if on] or [v for v, _ in self.options[:1]]
            self.values[self.select] = chosen[0] if chosen else ""
            self.select = None
        elif tag == "textarea" and self.area is not None:
            self.values[self.area] = self.text.removeprefix("\n")
            self.area = None




def delete_pack(client: FlaskClient, link: str) -> str:
    """Delete the pack as its owner does: the page that asks, then its button. Returns the
    studio page it leads to."""
    asked = client.get(link + "/delete").get_data(as_text=True)
    answer = client.post(link + "/delete", data={"csrf_token": csrf_of(asked)})
    assert answer.status_code == 302
    return client.get(answer.headers["Location"]).get_data(as_text=True)


