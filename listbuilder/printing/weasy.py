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

WeasyPrint also asks cffi for a new C array type for every font it subsets, with the length in
the type's name (`ffi.new(f"hb_codepoint_t[{n}]", values)`). cffi parses each type name it
has not met before with pycparser, 1.6-2.2 ms each, and keeps it for ever: up to three a
font, so the 2000 pts roster's first print paid five, about 9 ms in 0.2 s, every print of
new glyph counts paid again, and a server's cache grew with every new count. `_open_arrays`
turns such a call into the same array of open length (`hb_codepoint_t[]`, its length that of
the values), one type for every count.

Pango applies the process's default fontconfig configuration to every font it looks up, not
only the one WeasyPrint gives it: the machine's rules for screens (hinting, aliases of generic
families, preferred fonts for each language), some 30 files on Debian. A card print looks up
fonts at every text size it meets for the first time, and a print's cards are fitted to several
sizes: those rules took 15% of the layout of a half of the 2000 pts roster's cards.
`_plain_default_config` makes the default an empty configuration. Our stylesheets name only
the fonts they bring; WeasyPrint's own configuration, with the machine's fonts for characters
ours lack, is unchanged; and the 61 example prints (every card size, deck, rules and roster
sheet) lay out every glyph in the same place either way.
"""

from __future__ import annotations

import contextlib
import ctypes.util
import importlib
import io
import re
from collections.abc import Iterator
from typing import Any

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


_SIZED_ARRAY = re.compile(r"(\w+)\[(\d+)\]")


def _open_arrays(ffi: Any) -> None:
    """Make `ffi.new("T[n]", values)` with n values build a `T[]` instead: the same array,
    from a type cffi parses once (see the module's docstring)."""
    sized_new = ffi.new

    def new(cdecl: Any, init: Any = None) -> Any:
        if isinstance(cdecl, str) and hasattr(init, "__len__") and \
                (sized := _SIZED_ARRAY.fullmatch(cdecl)) and int(sized[2]) == len(init):
            cdecl = f"{sized[1]}[]"
        return sized_new(cdecl, init)

    ffi.new = new


def _plain_default_config(ffi: Any, fontconfig: Any) -> None:
    """Make an empty configuration fontconfig's default (see the module's docstring).
    WeasyPrint's bindings declare neither call; declarations added now reach the library
    already opened, as cffi looks a name up when it is first used."""
    ffi.cdef("FcConfig * FcConfigCreate (void); FcBool FcConfigSetCurrent (FcConfig *config);",
             override=True)
    fontconfig.FcConfigSetCurrent(fontconfig.FcConfigCreate())


_load()
_BINDINGS = importlib.import_module("weasyprint.text.ffi")
_open_arrays(_BINDINGS.ffi)
_plain_default_config(_BINDINGS.ffi, _BINDINGS.fontconfig)

# what the package uses of WeasyPrint, imported after _load() on purpose
from weasyprint import CSS, HTML  # noqa: E402
from weasyprint.text.fonts import FontConfiguration  # noqa: E402
from weasyprint.urls import URLFetcher, URLFetcherResponse  # noqa: E402

__all__ = ["CSS", "HTML", "FontConfiguration", "URLFetcher", "URLFetcherResponse"]
