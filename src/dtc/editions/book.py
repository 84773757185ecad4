"""What both editions need to know about a compiled book: order, creatures, the dice of checks."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from dtc.compiled.graphjson import CompiledGraph, Creature, Entry, Target
from dtc.systems import Roller, UnknownRuleset, get_ruleset, normalise, parse_rules
from dtc.systems.reference import BookRules, describe, roll_words

_STATIC = Path(__file__).resolve().parent / "static"


@cache
def asset(name: str) -> str:
    """A stylesheet or script shipped in ``dtc/editions/static``."""
    return (_STATIC / name).read_text(encoding="utf-8")


@dataclass(frozen=True, slots=True)
class CheckRules:
    """How a ruleset resolves a check: ``dice[difficulty]`` d``sides``, roll under the ability."""

    name: str
    title: str
    dice: dict[int, int] = field(default_factory=dict)
    sides: int = 6
    abilities: tuple[str, ...] = ()
    #: What a difficulty asks for, in words (shown beside a check).
    options: tuple[str, ...] = ()
    #: The system's rules for a reader (:func:`dtc.systems.reference.describe`); None for unknown rules.
    reader: BookRules | None = None

    def roll_words(self, difficulty: int) -> str | None:
        n = self.dice.get(difficulty)
        return None if n is None else f"{n}d{self.sides}"

    def how_to_roll(self, ability: str | None, difficulty: int) -> str | None:
        """How the reader rolls this check, in the system's words (``roll 2d6 and add your STR
        bonus: 10 or more succeeds``); None where the rules do not say."""
        return None if self.reader is None else roll_words(self.reader, ability, difficulty)


def check_rules(rules: str) -> CheckRules:
    """The check dice of a ``Rules:`` value, from its system's roller; no dice when it has none."""
    try:
        base, _ = parse_rules(rules)
        ruleset = get_ruleset(rules)
    except UnknownRuleset:
        return CheckRules(normalise(rules).split("+")[0].strip("-") or "unknown", rules or "unknown rules")
    roller = base.roller or Roller()
    return CheckRules(base.name, ruleset.title, dict(roller.dice), roller.sides, tuple(ruleset.ability_names),
                      roller.options, describe(rules))


def entries_in_order(graph: CompiledGraph) -> list[Entry]:
    """Entries by number; for a duplicated number (lint DT106) the first one, as readers use."""
    seen: dict[int, Entry] = {}
    for entry in graph["entries"]:
        seen.setdefault(entry["number"], entry)
    return [seen[n] for n in sorted(seen)]


def label_numbers(graph: CompiledGraph) -> dict[str, int]:
    """``@label`` -> the number compile gave that entry."""
    return {label: e["number"] for e in graph["entries"] if (label := e["label"])}


def creatures_by_name(graph: CompiledGraph) -> dict[str, Creature]:
    found: dict[str, Creature] = {}
    for creature in graph["creatures"]:
        found.setdefault(creature["name"], creature)
    return found


def stat_rows(creature: Creature) -> list[tuple[str, str]]:
    """A stat block as (field, value) rows, in the order a reader looks them up."""
    rows = [("HP", str(creature["hp"]))]
    if creature.get("morale") is not None:
        rows.append(("Morale", str(creature["morale"])))
    rows += [(name, str(value)) for name, value in creature.get("stats", {}).items()]
    rows += [(a["name"], a["damage"]) for a in creature.get("attacks", [])]
    if special := creature["special"]:
        rows.append(("Special", special))
    return rows


def encounter_die(graph: CompiledGraph) -> int | None:
    """The die the encounter table is rolled on (its highest row), or None without a table."""
    highs = [row["high"] for row in graph["encounters"]]
    return max(highs) if highs else None


def roll_label(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}–{high}"


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "book"


def target_number(target: Target | None, numbers: set[int]) -> int | None:
    """An exit's target when it names an entry of the book (a dangling one is not linked)."""
    return target if isinstance(target, int) and not isinstance(target, bool) and target in numbers else None
