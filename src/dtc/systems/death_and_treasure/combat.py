"""Death & Treasure combat: rounds, initiative, attacks against Defense, morale, escape.

Seed: "Combat". Each round: the adventurer may try to escape; both sides roll a d6 and the higher
acts first (on a tie both act, and creatures standing at the start of the round strike even if
felled in it); the adventurer rolls d20 (with the STR or DEX modifier) equal to or under STR
(hand-to-hand) or DEX (ranged) to hit for the weapon's die; each creature's attack is avoided by a
d20 roll equal to or under Defense. Morale is tested when a creature is first hurt and when it
drops below half its HP: it flees if 2d6 is *less than* its Morale (as the seed writes it).
A fight takes one turn, however many rounds it lasts.

Two things the seed states in its lists are played too (``docs/rulesets/death-and-treasure.md``):

* A creature whose Special says it *swallows* (the Giant Frog of the *Sample Dungeon*): when its
  attack gets past your Defense you make a DEX check (2d6, as a check without a difficulty) or
  are swallowed. Inside, you take 1d4 at the start of every round and can only attack it, hand
  to hand (no escape, no oil); a blow of 4 or more cuts your way out and kills it. The dice and
  the 4 are read from the Special's text when it states them ("Take 1d6 damage each round",
  "Deal 5 or more damage"). Rulings: the other creatures cannot reach you inside, the one that
  holds you bites no more and makes no morale roll, and your attack is rolled as usual; the 4 is
  one blow's damage (ruling ``swallow-cut: blow``), or with ``swallow-cut: total`` the damage of
  your blows from inside added up since you were swallowed.
* A thrown flask of oil (*Gear*: "d6 damage and sets target on fire"): a hit sets the target
  burning; ruling: it burns for one more round, taking another d6 at the start of it, which
  counts for morale like any other wound.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING

from dtc.probability import worse_of_two
from dtc.runtime.core import COMBAT, Option, Question
from dtc.runtime.dice import DiceError, percent
from dtc.runtime.equipment import HAND, OIL, RANGED, Item
from dtc.runtime.foes import MAX_ROUNDS, Foe, pick_target
from dtc.runtime.ruleset import FLED, WON

if TYPE_CHECKING:
    from dtc.runtime.game import Game
    from dtc.systems.death_and_treasure.play import DeathAndTreasure

BAREHANDED = Item("Bare hands", "weapon", damage="d2", ranges=(HAND,))
OIL_FLASK = Item("Flask of oil", "weapon", damage="d6", ranges=(RANGED,))
FIRE_DAMAGE = "d6"
FIRE_ROUNDS = 1  # ruling: burning oil burns the round after it hits, then is spent

SWALLOWS = re.compile(r"\bswallow", re.I)
DIGEST = re.compile(r"(\d*d\d+)\s+damage\s+each\s+round", re.I)
CUT_OUT = re.compile(r"(\d+)\s+or\s+more\s+damage", re.I)
#: The Giant Frog's numbers (seed, *Sample Dungeon*) when a Special does not state its own.
DIGEST_DICE, CUT_OUT_DAMAGE = "1d4", 4


def swallow_terms(special: str | None) -> tuple[str, int] | None:
    """(damage each round inside, damage that cuts you out) of a swallowing creature, else None."""
    if not special:
        return None
    return _swallow_terms(special)


@lru_cache(maxsize=1024)
def _swallow_terms(special: str) -> tuple[str, int] | None:
    """:func:`swallow_terms` of a Special's text, once per text."""
    if not SWALLOWS.search(special):
        return None
    digest, cut = DIGEST.search(special), CUT_OUT.search(special)
    return (digest.group(1) if digest else DIGEST_DICE, int(cut.group(1)) if cut else CUT_OUT_DAMAGE)


@dataclass(slots=True)
class Melee:
    """What one fight remembers from round to round: who holds you inside it, who is burning."""

    inside: Foe | None = None
    cut: int = 0  # the damage dealt from inside since you were swallowed (ruling swallow-cut: total)
    burning: dict[int, tuple[Foe, int]] = field(default_factory=dict)  # id(foe) -> (foe, rounds left)


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
    if not game.skip("fight"):
        game.emit("fight", foes=[f.brief() for f in foes], surprised=surprised)
    for creature, special in dict.fromkeys((f.creature, f.special) for f in foes if f.special):
        if swallow_terms(special) is not None:
            game.emit("effect", creature=creature, text=f"{creature} can swallow you (dtc plays it): {special}")
        elif not game.skip("special"):
            game.emit("special", creature=creature, text=special)
    game.clock("combat")
    melee = Melee()
    if surprised:
        game.emit("round", round=0, surprised=True)
        _creatures_act(rules, game, [f for f in foes if f.active], melee)
    rnd = 0
    # Whether the round's initiative rolls are shown (else only their totals are drawn).
    shown = game.reads("round")
    dice = game.dice
    pc = game.pc
    while True:
        acting = [f for f in foes if f.hp > 0 and not f.fled]  # Foe.active
        if not acting:
            break
        rnd += 1
        if rnd > MAX_ROUNDS:
            game.emit("fight_end", result="stalemate")
            return FLED
        if melee.burning:
            _burn(rules, game, melee)
            acting = [f for f in foes if f.active]
        if melee.inside is not None:
            _inside(rules, game, foes, melee, rnd)
            continue
        if not acting:
            break
        weapon, mode, target = _choose(rules, game, foes, active=acting)
        if weapon is None:
            if rules.escape(game, foes):
                game.emit("fight_end", result="fled")
                return FLED
            game.emit("round", round=rnd, escaping=True)
            _creatures_act(rules, game, [f for f in foes if f.active], melee)
            continue
        if shown:
            pc_roll, pc_rolls = rules.pc_roll(game, "d6", high_is_bad=False)
            mine = pc_roll.total
            their = dice.die(6)
            if not game.skip("round"):
                game.emit("round", round=rnd, initiative=mine, rolls=rules.rolls(pc_rolls),
                          enemy_initiative=their)
        else:  # rules.pc_total(game, "d6", high_is_bad=False), in place
            mine = dice.total("d6")
            if pc.encumbered:
                again = dice.total("d6")
                mine = mine if mine <= again else again
            their = dice.die(6)
            game.skip("round")
        if their > mine:
            _creatures_act(rules, game, acting, melee)
            if melee.inside is None:  # swallowed before your blow: you strike from inside next round
                _attack(rules, game, weapon, mode, target, foes, melee)
        else:
            _attack(rules, game, weapon, mode, target, foes, melee)
            _creatures_act(rules, game, acting if their == mine else [f for f in acting if f.active], melee)
    game.emit("fight_end", result="won")
    return WON


def _burn(rules: DeathAndTreasure, game: Game, melee: Melee) -> None:
    """Creatures set on fire by oil take the fire's damage at the start of the round."""
    for key, (foe, left) in list(melee.burning.items()):
        if left <= 0 or not foe.active:
            del melee.burning[key]
            continue
        melee.burning[key] = (foe, left - 1)
        roll = game.dice.roll(FIRE_DAMAGE)
        game.emit("effect", creature=foe.name, text=f"{foe.name} burns for {roll.total} damage.")
        _wound(rules, game, foe, roll.total, melee)


def _inside(rules: DeathAndTreasure, game: Game, foes: list[Foe], melee: Melee, rnd: int) -> None:
    """A round inside a swallowing creature: its digestion, then your blow from inside."""
    holder = melee.inside
    assert holder is not None
    if not holder.active:
        melee.inside = None
        return
    digest, cut = swallow_terms(holder.special) or (DIGEST_DICE, CUT_OUT_DAMAGE)
    game.emit("round", round=rnd, swallowed=holder.name)
    game.damage(max(0, game.dice.total(digest)), f"inside the {holder.name}")
    weapon, mode, _ = _choose(rules, game, [holder], inside=True)
    assert weapon is not None
    dealt = _attack(rules, game, weapon, mode, holder, foes, melee)
    melee.cut += dealt
    if rules.rulings.get("swallow-cut", "blow") == "total":
        dealt = melee.cut  # every blow from inside counts towards the way out
    if holder.hp > 0 and dealt >= cut:
        holder.hp = 0
        game.emit("effect", creature=holder.name, text=f"You cut your way out of {holder.name} ({dealt} damage): "
                                                      "it is dead.")
        game.emit("defeated", name=holder.name)
    if holder.hp <= 0:
        melee.inside = None


def _choose(rules: DeathAndTreasure, game: Game, foes: list[Foe], *,
            inside: bool = False, active: list[Foe] | None = None) -> tuple[Item | None, str, Foe | None]:
    """Your move: a weapon and a target, or (weapon None) an escape. ``inside`` a creature that
    swallowed you, only a hand-to-hand blow at it. ``active``: the foes still fighting, when the
    caller has them."""
    pc = game.pc
    weapons = pc.weapons()
    if not weapons:
        weapons, names = _BARE, _BARE_SHOWN
    else:
        names = pc.weapons_shown()
    if inside:
        weapons = [(w, m) for w, m in weapons if m == HAND] or [(BAREHANDED, HAND)]
        names = tuple([(item.name, item.damage, mode) for item, mode in weapons])
    oil = not inside and pc.oil > 0
    if active is None:
        active = [f for f in foes if f.active]
    # The options, in order: an attack per weapon, the oil, the escape (not inside).
    picked = game.pick(COMBAT, len(weapons) + oil + (not inside))
    if picked is not None:
        key = (f"attack:{picked}" if picked < len(weapons) else "oil" if oil and picked == len(weapons)
               else "escape")
    else:
        options = _combat_options(rules, game, weapons, names, oil, inside)
        prompt = f"Inside the {active[0].name}: cut your way out" if inside else "Your move"
        q = Question(COMBAT, prompt, options, {"foes": [f.brief() for f in active], "hp": pc.hp})
        key = game.ask(q).key
    if key == "escape":
        return None, "", None
    if key == "oil":
        weapon, mode = OIL_FLASK, RANGED
    else:
        weapon, mode = weapons[int(key[7:])]  # attack:N
    target = pick_target(game, active)
    return weapon, mode, target


#: Bare hands, when the adventurer has no weapon (and what its option shows).
_BARE: list[tuple[Item, str]] = [(BAREHANDED, HAND)]
_BARE_SHOWN: tuple[tuple[str, str | None, str], ...] = ((BAREHANDED.name, BAREHANDED.damage, HAND),)


def _combat_options(rules: DeathAndTreasure, game: Game, weapons: list[tuple[Item, str]],
                    names: tuple[tuple[str, str | None, str], ...], oil: bool, inside: bool) -> tuple[Option, ...]:
    """A move's options, once per what they show: the weapons, the scores the attacks read,
    encumbrance, oil."""
    pc = game.pc
    encumbered = pc.encumbered
    abilities = pc.abilities
    shown = (names, abilities["STR"] if "STR" in abilities else pc.score("STR"),
             abilities["DEX"] if "DEX" in abilities else pc.score("DEX"), encumbered, oil, inside)
    options = _COMBAT_OPTIONS.get(shown)
    if options is None:
        opts = []
        for n, (item, mode) in enumerate(weapons):
            ability = pc.attack_ability(mode)
            opts.append(_attack_option(n, item.name, item.damage, mode, ability, pc.score(ability),
                                       pc.attack_modifier(mode), encumbered))
        if oil:
            opts.append(_oil_option(hit_chance(rules, game, RANGED)))
        if not inside:
            opts.append(_ESCAPE)
        if len(_COMBAT_OPTIONS) >= 4096:
            _COMBAT_OPTIONS.clear()
        options = _COMBAT_OPTIONS[shown] = tuple(opts)
    return options


_ESCAPE = Option("escape", "Try to escape", tags=frozenset({"escape"}))  # made once: options are immutable
#: A move's options per what they show (the key made in :func:`_choose`).
_COMBAT_OPTIONS: dict[tuple[object, ...], tuple[Option, ...]] = {}


@lru_cache(maxsize=4096)
def _attack_option(n: int, name: str, damage: str | None, mode: str, ability: str, score: int, mod: int,
                   encumbered: bool) -> Option:
    """The option to attack with the ``n``-th weapon, once per what it shows (:func:`hit_chance`'s numbers)."""
    p = Fraction(max(0, min(20, score - mod)), 20)
    p = worse_of_two(p) if encumbered else p
    detail = f"d20{mod:+d} ≤ {ability} {score}: {percent(p)}, {damage}" if mod else (
        f"d20 ≤ {ability} {score}: {percent(p)}, {damage}")
    return Option(f"attack:{n}", f"Attack with {name} ({mode})", detail, chance=p)


@lru_cache(maxsize=256)
def _oil_option(p: Fraction) -> Option:
    return Option("oil", "Throw a flask of oil (ranged)", f"{percent(p)}, d6, sets the target on fire", chance=p)


def _attack(rules: DeathAndTreasure, game: Game, weapon: Item, mode: str, target: Foe | None,
            foes: list[Foe], melee: Melee | None = None) -> int:
    """Your attack; the damage dealt (0 for a miss)."""
    if target is None or not target.active:
        target = next((f for f in foes if f.active), None)
        if target is None:
            return 0
    pc = game.pc
    if weapon is OIL_FLASK:
        pc.use(OIL)
        game.emit("item", action="thrown", name=OIL, quantity=1, why="thrown at " + target.name)
    ability = pc.attack_ability(mode)
    mod = pc.attack_modifier(mode)
    if not game.reads("attack"):  # the same dice, drawn without building the rolls nobody reads
        hit = rules.pc_total(game, "d20", high_is_bad=True) + mod <= pc.score(ability)
        damage = 0
        if hit:
            assert weapon.damage is not None
            damage = max(0, rules.pc_total(game, weapon.damage, high_is_bad=False))
        game.skip("attack")
    else:
        roll, rolls = rules.pc_roll(game, "d20", high_is_bad=True)
        hit = roll.total + mod <= pc.score(ability)
        damage = 0
        if hit:
            assert weapon.damage is not None
            dmg, _ = rules.pc_roll(game, weapon.damage, high_is_bad=False)
            damage = max(0, dmg.total)
        if not game.skip("attack"):
            game.emit("attack", attacker="you", target=target.name, weapon=weapon.name, rolls=rules.rolls(rolls),
                      total=roll.total + mod, needed=pc.score(ability), hit=hit, damage=damage)
    if hit and weapon is OIL_FLASK and melee is not None:
        melee.burning[id(target)] = (target, FIRE_ROUNDS)
        game.emit("effect", creature=target.name, text=f"The oil sets {target.name} on fire.")
    if not hit or damage == 0:
        return 0
    _wound(rules, game, target, damage, melee)
    return damage


def _wound(rules: DeathAndTreasure, game: Game, target: Foe, damage: int, melee: Melee | None) -> None:
    """``damage`` to a creature, and the morale roll when it is first hurt or falls below half HP."""
    target.hp -= damage
    if target.hp <= 0:
        if not game.skip("defeated"):
            game.emit("defeated", name=target.name)
        return
    if melee is not None and melee.inside is target:
        return  # ruling: the creature that holds you does not run off with you
    first = not target.hurt
    below_half = target.hp * 2 < target.max_hp and not target.halved
    target.hurt = True
    target.halved = target.halved or target.hp * 2 < target.max_hp
    if (first or below_half) and target.morale is not None:
        if not game.reads("morale"):
            flees = morale_breaks(game.dice.total("2d6"), target.morale, rules.rulings.get("morale", "below"))
            game.skip("morale")
        else:
            m = game.dice.roll("2d6")
            flees = morale_breaks(m.total, target.morale, rules.rulings.get("morale", "below"))
            game.emit("morale", name=target.name, rolls=list(m.dice), total=m.total, morale=target.morale,
                      flees=flees)
        target.fled = flees


def _creatures_act(rules: DeathAndTreasure, game: Game, acting: list[Foe], melee: Melee | None = None) -> None:
    pc = game.pc
    shown = game.reads("attack")
    if not shown:  # nothing in the blows changes the items: Defense and encumbrance hold
        draw, defense, encumbered = game.dice.total, pc.defense, pc.encumbered
    for foe in acting:
        if melee is not None and melee.inside is not None:
            return  # ruling: swallowed, you are out of everyone's reach
        for name, dice in foe.attacks:
            if shown:
                roll, rolls = rules.pc_roll(game, "d20", high_is_bad=True)
                avoided = roll.total <= pc.defense
                damage = 0 if avoided else _creature_damage(game, foe, name, dice)
                if not game.skip("attack"):
                    game.emit("attack", attacker=foe.name, target="you", weapon=name, rolls=rules.rolls(rolls),
                              total=roll.total, needed=pc.defense, hit=not avoided, damage=damage)
            else:  # the same dice, drawn without building the rolls nobody reads (pc_total, in place)
                total = draw("d20")
                if encumbered:
                    again = draw("d20")
                    total = total if total >= again else again
                avoided = total <= defense
                damage = 0 if avoided else _creature_damage(game, foe, name, dice)
                game.skip("attack")
            if damage:
                game.damage(damage, f"{foe.name}'s {name}")
            if (not avoided and melee is not None and swallow_terms(foe.special) is not None
                    and not rules.check(game, "DEX", None, f"not to be swallowed by {foe.name}")):
                melee.inside, melee.cut = foe, 0
                game.emit("effect", creature=foe.name, text=f"{foe.name} swallows you whole.")
                return


def _creature_damage(game: Game, foe: Foe, attack: str, dice: str) -> int:
    try:
        return max(0, game.dice.total(dice))
    except DiceError:
        game.emit("manual", text=f"{foe.name}'s {attack} does '{dice}' damage, which cannot be rolled: "
                                 "adjudicate it (a to adjust).")
        return 0
