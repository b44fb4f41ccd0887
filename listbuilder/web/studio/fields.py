"""The faction studio's form, made from a game's data schema: no game has form code of its own.

Three steps, each plain Python:

- `form_spec(system)`: the schema walked once into field descriptions (`Spec`): text, number
  (with the schema's bounds), select (a `Literal`), check (a bool), names (a list of names, one
  comma-separated box), group (a nested model, a fieldset), list (a list of models, repeated
  fieldsets) and yaml (what a generic form can't shape: a union, an upgrade's effects), read as
  YAML from a small box.
- `draw(spec, data)`: a pack's data as the form shows it (`Field`s, named by flat keys such as
  `datasheets-0-weapons-1-att`). A value that does not fit its box (a word where a number goes,
  a mapping where a list goes) is shown as YAML in a box of its own rather than dropped, and a
  key the schema does not know gets a box too, so the form never loses what the text holds.
- `read_form(spec, form)`: the posted flat keys back into the nested data, in the schema's key
  order, and `pack_text(data)` the data as a pack file, in the data folders' style. A value
  that does not parse (`abc` in a number box) is kept as typed: the pack check then names it,
  with its line and key, in the data loader's own words.

The YAML the boxes hold is read as a pack is (`PACK` in engine/yaml_limits.py), and all the
boxes of one post together count as one pack: aliases expanded, they hold no more values and
characters than a pack of the largest size could written out in full. The pack is written
with every alias expanded (a pack is read by people), so this bounds what a post writes too.
A box past the bound is kept as typed and its refusal (`Refused`) shown beside it.
"""

from __future__ import annotations

import functools
import re
import types
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import annotated_types
import yaml
from pydantic import AfterValidator, BaseModel, StringConstraints
from pydantic.fields import FieldInfo

from listbuilder.engine.catalog import Locator, parse_yaml
from listbuilder.engine.errors import DataError, DataLoadError, Loc
from listbuilder.engine.schema import InRange
from listbuilder.engine.system import RuleSystem
from listbuilder.engine.yaml_limits import PACK, Tally

Kind = Literal["text", "long", "number", "select", "check", "names", "yaml", "group", "list"]
# longer texts than this get a text area (a unit's or a faction's text)
LONG_TEXT = 120
# how many flat keys one posted form may carry: a pack of the largest size has far fewer
MAX_KEYS = 20_000
# the width the pack's YAML is written at, as the data files are
WIDTH = 100
# what a number box reads as a whole number (longer is kept as typed: the check refuses it)
_WHOLE = r"[-+]?\d{1,30}"
# the key by which every game's unit schema names the unit's faction (the engine's
# Unit.faction), and the id of the list of names its box suggests (`faction_names`)
FACTION_KEY = "faction"
FACTION_NAMES = "pf-faction-names"


class _Absent:
    """A key the form leaves out (an empty box): not the same as a null the player wrote."""

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT: Any = _Absent()


# -- the schema, walked -------------------------------------------------------------------

@dataclass(frozen=True)
class Spec:
    """One field of the form, as the schema describes it."""

    key: str  # the data key (a field's alias if it has one)
    kind: Kind
    label: str = ""
    hint: str = ""
    required: bool = False
    default: Any = None  # an optional field's value when left out
    lo: int | None = None
    hi: int | None = None
    maxlength: int | None = None
    options: tuple[Any, ...] = ()  # select: the Literal's values
    numbers: bool = False  # names: whole numbers, not names
    fields: tuple[Spec, ...] = ()  # group: its fields
    item: Spec | None = None  # list: one item (a group)
    most: int | None = None  # list and names: at most this many items
    suggest: str = ""  # text: the id of the <datalist> of names the box suggests

    @property
    def noun(self) -> str:
        """What one item of a list is called: `weapons` -> `weapon`."""
        return _singular(self.key).replace("_", " ")

    @property
    def add_text(self) -> str:
        noun = self.noun
        if noun == self.key.replace("_", " "):  # "wargear", "terrain": no plural to undo
            return f"Add {noun}"
        article = "an" if noun[:1] in "aeio" or (noun[:1] == "u" and not noun.startswith(
            ("uni", "use", "usu"))) else "a"
        return f"Add {article} {noun}"


def form_spec(system: RuleSystem) -> Spec:
    """The whole form of a pack of `system`: its sections, as `pack_sections` names them (or
    the keys of the system's starter pack), then every other section the schema has (drawn
    only when a pack has them). `options` holds the sections always drawn."""
    found = _SPECS.get(type(system))
    if found is None:
        fields = {s.key: s for s in model_fields(system.data_schema)}
        wanted = tuple(system.pack_sections) or _starter_keys(system)
        shown = tuple(k for k in wanted if k in fields) or tuple(
            k for k in fields if k != "sample")
        rest = tuple(k for k in fields if k not in shown)
        found = _SPECS[type(system)] = Spec(
            "", "group", system.name, fields=tuple(fields[k] for k in (*shown, *rest)),
            options=shown)
    return found


_SPECS: dict[type[RuleSystem], Spec] = {}  # a system's form, made once a process


def _starter_keys(system: RuleSystem) -> tuple[str, ...]:
    try:
        data = yaml.safe_load(system.pack_starter())
    except yaml.YAMLError:  # a plugin's starter we can't read: the schema decides instead
        return ()
    return tuple(str(k) for k in data) if isinstance(data, dict) else ()


@functools.cache
def model_fields(model: type[BaseModel]) -> tuple[Spec, ...]:
    """The fields of one schema model, in its order."""
    return tuple(_field_spec(name, info) for name, info in model.model_fields.items())


def _field_spec(name: str, info: FieldInfo) -> Spec:
    key = info.alias or name
    spec = _shape(info.annotation, list(info.metadata), key)
    required = info.is_required()
    default = None if required else info.get_default(call_default_factory=True)
    hint = _sentence(info.description) if info.description else spec.hint
    suggest = FACTION_NAMES if key == FACTION_KEY and spec.kind == "text" else ""
    return replace(spec, label=info.title or readable(key), hint=hint, required=required,
                   default=default, suggest=suggest)


def _shape(annotation: Any, metadata: list[Any], key: str) -> Spec:
    """The box for one type: its kind and the constraints the schema puts on it."""
    tp, meta = _unwrap(annotation)
    meta = [*metadata, *meta]
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        choices = [a for a in get_args(tp) if a is not type(None)]
        if len(choices) == 1:  # Optional[X]: an empty box leaves it out
            return _shape(choices[0], meta, key)
        return Spec(key, "yaml", hint="Written as YAML.")
    if tp is bool:
        return Spec(key, "check")
    if tp is int:
        lo, hi = _bounds(meta)
        return Spec(key, "number", lo=lo, hi=hi, hint=_span(lo, hi))
    if tp is str:
        most = _longest(meta)
        return Spec(key, "long" if most is not None and most > LONG_TEXT else "text",
                    maxlength=most)
    if origin is Literal:
        return Spec(key, "select", options=get_args(tp))
    if origin is list:
        item = _shape(get_args(tp)[0], [], key)
        most = next((m.max_length for m in meta if isinstance(m, annotated_types.MaxLen)), None)
        if item.kind in ("text", "number", "select"):
            return Spec(key, "names", numbers=item.kind == "number", most=most,
                        hint="Separate them with commas.")
        if item.kind == "group":
            return Spec(key, "list", item=item, most=most)
        return Spec(key, "yaml", hint="Written as YAML.")
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return Spec(key, "group", fields=model_fields(tp))
    return Spec(key, "yaml", hint="Written as YAML.")


def _unwrap(tp: Any) -> tuple[Any, list[Any]]:
    meta: list[Any] = []
    while get_origin(tp) is Annotated:
        tp, *more = get_args(tp)
        meta.extend(more)
    return tp, meta


def _bounds(meta: Iterable[Any]) -> tuple[int | None, int | None]:
    lo: int | None = None
    hi: int | None = None
    for m in meta:
        check = m.func if isinstance(m, AfterValidator) else m
        if isinstance(check, InRange):
            lo, hi = check.lo, check.hi
        elif isinstance(m, annotated_types.Interval | annotated_types.Ge | annotated_types.Gt
                        | annotated_types.Le | annotated_types.Lt):
            ge, gt = getattr(m, "ge", None), getattr(m, "gt", None)
            le, lt = getattr(m, "le", None), getattr(m, "lt", None)
            lo = int(ge) if ge is not None else int(gt) + 1 if gt is not None else lo
            hi = int(le) if le is not None else int(lt) - 1 if lt is not None else hi
    return lo, hi


def _longest(meta: Iterable[Any]) -> int | None:
    for m in meta:
        if isinstance(m, StringConstraints) and m.max_length is not None:
            return m.max_length
        if isinstance(m, annotated_types.MaxLen):
            return m.max_length
    return None


def _span(lo: int | None, hi: int | None) -> str:
    """A number box's bounds in words, where they tell the player something (a D6 target,
    a modifier); `1 to 10000` only says "a number", which the box already does."""
    if lo is not None and hi is not None and hi - lo <= 100:
        return f"{lo} to {hi}."
    return ""


def readable(key: str) -> str:
    """A key as a label: `per_model` -> `Per model`; a short one is an abbreviation: `AP`."""
    words = key.replace("_", " ").strip()
    return words.upper() if len(words) <= 2 else words[:1].upper() + words[1:]


def _sentence(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def _singular(word: str) -> str:
    for end, instead in (("ies", "y"), ("sses", "ss"), ("xes", "x"), ("ches", "ch"),
                         ("shes", "sh"), ("s", "")):
        if word.endswith(end) and len(word) > len(end) + 1 and not word.endswith("ss"):
            return word[: -len(end)] + instead
    return word


# -- data -> what the form shows ----------------------------------------------------------

def box_id(name: str) -> str:
    """The HTML id of the box posted as `name`: a key the player wrote (`my key`) may hold
    what an id can't, so anything but letters, digits, `-` and `_` is spelled out."""
    return "pf-" + re.sub(r"[^\w-]", lambda m: f".{ord(m[0]):x}.", name)


def join(name: str, part: str | int) -> str:
    """The flat key of a part of `name`: `datasheets-0` + `weapons` -> `datasheets-0-weapons`."""
    return f"{name}-{part}" if name else str(part)


@dataclass
class Field:
    """One box, fieldset or list of the form as drawn, with what it shows."""

    spec: Spec
    name: str  # its flat key in the posted form
    loc: Loc  # its place in the data, as errors name it
    kind: str  # as drawn: the spec's kind, or "yaml" where the value does not fit it
    value: str = ""
    checked: bool = False
    multiline: bool = False  # a yaml value drawn in a text area
    legend: str = ""  # groups: a list item's title
    children: list[Field] = field(default_factory=list)  # group: fields; list: items
    extras: list[Field] = field(default_factory=list)  # group: keys the schema does not know
    keep: str = ""  # group: keys given as empty (false, [], null), so the form writes them back
    remove: str = ""  # list items: the action that removes it
    add: str = ""  # lists: the action that adds an item ("" when full)

    @property
    def id(self) -> str:
        return box_id(self.name)

    @property
    def label(self) -> str:
        return self.spec.label or readable(self.spec.key)


@dataclass
class Drawn:
    """A pack's data as the form shows it, and where each of its problems goes."""

    fields: list[Field]
    file: str  # the pack's file, as its problems name it
    index: dict[Loc, str]  # a place in the data -> the id of the box that shows it
    keep: str = ""  # sections given as empty (`units: []`), written back as they were

    def field_of(self, error: DataError) -> str:
        """The id of the box, fieldset or list an error is about ("" when none shows it)."""
        if error.file != self.file:
            return ""
        loc = tuple(error.loc)
        for end in range(len(loc), 0, -1):
            if loc[:end] in self.index:
                return self.index[loc[:end]]
        return ""

    def marks(self, errors: Sequence[DataError]) -> dict[str, list[str]]:
        """Each box's problems, by its id: shown beside it, the box marked invalid."""
        out: dict[str, list[str]] = {}
        for error in errors:
            if target := self.field_of(error):
                out.setdefault(target, []).append(error.message)
        return out


def draw(spec: Spec, data: Mapping[Any, Any], file: str) -> Drawn:
    """`data` (a pack's top-level mapping) as the form of `spec` (`form_spec`) shows it;
    TooManyFields when that takes more boxes than a post may carry back (MAX_KEYS)."""
    shown = set(spec.options)
    known = {s.key for s in spec.fields}
    # Every item of a list is drawn with all its boxes, so a post of 2,000 names alone drew
    # 30,000 boxes (12 MB of page, seconds of CPU): count them before drawing any.
    left = MAX_KEYS - sum(1 for key in data if key not in known)
    for s in spec.fields:
        if s.key in shown or s.key in data:
            left = _count_boxes(s, data.get(s.key, ABSENT), left)
    fields = [_draw(s, data.get(s.key, ABSENT), s.key, (s.key,)) for s in spec.fields
              if s.key in shown or s.key in data]
    fields += [_extra(key, value, "", ()) for key, value in data.items() if key not in known]
    index: dict[Loc, str] = {}
    for f in fields:
        _index(f, index)
    kept = {k: v for k, v in data.items() if k in known and _empty(v)}
    return Drawn(fields, file, index, flow(kept) if kept else "")


def _count_boxes(spec: Spec, value: Any, left: int) -> int:
    """What is left of `left` boxes once `value` is drawn as `spec` (as `_draw` draws it: a
    group's boxes even when it is left out, one box for a value that does not fit)."""
    left -= 1
    if left < 0:
        raise TooManyFields(f"the form would have more than {MAX_KEYS:,} boxes, more than one "
                            f"post may carry: edit the pack in the YAML view, or split it")
    if spec.kind == "group":
        value = {} if value is ABSENT or value is None else value
        if isinstance(value, dict):
            for s in spec.fields:
                left = _count_boxes(s, value.get(s.key, ABSENT), left)
            known = {s.key for s in spec.fields}
            left -= sum(1 for key in value if key not in known)
    elif spec.kind == "list" and spec.item is not None and isinstance(value, list):
        for item in value:
            left = _count_boxes(spec.item, item, left)
    return left


def _index(f: Field, index: dict[Loc, str]) -> None:
    index[f.loc] = f.id
    for child in (*f.children, *f.extras):
        _index(child, index)


def _draw(spec: Spec, value: Any, name: str, loc: Loc) -> Field:
    here = Field(spec, name, loc, spec.kind)
    given = value is not ABSENT and value is not None
    if spec.kind == "group":
        return _draw_group(spec, value if given else {}, name, loc)
    if spec.kind == "list":
        return _draw_list(spec, value if given else [], name, loc)
    if not given:
        return here
    if spec.kind == "check":
        if isinstance(value, bool):
            here.checked = value
            return here
    elif spec.kind == "number":
        if isinstance(value, int) and not isinstance(value, bool):
            here.value = str(value)
            return here
        if isinstance(value, str) and "\n" not in value:  # as typed, in a box that shows it
            here.kind, here.value = "text", value
            return here
    elif spec.kind in ("text", "long"):
        if isinstance(value, str | int | float) and not isinstance(value, bool):
            here.value = str(value)
            if "\n" in here.value:  # a one-line box would drop the line breaks
                here.kind = "long"
            return here
    elif spec.kind == "select":
        if value in spec.options:
            here.value = str(value)
            return here
    elif spec.kind == "names":
        if isinstance(value, list) and all(_plain(v, spec.numbers) for v in value):
            here.value = ", ".join(str(v) for v in value)
            return here
    elif spec.kind == "yaml":
        return _yaml_box(here, value)
    return _yaml_box(Field(spec, join(name, "_yaml"), loc, "yaml"), value)


def _plain(value: Any, numbers: bool) -> bool:
    """A list item the comma-separated box can show and read back unchanged: a name (or, in
    a list of numbers, a whole number) without a comma."""
    if isinstance(value, int) and not isinstance(value, bool):
        return numbers
    if not isinstance(value, str):
        return False
    return "," not in value and value == value.strip() and value != "" and not (
        numbers and re.fullmatch(_WHOLE, value))


def _draw_group(spec: Spec, value: Any, name: str, loc: Loc) -> Field:
    if not isinstance(value, dict):
        return _yaml_box(Field(spec, join(name, "_yaml"), loc, "yaml"), value)
    here = Field(spec, name, loc, "group", legend=spec.label)
    here.children = [_draw(s, value.get(s.key, ABSENT), join(name, s.key), (*loc, s.key))
                     for s in spec.fields]
    known = {s.key for s in spec.fields}
    here.extras = [_extra(k, v, name, loc) for k, v in value.items() if k not in known]
    kept = {k: v for k, v in value.items() if k in known and _empty(v)}
    here.keep = flow(kept) if kept else ""
    return here


def _draw_list(spec: Spec, value: Any, name: str, loc: Loc) -> Field:
    if not isinstance(value, list) or spec.item is None:
        return _yaml_box(Field(spec, join(name, "_yaml"), loc, "yaml"), value)
    here = Field(spec, name, loc, "list")
    for i, item in enumerate(value):
        title = f"{spec.noun[:1].upper()}{spec.noun[1:]} {i + 1}"
        if isinstance(item, dict) and isinstance(item.get("name"), str) and item["name"].strip():
            title += f": {item['name'].strip()}"
        drawn = _draw(spec.item, item, join(name, i), (*loc, i))
        drawn.legend, drawn.remove = title, f"remove:{join(name, i)}"
        if drawn.kind == "yaml":
            drawn.spec = replace(drawn.spec, label=title)
        here.children.append(drawn)
    if spec.most is None or len(value) < spec.most:
        here.add = f"add:{name}"
    return here


def _extra(key: Any, value: Any, name: str, loc: Loc) -> Field:
    spec = Spec(str(key), "yaml", label=str(key),
                hint="Not a key this game's files have: the check says what to do. Empty the "
                     "box to remove it.")
    return _yaml_box(Field(spec, join(name, f"_extra-{key}"), (*loc, key), "yaml"), value)


def _yaml_box(here: Field, value: Any) -> Field:
    here.kind = "yaml"
    if value is ABSENT:
        return here
    if isinstance(value, Typed):  # as the player wrote it, not as YAML of a text (quoted)
        here.multiline = "\n" in value or len(value) > 2 * WIDTH // 3
        here.value = str(value)
        return here
    text = flow(value)
    if "\n" in text or len(text) > 2 * WIDTH // 3:
        here.multiline, text = True, _dump(value).rstrip("\n")
    here.value = text
    return here


def _empty(value: Any) -> bool:
    return value is None or value is False or value == "" or value == [] or value == {}


# -- what the form posts -> data ----------------------------------------------------------

class TooManyFields(ValueError):
    pass


class Typed(str):
    """A box's text kept as typed because its YAML was not read: the pack holds it as a
    text, and the form draws it again as it was typed, to be fixed there."""


@dataclass(frozen=True)
class Refused:
    """A box whose YAML was not read (kept as typed): where its value goes in the pack, and
    why, in the box's own lines."""

    loc: Loc
    error: DataError


def read_form(spec: Spec, form: Mapping[str, str], action: str = "") -> dict[str, Any]:
    """The pack's data from the flat keys the form posts, in the schema's order; `action`
    (`add:<list>` or `remove:<item>`) adds an empty item to a list or leaves one out."""
    return read_boxes(spec, form, action)[0]


def read_boxes(spec: Spec, form: Mapping[str, str],
               action: str = "") -> tuple[dict[str, Any], list[Refused]]:
    """`read_form`, and the boxes whose YAML was refused (too big once its aliases are
    expanded, too deep), kept as typed."""
    if len(form) > MAX_KEYS:
        raise TooManyFields(f"the form has more than {MAX_KEYS} boxes: split the pack")
    reader = _Reader(form, action)
    out = reader.group(spec, "", ())
    return (out if isinstance(out, dict) else {}), reader.refused


def refusals(refused: Sequence[Refused], text: str, file: str) -> tuple[DataError, ...]:
    """The refused boxes' problems as the pack's: named by the pack's file, the line its
    `text` holds the value on, and the key, so the form marks each beside its box."""
    if not refused:
        return ()
    where = Locator(text)
    out = []
    for r in refused:
        loc = (*r.loc, *r.error.loc)
        said = r.error.message
        if r.error.line and r.error.line > 1:
            said = f"line {r.error.line} of the box: {said}"
        out.append(DataError(file, loc, said, where(loc)))
    return tuple(out)


class _Reader:
    def __init__(self, form: Mapping[str, str], action: str) -> None:
        # a plain dict: a posted form's lookup of a key it lacks raises, and every box of
        # every item is looked up
        self.form = dict(form.items())
        self.action = action
        # the YAML of every box counted together: the boxes make one pack
        self.tally = Tally()
        self.refused: list[Refused] = []
        self.items: dict[str, set[int]] = {}  # a list's flat key -> the items posted
        # a group's flat key -> its posted keys the schema does not know (`_extra-<key>`),
        # found once: looked for group by group, 19,000 items of 20,000 keys took a minute
        self.extra: dict[str, list[tuple[str, str]]] = {}
        for key in form:
            parts = key.split("-")
            for at in range(1, len(parts)):
                if parts[at].isdigit() and len(parts[at]) <= 5:
                    self.items.setdefault("-".join(parts[:at]), set()).add(int(parts[at]))
            group, extra = _extra_of(key)
            if extra:
                self.extra.setdefault(group, []).append((key, extra))

    def text(self, name: str) -> str | None:
        value = self.form.get(name)
        return value.replace("\r\n", "\n").strip() if isinstance(value, str) else None

    def yaml(self, text: str, loc: Loc) -> Any:
        """A box read as YAML (`12`, `Melee`, `[{set: save, to: 3}]`); what YAML can't read,
        or what is too big or too deep for a pack, is kept as the text typed, for the check
        to name."""
        text = text.replace("\r\n", "\n").strip()
        if not text:
            return ABSENT
        try:
            return parse_yaml(text, "form", PACK, self.tally)
        except DataLoadError as exc:
            if any(e.message.startswith(_REFUSED) for e in exc.errors):
                self.refused.append(Refused(loc, exc.errors[0]))
            return Typed(text)

    def read(self, spec: Spec, name: str, loc: Loc) -> Any:
        typed = self.text(join(name, "_yaml"))
        if typed is not None:  # a value drawn as YAML because it did not fit its box
            return self.yaml(typed, loc)
        typed = self.text(name)
        match spec.kind:
            case "group":
                return self.group(spec, name, loc)
            case "list":
                return self.list(spec, name, loc)
            case "check":
                return typed is not None
            case "number":
                if not typed:
                    return ABSENT
                return int(typed) if re.fullmatch(_WHOLE, typed) else typed
            case "select":
                if not typed:
                    return ABSENT
                return next((o for o in spec.options if str(o) == typed), typed)
            case "names":
                names = [n.strip() for n in (typed or "").split(",") if n.strip()]
                if spec.numbers:
                    return [int(n) if re.fullmatch(_WHOLE, n) else n for n in names]
                return names
            case "yaml":
                return self.yaml(typed or "", loc)
            case _:
                return typed or ABSENT

    def group(self, spec: Spec, name: str, loc: Loc) -> Any:
        kept = self.yaml(self.text(join(name, "_keep")) or "", loc)
        kept = {k: v for k, v in kept.items() if _empty(v)} if isinstance(kept, dict) else {}
        out: dict[str, Any] = {}
        for s in spec.fields:
            value = self.read(s, join(name, s.key), (*loc, s.key))
            if value is ABSENT or _empty(value):
                if s.key in kept:
                    out[s.key] = kept[s.key]
                continue
            out[s.key] = value
        out.update(self.extras(name, loc))
        # an item of a list is kept even empty (just added); an empty group is left out
        return out if out or name.rpartition("-")[2].isdigit() else ABSENT

    def list(self, spec: Spec, name: str, loc: Loc) -> Any:
        assert spec.item is not None
        out: list[Any] = []
        for i in sorted(self.items.get(name, ())):
            item = join(name, i)
            if self.action == f"remove:{item}":
                continue
            value = self.read(spec.item, item, (*loc, len(out)))
            if value is not ABSENT:
                out.append(value)
        if self.action == f"add:{name}":
            out.append({})
        return out

    def extras(self, name: str, loc: Loc) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, extra in self.extra.get(name, ()):
            value = self.yaml(self.text(key) or "", (*loc, extra))
            if value is not ABSENT:
                out[extra] = value
        return out


def _extra_of(key: str) -> tuple[str, str]:
    """The group a posted `_extra-<key>` box belongs to, and its key ("" when it is none):
    `datasheets-0-_extra-my key` -> `datasheets-0`, `my key`. No group's flat key holds
    `_extra-`, so the first one ends it."""
    if key.startswith("_extra-"):
        return "", key[len("_extra-"):]
    group, found, extra = key.partition("-_extra-")
    return (group, extra) if found and group else ("", "")


# the refusals of the limits' pass (engine/yaml_limits.py) that the pack's own check can't
# repeat once the box is kept as text: the rest (not YAML, a bad date) it names by itself
_REFUSED = ("the file holds more than", "nested more than", "the alias *")


def focus_after(spec: Spec, action: str, data: Mapping[str, Any]) -> str:
    """The id of the box to put the player in after an add (the new item's first box) or a
    remove (the list's Add button): without it a page drawn again starts at its top."""
    verb, _, name = action.partition(":")
    if verb == "remove" and "-" in name:
        return box_id(name.rsplit("-", 1)[0]) + "-add"
    if verb != "add" or not name:
        return ""
    value: Any = data
    here: Spec | None = spec
    for part in name.split("-"):
        if here is None:
            return ""
        if part.isdigit():
            value = value[int(part)] if isinstance(value, list) and int(part) < len(value) \
                else None
            here = here.item
        else:
            value = value.get(part) if isinstance(value, dict) else None
            here = next((s for s in here.fields if s.key == part), None)
    if here is None or here.item is None or not isinstance(value, list) or not value:
        return ""
    item = join(name, len(value) - 1)
    first = next(iter(here.item.fields), None)
    return box_id(join(item, first.key)) if first and first.kind not in ("group", "list") \
        else box_id(item)


def faction_names(data: Mapping[str, Any] | None, builtin: Iterable[str]) -> tuple[str, ...]:
    """What a unit's faction box suggests: the pack's own factions (as its boxes hold them
    now, named or not yet), then the game's built-in ones, each once."""
    own = data.get("factions") if data is not None else None
    names = [f["name"].strip() for f in own if isinstance(f, dict)
             and isinstance(f.get("name"), str) and f["name"].strip()] \
        if isinstance(own, list) else []
    return tuple(dict.fromkeys([*names, *builtin]))


# -- data -> the pack's text --------------------------------------------------------------

def form_values(drawn: Drawn) -> dict[str, str]:
    """What a browser posts for the form as drawn, untouched: checked boxes only, as `on`."""
    out: dict[str, str] = {}

    def walk(f: Field) -> None:
        if f.kind == "group":
            if f.keep:
                out[join(f.name, "_keep")] = f.keep
            for child in (*f.children, *f.extras):
                walk(child)
        elif f.kind == "list":
            for child in f.children:
                walk(child)
        elif f.kind == "check":
            if f.checked:
                out[f.name] = "on"
        else:
            out[f.name] = f.value

    if drawn.keep:
        out["_keep"] = drawn.keep
    for f in drawn.fields:
        walk(f)
    return out


def leading_comments(text: str) -> str:
    """A pack's opening comment lines: the form writes them back above what it rebuilds."""
    lines = []
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        lines.append(line)
    return "".join(f"{line}\n" for line in lines)


def pack_text(data: Mapping[str, Any], header: str = "") -> str:
    """The pack's data as its file: each section a block, each short record (a weapon, an
    attack, a unit's model counts) on one line, as the games' data files are written."""
    if not data:
        return header
    return header + _dump(dict(data))


def flow(value: Any) -> str:
    """One value on one line, as YAML (`Melee`, `12`, `'12'`, `[{set: save, to: 3}]`)."""
    text = yaml.dump(value, Dumper=_FlowDumper, default_flow_style=True, allow_unicode=True,
                     sort_keys=False, width=10**6)
    return text.removesuffix("\n...\n").removesuffix("\n")


class _FlowDumper(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:
        return True


_FlowDumper.add_representer(Typed, yaml.SafeDumper.represent_str)


class _Dumper(yaml.SafeDumper):
    """Lists indented under their key, as the data files write them; nothing written twice
    as an anchor and an alias (a pack is read by people)."""

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        super().increase_indent(flow, False)

    def ignore_aliases(self, data: Any) -> bool:
        return True

    def represent(self, data: Any) -> None:
        node = self.represent_data(data)
        _style(node, 0, 0, top=True)
        self.serialize(node)
        self.represented_objects = {}
        self.object_keeper = []
        self.alias_key = None


_Dumper.add_representer(Typed, yaml.SafeDumper.represent_str)


def _dump(value: Any) -> str:
    return yaml.dump(value, Dumper=_Dumper, allow_unicode=True, sort_keys=False, width=WIDTH)


def _style(node: yaml.Node, indent: int, start: int, top: bool = False) -> None:
    """Flow style for what fits on one line and holds no record of records; block otherwise.
    `indent` is where a block mapping's keys go (a block list's parent key, for a list), and
    `start` where the node begins on its line."""
    if isinstance(node, yaml.SequenceNode):
        node.flow_style = not top and all(isinstance(n, yaml.ScalarNode) for n in node.value)
        if not node.flow_style:
            for item in node.value:  # "- " two past the parent key
                _style(item, indent + 4, indent + 4)
    elif isinstance(node, yaml.MappingNode):
        simple = all(_flat(v) for _k, v in node.value)
        node.flow_style = not top and simple and start + _width(node) <= WIDTH
        if not node.flow_style:
            for key, value in node.value:
                at = indent + _width(key) + 2
                _style(value, indent if isinstance(value, yaml.SequenceNode) else indent + 2,
                       at)


def _flat(node: yaml.Node) -> bool:
    if isinstance(node, yaml.ScalarNode):
        return "\n" not in str(node.value)
    return isinstance(node, yaml.SequenceNode) and all(
        isinstance(n, yaml.ScalarNode) and "\n" not in str(n.value) for n in node.value)


def _width(node: yaml.Node) -> int:
    """About how wide a node is written in flow style (quotes allowed for)."""
    if isinstance(node, yaml.ScalarNode):
        text = str(node.value)
        quoted = not text or any(c in text for c in ",:#[]{}'\"&*!|>%@`") or text != text.strip()
        return len(text) + (2 if quoted else 0)
    if isinstance(node, yaml.SequenceNode):
        return 2 + sum(_width(n) + 2 for n in node.value) - (2 if node.value else 0)
    assert isinstance(node, yaml.MappingNode)
    return 2 + sum(_width(k) + _width(v) + 4 for k, v in node.value) - (
        2 if node.value else 0)


# -- the pack's text -> data --------------------------------------------------------------

def pack_data(text: str, file: str) -> dict[str, Any]:
    """A pack's text as data for the form; DataLoadError (line and fix) when the text is not
    YAML, or not a mapping of sections, which the form can't show."""
    data = parse_yaml(text, file, PACK)
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise DataLoadError([DataError(file, (), "the file is not a mapping of sections "
                                                 "(factions:, units: and so on)", 1)])
    return data

