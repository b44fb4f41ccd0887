"""The one Jinja loader of every page and every print: the shared templates of the package,
then each web feature's own under its name ("builder/roster.html" is web/builder's
templates/roster.html) and each system's own under its id ("warstuff/rules.html" is the
WarStuff package's templates/rules.html), so templates travel with the code that draws them."""

from __future__ import annotations

from jinja2 import BaseLoader, ChoiceLoader, FileSystemLoader, PrefixLoader

from listbuilder.engine.registry import all_systems
from listbuilder.locations import shared

# The web features with templates of their own (listbuilder/web/<feature>/templates/).
FEATURES = ("builder", "home", "studio", "prints", "resolve", "site", "table", "events")


def template_loader() -> BaseLoader:
    features = {name: FileSystemLoader(str(shared("web", name, "templates"))) for name in FEATURES}
    systems = {system.id: FileSystemLoader(str(system.templates_folder()))
               for system in all_systems()}
    # An outside game whose id is a feature's name must not hide the feature's pages: the
    # feature wins (the game's own templates are then not found, and its contract tests say so).
    return ChoiceLoader([FileSystemLoader(str(shared("templates"))),
                         PrefixLoader(systems | features)])
