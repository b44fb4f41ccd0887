"""Where a print stands in line, in the words its page says it."""

from __future__ import annotations

from listbuilder.jobs.ledger import InLine


def place_words(place: InLine) -> str:
    """"being laid out now", "3rd in line", and why a print waits when no printer runs."""
    if place.now:
        return "being laid out now"
    if place.stopped:
        if not place.workers:
            return "waiting for a printer to start: the one laying it out stopped"
        return "going back in line: the printer laying it out stopped"
    if not place.workers:
        return f"{ordinal(place.place)} in line, waiting for a printer to start"
    return f"{ordinal(place.place)} in line"


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st..."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
