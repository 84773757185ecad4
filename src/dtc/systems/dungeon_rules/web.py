"""How the web edition plays the Dungeon Rules overlay's own abilities (seed: 3 "Hazards": checks
are rolled against the stat with a d20): d20 at or under the score, +3 at D1 and −3 at D3 (dtc's
ladder, ``ruleset.py``). Scores are 3d6; on Death & Treasure AGI is DEX. The base system keeps
everything else: what a difficulty needs, the sheet, combat. The overlay adds the minutes it
keeps time in.
"""

from __future__ import annotations

from dtc.systems.dungeon_rules.ruleset import DEFAULT_ZONE, MODIFIERS, ZONES
from dtc.systems.webplay import WebCheck, WebField, WebSystem

WEB = WebSystem(
    checks={d: WebCheck(count=1, sides=20, modifier=mod) for d, mod in MODIFIERS.items()},
    create={"kind": "dice", "count": 3, "sides": 6},
    same={"AGI": "DEX"},
    create_words="3d6 for each Dungeon Rules score (AGI is DEX under Death & Treasure)",
    fields=(WebField("minutes", "Minutes", "0"),),
    zones={key: (zone.interval, zone.top) for key, zone in ZONES.items()},
    default_zone=DEFAULT_ZONE,
    notes=(
        "Dungeon Rules scores (AGI, LUCK, WORLDSWAY) roll d20: equal to or under the score succeeds "
        "(D1: score + 3, D3: score − 3). Hazards are d20 checks too.",
        "An encounter check rolls 1d6 against the zone's danger range (1, 1–2, 1–3 …).",
    ),
)
