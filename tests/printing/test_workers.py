"""Laying out in two processes gives the same cards as one process."""

from __future__ import annotations

import pytest

from listbuilder.engine.library import Library
from listbuilder.engine.registry import get_system
from listbuilder.printing import workers
from listbuilder.printing.options import PrintOptions
from listbuilder.printing.render import print_deck

from .pdfcheck import all_text, placements


def test_shares_are_balanced_by_weight(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LISTBUILDER_PRINT_WORKERS", "2")
    monkeypatch.setattr(workers, "can_fork", lambda: True)
    shares = workers.split_work([100, 10, 10, 10, 10, 10, 10, 10, 10, 10])
    assert sorted(i for share in shares for i in share) == list(range(10))
    assert [0] in shares  # the heavy face alone on one side
    assert workers.split_work([1, 2, 3]) == [[0, 1, 2]]  # too few to be worth a fork
    monkeypatch.setenv("LISTBUILDER_PRINT_WORKERS", "1")
    assert workers.split_work([1] * 20) == [list(range(20))]


def test_a_failing_child_hands_the_work_back() -> None:
    if not workers.can_fork():
        pytest.skip("this process has threads: the printer never forks here")

    def boom() -> None:
        raise RuntimeError("no")

    assert workers.in_child(boom)() is None
    assert workers.in_child(lambda: {"cards": 3})() == {"cards": 3}


def test_one_process_or_two_print_the_same_deck(library: Library,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    system = get_system("spaceempires")
    catalog = library.catalog(system)
    monkeypatch.setenv("LISTBUILDER_PRINT_WORKERS", "1")
    alone = print_deck(catalog, system, PrintOptions(duplex="long"))
    monkeypatch.setenv("LISTBUILDER_PRINT_WORKERS", "2")
    shared = print_deck(catalog, system, PrintOptions(duplex="long"))
    assert [len(p) for p in placements(alone.pdf)] == [len(p) for p in placements(shared.pdf)]
    assert all_text(alone.pdf) == all_text(shared.pdf)
    assert (alone.cards, alone.faces, alone.pages) == (shared.cards, shared.faces, shared.pages)
