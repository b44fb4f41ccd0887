from __future__ import annotations

from pathlib import Path

import pytest

from listbuilder.engine.library import Library
from listbuilder.engine.report import report
from listbuilder.engine.roster_file import LoadedRoster
from listbuilder.engine.system import Violation
from listbuilder.printing.facecache import FACES

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def fresh_faces():
    """Each test lays its cards out itself: a face another test laid out is not reused (a
    test of the layout or its processes would otherwise measure a cache hit)."""
    FACES.clear()
    yield
    FACES.clear()


@pytest.fixture(scope="session")
def library(tmp_path_factory: pytest.TempPathFactory) -> Library:
    """The built-in data only: an empty folder stands in for the player's own data."""
    return Library(custom_dir=tmp_path_factory.mktemp("no-custom-data"))


@pytest.fixture(scope="session")
def read(library: Library):
    """Read roster YAML text with the built-in data: read(text) -> LoadedRoster."""

    def _read(text: str, file: str = "test.yaml") -> LoadedRoster:
        return library.read_roster(text, file)

    return _read


@pytest.fixture(scope="session")
def violations(read):
    """Rule ids broken by a roster given as YAML text (errors and warnings)."""

    def _violations(text: str) -> list[Violation]:
        loaded = read(text)
        return report(loaded.system, loaded.catalog, loaded.roster).violations

    return _violations
