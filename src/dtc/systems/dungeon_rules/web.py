"""How the web edition plays the Dungeon Rules overlay's own abilities (seed: 3 "Hazards": checks
are rolled against the stat with a d20): d20 at or under the score, +3 at D1 and −3 at D3 (dtc's
ladder, ``ruleset.py``). Scores are 3d6; on Death & Treasure AGI is DEX. A hazard's check is that
d20 whichever system owns its abilities, against the better of them (``hazards.py``), and a failed
one's damage dice are rolled. The base system keeps everything else: what a difficulty needs, the
sheet, combat. The overlay adds the minutes it keeps time in, and each zone's encounter checks
(at its interval, at most every 10 minutes in a lair, two each time there: ``play.py``).
"""

from __future__ import annotations

from dtc.systems.dungeon_rules.play import _every, in_lair
from dtc.systems.dungeon_rules.ruleset import DEFAULT_ZONE, MODIFIERS, ZONES
from dtc.systems.webplay import WebCheck, WebField, WebSystem

WEB = WebSystem(
    checks={d: WebCheck(count=1, sides=20, modifier=mod) for d, mod in MODIFIERS.items()},
    create={"kind": "dice", "count": 3, "sides": 6},
    same={"AGI": "DEX"},
    create_words="3d6 for each Dungeon Rules score (AGI is DEX under Death & Treasure)",
    fields=(WebField("minutes", "Minutes", "0"),),
    zones={key: (_every(zone), zone.top, int(in_lair(zone))) for key, zone in ZONES.items()},
    default_zone=DEFAULT_ZONE,
    hazards=True,
)
