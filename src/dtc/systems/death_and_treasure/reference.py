"""Death & Treasure for a reader with dice and a pencil: how its rolls are made, what its sheet
holds (read by the print edition and the ebook through :func:`dtc.systems.reference.describe`).

The facts are the ones ``play.py``, ``combat.py`` and ``creation.py`` play: a difficulty asks for
one, two or all three of a turn, suitable gear and a check of 2d6/3d6/4d6 at or under the ability;
combat on a d20; a lantern's flask for 24 turns.
"""

from __future__ import annotations

from dtc.runtime.equipment import ARMOUR, HAND, RANGED, WEAPONS, weight_text
from dtc.systems.death_and_treasure.play import (
    CHECK_DICE,
    DISTRACT_IN_SIX,
    ENCOUNTER_IN_SIX,
    FRIENDLY_MIN,
    HOSTILE_MAX,
    PROSE_DIFFICULTY,
)
from dtc.systems.reference import Reference, SheetField

_REACH = {RANGED: "at range", HAND: "hand to hand"}
_WEAPONS = ", ".join(f"{o.item.name.lower()} {o.item.damage} ({' or '.join(_REACH[r] for r in o.item.ranges)}, "
                     f"weight {weight_text(o.item.weight)})" for o in WEAPONS)
_ARMOUR = ", ".join(f"{o.item.name.lower()} +{o.item.defense} (weight {weight_text(o.item.weight)})" for o in ARMOUR)
_PROSE = CHECK_DICE[PROSE_DIFFICULTY]

REFERENCE = Reference(
    title="Death & Treasure",
    abilities=("STR", "DEX", "CON", "WIS", "INT", "CHA"),
    rolls={d: f"roll {d + 1}d6: a total equal to or under {{ability}} succeeds" for d in (1, 2, 3)},
    prose=f"roll {_PROSE}: a total equal to or under {{ability}} succeeds",
    checks=(
        "A check's difficulty (1, 2 or 3) is how many of three things it asks of you: spend a turn (add one to "
        "your Turns, with all a turn brings), use suitable gear (cross it off if it is used up), or "
        "pass an ability check. Difficulty 3 asks for all three.",
        "An ability check rolls 2d6 at difficulty 1, 3d6 at difficulty 2 and 4d6 at difficulty 3: a total equal "
        "to or under the ability succeeds.",
        "A choice of difficulty 0 needs nothing: simply turn to its number.",
        f"A check the text asks for without a difficulty (\"make a CON check\") rolls {_PROSE}: a total equal "
        "to or under the ability succeeds.",
    ),
    creation=(
        "Roll 3d6 for each ability in order: STR, DEX, CON, WIS, INT, CHA; you may swap two of them.",
        "HP: roll 1d8; add 1 if your CON is above 13, take 1 away if it is below 8 (at least 1).",
        "Defense: 9, plus 1 for each of STR and DEX above 13, minus 1 for each below 8; armour adds to it.",
        "You carry a backpack, 50 feet of rope, a crowbar, a knife, a hammer, iron spikes, 14 days' rations, "
        "a waterskin and a lantern with 3 flasks of oil.",
        f"Choose your weapons: {_WEAPONS}. Bare hands deal d2.",
        f"Choose armour, one body armour, a shield and a helmet at most, each adding to your Defense: {_ARMOUR}.",
        "Besides your kit you can carry a weight up to your STR (a thing marked Weight 1 counts 1); carrying "
        "more, roll every roll twice and keep the worse.",
    ),
    fights=(
        "Each round both sides roll a d6 for initiative; the higher acts first. On a tie both act at once: a "
        "creature you fell that round still strikes.",
        "Your attack: roll d20 (take 1 off the roll if that ability is above 13, add 1 if it is below 8); "
        "equal to or under your STR (hand to hand) or DEX (thrown or shot) hits, and you roll your weapon's "
        "damage.",
        "For each of a creature's attacks, roll d20: equal to or under your Defense and it misses; otherwise "
        "take its damage from your HP.",
        "Morale: the first time a creature is hurt, and when it falls below half its HP, roll 2d6; below its "
        "Morale, it flees and the fight is won.",
        "A thrown flask of oil deals d6 and burns for d6 more the next round.",
        f"To flee, give up your attack for the round. You may first drop a ration or some treasure: "
        f"unintelligent creatures stop for food, intelligent ones for treasure, on 1–{DISTRACT_IN_SIX} of a "
        f"d6, and you are away. Else make a DEX check ({_PROSE} equal to or under your DEX): passed, you are "
        "away (to the section the fight's section names for fleeing, else to the one you came from); failed, "
        "the creatures attack and the fight goes on.",
        "At 0 HP your adventurer is dead: the adventure is over.",
    ),
    time=(
        "Reading a section takes a turn: add one to your Turns. A fight takes one turn, however many rounds "
        "it lasts.",
        "Your lantern burns 24 turns on a flask of oil. Each turn in the dark, roll 2d6: over your WIS and "
        "you are lost; after six turns without light you are lost for good.",
        "A turn of rest with a ration and a drink of water gives back d4 HP, up to three times a day.",
    ),
    encounters=(
        f"Each turn, roll a d6: on {'a 1' if ENCOUNTER_IN_SIX == 1 else f'1–{ENCOUNTER_IN_SIX}'} a wandering "
        "creature arrives: roll on the encounter table, then go on with the section once you are through it.",
        "Surprise: roll a d6; on 1–2 (1 if your WIS is above 13, 1–3 if it is below 8) they surprise you and "
        "attack once before the fight's first round.",
        f"Reaction: roll 2d6 (take 1 off if your CHA is above 13, add 1 if it is below 8): {HOSTILE_MAX} or "
        f"less, they attack; {FRIENDLY_MIN} or more, they are friendly; otherwise wary. Unless they attack "
        f"you may go on your way, fight, flee (as in a fight), or talk once: a CHA check ({_PROSE}, add 1 to "
        "the roll if your INT is below 8) makes them friendly; failing, friendly turns wary and wary turns to "
        "an attack.",
    ),
    sheet=(
        SheetField("Defense", "9 ± STR and DEX, + your armour"),
        SheetField("Weapons", "damage; hand to hand or at range"),
        SheetField("Lantern oil", "3 flasks (24 turns each)"),
        SheetField("Turns", "0"),
        SheetField("Turns in the dark", "0"),
        SheetField("Coins", "0"),
        SheetField("Equipment", "backpack, rope, crowbar, knife, hammer, iron spikes, 14 rations, waterskin, "
                   "lantern", "long"),
        SheetField("Treasure", "", "long"),
        SheetField("Weight carried", "up to STR"),
    ),
)
