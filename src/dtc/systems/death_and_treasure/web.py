"""How the web edition plays Death & Treasure (seed: "Making an Adventurer", "Taking Action",
"Combat", "Light and Panic"): D1–D3 need one, two or all three of spend a turn, use suitable gear
and pass a check of 2d6/3d6/4d6 at or under the ability; abilities 3d6 in order; HP d8 (CON
above 13 +1, below 8 −1); Defense 9 with the STR and DEX modifiers; a lantern burns 24 turns a
flask, and each turn in the dark is a WIS check (2d6, as a check the prose asks for) or the
adventurer is lost, as after six such turns; combat rolls d20 at or under STR or DEX to hit, and each
of a creature's attacks hits unless d20 ≤ Defense; 0 HP is death (``dtc play``'s ``Rules.down``).
"""

from __future__ import annotations

from itertools import combinations

from dtc.systems.webplay import WebCheck, WebField, WebSystem

REQUIREMENTS = ("turn", "gear", "check")

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
    gear=("Backpack", "Rope (50 ft.)", "Crowbar", "Knife", "Hammer", "Iron spikes", "Rations (14 days)",
          "Waterskin", "Lantern"),
    combat="roll-under-d20",
    combat_data={"attack": ["STR", "DEX"], "morale": "below"},
)
