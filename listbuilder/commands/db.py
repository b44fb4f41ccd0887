"""`listbuilder db`: bring the database to the code's schema, or see where it stands. Each
command works on the database the server would use (DATABASE_URL, else the SQLite file in the
instance folder)."""

from __future__ import annotations

import sys
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from listbuilder.store.admin.migrations import SchemaState


@click.group()
def db() -> None:
    """The database: upgrade its schema (make run does), check it, back it up, restore it."""


@db.command()
def upgrade() -> None:
    """Run the migrations the database lacks (a database made before migrations is
    recognised). Safe to run while servers run, and from two machines at once."""
    from listbuilder.store.admin import migrations
    from listbuilder.store.database import make_engine

    url = migrations.configured_url()
    engine = make_engine(url)
    try:
        before = migrations.upgrade(engine)
        after = migrations.check(engine)
    except migrations.SchemaNotCurrent as refused:
        click.echo(str(refused), err=True)
        sys.exit(1)
    finally:
        engine.dispose()
    where = migrations.shown(url)
    if before.up_to_date:
        click.echo(f"{where} is at revision {after.current}: nothing to do")
    elif before.current is None and before.legacy == after.current:
        click.echo(f"{where} was made before migrations with revision {after.current}'s "
                   f"tables: recorded at revision {after.current}, its rosters kept")
    else:
        was = before.current or (f"{before.legacy} (made before migrations)" if before.legacy
                                 else "empty")
        click.echo(f"{where} upgraded from {was} to revision {after.current}")


@db.command()
def current() -> None:
    """Print the database's revision and the code's."""
    state = _state()
    click.echo(f"database: {state.current or 'none'}\ncode: {state.head}")


@db.command()
def check() -> None:
    """Exit 0 if the database is at the code's revision and reads well (an SQLite file passes
    SQLite's quick check); else say what to do and exit 1."""
    from sqlalchemy.exc import SQLAlchemyError

    from listbuilder.store.admin import backup, migrations

    url = migrations.configured_url()
    damaged = backup.damage(url)
    if damaged is not None:
        click.echo(damaged, err=True)
        sys.exit(1)
    try:
        state = _state()
    except SQLAlchemyError as error:
        click.echo(f"The database at {migrations.shown(url)} can't be read: {error}", err=True)
        sys.exit(1)
    if not state.up_to_date:
        click.echo(state.problem(migrations.configured_url()), err=True)
        sys.exit(1)
    click.echo(f"the database is at the code's revision, {state.head}")


@db.command()
@click.option("--days", type=click.IntRange(0), default=30, show_default=True,
              help="Purge rosters deleted more than this many days ago.")
def purge(days: int) -> None:
    """Remove for good the rosters deleted long enough ago (until then they can be restored)."""
    from listbuilder.store.admin import migrations
    from listbuilder.store.rosters import RosterStore

    url = migrations.configured_url()
    store = RosterStore(url)
    try:
        migrations.require_current(store.engine, url)
        click.echo(f"purged {store.purge_deleted(timedelta(days=days))} deleted rosters")
    except migrations.SchemaNotCurrent as refused:
        click.echo(str(refused), err=True)
        sys.exit(1)
    finally:
        store.close()


@db.command(name="backup")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
def backup_command(file: Path) -> None:
    """Write a copy of the whole database to FILE (an SQLite database, or for PostgreSQL a
    pg_dump archive). Safe while the server runs and players save."""
    from listbuilder.store.admin import backup, migrations

    try:
        click.echo(backup.backup(migrations.configured_url(), file))
    except (backup.BackupError, OSError) as failed:
        click.echo(f"backup: {failed}", err=True)
        sys.exit(1)


@db.command(name="restore")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
def restore_command(file: Path) -> None:
    """Replace the database with the backup in FILE (made by `listbuilder db backup`). Stop
    the server first; the database replaced is kept aside, and the command says where."""
    from listbuilder import locations
    from listbuilder.store.admin import backup, liveness, migrations

    try:
        lines = backup.restore(migrations.configured_url(), file, locations.instance_folder())
    except (backup.BackupError, liveness.ServerRunning, OSError) as refused:
        click.echo(f"restore: {refused}", err=True)
        sys.exit(1)
    click.echo("\n".join(lines))


def _state() -> SchemaState:
    from listbuilder.store.admin import migrations
    from listbuilder.store.database import make_engine

    engine = make_engine(migrations.configured_url())
    try:
        return migrations.check(engine)
    finally:
        engine.dispose()
