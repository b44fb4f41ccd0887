"""The rules engine: plain Python, importable without any web or PDF library."""

# The event kinds every game's log may hold beside its own: their module adds them to the
# engine's (match.SHARED) as it loads, so every replay knows them.
from listbuilder.engine import clock as _clock  # noqa: F401
