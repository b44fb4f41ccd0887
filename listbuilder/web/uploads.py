"""Uploaded roster files: read with the full reader, so every problem comes with its line."""

from __future__ import annotations

from werkzeug.datastructures import FileStorage

from listbuilder.engine.errors import DataLoadError
from listbuilder.engine.library import Library
from listbuilder.engine.roster_file import MAX_ROSTER_BYTES, LoadedRoster, roster_text


class UploadProblem(Exception):
    """A file that was not read: every problem (`lines`), and the file's name and text (None
    when it is no text), so the page that says so still shows what the player sent."""

    def __init__(self, lines: list[str], name: str = "", text: str | None = None) -> None:
        self.lines = lines
        self.name = name
        self.text = text
        super().__init__("\n".join(lines))


def read_upload(library: Library, upload: FileStorage) -> LoadedRoster:
    return read_upload_text(library, upload)[0]


def read_upload_text(library: Library, upload: FileStorage) -> tuple[LoadedRoster, str]:
    """The roster an upload holds, and its text (a match carries its rosters' texts)."""
    name = (upload.filename or "roster.yaml")[-100:]
    text = None
    try:
        try:
            raw = upload.read(MAX_ROSTER_BYTES + 1)
        finally:
            upload.close()  # a large upload is spooled to a temporary file: let it go now
        text = roster_text(raw, name)
        return library.read_roster(text, name), text
    except DataLoadError as exc:
        raise UploadProblem([str(e) for e in exc.errors], name, text) from exc
