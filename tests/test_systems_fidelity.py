"""Rules fidelity: each rule a seed states, played through the engine with a seeded die.

Every test names the seed's section it checks. Rulings (where a seed is silent) are named as
such; the systems' pages under docs/rulesets/ list them under "dtc's rulings".
"""

from __future__ import annotations

import contextlib
import copy
import functools
from typing import Any

import pytest

from dtc.runtime.character import Character
from dtc.runtime.core import RunEnded
from dtc.runtime.dice import Dice
from dtc.runtime.engine import Engine
from dtc.runtime.equipment import HAND, Item
from dtc.runtime.foes import foes_from
from dtc.runtime.policies import CautiousPolicy
from dtc.systems import play_rules
from helpers.runtime import KeyPlayer, compiled

# --- Zilch --------------------------------------------------------------------------------------

ZILCH_BOOK = ("Rules: zilch\n\nCard Book\n\nEncounters\n\n  1. 1 Cave Goblin\n\n"
              "Cave Goblin HP 4 | Clubs 9 | Spades 7 | Damage 2\n\n"
              "Adventure Entries\n\n1 A door (D0, S2).\n\n2 2 Cave Goblins squat here. THE END\n")
@functools.cache
def _compiled(src: str) -> dict[str, Any]:
    return compiled(src)


def graph_of(src: str) -> dict[str, Any]:
    """A fresh copy of the compiled book (compiled once per source)."""
    return copy.deepcopy(_compiled(src))


QUIET_BOOK = ZILCH_BOOK.replace("Encounters\n\n  1. 1 Cave Goblin\n\n", "")


def zilch_pc(hearts: int = 8, hp: int | None = None) -> Character:
    return Character("Z", {"♣": 7, "♠": 5, "♦": 6, "♥": hearts}, hearts, hearts if hp is None else hp,
                     [Item("Longsword", "weapon", ranges=(HAND,))], notes=["class: Fighter"], ruleset="zilch",
                     stats={"chips": 0, "rally": 0})


def zilch_game(src: str, pc: Character, seed: int, player: Any = None) -> tuple[Engine, list[dict[str, Any]]]:
    events: list[dict[str, Any]] = []
    game = Engine(graph_of(src), pc, player or CautiousPolicy(), dice=Dice(seed), sinks=[events.append],
                  rules=play_rules("zilch"))
    game.rules.begin(game)
    return game, events


def test_zilch_zero_hp_in_a_fight_is_unconsciousness_and_hearts_drain() -> None:
    """zilch.txt, *Injury*: at 0 HP you fall unconscious and further damage drains Hearts; Hearts
    drained to 0 is death (*Drain*). Ruling: the creatures finish the round on the Defenseless
    body and leave it for dead; the adventurer comes to an hour later."""
    outcomes = set()
    for seed in range(1, 30):
        pc = zilch_pc(hearts=12, hp=2)
        game, events = zilch_game(QUIET_BOOK, pc, seed)
        try:
            result = game.rules.fight(game, foes_from(game.block("Cave Goblin"), "Cave Goblin", 2))
        except RunEnded:
            outcomes.add("died")
            assert pc.abilities["♥"] <= 0  # death only when Hearts are drained
            continue
        if result == "won":
            outcomes.add("won")
            continue
        assert result == "over"
        outcomes.add("left for dead")
        assert any(e["event"] == "fight_end" and e["result"] == "left for dead" for e in events)
        drained = sum(e["amount"] for e in events if e["event"] == "damage") - 2
        assert pc.hp == 0 and pc.abilities["♥"] == 12 - drained and pc.stats.get("drain", 0) == drained
        assert pc.max_hp == 12 - drained
        assert len([e for e in events if e["event"] == "turn" and e["why"] == "unconscious"]) == 6
        assert not game.state.rules["unconscious"]  # come to after the hour
    assert "left for dead" in outcomes


def test_zilch_wandering_monster_finds_the_unconscious_adventurer() -> None:
    """zilch.txt, *Injury* and *Drain*: damage at 0 HP drains Hearts, it does not kill outright.
    Ruling: a wandering monster that finds you unconscious strikes once (a round on the
    Defenseless body) and leaves you for dead."""
    found = 0
    for seed in range(1, 60):
        pc = zilch_pc(hearts=20, hp=3)
        game, events = zilch_game(ZILCH_BOOK, pc, seed)
        game.damage(5, "a falling block")  # 2 beyond 0: drained at once
        assert pc.abilities["♥"] <= 18
        if any(e["event"] == "fight_end" and e["result"] == "left for dead" for e in events):
            found += 1
            blows = sum(e["amount"] for e in events if e["event"] == "damage") - 3
            assert pc.abilities["♥"] == 20 - blows and not any(e["event"] == "death" for e in events)
    assert found  # a 1-in-6 a turn for an hour: some seeds meet one


def test_zilch_rest_takes_an_hour() -> None:
    """zilch.txt, *Recovery*: resting takes about an hour (six ten-minute turns)."""
    pc = zilch_pc(hp=3)
    game, _ = zilch_game(QUIET_BOOK, pc, 2, KeyPlayer(["rest"], kinds={"recovery"}))
    before = game.state.turn
    game.rules.rest(game)
    assert game.state.turn - before == 6


def test_zilch_sleep_mends_drain_once_a_day() -> None:
    """zilch.txt, *Recovery*: sleeping (8 hours, once per 24 hours) removes up to 2 drain from
    each suit, heals up to 2 HP."""
    pc = zilch_pc(hearts=5, hp=1)
    pc.stats["drain"] = 3
    pc.max_hp = 5
    game, _ = zilch_game(QUIET_BOOK, pc, 3, KeyPlayer(["sleep"], kinds={"recovery"}))
    game.state.entry = game.state.start
    game.rules.rest(game)
    assert pc.abilities["♥"] == 7 and pc.stats["drain"] == 1 and pc.max_hp == 7 and pc.hp == 3
    assert game.state.turn == 48
    keys = [o.key for o in game.rules._ways(game)]  # type: ignore[attr-defined]
    assert "sleep" not in keys  # not again until a day has passed since the last sleep began
    game.state.turn += 96
    assert "sleep" in [o.key for o in game.rules._ways(game)]  # type: ignore[attr-defined]


@pytest.mark.parametrize("hearts", [1, 2])
def test_zilch_hearts_drained_to_zero_is_death(hearts: int) -> None:
    """zilch.txt, *Drain*: if your Hearts are ever drained to 0, you die."""
    pc = zilch_pc(hearts=hearts, hp=1)
    game, events = zilch_game(QUIET_BOOK, pc, 1)
    with pytest.raises(RunEnded):
        game.damage(1 + hearts, "a blade trap")
    assert events[-1]["event"] == "death"


# --- Death & Treasure ---------------------------------------------------------------------------

DT_HEAD = ("Title: T\nRules: death-and-treasure{rulings}\n\nTest Book\n\nEncounters\n\n"
           "  1. 2 Goblins fighting 2 Giant Frogs\n\n"
           "Goblin HP 3 | Morale 7 | INT 8 | Sword d6\n\nGiant Frog HP 6 | Morale {frog} | INT 1 | Bite d8\n\n"
           "Statue HP 9 | Morale 12 | Fist d4\n\nAdventure Entries\n\n")
DT_ENTRIES = ("1 A hall. A stuck door (D1, S2, F3).\n\n2 Beyond the door, a landing. Stairs (D0, S4).\n\n"
              "3 Still stuck, a dim hall. Back (D0, S4).\n\n4 Daylight. THE END\n")


def dt_game(player: Any, seed: int = 1, rulings: str = "", frog: int = 10,
            **scores: int) -> tuple[Engine, list[dict[str, Any]]]:
    from helpers.runtime import hero

    events: list[dict[str, Any]] = []
    graph = graph_of(DT_HEAD.format(rulings=rulings, frog=frog) + DT_ENTRIES)
    game = Engine(graph, hero(**scores), player, dice=Dice(seed), sinks=[events.append],
                  rules=play_rules(graph["rules"]))
    game.rules.begin(game)
    return game, events


@pytest.mark.parametrize("key", ["carry-on", "fight", "fight:2"])
def test_dt_groups_fighting_each_other_do_not_both_attack_you(key: str) -> None:
    """death-and-treasure-v0.1.txt, *Sample Dungeon* encounters ("1d4 Goblins fighting 1d4 Giant
    Frogs") and *Encounters*. Ruling: two groups at odds are busy with each other: no surprise or
    reaction roll; slip past, or join in against one of them."""
    game, events = dt_game(KeyPlayer([key], kinds={"encounter"}), 2)
    game.pc.hp = game.pc.max_hp = 60
    result = game.wandering()
    assert not any(e["event"] in ("surprise", "reaction") for e in events)
    fights = [e for e in events if e["event"] == "fight"]
    if key == "carry-on":
        assert result == "over" and not fights
        return
    names = {f["name"].rstrip(" 0123456789") for f in fights[0]["foes"]}
    assert names == ({"Goblin"} if key == "fight" else {"Giant Frog"})
    attackers = {e["attacker"].rstrip(" 0123456789") for e in events if e["event"] == "attack"} - {"you"}
    assert attackers <= names


@pytest.mark.parametrize(("dropped", "creature", "distracts"), [
    ("food", "Giant Frog", True), ("food", "Goblin", False), ("treasure", "Goblin", True),
    ("treasure", "Giant Frog", False)])
def test_dt_flight_distraction_follows_the_creatures_intelligence(dropped: str, creature: str,
                                                                    distracts: bool) -> None:
    """death-and-treasure-v0.1.txt, *What's Next?*: dropped food distracts unintelligent creatures,
    dropped treasure intelligent ones, 3-in-6. Ruling: a block's INT 3 or more is intelligent."""
    game, events = dt_game(KeyPlayer([dropped], kinds={"escape"}))
    game.pc.add(Item("Silver idol", "treasure", 1, value=10))
    foes = foes_from(game.block(creature), creature, 1)
    game.rules.escape(game, foes)  # type: ignore[attr-defined]
    distract = next(e for e in events if e["event"] == "distract")
    assert (distract["roll"] > 0) == distracts  # the 3-in-6 is rolled only for the right bait


def test_dt_intelligence_unknown_is_asked_once() -> None:
    """death-and-treasure-v0.1.txt, *What's Next?* and *The Oracle*: a block without INT: the
    player says (or asks the Oracle) whether the creatures are intelligent, once a kind."""
    player = KeyPlayer(["food", "no", "food"], kinds={"language", "escape"})
    game, _ = dt_game(player)
    statue = foes_from(game.block("Statue"), "Statue", 1)
    game.rules.escape(game, statue)  # type: ignore[attr-defined]
    game.rules.escape(game, statue)  # type: ignore[attr-defined]
    assert sum(q.kind == "language" for q in player.asked) == 1
    assert game.state.rules["intelligent"] == {"Statue": False}


@pytest.mark.parametrize(("rulings", "turns"), [("", 2), (" [same-room: free]", 1)])
def test_dt_same_room_entry_turn_ruling(rulings: str, turns: int) -> None:
    """death-and-treasure-v0.1.txt, *Game Procedure* and *Taking Action* ("If spending a turn,
    roll to determine if an encounter occurs"). Ruling ``same-room``: ``turn`` (default) charges
    the entry read after an action a turn and an encounter check; ``free`` does not. An ending
    is never charged, so the action's entries lead on to one."""
    player = KeyPlayer(["choice:0", "plan:turn"], kinds={"menu", "plan"})
    game, events = dt_game(player, rulings=rulings)
    game.run()
    assert sum(e["event"] == "turn" for e in events) == turns


def test_dt_morale_ruling() -> None:
    """death-and-treasure-v0.1.txt, *Combat*: "flee if the result is less than their Morale"
    (default, ``morale: below``); ruling ``morale: above`` flees on a result above it."""
    from dtc.systems.death_and_treasure.combat import morale_breaks

    assert morale_breaks(11, 12) and not morale_breaks(11, 12, "above") and morale_breaks(12, 11, "above")
    for rulings, fled in (("", True), (" [morale: above]", False)):
        seen = False
        for seed in range(1, 15):
            game, events = dt_game(CautiousPolicy(), seed, rulings, STR=18)
            with contextlib.suppress(RunEnded):
                game.rules.fight(game, foes_from(game.block("Statue"), "Statue", 1))
            seen = seen or any(e["event"] == "morale" and e["flees"] for e in events)
        assert seen == fled


def test_dt_cha_reaction_ruling() -> None:
    """death-and-treasure-v0.1.txt, *Reaction* ("modified based on CHA score", -1 above 13 by
    the ability table): as written by default; ruling ``cha-reaction: helps`` gives +1."""
    for rulings, mod in (("", -1), (" [cha-reaction: helps]", 1)):
        game, events = dt_game(KeyPlayer(["carry-on"], kinds={"encounter"}), 1, rulings, CHA=16)
        game.rules.encounter(game, foes_from(game.block("Statue"), "Statue", 1), "A statue")
        assert next(e for e in events if e["event"] == "reaction")["modifier"] == mod


def test_rulings_are_read_from_the_rules_value() -> None:
    """A book picks a ruling in its ``Rules:`` value; an unknown ruling or reading is one clear error."""
    from dtc.systems import UnknownRuleset, parse_rules, split_rulings

    assert split_rulings("Death & Treasure") == ("Death & Treasure", {})
    assert split_rulings("death-and-treasure [Morale: Above; same-room=free]") == (
        "death-and-treasure", {"morale": "above", "same-room": "free"})
    assert play_rules("death-and-treasure [morale: above]").rulings["morale"] == "above"
    assert play_rules("death-and-treasure").rulings["morale"] == "below"
    for bad in ("maze-rats [same-room: free]", "death-and-treasure [morale: sideways]", "zilch [morale]"):
        with pytest.raises(UnknownRuleset):
            parse_rules(bad)


# --- Maze Rats ----------------------------------------------------------------------------------

RATS = ("Rules: maze-rats\n\nRat Book\n\nBrute HP 30 | Armor 6 | AB 4 | DEX 1 | WIL 6\n\n"
        "Adventure Entries\n\n1 A door (D0, S2).\n\n2 The end. THE END\n")


def rat(weapon: str, armour: int = 1) -> Character:
    return Character("R", {"STR": 1, "DEX": 1, "WIL": 1}, 40, 40,
                     [Item(weapon, "weapon", ranges=(HAND,)), Item("Shield", "armour", defense=1, slot="shield"),
                      Item("Mail", "armour", defense=armour, slot="body")], ruleset="maze-rats", stats={"AB": 0})


def rats_fight(pc: Character, seed: int, **kw: bool) -> tuple[KeyPlayer, list[dict[str, Any]]]:
    events: list[dict[str, Any]] = []
    player = KeyPlayer(["attack:0"] * 40, kinds={"combat"})
    game = Engine(graph_of(RATS), pc, player, dice=Dice(seed), sinks=[events.append], rules=play_rules("maze-rats"))
    game.rules.begin(game)
    with contextlib.suppress(RunEnded):
        game.rules.fight(game, foes_from(game.block("Brute"), "Brute", 1), **kw)
    return player, events


def test_maze_rats_no_shield_to_shatter_with_a_two_handed_weapon() -> None:
    """maze-rats-core-rules.txt, *Combat* ("Shields use one hand and so cannot be used with
    two-handed weapons") and *Combat* (shatter a shield to ignore a hit's damage)."""
    asked = {"Greataxe": 0, "Sword": 0}
    for weapon in asked:
        for seed in range(1, 8):
            player, _ = rats_fight(rat(weapon), seed)
            asked[weapon] += sum(q.kind == "shield" for q in player.asked)
    assert asked["Greataxe"] == 0 and asked["Sword"] > 0


@pytest.mark.parametrize(("armour", "dice"), [(1, 3), (2, 2)])
def test_maze_rats_heavy_armour_loses_ambush_advantage(armour: int, dice: int) -> None:
    """maze-rats-core-rules.txt, *Initiative* (an ambushing side has advantage on its first
    round's attacks) and *Combat* and *Gold Prices* (heavy armour: no advantage on surprise attack rolls)."""
    _, events = rats_fight(rat("Sword", armour), 3, ambush=True)
    first = next(e for e in events if e["event"] == "attack" and e["attacker"] == "you")
    assert len(first["rolls"][0]) == dice  # advantage rolls 3d6 and keeps the best two


# --- Dungeon Rules ------------------------------------------------------------------------------

DELVE = ("Rules: death-and-treasure + dungeon-rules\n\nDelve\n\nZones\n  1. Standard\n  2. Standard lair\n\n"
         "Encounters\n  1-6. 1 Gnawer\n\nGnawer HP 2 | Morale 6 | Teeth d3\n\nAdventure Entries\n\n"
         "1 A passage (D0, S2).\n\n2 The gnawers' den (D0, S1).\n")


def delve(player: Any, entry: int, seed: int = 1) -> tuple[Engine, list[dict[str, Any]]]:
    from helpers.runtime import hero

    events: list[dict[str, Any]] = []
    graph = graph_of(DELVE)
    game = Engine(graph, hero(), player, dice=Dice(seed), sinks=[events.append], rules=play_rules(graph["rules"]))
    game.rules.begin(game)
    game.state.arrive(entry)
    return game, events


@pytest.mark.parametrize(("entry", "checks"), [(1, 1), (2, 4)])
def test_dungeon_rules_lairs_check_at_the_start_and_end_of_each_ten_minutes(entry: int, checks: int) -> None:
    """dungeon-rules.txt, 2.1 *Encounter Check Rhythm*: once every 20 minutes in a standard sector;
    inside a lair, at the start and the end of each 10 minutes."""
    game, _ = delve(CautiousPolicy(), entry)
    rules: Any = game.rules
    rules.pass_minutes(game, 20)
    due = rules.due_checks(game)
    assert due == checks


def test_dungeon_rules_running_away_adds_a_danger_step() -> None:
    """dungeon-rules.txt, 2.2 *Danger Range Steps*: running, shouting: +1 step until the next check
    (and ``dtc rules dungeon-rules`` lists fleeing under it)."""
    for seed in range(1, 30):
        game, _ = delve(KeyPlayer(["flee", "run"], kinds={"encounter", "escape"}), 1, seed)
        rules: Any = game.rules
        game.pc.hp = game.pc.max_hp = 50
        gnawer = foes_from(game.block("Gnawer"), "Gnawer", 1)
        result = rules.encounter(game, gnawer, "1 Gnawer")
        steps = [s for s in rules.st(game)["steps"] if s["why"] == "running away"]
        assert len(steps) == (1 if result == "fled" else 0)
        if steps:
            assert steps[0]["amount"] == 1 and steps[0]["checks"] == 1
            before = rules.danger(game)
            rules.roll_check(game, "test")
            assert rules.danger(game) == before - 1  # spent by the next check
            return
    pytest.fail("no seed fled")


# --- frequencies (fixed seeds) ------------------------------------------------------------------


def test_zilch_rest_is_interrupted_half_the_time() -> None:
    """zilch.txt, *Recovery*: resting in a dungeon has a 50% chance of a wandering monster."""
    hits = 0
    runs = 300
    for seed in range(runs):
        pc = zilch_pc(hearts=30, hp=20)
        game, events = zilch_game(ZILCH_BOOK, pc, seed, KeyPlayer(["rest"], kinds={"recovery"}))
        with contextlib.suppress(RunEnded):
            game.rules.rest(game)
        hits += next(e["encounter"] for e in events if e["event"] == "encounter_check" and e.get("why") == "rest")
    assert 0.42 < hits / runs < 0.58


def test_dt_right_bait_distracts_three_times_in_six() -> None:
    """death-and-treasure-v0.1.txt, *What's Next?*: the right bait distracts 3-in-6."""
    runs = 300
    hits = 0
    for seed in range(runs):
        game, events = dt_game(KeyPlayer(["food"], kinds={"escape"}), seed)
        game.rules.escape(game, foes_from(game.block("Giant Frog"), "Giant Frog", 1))  # type: ignore[attr-defined]
        hits += next(e["distracted"] for e in events if e["event"] == "distract")
    assert 0.42 < hits / runs < 0.58


@pytest.mark.parametrize("rules", ["maze-rats", "zilch"])
def test_groups_fighting_each_other_in_every_system(rules: str) -> None:
    """The same ruling for Maze Rats and Zilch (their seeds give no encounter rows): a row of two
    groups at odds meets the adventurer as two groups busy with each other."""
    from dtc.systems.maze_rats.play import make_character as make_rat
    from dtc.systems.zilch.play import make_character as make_zilch

    src = (f"Rules: {rules}\n\nBook\n\nEncounters\n\n  1. 2 Ratlings chasing 1 Moth\n\n"
           "Ratling HP 3 | Armor 6 | AB 1\n\nMoth HP 2 | Armor 6 | AB 0\n\n"
           "Adventure Entries\n\n1 A door (D0, S2).\n\n2 The end. THE END\n")
    pc = make_rat(Dice(1)) if rules == "maze-rats" else make_zilch(Dice(1))
    pc.hp = pc.max_hp = 40
    events: list[dict[str, Any]] = []
    game = Engine(graph_of(src), pc, KeyPlayer(["fight:2"], kinds={"encounter"}), dice=Dice(1),
                  sinks=[events.append], rules=play_rules(rules))
    game.rules.begin(game)
    game.wandering()
    assert not any(e["event"] in ("surprise", "reaction") for e in events)
    fight = next(e for e in events if e["event"] == "fight")
    assert [f["name"] for f in fight["foes"]] == ["Moth"]


def test_a_bad_ruling_is_one_lint_error(tmp_path: Any) -> None:
    """An unknown reading is DT109 with the readings allowed, not a traceback."""
    from click.testing import CliRunner

    from dtc.cli import main

    book = tmp_path / "book.txt"
    book.write_text("Rules: death-and-treasure [morale: sideways]\n\nBook\n\nAdventure Entries\n\n"
                    "1 A door (D0, S2).\n\n2 Out. THE END\n", encoding="utf-8")
    r = CliRunner().invoke(main, ["lint", str(book)])
    assert r.exit_code == 1 and "DT109" in r.output and "one of below, above, not 'sideways'" in r.output


def test_same_room_ruling_reaches_through_the_overlay() -> None:
    """The base's ``same-room`` ruling holds under Dungeon Rules too (the move's minutes)."""
    for rulings, expected in (("", True), (" [same-room: free]", False)):
        rules = play_rules("death-and-treasure + dungeon-rules" + rulings)
        assert rules.arrival_costs_turn(None, "success", ("turn",)) is expected  # type: ignore[arg-type]
        assert rules.arrival_costs_turn(None, "exit", None) is True  # type: ignore[arg-type]


def test_a_drained_zilch_adventurer_still_saves(tmp_path: Any) -> None:
    """Drain lowers ♥ and the HP maximum with it; the character stays a valid, loadable sheet."""
    import json

    from dtc.runtime.character import load_character

    pc = zilch_pc(hearts=6, hp=1)
    game, _ = zilch_game(QUIET_BOOK, pc, 1)
    game.damage(4, "a blade trap")  # 3 beyond 0
    assert pc.abilities["♥"] == 3 and pc.max_hp == 3 and pc.stats["drain"] == 3 and pc.hp == 0
    path = tmp_path / "z.json"
    path.write_text(json.dumps(pc.to_dict(), ensure_ascii=False), encoding="utf-8")
    assert load_character(path).to_dict() == pc.to_dict()
