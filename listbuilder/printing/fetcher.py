"""The only door between the renderer and the outside: it serves the project's own static
files and refuses everything else (http, data: URLs, any file outside `static/`), so nothing a
player types can make a PDF fetch, embed or attach content from elsewhere."""

from __future__ import annotations

import mimetypes
from functools import lru_cache
from pathlib import Path
from urllib.parse import unquote, urlsplit

from listbuilder.locations import shared
from listbuilder.printing.weasy import URLFetcher, URLFetcherResponse

STATIC = shared("static")
TYPES = {".css": "text/css", ".svg": "image/svg+xml", ".ttf": "font/ttf", ".otf": "font/otf",
         ".woff": "font/woff", ".woff2": "font/woff2", ".png": "image/png"}


class RefusedURL(ValueError):
    """A URL outside the project's static files."""


def static_base_url(static: Path = STATIC) -> str:
    return static.resolve().as_uri() + "/"


def static_path(url: str, static: Path = STATIC) -> Path:
    """The file under `static` that a URL names; RefusedURL for anything else."""
    parts = urlsplit(url)
    if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
        raise RefusedURL(f"refused {url[:200]!r}: only the project's static files are read")
    path = Path(unquote(parts.path)).resolve()
    root = static.resolve()
    if not path.is_relative_to(root) or not path.is_file() or path.suffix not in TYPES:
        raise RefusedURL(f"refused {url[:200]!r}: not a static file of the project")
    return path


def _read(path: Path) -> bytes:
    """A static file's bytes. Fonts are read afresh: WeasyPrint asks for each once a font
    configuration (one a set of stylesheets, `layout.Styles`) and keeps its own copy in a file,
    so keeping theirs too held 1.9 MB in every process for nothing."""
    font = TYPES.get(path.suffix, "").startswith("font/")
    return path.read_bytes() if font else _read_kept(path)


@lru_cache(maxsize=64)
def _read_kept(path: Path) -> bytes:
    return path.read_bytes()  # stylesheets and icons, asked for by every document


class StaticFetcher(URLFetcher):  # type: ignore[misc]  # weasyprint ships no type hints
    """A WeasyPrint URL fetcher serving `static/` only. `refused` lists what it turned down."""

    def __init__(self, static: Path = STATIC) -> None:
        super().__init__(allowed_protocols=("file",), allow_redirects=False)
        self.static = static
        self.refused: list[str] = []

    def fetch(self, url: str, headers: object = None) -> URLFetcherResponse:
        try:
            path = static_path(url, self.static)
        except RefusedURL:
            self.refused.append(url)
            raise
        kind = TYPES.get(path.suffix) or mimetypes.guess_type(path.name)[0] or "text/plain"
        return URLFetcherResponse(url, _read(path), {"Content-Type": kind})
