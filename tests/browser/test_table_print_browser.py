"""The match summary printed from Chromium (what Print on the summary page gives a player),
read back as a PDF: the result, the scores and the whole timeline are on paper, the site's
header, buttons and theme switch are not, no text overlaps another, and nothing is closer to
the paper's edge than the margin."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pdfplumber
import pypdfium2
import pytest
import yaml

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
A4_WIDTH, A4_HEIGHT = 595.28, 841.89  # points
MARGIN = 36  # the least distance from the edge we accept (Chromium's default is 0.4 in)


def imported(page: Any, server: str, text: str) -> str:
    page.goto(f"{server}/")
    page.set_input_files("input[type=file]", files=[{
        "name": "roster.yaml", "mimeType": "text/yaml", "buffer": text.encode()}])
    page.locator("form:has(input[type=file]) button[type=submit]").first.click()
    page.wait_for_url(re.compile(r"/r/"))
    return str(page.url)


def played_match(page: Any, server: str, game: str, events: int) -> str:
    """A match of the example's two rosters with its first `events` taps: its address."""
    data = yaml.safe_load((ROOT / "examples" / game / "match.yaml").read_text(encoding="utf-8"))
    theirs = imported(page, server, data["players"][1]["roster"])
    share = page.input_value("#share-link")
    mine = imported(page, server, data["players"][0]["roster"])
    assert theirs != mine
    page.goto(mine + "/play")
    page.fill("#me", data["players"][0]["name"])
    page.fill("#opponent", data["players"][1]["name"])
    page.fill("#link", share)
    page.click("button.primary")
    page.wait_for_url(re.compile(r"/m/"))
    match = page.url.split("?")[0]
    csrf = page.input_value("#board input[name=csrf_token]")
    for ev in data["events"][:events]:
        form = {"csrf_token": csrf, "base": "1", "kind": ev["kind"]}
        for key, value in ev.items():
            if key in ("side", "unit"):
                form[key] = str(value)
            elif key not in ("kind", "id"):
                form[f"v_{key}"] = ("yes" if value else "no") if isinstance(value, bool) \
                    else str(value)
        answer = page.request.post(match + "/event", form=form, headers={"X-Table": "1"})
        assert answer.status == 200, answer.text()[:300]
    return str(match)


def test_the_summary_prints_the_game_and_none_of_the_site(page: Any, server: str,
                                                          screenshots: Path) -> None:
    match = played_match(page, server, "hammerwars", 8)
    page.goto(match + "/summary")
    timeline = page.locator(".timeline li").count()
    assert timeline >= 8
    pdf = page.pdf(format="A4", margin={"top": "0.5in", "bottom": "0.5in", "left": "0.5in",
                                        "right": "0.5in"}, print_background=False)
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        text = "\n".join(p.extract_text() or "" for p in document.pages)
        words = [(w, p.width, p.height, n) for n, p in enumerate(document.pages)
                 for w in p.extract_words(keep_blank_chars=False)]
        chars = [c for p in document.pages for c in p.chars]
    assert "Ann" in text and "Ben" in text and "Timeline" in text and "Morale" in text
    for absent in ("Theme", "Back to the match", "Export the log", "Print", "Skip to"):
        assert absent not in text, absent
    # every event of the timeline is on paper (its words, in order)
    lines = [" ".join(li.split()) for li in page.locator(".timeline li").all_inner_texts()]
    flat = " ".join(text.split())
    at = 0
    for line in lines:
        found = flat.find(line, at)
        assert found >= 0, line
        at = found + len(line)
    for word, width, height, _n in words:
        assert word["x0"] >= MARGIN - 1 and word["x1"] <= width - MARGIN + 1, word
        assert word["top"] >= MARGIN - 1 and word["bottom"] <= height - MARGIN + 1, word
    assert min(c["size"] for c in chars) >= 7.5
    _no_overlaps(words)
    image = pypdfium2.PdfDocument(pdf)[0].render(scale=1.5).to_pil()
    image.save(screenshots / "table-summary-print.png")


def _no_overlaps(words: list[tuple[dict[str, Any], float, float, int]]) -> None:
    """No two words on one page share ink: their boxes may touch, not cross."""
    by_page: dict[int, list[dict[str, Any]]] = {}
    for word, _width, _height, number in words:
        by_page.setdefault(number, []).append(word)
    for page_words in by_page.values():
        for i, a in enumerate(page_words):
            for b in page_words[i + 1:]:
                across = min(a["x1"], b["x1"]) - max(a["x0"], b["x0"])
                down = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
                assert across <= 0.5 or down <= 0.5, (a["text"], b["text"])
