"""Zilch for a reader with dice and a pencil: how its suit tests and domino fights are made and
what its sheet holds (read by the print edition and the ebook through
:func:`dtc.systems.reference.describe`). The facts are the ones ``play.py``, ``combat.py`` and
``dominoes.py`` play (dtc's difficulty ladder is ``MODIFIERS`` in ``ruleset.py``).
"""

from __future__ import annotations

from dtc.systems.reference import Reference, SheetField
from dtc.systems.zilch.ruleset import CARD_HIGH, CARD_LOW, MODIFIERS, REDRAW_AT_MOST


def _against(modifier: int) -> str:
    return "{ability}" if not modifier else f"{{ability}} {'+' if modifier > 0 else '−'} {abs(modifier)}"


REFERENCE = Reference(
    title="Zilch",
    abilities=("♣", "♠", "♦", "♥"),
    rolls={d: f"roll 3d6, counting each 6 as 0: a total equal to or under {_against(m)} succeeds"
           for d, m in MODIFIERS.items()},
    checks=(
        "A check is a suit test: roll 3d6, counting each 6 as 0 (totals run from 0 to 15); equal to or under "
        "the suit the choice names (♣ Clubs, ♠ Spades, ♦ Diamonds, ♥ Hearts) succeeds.",
        "Difficulty 1 is easy (your suit + 2), 2 normal (your suit), 3 hard (your suit − 2), 4 very hard "
        "(your suit − 5). A choice of difficulty 0 needs no roll: simply turn to its number.",
        "A roll 5 or more under the suit you test is a critical success; more than 5 over it, a critical "
        "failure. Where a section does not say otherwise, read them as a success and a failure.",
    ),
    creation=(
        f"Shuffle the cards {CARD_LOW} to {CARD_HIGH} of each suit and draw one of each suit: its value is "
        f"that suit's score (without cards, roll a d6 and add {CARD_LOW - 1} for each suit). A hand totalling "
        f"{REDRAW_AT_MOST} or less is drawn again, once.",
        "Your HP are your ♥ score. Choose a class: a Fighter (chips up to your ♣, a longsword dealing 3, chain "
        "mail and a shield: damage resistance 3) or a Rogue (chips up to your ♠, a short sword dealing 2, "
        "leather armour: damage resistance 1). You carry rations, rope and torches.",
    ),
    fights=(
        "Before the fight each side rolls ♠ + d6; the higher acts first.",
        "Each round choose a stance and draw a domino from a shuffled double-six set without blanks (21 "
        "dominoes). Without dominoes, roll one die and then another: if the first is higher, roll both again; "
        "the two faces are the domino's ends (as from a full set).",
        "Reckless: both ends attack. Bold: the greater end attacks, the lesser defends. Cautious: the lesser "
        "attacks, the greater defends. Guarded: both ends defend; no attack.",
        "An attack hits when the attacker's ♣ + attacking pips reach the defender's ♠ + defending pips: it "
        "deals the weapon's damage, +1 for every 5 points of margin, less the defender's damage resistance.",
        "A Fighter may spend ♣ chips to add attacking pips; a Rogue ♠ chips to add defending pips.",
        "A creature fights Bold, and Cautious once it is below half its HP; in its table, DR is its damage "
        "resistance and Damage what its hit deals. A chip spent adds one pip.",
        "Creatures of Zilch fight until they fall.",
        "To flee, make a ♠ test; the quickest creature makes one too (3d6, each 6 counting 0, against its ♠). "
        "You get away if you pass and it fails, or if you both pass and your total is no higher than its; "
        "otherwise you lose your turn and the fight goes on. You get away to the section the fight's section "
        "names for fleeing, else to the one you came from.",
        "At 0 HP you fall unconscious for an hour; every point of damage taken at 0 HP is taken from your ♥ "
        "instead, and ♥ at 0 is death: the adventure is over. The creatures finish the round on you and "
        "leave you for dead: you come to an hour later at 0 HP in the same section, and they are still there.",
    ),
    prose="roll 3d6, counting each 6 as 0: a total equal to or under {ability} succeeds",
    time=(
        "Reading a section takes a turn: add one to your Turns.",
        "A two-minute rally gives back your class chips; a night's sleep, once a day, up to 2 HP.",
    ),
    encounters=(
        "Each turn, roll a d6: on a 1 a wandering creature arrives: roll on the encounter table, then go on "
        "with the section once you are through it.",
        "Make a ♠ test to notice them coming; failing, they surprise you and the fight begins with their "
        "attack. Noticing them, you may parley (a ♥ test: passed, they let you pass; failed, they attack), "
        "fight or flee (as in a fight).",
    ),
    sheet=(
        SheetField("Class", "Fighter or Rogue"),
        SheetField("Class chips", "up to ♣ (Fighter) or ♠ (Rogue)"),
        SheetField("Weapon damage", "3 (Fighter) or 2 (Rogue)"),
        SheetField("Damage resistance", "3 (Fighter) or 1 (Rogue)"),
        SheetField("♥ drained", "0"),
        SheetField("Turns", "0"),
        SheetField("Coins", "0"),
        SheetField("Equipment", "rations, rope, torches", "long"),
    ),
)
