"""The quick-resolve panel, laid out for the templates: its form (`resolve.forms`: the roster's
units as attackers, the target from the catalog or another roster, one field per situation
option) and each attacker's result with its chart and numbers.

Pure (no Flask): the view hands in the query arguments and, when the target comes from another
roster, that roster; every figure comes from `listbuilder.engine.resolve`. Fields are built
from the option data (kind, choices, default, help), so no template knows any system.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from werkzeug.datastructures import MultiDict
from wtforms import SelectChoice

from listbuilder.engine.chart import TAIL, chart_svg, shown_range
from listbuilder.engine.model import Catalog, Roster, RosterEntry
from listbuilder.engine.resolve import (
    Option,
    OptionValue,
    Outcome,
    ResolveError,
    Result,
    Side,
    fielded_entries,
    fight_alike,
    find_side,
    percent,
    quick_resolve,
    roster_sides,
    situation_options,
)
from listbuilder.engine.system import RuleSystem
from listbuilder.web.resolve.forms import (
    MAX_TEXT,
    Entries,
    OptionField,
    PanelForm,
    SituationForm,
    Suggestion,
    sentence,
    situation_form,
)

log = logging.getLogger(__name__)

Args = Mapping[str, Sequence[str]]

CHART_WIDTH = 380  # drawn small: scaled down to a phone its text stays readable
CHART_HEIGHT = 280
_SHARE = re.compile(r"/s/([A-Za-z0-9_-]{1,100})(?:[/?#]|$)")
_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,100}")


@dataclass(frozen=True)
class Row:
    label: str
    exactly: str
    at_least: str


@dataclass(frozen=True)
class Table:
    """One distribution as numbers: the chart's bars and line, readable and copyable."""

    title: str
    mean: str
    rows: tuple[Row, ...]
    note: str = ""  # values left out at the ends, when any


@dataclass
class Column:
    """One attacker against the target."""

    n: int
    attacker: str
    defender: str = ""
    # its own situation fields, of the panel's situation form (which the panels compare)
    controls: list[OptionField] = field(default_factory=list, compare=False)
    result: Result | None = None
    svg: str = ""
    tables: list[Table] = field(default_factory=list)
    chances: list[tuple[str, str]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Picks:
    """One of the panel's attacker lists as it is shown (resolve/_attackers.html)."""

    id: str
    name: str
    label: str
    error: str
    options: tuple[tuple[str, str, bool, bool], ...]  # (value, text, selected, disabled)

    @classmethod
    def of(cls, field: Entries) -> Picks:
        return cls(field.id, field.name, field.label.text, field.error, tuple(
            (c.value, c.label or c.value, c.selected, bool(c.render_kw and c.render_kw.get(
                "disabled"))) for c in field.iter_choices()))


@dataclass
class Panel:
    """Everything the quick-resolve panel shows: its form, as sent and checked (None when
    there is no form to show, `message` saying why), the situation's fields (`shared` for
    every attacker, each column's own) and the columns."""

    available: bool
    message: str = ""
    offered: bool = True  # the system has quick resolve: a roster page shows the panel
    form: PanelForm | None = None
    targets: list[Suggestion] = field(default_factory=list)  # the target box's suggestions
    link_roster: str = ""  # the other roster's name, once its link opened it
    situation: SituationForm | None = None
    shared: list[OptionField] = field(default_factory=list, compare=False)
    columns: list[Column] = field(default_factory=list)

    @property
    def picks(self) -> tuple[Picks, ...]:
        """The attacker lists, as the form shows them."""
        return (Picks.of(self.form.a1), Picks.of(self.form.a2)) if self.form else ()

    @property
    def has_errors(self) -> bool:
        return bool((self.form and self.form.has_errors)
                    or (self.situation and self.situation.has_errors)
                    or any(c.problems for c in self.columns))

    @property
    def said(self) -> str:
        """The results in one line, for screen readers when the panel updates in place."""
        return "; ".join(f"{c.result.attacker}: {c.result.summary}" for c in self.columns
                         if c.result is not None)


@dataclass(frozen=True)
class Other:
    """The roster a share link opened (same system), or why it could not be used."""

    name: str = ""
    roster: Roster | None = None
    error: str = ""
    token: str = ""  # its share token, to tell when another link was pasted
    # its own catalog: the other roster may use faction packs this one does not
    catalog: Catalog | None = None


def arg(args: Args, name: str) -> str:
    """The last value sent for `name` (a checkbox sends its hidden 'no' first), cut short."""
    values = args.get(name)
    return values[-1][:MAX_TEXT] if values else ""


def share_token(text: str) -> str:
    """The token in a share link (the whole address, or the token alone)."""
    text = text.strip()
    if m := _SHARE.search(text):
        return m.group(1)
    if "/r/" in text:
        raise ValueError("That is an edit link, which lets anyone change the roster: paste "
                         "its read-only share link instead.")
    if _TOKEN.fullmatch(text):
        return text
    raise ValueError("That is not a share link: copy the read-only share link from the top "
                     "of the other roster's page (it has /s/ in it).")


def catalog_targets(catalog: Catalog) -> list[Suggestion]:
    """Every catalog unit by the name `find_side` reads: 'Name (Faction)' when factions share
    the name with different profiles, the name once when they all fight alike (WarStuff's
    Knight, in Fantasy and Medieval)."""
    out, listed = [], set()
    for unit in catalog.units:
        same = catalog.units_named(unit.name)
        if len(same) > 1 and fight_alike(same):
            if unit.name.casefold() in listed:
                continue
            listed.add(unit.name.casefold())
            homes = dict.fromkeys(w for u in same for w in (u.category, u.faction or "") if w)
            out.append(Suggestion(unit.name, ", ".join(homes)))
            continue
        shared_name = len(same) > 1 and unit.faction
        value = f"{unit.name} ({unit.faction})" if shared_name else unit.name
        where = [w for w in dict.fromkeys((unit.category, unit.faction or "")) if w]
        out.append(Suggestion(value, " · ".join(where)))
    return out


def _entry_sides(system: RuleSystem, catalog: Catalog,
                 roster: Roster) -> tuple[list[SelectChoice], dict[int, Side]]:
    picks, sides = [], {}
    for i, (entry, side) in enumerate(roster_sides(system, catalog, roster)):
        value = f"{i}:{entry.unit}"
        if isinstance(side, ResolveError):
            picks.append(SelectChoice(value, f"{entry.unit} (can't be used: {side})",
                                      {"disabled": True}))
            continue
        sides[i] = side
        # what the roster fields besides its entries (a starting draw) says so
        besides = " (fielded besides the list)" if i >= len(roster.entries) else ""
        picks.append(SelectChoice(value, side.label + besides))
    return picks, sides


def _entry_index(entries: Sequence[RosterEntry], usable: Mapping[int, Side], value: str) -> int:
    """The entry a pick names. The unit name travels with the index, so a roster changed in
    another tab (an entry removed or moved) never silently swaps the unit."""
    index_text, sep, unit = value.partition(":")
    if not sep:
        index_text, unit = "", value
    if (index_text.isascii() and index_text.isdigit() and len(index_text) <= 6
            and int(index_text) in usable
            and entries[int(index_text)].unit == unit):
        return int(index_text)
    for i in usable:
        if entries[i].unit.casefold() == unit.casefold():
            return i
    raise ValueError(f"{unit or value!r} is not in the roster any more: pick a unit from "
                     f"the list.")


def _fingerprint(option: Option) -> str:
    """A short mark of an option's whole definition (label, choices, default). A value is kept
    only for the option it was set for: picking another unit resets what changed with it
    (a new target's lives left, a new attacker's weapons) to the new defaults."""
    return hashlib.sha256(repr(option).encode("utf-8")).hexdigest()[:8]


def _shown(form: PanelForm) -> dict[str, str] | None:
    if not form.shown.raw_data:
        return None  # a hand-made address: take every value as given
    text = form.shown.data or ""
    return {name: mark for name, _, mark in (p.partition(":") for p in text.split(",") if p)}


def _sent(option: Option, names: Sequence[str], args: Args,
          shown: dict[str, str] | None) -> Sequence[str]:
    """The values sent for `option` under any of `names` (a shared option falls back to an
    attacker's own and back); none when they were set for another option."""
    for name in names:
        if name not in args:
            continue
        if shown is not None and shown.get(name) != _fingerprint(option):
            break  # set for another pick: start from the default
        return args[name]
    return ()


def _table(outcome: Outcome) -> Table:
    lo, hi = shown_range(outcome)
    rows = tuple(Row(outcome.label(v), percent(outcome.dist.prob(v)),
                     percent(outcome.at_least(v))) for v in range(lo, hi + 1))
    full = outcome.values()
    note = ""
    if (lo, hi) != (full.start, full.stop - 1):
        note = (f"Values outside {outcome.label(lo)} to {outcome.label(hi)} are left out: "
                f"together they are under {TAIL * 200:.2f}%.")
    return Table(outcome.title, f"{float(outcome.mean):.2f}", rows, note)


def _own_ids(svg: str, prefix: str) -> str:
    """chart_svg names its title and description "t" and "d"; two charts on one page need
    ids of their own. Names in the SVG are escaped, so these strings occur only once."""
    return (svg.replace('aria-labelledby="t d"', f'aria-labelledby="{prefix}-t {prefix}-d"', 1)
            .replace('<title id="t">', f'<title id="{prefix}-t">', 1)
            .replace('<desc id="d">', f'<desc id="{prefix}-d">', 1))


def _fill(column: Column, system: RuleSystem, catalog: Catalog, attacker: Side,
          defender: Side, settings: Mapping[str, OptionValue]) -> None:
    try:
        result = quick_resolve(system, catalog, attacker, defender, settings)
    except ResolveError as exc:
        column.problems.append(sentence(str(exc)))
        return
    except Exception:  # a fault of ours: say so in words, keep the page, log the details
        log.exception("quick-resolve failed: %s against %s", attacker.label, defender.label)
        column.problems.append("This could not be worked out: a fault in Listbuilder, not in "
                               "your choices. Try another unit or setting.")
        return
    column.result = result
    # the title names the sizes set in the panel ("10x Line Troopers"), as the result does
    column.attacker, column.defender = result.attacker, result.defender
    column.svg = _own_ids(chart_svg(result, CHART_WIDTH, CHART_HEIGHT), f"rs-chart-{column.n}")
    column.tables = [_table(o) for o in result.outcomes]
    column.chances = [(c.label, percent(c.p)) for c in result.chances]


def _target(system: RuleSystem, catalog: Catalog, form: PanelForm, other: Other | None,
            panel: Panel) -> Side | None:
    """The defender the panel names, or None (nothing picked yet, or an error noted)."""
    if form.source.data == "catalog":
        if not form.target.data:
            return None
        try:
            return find_side(system, catalog, form.target.data)
        except ResolveError as exc:
            form.target.errors.append(sentence(str(exc)) + ".")
            return None
    if other is None:
        return None
    if other.error or other.roster is None:
        form.link.errors.append(other.error)
        return None
    # a unit picked from the roster of the link before: not for a newly pasted one
    wanted = form.te.data if form.te_for.data in ("", other.token) else ""
    panel.link_roster, form.te_for.data, form.te.data = other.name, other.token, None
    theirs = other.catalog or catalog
    form.te.choices, sides = _entry_sides(system, theirs, other.roster)
    if not sides:
        form.link.errors.append(f"{other.name} has no units to pick from.")
        return None
    index = next(iter(sides))
    entries = fielded_entries(system, theirs, other.roster)
    if wanted:
        try:
            index = _entry_index(entries, sides, wanted)
        except ValueError as exc:
            form.link.errors.append(str(exc))
            return None
    form.te.data = f"{index}:{entries[index].unit}"
    return sides[index]


def _attackers(form: PanelForm, entries: Sequence[RosterEntry],
               sides: Mapping[int, Side]) -> list[tuple[int, int]]:
    """(column, entry index) of each attacker asked for: the first unit when none is named,
    a second only when one is picked. A pick that names no entry is noted on its field."""
    picked: list[tuple[int, int]] = []
    for n, pick in ((1, form.a1), (2, form.a2)):
        try:
            if pick.data:
                picked.append((n, _entry_index(entries, sides, pick.data)))
            elif n == 1:
                picked.append((n, next(iter(sides))))
        except ValueError as exc:
            pick.errors.append(str(exc))
    for n, index in picked:
        (form.a1 if n == 1 else form.a2).data = f"{index}:{entries[index].unit}"
    return picked


def build_panel(system: RuleSystem, catalog: Catalog, roster: Roster, args: Args,
                other: Other | None = None) -> Panel:
    """The panel for this roster and these query arguments:

    a1, a2   the attackers, as 'index:unit' of the roster's entries (a2 empty: just one)
    source   'catalog' (target: a name, '3x Name' or 'Name + Name') or 'roster' (link: a
             share link; te: 'index:unit' of that roster's entries, given here as `other`;
             te_for: the share token te was picked for)
    o-KEY    a situation option for every attacker; o1-KEY / o2-KEY for one attacker's own
    shown    'field:mark,...' of the controls the form showed (see `_fingerprint`)
    """
    if system.resolver() is None:
        return Panel(available=False, offered=False)
    attackers, sides = _entry_sides(system, catalog, roster)
    if not sides:
        return Panel(available=False, message=(
            "Add a unit to the roster to see what it does to a target."))
    form = PanelForm(MultiDict(args), attackers)
    panel = Panel(available=True, form=form, targets=catalog_targets(catalog))
    picked = _attackers(form, fielded_entries(system, catalog, roster), sides)
    panel.columns = [Column(n, sides[i].label) for n, i in picked]
    defender = _target(system, catalog, form, other, panel)
    if defender is None:
        return panel
    options = {n: situation_options(system, catalog, sides[i], defender) for n, i in picked}
    # options alike for every attacker (cover, the target's lives) are set once, above them
    common = [o for o in options[picked[0][0]]
              if all(o in options[n] for n, _ in picked)] if picked else []
    shown = _shown(form)
    controls: list[tuple[str, Option]] = []
    sent: MultiDict[str, str] = MultiDict()
    for column_n, option in [(0, o) for o in common] + [
            (n, o) for n, _ in picked for o in options[n] if o not in common]:
        # a shared field is named o-KEY and falls back to the first attacker's own, and back
        names = [f"o-{option.key}", f"o1-{option.key}"] if column_n == 0 else \
            [f"o{column_n}-{option.key}", f"o-{option.key}"]
        controls.append((names[0], option))
        sent.setlist(names[0], _sent(option, names, args, shown))
    situation = situation_form(controls)(sent)
    situation.validate()
    form.shown.data = ",".join(f"{name}:{_fingerprint(o)}" for name, o in controls)
    panel.situation = situation
    panel.shared = [situation[f"o-{o.key}"] for o in common]
    for column, (n, i) in zip(panel.columns, picked, strict=True):
        column.defender = defender.label
        column.controls = [situation[f"o{n}-{o.key}"] for o in options[n] if o not in common]
        settings = situation.settings([f.name for f in panel.shared + column.controls])
        if settings is None:
            continue  # a setting is wrong: its field says which, and nothing is guessed
        _fill(column, system, catalog, sides[i], defender, settings)
    return panel
