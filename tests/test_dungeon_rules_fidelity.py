"""Dungeon Rules fidelity: doors and locks, light and water, loot, the long rest's watches, and the
exact odds of a freshly made adventurer.

Each test names the section of dungeon-rules.txt it checks; rulings (where the seed is silent or
says two things) are named as such and listed in docs/rulesets/dungeon-rules.md, "dtc's rulings".
"""

from __future__ import annotations

import functools
import json
import random
from fractions import Fraction
from itertools import product
from typing import Any

import pytest

from dtc.odds.analyze import compute_odds
from dtc.odds.checks import fresh_check_probability
from dtc.runtime.character import Character
from dtc.runtime.dice import Dice
from dtc.runtime.engine import Engine
from dtc.runtime.equipment import Item
from dtc.runtime.foes import foes_from
from dtc.runtime.policies import BoldPolicy, CautiousPolicy
from dtc.systems import get_ruleset, play_rules
from dtc.systems.death_and_treasure.ruleset import DeathAndTreasure
from dtc.systems.distributions import p_sum_at_most, sum_distribution
from dtc.systems.dungeon_rules.play import overlay_scores
from dtc.systems.dungeon_rules.ruleset import DungeonRules, door_work, p_d20
from helpers import assert_diagnostics
from helpers.runtime import KeyPlayer, compiled, hero

DT_DR = "death-and-treasure + dungeon-rules"
DT_ABILITIES = ("STR", "DEX", "CON", "WIS", "INT", "CHA")


def chain(rules: str, *checks: str) -> dict[str, Any]:
    """A book of checks one after another: entry n's check leads to n+1, any failure to 99."""
    entries = [f"{n} A step ({check}, S{n + 1}, F99)." for n, check in enumerate(checks, 1)]
    entries += [f"{len(checks) + 1} Through. THE END", "99 Lost. THE END"]
    return compiled(f"Title: T\nRules: {rules}\nStart: 1\n\nAdventure Entries\n\n" + "\n\n".join(entries) + "\n")


def through(graph: dict[str, Any]) -> float:
    outcomes = compute_odds(graph).outcomes
    return float(next(p for k, p in outcomes.items() if k.startswith("ending:") and k != "ending:99"))


# --- the fresh adventurer's odds (creation: Death & Treasure's 3d6, AGI is DEX, LUCK/WORLDSWAY 3d6) ---


def test_fresh_agi_is_dex_so_the_two_checks_are_not_independent() -> None:
    """Ruling ("Scores"): with Death & Treasure as the base, a fresh adventurer's AGI is their DEX
    (the overlay reads it, as ``dtc play`` does), so an AGI check and a DEX check depend on one
    score. Exhaustive over every face of DEX's 3d6."""
    both = Fraction(0)
    for faces in product(range(1, 7), repeat=3):
        dex = sum(faces)
        both += Fraction(1, 216) * p_d20(dex, 2) * p_sum_at_most(3, dex)
    independent = sum(p * p_d20(s, 2) for s, p in sum_distribution(3).items()) * sum(
        p * p_sum_at_most(3, s) for s, p in sum_distribution(3).items())
    assert both != independent
    assert through(chain(DT_DR, "AGI D2", "DEX D2")) == pytest.approx(float(both), abs=1e-12)
    pc = Character("A", dict.fromkeys(DT_ABILITIES, 10) | {"DEX": 13}, 8, 8)
    overlay_scores(pc, Dice(1))
    assert pc.stats["AGI"] == 13  # the same score in play


def test_fresh_odds_are_the_exhaustive_enumeration_of_creation(monkeypatch: pytest.MonkeyPatch) -> None:
    """Creation enumerated whole: every adventurer of ``death-and-treasure + dungeon-rules`` is made
    by the runtime's own overlay step (``overlay_scores``) from every combination of scores, each
    weighted by its chance, and the chain's odds for a book mixing unnamed checks (each part its own
    best: 3d6 ≤ the best of the base's six, d20 ≤ the best of AGI, LUCK, WORLDSWAY) with named ones
    equal that sum. A three-valued score keeps the 3^8 adventurers few; the folding is the same."""
    small = {6: Fraction(1, 4), 10: Fraction(1, 2), 15: Fraction(1, 4)}
    monkeypatch.setattr(DeathAndTreasure, "score_distribution", lambda self, ability=None: small)
    monkeypatch.setattr(DungeonRules, "score_distribution", lambda self, ability=None: small)
    rules = get_ruleset(DT_DR)

    adventurers = []  # every one, made as play makes it, with its chance
    for values in product(small, repeat=8):
        weight = Fraction(1)
        for v in values:
            weight *= small[v]
        pc = Character("A", dict(zip(DT_ABILITIES, values[:6], strict=True)), 8, 8,
                       stats={"LUCK": values[6], "WORLDSWAY": values[7]})
        overlay_scores(pc, Dice(1))  # AGI from DEX, as in play
        adventurers.append((weight, pc.abilities, {**pc.abilities, **pc.stats}))

    @functools.cache
    def chance(base: tuple[tuple[str, int], ...], own: tuple[int, ...], check: tuple[str | None, int]) -> Fraction:
        ability, difficulty = check
        if ability is None:  # the reader's best check, part by part
            return max(rules.check_probability(dict(base), None, difficulty),
                       max(p_d20(s, difficulty) for s in own))
        return rules.check_probability(dict(base) | dict(zip(("AGI", "LUCK", "WORLDSWAY"), own, strict=True)),
                                       ability, difficulty)

    def enumerated(checks: list[tuple[str | None, int]]) -> Fraction:
        total = Fraction(0)
        for weight, base, scores in adventurers:
            key = tuple(base.items())
            own = (scores["AGI"], scores["LUCK"], scores["WORLDSWAY"])
            p = Fraction(1)
            for check in checks:
                p *= chance(key, own, check)
            total += weight * p
        return total

    checks: list[tuple[str | None, int]] = [(None, 2), ("AGI", 1), ("DEX", 2), ("LUCK", 3), (None, 3), ("STR", 2)]
    text = [f"{a} D{d}" if a else f"D{d}" for a, d in checks]
    assert through(chain(DT_DR, *text)) == pytest.approx(float(enumerated(checks)), abs=1e-12)
    for one in ((None, 2), ("AGI", 2)):  # one check alone: its exact fresh chance
        assert fresh_check_probability(rules, one[0], one[1]) == enumerated([one])


def test_maze_rats_bonuses_stay_dealt_together_under_the_overlay() -> None:
    """Maze Rats, "Character Creation" (+2/+1/+0 in some order), kept under ``maze-rats +
    dungeon-rules``: STR D2 then DEX D2 is the exact 100/1296 of the six deals, as without the
    overlay; the overlay's own scores (3d6 each) join independently."""
    assert through(chain("maze-rats + dungeon-rules", "STR D2", "DEX D2")) == pytest.approx(100 / 1296, abs=1e-12)
    luck = sum(p * p_d20(s, 2) for s, p in sum_distribution(3).items())
    assert through(chain("maze-rats + dungeon-rules", "STR D2", "LUCK D2")) == pytest.approx(
        float(Fraction(1, 3) * (Fraction(6, 36) + Fraction(10, 36) + Fraction(15, 36)) * luck), abs=1e-12)


# --- play: a small delve ------------------------------------------------------------------------

HEAD = "Rules: death-and-treasure + dungeon-rules\n\nDelve\n\n"


def delve_book(zones: str = "  1-3. Standard", encounters: bool = True, extra: str = "") -> str:
    table = "Encounters\n  1-6. 1 Gnawer\n\nGnawer HP 2 | Morale 12 | Teeth d3 | EL 2\n\n" if encounters else ""
    return (HEAD + f"Zones\n{zones}\n\n" + table + extra + "Adventure Entries\n\n"
            "1 An iron door. **Force the stuck door** (STR D2, S2, F1), **pick the lock** (INT D2, S2, F1), "
            "**listen at the door** (WIS D2, S1, F1) or **search for a secret door** (WIS D2, S3, F1).\n\n"
            "2 Beyond the door (D0, S3).\n\n3 A pool (D0, S1).\n")


@functools.cache
def _graph(src: str) -> str:
    return json.dumps(compiled(src))


def start(src: str, entry: int = 1, seed: int = 1, player: Any = None, pc: Character | None = None,
          faces: tuple[int, ...] | None = None) -> tuple[Engine, list[dict[str, Any]]]:
    """A game at ``entry``, begun; with ``faces``, the die gives those faces from then on."""
    events: list[dict[str, Any]] = []
    graph = json.loads(_graph(src))
    game = Engine(graph, pc or hero(), player or CautiousPolicy(), dice=Dice(seed), sinks=[events.append],
                  rules=play_rules(graph["rules"]))
    game.rules.begin(game)
    game.state.arrive(entry)
    if faces is not None:
        game.dice._rng = Scripted(list(faces))
    events.clear()
    return game, events


class Scripted(random.Random):
    """A die that gives these faces in order (then 1s)."""

    def __init__(self, faces: list[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        face = self.faces.pop(0) if self.faces else a
        assert a <= face <= b, (face, a, b)
        return face


def checks_of(events: list[dict[str, Any]], why: str | None = None) -> list[dict[str, Any]]:
    return [e for e in events if e["event"] == "encounter_check" and (why is None or e["why"] == why)]


def test_door_work_is_named_by_the_choice() -> None:
    """dungeon-rules.txt, 1 (Doors, Locks) and 4 (Secrets, Doors, And Clues). Ruling: which choices
    are door work is read from the label's words."""
    assert door_work("Force the stuck door", "DEX").key == "force"  # type: ignore[union-attr]
    assert door_work("the iron door", "STR").key == "force"  # type: ignore[union-attr]
    assert door_work("the iron door", "DEX") is None  # slipping through a door is no forcing
    assert door_work("Pick the lock", "INT").key == "lock"  # type: ignore[union-attr]
    assert door_work("listen at the door", "WIS").key == "listen"  # type: ignore[union-attr]
    assert door_work("search for a secret door", "INT").key == "search"  # type: ignore[union-attr]
    assert door_work("Climb the shaft", "STR") is None


def test_forcing_a_stuck_door_takes_1d6_minutes_and_brings_a_check_one_step_up() -> None:
    """dungeon-rules.txt, 1: "barred or stuck 1d6 minutes with Str"; 4: "Forcing stuck door 1d6
    minutes STR: On success, roll an immediate encounter check at +1 step"."""
    # 3d6 STR check 2+2+2 = 6 <= 10 passes; 1d6 minutes = 4; the immediate check's d6 = 6.
    game, events = start(delve_book(), faces=(2, 2, 2, 4, 6, 6))
    rules: Any = game.rules
    before = rules.st(game)["minutes"]
    assert rules.check(game, "STR", 2, "Force the stuck door")
    assert rules.st(game)["minutes"] == before + 4
    assert rules.st(game)["immediate"] == [{"amount": 1, "why": "forcing a stuck door"}]
    game.state.arrive(2)
    rules.encounter_happens(game)
    first = checks_of(events)[0]
    assert first["why"] == "forcing a stuck door" and first["range"] == 2  # a standard sector's 1, +1
    # A door that does not give makes no such check.
    game, events = start(delve_book(), faces=(6, 6, 6, 3))
    assert not game.rules.check(game, "STR", 2, "Force the stuck door")
    assert "immediate" not in game.rules.st(game)  # type: ignore[attr-defined]


@pytest.mark.parametrize(("faces", "ok", "noise"), [((1, 1, 1), True, None), ((6, 6, 6), False, 2)])
def test_picking_a_lock_takes_1d6_minutes_and_failure_is_a_noise_roll_at_plus_two(
        faces: tuple[int, ...], ok: bool, noise: int | None) -> None:
    """dungeon-rules.txt, 1: "Locks: picks 1d6 minutes per attempt; failure risks noise hazard. +2
    noise roll" (ruling: any failure, not 4's "by a large margin", is an immediate check +2 steps)."""
    game, events = start(delve_book(), faces=(*faces, 5, 1))
    rules: Any = game.rules
    assert rules.check(game, "INT", 2, "pick the lock") is ok
    assert rules.st(game)["minutes"] == 5
    assert [e["total"] for e in events if e["event"] == "roll"] == [5]
    assert rules.st(game).get("immediate", []) == ([] if noise is None else [{"amount": 2, "why": "picking a lock"}])
    if noise:
        rules.encounter_happens(game)
        assert checks_of(events, "picking a lock")[0]["range"] == 3  # 1, +2


def test_listening_takes_a_minute_and_a_secret_door_search_ten() -> None:
    """dungeon-rules.txt, 4: "Listening at door 1 minute WIS"; "Secret door search (10 ft span) 10
    minutes WIS or INT"."""
    game, _ = start(delve_book())
    rules: Any = game.rules
    rules.check(game, "WIS", 2, "listen at the door")
    assert rules.st(game)["minutes"] == 1
    rules.check(game, "WIS", 2, "search for a secret door")
    assert rules.st(game)["minutes"] == 11


def test_door_minutes_played_through_the_engine() -> None:
    """dungeon-rules.txt, 1 and 4, through the engine's own choice: picking the lock (a turn and the
    check, Death & Treasure's D2) takes the turn's 10 minutes and then the lock's 1d6."""
    player = KeyPlayer(["choice:1", "plan:turn+check"], kinds={"menu", "plan"})
    game, events = start(delve_book(encounters=False), player=player, seed=5)
    game._decide()  # one decision: pick the lock
    rolls = [e for e in events if e["event"] == "roll" and e["why"] == "minutes picking a lock"]
    assert len(rolls) == 1 and game.rules.st(game)["minutes"] == 10 + rolls[0]["total"]  # type: ignore[attr-defined]
    assert game.state.pending is not None


# --- light, air, water, cover (8) -----------------------------------------------------------------

HAZARD = "Hazard: Slick Stair | Check: WIS D2 | Fail: you slide, 1d4 damage | Mitigation: rope | Telltales: algae\n\n"


def lit_book(condition: str) -> str:
    return (HEAD + HAZARD + "Adventure Entries\n\n1 A stair (D0, S2).\n" + (f"Zone: {condition}\n" if condition else "")
            + "Hazard: Slick Stair\n\n2 Out (D0, S1).\n")


@pytest.mark.parametrize(("condition", "lit", "mod", "seen"), [
    ("", True, 0, True), ("bright", True, 0, True), ("dim", True, -2, True),
    ("dark", True, -2, True),  # your own light makes a dark room dim (ruling)
    ("dark", False, -3, False),  # no light: -3 and key details impossible
    ("dim, smoke", True, -4, True),  # obscured stacks with light (8.1)
    ("murky water", True, -2, True), ("opaque water", True, -3, False),
])
def test_light_air_and_water_change_perception(condition: str, lit: bool, mod: int, seen: bool) -> None:
    """dungeon-rules.txt, 8.1 Light Levels (Dim -2, Darkness -3 and key details impossible,
    Obscured stacks), 8.2 (smoke -2 Perception), 8.3 Water (vision below the surface: clear -1,
    murky -2, opaque blind). Ruling: a Perception roll is the overlay's WIS d20."""
    player = KeyPlayer(["face"], kinds={"hazard"})
    game, events = start(lit_book(condition), player=player, pc=hero(WIS=12))
    if not lit:
        game.state.rules["light"] = 0
    game.rules.on_entry(game, game.entries[1])
    check = next(e for e in events if e["event"] == "check")
    assert check["ability"] == "WIS" and check["target"] == 12 + mod
    asked = [q for q in player.asked if q.kind == "hazard"]
    assert bool(asked) is seen  # unseen: no telltales, no mitigation to choose
    if asked:
        assert "(algae)" in asked[0].prompt


@pytest.mark.parametrize(("sound", "stealth", "awareness"), [("cavern", -1, 0), ("machinery", 1, -1),
                                                         ("waterfall", 1, -2), ("dead corridor", 0, 1)])
def test_sound_changes_stealth_and_hearing(sound: str, stealth: int, awareness: int) -> None:
    """dungeon-rules.txt, 8.4 Sound And Awareness (caverns -1 to stealth, machinery +1, waterfalls +1;
    awareness dead corridors +1, machinery -1, waterfalls -2). Ruling: stealth is the stealth
    crawl's roll, awareness the adventurer's Perception."""
    src = HEAD + "Adventure Entries\n\n1 A bank (D0, S2).\n\n2 The hall (D0, S1).\nZone: " + sound + "\n"
    pc = hero(WIS=12)
    pc.stats.update(AGI=9)
    game, events = start(src, pc=pc)
    game.state.arrive(2)
    rules: Any = game.rules
    rules.st(game)["pace"] = "stealth"
    game.clock("move")
    crawl = next(e for e in events if e["event"] == "check" and e["why"] == "stealth crawl")
    assert crawl["ability"] == "WIS" and crawl["target"] == 12 + stealth
    assert rules.perception(game, "WIS") == awareness and rules.perception(game, "STR") == 0


def test_darksight_sees_dark_as_dim() -> None:
    """dungeon-rules.txt, 8.6 Darksight: "See in dim as bright, dark as dim"."""
    pc = hero(WIS=12)
    pc.notes.append("darksight")
    game, events = start(lit_book("dark"), player=KeyPlayer(["face"], kinds={"hazard"}), pc=pc)
    game.state.rules["light"] = 0
    game.rules.on_entry(game, game.entries[1])
    assert next(e for e in events if e["event"] == "check")["target"] == 10


def test_conditions_follow_the_light_and_darksight_as_they_change() -> None:
    """The conditions met at an entry are worked out once per entry and light seen: a lantern
    going out, an item of darksight found and the item used up again each change what is met
    at the same entry (8.1, 8.6)."""
    game, _ = start(lit_book("dark"), pc=hero(WIS=12))
    game.state.arrive(1)
    rules: Any = game.rules

    def light() -> str:
        return next(c.key for c in rules.conditions(game) if c.kind == "light")

    game.state.rules["light"] = 3
    assert light() == "dim"  # dark, in the lantern's light
    game.state.rules["light"] = 0
    assert light() == "dark"
    game.pc.add(Item("Goggles of Darksight", "gear"))
    assert light() == "dim"
    game.state.rules["light"] = 3
    assert light() == "bright"
    game.pc.use("Goggles of Darksight")
    assert light() == "dim"
    game.state.rules["light"] = 0
    assert light() == "dark"
    game.pc.notes.append("darksight (a gift of the deep)")
    assert light() == "dim"


@pytest.mark.parametrize(("water", "minutes"), [("", 10), ("clear water", 20), ("murky water", 40),
                                                ("opaque water", 40)])
def test_wading_slows_a_move(water: str, minutes: int) -> None:
    """dungeon-rules.txt, 8.3 Water: clear waist deep "Half speed", murky and opaque "Quarter
    speed": a room at a standard advance (10 minutes, 1) takes twice or four times as long."""
    src = HEAD + "Adventure Entries\n\n1 A bank (D0, S2).\n\n2 The pool (D0, S1).\n" + (
        f"Zone: {water}\n" if water else "")
    game, _ = start(src)
    game.state.arrive(2)
    game.clock("move")
    assert game.rules.st(game)["minutes"] == minutes  # type: ignore[attr-defined]


def test_cover_and_ranged_modifiers_are_shown_at_a_fight() -> None:
    """dungeon-rules.txt, 8.5 Cover (Half cover -2 to hit) and 8.1 ranged modifiers: not automated
    (the fight is the base game's), shown to the player when a fight starts there."""
    src = delve_book().replace("3 A pool (D0, S1).", "3 A pool (D0, S1).\nZone: half cover, dim")
    game, events = start(src, entry=3)
    game.rules.fight(game, foes_from(game.block("Gnawer"), "Gnawer", 1))
    note = next(e["text"] for e in events if e["event"] == "manual" and e["text"].startswith("Fighting here"))
    assert "half cover: -2 to hit" in note and "ranged attacks -1 past 30 ft" in note


def test_conditions_compile_and_the_entry_line_wins_kind_by_kind() -> None:
    """The notation: conditions after the zone in a Zones row or a Zone: line (docs/format.md)."""
    src = (HEAD + "Zones\n  1-2. Perilous, dim, murky water\n\nAdventure Entries\n\n1 A (D0, S2).\n\n"
           "2 B (D0, S1).\nZone: bright, half cover\n")
    entries = {e["number"]: e for e in compiled(src)["entries"]}
    assert entries[1]["zone"] == "perilous" and entries[1]["conditions"] == ["dim", "murky-water"]
    assert entries[2]["zone"] == "perilous" and entries[2]["conditions"] == ["murky-water", "bright", "half-cover"]
    assert_diagnostics(src)
    assert_diagnostics(src.replace("half cover", "half cower"), "unknown-zone")


# --- the long rest (7) ------------------------------------------------------------------------------


@pytest.mark.parametrize(("zone", "checks"), [("Quiet", 16), ("Standard", 24), ("Perilous", 48),
                                              ("Minor lair", 96)])
def test_a_long_rest_runs_the_zone_schedule_with_a_perception_roll_each_watch(zone: str, checks: int) -> None:
    """dungeon-rules.txt, 2.1 (a check every 30/20/10 minutes by zone; in a lair at the start and end
    of each 10 minutes) and 7 Camp Procedures ("Watch order of 2 hour segments. Each watcher rolls
    Perception each segment"): 8 hours of the zone's checks and four Perception (WIS) rolls."""
    src = delve_book(zones=f"  1-3. {zone}", encounters=False).replace("3 A pool (D0, S1).",
                                                                      "3 A pool (D0, S1).\nZone: dim")
    game, events = start(src, entry=3, player=KeyPlayer(["rest:long"], kinds={"rest-type"}), pc=hero(WIS=13))
    game.pc.hp = 1
    game.rules.rest(game)
    assert len([e for e in checks_of(events) if str(e["why"]).startswith("watch")]) == checks
    watches = [e for e in events if e["event"] == "check" and "Perception" in str(e["why"])]
    assert [w["why"] for w in watches] == [f"watch {n}: Perception" for n in range(1, 5)]
    assert all(w["ability"] == "WIS" and w["target"] == 11 for w in watches)  # dim: -2
    assert game.pc.hp == game.pc.max_hp  # no encounter table: the night passes
    assert game.rules.danger(game) == {"Quiet": 3, "Standard": 3, "Perilous": 4, "Minor lair": 4}[zone]  # type: ignore[attr-defined]


@pytest.mark.parametrize("awake", [True, False])
def test_what_comes_in_a_failed_watch_is_an_ambush(awake: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """dungeon-rules.txt, 7: a long rest's risk "additional hazards like ambush"; the watch's
    Perception roll decides it (ruling): failed, the encounter is a surprised fight; passed, it is
    met awake (reaction and all)."""
    game, events = start(delve_book(), entry=3, player=KeyPlayer(["rest:long"], kinds={"rest-type"}))
    rules: Any = game.rules
    game.pc.hp = game.pc.max_hp = 40
    monkeypatch.setattr(rules, "d20_check", lambda *a, **k: awake)
    rolls = iter([True] + [False] * 200)
    monkeypatch.setattr(rules, "roll_check", lambda *a, **k: next(rolls))
    fights: list[bool] = []
    met: list[bool] = []
    monkeypatch.setattr(rules.base, "encounter", lambda g, foes, text: met.append(True) or "over")
    original = rules.base.fight
    monkeypatch.setattr(rules.base, "fight", lambda g, foes, surprised=False: fights.append(surprised) or original(
        g, foes, surprised=surprised))
    rules.rest(game)
    if awake:
        assert met == [True] and fights == []
    else:
        assert met == [] and fights == [True]
        assert any(e["event"] == "surprise" and e["surprised"] for e in events)
    assert game.pc.hp == game.pc.max_hp  # the rest went on after the encounter


def test_long_rest_frequencies() -> None:
    """dungeon-rules.txt, 2.1 and 7, by frequency (fixed seeds): in a standard sector with no
    encounter table, each of a night's 24 checks comes up 1 in 6 and each watch's Perception roll
    (WIS 12, dim: d20 <= 10) passes half the time."""
    src = delve_book(encounters=False).replace("3 A pool (D0, S1).", "3 A pool (D0, S1).\nZone: dim")
    hits = rolls = passed = watches = 0
    for seed in range(150):
        game, events = start(src, entry=3, seed=seed, player=KeyPlayer(["rest:long"], kinds={"rest-type"}),
                             pc=hero(WIS=12))
        game.rules.rest(game)
        night = [e for e in checks_of(events) if str(e["why"]).startswith("watch")]
        rolls += len(night)
        hits += sum(e["encounter"] for e in night)
        seen = [e for e in events if e["event"] == "check" and "Perception" in str(e["why"])]
        watches += len(seen)
        passed += sum(e["success"] for e in seen)
    assert rolls == 150 * 24 and watches == 150 * 4
    assert abs(hits / rolls - 1 / 6) < 4 * (1 / 6 * 5 / 6 / rolls) ** 0.5
    assert abs(passed / watches - 1 / 2) < 4 * (1 / 4 / watches) ** 0.5


# --- loot (6) ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("zone", "multiplier"), [("Standard", Fraction(1)), ("Major lair", Fraction(2)),
                                                  ("Minor lair", Fraction(5, 4))])
def test_a_beaten_encounter_with_an_el_yields_loot(zone: str, multiplier: Fraction) -> None:
    """dungeon-rules.txt, 6.1 (base worth 30×EL to 90×EL), 5.1 (the lair's loot multiplier) and 6.2
    (the d6 mix of coin and goods). Ruling: the EL is the stat block's ``EL`` field, and the worth
    is rolled evenly across the range."""
    for seed in range(1, 40):
        game, events = start(delve_book(zones=f"  1-3. {zone}"), entry=3, seed=seed,
                             player=KeyPlayer([], fallback=BoldPolicy()))
        game.pc.hp = game.pc.max_hp = 60
        result = game.rules.fight(game, foes_from(game.block("Gnawer"), "Gnawer", 1))
        if result != "won":
            continue
        worth, mix = [e for e in events if e["event"] == "roll" and str(e["why"]).startswith("loot")]
        base = worth["total"]
        value = int(base * multiplier)
        assert 60 <= base <= 180 and f"loot worth {value:,}," in mix["why"]
        coin = {1: 80, 2: 60, 3: 50, 4: 40, 5: 30, 6: 20}[mix["total"]]
        assert game.pc.count("coins") == value * coin // 100
        assert game.pc.treasure_value == value
        return
    pytest.fail("no seed won")


def test_no_el_no_loot() -> None:
    """Ruling: an encounter yields treasure only when a beaten creature has an EL (6.1: "any
    resolved encounter that yields treasure")."""
    src = delve_book().replace(" | EL 2", "")
    game, events = start(src, entry=3)
    game.pc.hp = game.pc.max_hp = 60
    game.rules.fight(game, foes_from(game.block("Gnawer"), "Gnawer", 1))
    assert not [e for e in events if e["event"] == "roll" and str(e["why"]).startswith("loot")]


def test_loot_frequencies() -> None:
    """dungeon-rules.txt, 6.1 and 6.2, by frequency (fixed seeds): the worth is even across 30×EL to
    90×EL (mean 60×EL) and each of the d6 mix's six profiles comes up a sixth of the time."""
    from dtc.systems.dungeon_rules.loot import loot

    game, events = start(delve_book(), entry=3, seed=11, player=KeyPlayer([], fallback=BoldPolicy()))
    foes = foes_from(game.block("Gnawer"), "Gnawer", 1)
    n = 1200
    for _ in range(n):
        loot(game.rules, game, foes)  # type: ignore[arg-type]
    worth = [e["total"] for e in events if e["event"] == "roll" and str(e["why"]).startswith("loot of")]
    mixes = [e["total"] for e in events if e["event"] == "roll" and str(e["why"]).startswith("loot worth")]
    assert len(worth) == len(mixes) == n and min(worth) >= 60 and max(worth) <= 180
    sd = ((121**2 - 1) / 12) ** 0.5  # an even roll over 121 values
    assert abs(sum(worth) / n - 120) < 4 * sd / n**0.5
    for face in range(1, 7):
        share = mixes.count(face) / n
        assert abs(share - 1 / 6) < 4 * (5 / 36 / n) ** 0.5


def test_forced_door_checks_come_up_one_in_three() -> None:
    """dungeon-rules.txt, 4, by frequency (fixed seeds): a stuck door that gives brings an immediate
    check at +1 step; in a standard sector (danger 1) that check finds an encounter 2 times in 6."""
    hits = n = 0
    for seed in range(600):
        game, events = start(delve_book(encounters=False), seed=seed, pc=hero(STR=18))
        rules: Any = game.rules
        rules.check(game, "STR", 2, "Force the stuck door")
        rules.encounter_happens(game)
        forced = checks_of(events, "forcing a stuck door")
        assert len(forced) == 1 and forced[0]["range"] == 2
        hits += forced[0]["encounter"]
        n += 1
    assert abs(hits / n - 1 / 3) < 4 * (2 / 9 / n) ** 0.5


def test_the_condition_names_are_one_list() -> None:
    """The conditions the overlay knows are those the schema and the compiled graph's types allow."""
    from typing import get_args

    from dtc.compiled.graphjson import ConditionKey
    from dtc.compiled.schema import schema_of
    from dtc.systems.dungeon_rules.ruleset import CONDITIONS

    schema = schema_of("adventure")
    enum = schema["$defs"]["entry"]["properties"]["conditions"]["items"]["enum"]
    assert list(CONDITIONS) == enum == list(get_args(ConditionKey))


def test_a_hazard_cleared_with_tools_is_gone_for_good() -> None:
    """dungeon-rules.txt, 3.7 Hazard Reaction And Reset: "Cleared: Tools or magic; 10–60 minutes;
    roll encounter once during work" (ruling: 1d6 × 10 minutes, with the gear the hazard lists)."""
    player = KeyPlayer(["clear"], kinds={"hazard"})
    game, events = start(lit_book(""), player=player, faces=(3, 6))  # 30 minutes; the check's d6 misses
    game.rules.on_entry(game, game.entries[1])
    rules: Any = game.rules
    assert rules.st(game)["minutes"] == 30 and rules.st(game)["cleared"] == ["1:slick stair"]
    assert [e["why"] for e in checks_of(events)] == ["clearing the Slick Stair"]
    assert [e["stage"] for e in events if e["event"] == "hazard"] == ["met", "cleared"]
    events.clear()
    rules.st(game)["minutes"] += 10 * 24 * 60
    game.rules.on_entry(game, game.entries[1])
    assert not [e for e in events if e["event"] == "hazard"]


@pytest.mark.parametrize("watch", ["sanctuary bell", "ward pulse", "patrol sweep"])
def test_a_bell_ward_or_patrol_sets_the_danger_to_at_least_one_to_three(watch: str) -> None:
    """dungeon-rules.txt, 2.2: "Sanctuary bell, ward pulse, or patrol sweep — Set to at least 1–3
    while active" (ruling: active in the entries that name it)."""
    src = HEAD + "Zones\n  1-2. Quiet\n\nAdventure Entries\n\n1 A (D0, S2).\n\n2 B (D0, S1).\nZone: " + watch + "\n"
    game, _ = start(src)
    rules: Any = game.rules
    assert rules.danger(game) == 1
    game.state.arrive(2)
    assert rules.danger(game) == 3
    rules.add_step(game, 1, checks=1, why="test")
    assert rules.danger(game) == 3  # quiet 1, +1 step: 1-2, still under the floor
    rules.add_step(game, 2, checks=1, why="test")
    assert rules.danger(game) == 4  # steps above the floor count


def test_a_forced_march_goes_half_as_far_again_and_costs_an_hour_by_hour() -> None:
    """dungeon-rules.txt, 1 Forced March (dungeon): "Add 50% distance per time unit", "Body or
    Constitution per hour", "Each hour of forced march: +1 danger step until a short rest".
    Rulings: 3 rooms in 20 minutes; a failed CON check ends the march until a short rest."""
    src = HEAD + "Adventure Entries\n\n1 A (D0, S2).\n\n2 B (D0, S1).\n"
    game, events = start(src, pc=hero(CON=18))  # 3d6 <= 18: every hour's check passes
    rules: Any = game.rules
    rules.st(game)["pace"] = "forced"
    minutes = []
    for _ in range(9):
        before = rules.st(game)["minutes"]
        game.clock("move")
        minutes.append(rules.st(game)["minutes"] - before)
    assert minutes == [6, 7, 7] * 3 and rules.st(game)["minutes"] == 60
    cons = [e for e in events if e["event"] == "check" and e["why"] == "an hour of forced march"]
    assert len(cons) == 1 and cons[0]["ability"] == "CON" and cons[0]["success"]
    assert [s["why"] for s in rules.st(game)["steps"]] == ["forced march"]
    assert rules.danger(game) == 2  # a standard sector's 1, +1 for the hour
    rules.short_rested(game)
    assert rules.danger(game) == 1 and not rules.st(game)["spent"]


def test_a_failed_forced_march_check_leaves_you_too_spent() -> None:
    """dungeon-rules.txt, 1 Forced March: the hourly CON check (ruling: failed, the pace drops to
    standard and a forced march is refused until a short rest)."""
    src = HEAD + "Adventure Entries\n\n1 A (D0, S2).\n\n2 B (D0, S1).\n"
    game, _ = start(src, pc=hero(CON=2))  # 3d6 <= 2 never passes
    rules: Any = game.rules
    rules.st(game)["pace"] = "forced"
    while rules.st(game)["pace"] == "forced":
        game.clock("move")
    assert rules.st(game)["minutes"] == 60 and rules.st(game)["spent"]
    assert rules.adjust(game, ["pace", "forced"]) is None
    assert rules.adjust(game, ["pace", "careful"]) == "pace careful"
