"""``dtc rules NAME``: a ruleset summarised in plain text, with an exact odds table."""

from __future__ import annotations

from dtc.systems.base import Combined, Ruleset


def _percent(p: object) -> str:
    return f"{float(p) * 100:5.1f}%"  # type: ignore[arg-type]


def odds_table(ruleset: Ruleset, abilities: list[str] | None = None) -> list[str]:
    """Chance of success by score (rows) and difficulty (columns), exact then rounded."""
    ds = [d for d in ruleset.difficulties if d > 0]
    if not ds:
        return []
    low, high = ruleset.score_range
    name = (abilities or ruleset.ability_names)[0]
    signed = low < 1
    head = "  score " + "".join(f"{'D' + str(d):>8}" for d in ds)
    lines = [head]
    for score in range(low, high + 1):
        row = [_percent(ruleset.check_probability({name: score}, name, d)) for d in ds]
        label = f"{score:+d}" if signed else str(score)
        lines.append(f"  {label:>5} " + "".join(f"{c:>8}" for c in row))
    return lines


def _part_lines(part: Ruleset, abilities: list[str]) -> list[str]:
    out = [f"abilities:    {' '.join(abilities)}"]
    for a in abilities:
        aliases = part.aliases(a)
        if aliases:
            out.append(f"  {a:<10} also {', '.join(aliases)}")
    out.append(f"difficulties: {' '.join(f'D{d}' for d in part.difficulties)}")
    for d in part.difficulties:
        if d in part.difficulty_notes:
            out.append(f"  D{d}  {part.difficulty_notes[d]}")
    table = odds_table(part, abilities)
    if table:
        out += ["", "chance of success by score:", *table]
    for heading, lines in part.sections:
        out += ["", f"{heading}:", *(f"  {line}" for line in lines)]
    return out


def summarise(ruleset: Ruleset) -> list[str]:
    """Every line ``dtc rules NAME`` prints."""
    out = [f"{ruleset.title} ({ruleset.name})"]
    parts = ruleset.parts if isinstance(ruleset, Combined) else (ruleset,)
    for n, part in enumerate(parts):
        abilities = ruleset.own_abilities(part) if isinstance(ruleset, Combined) else part.ability_names
        if n:
            out += ["", f"== overlay: {part.title} ({part.name}) ==",
                    f"checks {' '.join(abilities) or 'no ability of the base'}, and every hazard"]
        if part.source:
            out.append(f"source:       {part.source}")
        if part.doc:
            out.append(f"docs:         {part.doc}")
        if n and not abilities:
            abilities = part.ability_names
        out += _part_lines(part, abilities)
    if isinstance(ruleset, Combined):
        out.insert(1, f"abilities:    {' '.join(ruleset.ability_names)}")
        out.insert(2, f"difficulties: {' '.join(f'D{d}' for d in ruleset.difficulties)}")
    return out
