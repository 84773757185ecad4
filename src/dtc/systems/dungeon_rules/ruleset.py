"""Dungeon Rules — an overlay for dungeon time and danger, joined to a base: ``X + dungeon-rules``.

Seed: ``dungeon-rules.txt``. The overlay brings zones with their encounter check intervals and
danger ranges (2.1), danger steps (2.2), pace modes (1), hazards with a check, an effect and a
mitigation (3), rest types (7) and the optional 0–5 alarm track (9). Its abilities — STR CON INT
WIS AGI LUCK WORLDSWAY, the seed's legend for checks — are rolled with a d20 at or under the
score. In ``X + dungeon-rules`` an ability the base has keeps the base's check; the others (AGI,
LUCK, WORLDSWAY under Death & Treasure) are d20 checks, and hazards are always d20 checks.

The seed gives no difficulty ladder for the d20; dtc uses its own situational modifiers, whose
typical size is 2–4 (dim light −2, darkness −3, smoke −2, spores −2): ``D1`` d20 ≤ score + 3,
``D2`` d20 ≤ score, ``D3`` d20 ≤ score − 3 (as hard as working in the dark).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from dtc.systems.base import Block, Ruleset

MODIFIERS = {1: 3, 2: 0, 3: -3}
PERCEPTION = "WIS"  # dtc's ruling: a Perception roll is a WIS roll (the seed's hazards: "WIS to notice")
DANGER_CAP = 5


@dataclass(frozen=True, slots=True)
class Zone:
    """A zone type: how often the encounter die is rolled and the default danger range 1–``top``."""

    key: str
    title: str
    interval: int  # minutes between checks
    top: int


ZONES: dict[str, Zone] = {
    z.key: z
    for z in (
        Zone("quiet", "Quiet sector", 30, 1),
        Zone("standard", "Standard sector", 20, 1),
        Zone("perilous", "Perilous sector", 10, 2),
        Zone("deep", "Deep or tainted sector", 10, 3),
        Zone("lair-heart", "Heart of a lair", 10, 5),
        # Lair Difficulty (5.1): the encounter range inside a lair of each difficulty.
        Zone("minor-lair", "Minor lair", 20, 2),
        Zone("standard-lair", "Standard lair", 10, 3),
        Zone("major-lair", "Major lair", 10, 4),
        Zone("deadly-lair", "Deadly lair", 10, 5),
        Zone("mythic-lair", "Mythic lair", 10, 5),
    )
}
ZONE_ALIASES = {
    "quiet sector": "quiet", "standard sector": "standard", "perilous sector": "perilous",
    "deep sector": "deep", "tainted": "deep", "tainted sector": "deep", "deep or tainted": "deep",
    "deep or tainted sector": "deep", "lair heart": "lair-heart", "heart of a lair": "lair-heart",
    "heart of the lair": "lair-heart", "lair": "lair-heart",
    "minor lair": "minor-lair", "standard lair": "standard-lair", "major lair": "major-lair",
    "deadly lair": "deadly-lair", "mythic lair": "mythic-lair",
}
DEFAULT_ZONE = "standard"
ALARM_INTERVAL = 10  # an active alarm: checks every 10 minutes, +1 step, at least 1–3


def zone_key(text: str) -> str | None:
    """The zone a row names (``Perilous``, ``deep or tainted sector``, ``Major lair``; conditions
    after a comma aside: ``Perilous, dim``), or None."""
    return zone_parts(text)[0]


def _zone_only(text: str) -> str | None:
    words = " ".join(text.lower().replace("-", " ").replace("_", " ").split())
    if words.replace(" ", "-") in ZONES:
        return words.replace(" ", "-")
    return ZONE_ALIASES.get(words)


@dataclass(frozen=True, slots=True)
class Condition:
    """What an entry is like (8): its light, air, water or cover, written after its zone.

    ``perception`` is the modifier to the overlay's Perception rolls (WIS d20: watches, and hazard
    checks rolled with WIS), ``slow`` multiplies the minutes of a move into the entry (water:
    half speed 2, quarter speed 4), ``blind`` hides a hazard's telltales and its mitigation
    ("key details impossible"), and ``note`` is what ``dtc play`` shows at a fight there.
    """

    key: str
    kind: str  # light | air | water | sound | watch | cover
    perception: int = 0
    slow: int = 1
    blind: bool = False
    note: str = ""
    stealth: int = 0  # sound (8.4): the modifier to the stealth crawl's roll
    danger: int = 0  # a watch (2.2): the danger range is at least 1–danger while in the entry


CONDITIONS: dict[str, Condition] = {
    c.key: c
    for c in (
        Condition("bright", "light"),
        Condition("dim", "light", -2, note="ranged attacks -1 past 30 ft"),
        Condition("dark", "light", -3, blind=True, note="ranged attacks at disadvantage beyond 10 ft"),
        Condition("obscured", "air", -2, note="ranged attacks -2"),
        Condition("heavily-obscured", "air", -4, note="ranged attacks -4"),
        Condition("dust-haze", "air", -1),
        Condition("smoke", "air", -2, note="ranged attacks -2; a CON check each minute against choking"),
        Condition("clear-water", "water", -1, slow=2, note="waist deep: melee normal, ranged -2"),
        Condition("murky-water", "water", -2, slow=4, note="chest deep: heavy melee -1, ranged -4"),
        Condition("opaque-water", "water", -3, slow=4, blind=True,
                  note="silt: melee at disadvantage, no ranged attacks"),
        # Sound (8.4): its awareness modifier is taken as the Perception one (you hear what comes).
        Condition("dead-corridor", "sound", 1),
        Condition("cavern", "sound", stealth=-1),
        Condition("machinery", "sound", -1, stealth=1),
        Condition("waterfall", "sound", -2, stealth=1),
        # Watches (2.2): "Sanctuary bell, ward pulse, or patrol sweep — set to at least 1–3 while active".
        Condition("sanctuary-bell", "watch", danger=3),
        Condition("ward-pulse", "watch", danger=3),
        Condition("patrol-sweep", "watch", danger=3),
        Condition("half-cover", "cover", note="half cover: -2 to hit whoever takes it"),
        Condition("three-quarters-cover", "cover", note="three-quarters cover: -4 to hit whoever takes it"),
        Condition("total-cover", "cover", note="total cover: cannot be targeted directly"),
    )
}
CONDITION_ALIASES = {
    "darkness": "dark", "unlit": "dark", "no light": "dark", "lit": "bright", "fog": "obscured",
    "webs": "obscured", "heavy fog": "heavily-obscured", "dust": "dust-haze", "clear": "clear-water",
    "waist deep water": "clear-water", "murky": "murky-water", "chest deep water": "murky-water",
    "opaque": "opaque-water", "silt": "opaque-water", "silt water": "opaque-water",
    "3/4 cover": "three-quarters-cover", "dead corridors": "dead-corridor", "caverns": "cavern",
    "cave": "cavern", "machinery room": "machinery", "waterfalls": "waterfall", "current": "waterfall",
    "currents": "waterfall", "bell": "sanctuary-bell", "ward": "ward-pulse", "wards": "ward-pulse",
    "patrol": "patrol-sweep", "patrols": "patrol-sweep",
}


def condition_key(text: str) -> str | None:
    """The condition a word names (``Dim``, ``murky water``, ``half cover``), or None."""
    words = " ".join(text.lower().replace("-", " ").replace("_", " ").split())
    if words.replace(" ", "-") in CONDITIONS:
        return words.replace(" ", "-")
    return CONDITION_ALIASES.get(words)


def zone_parts(text: str) -> tuple[str | None, list[str], list[str]]:
    """A zone as written (``Perilous, dim, murky water``): its zone type (None when it names
    none), its conditions, and the comma-separated parts that are neither."""
    zone: str | None = None
    conditions: list[str] = []
    unknown: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        key = _zone_only(part) if zone is None else None
        cond = condition_key(part) if key is None else None
        if key is not None:
            zone = key
        elif cond is not None:
            conditions.append(cond)
        else:
            unknown.append(part)
    return zone, conditions, unknown


def merge_conditions(under: list[str], over: list[str]) -> list[str]:
    """``over``'s conditions replace ``under``'s of the same kind (an entry's ``Zone: bright`` in a
    dim sector is bright)."""
    kinds = {CONDITIONS[c].kind for c in over}
    return [c for c in under if CONDITIONS[c].kind not in kinds] + list(dict.fromkeys(over))


@dataclass(frozen=True, slots=True)
class Pace:
    key: str
    title: str
    minutes: int  # per room
    note: str


PACES: dict[str, Pace] = {
    p.key: p
    for p in (
        Pace("standard", "Standard advance", 10, "normal encounter schedule"),
        Pace("careful", "Careful sweep", 20, "hazards spotted: checks one step easier, may be mitigated; "
             "using gear is noisy (+2 danger steps until the next check)"),
        Pace("stealth", "Stealth crawl", 20, "an AGI or WIS check each move: pass, and an encounter may be "
             "slipped; fail, and the next encounter check is +7"),
        Pace("fast", "Fast push", 5, "hazards go unseen (checks one step harder, no mitigation); the next "
             "encounter check is +4"),
        Pace("forced", "Forced march", 7, "50% farther in the time (20 minutes for 3 rooms); each hour a CON "
             "check (failed: too spent to keep it up until a short rest) and +1 danger step until a short rest"),
    )
}
FORCED_ROOMS, FORCED_MINUTES = 3, 20  # a forced march: 3 rooms in a standard advance's 20 minutes for 2
MAPPING_HALT_MINUTES = 10

@dataclass(frozen=True, slots=True)
class DoorWork:
    """Work at a door (1, 4): how long it takes and the noise it makes.

    ``dice`` minutes (``1d6``) or ``minutes``; on success / on failure, an immediate encounter
    check that many danger steps up (None: none).
    """

    key: str
    title: str
    words: tuple[str, ...]  # the words of a choice's label that name it
    minutes: int = 0
    dice: str | None = None
    success_noise: int | None = None
    failure_noise: int | None = None


DOORS = {"door", "doors", "gate", "gates", "portcullis", "hatch", "trapdoor"}
DOOR_WORK = {
    w.key: w
    for w in (
        DoorWork("listen", "listening at a door", ("listen", "listening", "eavesdrop"), minutes=1),
        DoorWork("search", "a secret door search", ("secret",), minutes=10),
        DoorWork("lock", "picking a lock", ("lock", "locked", "lockpick", "lockpicks", "padlock"), dice="1d6",
                 failure_noise=2),
        DoorWork("force", "forcing a stuck door", ("force", "forcing", "stuck", "barred", "bash", "shoulder"),
                 dice="1d6", success_noise=1),
    )
}


#: The door work a label's words name, tried in this order (forcing a door after them: :func:`door_work`).
WORK_BY_WORDS = ("listen", "search", "lock")


def door_work(label: str, ability: str | None) -> DoorWork | None:
    """The door work a checked choice's label names, or None, tried in this order: listening
    (``listen``), a secret door search (``secret``), picking a lock (``lock``, ``locked``,
    ``padlock``), forcing a door (a door word — door, gate, portcullis, hatch, trapdoor — with
    ``force``, ``stuck``, ``barred``, ``bash`` or ``shoulder``, or with a STR check: section 4's
    "Forcing stuck door ... STR")."""
    words = set(re.findall(r"[a-z]+", label.lower()))
    for key in WORK_BY_WORDS:
        if words & set(DOOR_WORK[key].words):
            return DOOR_WORK[key]
    if words & DOORS and (words & set(DOOR_WORK["force"].words) or ability == "STR"):
        return DOOR_WORK["force"]
    return None


#: Loot (6.1): base worth per Encounter Level, in copper pounds (dtc: coins).
LOOT_MIN_PER_EL = 30
LOOT_MAX_PER_EL = 90
#: Lair Difficulty loot multipliers (5.1), by zone; the heart of a lair is a standard lair's.
LOOT_MULTIPLIER = {"minor-lair": Fraction(5, 4), "standard-lair": Fraction(3, 2), "major-lair": Fraction(2),
                   "deadly-lair": Fraction(3), "mythic-lair": Fraction(4), "lair-heart": Fraction(3, 2)}
BOSS_MULTIPLIER = Fraction(3, 2)
#: The item mix (6.2): d6 -> percent of the value in coin (the rest is goods).
LOOT_COIN_PERCENT = {1: 80, 2: 60, 3: 50, 4: 40, 5: 30, 6: 20}


def loot_value(el: int, roll: int, zone: str, boss: bool) -> int:
    """The loot of an encounter of level ``el``: ``roll`` (between 30×EL and 90×EL), times the
    lair's multiplier, times 1.5 for a boss, rounded down."""
    value = Fraction(roll) * LOOT_MULTIPLIER.get(zone, Fraction(1)) * (BOSS_MULTIPLIER if boss else 1)
    return int(value)


#: Danger steps (2.2): cause -> (steps, how long).
DANGER_STEPS = (
    ("recent combat noise", "+1 step for 20 minutes"),
    ("running, shouting, metal on stone (fleeing, gear used)", "+1 step until the next check"),
    ("tripped alarm or visible intrusion", "+5 steps for 1 hour"),
    ("blood scent or corpse trail (a fight with dead left behind)", "+1 step for the rest of the floor"),
    ("forced march (dungeon)", "+1 step for each hour of it, until a short rest"),
    ("short rest in the dungeon", "the next two checks +1 step"),
    ("long rest in the dungeon", "the first three checks after waking +2 steps"),
)

#: Rest types (7): key -> (minutes, what you get, risk).
RESTS = {
    "breath": (5, "catch your breath", "one encounter check at the current danger"),
    "short": (30, "a short rest: the base game's short recovery", "the next two checks +1 step"),
    "long": (480, "a long rest: full HP and the base game's night (its ration, its chips)",
             "the zone's checks through four 2-hour watches, a Perception "
             "(WIS) roll each: what comes in a failed watch ambushes you; then the first three checks "
             "+2 steps"),
    "camp": (60, "fortify a safe camp (spends a ration)", "the next rest's danger one step lower"),
}

_ABILITIES = {
    "STR": ("STRENGTH",), "CON": ("CONSTITUTION",), "INT": ("INTELLIGENCE",), "WIS": ("WISDOM",),
    "AGI": ("AGILITY",), "LUCK": (), "WORLDSWAY": (),
}


#: Scores the overlay reads from a base's own rather than rolling them (the base's name -> the
#: overlay's ability -> the base's): Death & Treasure's DEX is AGI. Every other score the base lacks
#: is rolled 3d6 when play starts (``play.overlay_scores``).
SHARED_SCORES: dict[str, dict[str, str]] = {"death-and-treasure": {"AGI": "DEX"}}


def p_d20(score: int, difficulty: int) -> Fraction:
    """d20 at or under score + the difficulty's modifier."""
    if difficulty <= 0:
        return Fraction(1)
    target = score + MODIFIERS.get(difficulty, 0)
    return Fraction(max(0, min(20, target)), 20)


@dataclass(frozen=True)
class DungeonRules(Ruleset):
    """The overlay's own checks: d20 roll-under."""

    def check_dice(self, difficulty: int) -> str:
        if difficulty <= 0:
            return "none"
        mod = MODIFIERS.get(difficulty, 0)
        return f"d20 ≤ score{f' {mod:+d}' if mod else ''}"

    def check_probability(
        self, abilities: Mapping[str, int], ability: str | None, difficulty: int, *, encumbered: bool = False
    ) -> Fraction:
        p = p_d20(self.score_of(abilities, ability), difficulty)
        return p * p if encumbered else p

    def overlay_blocks(self, base: Ruleset, own: list[str]) -> tuple[list[Block], dict[str, str]]:
        """A fresh adventurer's overlay scores: the ones shared with the base are the base's
        (AGI is Death & Treasure's DEX, so the two are one score), the rest 3d6 each."""
        copies = {a: b for a, b in SHARED_SCORES.get(base.name, {}).items() if a in own and b in base.ability_names}
        blocks, _ = super().overlay_blocks(base, [a for a in own if a not in copies])
        return blocks, copies


DUNGEON_RULES = DungeonRules(
    name="dungeon-rules",
    title="Dungeon Rules",
    abilities={alias: name for name, aliases in _ABILITIES.items() for alias in (name, *aliases)},
    difficulties=(0, 1, 2, 3),
    source="dungeon-rules.txt: 1 Time, Pace, And Movement; 2 Encounter System; 3 Hazards; 7 Rest",
    difficulty_notes={0: "no check", 1: "d20 ≤ score + 3", 2: "d20 ≤ score", 3: "d20 ≤ score − 3"},
    overlay=True,
    doc="docs/rulesets/dungeon-rules.md",
    sections=(
        ("Zones", tuple(f"{z.key:<14} {z.title}: a check every {z.interval} minutes, danger 1–{z.top}"
                        .replace("1–1", "1") for z in ZONES.values())),
        ("Encounter checks", ("1d6 at each interval of the current zone, and after a loud event (a fight); "
                              "an encounter when the die is within the danger range",
                              "inside a lair: at the start and the end of each 10 minutes (two checks)",
                              "active alarm: every 10 minutes, +1 step, at least 1–3",)),
        ("Danger steps (cumulative, capped at 1–5)", tuple(f"{c}: {s}" for c, s in DANGER_STEPS)),
        ("Pace", (*(f"{p.key:<9} {p.minutes} minutes a room: {p.note}" for p in PACES.values()),
                  f"mapping halt: {MAPPING_HALT_MINUTES} minutes, no movement, an INT check")),
        ("Alarm track", ("0–5 for the floor: +1 for each fight and each failed stealth check, +2 for a "
                         "tripped alarm", "at 3 the danger is at least 1–3; at 5, 1–5 for an hour")),
        ("Hazards", ("written in the source: Hazard: NAME | Check: ABILITY Dn | Fail: effect | Pass: text "
                     "| Mitigation: gear, gear | Telltales: text | Trigger: text",
                     "checked d20 ≤ score; with listed gear (not at a fast push, nor unseen in the dark) mitigated "
                     "for 1d6 hours, or cleared for good in 1d6x10 minutes with an encounter check")),
        ("Rests", tuple(f"{k:<7} {m} minutes: {what}; risk: {risk}" for k, (m, what, risk) in RESTS.items())),
        ("Doors and locks (1, 4), named by a checked choice's label", tuple(
            f"{w.title}: {w.dice or w.minutes} minute{'s' if w.dice or w.minutes != 1 else ''}"
            + (f"; on success an immediate encounter check +{w.success_noise} step" if w.success_noise else "")
            + (f"; on failure an immediate encounter check +{w.failure_noise} steps" if w.failure_noise else "")
            for w in DOOR_WORK.values())),
        ("Conditions (8), after the zone: Zone: perilous, dim, murky water", tuple(
            f"{c.key.replace('-', ' '):<20} Perception {c.perception:+d}"
            + (f", stealth {c.stealth:+d}" if c.stealth else "") + (f", moves x{c.slow}" if c.slow > 1 else "")
            + (", key details impossible" if c.blind else "") + (f", danger at least 1–{c.danger}" if c.danger else "")
            + (f"; shown at a fight: {c.note}" if c.note else "") for c in CONDITIONS.values())),
        ("Loot (6)", ("a beaten creature whose stat block has EL N: worth rolled from 30xEL to 90xEL coins, "
                      "x the lair's multiplier (minor 1.25, standard and heart 1.5, major 2, deadly 3, mythic 4), "
                      "x1.5 for a boss; a d6 splits it into coins and goods (80/20 ... 20/80)",)),
        ("Rulings (a book picks one: Rules: maze-rats + dungeon-rules [long-rest: base]; a run: "
         "--ruling long-rest=base)", (
            "long-rest: full (every HP back, whatever the base, with the base's night) | base (the base "
            "game's night alone)",)),
    ),
)
