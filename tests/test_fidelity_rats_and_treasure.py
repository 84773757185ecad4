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
from dtc.runtime.policies import CautiousPolicy
from dtc.systems import play_rules
from helpers.runtime import KeyPlayer, compiled, hero


class Script:
    """A die that comes up with the faces given, in order (each checked against the die rolled)."""

    def __init__(self, faces: Iterable[int], then: int | None = None) -> None:
        self.faces = list(faces)
        self.then = then  # the face of every roll after the script, None: running out is an error

    def randint(self, low: int, high: int) -> int:
        if not self.faces and self.then is not None:
            return max(low, min(high, self.then))
        assert self.faces, "the script ran out of faces"
        face = self.faces.pop(0)
        assert low <= face <= high, f"scripted {face} for a roll of {low}..{high}"
        return face

    def randrange(self, n: int) -> int:
        return 0

    def random(self) -> float:
        return 0.0


def scripted(*faces: int, then: int | None = None) -> Dice:
    dice = Dice(0)
    dice._rng = Script(faces, then)  # type: ignore[assignment]
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


# --- Maze Rats ----------------------------------------------------------------------------------

RATS = ("Title: R\nRules: maze-rats\n\nRat Book\n\n"
        "Ratling Chief HP 1 | Armor 6 | AB 0 | WIL 0 | Special: Leader of the pack.\n\n"
        "Ratling HP 5 | Armor 6 | AB 0 | DEX 0 | WIL 0\n\n"
        "Brute HP 30 | Armor 6 | AB 4 | DEX 1 | WIL 6\n\n"
        "Adventure Entries\n\n1 A door (D0, S2).\n\n2 The end. THE END\n")


def rat(*weapons: str, belt: tuple[str, ...] | None = None, ab: int = 0) -> Character:
    from dtc.runtime.equipment import HAND, Item

    notes = None if belt is None else ([f"belt: {n}" for n in belt] or ["belt:"])
    return Character("R", {"STR": 1, "DEX": 1, "WIL": 1}, 40, 40,
                     [Item(w, "weapon", ranges=(HAND,)) for w in weapons], ruleset="maze-rats",
                     stats={"AB": ab}, notes=notes or [])


def rats_game(player: Any, pc: Character, dice: Dice) -> tuple[Engine, list[dict[str, Any]]]:
    events: list[dict[str, Any]] = []
    game = Engine(graph_of(RATS), pc, player, dice=dice, sinks=[events.append], rules=play_rules("maze-rats"))
    game.rules.begin(game)
    return game, events


def pack(game: Engine, *groups: tuple[str, int]) -> list[Any]:
    return [f for name, n in groups for f in foes_from(game.block(name), name, n)]


@pytest.mark.parametrize("how", ["special", "led by"])
def test_maze_rats_losing_the_leader_calls_for_morale(how: str) -> None:
    """maze-rats-core-rules.txt, *NPC Morale*: a morale check when an NPC group loses its leader.
    Ruling: the leader is named after "led by" in the row or entry, or its Special begins "Leader"."""
    from dtc.systems.maze_rats.combat import fight

    player = KeyPlayer(["attack:0", "foe:0"], kinds={"combat", "target"})
    #        init 6 vs 1 | 2d6 6+6: a critical kills the chief | morale 2d6 1+1 + WIL 0 < 10: rout
    game, events = rats_game(player, rat("Sword"), scripted(6, 1, 6, 6, 1, 1))
    foes = pack(game, ("Ratling Chief", 1), ("Ratling", 3))
    if how == "led by":
        foes[0].special = None
    text = "3 Ratlings led by 1 Ratling Chief" if how == "led by" else ""
    assert fight(game.rules, game, foes, text=text) == "won"  # type: ignore[arg-type]
    morale = [e for e in events if e["event"] == "morale"]
    assert [(m["why"], m["flees"]) for m in morale] == [("lost their leader", True)]
    assert all(f.fled for f in foes[1:])


def test_maze_rats_no_leader_no_leader_check() -> None:
    """maze-rats-core-rules.txt, *NPC Morale*: a group of one kind has no leader to lose."""
    from dtc.systems.maze_rats.combat import leaders

    game, _ = rats_game(KeyPlayer(), rat("Sword"), Dice(1))
    ratlings = pack(game, ("Ratling", 3))
    assert leaders(game, ratlings) == [] and leaders(game, ratlings, "3 Ratlings led by a Ratling") == []
    mixed = pack(game, ("Ratling", 2), ("Brute", 1))
    assert leaders(game, mixed, "2 Ratlings led by 1 Brute") == [mixed[2]]


def test_maze_rats_a_magic_attack_calls_for_morale_once() -> None:
    """maze-rats-core-rules.txt, *NPC Morale*: a morale check when attacked by magic. Ruling: an
    attack with a weapon whose name says it is magic ("Wand of Sparks", "Runed Axe"), once a fight."""
    from dtc.systems.maze_rats.combat import fight, is_magic

    player = KeyPlayer(["attack:0", "foe:0"], kinds={"combat", "target"})
    #        init 6 vs 1 | 2d6 4+4 = 8 vs 6: 2 damage | morale 1+1 < 10: the pair routs
    game, events = rats_game(player, rat("Wand of Sparks"), scripted(6, 1, 4, 4, 1, 1))
    foes = pack(game, ("Ratling", 2))
    assert fight(game.rules, game, foes) == "won"  # type: ignore[arg-type]
    assert [m["why"] for m in events if m["event"] == "morale"] == ["attacked by magic"]
    assert foes[0].hp == 3 and all(f.fled for f in foes)
    assert is_magic(rat("Runed Axe").items[0]) and not is_magic(rat("Sword").items[0])


def test_maze_rats_a_weapon_in_the_backpack_takes_rounds_to_find() -> None:
    """maze-rats-core-rules.txt, *Encumbrance*: belt items can be grabbed at any time; backpack
    items take 1d rounds to find."""
    from dtc.systems.maze_rats.combat import fight

    player = KeyPlayer(["attack:2", "attack:2", "escape"], kinds={"combat"})
    faces = (6, 1, 2, 1, 1,  # round 1: initiative | d6: 2 rounds to find the axe | the brute misses
             6, 1, 1, 1,  # round 2: still digging (found at its end) | a miss
             6, 1, 6, 5, 1, 1,  # round 3: the axe hits 11 vs 6 for 5 | a miss
             6, 1, 6, 6, 1, 1)  # round 4: flee, 12 + 1 against 2 + 1
    game, events = rats_game(player, rat("Sword", "Dagger", "Axe", belt=("Sword", "Dagger")), scripted(*faces))
    brute = pack(game, ("Brute", 1))
    assert fight(game.rules, game, brute) == "fled"  # type: ignore[arg-type]
    assert [e["weapon"] for e in events if e["event"] == "attack" and e["attacker"] == "you"] == ["Axe"]
    texts = [e["text"] for e in events if e["event"] == "effect"]
    assert texts == ["You dig in your backpack for the Axe (2 rounds).", "You find the Axe in your backpack."]
    assert brute[0].hp == 25
    assert "in your backpack" in player.asked[0].options[2].label
    assert "in your backpack" not in player.asked[0].options[0].label


def test_maze_rats_the_belt_carries_two() -> None:
    """maze-rats-core-rules.txt, *Encumbrance*: belts carry up to two items. A sheet recording no
    belt carries its first two weapons there; ``belt NAME`` / ``pack NAME`` move things."""
    from dtc.systems.maze_rats.play import belt, location, make_character

    pc = rat("Sword", "Dagger", "Axe")
    assert belt(pc) == ["Sword", "Dagger"] and location(pc, pc.items[2]) == "backpack"
    game, _ = rats_game(KeyPlayer(), pc, Dice(1))
    assert game.rules.adjust(game, ["belt", "Axe"]) == "your belt carries 2 items already (Sword, Dagger)"
    assert game.rules.adjust(game, ["pack", "Dagger"]) == "Dagger now on your backpack"
    assert game.rules.adjust(game, ["belt", "Axe"]) == "Axe now on your belt"
    assert belt(pc) == ["Sword", "Axe"] and "belt: Sword, Axe" in game.rules.status(game)
    game.rules.adjust(game, ["pack", "Sword"])
    game.rules.adjust(game, ["pack", "Axe"])
    assert belt(pc) == [] and pc.notes == ["belt:"]
    fresh = make_character(Dice(3))
    assert belt(fresh) == ["Sword", fresh.items[1].name]


XP_BOOK = ("Title: X\nRules: maze-rats\n\nXP\n\nAdventure Entries\n\n"
           "1 A wall. Climb it (STR D2, S2, F2), climb the sheer face (STR D3, S2, F2) or walk round (D0, S2)."
           "\n\n2 The end. THE END\n")


@pytest.mark.parametrize(("choice", "faces", "xp"), [
    ("choice:2", (), 1),  # showed up (walked round)
    ("choice:0", (5, 4), 2),  # a D2 danger roll passed: 9 + 1 (at 27.8%)
    ("choice:1", (3, 6, 6), 3),  # a D3 danger roll passed at 10.6%: beyond expected ability
    ("choice:0", (1, 1), 1),  # failed: nothing overcome
])
def test_maze_rats_experience_at_the_end_of_a_session(choice: str, faces: tuple[int, ...], xp: int) -> None:
    """maze-rats-core-rules.txt, *Leveling Up*: at the end of each session 1 XP for showing up, 2
    for a difficult challenge, 3 for an impressive one beyond expected ability. Rulings: a run is
    a session; difficult is a fight won or a D2/D3 danger roll passed, impressive one passed at
    under 1 in 4 or a fight won against twice your health."""
    from dtc.runtime.core import MENU

    events: list[dict[str, Any]] = []
    game = Engine(graph_of(XP_BOOK), rat("Sword"), KeyPlayer([choice], kinds={MENU}),
                  dice=scripted(*faces, then=6), sinks=[events.append], rules=play_rules("maze-rats"))
    assert game.run().kind == "ended"
    awarded = [e for e in events if e["event"] == "experience"]
    assert [e["xp"] for e in awarded] == [xp] and awarded[0]["total"] == xp and awarded[0]["level"] == 1
    assert game.pc.stats["XP"] == xp


def test_maze_rats_a_fight_won_is_a_difficult_or_impressive_challenge() -> None:
    """maze-rats-core-rules.txt, *Leveling Up*. Ruling: a fight won is difficult (2 XP); against
    creatures with twice the adventurer's health, impressive (3 XP)."""
    player = KeyPlayer(["attack:0", "foe:0"], kinds={"combat", "target"})
    game, _ = rats_game(player, rat("Sword"), scripted(6, 1, 6, 6, 1, 1))
    game.rules.fight(game, pack(game, ("Ratling Chief", 1), ("Ratling", 3)))
    assert game.state.rules["xp_earned"] == 2
    game.pc.max_hp = 8
    game.state.rules["xp_earned"] = 1
    player.keys = ["attack:0", "foe:0"]
    game.dice = scripted(6, 1, 6, 6, 1, 1)
    game.rules.fight(game, pack(game, ("Ratling Chief", 1), ("Ratling", 3)))
    assert game.state.rules["xp_earned"] == 3 and "16 health" in game.state.rules["xp_for"]


def test_maze_rats_a_slain_adventurer_earns_nothing() -> None:
    """maze-rats-core-rules.txt, *Combat* (slain: a new first-level PC) and *Leveling Up*."""
    game, events = rats_game(KeyPlayer(), rat("Sword"), Dice(1))
    game.rules.session_end(game, "died")
    assert not any(e["event"] == "experience" for e in events) and "XP" not in game.pc.stats


def test_maze_rats_leader_rout_frequency() -> None:
    """maze-rats-core-rules.txt, *NPC Morale* and *Danger Rolls*: the lost-leader check is a WIL
    danger roll, so a WIL +0 group routs when 2d6 < 10: 30 times in 36 (fixed seeds)."""
    from dtc.systems.maze_rats.combat import fight

    runs, routs = 300, 0
    for seed in range(runs):
        player = KeyPlayer(["attack:0", "foe:0"], kinds={"combat", "target"})
        game, events = rats_game(player, rat("Sword", ab=10), Dice(seed))
        fight(game.rules, game, pack(game, ("Ratling Chief", 1), ("Ratling", 3)))  # type: ignore[arg-type]
        check = next(e for e in events if e["event"] == "morale")
        assert check["why"] == "lost their leader"
        routs += check["flees"]
    assert 0.76 < routs / runs < 0.90


def test_dt_swallow_frequency_follows_the_dex_check() -> None:
    """death-and-treasure-v0.1.txt, *Sample Dungeon* and *Taking Action*: a bite that lands
    swallows unless 2d6 ≤ DEX; at DEX 7 that check passes 21 times in 36 (fixed seeds)."""
    from dtc.systems.death_and_treasure.combat import Melee, _creatures_act

    bites = swallowed = 0
    for seed in range(600):
        game, events = dt_game(CautiousPolicy(), Dice(seed), hero(DEX=7))
        game.pc.hp = game.pc.max_hp = 50
        melee = Melee()
        _creatures_act(game.rules, game, foes_from(game.block("Giant Frog"), "Giant Frog", 1), melee)  # type: ignore[arg-type]
        if any(e["event"] == "attack" and e["hit"] for e in events):
            bites += 1
            swallowed += melee.inside is not None
    assert bites > 300 and 0.35 < swallowed / bites < 0.49  # 15/36 = 0.417


def test_maze_rats_backpack_search_takes_one_to_six_rounds() -> None:
    """maze-rats-core-rules.txt, *Encumbrance*: backpack items take 1d rounds to find; the rounds
    spread evenly over 1-6 (fixed seeds)."""
    from collections import Counter

    from dtc.systems.maze_rats.combat import fight

    seen: Counter[int] = Counter()
    for seed in range(300):
        player = KeyPlayer(["attack:1"], kinds={"combat"})
        game, events = rats_game(player, rat("Sword", "Axe", belt=("Sword",)), Dice(seed))
        game.pc.hp = game.pc.max_hp = 200
        fight(game.rules, game, pack(game, ("Ratling", 1)))  # type: ignore[arg-type]
        dig = next(e["text"] for e in events if e["event"] == "effect")
        seen[int(dig.split("(")[1].split()[0])] += 1
    assert set(seen) == {1, 2, 3, 4, 5, 6} and all(30 < n < 70 for n in seen.values())
