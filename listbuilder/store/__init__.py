"""The database: what the app keeps, and how it is kept safe under many processes.

- `tables.py`: every table, as SQLAlchemy rows (made and changed only by the migrations);
- `database.py`: one engine for a URL, SQLite set up for many writers, the stores' sessions;
- `links.py`: what a thing reached by links shares (private links kept as hashes, a version
  each change is based on, `Stale`, a bound on size);
- `rosters.py`, `packs.py`, `matches.py`, `events.py`: the things players reach by links;
- `print_cache.py`: finished PDFs, shared by every process; `ratelimit.py`: the limits'
  counters;
- `admin/`: the migrations, backup and restore, and whether a server is running on it.
"""
