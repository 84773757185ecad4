"""Death & Treasure combat: rounds, initiative, attacks against Defense, morale, escape.

Seed: "Combat". Each round: the adventurer may try to escape; both sides roll a d6 and the higher
acts first (on a tie both act, and creatures standing at the start of the round strike even if
felled in it); the adventurer rolls d20 (with the STR or DEX modifier) equal to or under STR
(hand-to-hand) or DEX (ranged) to hit for the weapon's die; each creature's attack is avoided by a
d20 roll equal to or under Defense. Morale is tested when a creature is first hurt and when it
drops below half its HP: it flees if 2d6 is *less than* its Morale (as the seed writes it).
A fight takes one turn, however many rounds it lasts.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from dtc.probability import worse_of_two
from dtc.runtime.core import COMBAT, TARGET, Option, Question
from dtc.runtime.dice import DiceError, percent
from dtc.runtime.equipment import HAND, OIL, RANGED, Item
from dtc.runtime.foes import MAX_ROUNDS, Foe
from dtc.runtime.ruleset import FLED, WON

if TYPE_CHECKING:
    from dtc.runtime.game import Game
    from dtc.systems.death_and_treasure.play import DeathAndTreasure

BAREHANDED = Item("Bare hands", "weapon", damage="d2", ranges=(HAND,))
OIL_FLASK = Item("Flask of oil", "weapon", damage="d6", ranges=(RANGED,))


def morale_breaks(total: int, morale: int | None, reading: str = "below") -> bool:
    """As written (``below``): the creature flees if the 2d6 result is *less than* its Morale.

    The ruling ``morale: above`` reads it the classic way round (Morale as the score to stay
    under: the creature flees on a result *above* its Morale, so Morale 12 never flees).
    """
    if morale is None:
        return False
    return total > morale if reading == "above" else total < morale


def hit_chance(rules: DeathAndTreasure, game: Game, mode: str) -> Fraction:
    pc = game.pc
    score = pc.score(pc.attack_ability(mode))
    p = Fraction(max(0, min(20, score - pc.attack_modifier(mode))), 20)
    return worse_of_two(p) if pc.encumbered else p


def fight(rules: DeathAndTreasure, game: Game, foes: list[Foe], *, surprised: bool = False) -> str:
    game.emit("fight", foes=[f.brief() for f in foes], surprised=surprised)
    for text in dict.fromkeys((f.creature, f.special) for f in foes if f.special):
        game.emit("special", creature=text[0], text=text[1])
    game.clock("combat")
    if surprised:
        game.emit("round", round=0, surprised=True)
        _creatures_act(rules, game, [f for f in foes if f.active])
    rnd = 0
    while any(f.active for f in foes):
        rnd += 1
        if rnd > MAX_ROUNDS:
            game.emit("fight_end", result="stalemate")
            return FLED
        weapon, mode, target = _choose(rules, game, foes)
        if weapon is None:
            if rules.escape(game, foes):
                game.emit("fight_end", result="fled")
                return FLED
            game.emit("round", round=rnd, escaping=True)
            _creatures_act(rules, game, [f for f in foes if f.active])
            continue
        pc_roll, pc_rolls = rules.pc_roll(game, "d6", high_is_bad=False)
        their = game.dice.die(6)
        game.emit("round", round=rnd, initiative=pc_roll.total, rolls=rules.rolls(pc_rolls), enemy_initiative=their)
        acting = [f for f in foes if f.active]
        if their > pc_roll.total:
            _creatures_act(rules, game, acting)
            _attack(rules, game, weapon, mode, target, foes)
        else:
            _attack(rules, game, weapon, mode, target, foes)
            _creatures_act(rules, game, acting if their == pc_roll.total else [f for f in acting if f.active])
    game.emit("fight_end", result="won")
    return WON


def _choose(rules: DeathAndTreasure, game: Game, foes: list[Foe]) -> tuple[Item | None, str, Foe | None]:
    pc = game.pc
    weapons = pc.weapons() or [(BAREHANDED, HAND)]
    opts = []
    for n, (item, mode) in enumerate(weapons):
        p = hit_chance(rules, game, mode)
        ability = pc.attack_ability(mode)
        mod = pc.attack_modifier(mode)
        detail = f"d20{mod:+d} ≤ {ability} {pc.score(ability)}: {percent(p)}, {item.damage}" if mod else (
            f"d20 ≤ {ability} {pc.score(ability)}: {percent(p)}, {item.damage}")
        opts.append(Option(f"attack:{n}", f"Attack with {item.name} ({mode})", detail, chance=p))
    if pc.oil > 0:
        p = hit_chance(rules, game, RANGED)
        opts.append(Option("oil", "Throw a flask of oil (ranged)", f"{percent(p)}, d6, sets the target on fire",
                           chance=p))
    opts.append(Option("escape", "Try to escape", tags=frozenset({"escape"})))
    active = [f for f in foes if f.active]
    q = Question(COMBAT, "Your move", tuple(opts), {"foes": [f.brief() for f in active], "hp": pc.hp})
    key = game.ask(q).key
    if key == "escape":
        return None, "", None
    if key == "oil":
        weapon, mode = OIL_FLASK, RANGED
    else:
        weapon, mode = weapons[int(key.split(":")[1])]
    target = active[0]
    if len(active) > 1:
        tq = Question(TARGET, "Attack which?", tuple(
            Option(f"foe:{n}", f.name, f"{f.hp}/{f.max_hp} HP") for n, f in enumerate(active)))
        target = active[int(game.ask(tq).key.split(":")[1])]
    return weapon, mode, target


def _attack(rules: DeathAndTreasure, game: Game, weapon: Item, mode: str, target: Foe | None,
            foes: list[Foe]) -> None:
    if target is None or not target.active:
        target = next((f for f in foes if f.active), None)
        if target is None:
            return
    pc = game.pc
    if weapon is OIL_FLASK:
        pc.use(OIL)
        game.emit("item", action="thrown", name=OIL, quantity=1, why="thrown at " + target.name)
    ability = pc.attack_ability(mode)
    mod = pc.attack_modifier(mode)
    roll, rolls = rules.pc_roll(game, "d20", high_is_bad=True)
    hit = roll.total + mod <= pc.score(ability)
    damage = 0
    if hit:
        assert weapon.damage is not None
        dmg, _ = rules.pc_roll(game, weapon.damage, high_is_bad=False)
        damage = max(0, dmg.total)
    game.emit("attack", attacker="you", target=target.name, weapon=weapon.name, rolls=rules.rolls(rolls),
              total=roll.total + mod, needed=pc.score(ability), hit=hit, damage=damage)
    if not hit or damage == 0:
        return
    target.hp -= damage
    if target.hp <= 0:
        game.emit("defeated", name=target.name)
        return
    first = not target.hurt
    below_half = target.hp * 2 < target.max_hp and not target.halved
    target.hurt = True
    target.halved = target.halved or target.hp * 2 < target.max_hp
    if (first or below_half) and target.morale is not None:
        m = game.dice.roll("2d6")
        flees = morale_breaks(m.total, target.morale, rules.rulings.get("morale", "below"))
        game.emit("morale", name=target.name, rolls=list(m.dice), total=m.total, morale=target.morale, flees=flees)
        target.fled = flees


def _creatures_act(rules: DeathAndTreasure, game: Game, acting: list[Foe]) -> None:
    pc = game.pc
    for foe in acting:
        for name, dice in foe.attacks:
            roll, rolls = rules.pc_roll(game, "d20", high_is_bad=True)
            avoided = roll.total <= pc.defense
            damage = 0 if avoided else _creature_damage(game, foe, name, dice)
            game.emit("attack", attacker=foe.name, target="you", weapon=name, rolls=rules.rolls(rolls),
                      total=roll.total, needed=pc.defense, hit=not avoided, damage=damage)
            if damage:
                game.damage(damage, f"{foe.name}'s {name}")


def _creature_damage(game: Game, foe: Foe, attack: str, dice: str) -> int:
    try:
        return max(0, game.dice.roll(dice).total)
    except DiceError:
        game.emit("manual", text=f"{foe.name}'s {attack} does '{dice}' damage, which cannot be rolled: "
                                 "adjudicate it (a to adjust).")
        return 0
