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
    # A Redis server every web server and print worker reaches (redis://host:6379/0): the
    # print queue's messages and the rate-limit counters are kept there. Unset: both live in
    # the database (docs/deploying.md says when Redis pays).
    REDIS_URL = os.environ.get("LISTBUILDER_REDIS_URL") or None
    # Prints not in the cache wait in line for a print worker (listbuilder/jobs/): at most
    # this many waiting; past it a print is answered 503 ("try again in a minute"). A
    # client's first print in line (and its first preview) is never turned away by it.
    PRINT_QUEUE = int(os.environ.get("LISTBUILDER_PRINT_QUEUE") or 16)
    # Prints one client (address) may have waiting at once, and previews as many again: past
    # it, 503 "your prints are waiting", asked again by itself once one of them is made.
    PRINT_QUEUE_PER_CLIENT = int(os.environ.get("LISTBUILDER_PRINT_QUEUE_PER_CLIENT") or 3)
    # A print being laid out whose worker gave no sign of life for this long (it was killed)
    # is put back in line for another (seconds; workers beat every 2 seconds). The same
    # setting must reach the web servers and the workers.
    PRINT_JOB_TIMEOUT = float(os.environ.get("LISTBUILDER_PRINT_JOB_TIMEOUT") or 30)
    # The player's own data folder; unset means LISTBUILDER_DATA, else instance/data.
    LISTBUILDER_DATA = os.environ.get("LISTBUILDER_DATA")
    MAX_CONTENT_LENGTH = 1024 * 1024  # uploads: roster files are at most 640 KB (packs too)
    WTF_CSRF_TIME_LIMIT = None  # a token lasts as long as the session: pages stay open for hours
    SESSION_COOKIE_SAMESITE = "Lax"
    SESSION_COOKIE_SECURE = os.environ.get("LISTBUILDER_SECURE_COOKIES") == "1"
    REMEMBERED_ROSTERS = 40  # edit links the browser keeps for the home page list
    PERMANENT_SESSION_LIFETIME = 365 * 24 * 3600  # that list outlives a month away
    # The cookie is signed and sent again only when the session changes (opening a roster puts
    # it first in the list, which renews the year), not with every answer: re-signing it cost
    # an edit about 0.2 ms of CPU and every answer a Set-Cookie header.
    SESSION_REFRESH_EACH_REQUEST = False
    # Requests one client (address) may make, in Flask-Limiter's notation ("30 per minute",
    # "10/minute;200/day"); an empty value turns that limit off (so these are read with a
    # default, not `or`). listbuilder/web/site/limits.py names the requests each one covers. The
    # minute's count is far above a player's busiest minute; the hour's bounds how fast one
    # address can grow the database (docs/hostile-input.md: at most about 1.2 GB an hour with
    # these, nearly all of it from rosters carrying three 128 KB packs) while leaving room
    # for a few players sharing an address (a club's network): a player building for an
    # hour makes a few hundred changes, and a handful of new rosters.
    LIMIT_CREATE = os.environ.get("LISTBUILDER_LIMIT_CREATE", "30 per minute; 120 per hour")
    LIMIT_IMPORT = os.environ.get("LISTBUILDER_LIMIT_IMPORT", "30 per minute; 120 per hour")
    # every change saved; htmx sends one a click, a few a second in a burst at most
    LIMIT_SAVE = os.environ.get("LISTBUILDER_LIMIT_SAVE", "120 per minute; 1200 per hour")
    # pack checks: as the player types (one at each pause of half a second), and pack pages
    LIMIT_CHECK = os.environ.get("LISTBUILDER_LIMIT_CHECK", "120 per minute; 2400 per hour")
    LIMIT_PRINT = os.environ.get("LISTBUILDER_LIMIT_PRINT", "60 per minute")  # previews too
    # a match's events and undos: a busy turn is a tap every few seconds from each phone, and
    # a queue kept offline arrives in one burst when the connection is back
    LIMIT_PLAY = os.environ.get("LISTBUILDER_LIMIT_PLAY", "240 per minute; 3000 per hour")
    # Where the counts are kept: unset means REDIS_URL if set, else the app's own database
    # (every worker and machine shares either); else a storage URI handed to Flask-Limiter
    # as it is (redis://host:6379/0, memcached://...).
    LIMIT_STORAGE = (os.environ.get("LISTBUILDER_RATELIMIT_STORAGE")
                     or os.environ.get("LISTBUILDER_REDIS_URL") or None)


class TestConfig(Config):
    TESTING = True
    SECRET_KEY = "test-secret-key"
    DATABASE_URL = "sqlite://"  # replaced by a temp file in the tests' fixtures
    UPGRADE_DATABASE = True
    LISTBUILDER_DATA = None
    # off, so no test counts against another's limits; tests/web/site/test_limits.py turns them on
    LIMIT_CREATE = LIMIT_IMPORT = LIMIT_SAVE = LIMIT_CHECK = LIMIT_PRINT = LIMIT_PLAY = ""
    LIMIT_STORAGE = None
    REDIS_URL = None
    PRINT_JOB_TIMEOUT = 30.0
