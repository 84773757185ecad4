"""How the web edition plays Zilch (seed: "Suits", "Skills", "Criticals", "Character Generation",
"Combat", "Stances"; dtc's mapping in ``ruleset.py``): a suit test rolls 3d6 with sixes counted as
0 and succeeds at or under the suit (D1 +2, D2 ±0, D3 −2, D4 −5), critical at or under skill − 5
and a fumble over skill + 5. A new adventurer draws one card of 5–10 for each suit (a hand of 25
or less is drawn again, once, and the second hand kept, as ``dtc play`` makes one: ``play.py``);
HP are the Heart chips. Combat draws a domino a round for each side, after an initiative of ♠ + d6
a side once a fight. At 0 HP the adventurer falls unconscious for an hour (six turns, each with
its encounter check: a creature that finds the body strikes it once); every point of damage taken
at 0 HP drains ♥, and ♥ drained to 0 is death (``play.py``, ``down``).

``combat_data["zilch"]`` is what the page's own Zilch script (``page.js``, inlined into the web
edition's script: ``WebSystem.script``) needs to play a wandering encounter, a fight an entry writes,
the damage an entry deals and the creatures that find the body as ``dtc play`` plays them
(``play.py`` ``encounter``, ``down``, ``lie_unconscious``; ``combat.py`` ``fight``, ``left_for_dead``):
the weapons play knows by name with their damage and ranges and the armour by name (the sheet's items
become play's, so a replay fights with the same ones), which weapons take both hands or fire twice,
the words that make a creature's attack an unarmed blow or a weapon it holds, the size table, and the
fight's limits.
"""

from __future__ import annotations

from importlib import resources

from dtc.runtime.equipment import HAND, RANGED
from dtc.runtime.foes import MAX_GROUP, MAX_ROUNDS
from dtc.systems.death_and_treasure.play import RIVALS
from dtc.systems.webplay import WebCheck, WebField, WebSystem
from dtc.systems.zilch.combat import (
    AVERAGE_SUIT,
    DISARMED,
    DOUBLE,
    HELD_WORDS,
    NO_BASH,
    SIZES,
    TWO_HANDED,
    UNARMED,
    UNARMED_WORDS,
    WEAPON_DAMAGE,
)
from dtc.systems.zilch.dominoes import MARGIN_STEP, STANCE_TEXT
from dtc.systems.zilch.play import UNCONSCIOUS_TURNS
from dtc.systems.zilch.ruleset import CARD_HIGH, CARD_LOW, MODIFIERS, REDRAW_AT_MOST

#: Weapons that shoot (their range in the sheet's items; Zilch's blows read only the name).
_SHOOTING = ("shortbow", "longbow", "crossbow", "sling")
#: The armour play's kits carry (``play.py`` ``make_character``): defense and slot by name.
_ARMOUR = {"chain mail": ["Chain mail", 2, "body"], "leather armour": ["Leather armour", 1, "body"],
           "shield": ["Shield", 1, "shield"]}
AS_PLAY = {
    "weapons": {name: [name.capitalize(), damage, [RANGED if name in _SHOOTING else HAND]]
                for name, damage in WEAPON_DAMAGE.items() if name != UNARMED.key},
    "armour": _ARMOUR,
    "damage": WEAPON_DAMAGE,
    "bare": UNARMED.name,
    "twoHanded": sorted(TWO_HANDED),
    "double": DOUBLE,
    "noBash": list(NO_BASH),
    "held": list(HELD_WORDS),
    "unarmed": list(UNARMED_WORDS),
    "disarmed": DISARMED,
    "suit": AVERAGE_SUIT,
    "step": MARGIN_STEP,
    "sizes": [[name, None if below is None else [below.numerator, below.denominator],
               [modifier.numerator, modifier.denominator]] for name, below, modifier in SIZES],
    "stances": STANCE_TEXT,
    "maxRounds": MAX_ROUNDS,
    "maxGroup": MAX_GROUP,
    "rivals": RIVALS.pattern,
    "checkDifficulty": 2,
}

WEB = WebSystem(
    checks={d: WebCheck(count=3, zero_faces=(6,), modifier=mod, degrees="zilch") for d, mod in MODIFIERS.items()},
    create={"kind": "cards", "low": CARD_LOW, "high": CARD_HIGH, "redraw": REDRAW_AT_MOST},
    create_words=f"a card of {CARD_LOW}–{CARD_HIGH} for each suit; a hand of {REDRAW_AT_MOST} or less is "
                 "drawn again, once (the second hand is kept)",
    hp={"ability": "♥"},
    fields=(WebField("class", "Class", "Fighter", text=True), WebField("chips", "Class chips"),
            WebField("dr", "Damage resistance", "0"),
            WebField("weapon", "Weapon damage", "2"), WebField("shield", "Shield", "0")),
    light=None,
    encounter_in_six=1,
    gear=("Rations", "Rope", "Torches"),
    combat="dominoes",
    # dtc's kits (play.py): a Fighter's longsword (3), chain mail and shield (DR 3); a Rogue's short sword (2)
    # and leather (DR 1). Weapon damage by class, combat.py.
    combat_data={"suit": 7, "kits": {"Fighter": {"weapon": 3, "dr": 3, "shield": 1,
                                                 "items": ["Longsword", "Chain mail", "Shield"]},
                                     "Rogue": {"weapon": 2, "dr": 1, "shield": 0,
                                               "items": ["Short sword", "Shortbow", "Leather armour"]}},
                 "zilch": AS_PLAY},
    zero_hp="unconscious",
    drain="♥",
    unconscious_turns=UNCONSCIOUS_TURNS,
    script=resources.files(__package__).joinpath("page.js").read_text(encoding="utf-8"),
)
