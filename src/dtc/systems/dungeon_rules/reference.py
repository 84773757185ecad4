"""The Dungeon Rules overlay for a reader with dice and a pencil: its d20 checks, hazards, zones
and minutes, and what it adds to the sheet (read by the print edition and the ebook through
:func:`dtc.systems.reference.describe`, after the base system's own rules). The facts are the ones
``play.py`` and ``hazards.py`` play (the numbers are in ``ruleset.py``).
"""

from __future__ import annotations

from dtc.systems.dungeon_rules.ruleset import DANGER_CAP, DANGER_STEPS, MODIFIERS, PACES, RESTS, ZONES
from dtc.systems.reference import Reference, SheetField


def _against(modifier: int) -> str:
    return "{ability}" if not modifier else f"{{ability}} {'+' if modifier > 0 else '−'} {abs(modifier)}"


def _minutes(minutes: int) -> str:
    return f"{minutes // 60} hours" if minutes >= 120 else "an hour" if minutes == 60 else f"{minutes} minutes"


def _zone(interval: int, top: int) -> str:
    danger = "1" if top == 1 else f"1–{top}"
    return f"roll 1d6 every {interval} minutes: {danger} brings a wandering creature"


REFERENCE = Reference(
    title="Dungeon Rules",
    abilities=("AGI", "LUCK", "WORLDSWAY"),
    rolls={d: f"roll d20: equal to or under {_against(m)} succeeds" for d, m in MODIFIERS.items()},
    checks=(
        "A check of AGI, LUCK or WORLDSWAY rolls d20: equal to or under the score succeeds at difficulty 2; "
        "difficulty 1 adds 3 to the score, difficulty 3 takes 3 away.",
    ),
    creation=(
        "Roll 3d6 for each of AGI, LUCK and WORLDSWAY; under Death & Treasure, your AGI is your DEX.",
    ),
    hazards=(
        "A section may name a hazard (its card is in the Hazards table). When you read it, roll d20 against "
        "the better of the hazard's abilities: equal to or under it passes; over it, the hazard is "
        "triggered: do what its Fail says and roll its damage dice.",
        "Moving carefully you may spot it first: the roll is one step easier (3 added to the score), or you "
        "may use a piece of gear its Mitigation names instead (10 noisy minutes; roll for a wandering "
        "creature). Hurrying, the roll is one step harder (3 taken away) and no gear helps.",
        "A triggered hazard stays where it is: you meet it again if you come back.",
    ),
    time=(
        "Time is kept in minutes; every 10 minutes is one turn of the base rules (light burns). An action, a "
        "wait or a fight takes 10 minutes. Choose a pace for each move to another section: "
        + "; ".join(f"{p.title.lower()}, {p.minutes} minutes ({p.note})" for p in PACES.values()) + ".",
        "Each zone has its own encounter check (the Zones table): roll 1d6 at its interval; within the "
        "zone's danger range a wandering creature arrives (instead of the base rules' roll for each turn). A "
        "fight or other loud noise calls for a check at once.",
        f"A danger step widens the range by one (1 becomes 1–2), up to 1–{DANGER_CAP}: "
        + "; ".join(f"{cause}: {steps}" for cause, steps in DANGER_STEPS) + ".",
        "Rests: " + "; ".join(f"{what} takes {_minutes(m)} ({risk})" for m, what, risk in RESTS.values()) + ".",
    ),
    sheet=(
        SheetField("Minutes", "0"),
        SheetField("Zone and danger", ""),
    ),
    same={"AGI": "DEX"},
    zones={key: f"{zone.title}: {_zone(zone.interval, zone.top)}" for key, zone in ZONES.items()},
)
