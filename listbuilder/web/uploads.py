"""Uploaded roster files: read with the full reader, so every problem comes with its line."""

from __future__ import annotations

from werkzeug.datastructures import FileStorage

from listbuilder.engine.errors import DataLoadError
from listbuilder.engine.library import Library
from listbuilder.engine.roster_file import MAX_ROSTER_BYTES, LoadedRoster, roster_text


class UploadProblem(Exception):
    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        super().__init__("\n".join(lines))


def read_upload(library: Library, upload: FileStorage) -> LoadedRoster:
    name = (upload.filename or "roster.yaml")[-100:]
    try:
        text = roster_text(upload.read(MAX_ROSTER_BYTES + 1), name)
        return library.read_roster(text, name)
    except DataLoadError as exc:
        return_lines = [str(e) for e in exc.errors]
        raise UploadProblem(return_lines) from exc
