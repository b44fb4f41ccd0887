"""Limits checked on a YAML file before it is turned into objects, for files from strangers.

Building objects from YAML recurses once per level of nesting (in the C loader, on the C stack:
a file nested 50,000 deep kills the process), and a number of 5,000 digits or an impossible date
raises inside the loader. So an untrusted file is first read as a stream of parser events,
which the parser produces without recursion, and refused with its line and key if it is nested
too deep, holds too many values or too many characters, or holds a number or a text far longer
than any roster needs.

Values and characters are counted as the file reads once every alias is expanded: an alias
counts every value and every character of its anchor again each time it repeats it. Whatever
is built from the file (objects checked one by one, a pack written back out by the studio's
form, a roster stored as its own file) is as large as that expansion, not as the text looks:
a 70 KB text of one 50,000-character anchor and 5,000 aliases is 250 MB written out.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass, field

import yaml
from yaml.resolver import Resolver

from listbuilder.engine.errors import DataError, DataLoadError, Loc

try:  # the C parser is several times faster; pure Python is the fallback
    from yaml import CSafeLoader as SafeLoader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader  # type: ignore[assignment]

__all__ = ["DATA", "PACK", "ROSTER", "Limits", "SafeLoader", "Tally", "check_limits"]

INT = "tag:yaml.org,2002:int"
FLOAT = "tag:yaml.org,2002:float"
TIMESTAMP = "tag:yaml.org,2002:timestamp"
_RESOLVER = Resolver()
_CONSTRUCTOR = yaml.SafeLoader("")  # only its timestamp reader is used
# the largest faction pack (engine/packs.py), in bytes of UTF-8
PACK_BYTES = 128 * 1024


@dataclass(frozen=True)
class Limits:
    """How much a file may hold. The defaults are far above any real roster file and far
    below what harms the server."""

    depth: int = 20  # a roster needs 4: entries, an entry, its upgrades, an upgrade
    nodes: int = 60_000  # 500 entries with every upgrade ticked stay under 40,000
    # characters of every value (keys too), aliases expanded: a roster of the largest size
    # with three packs of the largest size (640 KB) holds at most 640K written out in full
    chars: int = 1024 * 1024
    digits: int = 30  # the longest number a roster uses has 7 digits
    text: int = 5_000  # characters in one value; names are at most 80
    what: str = "roster"  # how the refusal names the file
    # characters in a faction pack's text carried in a roster (`packs[i].text`): a data file
    # of its own, held to PACK's limits when it is read as one
    pack_text: int = PACK_BYTES

    def __post_init__(self) -> None:
        if min(self.depth, self.nodes, self.chars, self.digits, self.text) < 1:
            raise ValueError("limits must be positive")


ROSTER = Limits()
# a host's own data files (`LISTBUILDER_DATA`), read once a process; the largest built-in file
# is 5 KB of 750 values and 4,000 characters
DATA = Limits(depth=40, nodes=500_000, chars=4 * 1024 * 1024, digits=30, text=50_000,
              what="data file")
# A faction pack, read on every check, form and roster view that uses it, from anyone: it
# holds no more than a pack of the largest size (128 KB) could written out in full. Its text
# holds each character of its values at least once, and each value takes at least two
# characters (`1,`, `a\n`) in any pack a game can read. So aliases make no pack dearer than
# the dearest written out (benchmarks/yaml_bombs.py: 64,000 wrong values, 1.4 s to check;
# 700 units sharing an aliased list at these bounds, 0.3 s; half a million values, 2.6 s).
PACK = Limits(depth=40, nodes=PACK_BYTES // 2, chars=PACK_BYTES, digits=30, text=50_000,
              what="pack")


@dataclass
class Tally:
    """What several texts read as one hold together (the studio form's boxes, which make one
    pack): each accepted text adds its values and characters, aliases expanded."""

    nodes: int = 0
    chars: int = 0


@dataclass
class _Frame:
    mapping: bool
    loc: Loc
    index: int = -1  # sequences: the item being read
    key: str | int | None = None  # mappings: the key whose value comes next
    expect_key: bool = True


@dataclass
class _Scan:
    file: str
    limits: Limits
    stack: list[_Frame] = field(default_factory=list)
    nodes: int = 0
    chars: int = 0
    aliased: bool = False  # whether an alias was expanded: the refusal then says so
    deepest: int = 0
    # anchors being read: name, node and char counts at its start, its depth, stack size,
    # outer deepest
    open_anchors: list[tuple[str, int, int, int, int, int]] = field(default_factory=list)
    anchors: dict[str, tuple[int, int, int]] = field(default_factory=dict)  # size, height, chars

    def refuse(self, line: int, loc: Loc, message: str) -> DataLoadError:
        return DataLoadError([DataError(self.file, loc, message, line)])

    def place(self) -> Loc:
        """The key path of the node that starts now, and move the parent on past it."""
        if not self.stack:
            return ()
        top = self.stack[-1]
        if not top.mapping:
            top.index += 1
            return (*top.loc, top.index)
        if top.expect_key:
            top.expect_key = False
            return top.loc
        top.expect_key = True
        return (*top.loc, top.key) if top.key is not None else top.loc

    def count(self, n: int, chars: int, line: int, loc: Loc) -> None:
        self.nodes += n
        self.chars += chars
        what = self.limits.what
        if self.nodes > self.limits.nodes:
            if self.aliased:
                raise self.refuse(line, loc, self._expanded(f"{self.limits.nodes:,} values",
                                                            "values"))
            raise self.refuse(line, loc, f"the file holds more than {self.limits.nodes:,} "
                                         f"values (a repeated alias counts each time); a "
                                         f"{what} needs far fewer: is it a {what}?")
        if self.chars > self.limits.chars:
            if self.aliased:
                raise self.refuse(line, loc, self._expanded(
                    f"{self.limits.chars:,} characters", "text"))
            raise self.refuse(line, loc, f"the file holds more than {self.limits.chars:,} "
                                         f"characters of values; a {what} needs far fewer: "
                                         f"split it")

    def _expanded(self, how_many: str, part: str) -> str:
        # an anchored value is legitimate: the player learns the rule that refused it
        what = self.limits.what
        return (f"the file holds more than {how_many} once its aliases are expanded (an alias "
                f"counts its anchor's {part} again each time it repeats it); a {what} may hold "
                f"no more than it could written out in full: repeat less, or split it")

    def check_depth(self, depth: int, line: int, loc: Loc) -> None:
        self.deepest = max(self.deepest, depth)
        if depth > self.limits.depth:
            raise self.refuse(line, loc, f"nested more than {self.limits.depth} levels deep; "
                                         f"a {self.limits.what} needs only a few levels "
                                         f"(lists inside lists): is it a {self.limits.what}?")


def check_limits(text: str, file: str, limits: Limits, tally: Tally | None = None) -> None:
    """Raise DataLoadError naming line and key if the YAML text breaks `limits`. A syntax
    error is left for the loader to report. With `tally`, the values and characters already
    counted there count against `limits` too, and an accepted text adds its own."""
    spent = tally or Tally()
    try:
        scan = _scan_events(text, file, limits, spent)
    except yaml.MarkedYAMLError as error:
        # PyYAML 6.0.4's scanner refuses flow nesting past its own bound (about 1,000 levels)
        # before it hands over a single event of it; the text up to that point still shows
        # where ours was passed, with the key path, rather than the scanner's bare complaint.
        mark = error.problem_mark
        if mark is not None and 0 < mark.index < len(text):
            with contextlib.suppress(yaml.YAMLError):
                _scan_events(text[:mark.index], file, limits, spent)
        return
    except yaml.YAMLError:
        return  # not valid YAML: the loader says where
    spent.nodes, spent.chars = scan.nodes, scan.chars


def _scan_events(text: str, file: str, limits: Limits, spent: Tally) -> _Scan:
    scan = _Scan(file, limits, nodes=spent.nodes, chars=spent.chars)
    for event in yaml.parse(text, Loader=SafeLoader):
        _step(scan, event)
    return scan


def _step(scan: _Scan, event: yaml.Event) -> None:
    line = event.start_mark.line + 1 if event.start_mark is not None else 0
    if isinstance(event, yaml.ScalarEvent | yaml.AliasEvent | yaml.CollectionStartEvent):
        loc = scan.place()
        depth = len(scan.stack) + 1
        if isinstance(event, yaml.AliasEvent):
            if any(event.anchor == open_[0] for open_ in scan.open_anchors):
                # the loader builds a list that holds itself, which no writer can write out
                raise scan.refuse(line, loc, f"the alias *{event.anchor} is inside its own "
                                             f"anchor &{event.anchor}, so it repeats without "
                                             f"end: write what it stands for instead")
            size, height, chars = scan.anchors.get(event.anchor or "", (1, 0, 0))
            scan.aliased = True
            scan.check_depth(depth + height, line, loc)
            scan.count(size, chars, line, loc)
            _key_from(scan, loc, None)
            return
        scan.check_depth(depth, line, loc)
        if isinstance(event, yaml.ScalarEvent):
            _check_scalar(scan, event, line, loc)  # a too long value is named as such first
            scan.count(1, len(event.value), line, loc)
            if event.anchor:
                scan.anchors[event.anchor] = (1, 0, len(event.value))
            _key_from(scan, loc, event.value)
            return
        scan.count(1, 0, line, loc)
        if event.anchor:
            scan.open_anchors.append((event.anchor, scan.nodes - 1, scan.chars, depth,
                                      len(scan.stack), scan.deepest))
            scan.deepest = depth
        _key_from(scan, loc, None)
        scan.stack.append(_Frame(isinstance(event, yaml.MappingStartEvent), loc))
    elif isinstance(event, yaml.CollectionEndEvent) and scan.stack:
        scan.stack.pop()
        if scan.open_anchors and scan.open_anchors[-1][4] == len(scan.stack):
            name, start, chars, depth, _, outer = scan.open_anchors.pop()
            scan.anchors[name] = (scan.nodes - start, scan.deepest - depth, scan.chars - chars)
            scan.deepest = max(outer, scan.deepest)


def _key_from(scan: _Scan, loc: Loc, value: str | None) -> None:
    """After a mapping key is read, remember it so its value's path names it."""
    if len(scan.stack) and scan.stack[-1].mapping and not scan.stack[-1].expect_key:
        scan.stack[-1].key = value[:40] if value is not None else None


def _check_scalar(scan: _Scan, event: yaml.ScalarEvent, line: int, loc: Loc) -> None:
    value, limits = event.value, scan.limits
    if len(loc) == 3 and loc[0] == "packs" and loc[2] == "text":
        if len(value) > limits.pack_text:
            raise scan.refuse(line, loc, f"a pack of {len(value):,} characters; a pack holds "
                                         f"at most {limits.pack_text:,}: split it")
    elif len(value) > limits.text:
        raise scan.refuse(line, loc, f"a value of {len(value):,} characters; a "
                                     f"{limits.what} needs at most a few hundred (names are "
                                     f"at most 80): shorten it")
    tag = event.tag  # as the loader will see it: an untagged plain value by its look
    if tag in (None, "!"):
        tag = _RESOLVER.resolve(yaml.ScalarNode, value, event.implicit)  # type: ignore[no-untyped-call]
    if tag in (INT, FLOAT):
        digits = len(re.sub(r"[^0-9a-fA-F]", "", value))
        if digits > limits.digits:
            raise scan.refuse(line, loc, f"a number with {digits:,} digits; the largest a "
                                         f"{limits.what} uses has about 7 (a points limit of "
                                         f"1,000,000): write a smaller number, or put quotes "
                                         f"around it if it is a name")
    if tag == TIMESTAMP or event.tag not in (None, "!"):
        _check_built(scan, tag or "", value, line, loc)


def _check_built(scan: _Scan, tag: str, value: str, line: int, loc: Loc) -> None:
    """Build a dated or explicitly tagged value now, so a bad one is refused with its line:
    inside the loader, `!!bool maybe` or `!!timestamp soon` would fail without one."""
    build = _CONSTRUCTOR.yaml_constructors.get(tag)
    if build is None:
        raise scan.refuse(line, loc, f"the tag {tag!r} is not used in roster files: remove it")
    try:
        build(_CONSTRUCTOR, yaml.ScalarNode(tag, value))
    except Exception:
        if tag == TIMESTAMP:
            raise scan.refuse(line, loc, f"{value!r} reads as a date but no such date "
                                         f"exists: put quotes around it if it is text") from None
        kind = tag.rsplit(":", 1)[-1]
        raise scan.refuse(line, loc, f"{value!r} can't be read as {kind}: remove the tag "
                                     f"!!{kind} or fix the value") from None
