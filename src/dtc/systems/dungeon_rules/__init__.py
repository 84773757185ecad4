"""Dungeon Rules, an overlay on any base system: zones, hazards, lairs, time in minutes, rests.

Its play rules wrap a base system's (``DungeonRules(base_rules)``).
"""

from __future__ import annotations

from dtc.systems.base import System
from dtc.systems.dungeon_rules.ruleset import DUNGEON_RULES

#: dtc's rulings a book may choose (``Rules: maze-rats + dungeon-rules [long-rest: base]``), default
#: first (``docs/rulesets/dungeon-rules.md``, "dtc's rulings").
RULINGS = {
    # 7, a long rest: "Full HP and ability refresh per your class rules" — every HP whatever the
    # base (full), or the base game's own night, "per your class rules" governing the HP too (base)
    "long-rest": ("full", "base"),
}

SYSTEM = System(ruleset=DUNGEON_RULES, play="dtc.systems.dungeon_rules.play:DungeonRules",
                rulings=RULINGS, web="dtc.systems.dungeon_rules.web:WEB",
                reference="dtc.systems.dungeon_rules.reference:REFERENCE")
