"""The `listbuilder` command: systems, catalog, validate, export, schema."""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

import click

from listbuilder.engine.errors import DataLoadError
from listbuilder.engine.library import Library
from listbuilder.engine.model import Origin
from listbuilder.engine.registry import SYSTEMS, get_system, system_ids
from listbuilder.engine.roster_file import (
    RosterFileError,
    data_changes,
    dump_roster,
    roster_json_schema,
)

EXIT_ILLEGAL = 1
EXIT_UNREADABLE = 2


def _fail(errors: DataLoadError, code: int = EXIT_UNREADABLE) -> None:
    for error in errors.errors:
        click.echo(str(error), err=True)
    sys.exit(code)


def _jsonable(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    return value


@click.group()
@click.version_option(package_name="listbuilder")
@click.pass_context
def main(ctx: click.Context) -> None:
    """Army lists and printable cards for one-page tabletop wargames."""
    ctx.obj = Library()


@main.command()
def systems() -> None:
    """List each system's id and name."""
    for system in SYSTEMS:
        click.echo(f"{system.id:<14}{system.name}")


@main.command()
@click.argument("system_id", metavar="SYSTEM")
@click.option("--json", "as_json", is_flag=True, help="Everything loaded, as JSON.")
@click.pass_obj
def catalog(library: Library, system_id: str, as_json: bool) -> None:
    """Show everything loaded for SYSTEM: units, factions, rules, decks and tables."""
    try:
        system = get_system(system_id)
        loaded = library.loaded(system)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="SYSTEM") from None
    except DataLoadError as exc:
        _fail(exc)
        return
    for problem in loaded.problems:
        click.echo(f"skipped custom data: {problem}", err=True)
    cat = loaded.catalog
    if as_json:
        click.echo(json.dumps(_jsonable(cat), indent=1, ensure_ascii=False))
        return
    click.echo(f"{system.name} (data revision {cat.revision})")
    click.echo(f"  {len(cat.factions)} factions, {len(cat.units)} units, {len(cat.rules)} rules, "
               f"{len(cat.decks)} decks")
    def mark(origin: Origin) -> str:
        return " [custom]" if origin.custom else (" [sample]" if origin.sample else "")

    shared = [u for u in cat.units if u.faction is None]
    if shared:
        click.echo("\nUnits (any faction)")
        for unit in shared:
            click.echo(f"  {unit.name}{mark(unit.origin)}")
    for faction in cat.factions:
        units = cat.units_of(faction.name)
        click.echo(f"\n{faction.name}{mark(faction.origin)}" + ("" if units else " (no own units)"))
        for unit in units:
            click.echo(f"  {unit.name}{mark(unit.origin)}")
    for deck in cat.decks:
        click.echo(f"\nDeck: {deck.name} ({deck.size} cards, {len(deck.cards)} kinds)")


@main.command()
@click.argument("roster", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Totals and violations as JSON.")
@click.pass_obj
def validate(library: Library, roster: Path, as_json: bool) -> None:
    """Check ROSTER.yaml. Exit 0 legal (warnings allowed), 1 illegal, 2 unreadable."""
    try:
        text = roster.read_text(encoding="utf-8")
        loaded = library.read_roster(text, str(roster))
    except (OSError, UnicodeDecodeError) as exc:
        click.echo(f"{roster}: cannot read the file: {exc}", err=True)
        sys.exit(EXIT_UNREADABLE)
    except RosterFileError as exc:
        _fail(exc)
        return
    except DataLoadError as exc:
        _fail(exc)
        return
    system, cat, r = loaded.system, loaded.catalog, loaded.roster
    found = system.validate(cat, r)
    totals = system.totals(cat, r)
    changes = data_changes(r, system, cat)
    illegal = any(v.severity == "error" for v in found)
    if as_json:
        click.echo(json.dumps({
            "system": system.id, "name": r.name, "legal": not illegal,
            "points": totals.points, "points_limit": totals.points_limit,
            "cost_unit": system.cost_unit,
            "summary": dict(totals.lines), "changes": changes,
            "violations": [dataclasses.asdict(v) for v in found],
        }, indent=1, ensure_ascii=False))
    else:
        limit = f" / {totals.points_limit}" if totals.points_limit else ""
        click.echo(f"{r.name} ({system.name}): {totals.points}{limit} {system.cost_unit}")
        for label, value in totals.lines:
            click.echo(f"  {label}: {value}")
        for change in changes:
            click.echo(f"changed since saved: {change}")
        for v in found:
            click.echo(f"{v.rule}: {v.message}" + (" (warning)" if v.severity == "warning" else ""))
        click.echo("illegal" if illegal else "legal")
    sys.exit(EXIT_ILLEGAL if illegal else 0)


@main.command()
@click.argument("roster", type=click.Path(dir_okay=False, exists=True, path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write here instead of standard output.")
@click.pass_obj
def export(library: Library, roster: Path, output: Path | None) -> None:
    """Write ROSTER.yaml back in canonical form, with today's costs and data revision."""
    try:
        loaded = library.read_roster(roster.read_text(encoding="utf-8"), str(roster))
    except DataLoadError as exc:
        _fail(exc)
        return
    text = dump_roster(loaded.roster, loaded.system, loaded.catalog)
    if output:
        output.write_text(text, encoding="utf-8")
    else:
        click.echo(text, nl=False)


@main.command()
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write here instead of standard output.")
def schema(output: Path | None) -> None:
    """Print the JSON Schema of roster files (docs/roster.schema.json)."""
    text = json.dumps(roster_json_schema(system_ids()), indent=2) + "\n"
    if output:
        output.write_text(text, encoding="utf-8")
    else:
        click.echo(text, nl=False)
