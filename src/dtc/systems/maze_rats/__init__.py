"""Maze Rats: its ruleset (2d6 + bonus ≥ 10), play rules, combat and character creation."""

from __future__ import annotations

from dtc.systems.base import System
from dtc.systems.maze_rats.ruleset import MAZE_RATS

SYSTEM = System(ruleset=MAZE_RATS, play="dtc.systems.maze_rats.play:MazeRats",
                web="dtc.systems.maze_rats.web:WEB",
                reference="dtc.systems.maze_rats.reference:REFERENCE")
