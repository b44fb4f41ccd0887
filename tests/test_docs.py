"""The docs keep their promises: every rules note is pinned by a test that exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTES = (ROOT / "docs" / "rules-notes.md").read_text()


def sections() -> list[str]:
    return re.split(r"^### ", NOTES, flags=re.M)[1:]


def test_every_reading_names_at_least_one_test() -> None:
    assert len(sections()) >= 40
    for section in sections():
        assert "Pinned by:" in section, section.splitlines()[0]


def test_every_named_test_exists() -> None:
    printing = (ROOT / "docs" / "printing.md").read_text()
    refs = re.findall(r"(tests/[\w/]+\.py)::(\w+)", NOTES + printing)
    assert len(refs) >= len(sections())
    for path, name in refs:
        source = (ROOT / path).read_text()
        assert re.search(rf"^def {name}\(", source, flags=re.M), f"{path}::{name} is missing"


def test_readme_opens_with_the_two_commands() -> None:
    readme = (ROOT / "README.md").read_text()
    block = readme.split("```")[1]
    commands = [line.split("#")[0].strip() for line in block.splitlines()[1:] if line.strip()]
    assert commands == ["make run", "make test"]
