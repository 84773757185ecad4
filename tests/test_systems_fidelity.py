"""Rules fidelity: each rule a seed states, played through the engine with a seeded die.

Every test names the seed's section it checks. Rulings (where a seed is silent) are named as
such; the systems' pages under docs/rulesets/ list them under "dtc's rulings".
"""

from __future__ import annotations

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
from test_runtime_support import KeyPlayer, compiled

# --- Zilch --------------------------------------------------------------------------------------

ZILCH_BOOK = ("Rules: zilch\n\nCard Book\n\nEncounters\n\n  1. 1 Cave Goblin\n\n"
              "Cave Goblin HP 4 | Clubs 9 | Spades 7 | Damage 2\n\n"
              "Adventure Entries\n\n1 A door (D0, S2).\n\n2 2 Cave Goblins squat here. THE END\n")
QUIET_BOOK = ZILCH_BOOK.replace("Encounters\n\n  1. 1 Cave Goblin\n\n", "")


def zilch_pc(hearts: int = 8, hp: int | None = None) -> Character:
    return Character("Z", {"♣": 7, "♠": 5, "♦": 6, "♥": hearts}, hearts, hearts if hp is None else hp,
                     [Item("Longsword", "weapon", ranges=(HAND,))], notes=["class: Fighter"], ruleset="zilch",
                     stats={"chips": 0, "rally": 0})


def zilch_game(src: str, pc: Character, seed: int, player: Any = None) -> tuple[Engine, list[dict[str, Any]]]:
    events: list[dict[str, Any]] = []
    game = Engine(compiled(src), pc, player or CautiousPolicy(), dice=Dice(seed), sinks=[events.append],
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
