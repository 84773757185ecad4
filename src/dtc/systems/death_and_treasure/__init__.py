"""Death & Treasure v0.1, the default system: its ruleset, play rules, combat and character creation.

``ruleset`` (abilities, D0–D3, exact checks), ``play`` (the runtime rules: taking action, light,
rest, encounters), ``combat`` (rounds, initiative, morale), ``creation`` (making an adventurer).
"""

from __future__ import annotations

from dtc.systems.base import Roller, System
from dtc.systems.death_and_treasure.ruleset import DEATH_AND_TREASURE

#: "Taking Action": difficulty n needs n of {spend a turn, use gear, pass the check}; the check
#: rolls 2d6/3d6/4d6 for D1/D2/D3 and succeeds at or under the ability.
ROLLER = Roller(dice={1: 2, 2: 3, 3: 4}, sides=6,
                options=("spend a turn", "use suitable gear", "pass an ability check"))

#: dtc's rulings a book may choose (``Rules: death-and-treasure [morale: above]``), default first
#: (``docs/rulesets/death-and-treasure.md``, "dtc's rulings").
RULINGS = {
    "morale": ("below", "above"),  # flee when 2d6 < Morale (as written), or when 2d6 > Morale
    "cha-reaction": ("as-written", "helps"),  # CHA above 13: -1 to reactions (as written), or +1
    "same-room": ("turn", "free"),  # an entry read after an action costs a turn, or not
    "swallow-cut": ("blow", "total"),  # the frog's "Deal 4 or more damage": one blow, or added up
}

SYSTEM = System(ruleset=DEATH_AND_TREASURE, play="dtc.systems.death_and_treasure.play:DeathAndTreasure",
                roller=ROLLER, rulings=RULINGS,
                web="dtc.systems.death_and_treasure.web:WEB",
                reference="dtc.systems.death_and_treasure.reference:REFERENCE")
