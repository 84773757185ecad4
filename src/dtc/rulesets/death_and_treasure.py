"""Death & Treasure v0.1 — the default ruleset.

Seed: ``death-and-treasure-v0.1.txt``, "Ability Scores" and "Taking Action". Six abilities
rolled 3d6; the notation's ``D0``–``D3`` is how many of {spend a turn, use gear, pass a check}
the adventurer must meet, and the check is 2d6/3d6/4d6 rolled equal to or under the ability.
"""

from __future__ import annotations

from dtc.rulesets.base import Ruleset

_ABILITIES = {
    "STR": ("STRENGTH",),
    "DEX": ("DEXTERITY",),
    "CON": ("CONSTITUTION",),
    "WIS": ("WISDOM",),
    "INT": ("INTELLIGENCE",),
    "CHA": ("CHARISMA",),
}

DEATH_AND_TREASURE = Ruleset(
    name="death-and-treasure",
    title="Death & Treasure",
    abilities={alias: name for name, aliases in _ABILITIES.items() for alias in (name, *aliases)},
    difficulties=(0, 1, 2, 3),
    source="death-and-treasure-v0.1.txt: Taking Action",
)
