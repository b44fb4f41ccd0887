"""Settings read from the environment once, at start-up, with a subclass for tests."""

from __future__ import annotations

import os


class Config:
    # The key that signs the session cookie (the player's list of rosters, CSRF tokens). When
    # unset, a random key is kept in the instance folder so restarts keep sessions.
    SECRET_KEY = os.environ.get("LISTBUILDER_SECRET_KEY")
    # Any SQLAlchemy URL; unset means an SQLite file in the instance folder.
    DATABASE_URL = os.environ.get("DATABASE_URL")
    # A server refuses a database behind the code's migrations (`listbuilder db upgrade`, which
    # make run calls, runs them once before any worker starts); tests, on fresh temp files,
    # upgrade it in place instead.
    UPGRADE_DATABASE = False
    # The bound of the print cache kept in the database (shared by every worker), in MB.
    PRINT_CACHE_MB = int(os.environ.get("LISTBUILDER_PRINT_CACHE_MB") or 64)
    # Distinct cards one print from the browser may lay out (about 30 ms of CPU each).
    MAX_PRINT_CARDS = int(os.environ.get("LISTBUILDER_MAX_PRINT_CARDS") or 100)
    # How long a print waits for the one before it in the same worker before a 503.
    PRINT_WAIT_SECONDS = 30
    # The player's own data folder; unset means LISTBUILDER_DATA, else instance/data.
    LISTBUILDER_DATA = os.environ.get("LISTBUILDER_DATA")
    MAX_CONTENT_LENGTH = 512 * 1024  # uploads: roster files are at most 256 KB
    WTF_CSRF_TIME_LIMIT = None  # a token lasts as long as the session: pages stay open for hours
    SESSION_COOKIE_SAMESITE = "Lax"
    SESSION_COOKIE_SECURE = os.environ.get("LISTBUILDER_SECURE_COOKIES") == "1"
    REMEMBERED_ROSTERS = 40  # edit links the browser keeps for the home page list
    PERMANENT_SESSION_LIFETIME = 365 * 24 * 3600  # that list outlives a month away
    # The cookie is signed and sent again only when the session changes (opening a roster puts
    # it first in the list, which renews the year), not with every answer: re-signing it cost
    # an edit about 0.2 ms of CPU and every answer a Set-Cookie header.
    SESSION_REFRESH_EACH_REQUEST = False


class TestConfig(Config):
    TESTING = True
    SECRET_KEY = "test-secret-key"
    DATABASE_URL = "sqlite://"  # replaced by a temp file in the tests' fixtures
    UPGRADE_DATABASE = True
    LISTBUILDER_DATA = None
