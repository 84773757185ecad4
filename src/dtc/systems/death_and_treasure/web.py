"""How the web edition plays Death & Treasure (seed: "Making an Adventurer", "Taking Action",
"Combat", "Light and Panic"): D1–D3 need one, two or all three of spend a turn, use suitable gear
and pass a check of 2d6/3d6/4d6 at or under the ability; abilities 3d6 in order; HP d8 (CON
above 13 +1, below 8 −1); Defense 9 with the STR and DEX modifiers; a lantern burns 24 turns a
flask, and each turn in the dark is a WIS check (2d6, as a check the prose asks for) or the
adventurer is lost, as after six such turns; combat rolls d20 at or under STR or DEX to hit, and each
of a creature's attacks hits unless d20 ≤ Defense; 0 HP is death (``dtc play``'s ``Rules.down``).

``combat_data["play"]`` is what the page needs to play a wandering encounter and its fight as
``dtc play`` does (``play.py`` ``encounter``, ``escape``, ``intelligent``, ``meet_rivals`` and
``combat.py`` ``fight``): the weapons and armour play knows by name (the sheet's items become
play's, so a replay fights with the same ones), the base Defense and the procedure's numbers.
"""

from __future__ import annotations

from itertools import combinations

from dtc.runtime.character import BASE_DEFENSE
from dtc.runtime.equipment import ARMOUR, BACKPACK, BACKPACK_HOLDS, OIL, SACK_HOLDS, WEAPONS, standard_gear
from dtc.runtime.foes import MAX_GROUP, MAX_ROUNDS
from dtc.systems.death_and_treasure.combat import (
    CUT_OUT,
    CUT_OUT_DAMAGE,
    DIGEST,
    DIGEST_DICE,
    FIRE_DAMAGE,
    SWALLOWS,
)
from dtc.systems.death_and_treasure.play import (
                                                 DISTRACT_IN_SIX,
                                                 FRIENDLY_MIN,
                                                 HOSTILE_MAX,
                                                 INTELLIGENT_AT,
                                                 PROSE_DIFFICULTY,
                                                 RIVALS,
)
from dtc.systems.webplay import WebCheck, WebField, WebSystem

REQUIREMENTS = ("turn", "gear", "check")

#: The weapons (by name in lower case: damage, ranges) and armour (defense, slot) play knows.
_KNOWN = [o.item for o in (*WEAPONS, *ARMOUR)] + [i for i in standard_gear() if i.kind == "weapon"]
PLAY = {
    "weapons": {i.name.lower(): [i.name, i.damage, list(i.ranges)] for i in _KNOWN if i.kind == "weapon"},
    "armour": {i.name.lower(): [i.name, i.defense, i.slot] for i in _KNOWN if i.kind == "armour"},
    "baseDefense": BASE_DEFENSE,
    "hostileMax": HOSTILE_MAX,
    "friendlyMin": FRIENDLY_MIN,
    "distract": DISTRACT_IN_SIX,
    "intelligentAt": INTELLIGENT_AT,
    "checkDifficulty": PROSE_DIFFICULTY,
    "maxRounds": MAX_ROUNDS,
    "maxGroup": MAX_GROUP,
    "fire": FIRE_DAMAGE,
    "rivals": RIVALS.pattern,
    "bare": ["Bare hands", "d2", ["hand-to-hand"]],
    "oil": ["Flask of oil", "d6", ["ranged"]],
    # a creature that swallows (combat.py swallow_terms): the words that say so, its damage each round
    # inside and the damage that cuts you out, as its Special states them, else the Giant Frog's
    "swallow": {"says": SWALLOWS.pattern, "digest": DIGEST.pattern, "cut": CUT_OUT.pattern,
                "dice": DIGEST_DICE, "damage": CUT_OUT_DAMAGE},
    "sacks": dict(SACK_HOLDS),
    "backpack": [BACKPACK, BACKPACK_HOLDS],
}

WEB = WebSystem(
    checks={d: WebCheck(count=d + 1) for d in (1, 2, 3)},
    plans={d: tuple(combinations(REQUIREMENTS, d)) for d in (1, 2, 3)},
    create={"kind": "dice", "count": 3, "sides": 6},
    create_words="3d6 for each ability, in order (you may swap two scores by hand)",
    hp={"count": 1, "sides": 8, "adjust": "CON"},
    fields=(WebField("defense", "Defense", "9", adjust=("STR", "DEX")),
            WebField("weapon", "Weapon damage", "d6", text=True)),
    light=(24, 3),
    dark_turns=6,
    dark_check=("WIS", 1),
    encounter_in_six=1,
    # play's standard kit, as the sheet's items write it (its oil is the sheet's own count)
    gear=tuple(i.name if i.quantity == 1 else f"{i.quantity} {i.name}" for i in standard_gear() if i.name != OIL),
    combat="roll-under-d20",
    combat_data={"attack": ["STR", "DEX"], "morale": "below", "play": PLAY},
)
