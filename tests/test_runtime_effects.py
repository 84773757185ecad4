"""Prose -> effects at compile time (dtc.compiler.read_effects), and the effects applied at play time."""

from __future__ import annotations

from typing import Any

import pytest

from dtc.compiler.read_effects import extract_effects
from helpers.runtime import KeyPlayer, book, compiled, engine, hero, kinds, sample_source


def fx(text: str, creatures: list[str] | None = None) -> list[dict[str, Any]]:
    found = extract_effects(text, creatures)
    for e in found:
        assert e["text"] in text[e["start"]: e["end"]] or text[e["start"]: e["end"]].strip() == e["text"]
    return found


def simple(effects: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    out = []
    for e in effects:
        key = {"damage": "dice", "heal": "dice", "check": "ability", "treasure": "quantity", "item": "name",
               "fight": "target", "creatures": "count", "condition": "target", "manual": "text"}[e["kind"]]
        when = None if e["when"] is None else (e["when"]["check"], e["when"]["outcome"])
        out.append((e["kind"], e[key], when))
    return out


@pytest.mark.parametrize("text,expected", [
    ("You fall and take d4 damage.", [("damage", "d4", None)]),
    ("A blade swings (d6 damage) as you pass.", [("damage", "d6", None)]),
    ("Take 2d6+1 damage.", [("damage", "2d6+1", None)]),
    ("You lose 3 HP.", [("damage", "3", None)]),
    ("Drink and regain d4 HP.", [("heal", "d4", None)]),
    ("Make a DEX check.", [("check", "DEX", None)]),
    ("Make a Strength check.", [("check", "STR", None)]),
])
def test_single_effects(text: str, expected: list[tuple[Any, ...]]) -> None:
    assert simple(fx(text)) == expected


def test_letters_that_lower_case_to_two_read_the_same() -> None:
    """'İ' lower-cases to two characters, which moves the offsets of a lower-cased entry: the
    sentences are then lower-cased one by one, and read alike."""
    plain = "Make a CON check or take d6 damage. İt is cold. You find 20 coins. Nothing else here."
    assert simple(fx(plain)) == simple(fx(plain.replace("İ", "I")))
    assert [k for k, *_ in simple(fx(plain))] == ["check", "damage", "treasure"]


def test_failure_sentences_depend_on_the_check() -> None:
    found = fx("Make a DEX check to dodge. On failure, take d10 damage.")
    assert simple(found) == [("check", "DEX", None), ("damage", "d10", (0, "failure"))]


def test_or_clause_depends_on_the_check_and_unreadable_parts_are_manual() -> None:
    found = fx("Make a CON check or take d6 damage. Make a WIS check or be cursed for a week.")
    assert simple(found) == [
        ("check", "CON", None), ("damage", "d6", (0, "failure")),
        ("check", "WIS", None), ("manual", "or be cursed for a week", (2, "failure")),
    ]


def test_difficulty_in_prose_check() -> None:
    [check] = fx("Make a D2 STR check.")
    assert (check["ability"], check["difficulty"]) == ("STR", 2)


def test_periodic_damage_is_manual() -> None:
    found = fx("Take 1 damage each hour.")
    assert [e["kind"] for e in found] == ["manual"]


def test_treasure_and_items() -> None:
    found = fx("Inside the chest is 500 coins, 5 gems (500 coins each), and a silver crown (1,000 coins).")
    assert [(e["category"], e["quantity"], e["value"]) for e in found] == [
        ("coins", 500, 1), ("gems", 5, 500), ("unique", 1, 1000)]
    found = fx("You find a stone key, 50 coins, a wooden whistle (Weight 1), and 3 pieces of jewelry.")
    assert [(e["kind"], e["name"], e["quantity"], e["weight"]) for e in found] == [
        ("item", "stone key", 1, None), ("treasure", "coins", 50, None), ("item", "wooden whistle", 1, 1.0),
        ("treasure", "jewelry", 3, None)]
    found = fx("You find 8,000 coins, 1,250 gold pieces and 2 gems.")
    assert [(e["category"], e["quantity"]) for e in found] == [("coins", 8000), ("coins", 1250), ("gems", 2)]
    assert simple(fx("You gather rations (7) and two flasks of oil.")) == [
        ("item", "Rations", None), ("item", "Lantern Oil", None)]


def test_scenery_is_not_an_item() -> None:
    assert fx("Inside the mouth is a massive, hot cavern.") == []
    assert fx("You find a way to open the door.") == []
    assert fx("You find a trap door hidden in the floor.") == []


def test_fights_conditions_and_creatures() -> None:
    found = fx("The goblins attack. Follow the combat procedures. If you win, go to 9.")
    assert simple(found) == [("fight", 9, None)]
    found = fx("The statue wakes. If you win, go to 31. Stone Frog HP 7 | Morale 12 | Bite d8.")
    assert [(e["kind"], e["target"]) for e in found] == [("fight", 31)]
    found = fx("If you killed the troll, skip to 17. A group of 4 Goblins dance.", ["Goblin"])
    assert simple(found) == [("condition", 17, None), ("creatures", "4", None)]
    assert fx("4 Lanterns hang here.", ["Goblin"]) == []


def test_weight_sentences_are_shown_not_dropped() -> None:
    assert simple(fx("Each is Weight 1.")) == [("manual", "Each is Weight 1.", None)]


def test_sample_dungeon_effects() -> None:
    graph = compiled(sample_source(), "sample.txt")
    by = {e["number"]: e["effects"] for e in graph["entries"]}
    assert [e["kind"] for e in by[6]] == ["check", "damage", "check", "manual"]
    assert by[6][1]["when"] == {"check": 0, "outcome": "failure"}
    assert by[6][3]["when"] == {"check": 2, "outcome": "failure"}
    assert [(e["kind"], e.get("category")) for e in by[7]] == [
        ("treasure", "coins"), ("treasure", "gems"), ("treasure", "unique")]
    assert [e["kind"] for e in by[8]][:2] == ["check", "damage"]
    assert [(e["kind"], e.get("target")) for e in by[18]] == [("fight", 17)]
    assert [(e["kind"], e.get("target")) for e in by[30]] == [("fight", 31)]
    assert {"condition", "creatures"} <= {e["kind"] for e in by[16]}
    assert [e["name"] for e in by[22] if e["kind"] == "item"] == ["stone key", "wooden whistle", "soup spoon"]
    assert by[2] == [] and by[1] == []


# --- applied at play time ---------------------------------------------------------------------


def test_damage_on_failed_check_and_death_notes_the_entry() -> None:
    graph = compiled(book("1 Go on (D0, S2).", "2 Make a DEX check. On failure, take 50 damage. THE END"))
    game, events = engine(graph, KeyPlayer(["choice:0"]), pc=hero(DEX=2))
    out = game.run()
    assert out.kind == "died" and out.entry == 2
    assert "died: at entry 2" in out.line()
    assert kinds(events, "check")[0]["success"] is False


def test_passed_check_skips_the_damage() -> None:
    graph = compiled(book("1 Make a DEX check. On failure, take 50 damage. THE END"))
    game, events = engine(graph, KeyPlayer(), pc=hero(DEX=18))
    assert game.run().kind == "ended"
    assert kinds(events, "damage") == []


def test_healing_is_capped_at_max_hp() -> None:
    graph = compiled(book("1 A spring. Drink and regain 5 HP. THE END"))
    pc = hero()
    pc.hp = 5
    game, events = engine(graph, KeyPlayer(), pc=pc)
    game.run()
    assert pc.hp == 8 and kinds(events, "heal")[0]["amount"] == 3


def test_treasure_taken_once_with_weights_and_value() -> None:
    graph = compiled(book("1 Inside the chest is 500 coins and 5 gems (500 coins each). Back (D0, S2).",
                          "2 A hall. Return to 1."))
    game, _ = engine(graph, KeyPlayer(["choice:0", "exit:0", "quit"], kinds={"menu"}))
    game.run()
    pc = game.pc
    assert pc.count("coins") == 500 and pc.count("gems") == 5
    assert pc.treasure_value == 3000
    assert pc.load == 3  # the sword 2, 500 coins ½, 5 gems ½


def test_manual_prose_is_shown() -> None:
    graph = compiled(book("1 A shrine. Each is Weight 1. THE END"))
    game, events = engine(graph, KeyPlayer())
    game.run()
    assert [e["text"] for e in kinds(events, "manual")] == ["Each is Weight 1."]
