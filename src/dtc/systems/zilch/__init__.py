"""Zilch: its ruleset (suit checks against a domino draw), play rules, combat and dominoes."""

from __future__ import annotations

from dtc.systems.base import System
from dtc.systems.zilch.ruleset import ZILCH

SYSTEM = System(ruleset=ZILCH, play="dtc.systems.zilch.play:Zilch",
                web="dtc.systems.zilch.web:WEB",
                reference="dtc.systems.zilch.reference:REFERENCE")
