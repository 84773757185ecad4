"""Rulesets: what abilities and difficulties an adventure's notation may use, and their odds.

An adventure names its ruleset with the ``Rules:`` front-matter key (default
``death-and-treasure``); an overlay joins a base with ``+``. The linter asks the ruleset, never
a hard-coded list.
"""

from __future__ import annotations

from dtc.rulesets.base import Ruleset
from dtc.rulesets.death_and_treasure import DEATH_AND_TREASURE

DEFAULT = "death-and-treasure"

REGISTRY: dict[str, Ruleset] = {DEATH_AND_TREASURE.name: DEATH_AND_TREASURE}


class UnknownRuleset(LookupError):
    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


def get_ruleset(spec: str | None) -> Ruleset:
    """Resolve a ``Rules:`` value such as ``death-and-treasure`` or ``maze-rats``."""
    name = (spec or DEFAULT).strip().lower().replace(" ", "-").replace("_", "-")
    parts = [p.strip("-") for p in name.split("+")]
    base = parts[0] or DEFAULT
    if base not in REGISTRY:
        raise UnknownRuleset(base)
    ruleset = REGISTRY[base]
    for overlay in parts[1:]:
        if overlay not in REGISTRY:
            raise UnknownRuleset(overlay)
        ruleset = ruleset.combine(REGISTRY[overlay])
    return ruleset


def known_names() -> list[str]:
    return sorted(REGISTRY)


__all__ = ["DEFAULT", "REGISTRY", "Ruleset", "UnknownRuleset", "get_ruleset", "known_names"]
