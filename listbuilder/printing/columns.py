"""Where a roster sheet's two columns of rules part, worked out from the font's metrics.

WeasyPrint balances CSS columns (`column-fill: balance`) by laying their content out again
and again until the columns come out even: more than half of a roster sheet's layout time
(0.50 s against 0.15 s for op40k's example, measured). The sheet instead names the rule that
starts the second column (`break-before: column`, with `column-fill: auto`), chosen here by
setting each rule's words into lines of the column's width, as the page will. A section that
runs over a page break can't be split this way; `layout.render_sheet_document` then lays the
sheet out again with balanced columns.
"""

from __future__ import annotations

from collections.abc import Sequence

from listbuilder.engine.profile import RuleText
from listbuilder.printing.textwidth import PT_PER_MM, em_width

SHEET_PT = 8.5  # the roster sheet's text size (page_base.html's default)
LINE_HEIGHT = 1.25  # print-pages.css: body
RULE_GAP_MM = 1.0  # print-pages.css: p.rule's margin-bottom
COLUMN_GAP_MM = 6.0  # print-pages.css: .columns
PAGE_WIDTH_MM = {"a4": 210.0, "letter": 215.9}
PAGE_MARGIN_MM = 11.0  # page_base.html: left and right


def column_width(paper: str) -> float:
    """The width in mm of one of a roster sheet's two columns on this paper."""
    return (PAGE_WIDTH_MM[paper] - 2 * PAGE_MARGIN_MM - COLUMN_GAP_MM) / 2


def lines(rule: RuleText, width_mm: float, font_pt: float = SHEET_PT) -> int:
    """The lines a rule takes in a column `width_mm` wide: its name in bold, a colon, its
    text, broken between words as a line fills."""
    room = width_mm * PT_PER_MM / font_pt  # ems
    space = em_width(" ")
    words = [(w, True) for w in f"{rule.name}{':' if rule.text else ''}".split()]
    words += [(w, False) for w in rule.text.split()]
    count, used = 1, 0.0
    for word, bold in words:
        width = em_width(word, bold)
        if used and used + space + width > room:
            count, used = count + 1, width
        else:
            used += (space if used else 0.0) + width
    return count


def column_start(rules: Sequence[RuleText], width_mm: float, font_pt: float = SHEET_PT) -> int:
    """The index of the rule that starts the second column, as balanced CSS columns part
    them: the least height that holds every rule in two columns, the first column filled
    up to it; 0 for fewer than two rules (nothing to part)."""
    if len(rules) < 2:
        return 0
    line_mm = font_pt * LINE_HEIGHT / PT_PER_MM
    heights = [lines(rule, width_mm, font_pt) * line_mm + RULE_GAP_MM for rule in rules]
    total = sum(heights)
    tallest = min(max(sum(heights[:k]), total - sum(heights[:k])) for k in range(1, len(rules)))
    # as balanced columns fill: the first column takes every rule that fits that height
    start, first = 0, 0.0
    while start < len(rules) - 1 and first + heights[start] <= tallest + 1e-6:
        first += heights[start]
        start += 1
    return start
