"""Light and dark, read from the files: every colour of the screen styles is a variable with a
dark value beside its light one, the dark values are written the same for the system's setting
and for the player's pick, the pick is applied by a script in <head> that runs before the page
is drawn, and each coloured part of the quick-resolve chart is recoloured on the page. (What a
player sees, and axe-core's verdict on it: tests/browser/test_theme_browser.py.)"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from listbuilder.engine.chart import chart_svg
from listbuilder.engine.library import Library
from listbuilder.engine.registry import get_system
from listbuilder.engine.resolve import resolve_names

PACKAGE = Path(__file__).resolve().parents[3] / "listbuilder"
CSS = PACKAGE / "static" / "css"
SCREEN = ["site.css", "resolve.css", "print-menu.css"]  # print*.css else: PDFs, kept light
COLOUR = re.compile(r"#[0-9a-fA-F]{3,8}\b|\b(?:rgba?|hsla?)\(")
# the one colour that is the same in both, on purpose: a picture of white paper
SAME_IN_BOTH = {("print-menu.css", "#fff")}


def blocks(css: str) -> dict[str, dict[str, str]]:
    """The custom properties set by each rule of the theme: light, dark by the system's
    setting, dark by the player's pick."""
    found = {
        "light": re.search(r"^:root \{(.*?)\}", css, re.S | re.M),
        "system": re.search(
            r"@media \(prefers-color-scheme: dark\) \{\s*:root:not\(\[data-theme=\"light\"\]\) "
            r"\{(.*?)\}", css, re.S),
        "picked": re.search(r"^:root\[data-theme=\"dark\"\] \{(.*?)\}", css, re.S | re.M),
    }
    out = {}
    for name, match in found.items():
        assert match, f"site.css has no {name} block"
        out[name] = dict(re.findall(r"(--[\w-]+):\s*([^;]+);", match.group(1)))
    return out


def without_blocks(css: str) -> str:
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    css = re.sub(r"^:root \{.*?\}", "", css, flags=re.S | re.M)
    css = re.sub(r"@media \(prefers-color-scheme: dark\) \{.*?\}\s*\}", "", css, flags=re.S)
    return re.sub(r"^:root\[data-theme=\"dark\"\] \{.*?\}", "", css, flags=re.S | re.M)


def test_every_colour_has_its_dark_value_written_once_for_both_ways() -> None:
    themes = blocks((CSS / "site.css").read_text())
    assert themes["system"] == themes["picked"]  # the two dark lists stay the same
    colours = {k for k, v in themes["light"].items() if COLOUR.search(v)}
    assert len(colours) >= 25
    assert colours == set(themes["system"]), "a colour without a dark value, or the reverse"
    changed = {k for k in colours if themes["light"][k] != themes["system"][k]}
    assert {"--ink", "--bg", "--paper", "--accent", "--bad", "--chart-bar"} <= changed


def test_no_colour_is_written_outside_the_variables() -> None:
    themed = set(blocks((CSS / "site.css").read_text())["light"])

    def fallback_dropped(match: re.Match[str]) -> str:  # var(--shadow, rgba(...)): never shown
        return f"var({match[1]})" if match[1] in themed else match[0]

    for name in SCREEN:
        rest = without_blocks((CSS / name).read_text())
        rest = re.sub(r"var\((--[\w-]+),[^()]*(?:\([^()]*\))?[^()]*\)", fallback_dropped, rest)
        literal = {(name, c.lower()) for c in re.findall(r"#[0-9a-fA-F]{3,8}\b", rest)}
        literal |= {(name, c) for c in re.findall(r"\b(?:rgba?|hsla?)\(", rest)}
        assert literal <= SAME_IN_BOTH, f"{name}: {sorted(literal - SAME_IN_BOTH)}"


def test_the_pick_is_read_before_the_page_is_drawn() -> None:
    base = (PACKAGE / "templates" / "base.html").read_text()
    head, body = base.split("</head>")
    script = re.search(r"<script src=\"[^\"]*js/theme\.js[^\"]*\"([^>]*)>", head)
    assert script and "defer" not in script.group(1) and "async" not in script.group(1)
    header = body[body.index("<header"):body.index("</header>")]
    assert 'id="theme-choice"' in header and "js-only" in header  # hidden without the script
    assert [*re.findall(r'<option value="(\w+)">', header)] == ["system", "light", "dark"]
    script_text = (PACKAGE / "static" / "js" / "theme.js").read_text()
    assert "data-theme" in script_text and "localStorage" in script_text


def test_every_coloured_part_of_the_chart_takes_the_page_colours(library: Library) -> None:
    svg = chart_svg(resolve_names(get_system("hammerwars"), library.catalog("hammerwars"),
                                  "Ranged Heavy", "Assault Hero"))
    parts = {}
    for element in ET.fromstring(svg).iter():
        if element.get("fill") not in (None, "none") or element.get("stroke"):
            assert element.get("class"), ET.tostring(element)[:80]
            parts[element.get("class")] = element.tag.rsplit("}", 1)[1]
    assert set(parts) >= {"c-bar", "c-line", "c-point", "c-grid", "c-tick", "c-sub", "c-value"}
    css = (CSS / "resolve.css").read_text()
    assert re.search(r"\.rs-chart svg text \{ fill: var\(--ink\)", css)  # all text, unless
    for part, tag in parts.items():
        if tag != "text":
            assert re.search(rf"\.{part}\b[^{{]*\{{[^}}]*(fill|stroke): var\(--", css), part
