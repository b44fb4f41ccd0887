"""The database's schema, changed only by the Alembic migrations in `versions/`.

`upgrade` brings a database to the code's schema in one locked transaction, so two machines
upgrading at once take turns. A database made before migrations existed (the rosters table, no
`alembic_version`) is recognised and stamped with the revision it matches first. `check` tells
a starting server whether the database is at the code's revision; `require_current` refuses
to serve otherwise, naming the command that fixes it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Set
from dataclasses import dataclass

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection, Engine, make_url

from listbuilder.locations import instance_folder, package_folder
from listbuilder.store import ratelimit  # noqa: F401  (its table joins Base.metadata, as models do)
from listbuilder.store.database import sqlite_url

HERE = package_folder("listbuilder.store.admin.migrations")
UPGRADE_COMMAND = "listbuilder db upgrade"
BASELINE = "0001"  # the rosters table as the first release's create_all made it
# A database made by create_all without migrations, matched to the revision it equals: the
# newest one whose every mark is there. (0002 also matches the short-lived create_all of the
# commit that added its columns.)
LEGACY_MARKS: tuple[tuple[str, set[tuple[str, str | None]]], ...] = (
    ("0015", {("event_lists", "flags")}),
    ("0014", {("events", None)}),
    ("0013", {("match_spent_ids", None)}),
    ("0012", {("print_jobs", "turn")}),
    ("0011", {("matches", None)}),
    ("0010", {("print_jobs", "client")}),
    ("0009", {("pack_tombstones", None)}),
    ("0008", {("packs", None)}),
    ("0007", {("roster_history", None)}),
    ("0006", {("roster_lists", None)}),
    ("0005", {("rosters", "last_edit")}),
    ("0004", {("print_jobs", None)}),
    ("0003", {("rate_limits", None)}),
    ("0002", {("rosters", "deleted_at"), ("print_cache", None)}),
    (BASELINE, {("rosters", None)}),
)


class SchemaNotCurrent(RuntimeError):
    """The database is not at the revision this code needs: the message says what to do."""


def ours(name: str | None, kind: str, parents: object) -> bool:
    """Whether Alembic's comparisons look at this: not the print queue's own tables, which
    Huey makes in a PostgreSQL database it shares with us (listbuilder.jobs.broker)."""
    return not (kind == "table" and (name or "").startswith("huey_"))


def configured_url() -> str:
    """The database the app would use: DATABASE_URL, else the SQLite file in the instance
    folder (LISTBUILDER_INSTANCE, else instance/)."""
    if os.environ.get("DATABASE_URL"):
        return os.environ["DATABASE_URL"]
    return sqlite_url(instance_folder() / "listbuilder.sqlite3")


def shown(url: str) -> str:
    """The URL for messages and logs: no password."""
    return make_url(url).render_as_string(hide_password=True)


def alembic_config(connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(HERE))
    config.attributes["connection"] = connection
    return config


def head() -> str:
    found = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert found is not None, "the migrations have no head"
    return found


@dataclass(frozen=True)
class SchemaState:
    current: str | None  # the revision recorded in the database; None if it has none
    head: str  # the revision this code needs
    legacy: str | None  # the revision a database without alembic_version matches, if any
    known: bool  # the recorded revision is one of ours (False: made by newer code)

    @property
    def up_to_date(self) -> bool:
        return self.current == self.head

    def problem(self, url: str) -> str:
        where = f"The database at {shown(url)}"
        if self.current is None and self.legacy is None:
            return (f"{where} has no Listbuilder tables yet. Run `{UPGRADE_COMMAND}` to "
                    f"create them (make run does), then start again.")
        if not self.known:
            return (f"{where} is at revision {self.current}, which this Listbuilder does not "
                    f"know: it was upgraded by a newer version. Run that version, or restore a "
                    f"backup taken before the upgrade.")
        if self.current is None:
            # no revision recorded: its tables say which revision it matches, which may well
            # be the code's own (then only the record is missing, not a change)
            behind = ("its tables are those of this Listbuilder's revision, "
                      f"{self.head}, but no revision is recorded" if self.legacy == self.head
                      else f"its tables match revision {self.legacy}, behind this "
                           f"Listbuilder's {self.head}")
            return (f"{where} was made before Listbuilder had migrations: {behind}. Run "
                    f"`{UPGRADE_COMMAND}` to bring it up to date and record it, keeping its "
                    f"rosters (make run does), then start again.")
        return (f"{where} is at revision {self.current}, behind this Listbuilder's "
                f"{self.head}. Run `{UPGRADE_COMMAND}` (make run does), then start again.")


def check(engine: Engine) -> SchemaState:
    with engine.connect() as connection:
        return state_of(connection)


def state_of(connection: Connection) -> SchemaState:
    """Where the database stands, read on this connection (inside its transaction, if any)."""
    current = MigrationContext.configure(connection).get_current_revision()
    legacy = _legacy_revision(connection) if current is None else None
    known = current is None or is_known(current)
    return SchemaState(current, head(), legacy, known)


def require_current(engine: Engine, url: str) -> None:
    state = check(engine)
    if not state.up_to_date:
        raise SchemaNotCurrent(state.problem(url))


def upgrade(engine: Engine, revision: str = "heads") -> SchemaState:
    """Bring the database to `revision` (the code's by default), in one transaction that
    holds the database's write lock, so a second upgrade at the same time waits, then finds
    nothing left to do. Returns the state before, as read under that lock: read before it,
    two upgrades at once would both have found the database empty and said so."""
    with engine.execution_options(sqlite_immediate=True).begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                               {"key": 0x4C495354})  # "LIST": any fixed number of ours
        before = state_of(connection)
        if not before.known:
            raise SchemaNotCurrent(before.problem(str(engine.url)))
        config = alembic_config(connection)
        if before.current is None and before.legacy is not None:
            command.stamp(config, before.legacy)
        command.upgrade(config, revision)
    return before


def _legacy_revision(connection: Connection) -> str | None:
    inspector = inspect(connection)
    tables = set(inspector.get_table_names())
    if "alembic_version" in tables:
        return None
    return legacy_match({t: {c["name"] for c in inspector.get_columns(t)} for t in tables})


def legacy_match(columns: Mapping[str, Set[str]]) -> str | None:
    """The revision a database without `alembic_version`, with these tables and columns,
    matches: the newest one whose every mark is there; None if not even the first."""
    for revision, marks in LEGACY_MARKS:
        if all(t in columns and (c is None or c in columns[t]) for t, c in marks):
            return revision
    return None


def is_known(revision: str) -> bool:
    """Whether the revision is one of this code's migrations (False: made by newer code)."""
    try:
        return ScriptDirectory.from_config(alembic_config()).get_revision(revision) is not None
    except Exception:  # Alembic raises its own errors for revisions it can't resolve
        return False
