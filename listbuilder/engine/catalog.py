"""YAML -> schema check -> catalog models, with errors that name file, line and key path.

Every YAML file under `data/<system>/` (and the player's own folder, `LISTBUILDER_DATA`) is read
with the safe C loader, checked against the system's `data_schema` and handed to the system's
`build_catalog`. Built-in data must load; a broken custom file is reported and left out.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from listbuilder.engine.errors import DataError, DataLoadError, Loc
from listbuilder.engine.model import Catalog, Origin
from listbuilder.engine.system import RuleSystem, SourceFile
from listbuilder.engine.yaml_limits import DATA, Limits, SafeLoader, Tally, check_limits
from listbuilder.locations import instance_folder

M = TypeVar("M", bound=BaseModel)
# problems of one data file or pack described: a pack of 128 KB can hold 64,000 wrong values,
# whose words (each with its line) cost more than reading the pack and fill megabytes of page
MAX_LISTED = 50


def custom_data_dir() -> Path:
    """The player's own data folder: `LISTBUILDER_DATA`, else `data/` in the instance folder."""
    configured = os.environ.get("LISTBUILDER_DATA")
    return Path(configured) if configured else instance_folder() / "data"


@dataclass(frozen=True)
class Loaded:
    catalog: Catalog
    problems: tuple[DataError, ...] = ()  # custom files left out, and why
    # what the catalog was built from, so a faction pack can be built on top (engine/packs.py)
    files: tuple[SourceFile, ...] = ()
    texts: tuple[tuple[str, str], ...] = ()
    parts: tuple[tuple[str, bytes], ...] = ()


# -- YAML with line numbers -------------------------------------------------------------------

def parse_yaml(text: str, file: str, limits: Limits | None = None,
               tally: Tally | None = None) -> Any:
    """Parse YAML safely; a syntax error becomes a DataLoadError with its line. With `limits`
    (files from strangers), the text is checked against them before anything is built; with
    `tally`, together with the texts counted there before (`check_limits`)."""
    if limits is not None:
        check_limits(text, file, limits, tally)
    try:
        return yaml.load(text, Loader=SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        raise DataLoadError([DataError(file, (), f"not valid YAML: {exc.problem}", line)]) from exc
    except yaml.YAMLError as exc:
        raise DataLoadError([DataError(file, (), f"not valid YAML: {exc}")]) from exc
    except (ValueError, OverflowError, RecursionError, ArithmeticError, LookupError,
            AttributeError, TypeError) as exc:  # a value the loader can't build
        raise DataLoadError([DataError(file, (), f"a value could not be read ({exc}); put "
                                                 f"quotes around it if it is text")]) from exc


class Locator:
    """Lines of key paths in one YAML text; the text is composed once, on first use."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._root: yaml.Node | None = None
        self._composed = False

    def __call__(self, loc: Loc) -> int | None:
        """1-based line of the node at `loc` (or of its nearest existing parent)."""
        if not self._composed:
            self._composed = True
            try:
                self._root = yaml.compose(self.text, Loader=SafeLoader)
            except (yaml.YAMLError, ValueError, RecursionError):
                self._root = None
        node = self._root
        if node is None:
            return None
        line: int = node.start_mark.line + 1
        for part in loc:
            if isinstance(node, yaml.MappingNode):
                match = next(((k, v) for k, v in node.value if k.value == str(part)), None)
                if match is None:
                    return line
                key, node = match
                line = key.start_mark.line + 1
            elif isinstance(node, yaml.SequenceNode) and isinstance(part, int):
                if not 0 <= part < len(node.value):
                    return line
                node = node.value[part]
                line = node.start_mark.line + 1
            else:
                return line
        return line


def describe_pydantic_error(err: Any) -> str:
    kind = err.get("type", "")
    msg = str(err.get("msg", "invalid"))
    given = err.get("input")
    if kind == "extra_forbidden":
        return "unknown key: remove it or check its spelling"
    if kind == "missing":
        return "required key is missing: add it"
    if kind.startswith("value_error") or kind == "assertion_error":
        msg = msg.removeprefix("Value error, ").removeprefix("Assertion failed, ")
        return msg
    if given is not None and not isinstance(given, dict | list):
        return f"{msg[:1].lower()}{msg[1:]}, got {given!r}"
    return msg[:1].lower() + msg[1:]


def schema_errors(exc: ValidationError, text: str, file: str, prefix: Loc = (),
                  describe: Callable[[Any], str] = describe_pydantic_error,
                  most: int | None = None) -> list[DataError]:
    """Every schema problem in players' words with its line; with `most`, the first `most`
    and one more line that counts the rest."""
    where = Locator(text)
    out = []
    errors = exc.errors(include_url=False)  # a link per problem: a fifth of their memory
    for err in errors[:most]:
        loc = prefix + tuple(err["loc"])
        out.append(DataError(file, loc, describe(err), where(loc)))
    if most is not None and len(errors) > most:
        out.append(DataError(file, (), f"and {len(errors) - most:,} more problems like these: "
                                       f"fix the ones above and check again"))
    return out


def check_document(schema: type[M], text: str, file: str, limits: Limits | None = None) -> M:
    """Parse and schema-check one YAML document; raise DataLoadError naming every problem."""
    data = parse_yaml(text, file, limits)
    if data is None:
        data = {}
    try:
        return schema.model_validate(data)
    except ValidationError as exc:
        raise DataLoadError(schema_errors(exc, text, file, most=MAX_LISTED)) from exc


# -- catalogs ---------------------------------------------------------------------------------

def _yaml_files(folder: Path) -> Iterator[Path]:
    if folder.is_dir():
        yield from sorted(p for p in folder.rglob("*") if p.suffix in (".yaml", ".yml"))


def _display(path: Path) -> str:
    """A player's file as they would type it: relative to the folder they run from, if inside."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _read(system: RuleSystem, path: Path, custom: bool, file: str) -> tuple[SourceFile, str,
                                                                             bytes]:
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataLoadError([DataError(file, (), "not UTF-8 text: save it as UTF-8")]) from exc
    return read_source(system, text, file, custom), text, raw


def read_source(system: RuleSystem, text: str, file: str, custom: bool = True,
                limits: Limits = DATA) -> SourceFile:
    """One data file's text, parsed and schema-checked, ready to build into a catalog.
    `limits`: a player's own files are held to DATA, faction packs to the tighter PACK."""
    # the built-in data is ours and loads fast, without the limits' pass
    doc = check_document(system.data_schema, text, file, limits if custom else None)
    sample = bool(getattr(doc, "sample", False))
    return SourceFile(Origin(file=file, custom=custom, sample=sample), doc)


def _with_lines(err: DataLoadError, texts: dict[str, str]) -> DataLoadError:
    where = {file: Locator(text) for file, text in texts.items()}
    fixed = [
        e if e.line is not None or e.file not in texts
        else replace(e, line=where[e.file](e.loc))
        for e in err.errors
    ]
    return DataLoadError(fixed)


def _revision(parts: Sequence[tuple[str, bytes]]) -> str:
    digest = hashlib.sha256()
    for name, raw in parts:
        digest.update(name.encode() + b"\0" + raw + b"\0")
    return digest.hexdigest()[:12]


def load_catalog(
    system: RuleSystem,
    builtin_dir: Path | None = None,
    custom_dir: Path | None = None,
) -> Loaded:
    """Load one system's catalog: built-in data (must be valid), then each custom file that is.
    The built-in data is the system package's own `data/`, or `builtin_dir/<id>/` if given."""
    folder = builtin_dir / system.id if builtin_dir else system.data_folder()

    def builtin_name(path: Path) -> str:
        relative = path.relative_to(folder).as_posix()
        return _display(path) if builtin_dir else system.data_label(relative)
    custom_folder = (custom_dir if custom_dir is not None else custom_data_dir()) / system.id
    errors: list[DataError] = []
    files: list[SourceFile] = []
    texts: dict[str, str] = {}
    parts: list[tuple[str, bytes]] = []
    for path in _yaml_files(folder):
        try:
            source, text, raw = _read(system, path, False, builtin_name(path))
        except DataLoadError as exc:
            errors.extend(exc.errors)
            continue
        files.append(source)
        texts[source.origin.file] = text
        parts.append((path.relative_to(folder).as_posix(), raw))
    if not files and not errors:
        where = _display(folder) if builtin_dir else system.data_label("")
        errors.append(DataError(where, (), "no data files found for this system"))
    if errors:
        raise DataLoadError(errors)
    try:
        catalog = system.build_catalog(files, _revision(parts))
    except DataLoadError as exc:
        raise _with_lines(exc, texts) from exc

    loaded = Loaded(catalog, (), tuple(files), tuple(texts.items()), tuple(parts))
    problems: list[DataError] = []
    for path in _yaml_files(custom_folder):
        try:
            source, text, raw = _read(system, path, True, _display(path))
            loaded = with_file(system, loaded, source, text,
                               "custom/" + path.relative_to(custom_folder).as_posix(), raw)
        except DataLoadError as exc:
            problems.extend(exc.errors)
    return replace(loaded, problems=tuple(problems))


def with_file(system: RuleSystem, loaded: Loaded, source: SourceFile, text: str, part: str,
              raw: bytes) -> Loaded:
    """`loaded` with one more file (a player's own, or a faction pack) built in; a file that
    does not fit (a duplicate name, an unknown rule) raises DataLoadError with its lines."""
    texts = {**dict(loaded.texts), source.origin.file: text}
    parts = [*loaded.parts, (part, raw)]
    try:
        catalog = system.build_catalog([*loaded.files, source], _revision(parts))
    except DataLoadError as exc:
        raise _with_lines(exc, texts) from exc
    return replace(loaded, catalog=catalog, files=(*loaded.files, source),
                   texts=tuple(texts.items()), parts=tuple(parts))
