"""Maze Rats for a reader with dice and a pencil: how its danger rolls and fights are made and
what its sheet holds (read by the print edition and the ebook through
:func:`dtc.systems.reference.describe`). The facts are the ones ``play.py`` and ``combat.py``
play (dtc's mapping of difficulties is in ``ruleset.py``).
"""

from __future__ import annotations

from dtc.systems.maze_rats.paths import PATHS
from dtc.systems.maze_rats.play import HEAVY
from dtc.systems.maze_rats.ruleset import TARGET
from dtc.systems.reference import Reference, SheetField

_PATHS = "; ".join(f"{name} ({', '.join(words)})" for name, words in PATHS.items())

REFERENCE = Reference(
    title="Maze Rats",
    abilities=("STR", "DEX", "WIL"),
    rolls={
        1: f"roll 3d6, keep the best two and add {{ability}} bonus: {TARGET} or more succeeds",
        2: f"roll 2d6 and add {{ability}} bonus: {TARGET} or more succeeds",
        3: f"roll 3d6, keep the worst two and add {{ability}} bonus: {TARGET} or more succeeds",
    },
    checks=(
        f"A check is a danger roll: roll 2d6 and add the bonus of the ability the choice names; a total of "
        f"{TARGET} or more succeeds.",
        "Difficulty 1 is a roll with advantage: roll 3d6 and keep the best two. Difficulty 2 is the plain roll. "
        "Difficulty 3 is a roll at disadvantage: roll 3d6 and keep the worst two.",
        "If a word of the choice's name is one of your Path's words (or a form of one: climb, climbs, "
        "climbing, climbed), roll one step easier: difficulty 2 "
        "as 1, difficulty 3 as 2. Paths: " + _PATHS + ".",
        "A choice of difficulty 0 needs no roll: simply turn to its number.",
    ),
    creation=(
        "Roll a d6 for your bonuses: 1 STR +2, DEX +1, WIL +0; 2 STR +2, DEX +0, WIL +1; 3 STR +1, DEX +2, "
        "WIL +0; 4 STR +0, DEX +2, WIL +1; 5 STR +1, DEX +0, WIL +2; 6 STR +0, DEX +1, WIL +2.",
        "Roll a d6 for a feature: 1–2, +1 attack bonus; 3–6, a Path (3 Briarborn, 4 Fingersmith, "
        "5 Roofrunner, 6 Shadowjack).",
        "You start with 4 health, armour 6 (+1 for light armour and +1 for a shield: 8), attack bonus +0, "
        "a sword, rations, rope, torches and a dose of medicine.",
        f"Your sword is a light weapon; the heavy ones are the {', '.join(sorted(HEAVY))}.",
    ),
    fights=(
        "Each round each side rolls a d6 (roll ties again); the higher side acts first.",
        "An attack rolls 2d6 and adds the attacker's attack bonus (AB in a creature's table): over the "
        "defender's armour it hits, for the "
        "difference in damage (+1 with a heavy weapon, −1 unarmed, never below 1); double sixes double it.",
        "When you are hit you may shatter your shield to take no damage (not while you wield a heavy weapon).",
        f"Morale: a creature left alone at half its health or less makes a WIL danger roll (2d6 + its WIL, "
        f"{TARGET} or more holds); failing, it runs and the fight is won.",
        "To flee, make a DEX danger roll against the creatures' DEX (they win ties). You get away to the "
        "section the fight's section names for fleeing, else to the one you came from.",
        "At 0 health your adventurer is dead: the adventure is over.",
    ),
    prose=f"roll 2d6 and add {{ability}} bonus: {TARGET} or more succeeds",
    time=(
        "Reading a section takes a turn: add one to your Turns.",
        "A meal and a night's sleep give back 1 health; a dose of medicine gives 1, once a day.",
    ),
    encounters=(
        "Each turn, roll a d6: on a 1 a wandering creature arrives: roll on the encounter table, then go on "
        "with the section once you are through it.",
        "Reaction: roll a d6: 1 hostile, 2–3 wary, 4–5 friendly, 6 helpful. Hostile creatures attack: make a "
        "WIL danger roll or they surprise you and strike first.",
        "Otherwise you may go on your way, attack first (you win the initiative and roll your first attack "
        "with advantage), flee (as in a fight), or talk once: a WIL danger roll makes them one step friendlier, "
        "failing makes them one step worse, and hostile attacks.",
    ),
    sheet=(
        SheetField("Armour", "6, +1 light armour, +1 shield"),
        SheetField("Attack bonus", "+0 (+1 with that feature)"),
        SheetField("Feature or Path", ""),
        SheetField("Weapons", "sword", "long"),
        SheetField("Turns", "0"),
        SheetField("Coins", "0"),
        SheetField("Equipment", "light armour, shield, rations, rope, torches, medicine", "long"),
    ),
    hp="Health",
)
