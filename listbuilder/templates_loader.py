"""The one Jinja loader of every page and every print: the shared templates of the package,
then each system's own under its id ("warstuff/rules.html" is the WarStuff package's
templates/rules.html), so a system's templates travel with its package."""

from __future__ import annotations

from jinja2 import BaseLoader, ChoiceLoader, FileSystemLoader, PrefixLoader

from listbuilder.engine.registry import all_systems
from listbuilder.locations import shared


def template_loader() -> BaseLoader:
    return ChoiceLoader([
        FileSystemLoader(str(shared("templates"))),
        PrefixLoader({system.id: FileSystemLoader(str(system.templates_folder()))
                      for system in all_systems()}),
    ])
