"""Looking after the database: its migrations, backup and restore, and whether a server
is running on it (asked before a restore replaces it)."""
