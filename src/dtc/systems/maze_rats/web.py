"""How the web edition plays Maze Rats (seed: "Danger Rolls", "Advantage", "Combat", "NPC
Morale"; dtc's mapping in ``ruleset.py``): a danger roll is 2d6 + the ability bonus and needs 10;
D1 rolls with advantage (3d6, the best two), D3 at disadvantage (the worst two). A new adventurer
gets one of the six orders of +2, +1, +0 by a d6, then a feature by another d6 (1–2: +1 attack
bonus, 3–6: a Path), as ``dtc play`` makes one (``play.py``); 4 health, armour 6 (+1 light armour,
+1 shield) and attack bonus +0. An attack is 2d6 + attack bonus, hitting when it exceeds the
armour for the difference; hit, the adventurer may shatter a shield to take no damage (not with
a heavy weapon in hand). 0 HP is death.

A Path written on the sheet gives advantage to a danger roll whose choice's label holds one of
its words, as in ``dtc play`` and ``dtc odds``: the page's script reads the words, the pattern
that cuts a label into words and the roll a favoured difficulty becomes from here (the data of
:mod:`dtc.systems.maze_rats.paths` and :func:`~dtc.systems.maze_rats.ruleset.mode_for`), under
``combatData``, the one place a system's description hands the script values of its own.

``combat_data["asPlay"]`` is what the page needs to play a wandering encounter and a fight an
entry writes as ``dtc play`` does (``play.py`` ``encounter``, ``combat.py`` ``fight``): the
weapons play knows by name and their class (the sheet's items become play's, so a replay fights
with the same ones), the armour by name, the base armour, the danger roll's target, the fight's
limits and the words that set two groups at odds.
"""

from __future__ import annotations

from dtc.runtime.equipment import HAND, RANGED
from dtc.runtime.foes import MAX_GROUP, MAX_ROUNDS
from dtc.systems.death_and_treasure.play import RIVALS
from dtc.systems.maze_rats.combat import DEFAULTS, UNARMED
from dtc.systems.maze_rats.paths import FEATURE_DIE, FORMS, WORD_PATTERN, feature_path
from dtc.systems.maze_rats.play import ARRAYS, BELT_HOLDS, HEAVY, RANGED_NAMES, kit
from dtc.systems.maze_rats.ruleset import BASE_ARMOR as MAZE_RATS_BASE
from dtc.systems.maze_rats.ruleset import MAZE_RATS, MODES, TARGET, mode_for
from dtc.systems.webplay import WebCheck, WebField, WebSystem

#: The difficulty whose roll a Path's advantage gives each difficulty (D2 -> D1, D3 -> D2).
FAVOURED_AS = {d: min(k for k, mode in MODES.items() if mode == mode_for(d, advantage=True)) for d in MODES}

#: The weapons play knows by name (lower case: name, class, ranges) and the armour (defense, slot).
_WEAPONS = {**{i.name.lower(): [i.name, "light", list(i.ranges)] for i in kit() if i.kind == "weapon"},
            "warhammer": ["Warhammer", "heavy", [HAND]], "bow": ["Bow", "ranged", [RANGED]],
            **{n: [n.capitalize(), "heavy", [HAND]] for n in sorted(HEAVY) if n != "warhammer"},
            **{n: [n.capitalize(), "ranged", [RANGED]] for n in sorted(RANGED_NAMES) if n != "bow"}}
AS_PLAY = {
    "weapons": _WEAPONS,
    "armour": {i.name.lower(): [i.name, i.defense, i.slot] for i in kit() if i.kind == "armour"},
    "base": MAZE_RATS_BASE,
    "target": TARGET,
    "maxRounds": MAX_ROUNDS,
    "maxGroup": MAX_GROUP,
    "bare": UNARMED.name,
    "rivals": RIVALS.pattern,
    "belt": BELT_HOLDS,
    "defaults": DEFAULTS,
}

WEB = WebSystem(
    checks={
        1: WebCheck(count=3, keep=2, best=True, under=False, target=TARGET),
        2: WebCheck(count=2, under=False, target=TARGET),
        3: WebCheck(count=3, keep=2, best=False, under=False, target=TARGET),
    },
    create={"kind": "arrays", "arrays": [list(a) for a in ARRAYS]},
    create_words="the bonuses +2, +1 and +0 to STR, DEX and WIL in one of six orders (a d6), then a feature "
                 "(a d6: 1–2 +1 attack bonus, 3–6 a Path)",
    feature={"die": FEATURE_DIE, "faces": [
        {"set": {"ab": "1"}, "words": "+1 attack bonus"} if (path := feature_path(face)) is None else
        {"set": {"path": path}, "words": f"the Path {path}"} for face in range(1, FEATURE_DIE + 1)]},
    hp={"fixed": 4},
    hp_label="Health",
    fields=(WebField("armor", "Armour", "8"), WebField("ab", "Attack bonus", "0"),
            WebField("heavy", "Heavy weapon (1 = yes)", "0"), WebField("path", "Path", "", text=True)),
    light=None,
    encounter_in_six=1,
    gear=("Sword", "Light armour", "Shield", "Rations", "Rope", "Torches", "Medicine"),
    combat="armour",
    combat_data={"target": TARGET, "armor": 6, "ab": 1, "wil": 1,
                 "paths": {name: list(forms) for name, forms in FORMS.items()}, "pathWord": WORD_PATTERN,
                 "pathRules": MAZE_RATS.name,
                 "favouredAs": {str(d): easier for d, easier in FAVOURED_AS.items()}, "asPlay": AS_PLAY},
)
