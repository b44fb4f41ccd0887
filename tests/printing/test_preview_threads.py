"""Previews drawn by several server threads at once: PDFium is not thread-safe, and two
threads rendering at the same moment crashed the whole process (a segfault, seen in a
browser test whose page loads several previews at once). Run in a child process so that a
crash fails this test instead of ending the test run."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.print

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "hammerwars" / "legal.yaml"

CHILD = textwrap.dedent("""
    import sys, threading
    from listbuilder.engine.library import Library
    from listbuilder.printing.options import PrintOptions
    from listbuilder.printing.preview import first_page_png
    from listbuilder.printing.render import print_roster

    path = sys.argv[1]
    loaded = Library().read_roster(open(path, encoding="utf-8").read(), path)
    pdf = print_roster(loaded.catalog, loaded.system, loaded.roster, PrintOptions()).pdf
    alone = first_page_png(pdf)
    pictures, errors = [], []

    def draw():
        try:
            for _ in range(10):
                pictures.append(first_page_png(pdf))
        except BaseException as error:
            errors.append(repr(error))

    threads = [threading.Thread(target=draw) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(len(pictures), sum(p == alone for p in pictures), errors)
""")


def test_previews_drawn_by_six_threads_at_once_are_all_drawn_and_the_same() -> None:
    done = subprocess.run([sys.executable, "-c", CHILD, str(EXAMPLE)], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, f"exit {done.returncode}: {done.stderr[-2000:]}"
    assert done.stdout.split("\n")[-2] == "60 60 []"
