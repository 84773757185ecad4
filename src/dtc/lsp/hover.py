"""Hover: what a choice leads to and its odds, where a prose exit goes, what leads into an entry.

The odds come from the adventure's ruleset (:meth:`~dtc.systems.base.Ruleset.check_probability`,
exact fractions) for a default character with :data:`DEFAULT_SCORE` in every ability. In Death &
Treasure ("Taking Action") a difficulty of 1, 2 or 3 is that many of {spend a turn, use gear,
pass an ability check}, and the check rolls 2d6, 3d6 or 4d6, passing at or under the ability.
"""

from __future__ import annotations

from fractions import Fraction

from lsprotocol import types

from dtc.compiler.model import Choice
from dtc.lsp.navigation import Found, find
from dtc.lsp.workspace import Snapshot, first_lines
from dtc.numbers import DIFFICULTY
from dtc.systems import Ruleset

#: Every ability of the default character (the middle of 3d6).
DEFAULT_SCORE = 10
_HOW_MANY = {1: "any one", 2: "any two", 3: "all three"}


def check_odds(ruleset: Ruleset, ability: str | None, difficulty: int,
               score: int = DEFAULT_SCORE) -> Fraction | None:
    """The chance that a character with ``score`` in every ability passes the check (None when
    the ruleset cannot say)."""
    character = dict.fromkeys(ruleset.ability_names, score)
    try:
        return ruleset.check_probability(character, ability, difficulty)
    except (NotImplementedError, KeyError, ValueError):
        return None


def _percent(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"


def _target_lines(snap: Snapshot, letter: str, target: int | str | None) -> str:
    if target is None:
        return ""
    entry = snap.entry_for(target)
    if entry is None:
        return f"**{letter}{target}** → entry {target} *does not exist*"
    number = snap.comp.resolved.target_number(target)
    quoted = first_lines(entry).replace("\n", "\n> ")
    return f"**{letter}{target}** → entry {number}:\n> {quoted}"


def _check_text(snap: Snapshot, c: Choice) -> str:
    d = c.difficulty
    if d is None:
        return ""
    if d == 0:
        return "**D0** — no check: the move simply happens."
    ruleset = snap.ruleset
    if ruleset is None:
        return f"**{(c.ability or '') + ' ' if c.ability else ''}D{d}** check (unknown ruleset: no odds)."
    if d not in ruleset.difficulties:  # no odds for what the rules cannot resolve (and no long sums)
        allowed = ruleset.difficulties
        span = f"D{min(allowed)}–D{max(allowed)}" if allowed else "none"
        written = "a difficulty past D99" if d > DIFFICULTY else f"D{d}"
        return f"{written}: not a difficulty of {ruleset.title} ({span}), so no odds."
    ability = ruleset.canonical_ability(c.ability) if c.ability else None
    shown = ability or c.ability or "the most fitting ability"
    odds = check_odds(ruleset, ability, d)
    named = ability or c.ability
    lines = [f"**{named} D{d}**" if named else f"**D{d}**"]
    if ruleset.name.split(" + ")[0] == "death-and-treasure" and d in _HOW_MANY:
        lines[0] += f" — needs {_HOW_MANY[d]} of: spend a turn, use gear, pass the check."
    if odds is not None:
        try:
            dice = ruleset.check_dice(d)
        except NotImplementedError:
            dice = "the dice"
        lines.append(
            f"Check: roll {dice}, pass on ≤ {shown}. A default character ({DEFAULT_SCORE} in every "
            f"ability) passes **{_percent(odds)}** ({odds.numerator}/{odds.denominator})."
        )
    return "  \n".join(lines)


def _state_text(c: Choice) -> str:
    """What a choice needs and what taking it does (docs/format.md, "Writing a published gamebook")."""
    from dtc.compiler.notation import cond_text

    lines = []
    if c.condition is not None:
        lines.append(f"Open only if: {cond_text(c.condition)}")
    if c.changes:
        said = ", ".join(ch.change.words() if ch.change is not None else _plain_words(ch.name, ch.amount)
                         for ch in c.changes)
        lines.append(f"Taking it: {said} (applied as it is taken)")
    return "  \n".join(lines)


def _plain_words(name: str, amount: int) -> str:
    """``-3 coins``, ``+rope``: a plain effect as the notation writes it."""
    return f"{'+' if amount > 0 else '-'}{'' if abs(amount) == 1 else f'{abs(amount)} '}{name}"


def _choice_hover(snap: Snapshot, c: Choice) -> str:
    if c.error is not None:
        return f"Malformed choice `{c.text}`: {c.error}"
    parts = [f"**{c.label}** `{c.text}`" if c.label else f"`{c.text}`", _check_text(snap, c), _state_text(c),
             _target_lines(snap, "S", c.success)]
    if c.failure is not None:
        parts.append(_target_lines(snap, "F", c.failure))
    return "\n\n".join(p for p in parts if p)


def _entry_hover(snap: Snapshot, index: int) -> str:
    res = snap.comp.resolved
    number = res.numbers[index]
    # An exit's target is resolved already (a label it names is a number), so the exits into
    # this entry, which stands for its number, are those whose target is that number.
    sources = sorted({res.numbers[i] for i, exits in enumerate(res.exits) for x in exits if x[0] == number})
    exits = sorted({t for x in res.exits[index] if (t := res.target_number(x.target)) is not None})
    entry = snap.doc.entries[index]
    lines = [f"**Entry {number}**" + (" — an ending" if entry.ending else "")]
    lines.append("Ways in: " + (", ".join(map(str, sources)) if sources else "none"))
    lines.append("Exits: " + (", ".join(map(str, exits)) if exits else "none"))
    if res.start == number:
        lines.append("This is the start.")
    return "  \n".join(lines)


def hover(snap: Snapshot, line: int, column: int) -> types.Hover | None:
    found: Found | None = find(snap, line, column)
    if found is None:
        return None
    if found.choice is not None:
        text = _choice_hover(snap, found.choice)
    elif found.kind == "head" and found.index is not None:
        text = _entry_hover(snap, found.index)
    elif found.target is not None:
        text = _target_lines(snap, "", found.target) or ""
    else:
        return None
    return types.Hover(
        contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text),
        range=snap.lines.range(found.span),
    )
