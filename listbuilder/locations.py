"""Where Listbuilder finds its files, whether it runs from a checkout or an installed wheel.

Everything shipped (shared templates and static files, the rules notes, each system's data and
templates, the migrations) is package data, read through `importlib.resources`: never a path
climbed from `__file__` to a checkout that an installed package does not have. What the host
owns (the instance folder: secret key, SQLite file, the players' own data) is outside the
package, in the folder the command runs from unless `LISTBUILDER_INSTANCE` says otherwise.

Plain standard library: the rules engine imports this.
"""

from __future__ import annotations

import os
import sys
from importlib.resources import files
from pathlib import Path


def package_folder(package: str, *parts: str) -> Path:
    """A folder (or file) inside an installed package, as a path. Packages are installed
    unpacked (pip never installs a zipped wheel), so their resources are files on disk, which
    Jinja, WeasyPrint and Alembic want."""
    return Path(str(files(package).joinpath(*parts)))


def shared(*parts: str) -> Path:
    """A shared resource of the package: `shared("templates")`, `shared("static", "css")`."""
    return package_folder("listbuilder", *parts)


def package_of(cls: type) -> str:
    """The package a class is defined in (its module's own name if that is a package)."""
    module = sys.modules[cls.__module__]
    return module.__name__ if hasattr(module, "__path__") else (module.__package__ or "")


def instance_folder() -> Path:
    """The host's instance folder: LISTBUILDER_INSTANCE, else `instance/` in the folder the
    command runs from (a checkout's `make run` keeps it in the checkout, git-ignored)."""
    return Path(os.environ.get("LISTBUILDER_INSTANCE") or Path.cwd() / "instance")


RULES_NOTES = "rules-notes.md"  # docs/rules-notes.md, shipped in the package under this name
