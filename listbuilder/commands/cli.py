"""The `listbuilder` command: systems, catalog, validate, export, schema."""

from __future__ import annotations

import atexit
import dataclasses
import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import click
from pydantic import BaseModel

from listbuilder.commands.db import db
from listbuilder.commands.worker import spawn_workers, worker
from listbuilder.engine.errors import DataLoadError
from listbuilder.engine.events.sealing import seal
from listbuilder.engine.library import Library
from listbuilder.engine.model import Catalog, Origin, Roster
from listbuilder.engine.registry import all_systems, get_system, system_ids
from listbuilder.engine.report import EntryReport, report
from listbuilder.engine.roster_file import dump_roster, roster_json_schema
from listbuilder.engine.system import RuleSystem, message_line

EXIT_ILLEGAL = 1
EXIT_UNREADABLE = 2


def _fail(errors: DataLoadError, code: int = EXIT_UNREADABLE) -> NoReturn:
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
    if isinstance(value, BaseModel):  # an upgrade's effect: as the data writes it
        return value.model_dump(by_alias=True)
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
    for system in all_systems():
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


def _entry_json(system: RuleSystem, catalog: Catalog, view: EntryReport) -> dict[str, object]:
    """An entry as listed, and its unit as fielded (null for a unit the data lacks, and in a
    system without upgrades)."""
    entry, unit = view.entry, view.unit
    fielded = system.fielded(catalog, unit, entry) if unit is not None else None
    return {"unit": entry.unit, "count": entry.count, "upgrades": list(entry.upgrades),
            "cost": view.cost if unit is not None else None,
            "fielded": fielded.to_json() if fielded is not None else None}


@main.command()
@click.argument("roster", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True,
              help="Totals, violations and each entry as fielded, as JSON.")
@click.pass_obj
def validate(library: Library, roster: Path, as_json: bool) -> None:
    """Check ROSTER.yaml. Exit 0 legal (warnings allowed), 1 illegal or empty, 2 unreadable."""
    try:
        loaded = library.read_roster_file(roster)
    except DataLoadError as exc:  # a RosterFileError too: the file is no roster
        _fail(exc)
    system, cat, r = loaded.system, loaded.catalog, loaded.roster
    assessed = report(system, cat, r)
    found, totals, sections = assessed.violations, assessed.totals, assessed.sections
    status, changes = assessed.status, assessed.changes
    if as_json:
        click.echo(json.dumps({
            "system": system.id, "name": r.name, "legal": status.state == "legal",
            "status": status.state, "total": totals.headline,
            "points": totals.points, "points_limit": totals.points_limit,
            "cost_unit": system.cost_unit,
            "summary": dict(totals.lines), "notes": list(totals.notes),
            "sections": {s.title: dict(s.lines) for s in sections}, "changes": changes,
            "violations": [dataclasses.asdict(v) for v in found],
            "entries": [_entry_json(system, cat, e) for e in assessed.entries],
        }, indent=1, ensure_ascii=False))
    else:
        click.echo(f"{r.name} ({system.name}): {totals.headline}")
        for label, value in totals.lines:
            click.echo(f"  {label}: {value}")
        for note in totals.notes:
            click.echo(f"  note: {note}")
        for section in sections:
            click.echo(f"{section.title}:")
            for label, value in section.lines:
                click.echo(f"  {label}: {value}")
        for change in changes:
            click.echo(f"changed since saved: {change}")
        for v in found:
            click.echo(f"{v.rule}: {message_line(v)}"
                       + (" (warning)" if v.severity == "warning" else ""))
        click.echo({"legal": "legal", "illegal": "illegal"}.get(
            status.state, f"empty: {status.empty_text}"))
    sys.exit(0 if status.state == "legal" else EXIT_ILLEGAL)


@main.command()
@click.argument("roster", type=click.Path(dir_okay=False, exists=True, path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write here instead of standard output.")
@click.pass_obj
def export(library: Library, roster: Path, output: Path | None) -> None:
    """Write ROSTER.yaml back in canonical form, with today's costs and data revision."""
    try:
        loaded = library.read_roster_file(roster)
    except DataLoadError as exc:
        _fail(exc)
    text = dump_roster(loaded.roster, loaded.system, loaded.catalog)
    if output:
        output.write_text(text, encoding="utf-8")
    else:
        click.echo(text, nl=False)


@main.command()
@click.argument("roster", type=click.Path(dir_okay=False, exists=True, path_type=Path))
@click.pass_obj
def verify(library: Library, roster: Path) -> None:
    """Print the SHA-256 an event seals ROSTER.yaml with (that of its canonical file, as
    `export` writes it), its data revision and its verdict, to check a copy offline."""
    try:
        loaded = library.read_roster_file(roster)
    except DataLoadError as exc:
        _fail(exc)
    sealed = seal(loaded)
    click.echo(f"{loaded.roster.name} ({loaded.system.name})")
    click.echo(f"sha256: {sealed.sha256}")
    click.echo(f"data revision: {sealed.data_revision}")
    click.echo(sealed.state)
    for problem in sealed.problems:
        click.echo(f"  {problem}")


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


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=5000, show_default=True, type=click.IntRange(1, 65535),
              help="Port to listen on.")
@click.option("--workers", type=click.IntRange(1), default=None,
              help="Worker processes  [default: LISTBUILDER_WORKERS, else one a core]")
@click.option("--threads", type=click.IntRange(1), default=None,
              help="Threads in each worker  [default: LISTBUILDER_THREADS, else 2]")
@click.option("--lanes", type=click.IntRange(1, 65535), default=None,
              help="Each worker also listens on a port of its own, from this one up (one a "
                   "worker), for nginx to balance: see `proxy-config --lanes`  [default: "
                   "LISTBUILDER_LANES, else none]")
@click.option("--access-log", is_flag=True, help="Log every request to standard output.")
@click.option("--front", is_flag=True,
              help="Start nginx on --host/--port in front of gunicorn (on a loopback port of "
                   "its own), so slow clients never hold up the app: what make run does. "
                   "Leave it out behind your own proxy.")
@click.option("--debug", is_flag=True,
              help="Werkzeug's development server instead: one process, reloads on code "
                   "changes, shows debug pages. Never for players.")
@click.option("--printers", type=click.IntRange(0, 64), default=1, show_default=True,
              help="Prints laid out at once by the `listbuilder worker` started beside the "
                   "server, at a lower CPU priority; 0 for none (workers run elsewhere).")
def serve(host: str, port: int, workers: int | None, threads: int | None, lanes: int | None,
          access_log: bool, front: bool, debug: bool, printers: int) -> None:
    """Run the browser builder with gunicorn (rosters saved under instance/, or at
    DATABASE_URL; run `listbuilder db upgrade` first, as make run does)."""
    from listbuilder import locations
    from listbuilder.store.admin import liveness, migrations

    # The database's serving lock (store/admin/liveness.py), taken before the app reads the
    # database and held while this process serves. gunicorn's workers, forked from this
    # process, inherit it: `db restore` refuses while the master or any worker lives, and the
    # kernel drops it when the last of them ends, however it ends.
    try:
        serving = liveness.hold_serving_lock(migrations.configured_url(),
                                             locations.instance_folder())
    except liveness.RestoreUnderWay as refused:
        click.echo(str(refused), err=True)
        sys.exit(1)
    try:
        _serve(host, port, workers, threads, lanes, access_log, front, debug,
               lambda: spawn_workers(printers, holding=serving.fileno()))
    finally:
        serving.release()


def _serve(host: str, port: int, workers: int | None, threads: int | None, lanes: int | None,
           access_log: bool, front: bool, debug: bool,
           start_printers: Callable[[], subprocess.Popen[bytes] | None]) -> None:
    from listbuilder.commands import server
    from listbuilder.commands.front import FrontError
    from listbuilder.store.admin import migrations
    from listbuilder.web import create_app

    try:
        app = create_app()
    except migrations.SchemaNotCurrent as refused:
        click.echo(str(refused), err=True)
        sys.exit(1)
    if debug:
        # the reloader's child serves; the worker belongs to the process that stays
        if os.environ.get("WERKZEUG_RUN_MAIN") != "true":
            _stop_with_exit(start_printers())
        click.echo(f"Listbuilder (development server) at http://{host}:{port}/")
        server.hide_tokens_in_logs()  # Werkzeug's request lines too: no token in any log
        app.run(host=host, port=port, debug=True, use_reloader=True)
        return
    try:
        workers = workers or server.default_workers()
        threads = threads or server.default_threads()
        lanes = None if front else lanes or server.default_lanes()  # a front has its own
    except ValueError as bad:
        click.echo(str(bad), err=True)
        sys.exit(2)
    if not server.port_free(host, port):
        click.echo(f"Port {port} on {host} is in use (another server still running?): stop "
                   f"it, or choose another port with --port.", err=True)
        sys.exit(1)
    ports = server.lane_ports(lanes, workers) if lanes else []
    if port in ports or not server.lanes_fit(ports):
        click.echo(f"The lanes {ports[0]}-{ports[-1]} (one a worker) must be ports apart from "
                   f"--port {port}, at most 65535: choose another --lanes.", err=True)
        sys.exit(2)
    busy = [p for p in ports if not server.port_free(host, p)]
    if busy:
        click.echo(f"Port {busy[0]} on {host}, a worker's lane ({ports[0]}-{ports[-1]}), is in "
                   f"use: stop what listens there, or choose other ports with --lanes.",
                   err=True)
        sys.exit(1)
    in_front = ", nginx in front" if front else ""
    click.echo(f"Listbuilder at http://{host}:{port}/ ({workers} workers, {threads} threads "
               f"each{in_front}; Ctrl+C stops it)")
    _stop_with_exit(start_printers())
    try:
        server.serve(app, host, port, workers, threads, access_log, front, lanes)
    except FrontError as failed:
        click.echo(str(failed), err=True)
        sys.exit(1)


def _stop_with_exit(printers: subprocess.Popen[bytes] | None) -> None:
    """The print worker started beside the server stops when the server does (it also dies
    with it if the server is killed outright: `spawn_workers`)."""
    if printers is None:
        return

    def stop() -> None:
        if printers.poll() is None:
            printers.terminate()  # SIGTERM: prints in hand go back in line
            try:
                printers.wait(15)
            except subprocess.TimeoutExpired:
                printers.kill()

    atexit.register(stop)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))


def _absolute(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """A path given relative to where the command runs, made absolute: nginx would read it
    relative to its own folder (/etc/nginx), not the one the host typed it in. Links are kept
    as they are (certbot's live/ names are links that follow each renewal)."""
    return value if value == "off" or os.path.isabs(value) else os.path.abspath(value)


@main.command(name="proxy-config")
@click.option("--server-name", default="listbuilder.example.org", show_default=True,
              help="The name players type (nginx's server_name).")
@click.option("--listen", default="443", show_default=True,
              help="Where nginx listens: a port, or address:port.")
@click.option("--upstream", default="127.0.0.1:8000", show_default=True,
              help="Where `listbuilder serve` listens (its --host:--port).")
@click.option("--lanes", type=click.IntRange(1, 65535), default=None,
              help="The first of the workers' own ports (`serve --lanes`): nginx sends each "
                   "request to the worker with the fewest under way, --upstream only if "
                   "none answers.")
@click.option("--workers", type=click.IntRange(1), default=None,
              help="How many workers serve runs, so how many lanes  [default: "
                   "LISTBUILDER_WORKERS, else one a core]")
@click.option("--certificate", default="/etc/letsencrypt/live/listbuilder.example.org/"
              "fullchain.pem", show_default=True, callback=_absolute,
              help="The TLS certificate (chain) file.")
@click.option("--certificate-key", default="/etc/letsencrypt/live/listbuilder.example.org/"
              "privkey.pem", show_default=True, callback=_absolute, help="Its private key.")
@click.option("--redirect-from", default="80", show_default=True,
              help="A plain-HTTP port that sends browsers to HTTPS ('' for none).")
@click.option("--access-log", default="/var/log/nginx/listbuilder.log", show_default=True,
              callback=_absolute,
              help="nginx's access log, written without edit or share tokens ('off': none).")
@click.option("--error-log", default="/var/log/nginx/listbuilder-error.log", show_default=True,
              callback=_absolute,
              help="nginx's error log for the site (critical errors only: its lines quote "
                   "addresses, tokens and all).")
@click.option("--no-tls", is_flag=True, help="Plain HTTP (a front on loopback, as --front "
                                               "runs it): no certificate.")
def proxy_config(server_name: str, listen: str, upstream: str, lanes: int | None,
                 workers: int | None, certificate: str, certificate_key: str,
                 redirect_from: str, access_log: str, error_log: str, no_tls: bool) -> None:
    """Print the nginx site file for Listbuilder behind TLS (docs/deploying.md): buffers slow
    clients, tells the app the scheme and the client's address, logs no tokens."""
    from listbuilder.commands import server
    from listbuilder.commands.front import Site, site_config

    host = upstream.rpartition(":")[0]
    if lanes and (upstream.startswith("unix:") or not host):
        raise click.BadParameter("lanes are ports beside an --upstream host:port, not a "
                                 "socket file", param_hint="--lanes")
    try:
        count = workers or server.default_workers()
    except ValueError as bad:
        raise click.BadParameter(str(bad), param_hint="--workers") from None
    ports = server.lane_ports(lanes, count) if lanes else []
    if not server.lanes_fit(ports):
        raise click.BadParameter(f"the lanes {ports[0]}-{ports[-1]} (one a worker) end past "
                                 f"65535: choose a lower --lanes", param_hint="--lanes")
    lane_hosts = tuple(f"{host}:{p}" for p in ports)

    log = access_log if access_log == "off" else f"{access_log} listbuilder"
    words = [f"--{k.replace('_', '-')} {v}" for k, v in (
        ("server_name", server_name), ("listen", listen), ("upstream", upstream))]
    if lanes:
        words += [f"--lanes {lanes}", f"--workers {count}"]
    tls = not no_tls
    if tls:
        words += [f"--certificate {certificate}", f"--certificate-key {certificate_key}"]
    site = Site(listen=listen, upstream=upstream, lanes=lane_hosts, server_name=server_name,
                certificate=certificate if tls else None,
                certificate_key=certificate_key if tls else None,
                redirect_from=(redirect_from or None) if tls else None, access_log=log,
                error_log=error_log,
                command="listbuilder proxy-config " + " ".join(words))
    click.echo(site_config(site), nl=False)


@main.command()
@click.argument("system_id", metavar="SYSTEM")
@click.option("--attacker", required=True, metavar="NAME",
              help="A unit's name; 'N x Name' sets its models; 'A + B' joins units into one "
                   "side (a Leader and its Bodyguard, a Space Empires stack).")
@click.option("--defender", required=True, metavar="NAME", help="The target, named the same way.")
@click.option("--set", "settings", multiple=True, metavar="KEY=VALUE",
              help="A situation setting (cover=yes, facing=rear...); repeat for more. "
                   "--options lists them.")
@click.option("--roster", type=click.Path(dir_okay=False, exists=True, path_type=Path),
              help="Look names up in this roster first (entry labels or unit names).")
@click.option("--against", type=click.Path(dir_okay=False, exists=True, path_type=Path),
              help="Look DEFENDER up in this roster instead (the opponent's file, with its "
                   "own faction packs).")
@click.option("--json", "as_json", is_flag=True, help="The distributions and chances as JSON.")
@click.option("--options", "list_options", is_flag=True,
              help="List the settings this pair offers, then stop.")
@click.pass_obj
def resolve(library: Library, system_id: str, attacker: str, defender: str,
            settings: tuple[str, ...], roster: Path | None, against: Path | None,
            as_json: bool, list_options: bool) -> None:
    """What ATTACKER does to DEFENDER in SYSTEM, exactly: the distribution, its mean, the
    chance of at least each result and of a kill."""
    from listbuilder.engine.chart import chart_text
    from listbuilder.engine.resolve import (
        ResolveError,
        find_side,
        parse_settings,
        quick_resolve,
        situation_options,
    )

    try:
        system = get_system(system_id)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="SYSTEM") from None
    try:
        def looked_up_in(path: Path | None) -> tuple[Catalog, Roster | None]:
            """The catalog names are looked up in (with a roster's own faction packs, if
            it carries any), and the roster."""
            if path is None:
                return library.catalog(system), None
            loaded = library.read_roster_file(path)
            if loaded.system.id != system.id:
                click.echo(f"{path}: a {loaded.system.name} roster; this resolve is for "
                           f"{system.name}", err=True)
                sys.exit(EXIT_UNREADABLE)
            return loaded.catalog, loaded.roster

        cat, mine = looked_up_in(roster)
        theirs_cat, theirs = looked_up_in(against) if against is not None else (cat, mine)
        sides = (find_side(system, cat, attacker, mine),
                 find_side(system, theirs_cat, defender, theirs))
        if list_options:
            for option in situation_options(system, cat, *sides):
                click.echo(f"{option.key}={option.text(option.default)}  ({option.allowed()})"
                           f"  {option.label}: {option.help}")
            return
        result = quick_resolve(system, cat, *sides, parse_settings(settings))
    except DataLoadError as exc:
        _fail(exc)
    except ResolveError as exc:
        for line in str(exc).splitlines():
            click.echo(f"error: {line}", err=True)
        sys.exit(EXIT_UNREADABLE)
    if as_json:
        click.echo(json.dumps({"system_name": system.name, **result.to_json()}, indent=1,
                              ensure_ascii=False))
    else:
        click.echo(f"{system.name}: " + chart_text(result))


# -- printing (listbuilder.printing; imported inside each command to keep start-up fast) ------

def _card_options(func: Any) -> Any:
    """The options every card print takes: paper, card size, marks, bleed, duplex, ink."""
    for option in reversed([
        click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4",
                     show_default=True, help="Paper size."),
        click.option("--card", type=click.Choice(["poker", "mini", "tarot"]), default="poker",
                     show_default=True, help="Card size: 63x88, 44x68 or 70x120 mm."),
        click.option("--cut-marks", is_flag=True, help="Crop marks in the margins."),
        click.option("--bleed", is_flag=True,
                     help="One card per page with 3 mm bleed, for print shops."),
        click.option("--duplex", type=click.Choice(["long", "short"]),
                     help="A backs page after each fronts page, for that flip edge."),
        click.option("--gutter-fold", is_flag=True,
                     help="Each back beside its front; fold the sheet down the middle."),
        click.option("--ink-saver", is_flag=True, help="No fills, dark text."),
        click.option("--format", "format_", type=click.Choice(["pdf", "png", "tts"]),
                     default="pdf", show_default=True,
                     help="pdf; png: a zip of each card side at 300 dpi, for print shops; "
                          "tts: a zip of Tabletop Simulator deck sheets and backs."),
        click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
                     help="The file to write: .pdf, or .zip for png and tts "
                          "(default: in output/)."),
    ]):
        func = option(func)
    return func


def _system_catalog(library: Library, system_id: str) -> tuple[Any, Any]:
    try:
        system = get_system(system_id)
        return system, library.catalog(system)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="SYSTEM") from None


def _system_print(library: Library, system_id: str,
                  flags: dict[str, Any]) -> tuple[Any, Any, Any]:
    """A system, its catalog and the print options from the flags; exits on a problem."""
    from listbuilder.printing.commands import fail, options_from_flags
    from listbuilder.printing.options import PrintError

    try:
        options = options_from_flags(flags)
        system, cat = _system_catalog(library, system_id)
    except PrintError as exc:
        fail(exc.problems)
    except DataLoadError as exc:
        _fail(exc)
    return system, cat, options


@main.command(name="print")
@click.argument("roster", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--what", type=click.Choice(["cards", "sheet", "all"]), default="all",
              show_default=True, help="Unit cards, the roster sheet, or both.")
@click.option("--one-per-entry", is_flag=True,
              help="A card for every entry, even identical ones (default: one card, a count).")
@_card_options
@click.pass_obj
def print_(library: Library, /, roster: Path, output: Path | None, **flags: Any) -> None:
    """Print ROSTER.yaml's unit cards and roster sheet as PDF (or the cards as images)."""
    from listbuilder.printing import print_roster
    from listbuilder.printing.commands import default_output, fail, options_from_flags, write_pdf
    from listbuilder.printing.options import PrintError

    try:
        options = options_from_flags(flags)
        loaded = library.read_roster_file(roster)
    except PrintError as exc:
        fail(exc.problems)
    except DataLoadError as exc:
        _fail(exc)
    system, cat, r = loaded.system, loaded.catalog, loaded.roster
    broken = [v for v in report(system, cat, r).violations if v.severity == "error"]
    if broken:
        click.echo(f"warning: {r.name} breaks {len(broken)} rule(s); printing it anyway "
                   f"(the roster sheet lists them; `listbuilder validate` explains)", err=True)
    write_pdf(lambda progress: print_roster(cat, system, r, options, progress),
              output or default_output(roster.stem, "cards" if options.images else options.what,
                                       options=options), options)


@main.command()
@click.argument("system_id", metavar="SYSTEM")
@_card_options
@click.pass_obj
def deck(library: Library, /, system_id: str, output: Path | None, **flags: Any) -> None:
    """Print SYSTEM's own card set: Space Empires' action deck, Hammer Wars' unit cards."""
    from listbuilder.printing import print_deck
    from listbuilder.printing.commands import default_output, write_pdf

    system, cat, options = _system_print(library, system_id, flags)
    write_pdf(lambda progress: print_deck(cat, system, options, progress),
              output or default_output(system.id, "deck", options=options), options)


@main.command()
@click.argument("system_id", metavar="SYSTEM")
@click.option("--faction", required=True, help="Whose chit pile to print.")
@_card_options
@click.pass_obj
def chits(library: Library, /, system_id: str, faction: str, output: Path | None,
          **flags: Any) -> None:
    """Print the chits of a faction's pile, each as many times as the pile holds it."""
    from listbuilder.printing import print_chits
    from listbuilder.printing.commands import default_output, write_pdf

    system, cat, options = _system_print(library, system_id, flags)
    write_pdf(lambda progress: print_chits(cat, system, faction, options, progress),
              output or default_output(system.id, faction, "chits", options=options), options)


@main.command()
@click.argument("system_id", metavar="SYSTEM")
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True,
              help="Paper size.")
@click.option("--ink-saver", is_flag=True, help="No fills, dark text.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="The PDF to write (default: in output/).")
@click.pass_obj
def rules(library: Library, system_id: str, paper: str, ink_saver: bool,
          output: Path | None) -> None:
    """Print SYSTEM's one-page rules reference."""
    from listbuilder.printing import print_rules
    from listbuilder.printing.commands import default_output, write_pdf
    from listbuilder.printing.options import PrintOptions

    try:
        system, cat = _system_catalog(library, system_id)
    except DataLoadError as exc:
        _fail(exc)
    options = PrintOptions.from_strings({"paper": paper, "ink_saver": str(ink_saver)})
    write_pdf(lambda progress: print_rules(cat, system, options),
              output or default_output(system.id, "rules"))


main.add_command(db)  # `listbuilder db upgrade|current|check|purge`
main.add_command(worker)  # `listbuilder worker`, `listbuilder worker status`


@main.command(name="match")
@click.argument("match_file", metavar="FILE", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="The state after the log, as JSON.")
@click.pass_obj
def match_command(library: Library, match_file: Path, as_json: bool) -> None:
    """Replay a match FILE (docs/match-format.md) and print where the game stands. Exit 0
    replayed, 1 an event breaks a rule (it is named, with its line and the fix), 2 the file
    can't be read."""
    from listbuilder.engine.clock import clock, duration, round_times
    from listbuilder.engine.match import MatchError, replay
    from listbuilder.engine.match_file import MatchFileError, read_match

    try:
        text = match_file.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        click.echo(f"{match_file}: cannot read the file: {exc}", err=True)
        sys.exit(EXIT_UNREADABLE)
    try:
        loaded = read_match(text, str(match_file), library.read_roster)
    except MatchFileError as exc:
        _fail(exc)
    except DataLoadError as exc:
        _fail(exc)
    game = loaded.match
    play = get_system(game.system).play()
    if play is None:
        click.echo(f"{match_file}: {game.system} has no match tracker", err=True)
        sys.exit(EXIT_UNREADABLE)
    try:
        state = replay(play, game)
    except MatchError as exc:
        # an event names its own line; the match itself (a refused option) the options'
        line = loaded.lines[exc.position - 1] if 0 < exc.position <= len(loaded.lines) \
            else loaded.options_line
        click.echo(f"{match_file}:{line}: {exc}" if line else f"{match_file}: {exc}", err=True)
        sys.exit(EXIT_ILLEGAL)
    outcome = play.outcome(state)
    # a file's clock stands where its last clock tap left it: a running side's time runs
    # no further than that tap
    timed = clock(game, 0)
    if as_json:
        click.echo(json.dumps({
            "system": game.system, "players": [p.name for p in game.players],
            "events": len(game.events), "over": outcome.over, "winner": outcome.winner,
            "reason": outcome.reason,
            "scores": {label: list(values) for label, values in outcome.scores},
            "clock": {"used_ms": list(timed.used), "running": timed.running,
                      "paused": timed.paused, "limit_ms": timed.limit,
                      "rounds_ms": [[r, ms] for r, ms in round_times(play, game, 0)]}
            if timed.started else None,
            "state": play.to_data(state)}, indent=1, ensure_ascii=False))
        return
    names = " vs ".join(p.name for p in game.players)
    click.echo(f"{names} ({get_system(game.system).name}), {len(game.events)} events")
    for label, values in outcome.scores:
        click.echo(f"  {label}: " + ", ".join(f"{p.name} {v}"
                                              for p, v in zip(game.players, values, strict=False)))
    for side, player in enumerate(game.players, 1):
        click.echo(f"{player.name}:")
        for unit in play.units(state, side):
            rest = play.standing(unit).words()
            gone = "" if unit.get("alive", True) else " (gone)"
            click.echo(f"  {unit['unit']}. {unit['name']}{gone}" + (f": {rest}" if rest else ""))
    if timed.started:
        used = ", ".join(f"{p.name} {duration(ms)}" for p, ms in zip(game.players, timed.used,
                                                                     strict=False))
        left = f"; {duration(timed.left)} of the time limit left" if timed.left is not None \
            else ""
        click.echo(f"clock: {used}" + (" (paused)" if timed.paused else "") + left)
    if outcome.over:
        winner = game.players[outcome.winner - 1].name if outcome.winner else "nobody"
        click.echo(f"over: {winner} won" + (f" ({outcome.reason})" if outcome.reason else ""))
    else:
        click.echo("in play" + (f": {outcome.reason}" if outcome.reason else ""))
