"""How the web edition plays the Dungeon Rules overlay's own abilities (seed: 3 "Hazards": checks
are rolled against the stat with a d20): d20 at or under the score, +3 at D1 and −3 at D3 (dtc's
ladder, ``ruleset.py``). Scores are 3d6; on Death & Treasure AGI is DEX. A hazard's check is that
d20 whichever system owns its abilities, against the better of them (``hazards.py``), and a failed
one's damage dice are rolled. The base system keeps everything else: what a difficulty needs, the
sheet, combat. The overlay adds the minutes it keeps time in, and each zone's encounter checks
(at its interval, at most every 10 minutes in a lair, two each time there: ``play.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dtc.runtime.equipment import TREASURE_WEIGHT
from dtc.systems.dungeon_rules.play import _BETTER, _every, in_lair
from dtc.systems.dungeon_rules.ruleset import (
    BOSS_MULTIPLIER,
    CONDITIONS,
    DEFAULT_ZONE,
    DOOR_WORK,
    DOORS,
    LOOT_COIN_PERCENT,
    LOOT_MAX_PER_EL,
    LOOT_MIN_PER_EL,
    LOOT_MULTIPLIER,
    MODIFIERS,
    PACES,
    WORK_BY_WORDS,
    ZONES,
)
from dtc.systems.webplay import WebCheck, WebField, WebSystem

if TYPE_CHECKING:
    from dtc.compiled.graphjson import CompiledGraph

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


def page_data(graph: CompiledGraph) -> dict[str, Any]:
    """What the web edition needs of one book to play Dungeon Rules as ``dtc play`` plays it, beside
    the clock: the conditions the rules know (light, perception, whether key details are hidden, a
    fight's note, how much slower a room is, the danger a bell or a patrol sets, a stealth crawl's
    noise: ``play.py`` ``conditions``, ``perception``, ``blind``, ``_fight_notes``, ``turn_passed``,
    ``danger``, ``_paced_move``) and the ones each entry is in; each
    entry's hazards in order as play meets them (``hazards.py`` ``definition``: the entry's own
    hazard of that name, else the first; those with no usable check left out, as play leaves them
    to the reader); each stat block's Encounter Level and whether it is a boss, by name, the first
    block of a name as play finds it (``loot.py``); the loot's numbers (6.1, 6.2); and the work at a
    door a check's label may name (``ruleset.py`` ``door_work``: its words, minutes, dice and noise);
    the paces and the zones' titles for play's pace question."""
    conditions = {k: [c.kind, c.perception, int(c.blind), c.note, c.slow, c.danger, c.stealth]
                  for k, c in CONDITIONS.items()}
    lit: dict[str, list[str]] = {}
    hazards: dict[str, list[dict[str, Any]]] = {}
    known = graph.get("hazards", [])
    for entry in graph["entries"]:
        number = str(entry["number"])
        written: list[str] = [k for k in entry.get("conditions") or [] if k in CONDITIONS]
        if written:
            lit[number] = written
        met = []
        for name in entry.get("hazards", []):
            found = [h for h in known if h["name"].lower() == name.lower()]
            own = [h for h in found if h["entry"] == entry["number"]]
            hazard = own[0] if own else found[0] if found else None
            if hazard is None:
                continue
            check = hazard["check"]
            usable = hazard["error"] is None and check is not None and bool(check["abilities"])
            met.append({"name": hazard["name"], "key": f"{entry['number']}:{name.lower()}", "usable": usable,
                        "abilities": list(check["abilities"]) if check else [],
                        "d": (check["difficulty"] or 2) if check else 2, "fail": hazard["fail"] or "",
                        "pass": hazard["pass"] or "", "telltales": hazard["telltales"] or "",
                        "mitigation": [m.lower() for m in hazard["mitigation"]]})
        if met:
            hazards[number] = met
    levels: dict[str, list[int]] = {}
    for block in graph["creatures"]:
        key = " ".join(block["name"].lower().split())
        if key not in levels:
            stats = {k.upper(): v for k, v in block["stats"].items()}
            levels[key] = [int(stats.get("EL", 0)), int("boss" in (block["special"] or "").lower())]
    work = {k: {"title": w.title, "words": list(w.words), "minutes": w.minutes, "dice": w.dice,
                "success": w.success_noise, "failure": w.failure_noise} for k, w in DOOR_WORK.items()}
    # (the work a label's words name, tried in play's order; forcing a door after them)
    doors = {"doors": sorted(DOORS), "tried": list(WORK_BY_WORDS), "work": work}
    return {"conditions": conditions, "lit": lit, "hazards": hazards, "levels": levels, "better": dict(_BETTER),
            "doors": doors,
            # the paces play offers at a new zone (choose_pace), and each zone's title and interval
            "paceWords": {k: [p.title, p.minutes, p.note] for k, p in PACES.items()},
            "zoneTitles": {k: [z.title, z.interval] for k, z in ZONES.items()},
            "loot": {"min": LOOT_MIN_PER_EL, "max": LOOT_MAX_PER_EL, "boss": [BOSS_MULTIPLIER.numerator,
                                                                          BOSS_MULTIPLIER.denominator],
                     "zones": {k: [m.numerator, m.denominator] for k, m in LOOT_MULTIPLIER.items()},
                     "coins": {str(k): v for k, v in LOOT_COIN_PERCENT.items()},
                     "weights": {"coins": [TREASURE_WEIGHT["coins"].numerator, TREASURE_WEIGHT["coins"].denominator],
                                 "goods": [TREASURE_WEIGHT["unique"].numerator,
                                           TREASURE_WEIGHT["unique"].denominator]}}}
