"""Maze Rats and Zilch in `dtc play`: bundled adventures end to end, odds under two rulesets,
combat, encounters and recovery."""

from __future__ import annotations

import contextlib
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import dtc.systems.zilch.dominoes as dom
from dtc.cli import main
from dtc.compiler.api import compile_file
from dtc.diagnostics import Severity
from dtc.lint.engine import lint_compilation
from dtc.runtime import menu
from dtc.runtime.character import Character, load_character
from dtc.runtime.core import RunEnded
from dtc.runtime.dice import Dice
from dtc.runtime.engine import Engine
from dtc.runtime.equipment import HAND, RATIONS, Item, standard_gear
from dtc.runtime.foes import foes_from
from dtc.runtime.policies import CautiousPolicy
from dtc.systems import play_rules
from dtc.systems.maze_rats.play import armor, make_character
from dtc.systems.zilch.play import make_character as make_zilch
from helpers.runtime import ROOT, KeyPlayer, book, compiled

ADVENTURES = {"the-tallow-king.txt": "maze-rats", "the-glass-orchard.txt": "zilch",
              "the-chime-pits.txt": "death-and-treasure + dungeon-rules"}
OUTCOMES = ("escaped:", "ended:", "died:", "lost:", "stopped:")


@pytest.mark.parametrize("name", sorted(ADVENTURES))
def test_bundled_adventure_lints_clean_under_its_ruleset(name: str) -> None:
    comp = compile_file(ROOT / "adventures" / name)
    assert comp.graph()["rules"] == ADVENTURES[name]
    bad = [d for d in lint_compilation(comp) if d.severity >= Severity.WARNING or d.code == "DT304"]
    assert not bad, [f"{d.code} {d.message}" for d in bad]
    assert 12 <= len(comp.doc.entries) <= 21


@pytest.mark.parametrize("policy", ["cautious", "bold", "random"])
@pytest.mark.parametrize("name", sorted(ADVENTURES))
def test_bundled_adventure_plays_end_to_end(name: str, policy: str, tmp_path: Path) -> None:
    log = tmp_path / "run.jsonl"
    r = CliRunner().invoke(main, ["play", str(ROOT / "adventures" / name), "--auto", policy, "--seed", "1",
                                  "--no-save", "--log", str(log)])
    assert r.exit_code == 0, r.output
    assert r.output.strip().startswith(OUTCOMES), r.output
    assert '"rules":"' + ADVENTURES[name] in log.read_text(encoding="utf-8").split("\n")[0]


def test_every_bundled_adventure_can_be_won() -> None:
    """Some seed takes each book's cautious player out alive with treasure (or to a winning END)."""
    for name in ADVENTURES:
        won = False
        for seed in range(1, 40):
            r = CliRunner().invoke(main, ["play", str(ROOT / "adventures" / name), "--auto", "cautious",
                                          "--seed", str(seed), "--no-save"])
            if r.output.startswith(("escaped:", "ended:")) and "treasure worth" in r.output:
                won = True
                break
        assert won, name


# --- the same source under two rulesets ------------------------------------------------------

SWAP = book("1 The gate. Lift the **Portcullis** (STR D2, S3, F5). Squeeze past the **Bars** (DEX D1, S4, F6). "
            "Walk the **Ledge** (DEX D3, S4, F6).", "2 unused (D0, S1).", "3 Under. THE END", "4 Past. THE END",
            "5 Crushed. THE END", "6 Stuck. THE END")


def exact_dt(dice: int, score: int) -> Fraction:
    return Fraction(sum(sum(r) <= score for r in product(range(1, 7), repeat=dice)), 6**dice)


def exact_mr(bonus: int, keep: str) -> Fraction:
    count = 2 if keep == "plain" else 3
    wins = sum(sum(sorted(r, reverse=keep == "best")[:2]) + bonus >= 10 for r in product(range(1, 7), repeat=count))
    return Fraction(wins, 6**count)


def menu_odds(rules: str, pc: Character) -> dict[str, tuple[Fraction | None, str]]:
    graph = compiled(f"Rules: {rules}\n\n" + SWAP)
    game = Engine(graph, pc, KeyPlayer(), dice=Dice(1), rules=play_rules(graph["rules"]))
    game.rules.begin(game)
    q = menu.build(game)
    return {o.label: (o.chance, o.detail) for o in q.options if o.key.startswith("choice:")}


def test_same_adventure_under_two_rulesets_gives_each_its_exact_odds() -> None:
    dt = menu_odds("death-and-treasure", Character("T", {"STR": 12, "DEX": 9, "CON": 10, "WIS": 10, "INT": 10,
                                                          "CHA": 10}, 8, 8, standard_gear()))
    rats = menu_odds("maze-rats", Character("R", {"STR": 1, "DEX": 2, "WIL": 0}, 4, 4, ruleset="maze-rats"))
    # Death & Treasure: the best plan's chance (a check alone, or turn/gear); the check is (D+1)d6 <= score.
    assert "3d6 ≤ STR 12" in dt["Portcullis"][1] and "2d6 ≤ DEX 9" in dt["Bars"][1]
    assert exact_dt(3, 12) == Fraction(20, 27) and "74.1%" in dt["Portcullis"][1]
    assert dt["Ledge"][0] == exact_dt(4, 9) * Fraction(1, 2)  # turn + gear (an even guess) + the check
    # Maze Rats: D2 plain, D1 with advantage, D3 at disadvantage; no turn or gear to spend.
    assert rats["Portcullis"][0] == exact_mr(1, "plain") == Fraction(10, 36)
    assert rats["Bars"][0] == exact_mr(2, "best")
    assert rats["Ledge"][0] == exact_mr(2, "worst")
    assert "≥ 10" in rats["Portcullis"][1]
    assert rats["Portcullis"][0] != dt["Portcullis"][0]


def test_the_overlay_checks_its_own_abilities_with_a_d20() -> None:
    src = SWAP.replace("(DEX D1, S4, F6)", "(AGI D1, S4, F6)")
    graph = compiled("Rules: death-and-treasure + dungeon-rules\n\n" + src)
    pc = Character("T", {"STR": 12, "DEX": 9, "CON": 10, "WIS": 10, "INT": 10, "CHA": 10}, 8, 8, standard_gear(),
                   stats={"LUCK": 10, "WORLDSWAY": 10})
    game = Engine(graph, pc, KeyPlayer(), dice=Dice(1), rules=play_rules(graph["rules"]))
    game.rules.begin(game)
    odds = {o.label: o for o in menu.build(game).options if o.key.startswith("choice:")}
    assert "d20 ≤ AGI 9+3" in odds["Bars"].detail  # AGI is DEX under Death & Treasure
    assert "3d6 ≤ STR 12" in odds["Portcullis"].detail


# --- Maze Rats --------------------------------------------------------------------------------

RATS_BOOK = ("Rules: maze-rats\n\nRat Book\n\nRatling HP 3 | Armor 7 | AB 1 | DEX 1 | WIL 0\n\n"
             "Adventure Entries\n\n1 A door (D0, S2).\n\n2 3 Ratlings lurk. The end. THE END\n")


def rats_game(pc: Character, player: Any = None, seed: int = 5) -> tuple[Engine, list[dict[str, Any]]]:
    events: list[dict[str, Any]] = []
    game = Engine(compiled(RATS_BOOK), pc, player or KeyPlayer(), dice=Dice(seed), sinks=[events.append],
                  rules=play_rules("maze-rats"))
    game.rules.begin(game)
    return game, events


def test_maze_rats_character_creation() -> None:
    for seed in range(20):
        pc = make_character(Dice(seed))
        assert sorted(pc.abilities.values()) == [0, 1, 2] and pc.max_hp == 4
        assert pc.ruleset == "maze-rats" and pc.stats["AB"] in (0, 1)
        assert armor(pc) == 8  # 6 + light armour + shield
    data = make_character(Dice(3)).to_dict()
    assert data["ruleset"] == "maze-rats" and "CHA" not in data["abilities"]


def test_maze_rats_combat_follows_the_attack_rules() -> None:
    for seed in range(1, 6):  # (seed 6 ends in a critical hit that kills)
        pc = Character("R", {"STR": 1, "DEX": 1, "WIL": 1}, 40, 40, [Item("Warhammer", "weapon", ranges=(HAND,))],
                       ruleset="maze-rats", stats={"AB": 1})
        game, events = rats_game(pc, seed=seed)
        foes = foes_from(game.block("Ratling"), "Ratling", 3)
        assert game.rules.fight(game, foes) == "won"
        for e in (e for e in events if e["event"] == "attack"):
            over = e["total"] - e["needed"]
            heavy = 1 if e["attacker"] == "you" else 0  # the warhammer is heavy; ratlings are not
            want = 0 if over <= 0 else (over + heavy) * (2 if e["critical"] else 1)
            assert e["damage"] == want, e
            assert e["needed"] == (7 if e["attacker"] == "you" else 6)  # no shield with a two-handed weapon
        routs = [e for e in events if e["event"] == "morale"]
        assert all(e["flees"] == (e["total"] < 10) for e in routs)


def test_maze_rats_shield_shatters_to_stop_a_killing_blow() -> None:
    pc = Character("R", {"STR": 0, "DEX": 0, "WIL": 0}, 1, 1, [Item("Shield", "armour", defense=1, slot="shield")],
                   ruleset="maze-rats", stats={"AB": 0})
    for seed in range(1, 30):
        pc.hp = 1
        if pc.find("Shield") is None:
            pc.add(Item("Shield", "armour", defense=1, slot="shield"))
        game, events = rats_game(pc, seed=seed)
        with contextlib.suppress(RunEnded):
            game.rules.fight(game, foes_from(game.block("Ratling"), "Ratling", 2))
        shattered = [e for e in events if e["event"] == "item" and e["action"] == "shattered"]
        if shattered:
            hits = [e for e in events if e["event"] == "attack" and e["target"] == "you" and e["hit"]]
            assert game.pc.find("Shield") is None and hits
            return
    pytest.fail("no ratling ever hit")


def test_maze_rats_encounters_and_flight() -> None:
    pc = Character("R", {"STR": 0, "DEX": 4, "WIL": 0}, 4, 4, ruleset="maze-rats", stats={"AB": 0})
    bands = set()
    for seed in range(30):
        game, events = rats_game(pc, KeyPlayer(["flee"] * 5, kinds={"encounter"}), seed=seed)
        try:
            result = game.rules.encounter(game, foes_from(game.block("Ratling"), "Ratling", 1), "1 Ratling")
        except RunEnded:
            result = "died"
        band = next(e["reaction"] for e in events if e["event"] == "reaction")
        bands.add(band)
        if band == "hostile":
            assert any(e["event"] == "surprise" for e in events)  # a WIL roll against the ambush
        else:
            escape = next(e for e in events if e["event"] == "escape")
            assert escape["success"] == (escape["total"] > escape["against"])  # the creatures win ties
            assert result == "fled" or not escape["success"]
    assert {"hostile", "wary", "friendly", "helpful"} <= bands


def test_maze_rats_recovery() -> None:
    pc = Character("R", {"STR": 0, "DEX": 0, "WIL": 0}, 4, 1,
                   [Item(RATIONS, "gear", 2), Item("Medicine", "gear", 1)], ruleset="maze-rats")
    game, _ = rats_game(pc, KeyPlayer(["medicine", "night"], kinds={"recovery"}))
    game.rules.rest(game)
    assert pc.hp == 2 and pc.count("Medicine") == 0
    game.rules.rest(game)
    assert pc.hp == 3 and pc.count(RATIONS) == 1 and game.state.turn >= 48
    pc.hp = pc.max_hp
    assert game.rules.rest_blocked(game) == "you are not hurt"


# --- Zilch --------------------------------------------------------------------------------------

ZILCH_BOOK = ("Rules: zilch\n\nCard Book\n\nCave Goblin HP 4 | Clubs 6 | Spades 7 | Damage 2\n\n"
              "Adventure Entries\n\n1 A door (D0, S2).\n\n2 2 Cave Goblins squat here. THE END\n")


def test_zilch_character_creation() -> None:
    for seed in range(30):
        pc = make_zilch(Dice(seed))
        assert all(5 <= v <= 10 for v in pc.abilities.values()) and pc.max_hp == pc.abilities["♥"]
        assert pc.stats["chips"] == pc.abilities["♣" if "class: Fighter" in pc.notes else "♠"]
    data = make_zilch(Dice(1)).to_dict()
    assert set(data["abilities"]) == {"♣", "♠", "♦", "♥"}


def test_dominoes() -> None:
    assert len(dom.SET) == 21 and (0, 0) not in dom.SET
    assert dom.pips((5, 2), dom.RECKLESS) == (7, 0) and dom.pips((5, 2), dom.BOLD) == (5, 2)
    assert dom.pips((5, 2), dom.CAUTIOUS) == (2, 5) and dom.pips((5, 2), dom.GUARDED) == (0, 7)
    assert dom.blow(17, 7, 3, 1) == 4  # +2 for 10 points of margin, -1 resistance
    assert dom.blow(6, 7, 3, 0) == 0
    # Exact over a fresh set: enumerate ordered pairs of different tiles by hand.
    me, them = dom.Side(8, dom.BOLD, known=False), dom.Side(7, dom.CAUTIOUS, known=False, resistance=1)
    pairs = [(a, b) for i, a in enumerate(dom.SET) for j, b in enumerate(dom.SET) if i != j]
    hits = sum(8 + a[0] >= 7 + b[0] for a, b in pairs)
    assert dom.hit_chance(me, them) == Fraction(hits, len(pairs))
    mean = Fraction(sum(dom.blow(8 + a[0], 7 + b[0], 3, 1) for a, b in pairs), len(pairs))
    assert dom.mean(dom.blow_distribution(me, them, 3)) == mean


def test_zilch_combat_follows_the_domino_rules() -> None:
    for seed in range(1, 6):
        pc = Character("Z", {"♣": 9, "♠": 8, "♦": 6, "♥": 30}, 30, 30, [Item("Longsword", "weapon", ranges=(HAND,))],
                       notes=["class: Fighter"], ruleset="zilch", stats={"chips": 9, "rally": 0})
        events: list[dict[str, Any]] = []
        game = Engine(compiled(ZILCH_BOOK), pc, CautiousPolicy(), dice=Dice(seed), sinks=[events.append],
                      rules=play_rules("zilch"))
        game.rules.begin(game)
        assert game.rules.fight(game, foes_from(game.block("Cave Goblin"), "Cave Goblin", 2)) == "won"
        spent = 0
        for e in (e for e in events if e["event"] == "attack"):
            assert e["hit"] == (e["total"] >= e["needed"])
            if e["attacker"] == "you":
                spent += e["chips"]
                assert e["damage"] == (dom.blow(e["total"], e["needed"], 3, 0) if e["hit"] else 0)
            else:
                assert e["damage"] == (dom.blow(e["total"], e["needed"], 2, 0) if e["hit"] else 0)
        assert pc.stats["chips"] == 9 - spent
        rounds = [e for e in events if e["event"] == "round" and "domino" in e]
        assert all(tuple(e["domino"]) in dom.SET for e in rounds)


def test_zilch_recovery_rally_and_first_aid() -> None:
    pc = make_zilch(Dice(4))
    pc.stats["chips"] = 0
    pc.hp = 1
    game = Engine(compiled(ZILCH_BOOK), pc, KeyPlayer(["rally", "rest"], kinds={"recovery"}), dice=Dice(2),
                  rules=play_rules("zilch"))
    game.rules.begin(game)
    game.rules.rest(game)
    cap = pc.abilities["♣" if "class: Fighter" in pc.notes else "♠"]
    assert pc.stats["rally"] == 1 and pc.stats["chips"] == cap - 1
    events: list[dict[str, Any]] = []
    game.sinks.append(events.append)
    game.rules.rest(game)  # no encounter table: the rest is never interrupted
    aid = next(e for e in events if e["event"] == "check" and e["why"] == "First Aid")
    gained = {"critical success": 2, "success": 1, "failure": 0, "critical failure": -1}[aid["degree"]]
    assert pc.hp == max(0, 1 + gained) and pc.stats["rally"] == 0 and pc.stats["chips"] == cap


def test_characters_of_other_rulesets_round_trip_through_the_schema(tmp_path: Path) -> None:
    import json

    for pc in (make_character(Dice(2)), make_zilch(Dice(2))):
        path = tmp_path / f"{pc.ruleset}.json"
        path.write_text(json.dumps(pc.to_dict(), ensure_ascii=False), encoding="utf-8")
        back = load_character(path)
        assert back.to_dict() == pc.to_dict() and back.ruleset == pc.ruleset


def test_zilch_encounters_notice_parley_and_flee() -> None:
    seen = set()
    for seed in range(40):
        pc = make_zilch(Dice(seed))
        pc.hp = pc.max_hp = 30
        events: list[dict[str, Any]] = []
        choice = ["talk", "flee"][seed % 2]
        game = Engine(compiled(ZILCH_BOOK), pc, KeyPlayer([choice], kinds={"encounter"}), dice=Dice(seed),
                      rules=play_rules("zilch"),
                      sinks=[events.append])
        game.rules.begin(game)
        result = game.rules.encounter(game, foes_from(game.block("Cave Goblin"), "Cave Goblin", 1), "1 Cave Goblin")
        notice = next(e for e in events if e["event"] == "check" and e["why"] == "notice them coming")
        if not notice["success"]:
            seen.add("surprised")
            assert any(e["event"] == "round" and e.get("surprised") for e in events)
            continue
        if choice == "talk":
            talk = next(e for e in events if e["event"] == "check" and e["why"] == "parley")
            seen.add(f"parley {talk['success']}")
            assert (result == "over") == talk["success"] and talk["ability"] == "♥"
        else:
            escape = next(e for e in events if e["event"] == "escape")
            seen.add(f"flee {escape['success']}")
            assert (result == "fled") == escape["success"] or result == "fled"
    assert {"surprised", "parley True", "parley False", "flee True"} <= seen
