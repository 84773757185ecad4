"""Maze Rats combat: initiative by side, attack rolls against armour, shields, morale, fleeing.

Seed: "Initiative", "Combat", "NPC Morale". Each round both sides roll a d6 (ties rerolled) and
the higher side acts first; an ambushing side simply goes first and has advantage on its attacks
in the first round (not in heavy armour, which gains no advantage on surprise attack rolls). An
attack is 2d6 + attack bonus; it hits when the total exceeds the
defender's armour and deals the difference (+1 with a heavy weapon, −1 unarmed but never 0),
doubled on double sixes. Hit, the adventurer may shatter a shield to take no damage — unless
holding a two-handed (heavy or ranged) weapon, since a shield takes a hand ("Combat"). A group that
has lost half its number, or a lone creature at half health, makes a WIL danger roll and routs on
a failure. Fleeing is an opposed DEX danger roll that the creatures win on a tie; a failed
attempt costs the adventurer's turn. A ranged weapon can only be used before the melee closes:
in the first round, when the adventurer's side acts first.

A creature's stats come from its stat block (``Armor``, ``AB``, ``STR``, ``DEX``, ``WIL``, any
case); missing ones are an unarmoured, trained, average creature (armour 6, AB +1, bonuses +1).
A fight takes one turn, however many rounds it lasts.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

import dtc.systems.maze_rats.ruleset as mr
from dtc.runtime.core import COMBAT, TARGET, Option, Question
from dtc.runtime.dice import percent
from dtc.runtime.equipment import Item
from dtc.runtime.foes import MAX_ROUNDS, Foe
from dtc.runtime.ruleset import FLED, WON

if TYPE_CHECKING:
    from dtc.runtime.game import Game
    from dtc.systems.maze_rats.play import MazeRats

DEFAULTS = {"armor": mr.BASE_ARMOR, "ab": 1, "str": 1, "dex": 1, "wil": 1}
UNARMED = Item("Bare hands", "weapon")
SHIELD = "shield"  # question kind: shatter the shield?


def stat(game: Game, foe: Foe, key: str) -> int:
    block = game.block(foe.creature)
    stats = {k.lower(): v for k, v in (block["stats"] if block else {}).items()}
    aliases = {"armor": ("armor", "armour"), "ab": ("ab", "attack bonus", "attack")}.get(key, (key,))
    return next((int(stats[a]) for a in aliases if a in stats), DEFAULTS[key])


def expected_damage(ab: int, armor: int, mode: str, *, heavy: bool = False, unarmed: bool = False) -> Fraction:
    dist = mr.attack_distribution(ab, armor, mode, heavy=heavy, unarmed=unarmed)
    return sum((d * p for d, p in dist.items()), Fraction(0))


def escape_chance(game: Game, foes: list[Foe]) -> Fraction:
    fastest = max((stat(game, f, "dex") for f in foes if f.active), default=0)
    return mr.p_opposed(game.pc.score("DEX"), fastest)


def escape(rules: MazeRats, game: Game, foes: list[Foe]) -> bool:
    fastest = max((stat(game, f, "dex") for f in foes if f.active), default=0)
    _, mine, _ = rules.roll(game, "DEX", mr.PLAIN)
    theirs = game.dice.roll("2d6").total + fastest
    ok = mine > theirs
    game.emit("escape", success=ok, total=mine, against=theirs)
    return ok


def fight(rules: MazeRats, game: Game, foes: list[Foe], *, surprised: bool = False, ambush: bool = False) -> str:
    game.emit("fight", foes=[f.brief() for f in foes], surprised=surprised)
    for text in dict.fromkeys((f.creature, f.special) for f in foes if f.special):
        game.emit("special", creature=text[0], text=text[1])
    game.clock("combat")
    size = len(foes)
    group_checked = False
    held: Item | None = None
    rnd = 0
    while any(f.active for f in foes):
        rnd += 1
        if rnd > MAX_ROUNDS:
            game.emit("fight_end", result="stalemate")
            return FLED
        if rnd == 1 and (surprised or ambush):
            pc_first = ambush
            game.emit("round", round=rnd, ambush="you" if ambush else "them")
        else:
            mine, theirs = game.dice.die(6), game.dice.die(6)
            while mine == theirs:
                mine, theirs = game.dice.die(6), game.dice.die(6)
            pc_first = mine > theirs
            game.emit("round", round=rnd, initiative=mine, rolls=[[mine]], enemy_initiative=theirs)
        their_mode = mr.ADVANTAGE if rnd == 1 and surprised else mr.PLAIN
        weapon, target = _choose(game, foes, ranged_ok=rnd == 1 and pc_first)
        if weapon is not None:
            held = weapon
        if not pc_first:
            _creatures_act(rules, game, foes, their_mode, held)
        if weapon is None:
            if escape(rules, game, foes):
                game.emit("fight_end", result="fled")
                return FLED
        else:
            _attack(rules, game, weapon, target, foes, _ambush_mode(game, rnd == 1 and ambush))
        group_checked = _morale(game, foes, size, group_checked)
        if pc_first and any(f.active for f in foes):
            _creatures_act(rules, game, foes, their_mode, held)
    game.emit("fight_end", result="won")
    return WON


def _ambush_mode(game: Game, ambushing: bool) -> str:
    """Advantage on the ambush round's attack, but never in heavy armour (seed, "Combat")."""
    from dtc.systems.maze_rats.play import heavy_armour

    if not ambushing:
        return mr.PLAIN
    if heavy_armour(game.pc):
        game.emit("manual", text="Heavy armour: no advantage on your ambush attack.")
        return mr.PLAIN
    return mr.ADVANTAGE


def _choose(game: Game, foes: list[Foe], *, ranged_ok: bool) -> tuple[Item | None, Foe | None]:
    from dtc.systems.maze_rats.play import armor as pc_armor
    from dtc.systems.maze_rats.play import weapon_class

    pc = game.pc
    active = [f for f in foes if f.active]
    weapons = [i for i in pc.items if i.kind == "weapon" and i.quantity > 0
               and (ranged_ok or weapon_class(i) != "ranged")] or [UNARMED]
    ab = pc.stats.get("AB", 0)
    opts = []
    their_armor = min(stat(game, f, "armor") for f in active)
    for n, w in enumerate(weapons):
        cls = "unarmed" if w is UNARMED else weapon_class(w)
        dist = mr.attack_distribution(ab, their_armor, heavy=cls == "heavy", unarmed=cls == "unarmed")
        p = 1 - dist.get(0, Fraction(0))
        mean = expected_damage(ab, their_armor, mr.PLAIN, heavy=cls == "heavy", unarmed=cls == "unarmed")
        per_hit = round(mean / p) if p else 0
        detail = (f"2d6{ab:+d} vs armour {their_armor}: hits {percent(p)}, your armour {pc_armor(pc, w)}, "
                  f"{per_hit} damage a hit")
        opts.append(Option(f"attack:{n}", f"Attack with {w.name} ({cls})", detail, chance=p))
    opts.append(Option("escape", "Try to flee", f"opposed DEX {percent(escape_chance(game, foes))}",
                       tags=frozenset({"escape"})))
    q = Question(COMBAT, "Your move", tuple(opts), {"foes": [f.brief() for f in active], "hp": pc.hp})
    key = game.ask(q).key
    if key == "escape":
        return None, None
    weapon = weapons[int(key.split(":")[1])]
    target = active[0]
    if len(active) > 1:
        tq = Question(TARGET, "Attack which?", tuple(
            Option(f"foe:{n}", f.name, f"{f.hp}/{f.max_hp} HP") for n, f in enumerate(active)))
        target = active[int(game.ask(tq).key.split(":")[1])]
    return weapon, target


def _attack(rules: MazeRats, game: Game, weapon: Item, target: Foe | None, foes: list[Foe], mode: str) -> None:
    from dtc.systems.maze_rats.play import weapon_class

    if target is None or not target.active:
        target = next((f for f in foes if f.active), None)
        if target is None:
            return
    cls = "unarmed" if weapon is UNARMED else weapon_class(weapon)
    their_armor = stat(game, target, "armor")
    roll, total, crit = rules.roll(game, "AB", mode, bonus=game.pc.stats.get("AB", 0))
    damage = mr.attack_damage(total, their_armor, double_six=crit, heavy=cls == "heavy", unarmed=cls == "unarmed")
    game.emit("attack", attacker="you", target=target.name, weapon=weapon.name, rolls=[list(roll.dice)],
              total=total, needed=their_armor, hit=damage > 0, damage=damage, critical=crit)
    if damage <= 0:
        return
    target.hp -= damage
    if target.hp <= 0:
        game.emit("defeated", name=target.name)


def _rout(game: Game, foes: list[Foe], who: list[Foe], why: str) -> None:
    wil = max(stat(game, f, "wil") for f in who)
    roll = game.dice.roll("2d6")
    holds = roll.total + wil >= mr.TARGET
    game.emit("morale", name=", ".join(f.name for f in who), rolls=list(roll.dice), total=roll.total + wil,
              morale=mr.TARGET, flees=not holds, why=why)
    if not holds:
        for f in who:
            f.fled = True


def _morale(game: Game, foes: list[Foe], size: int, group_checked: bool) -> bool:
    """Morale after the adventurer's blow; returns whether the group's check has been made."""
    standing = [f for f in foes if f.active]
    if not standing:
        return group_checked
    if size > 1 and not group_checked and len(standing) * 2 <= size:
        _rout(game, foes, standing, "lost half their number")
        return True
    if len(standing) == 1:
        lone = standing[0]
        if lone.hp * 2 <= lone.max_hp and not lone.halved:
            lone.halved = True
            _rout(game, foes, [lone], "lost half its health")
    return group_checked


def _creatures_act(rules: MazeRats, game: Game, foes: list[Foe], mode: str, held: Item | None) -> None:
    from dtc.systems.maze_rats.play import armor as pc_armor
    from dtc.systems.maze_rats.play import weapon_class

    pc = game.pc
    for foe in [f for f in foes if f.active]:
        name = foe.attacks[0][0] if foe.attacks else "attack"
        mine = pc_armor(pc, held)
        ab = stat(game, foe, "ab")
        roll = game.dice.roll("2d6" if mode == mr.PLAIN else "3d6")
        a, b = mr.keep(roll.dice, mode)
        total = a + b + ab
        damage = mr.attack_damage(total, mine, double_six=a == b == 6)
        game.emit("attack", attacker=foe.name, target="you", weapon=name, rolls=[list(roll.dice)],
                  total=total, needed=mine, hit=damage > 0, damage=damage, critical=a == b == 6)
        shield_in_hand = pc.find("Shield") is not None and (held is None or weapon_class(held) == "light")
        if damage and shield_in_hand and _shatter(rules, game, foe, damage):
            pc.use("Shield")
            game.emit("item", action="shattered", name="Shield", quantity=1, why=f"to stop {foe.name}'s {name}")
            continue
        if damage:
            game.damage(damage, f"{foe.name}'s {name}")


def _shatter(rules: MazeRats, game: Game, foe: Foe, damage: int) -> bool:
    yes = Option("shatter", f"Shatter your shield and take no damage (instead of {damage})")
    no = Option("keep", f"Keep your shield and take {damage} damage")
    opts = (yes, no) if rules.prefers_shatter(game, damage) else (no, yes)
    q = Question(SHIELD, f"{foe.name} hits you for {damage}. Shatter your shield?", opts, {"damage": damage})
    return game.ask(q).key == "shatter"
