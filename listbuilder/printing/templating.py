"""The Jinja environment for print templates: autoescaped (player text is always escaped),
strict about missing names, loaded from the project's `templates/` folder."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from jinja2 import BaseLoader, Environment, StrictUndefined, select_autoescape

from listbuilder.printing.textwidth import (
    card_text_width,
    column_shares,
    columns_fit,
    keep_count,
    keep_together,
)
from listbuilder.templates_loader import template_loader

PRICE = re.compile(r" \(\+[^()]*\)$")  # an upgrade's price after its name: " (+10 pts)"


def play_icon(card: Any) -> str:
    """The icon above a deck card's effect, by the kind of effect: display only."""
    headline = str(getattr(card, "headline", ""))
    for start, name in (("Move", "move"), ("+", "fist"), ("Look", "range"), ("Pay", "star"),
                        ("Cancel", "speed")):
        if headline.startswith(start):
            return f"icons/{name}.svg"
    return ""


def size_class(font_pt: float) -> str:
    """A class naming a text size (7.0 -> "pt-700"): faces of one size share their styles."""
    return f"pt-{round(font_pt * 100)}"


def without_price(name: str) -> str:
    """An upgrade's name without the price the builder shows after it: "Vox Caster"."""
    return PRICE.sub("", name)


def mm(value: float) -> str:
    """A length for CSS, without float noise."""
    return f"{value:.3f}".rstrip("0").rstrip(".") + "mm"


@lru_cache(maxsize=1)
def environment(loader: BaseLoader | None = None) -> Environment:
    """Print templates: the pages' loader in an environment of their own, which has no Flask
    request or app behind it (prints are made by the CLI and in layout processes too)."""
    env = Environment(loader=loader or template_loader(),
                      autoescape=select_autoescape(default=True, default_for_string=True),
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["play_icon"] = play_icon
    env.filters["mm"] = mm
    env.filters["size_class"] = size_class
    env.filters["keep_count"] = keep_count
    env.filters["keep_together"] = keep_together
    env.filters["without_price"] = without_price
    env.globals["column_shares"] = column_shares
    env.globals["card_text_width"] = card_text_width
    env.globals["columns_fit"] = columns_fit
    return env


def render_template(names: str | list[str], **context: Any) -> str:
    env = environment()
    return env.select_template([names] if isinstance(names, str) else names).render(**context)


def system_template(system_id: str, name: str) -> list[str]:
    """A system's own version of a print template first, then the shared one."""
    return [f"{system_id}/{name}", f"print/{name}"]
