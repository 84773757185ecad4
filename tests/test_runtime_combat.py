"""Combat: initiative, attacks under STR/DEX with modifiers, Defense, morale as written, escape."""

from __future__ import annotations

from fractions import Fraction

import pytest

from dtc.runtime.core import COMBAT, ESCAPE, MENU, WON
from dtc.systems.death_and_treasure.combat import morale_breaks
from helpers.runtime import KeyPlayer, book, compiled, engine, hero, kinds

ARENA = book(
    "1 A door. In (D0, S2).",
    "2 A rat bites! Rat HP 4 | Morale 2 | Bite d2. If you win, go to 3.",
    "3 Victory. THE END",
)


def fight_events(seed: int, **scores: int) -> tuple[str, list[dict]]:  # type: ignore[type-arg]
    game, events = engine(compiled(ARENA), KeyPlayer(["choice:0"], kinds={MENU}), pc=hero(**scores), seed=seed)
    return game.run().kind, events


@pytest.mark.parametrize("seed", range(6))
def test_stat_block_in_an_entry_starts_a_fight_and_winning_follows_the_exit(seed: int) -> None:
    kind, events = fight_events(seed)
    assert kinds(events, "fight")[0]["foes"] == [{"name": "Rat", "hp": 4, "morale": 2}]
    if kind == "ended":
        assert kinds(events, "fight_end")[-1]["result"] == "won"
        assert kinds(events, "move")[-1] == {**kinds(events, "move")[-1], "to": 3, "how": "win"}


@pytest.mark.parametrize("seed", range(8))
def test_attack_and_defense_rolls(seed: int) -> None:
    _, events = fight_events(seed, STR=16)
    for a in kinds(events, "attack"):
        if a["attacker"] == "you":
            assert a["needed"] == 16 and a["total"] == a["rolls"][0][0] - 1  # STR above 13: -1 to the roll
            assert a["hit"] == (a["total"] <= 16)
            assert (a["damage"] > 0) == a["hit"] and a["damage"] <= 8
        else:
            assert a["needed"] == 9 + 1  # Defense: 9, +1 for STR above 13
            assert a["hit"] == (a["total"] > a["needed"])
            assert a["damage"] <= 2


@pytest.mark.parametrize("seed", range(8))
def test_initiative_decides_who_strikes_first(seed: int) -> None:
    _, events = fight_events(seed)
    for i, e in enumerate(events):
        if e["event"] != "round" or "initiative" not in e:
            continue
        first = next(x for x in events[i + 1:] if x["event"] == "attack")
        if e["enemy_initiative"] > e["initiative"]:
            assert first["attacker"] == "Rat"
        else:
            assert first["attacker"] == "you"


def test_morale_as_written_flees_below_the_score() -> None:
    assert morale_breaks(6, 7) and not morale_breaks(7, 7) and not morale_breaks(12, 7)
    assert not morale_breaks(2, None)
    src = book("1 In (D0, S2).", "2 A brute! Brute HP 30 | Morale 12 | Club d2. If you win, go to 3.",
               "3 Victory. THE END")
    for seed in range(10):
        game, events = engine(compiled(src), KeyPlayer(["choice:0"], kinds={MENU}), pc=hero(STR=18), seed=seed)
        game.run()
        for m in kinds(events, "morale"):
            assert m["flees"] == (m["total"] < 12)
        tests = kinds(events, "morale")
        assert len(tests) <= 2  # once when first hurt, once below half


def test_fight_against_the_creatures_named_before() -> None:
    src = ("Test Book\n\nRat HP 1 | Morale 2 | Bite 0\n\nAdventure Entries\n\n"
           "1 In the cellar 2 Rats gnaw at a sack. Fight (D0, S2).\n\n"
           "2 The rats turn on you. Follow the combat procedures. On success, go to 3.\n\n3 Quiet. THE END\n")
    game, events = engine(compiled(src), KeyPlayer(["choice:0"], kinds={MENU}))
    assert game.run().kind == "ended"
    assert [f["name"] for f in kinds(events, "fight")[0]["foes"]] == ["Rat 1", "Rat 2"]
    assert 2 in game.state.defeated


def test_special_abilities_are_shown_to_adjudicate() -> None:
    src = book("1 In (D0, S2).", "2 A frog! If you win, go to 3. Frog HP 1 | Morale 2 | Bite 0 | Special: spits "
               "venom.", "3 Done. THE END")
    game, events = engine(compiled(src), KeyPlayer(["choice:0"], kinds={MENU}))
    game.run()
    assert kinds(events, "special")[0]["text"] == "spits venom."


def test_escape_runs_back_to_the_previous_entry() -> None:
    src = book("1 In (D0, S2).", "2 An ogre! Ogre HP 40 | Morale 2 | Club d2. If you win, go to 3.",
               "3 Done. THE END")
    for seed in range(5):
        player = KeyPlayer(["choice:0", "escape", "run", "quit"], kinds={MENU, COMBAT, ESCAPE})
        game, events = engine(compiled(src), player, pc=hero(DEX=18), seed=seed)
        out = game.run()
        [escape] = kinds(events, "escape")
        assert escape["success"]  # 2d6 <= 18 always
        assert kinds(events, "flee")[0]["to"] == 1
        assert out.entry == 1 and out.kind == "stopped"


def test_death_in_combat_notes_the_entry() -> None:
    src = book("1 In (D0, S2).", "2 A giant! Giant HP 99 | Morale 2 | Fist 10d10+20. If you win, go to 3.",
               "3 Done. THE END")
    player = KeyPlayer(["choice:0"] + ["attack:0"] * 50, kinds={MENU, COMBAT})
    game, events = engine(compiled(src), player, pc=hero(STR=3), seed=1)
    out = game.run()
    assert out.kind == "died" and out.entry == 2
    assert kinds(events, "death")[0]["cause"] == "Giant's Fist"


def test_attack_odds_are_exact() -> None:
    src = book("1 In (D0, S2).", "2 A rat! Rat HP 1 | Morale 2 | Bite 0. If you win, go to 3.", "3 Done. THE END")
    player = KeyPlayer(["choice:0"], kinds={MENU})
    game, _ = engine(compiled(src), player, pc=hero(STR=16, DEX=5))
    game.run()
    combat = next(q for q in player.asked if q.kind == COMBAT)
    sword = next(o for o in combat.options if "Sword" in o.label)
    assert sword.chance == Fraction(17, 20)  # d20 - 1 <= 16
    assert "d20-1 ≤ STR 16: 85.0%" in sword.detail


def test_unknown_foes_are_adjudicated() -> None:
    src = book("1 In (D0, S2).", "2 Something lunges. Follow the combat procedures. If you win, go to 3.",
               "3 Done. THE END")
    player = KeyPlayer(["choice:0", "won"], kinds={MENU, WON})
    game, events = engine(compiled(src), player)
    assert game.run().kind == "ended"
    assert kinds(events, "manual")


def test_unrollable_creature_damage_is_shown_not_a_crash() -> None:
    graph = compiled(ARENA)
    graph["creatures"][0]["attacks"] = [{"name": "Gaze", "damage": "a lot"}]
    for seed in range(5):
        game, events = engine(graph, KeyPlayer(["choice:0"], kinds={MENU}), seed=seed)
        assert game.run().kind in ("ended", "stopped")
        if any(a["attacker"] == "Rat" and a["hit"] for a in kinds(events, "attack")):
            assert "cannot be rolled" in kinds(events, "manual")[0]["text"]
