"""Hover: what a choice leads to and its odds, where a prose exit goes, what leads into an entry.

The words and dice are the game system's own (its reference card, :func:`dtc.systems.reference.describe`:
roll-high or roll-under, its scores and bonus), never Death & Treasure's unless the book plays it.
The odds come from the adventure's ruleset (:meth:`~dtc.systems.base.Ruleset.check_probability`,
exact fractions): for a fresh adventurer, over every score the system deals for the ability
(:meth:`~dtc.systems.base.Ruleset.score_distribution`), and for the middle score of that deal
(10 in Death & Treasure, a +1 bonus in Maze Rats). In Death & Treasure ("Taking Action") a
difficulty of 1, 2 or 3 is that many of {spend a turn, use gear, pass an ability check}.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING

from lsprotocol import types

from dtc.compiler.model import Choice
from dtc.compiler.notation import Change
from dtc.lsp.navigation import Found, find
from dtc.lsp.workspace import Snapshot, first_lines
from dtc.numbers import DIFFICULTY
from dtc.systems import Ruleset

if TYPE_CHECKING:
    from dtc.systems.reference import RollWords

#: Every ability of the default character (the middle of 3d6), where the system deals no scores.
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
    named = ability or c.ability
    lines = [f"**{named} D{d}**" if named else f"**D{d}**"]
    if ruleset.name.split(" + ")[0] == "death-and-treasure" and d in _HOW_MANY:
        lines[0] += f" — needs {_HOW_MANY[d]} of: spend a turn, use gear, pass the check."
    words = roll_words(ruleset, ability, d, shown)
    if words:
        lines.append(f"Check: {words}.")
    typical = middle_score(ruleset, ability)
    odds = check_odds(ruleset, ability, d, typical)
    if odds is not None:
        fresh = fresh_odds(ruleset, ability, d) if ability else None
        said = ("" if fresh is None else
                f"A fresh adventurer passes **{_percent(fresh)}** ({fresh.numerator}/{fresh.denominator}), over "
                f"every {ability} the rules deal; ")
        bonus = _bonus(ruleset, ability)
        score = (f"{ability} {typical:+d}" if bonus else f"{ability} {typical}") if ability else (
            f"a {typical:+d} bonus in every ability" if bonus else f"{typical} in every ability")
        lines.append(f"{said}{'w' if said else 'W'}ith {score} (the middle of the deal), "
                     f"**{_percent(odds)}** ({odds.numerator}/{odds.denominator}).")
    return "  \n".join(lines)


def roll_words(ruleset: Ruleset, ability: str | None, difficulty: int, shown: str) -> str:
    """How the system rolls a check of ``difficulty``, in its own words ("roll 2d6 and add STR bonus:
    10 or more succeeds"); '' when it has none (a plugin without a reference card)."""
    for part in _parts(ruleset.name):
        if ability is None or ability in part["abilities"]:
            template = part["rolls"].get(str(difficulty))
            if template:
                if ability is None:
                    template = template.replace("{ability} bonus", "{ability}'s bonus")
                return template.replace("{ability}", shown)
            break
    return ""


@lru_cache(maxsize=32)
def _parts(spec: str) -> tuple[RollWords, ...]:
    from dtc.systems.reference import describe

    try:
        return tuple(describe(spec)["parts"])
    except Exception:  # an unknown or a plugin's rules: no words, never a failed hover
        return ()


def middle_score(ruleset: Ruleset, ability: str | None) -> int:
    """The middle of the scores the system deals for ``ability`` (the lower median: 10 on 3d6, a
    +1 bonus in Maze Rats); :data:`DEFAULT_SCORE` when it cannot say."""
    dist = _distribution(ruleset, ability)
    if not dist:
        return DEFAULT_SCORE
    seen = Fraction(0)
    for score in sorted(dist):
        seen += dist[score]
        if seen >= Fraction(1, 2):
            return score
    return DEFAULT_SCORE


def fresh_odds(ruleset: Ruleset, ability: str, difficulty: int) -> Fraction | None:
    """The chance a freshly made adventurer passes: over every score the system deals for ``ability``."""
    dist = _distribution(ruleset, ability)
    if not dist:
        return None
    total = Fraction(0)
    for score, p in dist.items():
        odds = check_odds(ruleset, ability, difficulty, score)
        if odds is None:
            return None
        total += p * odds
    return total


def _distribution(ruleset: Ruleset, ability: str | None) -> dict[int, Fraction]:
    try:
        return ruleset.score_distribution(ability or next(iter(ruleset.ability_names), None))
    except (NotImplementedError, KeyError, ValueError):
        return {}


def _bonus(ruleset: Ruleset, ability: str | None) -> bool:
    """Whether the scores are bonuses added to a roll-high total (Maze Rats), not targets."""
    return any("bonus" in part["rolls"].get("2", "") and (ability is None or ability in part["abilities"])
               for part in _parts(ruleset.name))


def _state_text(c: Choice, containers: Mapping[str, tuple[str, ...]]) -> str:
    """What a choice needs and what taking it does (docs/format.md, "Writing a published gamebook");
    a container's possessions named (``Containers:``: ``-all backpack``, ``-1 item of choice from
    backpack``)."""
    from dtc.compiler.notation import cond_text

    lines = []
    if c.condition is not None:
        lines.append(f"Open only if: {cond_text(c.condition)}")
    if c.changes:
        said = ", ".join(ch.change.words() + _holds(ch.change, containers) if ch.change is not None
                         else _plain_words(ch.name, ch.amount) for ch in c.changes)
        lines.append(f"Taking it: {said} (applied as it is taken)")
    return "  \n".join(lines)


def _holds(change: Change, containers: Mapping[str, tuple[str, ...]]) -> str:
    """`` (everything in it: rope, meal)`` after a loss of a container, `` (one of: rope, meal)``
    after a choice from one; nothing otherwise."""
    if change.all and change.name in containers:
        return f" (everything in it: {', '.join(containers[change.name])})"
    source = change.source
    if source is not None:
        return f" (one of: {', '.join(containers[source])})" if source in containers else " (no such container)"
    return ""


def _plain_words(name: str, amount: int) -> str:
    """``-3 coins``, ``+rope``: a plain effect as the notation writes it."""
    return f"{'+' if amount > 0 else '-'}{'' if abs(amount) == 1 else f'{abs(amount)} '}{name}"


def _choice_hover(snap: Snapshot, c: Choice) -> str:
    if c.error is not None:
        return f"Malformed choice `{c.text}`: {c.error}"
    parts = [f"**{c.label}** `{c.text}`" if c.label else f"`{c.text}`", _check_text(snap, c),
             _state_text(c, snap.doc.containers), _target_lines(snap, "S", c.success)]
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
