"""The package's imports, read from the source with `ast`: no module imports itself round a
circle, and each part of the package imports only the parts below it (LAYERS).

Every import counts, wherever it stands: at module level, inside a function, under
`if TYPE_CHECKING:`. An import moved into a function still runs (and a circle through it still
breaks at some import order), so it is no way out of a circle here. `from pkg import name`
imports the module `pkg.name` where there is one, else `pkg`; relative imports are read as
Python reads them.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

import listbuilder

# Which part of the package may import which; each part may always import itself.
# docs/architecture.md describes these layers. A part is a top-level module or package of
# `listbuilder` ("listbuilder" is the package's own __init__); each rule system's package
# ("systems.<id>") is a part of its own, so one system never imports another, and none is
# imported by anything: the registry finds them through their entry points.
LAYERS: dict[str, frozenset[str]] = {
    "listbuilder": frozenset(),  # the version, nothing else
    "locations": frozenset(),  # plain standard library: the engine imports it
    "engine": frozenset({"locations"}),
    "systems": frozenset(),  # systems/__init__.py: a docstring
    "systems.*": frozenset({"engine"}),
    "templates_loader": frozenset({"engine", "locations"}),
    "printing": frozenset({"engine", "locations", "templates_loader"}),
    # the database: every table, the stores reached by links, the print cache, rate limits;
    # its administration (migrations, backup, liveness) in store/admin
    "store": frozenset({"engine", "locations"}),
    "settings": frozenset(),  # read from the environment: web servers and workers alike
    "processes": frozenset(),  # what every process we start shares (dies with its parent)
    # background jobs (prints on Huey): below the web, which asks, and the worker command
    "jobs": frozenset({"engine", "printing", "store", "processes"}),
    # the web app: everything below the commands and the testing kit
    "web": frozenset({"listbuilder", "locations", "engine", "templates_loader", "printing",
                      "store", "jobs", "settings"}),
    "testing": frozenset({"engine", "printing", "web"}),  # the contract systems' tests call
    # the command line, serving (gunicorn, nginx in front) and the worker: everything but
    # the games
    "commands": frozenset({"listbuilder", "locations", "engine", "templates_loader",
                           "printing", "store", "jobs", "web", "settings", "processes"}),
    "__main__": frozenset({"commands"}),  # `python -m listbuilder`
}

PACKAGE = Path(listbuilder.__file__).resolve().parent
ROOT = PACKAGE.parent


@dataclass(frozen=True)
class Import:
    """One module naming another in an import statement."""

    source: str  # the importing module
    target: str  # the module imported: the longest name of the package it gives
    name: str  # the name as written, made absolute
    path: Path
    line: int

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _named(name: str) -> str | None:
    """The module of the package that importing `name` runs last: `name` itself, or the
    longest part of it that is a module (a name imported from it). None outside the package."""
    known = modules()
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def _imports_of(module: str, path: Path) -> Iterator[Import]:
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module.split(".") if is_package else module.split(".")[:-1]
                package = package[:len(package) - node.level + 1]
                base = ".".join([*package, *([node.module] if node.module else [])])
            # `from pkg import module` imports that module; `from pkg import name`, pkg
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules() else base
                     for alias in node.names]
        else:
            continue
        for name in dict.fromkeys(names):  # `from pkg import a, b`: pkg once
            target = _named(name)
            if target is not None and target != module:
                yield Import(module, target, name, path, node.lineno)


@cache
def imports() -> tuple[Import, ...]:
    return tuple(found for module, path in modules().items()
                 for found in _imports_of(module, path))


def part(module: str) -> str:
    """The part of the package a module is in: see LAYERS."""
    names = module.split(".")
    if len(names) == 1:
        return "listbuilder"
    if names[1] == "systems" and len(names) > 2:
        return f"systems.{names[2]}"
    return names[1]


def rule(part_name: str) -> str:
    """The key of LAYERS that rules a part."""
    return "systems.*" if part_name.startswith("systems.") else part_name


# -- circles ------------------------------------------------------------------------------------


@cache
def circles() -> tuple[tuple[str, ...], ...]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    graph: dict[str, set[str]] = {m: set() for m in modules()}
    for found in imports():
        graph[found.source].add(found.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found_circles: list[tuple[str, ...]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found_circles.append(tuple(sorted(component)))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return tuple(found_circles)


def described(component: tuple[str, ...]) -> str:
    """A component as one circle through it, each import with its file and line, and the
    other imports inside the component."""
    members = set(component)
    inside = [i for i in imports() if i.source in members and i.target in members]
    # the shortest way back to the first module, breadth first
    start = component[0]
    came: dict[str, Import] = {}
    frontier = [start]
    while frontier and start not in came:
        following = []
        for module in frontier:
            for step in inside:
                if step.source == module and step.target not in came:
                    came[step.target] = step
                    following.append(step.target)
        frontier = following
    path: list[Import] = []
    at = start
    while True:
        step = came[at]
        path.append(step)
        at = step.source
        if at == start:
            break
    path.reverse()
    lines = [f"  {step.source} -> {step.target}  ({step.where})" for step in path]
    shown = {(step.source, step.target) for step in path}
    others = []
    for i in inside:  # each other import once, where it first stands
        if (i.source, i.target) not in shown:
            shown.add((i.source, i.target))
            others.append(i)
    if others:
        lines.append("  and within it:")
        lines += [f"  {i.source} -> {i.target}  ({i.where})" for i in others]
    return f"circle of {len(component)} modules:\n" + "\n".join(lines)


TOP_PARTS = sorted({module.split(".")[1] if "." in module else "listbuilder"
                    for module in modules()})


@pytest.mark.parametrize("top", TOP_PARTS)
def test_no_import_circle(top: str) -> None:
    """No module of this part is in a circle of imports (of any length, through any part)."""
    mine = [c for c in circles()
            if any((m.split(".")[1] if "." in m else "listbuilder") == top for m in c)]
    if mine:
        pytest.fail("\n\n".join(described(c) for c in mine), pytrace=False)


# -- layers -------------------------------------------------------------------------------------


def test_every_part_has_its_layer() -> None:
    unknown = sorted({rule(part(m)) for m in modules()} - LAYERS.keys())
    assert not unknown, f"parts with no entry in LAYERS (add them there, and to " \
                        f"docs/architecture.md): {', '.join(unknown)}"


def test_the_layers_form_no_circle() -> None:
    """The rules themselves: no two parts may import each other, however indirectly."""
    allowed = {name: {rule(p) for p in allowed} - {name} for name, allowed in LAYERS.items()}
    done: set[str] = set()

    def below(name: str, way: tuple[str, ...]) -> None:
        assert name not in way, f"LAYERS let a part import itself round: {' -> '.join(way)} " \
                                f"-> {name}"
        if name in done:
            return
        for other in sorted(allowed.get(name, ())):
            below(other, (*way, name))
        done.add(name)

    for name in sorted(allowed):
        below(name, ())


@pytest.mark.parametrize("layer", sorted(LAYERS))
def test_each_part_imports_only_what_its_layer_allows(layer: str) -> None:
    allowed = LAYERS[layer]
    wrong = [i for i in imports()
             if rule(part(i.source)) == layer and part(i.target) != part(i.source)
             and part(i.target) not in allowed]
    if wrong:
        pytest.fail(f"{layer} may import {', '.join(sorted(allowed)) or 'no other part'} "
                    f"(LAYERS), but:\n" + "\n".join(
                        f"  {i.where}: {i.source} imports {i.name} ({part(i.target)})"
                        for i in wrong), pytrace=False)


def test_the_walk_sees_every_kind_of_import(tmp_path: Path) -> None:
    """The walk itself: relative imports, `from pkg import module`, imports in a function and
    under TYPE_CHECKING, and names that are not modules."""
    (tmp_path / "sample.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "from . import model\n"  # a module of this package
        "from .errors import closest\n"  # a name of a module
        "from .. import locations, __version__\n"  # a module, and a name of the package
        "if TYPE_CHECKING:\n"
        "    from listbuilder.engine.effects import Effect\n"
        "def later():\n"
        "    import listbuilder.printing.render as render\n"
        "    from listbuilder.engine.nowhere import thing\n",  # no such module: its package
        encoding="utf-8")
    found = sorted((i.line, i.target) for i in
                   _imports_of("listbuilder.engine.sample", tmp_path / "sample.py"))
    assert found == [(2, "listbuilder.engine.model"), (3, "listbuilder.engine.errors"),
                     (4, "listbuilder"), (4, "listbuilder.locations"),
                     (6, "listbuilder.engine.effects"), (8, "listbuilder.printing.render"),
                     (9, "listbuilder.engine")]
    edges = {(i.source, i.target) for i in imports()}
    assert ("listbuilder.commands.cli", "listbuilder.commands.server") in edges  # inside a function


# -- inside the web app: features on a shared layer ------------------------------------------

WEB_FEATURES = ("builder", "home", "studio", "prints", "resolve", "site", "table", "events")


def web_feature(module: str) -> str | None:
    """The feature package of web a module is in (web/<feature>/...), or None: the shared
    layer (web/*.py) and everything outside web."""
    names = module.split(".")
    if names[:2] != ["listbuilder", "web"] or len(names) < 3:
        return None
    return names[2] if names[2] in WEB_FEATURES else None


def test_every_web_package_is_a_known_feature() -> None:
    found = {m.split(".")[2] for m in modules()
             if m.startswith("listbuilder.web.") and modules()[m].name == "__init__.py"}
    assert found == set(WEB_FEATURES), "a feature package added or removed: update " \
                                       "WEB_FEATURES here and docs/architecture.md"


def test_the_shared_web_layer_imports_no_feature() -> None:
    """web/*.py is beneath the features: it may not reach up into one (create_app, in
    web/__init__.py, is what puts them together)."""
    wrong = [i for i in imports()
             if i.source.startswith("listbuilder.web") and web_feature(i.source) is None
             and i.source != "listbuilder.web" and web_feature(i.target) is not None]
    assert not wrong, "\n".join(f"{i.where}: {i.source} imports {i.name}" for i in wrong)


def test_a_features_views_are_its_own() -> None:
    """One feature may use what another offers in a module meant for it (prints/answers.py),
    never the other's views: a view module is imported only inside its own feature."""
    wrong = [i for i in imports()
             if (feature := web_feature(i.target)) is not None
             and i.target.endswith(".views") and web_feature(i.source) != feature]
    assert not wrong, "\n".join(f"{i.where}: {i.source} imports {i.name}" for i in wrong)


TOP_MODULES_AT_MOST = 7  # issue 51: the rest lives in packages named for what they do


def test_the_top_of_the_package_holds_few_modules() -> None:
    top = sorted(path.name for path in PACKAGE.glob("*.py"))
    assert len(top) <= TOP_MODULES_AT_MOST, top
    assert set(LAYERS) >= {path.stem for path in PACKAGE.glob("*.py")} - {"__init__"}
