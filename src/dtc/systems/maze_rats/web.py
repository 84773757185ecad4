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
"""

from __future__ import annotations

from dtc.systems.maze_rats.paths import FEATURE_DIE, FORMS, WORD_PATTERN, feature_path
from dtc.systems.maze_rats.play import ARRAYS
from dtc.systems.maze_rats.ruleset import MAZE_RATS, MODES, TARGET, mode_for
from dtc.systems.webplay import WebCheck, WebField, WebSystem

#: The difficulty whose roll a Path's advantage gives each difficulty (D2 -> D1, D3 -> D2).
FAVOURED_AS = {d: min(k for k, mode in MODES.items() if mode == mode_for(d, advantage=True)) for d in MODES}

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
                 "favouredAs": {str(d): easier for d, easier in FAVOURED_AS.items()}},
)
