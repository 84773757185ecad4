"""Death & Treasure procedures, one section of the seed at a time, through the compiled graph."""

from __future__ import annotations

from fractions import Fraction

import pytest

from dtc.runtime.core import ABILITY, GEAR, GEAR_OK, MENU, PLAN
from dtc.runtime.equipment import Item
from dtc.systems.death_and_treasure.play import LANTERN_TURNS, DeathAndTreasure
from helpers.runtime import KeyPlayer, book, compiled, engine, hero, kinds

ENCOUNTERS = "Test Book\n\nEncounters\n\n  1. 1d2 Rats\n\nRat HP 1 | Morale 2 | Bite 0\n\nAdventure Entries\n\n"


def test_difficulty_plans() -> None:
    rules = DeathAndTreasure()
    assert rules.plans(0) == [()]
    assert rules.plans(1) == [("turn",), ("gear",), ("check",)]
    assert rules.plans(2) == [("turn", "gear"), ("turn", "check"), ("gear", "check")]
    assert rules.plans(3) == [("turn", "gear", "check")]
    assert rules.plans(4) is None


@pytest.mark.parametrize("difficulty,dice", [(1, "2d6"), (2, "3d6"), (3, "4d6")])
def test_check_dice_by_difficulty(difficulty: int, dice: str) -> None:
    graph = compiled(book(f"1 A wall (DEX D{difficulty}, S2, F3).", "2 Up. THE END", "3 Down. THE END"))
    keys = ["choice:0"] + (["plan:check"] if difficulty == 1 else ["plan:turn+check"] if difficulty == 2 else [])
    player = KeyPlayer(keys, kinds={MENU, PLAN})
    game, events = engine(graph, player)
    out = game.run()
    [check] = kinds(events, "check")
    assert check["dice"] == dice and check["target"] == 10 and check["ability"] == "DEX"
    assert check["success"] == (check["total"] <= 10)
    assert out.entry == (2 if check["success"] else 3)
    if difficulty == 3:
        assert GEAR in [q.kind for q in player.asked]  # all three: the gear is asked for too


def test_menu_shows_exact_odds_for_this_character() -> None:
    graph = compiled(book("1 A wall (DEX D2, S2, F3).", "2 Up. THE END", "3 Down. THE END"))
    player = KeyPlayer(["quit"], kinds={MENU})
    game, _ = engine(graph, player, pc=hero(DEX=12))
    game.run()
    option = player.asked[0].options[0]
    assert "3d6 ≤ DEX 12: 74.1%" in option.detail
    assert option.chance == Fraction(160, 216)  # turn + check: exactly P(3d6 <= 12)


def test_spending_a_turn_meets_d1_and_rolls_for_an_encounter() -> None:
    # (2 is a hall, not an ending: arriving at an ending spends no turn, docs/play.md)
    graph = compiled(ENCOUNTERS + "1 A door (D1, S2, F3).\n\n2 In a hall (D0, S4).\n\n3 Out. THE END\n\n"
                     "4 Beyond. THE END\n")
    game, events = engine(graph, KeyPlayer(["choice:0", "plan:turn", "choice:0"], kinds={MENU, PLAN}))
    out = game.run()
    assert out.kind in ("ended", "died")
    turns = kinds(events, "turn")
    assert [t["why"] for t in turns][:2] == ["action", "move"] or out.kind == "died"
    assert len(kinds(events, "encounter_check")) >= 1
    if out.kind == "ended":
        assert out.entry == 4 and kinds(events, "check") == []


def test_gear_judged_inappropriate_fails() -> None:
    graph = compiled(book("1 A stuck door (D1, S2, F3).", "2 In. THE END", "3 Out. THE END"))
    player = KeyPlayer(["choice:0", "plan:gear", "gear:2", "no"], kinds={MENU, PLAN, GEAR, GEAR_OK})
    game, events = engine(graph, player)
    assert game.run().entry == 3
    assert kinds(events, "gear")[0]["appropriate"] is False
    assert player.asked[2].options[2].label == "Crowbar"


def test_gear_asked_of_the_oracle() -> None:
    graph = compiled(book("1 A stuck door (D1, S2, F3).", "2 In. THE END", "3 Out. THE END"))
    player = KeyPlayer(["choice:0", "plan:gear", "gear:2", "oracle", "odds:4"])
    game, events = engine(graph, player)
    out = game.run()
    [oracle] = kinds(events, "oracle")
    assert oracle["odds"] == 4 and (oracle["answer"] == "yes") == (oracle["roll"] <= 4)
    assert out.entry == (2 if oracle["answer"] == "yes" else 3)


def test_check_without_ability_asks_which() -> None:
    graph = compiled(book("1 A riddle (D1, S2, F3).", "2 Yes. THE END", "3 No. THE END"))
    player = KeyPlayer(["choice:0", "plan:check", "INT"], kinds={MENU, PLAN, ABILITY})
    game, events = engine(graph, player, pc=hero(INT=15))
    game.run()
    ability_q = next(q for q in player.asked if q.kind == ABILITY)
    assert [o.key for o in ability_q.options] == ["STR", "DEX", "CON", "WIS", "INT", "CHA"]
    assert kinds(events, "check")[0]["ability"] == "INT"


def test_auto_players_pick_their_best_ability() -> None:
    graph = compiled(book("1 A riddle (D2, S2, F3).", "2 Yes. THE END", "3 No. THE END"))
    game, events = engine(graph, KeyPlayer(["choice:0", "plan:turn+check"], kinds={MENU, PLAN}),
                          pc=hero(CHA=17))
    game.run()
    assert kinds(events, "check")[0]["ability"] == "CHA"


def test_lantern_burns_24_turns_a_flask_then_the_dark() -> None:
    graph = compiled(book("1 A cell. Out (D0, S2).", "2 Freedom. THE END"))
    player = KeyPlayer(["wait"] * 100, kinds={MENU})
    game, events = engine(graph, player, pc=hero(WIS=18))
    out = game.run()
    light = kinds(events, "light")
    assert [e["action"] for e in light] == ["light", "refill", "refill", "out"]
    assert [e["turn"] for e in light] == [0, LANTERN_TURNS, 2 * LANTERN_TURNS, 3 * LANTERN_TURNS]
    assert out.kind == "lost" and out.turn == 3 * LANTERN_TURNS + 6
    assert len([c for c in kinds(events, "check") if c["ability"] == "WIS"]) == 6
    dark_menu = player.asked[-1]
    assert dark_menu.info["dark"] and not any(o.key.startswith("choice") for o in dark_menu.options)


def test_a_failed_wis_check_in_the_dark_is_lost_forever() -> None:
    graph = compiled(book("1 A cell. Out (D0, S2).", "2 Freedom. THE END"))
    pc = hero(WIS=2)
    pc.use("Lantern Oil", 3)
    game, _events = engine(graph, KeyPlayer(["wait"] * 10, kinds={MENU}), pc=pc)
    out = game.run()
    assert out.kind == "lost" and out.turn == 1
    assert "lost: in the dark near entry 1" in out.line()


def test_rest_heals_d4_three_times_a_day_with_one_ration() -> None:
    graph = compiled(book("1 A quiet cell. Out (D0, S2).", "2 Freedom. THE END"))
    pc = hero()
    pc.hp = 1
    player = KeyPlayer(["rest"] * 3 + ["quit"], kinds={MENU})
    game, events = engine(graph, player, pc=pc)
    game.run()
    rests = kinds(events, "rest")
    assert len(rests) == 3
    healed = sum(e["amount"] for e in kinds(events, "heal"))
    assert pc.hp == 1 + healed and all(1 <= sum(r["rolls"][0]) <= 4 for r in rests)
    assert pc.count("Rations") == 13
    if pc.hp < pc.max_hp:
        assert "rest" not in [o.key for o in player.asked[-1].options]


def test_no_rest_without_rations_or_when_unhurt() -> None:
    graph = compiled(book("1 A cell. THE END"))
    pc = hero()
    game, _ = engine(graph, KeyPlayer(), pc=pc)
    rules = DeathAndTreasure()
    assert rules.rest_blocked(game) == "you are not hurt"
    pc.hp = 2
    assert rules.rest_blocked(game) is None
    pc.use("Rations", 14)
    assert rules.rest_blocked(game) == "resting needs a ration and a waterskin"


def test_encounter_procedure_rolls_on_the_table() -> None:
    graph = compiled(ENCOUNTERS + "1 A cell. Out (D0, S2).\n\n2 Freedom. THE END\n")
    game, events = engine(graph, KeyPlayer(["wait"] * 40 + ["quit"], kinds={MENU}), seed=3)
    game.run()
    found = kinds(events, "encounter")
    assert found, "40 turns without a 1-in-6 encounter"
    for e in found:
        assert e["roll"] == 1 and e["text"] == "1d2 Rats" and 1 <= len(e["foes"]) <= 2
        after = events[events.index(e) + 1: events.index(e) + 3]
        assert [a["event"] for a in after] == ["surprise", "reaction"]


def test_leaving_by_the_entrance_with_treasure_escapes() -> None:
    graph = compiled(book("1 The gate. In (D0, S2).", "2 You find 30 coins. Back (D0, S1)."))
    game, _ = engine(graph, KeyPlayer(["choice:0", "choice:0", "leave"], kinds={MENU}))
    out = game.run()
    assert out.kind == "escaped" and out.treasure == 30
    assert out.line().startswith("escaped: left by the entrance (entry 1)")


def test_turn_limit_stops_the_run() -> None:
    graph = compiled(book("1 A cell. Out (D0, S2).", "2 Freedom. THE END"))
    game, _ = engine(graph, KeyPlayer(["wait"] * 50, kinds={MENU}), max_turns=5)
    out = game.run()
    assert (out.kind, out.turn) == ("stopped", 5)
    assert out.line() == "stopped: turn limit 5 reached at entry 1 on turn 5"


def test_encumbrance_over_str_rolls_twice() -> None:
    pc = hero(STR=4)
    assert not pc.encumbered
    pc.add(Item("Plate", "armour", weight=Fraction(3), defense=7, slot="body"))
    assert pc.encumbered and pc.defense == 9 + 7 - 1
