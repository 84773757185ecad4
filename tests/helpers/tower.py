"""The Salt Tower: the small book the web, print, browser and build tests share."""

from __future__ import annotations

from typing import Any

from dtc.compiler.api import compile_text

#: A small book written for these tests: labels, checks with and without an ability, prose and
#: "most recent entry" exits, a stat block inside an entry, and hostile markup in an entry.
TOWER = """\
Title: The Salt Tower & the Sea
Author: Test Author <tests@example.org>
Start: @shore

Encounters
  1. 1d4 Crabmen
  2-3. 1 Gull Swarm
  4. 2 Crabmen fighting 1 Gull Swarm

Crabman HP 4 | Morale 8 | Claw d6
Gull Swarm HP 5 | Morale 6 | Peck d4 | Special: blinds you on a 6

Adventure Entries

@shore The tide is out and the tower stands on black rocks. You may wade along the **Causeway** \
(D0, S@causeway) or climb the **Sea Wall** (DEX D2, S@wall-top, F@surf).

@causeway Slick stones lead to an iron gate. The **Gate** (STR D1, S@hall, F@surf) is rusted shut, \
or you can wade back to the shore (D0, S@shore).

@wall-top You haul yourself over the parapet. Go to @hall.

@surf A wave knocks you flat; take d4 damage. Return to your most recent entry.

@hall Salt crusts every wall. A crabman guards the stair.
Crabman HP 4 | Morale 8 | Claw d6
You can fight the **Crabman** (D0, S@stair) or study the **Carving** (D1, S@carving, F@stair).

@carving Someone scratched <script>window.pwned=1</script> and <img src=x onerror="window.pwned=2"> \
into the stone & left. Return to @hall.

@stair At the top a lantern burns with a cold blue flame. You have found the light of the Salt Tower. THE END
"""

#: Entry numbers compile gives the labels (file order, from 1).
SHORE, CAUSEWAY, WALL_TOP, SURF, HALL, CARVING, STAIR = range(1, 8)


def tower_graph() -> dict[str, Any]:
    return compile_text(TOWER, "tower.txt").graph()
