"""Dungeon Rules loot at play time (seed, 6 "Loot And Discovery").

An encounter yields treasure when a creature beaten in it has an Encounter Level: an ``EL N``
field in its stat block (``Cave Troll HP 12 | Claws d8 | EL 4``). The encounter's EL is the highest
of them (5.1 "the strongest foe's encounter level"). Its worth (6.1) is rolled evenly between
30 × EL and 90 × EL copper pounds (dtc counts one copper pound as one coin of the base game),
multiplied by the lair's difficulty when the fight is in a lair zone (5.1: minor ×1.25, standard
×1.5, major ×2, deadly ×3, mythic ×4; the heart of a lair as a standard lair), and by 1.5 when a
foe's Special names it a boss. The d6 mix (6.2) splits it into coins and goods; the goods' kind
(the seed's d100 category table is not in the text) is left to the player. Both are offered to
take, as any find is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import dtc.systems.dungeon_rules.ruleset as dr
from dtc.runtime.core import TAKE, Option, Question
from dtc.runtime.equipment import TREASURE_WEIGHT, Item, weight_text

if TYPE_CHECKING:
    from dtc.runtime.foes import Foe
    from dtc.runtime.game import Game
    from dtc.systems.dungeon_rules.play import DungeonRules


def encounter_level(game: Game, foes: list[Foe]) -> tuple[int, bool]:
    """The highest EL of the beaten foes' stat blocks (0: none gives one), and whether one is a boss."""
    level, boss = 0, False
    for foe in foes:
        block = game.block(foe.creature)
        if block is None:
            continue
        stats = {k.upper(): v for k, v in block["stats"].items()}
        level = max(level, stats.get("EL", 0))
        boss = boss or "boss" in (block["special"] or "").lower()
    return level, boss


def loot(rules: DungeonRules, game: Game, foes: list[Foe]) -> None:
    el, boss = encounter_level(game, foes)
    if el <= 0:
        return
    zone = rules.zone(game).key
    roll = game.dice.between(dr.LOOT_MIN_PER_EL * el, dr.LOOT_MAX_PER_EL * el)
    value = dr.loot_value(el, roll, zone, boss)
    mix = game.dice.die(6)
    coins = value * dr.LOOT_COIN_PERCENT[mix] // 100
    goods = value - coins
    if not game.skip("roll"):  # the words are made only for a sink that reads them
        times = [f"x{float(m):g} in a {rules.zone(game).title.lower()}" for m in [dr.LOOT_MULTIPLIER.get(zone)] if m]
        times += [f"x{float(dr.BOSS_MULTIPLIER):g} for a boss"] if boss else []
        game.emit("roll", dice=f"{dr.LOOT_MIN_PER_EL * el}-{dr.LOOT_MAX_PER_EL * el}", rolls=[roll], total=roll,
                  why=f"loot of an EL {el} encounter" + (f" ({', '.join(times)})" if times else ""))
    if not game.skip("roll"):
        game.emit("roll", dice="1d6", rolls=[mix], total=mix,
                  why=f"loot worth {value:,}, its mix: {dr.LOOT_COIN_PERCENT[mix]}% coin, "
                      f"{100 - dr.LOOT_COIN_PERCENT[mix]}% goods")
    if coins:
        _offer(game, Item("coins", "treasure", coins, TREASURE_WEIGHT["coins"], value=1, category="coins"),
               f"{coins:,} coins")
    if goods:
        _offer(game, Item("goods", "treasure", 1, TREASURE_WEIGHT["unique"], value=goods, category="unique"),
               f"goods worth {goods:,} coins (tools, trade goods, potions, scrolls, runes or a magic item: "
               "your ruling)")


def _offer(game: Game, item: Item, text: str) -> None:
    n = game.pick(TAKE, 2)  # take, leave
    if n is not None:
        key = ("take", "leave")[n]
    else:
        detail = f"weight {weight_text(item.weight * item.quantity)}, worth {item.worth:,}"
        q = Question(TAKE, f"You find {text}. Take it?",
                     (Option("take", "Take it", detail), Option("leave", "Leave it")),
                     {"item": item.name, "weight": str(item.weight * item.quantity), "value": item.worth})
        key = game.ask(q).key
    if key == "take":
        game.pc.add(item)
        game.emit("item", action="found", name=item.name, quantity=item.quantity, why=text)
