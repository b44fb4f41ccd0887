"""The docs keep their promises: every rules note is pinned by a test that exists."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from listbuilder.engine.library import Library
from listbuilder.engine.registry import all_systems
from listbuilder.engine.report import report
from listbuilder.web.site.notes import anchors

ROOT = Path(__file__).resolve().parents[1]
NOTES = (ROOT / "docs" / "rules-notes.md").read_text()


def sections() -> list[str]:
    return re.split(r"^### ", NOTES, flags=re.M)[1:]


def test_every_reading_names_at_least_one_test() -> None:
    assert len(sections()) >= 40
    for section in sections():
        assert "Pinned by:" in section, section.splitlines()[0]


def test_every_named_test_exists() -> None:
    printing = (ROOT / "docs" / "printing.md").read_text()
    refs = re.findall(r"(tests/[\w/]+\.py)::(\w+)", NOTES + printing)
    assert len(refs) >= len(sections())
    for path, name in refs:
        source = (ROOT / path).read_text()
        assert re.search(rf"^def {name}\(", source, flags=re.M), f"{path}::{name} is missing"


def test_readme_opens_with_the_two_commands() -> None:
    readme = (ROOT / "README.md").read_text()
    block = readme.split("```")[1]
    commands = [line.split("#")[0].strip() for line in block.splitlines()[1:] if line.strip()]
    assert commands == ["make run", "make test"]


def _strings(node: ast.AST, constants: dict[str, str], helpers: dict[str, ast.FunctionDef],
             depth: int = 0) -> set[str]:
    """The strings an expression can give: literals, module constants, and what a helper
    function of the same module returns (one level down)."""
    out = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            out.add(sub.value)
        elif isinstance(sub, ast.Name) and sub.id in constants:
            out.add(constants[sub.id])
        elif (isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name)
              and sub.func.id in helpers and depth == 0):
            for ret in ast.walk(helpers[sub.func.id]):
                if isinstance(ret, ast.Return) and ret.value is not None:
                    out |= _strings(ret.value, constants, helpers, depth + 1)
    return out


def _readings_in_source() -> set[str]:
    """Every anchor the code names: the `readings` maps and each `reading=` argument."""
    found: set[str] = set()
    for path in (ROOT / "listbuilder").rglob("*.py"):
        tree = ast.parse(path.read_text())
        constants = {t.id: n.value.value for n in tree.body if isinstance(n, ast.Assign)
                     and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str)
                     for t in n.targets if isinstance(t, ast.Name)}
        helpers = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
        for node in ast.walk(tree):
            if isinstance(node, ast.keyword) and node.arg == "reading":
                found |= _strings(node.value, constants, helpers)
            elif isinstance(node, ast.AnnAssign | ast.Assign) and isinstance(node.value, ast.Dict):
                targets = [node.target] if isinstance(node, ast.AnnAssign) else node.targets
                if any(isinstance(t, ast.Name) and t.id == "readings" for t in targets):
                    found |= {v.value for v in node.value.values if isinstance(v, ast.Constant)}
    return found


def test_every_reading_a_system_names_is_a_heading_here(library: Library) -> None:
    here = anchors(ROOT / "docs" / "rules-notes.md")
    named = _readings_in_source()
    assert len(named) >= 20  # the scan finds the readings, not nothing
    for system in all_systems():
        named |= set(system.readings.values())
    for path in sorted((ROOT / "examples").glob("*/*.yaml")):
        if path.name == "match.yaml":  # a match, not a roster: test_match_play.py reads it
            continue
        loaded = library.read_roster(path.read_text(), str(path))
        named |= {v.reading for v in report(loaded.system, loaded.catalog, loaded.roster).violations
                  if v.reading}
    assert sorted(slug for slug in named if slug not in here) == []


def test_anchors_follow_githubs_rule() -> None:
    here = anchors(ROOT / "docs" / "rules-notes.md")
    assert here["what-about-games-under-1000-or-500-pts"] == (
        "What about games under 1000 (or 500) pts?")
    assert "blast--and-fixed-attacks" in here  # backticks and * dropped, spaces kept as -
    assert "hammer-wars" in here and "rules-notes" in here


def test_the_shipped_nginx_site_is_what_proxy_config_prints() -> None:
    """docs/deploying.md ships docs/nginx-listbuilder.conf; the HTTPS browser test runs the
    same command's output (with its own ports and certificate)."""
    from click.testing import CliRunner

    from listbuilder.commands.cli import main

    printed = CliRunner().invoke(main, ["proxy-config", "--lanes", "8001", "--workers", "2"])
    assert printed.exit_code == 0, printed.output
    assert (ROOT / "docs" / "nginx-listbuilder.conf").read_text(encoding="utf-8") == printed.output
