"""The engine and the systems import without any web or PDF library."""

from __future__ import annotations

import subprocess
import sys

FORBIDDEN = ("flask", "jinja2", "wtforms", "weasyprint", "flask_wtf", "sqlalchemy")


def test_engine_and_systems_import_without_web_or_pdf_libraries() -> None:
    code = (
        "import sys, pkgutil, importlib\n"
        "import listbuilder.engine, listbuilder.systems\n"
        "for pkg in (listbuilder.engine, listbuilder.systems):\n"
        "    for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + '.'):\n"
        "        importlib.import_module(m.name)\n"
        "from listbuilder.engine.library import Library\n"
        "lib = Library()\n"
        "from listbuilder.engine.registry import all_systems\n"
        "for s in all_systems(): lib.catalog(s)\n"
        f"bad = [m for m in {FORBIDDEN!r} if m in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
