"""What the `print`, `deck`, `chits` and `rules` commands share: option parsing, the default
output path, progress on a terminal, and writing the PDF (or zip of images) without losing
what was there."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import click

from listbuilder.printing.options import FILES, PrintError, PrintOptions

OUTPUT = Path("output")


def slug(text: str) -> str:
    """A file-name-safe form of a roster, system or faction name."""
    return re.sub(r"[^a-z0-9]+", "-", text.casefold()).strip("-") or "print"


def default_output(*parts: str, options: PrintOptions | None = None) -> Path:
    """output/<parts>.pdf; an image print's zip is named by its format too
    (output/legal-cards-png.zip), so the two zips of one print never overwrite each other."""
    fmt = options.format if options else "pdf"
    if fmt != "pdf":
        parts = (*parts, fmt)
    return OUTPUT / ("-".join(slug(p) for p in parts if p) + FILES[fmt][1])


def options_from_flags(flags: dict[str, Any]) -> PrintOptions:
    """PrintOptions from the command's flags (click has already checked each choice)."""
    return PrintOptions(
        paper=flags.get("paper") or "a4", card=flags.get("card") or "poker",
        cut_marks=bool(flags.get("cut_marks")), bleed=bool(flags.get("bleed")),
        duplex=flags.get("duplex") or "none", ink_saver=bool(flags.get("ink_saver")),
        gutter_fold=bool(flags.get("gutter_fold")), merge=not flags.get("one_per_entry"),
        what=flags.get("what") or "all", format=flags.get("format_") or "pdf")


class TerminalProgress:
    """Progress lines on stderr, only when it is a terminal (never in pipes or logs)."""

    def __init__(self) -> None:
        self.active = sys.stderr.isatty()
        self.shown = False

    def __call__(self, stage: str, done: int, total: int) -> None:
        if self.active:
            count = f" ({done + 1}/{total})" if total > 1 else ""
            click.echo(f"\r\033[K{stage}{count}", err=True, nl=False)
            self.shown = True

    def close(self) -> None:
        if self.shown:
            click.echo("\r\033[K", err=True, nl=False)


def fail(problems: list[str], code: int = 2) -> NoReturn:
    for problem in problems:
        click.echo(f"error: {problem}", err=True)
    sys.exit(code)


def write_pdf(make: Callable[[TerminalProgress], Any], output: Path,
              options: PrintOptions | None = None) -> None:
    """Make the PDF (or zip), then write it: a failed print never leaves a half-written file
    behind."""
    fmt = options.format if options else "pdf"
    ending = FILES[fmt][1]
    if output.suffix.lower() in {end for _, end in FILES.values()} - {ending}:
        fail([f"{output}: a {fmt} print is a {ending} file; name it {output.stem}{ending}"])
    progress = TerminalProgress()
    try:
        printed = make(progress)
    except PrintError as exc:
        progress.close()
        fail(exc.problems)
        return
    progress.close()
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
        partial = output.with_name(output.name + ".part")
        partial.write_bytes(printed.data)
        partial.replace(output)
    except OSError as exc:
        kind = "PDF" if ending == ".pdf" else "zip"
        fail([f"{output}: cannot write the {kind}: {exc.strerror or exc}"])
        return
    what = (f"{printed.cards} {printed.noun} ({printed.faces} distinct), "
            if printed.cards else "")
    noun = printed.page_noun
    click.echo(f"Wrote {output}: {what}{printed.pages} "
               f"{noun if printed.pages == 1 else noun + 's'}")
