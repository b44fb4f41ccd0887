"""A resolve result drawn for people: an SVG chart (server-drawn, no JavaScript) and plain text.

`chart_svg(result)` draws the main distribution as bars with the "at least k" chances as a line
over them, on one 0-100% scale, with the summary as title. Every piece of text is escaped, so
user-made names (custom units, designs) can't break the markup. Each piece carries its colour
and a class naming its part (c-bar, c-line, ...), so a page's style sheet can recolour the chart
(the site's dark scheme does: static/css/resolve.css) while the SVG alone still reads.
`chart_text(result)` is the same picture for a terminal.
"""

from __future__ import annotations

from html import escape

from listbuilder.engine.resolve import Outcome, Result, percent

TAIL = 1e-4  # values beyond the range holding all but this much at each end are left out
SHOW_ALL = 12  # up to this many values, every one gets its bar
BAR_COLOUR = "#4a78a8"
LINE_COLOUR = "#c8553d"


def shown_range(outcome: Outcome) -> tuple[int, int]:
    """The values worth a bar: all of them when few, else the range holding all but the
    thinnest tails (under TAIL at each end)."""
    values = outcome.values()
    lo, hi = values.start, values.stop - 1
    if hi - lo < SHOW_ALL:
        return lo, hi
    tlo, thi = outcome.dist.trimmed(TAIL)
    return max(lo, tlo), min(hi, thi)


def _x(text: object) -> str:
    return escape(str(text), quote=True)


def chart_svg(result: Result, width: int = 560, height: int = 300) -> str:
    """The main distribution as an SVG string: bars (chance of each value) and a line (chance
    of at least that value), labelled, with a title and description for screen readers."""
    outcome = result.outcome
    lo, hi = shown_range(outcome)
    values = list(range(lo, hi + 1))
    left, right, top, bottom = 44, 16, 40, 58
    plot_w = width - left - right
    plot_h = height - top - bottom
    step = plot_w / max(1, len(values))
    bar_w = max(1.0, step * 0.7)
    label_every = max(1, round(len(values) / 16))

    def y(p: float) -> float:
        return top + plot_h * (1 - p)

    title = f"{result.attacker} against {result.defender}: {result.summary}"
    desc = "; ".join(f"{outcome.label(v)}: {percent(outcome.dist.prob(v))}" for v in values)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-labelledby="t d" '
        f'font-family="sans-serif" font-size="11">',
        f'<title id="t">{_x(title)}</title>',
        f'<desc id="d">{_x(outcome.title)}. {_x(desc)}</desc>',
        f'<text x="{left}" y="16" font-size="13" font-weight="bold" class="c-title">'
        f'{_x(result.summary)}</text>',
        f'<text x="{left}" y="31" fill="#444" class="c-sub">{_x(outcome.title)}</text>',
    ]
    for tick in (0, 0.25, 0.5, 0.75, 1):
        ty = y(tick)
        parts.append(f'<line x1="{left}" x2="{width - right}" y1="{ty:.1f}" y2="{ty:.1f}" '
                     f'stroke="#ddd" class="c-grid"/>')
        parts.append(f'<text x="{left - 4}" y="{ty + 4:.1f}" text-anchor="end" '
                     f'fill="#555" class="c-tick">{round(tick * 100)}%</text>')
    points = []
    for i, v in enumerate(values):
        p = float(outcome.dist.prob(v))
        cx = left + step * i + step / 2
        bar_top = y(p)
        parts.append(f'<rect x="{cx - bar_w / 2:.1f}" y="{bar_top:.1f}" width="{bar_w:.1f}" '
                     f'height="{top + plot_h - bar_top:.1f}" fill="{BAR_COLOUR}" class="c-bar">'
                     f'<title>{_x(outcome.label(v))}: {_x(percent(p))}</title></rect>')
        if len(values) <= 16 and p >= 0.005:
            parts.append(f'<text x="{cx:.1f}" y="{bar_top - 3:.1f}" text-anchor="middle" '
                         f'font-size="9" fill="#223" class="c-value">{_x(percent(p))}</text>')
        if i % label_every == 0:
            parts.append(f'<text x="{cx:.1f}" y="{top + plot_h + 14:.1f}" '
                         f'text-anchor="middle" class="c-label">{_x(outcome.label(v))}</text>')
        points.append(f"{cx:.1f},{y(float(outcome.dist.at_least(v))):.1f}")
    parts.append(f'<polyline points="{" ".join(points)}" fill="none" stroke="{LINE_COLOUR}" '
                 f'stroke-width="2" class="c-line"/>')
    for point in points:
        px, py = point.split(",")
        parts.append(f'<circle cx="{px}" cy="{py}" r="2.5" fill="{LINE_COLOUR}" class="c-point"/>')
    legend_y = height - 14
    parts += [
        f'<rect x="{left}" y="{legend_y - 9}" width="10" height="10" fill="{BAR_COLOUR}" '
        f'class="c-bar"/>',
        f'<text x="{left + 14}" y="{legend_y}" class="c-label">chance of exactly this</text>',
        f'<line x1="{left + 170}" x2="{left + 190}" y1="{legend_y - 4}" y2="{legend_y - 4}" '
        f'stroke="{LINE_COLOUR}" stroke-width="2" class="c-line"/>',
        f'<text x="{left + 194}" y="{legend_y}" class="c-label">chance of at least this</text>',
        "</svg>",
    ]
    return "\n".join(parts)


def chart_text(result: Result, bar: int = 30) -> str:
    """The result for a terminal: situation, steps, each distribution with bars, chances."""
    lines = [f"{result.attacker} -> {result.defender}"]
    if result.situation:
        lines.append("situation: " + "; ".join(f"{k}: {v}" for k, v in result.situation))
    lines += [f"  {step}" for step in result.steps]
    for outcome in result.outcomes:
        lo, hi = shown_range(outcome)
        width = max(len(outcome.label(v)) for v in range(lo, hi + 1))
        lines += ["", f"{outcome.title}{' ' * max(1, bar + width - len(outcome.title) + 4)}"
                      f"exactly  at least"]
        for v in range(lo, hi + 1):
            p = float(outcome.dist.prob(v))
            filled = "#" * round(p * bar)
            lines.append(f"  {outcome.label(v):>{width}}  {filled:<{bar}}  {p * 100:6.2f}%"
                         f"  {float(outcome.dist.at_least(v)) * 100:6.2f}%")
        full = outcome.values()
        if (lo, hi) != (full.start, full.stop - 1):
            lines.append(f"  (values outside {outcome.label(lo)}..{outcome.label(hi)} "
                         f"together: under {TAIL * 200:.2f}%)")
        lines.append(f"  mean {float(outcome.mean):.3f}")
    if result.chances:
        lines.append("")
        lines += [f"{c.label}: {percent(c.p)} ({float(c.p) * 100:.2f}%)" for c in result.chances]
    lines += ["", result.summary]
    return "\n".join(lines)
