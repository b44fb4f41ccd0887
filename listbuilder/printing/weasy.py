"""WeasyPrint, imported for the whole package here, without the library search that took a
third of its import time.

WeasyPrint opens Pango, HarfBuzz and fontconfig by trying a list of names for each library,
one list for every platform (`weasyprint.text.ffi._dlopen`). cffi passes each name it cannot
open straight away to `ctypes.util.find_library`, which on Linux runs ldconfig, then gcc and
ld. That made 22 lookups and took 0.26 s of a 0.75 s import on the 2-core VM, and every
command-line run, server worker and layout process pays it. Each list ends with the
libraries' own file names (libpango-1.0.so.0, its .dylib and .dll), and the system's loader
opens those directly, through its cache and LD_LIBRARY_PATH. So during the import
find_library answers "not found" at once, and the names that are the files do the work.

A system whose libraries only that search finds gets the import a second time, with the
search. WeasyPrint prints its installation advice before it gives up, so that first try's
output is held back. find_library is only replaced during the import, under the import lock;
a thread that calls it at that moment gets "not found".
"""

from __future__ import annotations

import contextlib
import ctypes.util
import importlib
import io
from collections.abc import Iterator

_REAL_FIND_LIBRARY = ctypes.util.find_library


def _not_found(name: str) -> None:
    return None


@contextlib.contextmanager
def _without_library_search() -> Iterator[None]:
    ctypes.util.find_library = _not_found
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            yield
    finally:
        ctypes.util.find_library = _REAL_FIND_LIBRARY


def _load() -> None:
    try:
        with _without_library_search():
            importlib.import_module("weasyprint")
    except OSError:  # a library only the search finds: WeasyPrint's own way
        importlib.import_module("weasyprint")


_load()

# what the package uses of WeasyPrint, imported after _load() on purpose
from weasyprint import CSS, HTML  # noqa: E402
from weasyprint.text.fonts import FontConfiguration  # noqa: E402
from weasyprint.urls import URLFetcher, URLFetcherResponse  # noqa: E402

__all__ = ["CSS", "HTML", "FontConfiguration", "URLFetcher", "URLFetcherResponse"]
