"""Alembic's entry point: migrations run on the connection `store.admin.migrations` hands
over (inside its locked transaction), or on the app's DATABASE_URL when Alembic is run by hand."""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from listbuilder.store.admin.migrations import ours
from listbuilder.store.database import make_engine
from listbuilder.store.tables import Base

config = context.config


def run(connection: Connection) -> None:
    # batch mode: SQLite can't alter most columns in place, Alembic copies the table instead
    context.configure(connection=connection, target_metadata=Base.metadata,
                      render_as_batch=True, compare_type=True, include_name=ours)
    with context.begin_transaction():
        context.run_migrations()


def main() -> None:
    given = config.attributes.get("connection")
    if given is not None:
        run(given)
        return
    from listbuilder.store.admin.migrations import configured_url

    url = config.get_main_option("sqlalchemy.url") or configured_url()
    if context.is_offline_mode():
        context.configure(url=url, target_metadata=Base.metadata, literal_binds=True,
                          render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            run(connection)
    finally:
        engine.dispose()


main()
