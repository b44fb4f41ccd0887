"""The roster page's parts: what an answer to a change made with htmx sends.

The roster page is a fixed frame (tabs, links, headings: the same for every version of a
roster) around parts. Each part is one element drawn by its own template, which the page
includes and an answer draws alone, and each says what it reads of the page's context
(`reads`): the values a change can alter, nearly all of them the roster's report
(`engine.report`). An answer works out the page's context before the change and after it,
compares each part's reads, and draws only the parts whose reads differ, marked to swap
themselves in (htmx out-of-band swaps). A part never needs drawing to find out whether it
changed.

Lists (the roster's entries, the units to add) are parts whose items are parts: an item that
changed is sent alone, items added at the end are appended and items dropped from the end
deleted; any other change to the list (a move, an insert) sends the list whole.

What each template reads and what its part declares here must agree, or a change would leave a
part stale: test_partial_answers.py rebuilds the page from the answers to every kind of change,
and to random runs of them, and compares it with a fresh load.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask import current_app
from markupsafe import Markup

Context = Mapping[str, Any]
Reads = dict[str, object]  # part or item id -> what it read; a list's id -> its item ids


@dataclass(frozen=True)
class Part:
    """An element of the page, drawn by `template`, whose root element carries `id`."""

    id: str
    template: str
    reads: Callable[[Context], object]
    inside: str = ""  # the part holding this one: when that is sent, so is this


@dataclass(frozen=True)
class Item:
    id: str
    context: dict[str, Any]  # what the item template needs set besides the page's context
    reads: object


@dataclass(frozen=True)
class Items:
    """A list element (`template`, id `id`) of items drawn by `item_template` each."""

    id: str
    template: str
    item_template: str
    items: Callable[[Context], Sequence[Item]]


def reads_of(parts: Iterable[Part | Items], ctx: Context) -> Reads:
    """What every part and item of a page reads, to compare the page after a change with."""
    out: Reads = {}
    for part in parts:
        if isinstance(part, Part):
            out[part.id] = part.reads(ctx)
            continue
        items = part.items(ctx)
        out[part.id] = tuple(item.id for item in items)
        out.update((item.id, item.reads) for item in items)
    return out


# Safe to mark: what is marked here is either one of our templates as Jinja rendered it (with
# autoescaping on, so a roster's own text in it is escaped already) or literal markup whose
# arguments go in through `Markup.format`/`join`, which escape them. Pinned by the escaping
# checks in tests/web/builder/test_partial_answers.py (a roster named with markup).


def _drawing_context(ctx: Context) -> dict[str, Any]:
    """`ctx` with what the app's context processors give every template, worked out once for
    all the parts an answer draws."""
    out = dict(ctx)
    current_app.update_template_context(out)
    return out


def _render(template: str, ctx: Context, **more: Any) -> Markup:
    """`template` drawn with `ctx` (a `_drawing_context`) and `more`."""
    return Markup(current_app.jinja_env.get_template(template).render(ctx, **more))


def draw(template: str, ctx: Context, swapped: str, **more: Any) -> Markup:
    """One part drawn alone, its root element marked to swap itself in (`part_id` in
    web/templating.py reads `swap_part`)."""
    return _render(template, ctx, **more, swap_part=swapped)


def changes(parts: Iterable[Part | Items], before: Reads, ctx: Context,
            always: Iterable[str] = ()) -> tuple[list[Markup], Reads]:
    """The swaps that turn the page whose parts read `before` into the page of `ctx`, and
    what its parts read now. Parts and items named in `always` are sent even when they read
    the same (a notice to clear, a form to put back); with `before` empty (the page is not
    known) every part is sent."""
    after: Reads = {}
    drawing = _drawing_context(ctx)
    wanted = set(always)
    out: list[Markup] = []
    sent: set[str] = set()

    def send(part_id: str, template: str, **more: Any) -> None:
        out.append(draw(template, drawing, part_id, **more))
        sent.add(part_id)

    for part in parts:
        if isinstance(part, Part):
            now = after[part.id] = part.reads(ctx)
            if part.inside not in sent and (part.id in wanted
                                            or before.get(part.id, _ABSENT) != now):
                send(part.id, part.template)
            continue
        items = part.items(ctx)
        old_ids, new_ids = before.get(part.id, ()), tuple(item.id for item in items)
        after[part.id] = new_ids
        after.update((item.id, item.reads) for item in items)
        assert isinstance(old_ids, tuple)
        common = min(len(old_ids), len(new_ids))
        if part.id not in before or old_ids[:common] != new_ids[:common]:
            send(part.id, part.template)  # moved, inserted or not known: the list whole
            continue
        for item in items[:common]:
            if item.id in wanted or before.get(item.id, _ABSENT) != item.reads:
                send(item.id, part.item_template, **item.context)
        out.extend(Markup('<div id="{}" hx-swap-oob="delete"></div>').format(gone)
                   for gone in old_ids[common:])
        if len(items) > common:
            added = Markup("").join(
                _render(part.item_template, drawing, **item.context)
                for item in items[common:])
            out.append(Markup('<div hx-swap-oob="beforeend:#{}">{}</div>').format(part.id, added))
    return out, after


_ABSENT = object()
