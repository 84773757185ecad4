"""Rulesets: what abilities and difficulties an adventure's notation may use, and their odds.

An adventure names its ruleset with the ``Rules:`` front-matter key (default
``death-and-treasure``); an overlay joins a base with ``+`` (``death-and-treasure +
dungeon-rules``). The linter asks the ruleset, never a hard-coded list.
"""

from __future__ import annotations

from dtc.rulesets.base import Combined, Ruleset
from dtc.rulesets.death_and_treasure import DEATH_AND_TREASURE
from dtc.rulesets.dungeon_rules import DUNGEON_RULES
from dtc.rulesets.maze_rats import MAZE_RATS
from dtc.rulesets.zilch import ZILCH

DEFAULT = "death-and-treasure"

REGISTRY: dict[str, Ruleset] = {r.name: r for r in (DEATH_AND_TREASURE, MAZE_RATS, ZILCH, DUNGEON_RULES)}


class UnknownRuleset(LookupError):
    """A ``Rules:`` value dtc cannot use; ``name`` is the offending part."""

    def __init__(self, name: str, message: str | None = None) -> None:
        super().__init__(name)
        self.name = name
        self.message = message or f"unknown ruleset '{name}'{suggestion(name)} (known: {', '.join(known_names())})"


def suggestion(name: str) -> str:
    """``; did you mean 'maze-rats'?`` for a near miss of a known name, else nothing."""
    import difflib

    close = difflib.get_close_matches(name.strip().lower(), known_names(), n=1, cutoff=0.6)
    return f"; did you mean '{close[0]}'?" if close else ""


def normalise(spec: str | None) -> str:
    return (spec or DEFAULT).strip().lower().replace(" ", "-").replace("_", "-")


def get_ruleset(spec: str | None) -> Ruleset:
    """Resolve a ``Rules:`` value such as ``maze-rats`` or ``death-and-treasure + dungeon-rules``.

    An overlay written alone (``dungeon-rules``) sits on the default base.
    """
    parts = [p.strip("-") for p in normalise(spec).split("+")]
    for part in parts:
        if (part or DEFAULT) not in REGISTRY:
            raise UnknownRuleset(part)
    base_name = parts[0] or DEFAULT
    ruleset = REGISTRY[base_name]
    overlays = parts[1:]
    if ruleset.overlay:
        overlays = [base_name, *overlays]
        ruleset = REGISTRY[DEFAULT]
    for name in overlays:
        overlay = REGISTRY[name]
        if not overlay.overlay:
            raise UnknownRuleset(name, f"'{name}' is a base ruleset, not an overlay: write it first, "
                                       f"or use one of {', '.join(overlay_names())} after '+'")
        if name in ruleset.overlays:
            continue
        ruleset = ruleset.combine(overlay)
    return ruleset


def known_names() -> list[str]:
    return sorted(REGISTRY)


def overlay_names() -> list[str]:
    return sorted(n for n, r in REGISTRY.items() if r.overlay)


def has_overlay(ruleset: Ruleset | None, name: str) -> bool:
    return ruleset is not None and name in ruleset.overlays


__all__ = ["DEFAULT", "REGISTRY", "Combined", "Ruleset", "UnknownRuleset", "get_ruleset", "has_overlay",
           "known_names", "overlay_names"]
