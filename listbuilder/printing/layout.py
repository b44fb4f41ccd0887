"""Lay out each distinct card face once, as a page of its own, so copies cost nothing.

A face that does not fit its card is laid out again with smaller text, down to a size that is
still legible (`Stock.floor_pt`); one that still does not fit flows onto continuation cards,
each headed with the card's name. Nothing is ever clipped. A face that fills little of its
card is laid out again with larger text, up to a size still comfortable to read
(`Stock.max_pt`), so a short card is read at arm's length instead of leaving the card empty.

The unit and deck cards of one print share one text size (`lay_out`): the largest at which its
longest card fits, found by fitting the few cards whose text is longest first. The
quick-reference card takes that size too, and is split into as many cards as its rules need,
each rule whole on one card and each card filled before the next (`_split_reference`), set
closer where that takes a card fewer (`_closer`).

Laying out a card costs WeasyPrint some 30 to 100 ms, so refits are few: the overflow of a try
(measured by an anchor at the end of the card) gives the size to try next, and a refit lays the
card out at that size and a step below in the same document, so one refit is nearly always
enough.
"""

from __future__ import annotations

import functools
import io
import math
import re
import shutil
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

import cssselect2
import pikepdf

from listbuilder.engine.cards import UnitCard
from listbuilder.printing.facecache import FACES, Kept, Sheet, assemble, face_key
from listbuilder.printing.fetcher import STATIC, StaticFetcher, static_base_url
from listbuilder.printing.geometry import BLEED_SAFE
from listbuilder.printing.markup import parse_html
from listbuilder.printing.templating import render_template
from listbuilder.printing.textwidth import card_text_width, columns_fit, largest_pt
from listbuilder.printing.weasy import CSS, HTML, FontConfiguration
from listbuilder.printing.workers import in_child, on_exit, split_work

Progress = Callable[[str, int, int], None]
FACE_ID = re.compile(r"^face-(\d+)$")
SHRINK_POWER = 1.5  # a long card's height grows faster than its text size: lines rewrap
MAX_ROUNDS = 3
REFIT_STEP = 0.95  # the second candidate of a refit, relative to the guess
NEAR_FLOOR = 1.05
LONG, LONG_WEIGHT = 2, 3  # see _weights
HOPELESS = 0.93  # a guess this far under the smallest size: go straight to a continuation
FITS = 1.0005  # a face whose frame ends within the card (rounding aside) fits
SPARSE = 0.8  # a face whose text ends above this share of the card grows...
FILL = 0.93  # ...to about this share (a little under: a guess that overshoots is wasted)
GROW_MIN = 1.04  # growth worth another layout
TALL = 3  # faces are laid out on pages this many cards tall, so a long one can be measured
# A unit card's text takes about (size x size x characters) of its card: the size at which a
# poker card of `chars` characters fits is near START_K / sqrt(chars) (measured over the example
# rosters and the benchmark's 2000 pts one: 200 to 257). A face starts a little under that, so
# most fit in the first layout and the few sparse ones grow once; starting every face at the
# largest size cost a refit of two sizes for each face once cards carried their reminders.
START_K = 215.0
POKER_MM2 = 63.0 * 88.0
TAG = re.compile(r"<[^>]+>")
PX_PER_MM = 96 / 25.4  # WeasyPrint's positions are CSS pixels
CARD_CSS = ("print.css", "print-cards.css")
PAGE_CSS = ("print.css", "print-pages.css")
# the defaults each kind of page starts from (PrintHTML): cards leave out the margin boxes
UA_CSS: dict[tuple[str, ...], tuple[str, ...]] = {
    CARD_CSS: ("print-ua.css",), PAGE_CSS: ("print-ua.css", "print-ua-margins.css")}
FACES_DRAWN = 1024  # faces' markup kept per process (`face_html`): a few kB each
# mm: every glyph of a card keeps this far inside its cut, with or without bleed (a cut a
# little off leaves the words whole): the print shops' usual safe zone
SAFE_MM = BLEED_SAFE
# the print's shared size is found by fitting first the faces whose text should fit at no
# more than this much above the smallest such guess (`_start` guesses within some 15%)
LONGEST = 1.15
RESIZES = 2  # times a print's shared size may come down when a face turned out too long
RULE_GAP_MM = 0.4  # print-cards.css: p.rule's margin-bottom
TIGHT_RULE_GAP_MM = 0.15  # faces.html: the same, set closer (`tight`)
FRAME_PX = 0.6 * 96 / 72  # print-cards.css: .frame's border, in CSS pixels
# set closer (faces.html, `tight`), a line is this much of its height (1.04 over
# print-cards.css's 1.18); a rule keeps its lines (the same size and width), so the quick
# reference's rules take about that share of their height less their margin, with the closer
# margin, and its band at least 0.9 of its height (0.906-0.918 over the example rosters' at
# every size). Where even a little less (`CLOSER_SLACK`) leaves it on as many cards, it is not
# laid out closer to see (`_closer`).
LINES_CLOSER = 1.04 / 1.18
TOP_CLOSER = 0.9
CLOSER_SLACK = 0.98


@dataclass(frozen=True)
class Face:
    """One distinct card face: which partial draws it and what it shows."""

    template: list[str]  # the partial that draws it, a system's own first: see templating
    item: Any  # UnitCard, PlayCard, ChitFace or Back
    kind: str  # css class: unit, play, chit, back
    title: str  # the name a continuation card repeats


@dataclass(frozen=True)
class Stock:
    """The card stock faces are laid out on: trim size, bleed and base text size."""

    width: float  # mm, trim size
    height: float
    bleed: float = 0.0
    font_pt: float = 7.0
    floor_pt: float = 6.0
    max_pt: float = 7.0  # the largest text a sparse face grows to (font_pt: none grows)
    # the smallest any text on the face may be, labels and footers too (0: floor_pt); a deck
    # card's text is larger than its size (1.3 em), so its size may go under that
    least_pt: float = 0.0
    # the text size a print's unit and deck cards share (0: each face fits its own): every
    # such face is laid out at it, never larger (see `lay_out`)
    sheet_pt: float = 0.0

    @property
    def inset(self) -> float:
        """mm from a face's edge to its text: the bleed, if any, then the safe zone inside
        the trim (the same 3 mm on every print, so a bleed print reads as a plain one)."""
        return self.bleed + SAFE_MM


@dataclass
class LaidOut:
    pdf: bytes
    pages: list[list[int]]  # per face, its page numbers in `pdf` (more than one: continued)
    font_pt: list[float]  # per face, the text size it was laid out at
    refused: list[str] = field(default_factory=list)  # URLs the fetcher turned down
    laid_out: int | None = None  # faces laid out for this print (None: all of them)
    fresh: tuple[int, ...] | None = None  # which (None: all of them)

    def laid_anew(self) -> set[int]:
        return set(range(len(self.pages))) if self.fresh is None else set(self.fresh)


@dataclass(frozen=True)
class Measure:
    """The quick reference laid out whole: where its rules start on its card (CSS px from the
    cut at its top, whatever the bleed), how tall each rule is with the room after it, whether
    it fits one card (then `pages` holds that card), and whether it was set closer."""

    top: float
    heights: tuple[float, ...]
    fits: bool
    pages: tuple[Any, ...] = ()
    tight: bool = False

    def cards(self, stock: Stock) -> int:
        """How many cards its rules take, each whole on one, in order (`_pack`)."""
        return 1 if self.fits else len(_pack(self.heights,
                                             _room(stock, self.tight) - self.top))


class Styles:
    """Stylesheets parsed and fonts loaded once, then shared by every document laid out with
    them. WeasyPrint's objects are not safe for two threads at once, so a set is borrowed for a
    whole print (`STYLES.borrow()`) and given back: a web server's threads, one per request,
    reuse warm sets instead of each parsing its own."""

    def __init__(self) -> None:
        self.fonts = FontConfiguration()
        self.sheets: dict[tuple[str, ...], list[Any]] = {}
        self.images: dict[str, Any] = {}  # WeasyPrint's image cache: each icon parsed once
        on_exit(self._remove_font_folder)

    def _remove_font_folder(self) -> None:
        """WeasyPrint writes the fonts of our @font-face rules into a folder of its own
        (made at the first, so read at the end), which only its __del__ removes."""
        folder = getattr(self.fonts, "_folder", None)
        if folder:
            shutil.rmtree(folder, ignore_errors=True)

    def get(self, names: tuple[str, ...]) -> list[Any]:
        if names not in self.sheets:
            fetcher = StaticFetcher()
            self.sheets[names] = [
                CSS(url=(STATIC / "css" / name).resolve().as_uri(), url_fetcher=fetcher,
                    font_config=self.fonts) for name in names]
        return self.sheets[names]

    def document(self, html: str, css: tuple[str, ...], fetcher: StaticFetcher,
                 card_markup: bool = False) -> Any:
        """Lay out HTML with these stylesheets, reading nothing but static files.
        `card_markup`: the HTML is our card faces', parsed fast (printing/markup.py)."""
        if card_markup:
            page = PrintHTML.from_tree(parse_html(html), static_base_url(), fetcher)
        else:
            page = PrintHTML(string=html, base_url=static_base_url(), url_fetcher=fetcher)
        page.ua_sheets = tuple(self.get(UA_CSS[css]))
        return page.render(stylesheets=self.get(css), font_config=self.fonts, cache=self.images)


class _StylePool:
    def __init__(self) -> None:
        self._free: list[Styles] = []
        self._lock = threading.Lock()

    @contextmanager
    def borrow(self) -> Iterator[Styles]:
        with self._lock:
            styles = self._free.pop() if self._free else Styles()
        try:
            yield styles
        finally:
            with self._lock:
                self._free.append(styles)


STYLES = _StylePool()


class PrintHTML(HTML):  # type: ignore[misc]  # WeasyPrint ships no type hints
    """An HTML document that starts from our lean defaults (static/css/print-ua.css) instead of
    WeasyPrint's full user-agent sheet, which costs a fifth of a card's layout time.

    `_ua_stylesheets` is the hook WeasyPrint's own test suite overrides for the same purpose;
    tests/printing/test_layout.py fails loudly if a WeasyPrint release renames it.
    """

    ua_sheets: tuple[Any, ...] = ()  # set by Styles.document before the layout

    @classmethod
    def from_tree(cls, root: Any, base_url: str, url_fetcher: StaticFetcher) -> PrintHTML:
        """A document of an already parsed tree: what `HTML.__init__` sets after it parses
        (tests/printing/test_markup.py compares the two, so a WeasyPrint release that sets more
        fails there)."""
        page = cls.__new__(cls)
        page.base_url = base_url  # our markup has no <base>
        page.url_fetcher = url_fetcher
        page.media_type = "print"
        page.wrapper_element = cssselect2.ElementWrapper.from_html_root(root,
                                                                         content_language=None)
        page.etree_element = page.wrapper_element.etree_element
        return page

    def _ua_stylesheets(self, forms: bool = False) -> list[Any]:
        return list(self.ua_sheets)


def _render(entries: Sequence[tuple[Face, float]], stock: Stock, context: dict[str, Any],
            styles: Styles, fetcher: StaticFetcher, continued: bool = False,
            tight: bool = False, tall: int = TALL) -> Any:
    html = render_template("print/faces.html", entries=entries, stock=stock, tall=tall,
                           continued=continued, tight=tight, **context)
    return styles.document(html, CARD_CSS, fetcher, card_markup=True)


def _pages_by_entry(document: Any, n: int) -> list[list[Any]]:
    """Which pages each entry took: an entry starts on the page that holds its anchor."""
    out: list[list[Any]] = [[] for _ in range(n)]
    current = 0
    for page in document.pages:
        starts = [int(m[1]) for a in page.anchors if (m := FACE_ID.match(a))]
        if starts:
            current = min(starts)
        out[current].append(page)
    return out


def _overflow(pages: list[Any], index: int, face_px: float, bleed_px: float = 0.0) -> float:
    """The entry's length in cards: where the marker after its frame stands, over the card's
    height (1.0 or less: it fits)."""
    after = pages[-1].anchors.get(f"after-{index}")
    page_px = float(pages[-1].height)
    top = float(after[1]) if after else page_px
    # measured on the card within its bleed, so a bled face fits as a plain one does
    return ((len(pages) - 1) * page_px + top - 2 * bleed_px) / (face_px - 2 * bleed_px)


def _fill(pages: list[Any], index: int, face_px: float,
          bleed_px: float = 0.0) -> float | None:
    """How far down its card a face's text ends, as a share of the card's height (None for a
    face without an end marker: a back, a chit)."""
    end = pages[0].anchors.get(f"end-{index}")
    if not end or len(pages) != 1:
        return None
    return (float(end[1]) - bleed_px) / (face_px - 2 * bleed_px)


def _grow(font_pt: float, fill: float | None, max_pt: float) -> float | None:
    """The larger size a sparse face should take, or None when it is full enough."""
    if fill is None or fill <= 0 or fill >= SPARSE or font_pt >= max_pt:
        return None
    size = min(max_pt, round(_guess(font_pt, fill / FILL), 2))
    return size if size >= font_pt * GROW_MIN else None


def _start(face: Face, stock: Stock, context: dict[str, Any]) -> float:
    """The size a face is first laid out at: for a unit card, the size its amount of text
    should fit at (see START_K), at most the largest size (under the floor: it will run onto
    continuation cards); other faces the largest size."""
    if face.kind != "unit":
        return stock.font_pt
    return min(stock.font_pt, _fit_guess(face, stock, context))


def _fit_guess(face: Face, stock: Stock, context: dict[str, Any]) -> float:
    """The size a face's amount of text should fit at (see START_K): a unit card's first
    size, and for any card that shares the print's size, how long it is beside the others
    (`_shared_size`)."""
    # the markup its cache key is made of (`_key`): the end marker holds no text
    html = face_html(face, stock, context, end_id="end")
    chars = len(" ".join(TAG.sub(" ", html).split()))
    if not chars:
        return stock.font_pt
    area = math.sqrt(stock.width * stock.height / POKER_MM2)
    return round(START_K * area / math.sqrt(chars), 2)


def _shares_size(face: Face) -> bool:
    """Whether a face takes the print's shared size: unit and deck cards (the quick-reference
    card too, split rather than fitted); backs and chits keep their own."""
    return face.kind in ("unit", "play")


def _is_reference(face: Face) -> bool:
    return isinstance(face.item, UnitCard) and face.item.is_reference()


def _cap(face: Face, stock: Stock) -> float:
    """The largest size a face may take: the print's shared size, once chosen; else the
    stock's, or less when a table without labels (a to-hit row) would not hold its words in
    columns at that size. Columns print at the card's own size (a player looks them up
    first), so they, not the rules text, set how far such a card grows; a labelled table
    (weapons) prints a line a row where its columns do not hold (profile.html), which sets no
    cap, so one card's six weapon columns do not hold a whole print's text down."""
    if stock.sheet_pt and _shares_size(face):
        return stock.sheet_pt
    if not isinstance(face.item, UnitCard):
        return stock.max_pt
    width = card_text_width(stock.width, stock.inset - stock.bleed)
    tables = [t.without_empty_columns() for t in face.item.profile.tables if t.rows]
    cap = min([stock.max_pt, *(largest_pt(t, width, stock.floor_pt, stock.max_pt)
                               for t in tables
                               if not t.labels and columns_fit(t, width, stock.floor_pt))])
    return max(stock.floor_pt, math.floor(cap * 20) / 20)


def _first_size(face: Face, stock: Stock, context: dict[str, Any], cap: float) -> float:
    """The size a face is first laid out at: the print's shared size, once chosen, else the
    size its text should fit at (`_start`), at most its cap."""
    if stock.sheet_pt and _shares_size(face):
        return stock.sheet_pt
    return min(_start(face, stock, context), cap)


def _guess(font_pt: float, overflow: float) -> float:
    """The size at which a face that overflowed at `font_pt` should just fit."""
    return float(font_pt * (1 / overflow) ** (1 / SHRINK_POWER))


def _candidates(font_pt: float, overflow: float, floor_pt: float) -> list[float]:
    """The sizes a refit tries side by side: the guess (a hair under) and a step below it, so
    a guess that just misses costs no further round (each round lays out a document of its
    own). None when even the smallest legible size is clearly too big: the face continues."""
    guess = _guess(font_pt, overflow)
    if guess < floor_pt * HOPELESS:
        return []
    first = max(floor_pt, min(round(guess * 0.99, 2), round(font_pt * 0.95, 2)))
    second = round(first * REFIT_STEP, 2)
    if second < floor_pt * NEAR_FLOOR:  # close to the floor: try the floor itself, the size
        second = floor_pt               # a continuation would otherwise cost a round to reach
    return sorted({first, max(floor_pt, second)}, reverse=True)


def lay_out(faces: Sequence[Face], stock: Stock, context: dict[str, Any],
            progress: Progress | None = None) -> LaidOut:
    """Lay out every face, its unit and deck cards at one text size (`sheet_size`), so a
    sheet of cards reads alike instead of each card at its own size (6.7 to 7.9 pt side by
    side once). A face that turns out too long for that size after all (the guesses that
    chose which faces to fit first are rough) brings the whole print down to the size it
    needs."""
    made: set[int] = set()  # the faces laid out anew, in any round
    if not stock.sheet_pt:
        stock, made = _shared_size(faces, stock, context, progress)
    laid = lay_out_each(faces, stock, context, progress)
    made |= laid.laid_anew()
    for _ in range(RESIZES):
        sizes = [size for face, size in zip(faces, laid.font_pt, strict=True)
                 if _shares_size(face) and not _is_reference(face)]
        if not sizes or min(sizes) >= stock.sheet_pt - 0.001:
            break
        stock = replace(stock, sheet_pt=min(sizes))
        laid = lay_out_each(faces, stock, context, progress)
        made |= laid.laid_anew()
    return replace(laid, laid_out=len(made), fresh=tuple(sorted(made)))


def sheet_size(faces: Sequence[Face], stock: Stock, context: dict[str, Any],
               progress: Progress | None = None) -> Stock:
    """The stock with the one text size a print's unit and deck cards share: the largest at
    which its longest card fits (never under the floor: a card too long even there runs
    onto a continuation card). The faces whose text should fit at the smallest sizes
    (`_start`, within LONGEST of the smallest) are fitted each at its own size; the smallest
    size they took, or a card's column cap below it, is the print's. Those laid out at that
    very size are kept as laid out at the shared size, so they are not laid out again."""
    return _shared_size(faces, stock, context, progress)[0]


def _shared_size(faces: Sequence[Face], stock: Stock, context: dict[str, Any],
                 progress: Progress | None = None) -> tuple[Stock, set[int]]:
    """`sheet_size`, and which of `faces` it laid out anew."""
    sized = [i for i, face in enumerate(faces) if _shares_size(face) and not _is_reference(face)]
    if not sized:
        return stock, set()
    caps = [_cap(faces[i], stock) for i in sized]
    # how long each is, by the size its text should fit at (only a ranking for a deck card,
    # which is first laid out at the largest size; a cap below that counts in `size` below)
    guesses = [_fit_guess(faces[i], stock, context) for i in sized]
    longest = [i for i, guess in zip(sized, guesses, strict=True)
               if guess <= min(guesses) * LONGEST]
    fitted = lay_out_each([faces[i] for i in longest], stock, context, progress)
    size = max(stock.floor_pt, min([*fitted.font_pt, *caps]))
    shared = replace(stock, sheet_pt=size)
    at_size = [k for k, pt in enumerate(fitted.font_pt) if abs(pt - size) < 0.001]
    if at_size:
        FACES.keep([_key(faces[longest[k]], shared, context) for k in at_size], fitted.pdf,
                   [fitted.pages[k] for k in at_size], [size] * len(at_size), fitted.refused)
    return shared, {longest[k] for k in fitted.laid_anew()}


def lay_out_each(faces: Sequence[Face], stock: Stock, context: dict[str, Any],
                 progress: Progress | None = None) -> LaidOut:
    """Lay out every face, or take it as this process laid it out before (`facecache`): only
    faces that changed since are laid out again. Each face at its own size, but for those
    that share the print's size once it is chosen (`stock.sheet_pt`)."""
    keys = [_key(face, stock, context) for face in faces]
    kept = FACES.find(keys)
    fresh = [i for i in range(len(faces)) if i not in kept]
    if not fresh:
        pdf, pages = assemble([kept[i] for i in range(len(faces))])
        return LaidOut(pdf, pages, [kept[i].font_pt for i in range(len(faces))],
                       _refused(kept.values()), laid_out=0, fresh=())
    laid = _lay_out_fresh([faces[i] for i in fresh], stock, context, progress)
    FACES.keep([keys[i] for i in fresh], laid.pdf, laid.pages, laid.font_pt, laid.refused)
    if not kept:
        return laid
    sheet = Sheet(laid.pdf, tuple(laid.refused))
    ordered = {**kept, **{i: Kept(sheet, tuple(laid.pages[k]), laid.font_pt[k])
                          for k, i in enumerate(fresh)}}
    pdf, pages = assemble([ordered[i] for i in range(len(faces))])
    return LaidOut(pdf, pages, [ordered[i].font_pt for i in range(len(faces))],
                   _refused(ordered.values()), laid_out=len(fresh), fresh=tuple(fresh))


def _key(face: Face, stock: Stock, context: dict[str, Any]) -> str:
    """What a face's layout depends on: what it draws, its card and the page's look."""
    html = face_html(face, stock, context, end_id="end")
    return face_key(html, face.kind, face.title, stock, context.get("ink_saver"),
                    context.get("system_id"))


def face_html(face: Face, stock: Stock, context: dict[str, Any],
              end_id: str | None = None) -> str:
    """The face's own markup. A print reads each face's markup three times before laying it
    out (its starting size, the shared size, its cache key), and printing again after one
    change reads them all again: a face drawn before with the same card, stock and look is not
    drawn anew (a quarter of the time of that reprint went to drawing faces that had not
    changed)."""
    # no template reads the shared size, which `sheet_size` sets between a face's first draw
    # (its starting size) and its key's
    key = (tuple(face.template), face.item, replace(stock, sheet_pt=0.0), end_id,
           tuple(sorted(context.items())))
    try:
        hash(key)
    except TypeError:  # a look with a value that can't be a key: drawn each time
        return _draw_face(*key)
    return _drawn_face(*key)


@functools.lru_cache(maxsize=FACES_DRAWN)
def _drawn_face(template: tuple[str, ...], item: Any, stock: Stock, end_id: str | None,
                context: tuple[tuple[str, Any], ...]) -> str:
    return _draw_face(template, item, stock, end_id, context)


def _draw_face(template: tuple[str, ...], item: Any, stock: Stock, end_id: str | None,
               context: tuple[tuple[str, Any], ...]) -> str:
    extra = {"end_id": end_id} if end_id is not None else {}
    return render_template(list(template), item=item, stock=stock, **extra, **dict(context))


def _refused(kept: Iterable[Kept]) -> list[str]:
    return list(dict.fromkeys(url for k in kept for url in k.sheet.refused))


def _lay_out_fresh(faces: Sequence[Face], stock: Stock, context: dict[str, Any],
                   progress: Progress | None = None) -> LaidOut:
    """Lay out every face; with many faces, two processes share the work when that is safe
    (see `workers`)."""
    shares = split_work(_weights(faces))
    if progress:
        progress(f"Laying out {len(faces)} distinct faces"
                 f"{' in two processes' if len(shares) > 1 else ''}", 0, 1)
    if len(shares) == 1:
        return _lay_out_here(faces, stock, context, progress)
    mine, theirs = shares
    child = in_child(lambda: _lay_out_here([faces[i] for i in theirs], stock, context))
    here = _lay_out_here([faces[i] for i in mine], stock, context, progress)
    there = child() or _lay_out_here([faces[i] for i in theirs], stock, context)
    return _join([(mine, here), (theirs, there)], len(faces))


def _weights(faces: Sequence[Face]) -> list[int]:
    """A guess of each face's layout time, to share the faces out fairly. The length of a
    face's data is a fair guess of its text; one far longer than most will likely overflow
    and be laid out twice more (a refit tries two sizes), so it counts three times."""
    lengths = [len(repr(face.item)) for face in faces]
    typical = sorted(lengths)[len(lengths) // 2] if lengths else 0
    return [n * LONG_WEIGHT if n > LONG * typical else n for n in lengths]


def _join(parts: Sequence[tuple[Sequence[int], LaidOut]], n: int) -> LaidOut:
    """One LaidOut from several, the faces back in their original order."""
    pdf = pikepdf.open(io.BytesIO(parts[0][1].pdf))
    offsets = [0]
    for _, part in parts[1:]:
        offsets.append(len(pdf.pages))
        pdf.pages.extend(pikepdf.open(io.BytesIO(part.pdf)).pages)
    pages: list[list[int]] = [[] for _ in range(n)]
    sizes = [0.0] * n
    for (indices, part), offset in zip(parts, offsets, strict=True):
        for k, i in enumerate(indices):
            pages[i] = [offset + page for page in part.pages[k]]
            sizes[i] = part.font_pt[k]
    out = io.BytesIO()
    pdf.save(out)
    return LaidOut(out.getvalue(), pages, sizes, [u for _, part in parts for u in part.refused])


def _lay_out_here(faces: Sequence[Face], stock: Stock, context: dict[str, Any],
                  progress: Progress | None = None) -> LaidOut:
    with STYLES.borrow() as styles:
        return _lay_out_with(styles, faces, stock, context, progress)


def _lay_out_with(styles: Styles, faces: Sequence[Face], stock: Stock, context: dict[str, Any],
                  progress: Progress | None) -> LaidOut:
    fetcher = StaticFetcher()
    face_px = (stock.height + 2 * stock.bleed) * PX_PER_MM
    bleed_px = stock.bleed * PX_PER_MM
    placed: dict[int, tuple[list[Any], float]] = {}
    # a face whose text should not fit even at the floor goes straight to continuation cards
    # (laid out below, after the rounds): its refits would all end there anyway
    caps = [_cap(face, stock) for face in faces]
    starts = [_first_size(face, stock, context, cap) for face, cap in zip(faces, caps,
                                                                           strict=True)]
    # the quick-reference card, at the print's shared size, is split rather than fitted: laid
    # out whole in the first round, then over as many cards as its rules need
    split = {i for i, face in enumerate(faces) if stock.sheet_pt and _is_reference(face)}
    measured: dict[int, Measure] = {}  # too long for a card: how its rules stand
    tries: dict[int, list[float]] = {i: [size] for i, size in enumerate(starts)
                                     if size >= stock.floor_pt}
    grown: set[int] = set()  # each face grows once, and tries once more in between
    retried: set[int] = set()
    documents = []
    for rounds in range(MAX_ROUNDS):
        if not tries:
            break
        if progress and rounds:
            many = "s" if len(tries) > 1 else ""
            progress(f"Fitting {len(tries)} long card{many}", rounds - 1, MAX_ROUNDS - 1)
        entries = [(i, size) for i, sizes in tries.items() for size in sizes]
        # the quick reference is laid out whole on a page as long as it is, so where each of
        # its rules ends is read without a page break in between (`_rule_heights`)
        tall = max([TALL, *(_whole_tall(faces[i], stock, context, size)
                            for i, size in entries if i in split)])
        document = _render([(faces[i], size) for i, size in entries], stock, context, styles,
                           fetcher, tall=tall)
        documents.append(document)
        results: dict[int, list[tuple[float, float, list[Any], float | None]]] = {}
        for n, ((i, size), pages) in enumerate(zip(entries, _pages_by_entry(document,
                                                                             len(entries)),
                                                   strict=True)):
            if i in split:
                if _overflow(pages, n, face_px, bleed_px) <= FITS:
                    placed[i] = (pages[:1], size)
                else:
                    laid_docs, measured[i] = _measure(faces[i], pages, n, stock, context,
                                                      styles, fetcher)
                    documents += laid_docs
                continue
            results.setdefault(i, []).append((size, _overflow(pages, n, face_px, bleed_px),
                                              pages, _fill(pages, n, face_px, bleed_px)))
        tries = {}
        for i, tried in results.items():
            fitting = [(size, pages, fill) for size, overflow, pages, fill in tried
                       if overflow <= FITS]
            if fitting:
                size, pages, fill = max(fitting, key=lambda fit: fit[0])
                if i not in placed or size > placed[i][1]:
                    placed[i] = (pages[:1], size)
                # a sparse face grows (a shrink may have gone too far): one grown too far
                # keeps the size that fitted
                if i not in grown and (bigger := _grow(size, fill, caps[i])):
                    grown.add(i)
                    tries[i] = [bigger]
                continue
            if i in placed:  # a growth that overshot: once more in between, else it stays
                size, overflow, _, _ = min(tried, key=lambda t: t[0])
                between = round(_guess(size, overflow) * 0.97, 2)
                if i not in retried and between >= placed[i][1] * GROW_MIN:
                    retried.add(i)
                    tries[i] = [between]
                continue
            size, overflow, _, _ = min(tried, key=lambda t: t[0])
            if size > stock.floor_pt and (sizes := _candidates(size, overflow, stock.floor_pt)):
                tries[i] = sizes
    for i, measure in measured.items():
        laid_docs, closer = _closer(faces[i], measure, stock, context, styles, fetcher)
        documents += laid_docs
        if closer.fits:  # set closer, it fits one card
            placed[i] = (list(closer.pages), stock.sheet_pt)
            continue
        laid_docs, pages = _split_reference(faces[i], closer, stock, context, styles, fetcher)
        documents += laid_docs
        placed[i] = (pages, stock.sheet_pt)
    for i in range(len(faces)):
        if i in placed:
            continue
        # too long even at the smallest legible size: without its flavour line it may fit
        # one card yet, which reads better than a second card holding that line alone
        if isinstance(item := faces[i].item, UnitCard) and item.has_notes():
            shorter = replace(faces[i], item=item.without_notes())
            document = _render([(shorter, stock.floor_pt)], stock, context, styles, fetcher)
            pages = _pages_by_entry(document, 1)[0]
            if _overflow(pages, 0, face_px) <= FITS:
                documents.append(document)
                placed[i] = (pages[:1], stock.floor_pt)
                continue
        # else it runs onto continuation cards, the flavour line kept
        document = _render([(faces[i], stock.floor_pt)], stock, context, styles, fetcher,
                           continued=True)
        if len(document.pages) == 2:
            # only a little too long: set closer (lines and padding, the size kept) it may
            # fit one card yet, which beats a second card holding its last few lines
            tight = _render([(faces[i], stock.floor_pt)], stock, context, styles, fetcher,
                            tight=True)
            pages = _pages_by_entry(tight, 1)[0]
            if _overflow(pages, 0, face_px) <= FITS:
                documents.append(tight)
                placed[i] = (pages[:1], stock.floor_pt)
                continue
        documents.append(document)
        placed[i] = (list(document.pages), stock.floor_pt)
    ordered: list[Any] = []
    numbers: list[list[int]] = []
    for i in range(len(faces)):
        pages = placed[i][0]
        numbers.append(list(range(len(ordered), len(ordered) + len(pages))))
        ordered += pages
    pdf = documents[0].copy(ordered).write_pdf()
    return LaidOut(pdf, numbers, [placed[i][1] for i in range(len(faces))], fetcher.refused)


def _whole_tall(face: Face, stock: Stock, context: dict[str, Any], size: float) -> int:
    """How many cards tall a page must be to hold the quick reference laid out whole at
    `size`, with room to spare: its length by its amount of text (it fits one card near
    `_fit_guess`, and its length grows with the square of its size). One that runs over the
    page all the same is laid out again on a page of its measured length (`_measure`)."""
    cards = (size / _fit_guess(face, stock, context)) ** 2
    return math.ceil(1.5 * cards) + 1


def _split_reference(face: Face, measure: Measure, stock: Stock, context: dict[str, Any],
                     styles: Styles, fetcher: StaticFetcher) -> tuple[list[Any], list[Any]]:
    """The quick-reference card at the print's shared size, too long for one card, on as
    many cards as its rules need, each rule whole on one card and each card numbered after
    the game's name ("One Page 40k · 1 of 2"), set closer where `measure` was. How tall each
    rule is comes from its layout whole (`_measure`), so the cards depend on the card's text
    box and the text size alone: a bleed print parts them as a plain one. Each card takes as
    many rules as fit before the next starts (`_pack`). The cards are laid out to check; one
    that still runs over gives its last rule to the next card, and the cards after it are
    filled again; a single rule longer than a card runs onto a continuation card. Returns the
    documents laid out and the cards' pages, in order."""
    size = stock.sheet_pt
    rules = face.item.profile.rules
    face_px = (stock.height + 2 * stock.bleed) * PX_PER_MM
    bleed_px = stock.bleed * PX_PER_MM
    room = _room(stock, measure.tight) - measure.top
    documents = []
    most: dict[int, int] = {}  # a card starting at a rule: how many rules it holds at most
    parts: list[tuple[int, int]] = []
    items: list[Face] = []
    laid: list[list[Any]] = []
    over: list[int] = []
    for _ in range(MAX_ROUNDS):
        parts = _pack(measure.heights, room, most)
        items = [_reference_part(face, rules[a:b], k + 1, len(parts))
                 for k, (a, b) in enumerate(parts)]
        document = _render([(item, size) for item in items], stock, context, styles, fetcher,
                           tight=measure.tight)
        documents.append(document)
        laid = _pages_by_entry(document, len(items))
        over = [k for k, part in enumerate(laid)
                if _overflow(part, k, face_px, bleed_px) > FITS]
        longer = [k for k in over if parts[k][1] - parts[k][0] > 1]
        if not longer:
            break
        a, b = parts[longer[0]]  # the first card that ran over: its last rule on the next
        most[a] = b - a - 1
    out: list[Any] = []
    for k, part in enumerate(laid):
        if k in over:  # one rule longer than a card (or a card still over after the rounds)
            continued = _render([(items[k], size)], stock, context, styles, fetcher,
                                continued=True, tight=measure.tight)
            documents.append(continued)
            out += list(continued.pages)
        else:
            out.append(part[0])
    return documents, out


def _room(stock: Stock, tight: bool = False) -> float:
    """How far down its card (CSS px from the cut at its top) the quick reference's last rule
    may end: above a rule's margin, the safe zone and the frame."""
    gap = TIGHT_RULE_GAP_MM if tight else RULE_GAP_MM
    return (stock.height - gap - SAFE_MM) * PX_PER_MM - FRAME_PX


def _measure(face: Face, whole: list[Any], entry: int, stock: Stock, context: dict[str, Any],
             styles: Styles, fetcher: StaticFetcher,
             tight: bool = False) -> tuple[list[Any], Measure]:
    """How the quick reference's rules stand on its card, read from its layout whole
    (`whole`: its pages, entry `entry` of its document; `tight`: set closer). One that ran
    over the page it was laid out on is laid out again on a page of its length: a rule over
    a page break would count the page's foot too. Returns the documents laid out for it."""
    face_px = (stock.height + 2 * stock.bleed) * PX_PER_MM
    bleed_px = stock.bleed * PX_PER_MM
    documents = []
    if len(whole) > 1:
        tall = math.ceil(_overflow(whole, entry, face_px, bleed_px)) + 1
        document = _render([(face, stock.sheet_pt)], stock, context, styles, fetcher,
                           tight=tight, tall=tall)
        documents.append(document)
        whole, entry = _pages_by_entry(document, 1)[0], 0
    top, heights = _rule_heights(whole, entry, len(face.item.profile.rules))
    fits = _overflow(whole, entry, face_px, bleed_px) <= FITS
    return documents, Measure(top - bleed_px, tuple(heights), fits,
                              tuple(whole[:1]) if fits else (), tight)


def _closer(face: Face, measure: Measure, stock: Stock, context: dict[str, Any],
            styles: Styles, fetcher: StaticFetcher) -> tuple[list[Any], Measure]:
    """The quick reference set closer (lines 1.04 apart instead of 1.18, less room between
    rules; the size and the safe zone kept: faces.html, `tight`) where that puts it on a card
    fewer, else as it was (`measure`): a card spent on what a little less room between lines
    would have held helps no one. One Page 40k's seven units on mini cards: six
    quick-reference cards at 9 pt, five set closer (13 cards to 12: one Letter sheet instead
    of two). Laid out whole closer only where it might save a card (`LINES_CLOSER`). Returns
    the documents laid out for it, and how it stands."""
    cards = measure.cards(stock)
    gap, closer_gap = RULE_GAP_MM * PX_PER_MM, TIGHT_RULE_GAP_MM * PX_PER_MM
    shorter = [((height - gap) * LINES_CLOSER + closer_gap) * CLOSER_SLACK
               for height in measure.heights]
    if cards < 2 or len(_pack(shorter, _room(stock, True) - measure.top * TOP_CLOSER)) >= cards:
        return [], measure
    size = stock.sheet_pt
    document = _render([(face, size)], stock, context, styles, fetcher, tight=True,
                       tall=_whole_tall(face, stock, context, size))
    documents, closer = _measure(face, _pages_by_entry(document, 1)[0], 0, stock, context,
                                 styles, fetcher, tight=True)
    if closer.cards(stock) < cards:
        return [document, *documents], closer
    return [document, *documents], measure


def _rule_heights(pages: list[Any], entry: int, count: int) -> tuple[float, list[float]]:
    """Where the quick reference's rules start on its card, from its top, and how tall each
    rule is with the room after it, read from the marks a layout of the whole card (entry
    `entry` of its document) left before its rules and after each (`end-N-rules`,
    `end-N-rK`)."""
    page_px = float(pages[0].height)
    where: dict[str, float] = {}
    for n, page in enumerate(pages):
        for name, box in page.anchors.items():  # its box's corners: (x, y) of its top first
            where.setdefault(name, n * page_px + float(box[1]))
    top = where[f"end-{entry}-rules"]
    heights = []
    before = top
    for k in range(count):
        end = where.get(f"end-{entry}-r{k}", before)
        heights.append(end - before)
        before = end
    return top, heights


def _pack(heights: Sequence[float], room: float,
          most: dict[int, int] | None = None) -> list[tuple[int, int]]:
    """Rules of these heights shared out over cards with `room` for rules, in order, each
    card filled before the next starts: (first, after the last) per card. A rule taller than
    a card has one of its own; `most` caps how many rules a card starting at a given rule
    holds (one that ran over when laid out)."""
    most = most or {}
    parts: list[tuple[int, int]] = []
    first, used = 0, 0.0
    for k, height in enumerate(heights):
        if k > first and (used + height > room or k - first >= most.get(first, k + 1)):
            parts.append((first, k))
            first, used = k, 0.0
        used += height
    parts.append((first, len(heights)))
    return parts


def _reference_part(face: Face, rules: Sequence[Any], number: int, count: int) -> Face:
    item = face.item
    subtitle = f"{item.profile.subtitle} · {number} of {count}"
    return replace(face, item=replace(item, profile=replace(item.profile, rules=tuple(rules),
                                                            subtitle=subtitle)))


def render_sheet_document(template: list[str] | str, context: dict[str, Any],
                          column_starts: dict[str, int]) -> tuple[bytes, int, list[str]]:
    """The roster sheet, straight to PDF: its sections of rules in two columns parted where
    `column_starts` says (`columns.column_start`), which lays out in one pass. A section that
    ran over a page break is not parted so: the sheet is then laid out again with balanced
    columns. Returns the PDF, its page count and the URLs the fetcher refused."""
    fetcher = StaticFetcher()
    with STYLES.borrow() as styles:
        def lay(starts: dict[str, int]) -> Any:
            html = render_template(template, column_starts=starts, **context)
            return styles.document(html, PAGE_CSS, fetcher)

        document = lay(column_starts)
        if not all(_on_one_page(document, f"columns-{key}") for key, start in
                   column_starts.items() if start):
            document = lay({})
        return document.write_pdf(), len(document.pages), fetcher.refused


def _on_one_page(document: Any, anchor: str) -> bool:
    """Whether the first and the last rule of a parted section are on the same page."""
    pages = [{a for a in page.anchors if a.startswith(anchor)} for page in document.pages]
    return any({f"{anchor}-first", f"{anchor}-last"} <= found for found in pages)


def render_rules_document(template: list[str] | str, context: dict[str, Any],
                          sizes: Sequence[float]) -> tuple[bytes, int, float, list[str]]:
    """A rules sheet, straight to PDF, at the largest of `sizes` (largest first) at which it
    fits one page, found by halves (the last size is used whatever happens), with columns
    filled one after another, which lays out fast; the page is then laid out once more at
    that size with balanced columns (`balanced` in the template's context), which fit
    whenever filled columns do but cost many times as much on a page that overflows. Returns
    the PDF, its page count, the text size used and the URLs the fetcher refused. (The
    roster sheet is `render_sheet_document`.)
    """
    fetcher = StaticFetcher()
    with STYLES.borrow() as styles:
        def lay(size: float, balanced: bool = False) -> Any:
            html = render_template(template, font_pt=size, balanced=balanced, **context)
            return styles.document(html, PAGE_CSS, fetcher)

        low, high = 0, len(sizes) - 1  # sizes[high] is used if nothing larger fits
        fitted: dict[int, Any] = {}
        while low < high:
            middle = (low + high) // 2
            document = lay(sizes[middle])
            if len(document.pages) == 1:
                fitted[middle], high = document, middle
            else:
                low = middle + 1
        size = sizes[high]
        document = fitted.get(high) or lay(size)
        if len(document.pages) == 1:
            balanced = lay(size, balanced=True)
            document = balanced if len(balanced.pages) == 1 else document
        return document.write_pdf(), len(document.pages), size, fetcher.refused
