"""Rules fidelity, Death & Treasure and Maze Rats: the rules their seeds state, played through the
engine with a scripted or seeded die.

Every test names the seed section it checks; where dtc decides (a ruling), the test says so and
the system's page under docs/rulesets/ lists it under "dtc's rulings".
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

import pytest

from dtc.runtime.character import Character
from dtc.runtime.dice import Dice
from dtc.runtime.engine import Engine
from dtc.runtime.foes import foes_from
from dtc.systems import play_rules
from test_runtime_support import KeyPlayer, compiled, hero


class Script:
    """A die that comes up with the faces given, in order (each checked against the die rolled)."""

    def __init__(self, faces: Iterable[int]) -> None:
        self.faces = list(faces)

    def randint(self, low: int, high: int) -> int:
        assert self.faces, "the script ran out of faces"
        face = self.faces.pop(0)
        assert low <= face <= high, f"scripted {face} for a roll of {low}..{high}"
        return face

    def randrange(self, n: int) -> int:
        return 0

    def random(self) -> float:
        return 0.0


def scripted(*faces: int) -> Dice:
    dice = Dice(0)
    dice._rng = Script(faces)  # type: ignore[assignment]
    return dice


@functools.cache
def _compiled(src: str) -> dict[str, Any]:
    return compiled(src)


def graph_of(src: str) -> dict[str, Any]:
    return copy.deepcopy(_compiled(src))


# --- Death & Treasure ---------------------------------------------------------------------------

DT = ("Title: T\nRules: death-and-treasure\n\nTest Book\n\n"
      "Giant Frog HP 6 | Morale 10 | Bite d8 | Special: Swallows whoever its bite lands on unless a DEX check "
      "saves them; inside, 1d4 damage each round; 4 or more damage cuts you free and kills it.\n\n"
      "Ogre HP 20 | Morale 2 | Club d4\n\nAdventure Entries\n\n1 A hall (D0, S2).\n\n2 Out. THE END\n")


def dt_game(player: Any, dice: Dice, pc: Character | None = None) -> tuple[Engine, list[dict[str, Any]]]:
    events: list[dict[str, Any]] = []
    game = Engine(graph_of(DT), pc or hero(), player, dice=Dice(1), sinks=[events.append],
                  rules=play_rules("death-and-treasure"))
    game.rules.begin(game)  # lights the lantern with the seeded die's world
    game.dice = dice
    return game, events


def test_dt_giant_frog_swallows_and_a_blow_of_four_cuts_you_out() -> None:
    """death-and-treasure-v0.1.txt, *Sample Dungeon* (Giant Frog: on a failed defense roll, a DEX
    check or be swallowed; 1d4 damage each round inside; 4 or more damage cuts you out and kills
    it). Rulings: inside, only a hand-to-hand blow at the frog; the frog bites no more."""
    player = KeyPlayer(["attack:1", "attack:1"], kinds={"combat"})
    #        init 1 vs 6 | bite d20 15, d8 3 | DEX 2d6 6+6 fails | inside: d4 2 | d20 5 hits, d8 5
    dice = scripted(1, 6, 15, 3, 6, 6, 2, 5, 5)
    game, events = dt_game(player, dice)
    frog = foes_from(game.block("Giant Frog"), "Giant Frog", 1)
    assert game.rules.fight(game, frog) == "won"
    assert not dice._rng.faces  # type: ignore[attr-defined]
    texts = [e["text"] for e in events if e["event"] == "effect"]
    assert "Giant Frog swallows you whole." in texts
    assert any(t.startswith("You cut your way out of Giant Frog (5 damage)") for t in texts)
    assert [e["cause"] for e in events if e["event"] == "damage"] == ["Giant Frog's Bite", "inside the Giant Frog"]
    assert game.pc.hp == 8 - 3 - 2 and frog[0].hp == 0
    inside = player.asked[1]
    assert inside.prompt.startswith("Inside the Giant Frog")
    assert [o.key for o in inside.options] == ["attack:0", "attack:1"]  # hand to hand: no oil, no escape
    assert not any(e["event"] == "morale" for e in events)  # ruling: no morale roll while it holds you
    assert not any(e["event"] == "special" for e in events)  # played, not left to the player


def test_dt_a_blow_under_four_leaves_you_inside() -> None:
    """death-and-treasure-v0.1.txt, *Sample Dungeon*: only 4 or more damage cuts you out; less
    wounds the frog, and its 1d4 goes on each round."""
    player = KeyPlayer(["attack:1"] * 3, kinds={"combat"})
    #        init 1 vs 6 | bite 15, 3 | DEX fails | d4 1 | hit for 1 | d4 1 | hit for 4: out
    dice = scripted(1, 6, 15, 3, 6, 6, 1, 5, 1, 1, 5, 4)
    game, events = dt_game(player, dice, hero(STR=10))
    game.pc.hp = game.pc.max_hp = 20
    frog = foes_from(game.block("Giant Frog"), "Giant Frog", 1)
    assert game.rules.fight(game, frog) == "won"
    assert sum(e["cause"] == "inside the Giant Frog" for e in events if e["event"] == "damage") == 2
    assert frog[0].hp == 0 and game.pc.hp == 20 - 3 - 1 - 1  # 6 - 1 - 4 would leave it 1: cut out, dead
    assert any(e["event"] == "effect" and "(4 damage)" in e["text"] for e in events)


def test_dt_passing_the_dex_check_is_not_being_swallowed() -> None:
    """death-and-treasure-v0.1.txt, *Sample Dungeon*: the DEX check avoids the swallow."""
    player = KeyPlayer(["attack:0", "escape", "run"], kinds={"combat", "escape"})
    #        init 1 vs 6 | bite 15, 3 | DEX 2d6 2+2 passes | your d20 20 misses | round 2: flee, DEX 1+1
    dice = scripted(1, 6, 15, 3, 2, 2, 20, 1, 1)
    game, events = dt_game(player, dice)
    assert game.rules.fight(game, foes_from(game.block("Giant Frog"), "Giant Frog", 1)) == "fled"
    assert not any(e["event"] == "effect" and "swallows" in e["text"] for e in events)


def test_dt_burning_oil_sets_the_target_on_fire() -> None:
    """death-and-treasure-v0.1.txt, *Gear* (Lantern Oil: a thrown weapon, d6 damage and sets the
    target on fire). Ruling: the fire burns one more round, d6 at its start, counted for morale."""
    player = KeyPlayer(["oil", "escape", "run"], kinds={"combat", "escape"})
    #        init 6 vs 1 | d20 3 hits, d6 4 | morale 3+3 | club d20 5 avoided | fire d6 5 | flee 1+1
    dice = scripted(6, 1, 3, 4, 3, 3, 5, 5, 1, 1)
    game, events = dt_game(player, dice)
    flasks = game.pc.oil
    ogre = foes_from(game.block("Ogre"), "Ogre", 1)
    assert game.rules.fight(game, ogre) == "fled"
    assert ogre[0].hp == 20 - 4 - 5 and game.pc.oil == flasks - 1
    texts = [e["text"] for e in events if e["event"] == "effect"]
    assert texts == ["The oil sets Ogre on fire.", "Ogre burns for 5 damage."]


def test_dt_a_missed_flask_sets_nothing_alight() -> None:
    """death-and-treasure-v0.1.txt, *Gear* and *Combat*: the flask must hit (d20 under DEX)."""
    player = KeyPlayer(["oil", "escape", "run"], kinds={"combat", "escape"})
    dice = scripted(6, 1, 20, 5, 1, 1)  # init | d20 20 misses | club avoided | flee
    game, events = dt_game(player, dice)
    ogre = foes_from(game.block("Ogre"), "Ogre", 1)
    assert game.rules.fight(game, ogre) == "fled"
    assert ogre[0].hp == 20 and not any(e["event"] == "effect" for e in events)


LOOT = ("Title: T\nRules: death-and-treasure\n\nLoot\n\nAdventure Entries\n\n"
        "1 A vault. You find 8000 coins. Out (D0, S2).\n\n2 Out. THE END\n")


def loot_game(player: Any, pc: Character) -> tuple[Engine, list[dict[str, Any]]]:
    events: list[dict[str, Any]] = []
    game = Engine(graph_of(LOOT), pc, player, dice=Dice(1), sinks=[events.append],
                  rules=play_rules("death-and-treasure"))
    game.rules.begin(game)
    return game, events


def sacked(*sacks: str) -> Character:
    from dtc.runtime.equipment import Item

    pc = hero()
    pc.use("Sack (large)")
    pc.items = [i for i in pc.items if i.quantity]
    for name in sacks:
        pc.add(Item(name, "gear"))
    return pc


@pytest.mark.parametrize(("sacks", "coins"), [((), 0), (("Sack (small)",), 5000), (("Sack (large)",), 8000),
                                              (("Sack (small)", "Sack (small)"), 8000)])
def test_dt_treasure_is_carried_in_sacks(sacks: tuple[str, ...], coins: int) -> None:
    """death-and-treasure-v0.1.txt, *Gear* (a small sack holds up to weight 5 of treasure, a large
    one 10) and *Treasure* (1,000 coins weigh 1). Ruling: treasure goes in sacks (or an emptied
    backpack), so without room the find can only be left, and a divisible find is taken in part."""
    from dtc.runtime.effects import apply

    player = KeyPlayer(["take" if coins else "leave"], kinds={"take"})
    pc = sacked(*sacks)
    game, _ = loot_game(player, pc)
    apply(game, game.entry)
    assert pc.count("coins") == coins
    offered = [o.key for o in player.asked[0].options]
    assert offered[0] == ("take" if coins else "leave") and ("take" in offered) == bool(coins)


def test_dt_dumping_the_backpack_kit_makes_room_for_six() -> None:
    """death-and-treasure-v0.1.txt, *Gear*: the backpack holds the standard gear or, once it is
    dumped, items up to weight 6. Ruling: the lit lantern and the knife are kept."""
    from dtc.runtime.effects import apply

    player = KeyPlayer(["dump", "take"], kinds={"take"})
    pc = sacked()
    game, events = loot_game(player, pc)
    apply(game, game.entry)
    assert pc.count("coins") == 6000
    assert {i.name for i in pc.items if i.standard} == {"Backpack", "Lantern", "Knife"}
    assert not pc.can_rest and pc.oil == 0 and not pc.can_dump_kit()
    assert any(e["event"] == "item" and e["name"] == "standard kit" for e in events)
    assert "backpack kit dumped" in pc.inventory_lines()[-1]


def test_dt_random_adventurers_carry_a_large_sack() -> None:
    """death-and-treasure-v0.1.txt, *Gear*: a sack weighs 0, so the random kit always has one."""
    from dtc.systems.death_and_treasure.creation import random_character

    for seed in range(20):
        pc = random_character(Dice(seed))
        assert pc.count("Sack (large)") == 1 and pc.treasure_room is not None and pc.treasure_room >= 10


def test_dt_capacity_is_not_applied_to_other_systems() -> None:
    """Sacks and the backpack are Death & Treasure's; other systems' finds are not limited."""
    from dtc.runtime.equipment import Item

    pc = Character("R", {"STR": 1, "DEX": 1, "WIL": 1}, 4, 4, [], ruleset="maze-rats")
    coins = Item("coins", "treasure", 9000, weight=Fraction(1, 1000), value=1, category="coins")
    assert pc.treasure_room is None and pc.fitting(coins) == 9000
