"""The schema is made and changed by the migrations, on SQLite and on PostgreSQL: an empty
database is brought to the code's schema, one made by the first release's create_all (before
migrations existed) is recognised and upgraded with its rosters kept, and a server refuses a
database behind (or ahead of) its code, naming what to run."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from at_once import at_once
from click.testing import CliRunner
from sqlalchemy import inspect, text

from listbuilder.commands.cli import main
from listbuilder.settings import TestConfig
from listbuilder.store.admin import migrations
from listbuilder.store.admin.migrations import ours
from listbuilder.store.database import make_engine, sqlite_url
from listbuilder.store.links import hash_token
from listbuilder.store.rosters import RosterStore
from listbuilder.store.tables import Base
from listbuilder.web import create_app

CLI = [sys.executable, "-c", "from listbuilder.commands.cli import main; main()"]

# The rosters table exactly as the first release's create_all made it (git show 83fe219:
# listbuilder/store/tables.py, compiled for each database).
OLD_SCHEMA = {
    "sqlite": """CREATE TABLE rosters (
        id INTEGER NOT NULL, edit_hash VARCHAR(64) NOT NULL, share_token VARCHAR(64) NOT NULL,
        system VARCHAR(40) NOT NULL, name VARCHAR(80) NOT NULL, text TEXT NOT NULL,
        version INTEGER NOT NULL, created DATETIME NOT NULL, updated DATETIME NOT NULL,
        PRIMARY KEY (id))""",
    "postgresql": """CREATE TABLE rosters (
        id SERIAL NOT NULL, edit_hash VARCHAR(64) NOT NULL, share_token VARCHAR(64) NOT NULL,
        system VARCHAR(40) NOT NULL, name VARCHAR(80) NOT NULL, text TEXT NOT NULL,
        version INTEGER NOT NULL, created TIMESTAMP WITH TIME ZONE NOT NULL,
        updated TIMESTAMP WITH TIME ZONE NOT NULL, PRIMARY KEY (id))""",
}
OLD_INDEXES = ["CREATE UNIQUE INDEX ix_rosters_share_token ON rosters (share_token)",
               "CREATE UNIQUE INDEX ix_rosters_edit_hash ON rosters (edit_hash)"]
OLD_ROSTER = ("INSERT INTO rosters (edit_hash, share_token, system, name, text, version, "
              "created, updated) VALUES (:edit_hash, 'share-1', 'op40k', 'Old Guard', "
              "'name: Old Guard', 3, :at, :at)")


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database with no tables at all."""
    if request.param == "sqlite":
        yield sqlite_url(tmp_path / "empty.sqlite3")
    else:
        yield request.getfixturevalue("pg_database")


def differences(url: str) -> list[object]:
    """What the database's tables lack, or have beyond, the code's models."""
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            return list(compare_metadata(
                MigrationContext.configure(connection, opts={"compare_type": True,
                                                             "include_name": ours}),
                Base.metadata))
    finally:
        engine.dispose()


def make_old_database(url: str) -> None:
    engine = make_engine(url)
    try:
        with engine.begin() as connection:
            connection.exec_driver_sql(OLD_SCHEMA[connection.dialect.name])
            for statement in OLD_INDEXES:
                connection.exec_driver_sql(statement)
            connection.execute(text(OLD_ROSTER), {"edit_hash": hash_token("old-token"),
                                                  "at": "2026-01-02 03:04:05"})
    finally:
        engine.dispose()


def serve_app(url: str, tmp_path: Path):  # type: ignore[no-untyped-def]
    """The app as a server builds it: refusing, not upgrading, a database behind its code."""
    config = {k: getattr(TestConfig, k) for k in dir(TestConfig) if k.isupper()}
    config.update(DATABASE_URL=url, UPGRADE_DATABASE=False,
                  LISTBUILDER_DATA=str(tmp_path / "no-data"))
    return create_app(config, instance_path=tmp_path / "instance")


def test_an_empty_database_is_refused_then_upgraded_to_the_models(empty_url: str,
                                                                    tmp_path: Path) -> None:
    with pytest.raises(migrations.SchemaNotCurrent,
                       match=r"has no Listbuilder tables yet\. Run `listbuilder db upgrade`"):
        serve_app(empty_url, tmp_path)
    engine = make_engine(empty_url)
    try:
        before = migrations.upgrade(engine)
        assert (before.current, before.legacy) == (None, None)
        assert migrations.check(engine).current == migrations.head()
        assert migrations.upgrade(engine).up_to_date  # a second run has nothing to do
    finally:
        engine.dispose()
    assert differences(empty_url) == []
    app = serve_app(empty_url, tmp_path)
    store: RosterStore = app.extensions["listbuilder.store"]
    saved, token = store.create("op40k", "New", "t")
    store.prints.keep("k", b"%PDF")
    assert store.by_edit_token(token) == saved and store.prints.cached("k") == b"%PDF"
    store.close()
    # the print queue's tables, which Huey made in a PostgreSQL database, are not ours to
    # compare (nor dropped by a migration autogenerated later)
    assert differences(empty_url) == []


def test_a_database_from_before_migrations_keeps_its_rosters(empty_url: str,
                                                             tmp_path: Path) -> None:
    make_old_database(empty_url)
    engine = make_engine(empty_url)
    try:
        state = migrations.check(engine)
        assert (state.current, state.legacy, state.up_to_date) == (None, migrations.BASELINE,
                                                                   False)
        with pytest.raises(migrations.SchemaNotCurrent,
                           match=r"was made before Listbuilder had migrations: its tables "
                                 rf"match revision 0001, behind this Listbuilder's "
                                 rf"{migrations.head()}\. Run `listbuilder db upgrade` to "
                                 r"bring it up to date and record it, keeping its rosters"):
            serve_app(empty_url, tmp_path)
        assert migrations.upgrade(engine).legacy == migrations.BASELINE
        assert migrations.check(engine).up_to_date
        assert "deleted_at" in {c["name"] for c in inspect(engine).get_columns("rosters")}
    finally:
        engine.dispose()
    assert differences(empty_url) == []
    app = serve_app(empty_url, tmp_path)
    store: RosterStore = app.extensions["listbuilder.store"]
    try:
        old = store.by_edit_token("old-token")
        assert old is not None
        assert (old.name, old.text, old.version, old.deleted_at) == ("Old Guard",
                                                                      "name: Old Guard", 3, None)
        assert store.save(old.id, 3, "Old Guard", "name: Old Guard\n").version == 4
        store.delete(old.id)
        assert store.by_edit_token("old-token") is None
        newer, _ = store.create("op40k", "Newer", "t")
        assert newer.id > old.id  # the id sequence carried on
    finally:
        store.close()


def test_a_database_upgraded_by_newer_code_is_refused(empty_url: str, tmp_path: Path) -> None:
    engine = make_engine(empty_url)
    try:
        migrations.upgrade(engine)
        with engine.begin() as connection:
            connection.exec_driver_sql("UPDATE alembic_version SET version_num = '9999'")
        with pytest.raises(migrations.SchemaNotCurrent, match="upgraded by a newer version"):
            migrations.upgrade(engine)
    finally:
        engine.dispose()
    with pytest.raises(migrations.SchemaNotCurrent, match="9999, which this Listbuilder does"):
        serve_app(empty_url, tmp_path)


def test_two_upgrades_at_once_take_turns(empty_url: str) -> None:
    """Two machines deploying at the same moment both run `db upgrade`: one migrates, the
    other waits for it and finds nothing left to do (and says so: the state before is read
    under the upgrade's lock)."""
    engines = [make_engine(empty_url) for _ in range(2)]
    befores: list[migrations.SchemaState] = []
    errors = at_once(lambda n: befores.append(migrations.upgrade(engines[n])), 2)
    try:
        assert errors == []
        assert migrations.check(engines[0]).up_to_date
    finally:
        for engine in engines:
            engine.dispose()
    assert sorted(b.up_to_date for b in befores) == [False, True]
    assert differences(empty_url) == []


def test_two_upgrade_commands_at_once_say_what_each_did(empty_url: str,
                                                        tmp_path: Path) -> None:
    env = {**os.environ, "DATABASE_URL": empty_url,
           "LISTBUILDER_INSTANCE": str(tmp_path / "instance")}
    commands = [subprocess.Popen([*CLI, "db", "upgrade"], env=env, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True) for _ in range(2)]
    said = sorted(c.communicate(timeout=300)[0] for c in commands)
    assert [c.returncode for c in commands] == [0, 0]
    where, head = migrations.shown(empty_url), migrations.head()
    assert said == [f"{where} is at revision {head}: nothing to do\n",
                    f"{where} upgraded from empty to revision {head}\n"]


def test_the_db_commands(empty_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", empty_url)
    runner = CliRunner()
    checked = runner.invoke(main, ["db", "check"])
    assert checked.exit_code == 1 and "Run `listbuilder db upgrade`" in checked.output
    upgraded = runner.invoke(main, ["db", "upgrade"])
    assert upgraded.exit_code == 0, upgraded.output
    assert f"upgraded from empty to revision {migrations.head()}" in upgraded.output
    assert "nothing to do" in runner.invoke(main, ["db", "upgrade"]).output
    assert runner.invoke(main, ["db", "check"]).exit_code == 0
    current = runner.invoke(main, ["db", "current"]).output.split()
    assert current == ["database:", migrations.head(), "code:", migrations.head()]
    purged = runner.invoke(main, ["db", "purge", "--days", "0"])
    assert purged.exit_code == 0 and "purged 0 deleted rosters" in purged.output


def test_a_database_made_by_create_all_of_these_models_is_stamped_not_migrated_again(
        empty_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A database made by the models' create_all without migrations (as one development
    commit did) already has every table: it is recorded at the code's revision."""
    engine = make_engine(empty_url)
    try:
        Base.metadata.create_all(engine)
        state = migrations.check(engine)
        assert state.legacy == migrations.head()
        assert state.problem(empty_url).endswith(
            f"was made before Listbuilder had migrations: its tables are those of this "
            f"Listbuilder's revision, {migrations.head()}, but no revision is recorded. Run "
            f"`listbuilder db upgrade` to bring it up to date and record it, keeping its "
            f"rosters (make run does), then start again.")
    finally:
        engine.dispose()
    monkeypatch.setenv("DATABASE_URL", empty_url)
    upgraded = CliRunner().invoke(main, ["db", "upgrade"])
    assert upgraded.exit_code == 0, upgraded.output
    assert upgraded.output.endswith(
        f"was made before migrations with revision {migrations.head()}'s tables: recorded "
        f"at revision {migrations.head()}, its rosters kept\n")
    engine = make_engine(empty_url)
    try:
        assert migrations.check(engine).up_to_date
    finally:
        engine.dispose()
    assert differences(empty_url) == []
