"""Dungeon Rules, an overlay on any base system: zones, hazards, lairs, time in minutes, rests.

Its play rules wrap a base system's (``DungeonRules(base_rules)``).
"""

from __future__ import annotations

from dtc.systems.base import System
from dtc.systems.dungeon_rules.ruleset import DUNGEON_RULES

SYSTEM = System(ruleset=DUNGEON_RULES, play="dtc.systems.dungeon_rules.play:DungeonRules",
                web="dtc.systems.dungeon_rules.web:WEB")
