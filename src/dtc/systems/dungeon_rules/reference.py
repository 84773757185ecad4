"""The Dungeon Rules overlay for a reader with dice and a pencil: its d20 checks, hazards, zones
and minutes, and what it adds to the sheet (read by the print edition and the ebook through
:func:`dtc.systems.reference.describe`, after the base system's own rules). The facts are the ones
``play.py`` and ``hazards.py`` play (the numbers are in ``ruleset.py``).
"""

from __future__ import annotations

from dtc.systems.dungeon_rules.ruleset import (
    BOSS_MULTIPLIER,
    CONDITIONS,
    DANGER_CAP,
    DANGER_STEPS,
    DOOR_WORK,
    LOOT_COIN_PERCENT,
    LOOT_MAX_PER_EL,
    LOOT_MIN_PER_EL,
    LOOT_MULTIPLIER,
    MODIFIERS,
    PACES,
    RESTS,
    ZONES,
    DoorWork,
)
from dtc.systems.reference import Reference, SheetField


def _against(modifier: int) -> str:
    return "{ability}" if not modifier else f"{{ability}} {'+' if modifier > 0 else '−'} {abs(modifier)}"


def _minutes(minutes: int) -> str:
    return f"{minutes // 60} hours" if minutes >= 120 else "an hour" if minutes == 60 else f"{minutes} minutes"


def _zone(interval: int, top: int) -> str:
    danger = "1" if top == 1 else f"1–{top}"
    return f"roll 1d6 every {interval} minutes: {danger} brings a wandering creature"


def _door(work: DoorWork) -> str:
    took = work.dice + " minutes" if work.dice else _minutes(work.minutes).replace("1 minutes", "a minute")
    noise = [f"{'passed' if ok else 'failed'}, an encounter check at once, {n} danger step{'s' if n > 1 else ''} up"
             for ok, n in ((True, work.success_noise), (False, work.failure_noise)) if n]
    return f"{work.title} takes {took}" + (f" ({'; '.join(noise)})" if noise else "")


_DOORS = "; ".join(_door(w) for w in DOOR_WORK.values())
_SEEING = ", ".join(f"{c.key.replace('-', ' ')} {c.perception:+d}".replace("-", "−")
                    for c in CONDITIONS.values() if c.perception)
_SLOW = ", ".join(f"{c.key.replace('-', ' ')} ×{c.slow}" for c in CONDITIONS.values() if c.slow > 1)
_LAIRS = ", ".join(f"{k.replace('-', ' ')} ×{float(v):g}" for k, v in LOOT_MULTIPLIER.items())
_MIX = ", ".join(f"{face} {pct}%" for face, pct in LOOT_COIN_PERCENT.items())

REFERENCE = Reference(
    title="Dungeon Rules",
    abilities=("AGI", "LUCK", "WORLDSWAY"),
    rolls={d: f"roll d20: equal to or under {_against(m)} succeeds" for d, m in MODIFIERS.items()},
    checks=(
        "A check of AGI, LUCK or WORLDSWAY rolls d20: equal to or under the score succeeds at difficulty 2; "
        "difficulty 1 adds 3 to the score, difficulty 3 takes 3 away.",
        "Work at a door is a check whose choice says so (listen, secret, lock, or force a door, gate or "
        f"hatch, or a STR check at one): {_DOORS}.",
    ),
    prose="roll d20: equal to or under {ability} succeeds",
    creation=(
        "Roll 3d6 for each of AGI, LUCK and WORLDSWAY; under Death & Treasure, your AGI is your DEX.",
    ),
    fights=(
        f"Loot: beating creatures whose stat block gives an EL (Encounter Level) yields treasure worth "
        f"{LOOT_MIN_PER_EL}×EL to {LOOT_MAX_PER_EL}×EL coins (the highest EL among them; roll any number in "
        f"that range), times the lair's multiplier in a lair ({_LAIRS}) and ×{float(BOSS_MULTIPLIER):g} for a "
        f"boss. Roll a d6 for the part in coins ({_MIX}); the rest is goods of your choosing.",
    ),
    hazards=(
        "A section may name a hazard (its card is in the Hazards table). When you read it, roll d20 against "
        "the better of the hazard's abilities: equal to or under it passes; over it, the hazard is "
        "triggered: do what its Fail says and roll its damage dice.",
        "Moving carefully you may spot it first: the roll is one step easier (3 added to the score), or you "
        "may use a piece of gear its Mitigation names instead (10 noisy minutes; roll for a wandering "
        "creature). Hurrying, the roll is one step harder (3 taken away) and no gear helps.",
        "A triggered hazard stays where it is: you meet it again if you come back.",
        "A section's zone line may name conditions after the zone. They change your WIS (perception) checks "
        f"there: {_SEEING} (carrying a light, dark counts as dim); water slows a move into the section (its "
        f"minutes {_SLOW}).",
    ),
    time=(
        "Time is kept in minutes, not in sections read; every 10 minutes is one turn of the base rules (light "
        "burns). An action, a "
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
