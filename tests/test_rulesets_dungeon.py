"""Dungeon Rules: the zone and hazard notation (parse, compile, lint) and the overlay at play time."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from dtc.cli import main
from dtc.compiled.schema import validate
from dtc.compiler.api import compile_text
from dtc.runtime.character import Character
from dtc.runtime.dice import Dice
from dtc.runtime.engine import Engine
from dtc.runtime.equipment import standard_gear
from dtc.runtime.policies import BoldPolicy, CautiousPolicy
from dtc.systems import play_rules
from dtc.systems.dungeon_rules.play import DungeonRules
from helpers import assert_diagnostics
from helpers.runtime import KeyPlayer, compiled

HEAD = "Rules: death-and-treasure + dungeon-rules\n\nDelve\n\n"
GAS = "Hazard: Sour Gas | Check: CON D2 | Fail: choking, 1d4 damage | Mitigation: waterskin | Telltales: egg smell"


def dr_book(*entries: str, pre: str = "") -> str:
    return HEAD + pre + "Adventure Entries\n\n" + "\n\n".join(entries) + "\n"


BOOK = dr_book(
    "1 The mouth of the mine (D0, S2).",
    "2 A gallery (D0, S3). Back out (D0, S1).\nHazard: Sour Gas",
    "3 A deep stope. Back (D0, S2).\nHazard: Pit | Check: AGI or WIS D3 | Fail: a fall, 2d6 damage",
    pre="Zones\n  1. Quiet\n  2. Perilous\n\n" + GAS + "\n\nEncounters\n  1-6. 1d2 Gnawers\n\n"
        "Gnawer HP 2 | Morale 6 | Teeth d3\n\n",
)


def test_zones_and_hazards_compile_into_the_graph() -> None:
    graph = compile_text(BOOK, "delve.txt").graph()
    validate(graph)
    assert [(z["low"], z["high"], z["zone"]) for z in graph["zones"]] == [(1, 1, "quiet"), (2, 2, "perilous")]
    gas, pit = graph["hazards"]
    assert gas["check"] == {"abilities": ["CON"], "difficulty": 2} and gas["mitigation"] == ["waterskin"]
    assert gas["entry"] is None and pit["entry"] == 3 and pit["check"]["abilities"] == ["AGI", "WIS"]
    by_number = {e["number"]: e for e in graph["entries"]}
    assert by_number[2]["hazards"] == ["Sour Gas"] and by_number[3]["zone"] is None
    # The hazard's "2d6 damage" is not damage the entry itself deals.
    assert not [e for e in by_number[3]["effects"] if e["kind"] == "damage"]


def test_books_without_the_notation_keep_their_graph_shape() -> None:
    graph = compile_text("Plain\n\nAdventure Entries\n\n1 A door (D0, S2).\n\n2 Out. THE END\n").graph()
    assert "zones" not in graph and "zone" not in graph["entries"][0]


def test_a_zone_line_overrides_the_table() -> None:
    graph = compile_text(BOOK.replace("A deep stope.", "A deep stope.\nZone: deep or tainted\n"), "d.txt").graph()
    assert {e["number"]: e["zone"] for e in graph["entries"]}[3] == "deep"


def test_the_bundled_book_is_clean() -> None:
    assert_diagnostics(BOOK)


@pytest.mark.parametrize(("change", "expected"), [
    (("  2. Perilous", "  2. Perilus"), "unknown-zone@7:6"),
    ((" | Check: CON D2", ""), "hazard-without-check"),
    (("Hazard: Sour Gas\n", "Hazard: Sour Gass\n"), "unknown-hazard"),
    (("Check: CON D2", "Chek: CON D2"), "malformed-hazard"),
    (("Check: AGI or WIS D3", "Check: AGI or PER D3"), "hazard-check"),
    (("Check: AGI or WIS D3", "Check: AGI D5"), "hazard-check"),
    (("  2. Perilous", "  1-2. Perilous"), "zone-overlap"),
    (("  2. Perilous", "  2. Perilous\n  9-12. Deep"), "zone-overlap"),
])
def test_lint_rules_for_the_notation(change: tuple[str, str], expected: str) -> None:
    old, new = change
    src = BOOK.replace(old, new, 1)
    if expected == "unknown-hazard":
        assert_diagnostics(src, expected, "unused-hazard")
    else:
        assert_diagnostics(src, expected)


def test_notation_without_the_overlay_is_reported_once() -> None:
    assert_diagnostics(BOOK.replace("death-and-treasure + dungeon-rules", "maze-rats"), "dungeon-notation-ignored")


def test_unused_hazard() -> None:
    assert_diagnostics(BOOK.replace("Hazard: Sour Gas\n", ""), "unused-hazard")


# --- at play time ---------------------------------------------------------------------------------


def delver(**stats: int) -> Character:
    scores = {"STR": 10, "DEX": 10, "CON": 10, "WIS": 10, "INT": 10, "CHA": 10}
    return Character("Delver", scores, 20, 20, standard_gear(), stats={"LUCK": 10, "WORLDSWAY": 10, **stats})


def start(src: str, player: Any, pc: Character | None = None, seed: int = 3) -> tuple[Engine, list[dict[str, Any]]]:
    events: list[dict[str, Any]] = []
    graph = compiled(src)
    game = Engine(graph, pc or delver(), player, dice=Dice(seed), sinks=[events.append],
                  rules=play_rules(graph["rules"]))
    assert isinstance(game.rules, DungeonRules)
    return game, events


def test_zone_intervals_and_danger_range() -> None:
    game, events = start(BOOK, KeyPlayer(["pace:standard", "pace:standard"], kinds={"pace"}))
    game.rules.begin(game)
    game.state.arrive(1)
    rules = game.rules
    assert isinstance(rules, DungeonRules)
    for _ in range(3):  # 30 minutes in a quiet sector: one check
        game.spend_turn("wait")
    checks = [e for e in events if e["event"] == "encounter_check"]
    assert len(checks) == 1 and checks[0]["range"] == 1 and checks[0]["zone"] == "quiet"
    game.state.arrive(2)
    events.clear()
    game.spend_turn("wait")  # perilous: every 10 minutes, danger 1-2
    assert [e["range"] for e in events if e["event"] == "encounter_check"] == [2]
    rules.add_step(game, 1, minutes=20, why="test")
    assert rules.danger(game) == 3
    rules.trip_alarm(game, "test")
    assert rules.danger(game) == 5 and rules.st(game)["alarm"] == 2  # capped at 1-5


def test_danger_steps_expire_by_time_and_by_checks() -> None:
    game, _ = start(BOOK, KeyPlayer())
    game.rules.begin(game)
    game.state.arrive(1)
    rules = game.rules
    assert isinstance(rules, DungeonRules)
    rules.add_step(game, 2, checks=3, why="long rest")
    for expected in (3, 3, 3, 1):
        assert rules.danger(game) == expected
        rules.roll_check(game, "test")
    rules.add_step(game, 1, minutes=20, why="combat noise")
    rules.pass_minutes(game, 20)
    assert rules.danger(game) == 1


def test_a_fight_is_loud() -> None:
    game, _ = start(BOOK, CautiousPolicy())
    game.rules.begin(game)
    game.state.arrive(2)
    from dtc.runtime.foes import foes_from

    game.rules.fight(game, foes_from(game.block("Gnawer"), "Gnawer", 1))
    st = game.rules.st(game)  # type: ignore[attr-defined]
    assert st["loud"] and st["alarm"] == 1 and any(s["why"] == "combat noise" for s in st["steps"])


def test_hazard_mitigated_with_listed_gear_or_checked() -> None:
    game, events = start(BOOK, KeyPlayer(["mitigate"], kinds={"hazard"}))
    game.rules.begin(game)
    game.state.arrive(2)
    game.rules.on_entry(game, game.entries[2])
    stages = [e["stage"] for e in events if e["event"] == "hazard"]
    st = game.rules.st(game)  # type: ignore[attr-defined]
    hours = next(e["hours"] for e in events if e["event"] == "hazard" and e["stage"] == "mitigated")
    assert stages == ["met", "mitigated"] and st["mitigated"] == {"2:sour gas": st["minutes"] + 60 * hours}
    events.clear()
    game.rules.on_entry(game, game.entries[2])  # removed for 1d6 hours (3.7)
    assert not [e for e in events if e["event"] == "hazard"]
    st["minutes"] += 60 * hours
    game.rules.on_entry(game, game.entries[2])  # back once they are over
    assert [e["stage"] for e in events if e["event"] == "hazard"][:1] == ["met"]


def test_hazard_checks_follow_the_pace() -> None:
    for pace, difficulty in (("careful", 2), ("standard", 3), ("fast", 3)):
        game, events = start(BOOK, KeyPlayer([f"pace:{pace}"], kinds={"pace"}), pc=delver(AGI=12))
        game.rules.begin(game)
        game.state.arrive(3)
        game.rules.st(game)["pace"] = pace  # type: ignore[attr-defined]
        game.rules.on_entry(game, game.entries[3])
        check = next(e for e in events if e["event"] == "check")
        assert check["difficulty"] == difficulty and check["dice"] == "d20" and check["ability"] == "AGI"
        assert check["target"] == 12 + {2: 0, 3: -3}[difficulty]
        if not check["success"]:
            assert any(e["event"] == "damage" and e["cause"] == "hazard: Pit" for e in events)


def test_rests_and_their_risks() -> None:
    game, events = start(BOOK, KeyPlayer(["rest:long"], kinds={"rest-type"}))
    game.rules.begin(game)
    game.state.arrive(1)
    game.pc.hp = 3
    game.rules.rest(game)
    watches = [e for e in events if e["event"] == "encounter_check" and str(e["why"]).startswith("watch")]
    if len(watches) == 4 and not any(w["encounter"] for w in watches):
        assert game.pc.hp == game.pc.max_hp
        assert game.rules.danger(game) == 3  # +2 steps on the next three checks  # type: ignore[attr-defined]
    assert game.rules.st(game)["minutes"] >= 120  # type: ignore[attr-defined]


def test_overlay_on_maze_rats_rolls_a_second_sheet() -> None:
    src = BOOK.replace("death-and-treasure + dungeon-rules", "maze-rats + dungeon-rules")
    pc = Character("R", {"STR": 2, "DEX": 1, "WIL": 0}, 4, 4, ruleset="maze-rats", stats={"AB": 0})
    game, _ = start(src, CautiousPolicy(), pc=pc)
    game.rules.begin(game)
    assert {"CON", "INT", "WIS", "AGI", "LUCK", "WORLDSWAY"} <= set(pc.stats) and "STR" in pc.stats
    assert all(3 <= pc.stats[a] <= 18 for a in ("CON", "LUCK"))
    assert game.rules.abilities[:3] == ("STR", "DEX", "WIL")


@pytest.mark.parametrize("policy", [CautiousPolicy, BoldPolicy])
def test_runs_save_and_resume_identically(policy: Any, tmp_path: Path) -> None:
    book = tmp_path / "delve.txt"
    book.write_text(BOOK, encoding="utf-8")
    save, log1, log2 = tmp_path / "s.json", tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    run = ["play", str(book), "--auto", policy.name, "--seed", "4"]
    full = CliRunner().invoke(main, [*run, "--no-save", "--max-turns", "12", "--log", str(log1)])
    part = CliRunner().invoke(main, [*run, "--save", str(save), "--max-turns", "5", "--log", str(log2)])
    if not part.output.startswith("stopped"):  # the adventurer died early: nothing to resume
        assert part.output == full.output
        return
    rest = CliRunner().invoke(main, ["play", "--resume", str(save), "--max-turns", "12", "--log", str(log2)])
    assert rest.output == full.output
    assert log2.read_text(encoding="utf-8") == log1.read_text(encoding="utf-8")
    assert json.loads(log1.read_text(encoding="utf-8").split("\n")[0])["rules"].endswith("dungeon-rules")
