"""Answer a change with only the parts of the page it changed, as htmx out-of-band swaps.

The roster page marks its parts (`part` in web/templating.py) when rendered with `marking` on:
`<!--p:ID-->` before an element whose id is ID and `<!--/p:ID-->` after it. Parts nest: the
page is one part, the entry list is a part of it, each entry a part of the list. The page as
it was before the change and as it is after are both rendered with the same version number
(so the version in every form is not a difference), and compared part by part: the smallest
parts that differ are sent. A list whose items were only appended to, removed from the end or
changed in place is answered item by item; any other change to a part sends it whole, so a
part the templates forgot to mark costs bytes, never correctness.

The version each form carries and the CSRF tokens are left out of the comparison (`_same`), so
the page before may be the one rendered for the last answer or page load (the builder keeps
them) instead of being rendered again.

A part named `static` is a container whose own markup (everything in it but its inner parts)
no change can alter: its frame is not compared, so the page after may be rendered with only
its parts (the roster page's `only_parts`), skipping the rest, and compared with a whole page.
When a static container's parts are not the same ones in the same order, `changes` raises
`Reshaped`: then the whole page after must be rendered and compared.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property

_MARK = re.compile(r"<!--(/?)p:([\w-]+)-->")
_FIRST_TAG = re.compile(r"^\s*<([a-zA-Z][\w-]*)")


@dataclass
class Part:
    id: str
    html: str  # the element, markers of inner parts removed
    outline: str  # the element with each inner part replaced by a placeholder
    children: list[Part] = field(default_factory=list)

    @cached_property
    def frame(self) -> str:
        """The outline without its inner parts and the space around them (worked out only
        when a part differs: most do not)."""
        return _runs(self.outline)


def parse(marked: str) -> Part:
    """The tree of parts in a marked page; the root holds the top-level parts."""
    root = Part("", "", "")
    stack: list[tuple[Part, list[str], list[str]]] = [(root, [], [])]  # part, html, frame
    pos = 0
    for m in _MARK.finditer(marked):
        text = marked[pos:m.start()]
        pos = m.end()
        for _part, html, _frame in stack:
            html.append(text)
        stack[-1][2].append(text)
        closing, name = m[1] == "/", m[2]
        if not closing:
            stack.append((Part(name, "", ""), [], []))
            continue
        part, html, frame = stack.pop()
        if part.id != name:
            raise ValueError(f"part markers cross: {part.id!r} closed by {name!r}")
        part.html, part.outline = "".join(html), "".join(frame)
        stack[-1][0].children.append(part)
        stack[-1][2].append(_PLACE)
    text = marked[pos:]
    for _part, html, _frame in stack:
        html.append(text)
    if len(stack) != 1:
        raise ValueError(f"part {stack[-1][0].id!r} is not closed")
    root.html, root.outline = "".join(stack[0][1]), "".join(stack[0][2])
    return root


_PLACE = "<!--c-->"
_BETWEEN_TAGS = re.compile(r">\s+<")


def _runs(frame: str) -> str:
    # inner parts (and the space around them) are left out: items added to or dropped from
    # a list leave the frame as it was; their order is compared by id. Split, not a regular
    # expression: `\s*<!--c-->` retried at every blank of the page's indentation was most of
    # the comparison's time.
    pieces = frame.split(_PLACE)
    if len(pieces) > 1:
        last = len(pieces) - 1
        frame = "".join(p.rstrip() if i == 0 else p.lstrip() if i == last else p.strip()
                        for i, p in enumerate(pieces))
    return _BETWEEN_TAGS.sub("><", frame)


def strip_marks(marked: str) -> str:
    return _MARK.sub("", marked)


# what differs between two renders of the same roster that is no change to show: the page's
# version in its forms and its CSRF token (one a render)
_CSRF = re.compile(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"')
_VERSION = re.compile(r'data-version="(\d+)"')


_VERSION_TEXTS = ('name="version" value="{}"', 'name="version" type="hidden" value="{}"',
                  'data-version="{}"', "saved, version {}<")


def _same(marked: str) -> str:
    if token := _CSRF.search(marked):
        marked = marked.replace(token[1], "")
    if version := _VERSION.search(marked):
        n = version[1]
        for text in _VERSION_TEXTS:
            marked = marked.replace(text.format(n), text.format(""))
    return marked


def fragment(marked: str, part_id: str) -> str | None:
    """The part `part_id` of a marked page as rendered, markers included; None if absent."""
    start = marked.find(f"<!--p:{part_id}-->")
    closing = f"<!--/p:{part_id}-->"
    end = marked.find(closing, start)
    return marked[start:end + len(closing)] if start >= 0 and end >= 0 else None


def fragments(marked: str, part_ids: Iterable[str]) -> dict[str, str]:
    """The parts `part_ids` of a marked page as rendered, markers included (one pass over the
    page, for the many rows of a list); parts absent are left out."""
    wanted, found = set(part_ids), {}
    opened: dict[str, int] = {}
    for m in _MARK.finditer(marked):
        name = m[2]
        if name not in wanted:
            continue
        if not m[1]:
            opened[name] = m.start()
        elif name in opened:
            found[name] = marked[opened.pop(name):m.end()]
    return found


def reissue(page: str, csrf: str, version: int) -> str:
    """The marked `page` with its CSRF token and version replaced by this answer's: a part
    kept from the page before reads as if rendered now."""
    if (token := _CSRF.search(page)) and token[1] != csrf:
        page = page.replace(token[1], csrf)
    if (mark := _VERSION.search(page)) and (n := mark[1]) != str(version):
        for text in _VERSION_TEXTS:
            page = page.replace(text.format(n), text.format(version))
    return page


def _swap(html: str, how: str = "true") -> str:
    return _FIRST_TAG.sub(lambda m: f'{m[0]} hx-swap-oob="{how}"', html, count=1)


class Reshaped(Exception):
    """A static container's parts changed: its frame must be compared after all."""


def _diff(old: Part, new: Part, out: list[str], sent: set[str], after: Page,
          static: frozenset[str] = frozenset()) -> None:
    """Compare `old` and `new` (trees of pages with `_same` applied); what is sent is taken
    from the page `after` as rendered."""
    if old.html == new.html:
        return
    old_ids = [c.id for c in old.children]
    new_ids = [c.id for c in new.children]
    common = min(len(old_ids), len(new_ids))
    in_order = old_ids[:common] == new_ids[:common]
    if new.id in static and old_ids != new_ids:
        raise Reshaped(new.id)
    if not new.id or new.id in static or (in_order and old_ids == new_ids
                                          and old.frame == new.frame):
        for a, b in zip(old.children, new.children, strict=False):
            _diff(a, b, out, sent, after, static)
        return
    if old.frame != new.frame or not in_order or len(set(new_ids)) != len(new_ids):
        out.append(_swap(after.sent(new.id)))
        sent.add(new.id)
        return
    # the same list with items appended or dropped at its end
    for a, b in zip(old.children, new.children, strict=False):
        _diff(a, b, out, sent, after, static)
    for gone in old.children[common:]:
        tag = _FIRST_TAG.match(gone.html)
        out.append(f'<{tag[1] if tag else "div"} id="{gone.id}" hx-swap-oob="delete">'
                   f'</{tag[1] if tag else "div"}>')
    if len(new.children) > common:
        added = "".join(after.sent(c.id) for c in new.children[common:])
        out.append(f'<div hx-swap-oob="beforeend:#{new.id}">{added}</div>')
        sent.update(c.id for c in new.children[common:])


def _find(part: Part, wanted: str) -> Part | None:
    if part.id == wanted:
        return part
    for child in part.children:
        if (found := _find(child, wanted)) is not None:
            return found
    return None


class Page:
    """A marked page and, worked out once when first asked, the tree it is compared by: a page
    is compared twice, as the page after one change and as the page before the next."""

    def __init__(self, marked: str) -> None:
        self.marked = marked

    @cached_property
    def tree(self) -> Part:
        return parse(_same(self.marked))

    def sent(self, part_id: str) -> str:
        """A part as rendered (not as compared), without markers: what is sent; "" if absent."""
        found = fragment(self.marked, part_id)
        return strip_marks(found) if found is not None else ""


def changes(before: str | Page, after: str | Page, always: Iterable[str] = (),
            static: Iterable[str] = ()) -> list[str]:
    """The out-of-band swaps that turn the page `before` into `after` (both marked), plus
    the parts named in `always` (sent even when unchanged: a notice to clear, a form to
    reset), unless a part holding them is sent already. Raises `Reshaped` when a `static`
    container's parts differ."""
    old = before if isinstance(before, Page) else Page(before)
    new = after if isinstance(after, Page) else Page(after)
    out: list[str] = []
    sent: set[str] = set()
    _diff(old.tree, new.tree, out, sent, new, frozenset(static))
    for wanted in always:
        if not wanted or wanted in sent or not (found := new.sent(wanted)):
            continue
        if any(_find(p, wanted) is not None for p in _parts_named(new.tree, sent)):
            continue
        out.append(_swap(found))
        sent.add(wanted)
    return out


def _parts_named(root: Part, ids: set[str]) -> list[Part]:
    found: list[Part] = []
    stack = [root]
    while stack:
        part = stack.pop()
        if part.id in ids:
            found.append(part)
        else:
            stack.extend(part.children)
    return found
