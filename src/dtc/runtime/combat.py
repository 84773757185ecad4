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

from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from dtc.graphjson import Creature
from dtc.runtime.core import COMBAT, TARGET, Option, Question
from dtc.runtime.dice import DiceError, percent, worse_of_two
from dtc.runtime.equipment import HAND, OIL, RANGED, Item
from dtc.runtime.ruleset import FLED, WON

if TYPE_CHECKING:
    from dtc.runtime.engine import Engine
    from dtc.runtime.rules_dt import DeathAndTreasure

MAX_ROUNDS = 500
#: More creatures than this in one group are taken as this many (a typo such as "400 Goblins").
MAX_GROUP = 50
BAREHANDED = Item("Bare hands", "weapon", damage="d2", ranges=(HAND,))
OIL_FLASK = Item("Flask of oil", "weapon", damage="d6", ranges=(RANGED,))


@dataclass(slots=True)
class Foe:
    """One creature in a fight."""

    name: str
    creature: str | None
    hp: int
    max_hp: int
    morale: int | None
    attacks: list[tuple[str, str]] = field(default_factory=list)
    special: str | None = None
    hurt: bool = False
    halved: bool = False
    fled: bool = False

    @property
    def active(self) -> bool:
        return self.hp > 0 and not self.fled

    def brief(self) -> dict[str, Any]:
        return {"name": self.name, "hp": self.hp, "morale": self.morale}


def foes_from(block: Creature | None, name: str, count: int) -> list[Foe]:
    """``count`` creatures of a stat block (``block`` None: creatures the runtime knows no stats for)."""
    out = []
    for n in range(min(count, MAX_GROUP)):
        label = f"{block['name'] if block else name}{f' {n + 1}' if count > 1 else ''}"
        if block is None:
            out.append(Foe(label, None, 0, 0, None))
            continue
        attacks = [(a["name"], a["damage"]) for a in block["attacks"]] or [("attack", "d4")]
        out.append(Foe(label, block["name"], block["hp"], block["hp"], block["morale"], attacks, block["special"]))
    return out


def morale_breaks(total: int, morale: int | None) -> bool:
    """As written: the creature flees if the 2d6 result is *less than* its Morale."""
    return morale is not None and total < morale


def hit_chance(rules: DeathAndTreasure, game: Engine, mode: str) -> Fraction:
    pc = game.pc
    score = pc.score(pc.attack_ability(mode))
    p = Fraction(max(0, min(20, score - pc.attack_modifier(mode))), 20)
    return worse_of_two(p) if pc.encumbered else p


def fight(rules: DeathAndTreasure, game: Engine, foes: list[Foe], *, surprised: bool = False) -> str:
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


def _choose(rules: DeathAndTreasure, game: Engine, foes: list[Foe]) -> tuple[Item | None, str, Foe | None]:
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


def _attack(rules: DeathAndTreasure, game: Engine, weapon: Item, mode: str, target: Foe | None,
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
        flees = morale_breaks(m.total, target.morale)
        game.emit("morale", name=target.name, rolls=list(m.dice), total=m.total, morale=target.morale, flees=flees)
        target.fled = flees


def _creatures_act(rules: DeathAndTreasure, game: Engine, acting: list[Foe]) -> None:
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


def _creature_damage(game: Engine, foe: Foe, attack: str, dice: str) -> int:
    try:
        return max(0, game.dice.roll(dice).total)
    except DiceError:
        game.emit("manual", text=f"{foe.name}'s {attack} does '{dice}' damage, which cannot be rolled: "
                                 "adjudicate it (a to adjust).")
        return 0
