"""A roster as plain text for chats and forums: units, options, costs, totals and whether it is
legal. Pure: everything comes from the system's hooks, so the text matches what the builder and
`listbuilder validate` report."""

from __future__ import annotations

from listbuilder.engine.model import Catalog, Roster, RosterEntry
from listbuilder.engine.system import RuleSystem, message_line


def roster_text(system: RuleSystem, catalog: Catalog, roster: Roster) -> str:
    """The roster as lines of plain text, ending with a newline."""
    unit_of_cost = system.cost_unit
    lines = [f"{roster.name} ({system.name})"]
    header = []
    if roster.factions:
        header.append(", ".join(roster.factions))
    if system.uses_points() and roster.points_limit:
        header.append(f"{roster.points_limit} {unit_of_cost} game")
    for key, value in roster.choices.items():
        header.append(f"{key.replace('_', ' ')}: {value}")
    if header:
        lines.append(" | ".join(header))

    if roster.designs:
        lines += ["", "Designed units:"]
        for design in roster.designs:
            rules = ", ".join(design.rules) or "no special rules"
            lines.append(f"- {design.name}: Quality {design.quality}; {rules}")

    lines.append("")
    labels = {e.label: e for e in roster.entries if e.label}
    for entry in roster.entries:
        lines += _entry_lines(system, catalog, roster, entry, labels)
    if not roster.entries:
        lines.append("(no units yet)")

    totals = system.totals(catalog, roster)
    lines += ["", f"Total: {totals.headline}"]
    lines += [f"{label}: {value}" for label, value in totals.lines]
    lines += [f"Note: {note}" for note in totals.notes]
    for section in system.sections(catalog, roster):
        lines += ["", f"{section.title}:"]
        lines += [f"{label}: {value}" for label, value in section.lines]

    found = system.validate(catalog, roster)
    errors = [v for v in found if v.severity == "error"]
    warnings = [v for v in found if v.severity == "warning"]
    lines += ["", system.status(catalog, roster, found).text]
    lines += [f"- {message_line(v)}" for v in errors + warnings]
    return "\n".join(lines) + "\n"


def _entry_lines(system: RuleSystem, catalog: Catalog, roster: Roster, entry: RosterEntry,
                 labels: dict[str, RosterEntry]) -> list[str]:
    unit = system.unit_of(catalog, roster, entry)
    cost = system.spent_text(system.entry_cost(catalog, roster, entry)) if unit is not None \
        else "not in the catalog"
    name = f"{entry.unit} [{entry.faction}]" if entry.faction else entry.unit
    out = [f"- {name} ({system.count_label} {entry.count}): {cost}"]
    if entry.upgrades:
        out.append(f"  with {', '.join(entry.upgrades)}")
        fielded = system.fielded(catalog, unit, entry) if unit is not None else None
        if fielded is not None and fielded.weapons:  # what the upgrades leave them carrying
            out.append(f"  carrying {fielded.weapons_text}")
    if entry.joins:
        target = labels.get(entry.joins)
        out.append(f"  joins {target.unit if target else entry.joins}")
    return out
