"""Laying out in two processes gives the same cards as one process.

The fork is only taken from a single-threaded process, and the test process may have threads
(a live web server), so the two-process runs happen in a fresh interpreter."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from listbuilder.printing import workers

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.print

DECK_IN_ONE_OR_TWO = """
import json, os, sys
from pathlib import Path
sys.path.insert(0, "tests/printing")
from pdfcheck import all_text, placements
from listbuilder.engine.library import Library
from listbuilder.engine.registry import get_system
from listbuilder.printing import workers
from listbuilder.printing.options import PrintOptions
from listbuilder.printing.render import print_deck


system = get_system("spaceempires")
catalog = Library(custom_dir=Path(sys.argv[1])).catalog(system)
out = {"forks": workers.can_fork()}
for n in ("1", "2"):
    os.environ["LISTBUILDER_PRINT_WORKERS"] = n
    out[n + "-shares"] = len(workers.split_work([1] * 19))
    printed = print_deck(catalog, system, PrintOptions(duplex="long"))
    out[n] = [[len(p) for p in placements(printed.pdf)], all_text(printed.pdf),
              printed.cards, printed.faces, printed.pages]
def boom():
    raise RuntimeError("no")
out["failed child"] = workers.in_child(boom)()
out["child"] = workers.in_child(lambda: {"cards": 3})()
print(json.dumps(out))
"""


def test_shares_are_balanced_by_weight(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LISTBUILDER_PRINT_WORKERS", "2")
    monkeypatch.setattr(workers, "can_fork", lambda: True)
    shares = workers.split_work([100, 10, 10, 10, 10, 10, 10, 10, 10, 10])
    assert sorted(i for share in shares for i in share) == list(range(10))
    assert [0] in shares  # the heavy face alone on one side
    assert workers.split_work([1, 2, 3]) == [[0, 1, 2]]  # too few to be worth a fork
    monkeypatch.setenv("LISTBUILDER_PRINT_WORKERS", "1")
    assert workers.split_work([1] * 20) == [list(range(20))]


def test_one_process_or_two_print_the_same_deck(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", DECK_IN_ONE_OR_TWO, str(tmp_path)], cwd=ROOT,
                          capture_output=True, text=True, check=True, timeout=300)
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["forks"] is True
    assert (out["1-shares"], out["2-shares"]) == (1, 2)
    assert out["1"] == out["2"]
    assert sum(out["1"][0]) == 2 * 49  # fronts and backs
    assert out["failed child"] is None  # the parent then lays those faces out itself
    assert out["child"] == {"cards": 3}


def test_from_a_thread_a_print_is_laid_out_in_one_process(library, monkeypatch) -> None:
    """From a thread (a process with threads, where forking is unsafe) a big print is laid out
    in the one process, and prints the same deck."""
    import threading

    from listbuilder.engine.registry import get_system
    from listbuilder.printing.options import PrintOptions
    from listbuilder.printing.render import print_deck

    from .pdfcheck import all_text, placements

    system = get_system("spaceempires")
    catalog = library.catalog(system)
    monkeypatch.setenv("LISTBUILDER_PRINT_WORKERS", "2")
    results: dict[str, object] = {}

    def in_thread() -> None:
        results["shares"] = len(workers.split_work([1] * 19))
        printed = print_deck(catalog, system, PrintOptions(duplex="long"))
        results["cards"] = ([len(p) for p in placements(printed.pdf)], all_text(printed.pdf))

    thread = threading.Thread(target=in_thread)
    thread.start()
    thread.join()
    assert results["shares"] == 1
    placed, text = results["cards"]  # type: ignore[misc]
    assert sum(placed) == 2 * 49 and "Tactical Move" in text
