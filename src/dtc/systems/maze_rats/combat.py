"""Maze Rats combat: initiative by side, attack rolls against armour, shields, morale, fleeing.

Seed: "Initiative", "Combat", "NPC Morale". Each round both sides roll a d6 (ties rerolled) and
the higher side acts first; an ambushing side simply goes first and has advantage on its attacks
in the first round (not in heavy armour, which gains no advantage on surprise attack rolls). An
attack is 2d6 + attack bonus; it hits when the total exceeds the
defender's armour and deals the difference (+1 with a heavy weapon, −1 unarmed but never 0),
doubled on double sixes. Hit, the adventurer may shatter a shield to take no damage — unless
holding a two-handed (heavy or ranged) weapon, since a shield takes a hand ("Combat"). A group that
has lost half its number, or a lone creature at half health, makes a WIL danger roll and routs on
a failure; so does a group whose leader falls or flees, and a group attacked by magic (seed, "NPC
Morale"), each once a fight. A leader is a creature named after "led by" in the encounter row or
the entry ("4 Ratlings led by a Ratling Chief") or whose Special begins "Leader" or "Leads"; a
magic attack is one made with a weapon whose name says it is magic (:data:`MAGIC_WORDS`).
Fleeing is an opposed DEX danger roll that the creatures win on a tie; a failed
attempt costs the adventurer's turn. A ranged weapon can only be used before the melee closes:
in the first round, when the adventurer's side acts first.

Encumbrance (seed, "Encumbrance"): a weapon on the belt is drawn at any time; one in the
backpack takes 1d6 rounds to find, rounds in which the adventurer does nothing else.

A creature's stats come from its stat block (``Armor``, ``AB``, ``STR``, ``DEX``, ``WIL``, any
case); missing ones are an unarmoured, trained, average creature (armour 6, AB +1, bonuses +1).
A fight takes one turn, however many rounds it lasts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING

import dtc.systems.maze_rats.ruleset as mr
from dtc.runtime.core import COMBAT, Option, Question
from dtc.runtime.dice import percent
from dtc.runtime.equipment import Item
from dtc.runtime.foes import MAX_ROUNDS, Foe, pick_target
from dtc.runtime.ruleset import FLED, WON

if TYPE_CHECKING:
    from dtc.runtime.game import Game
    from dtc.systems.maze_rats.play import MazeRats

DEFAULTS = {"armor": mr.BASE_ARMOR, "ab": 1, "str": 1, "dex": 1, "wil": 1}
UNARMED = Item("Bare hands", "weapon")
SHIELD = "shield"  # question kind: shatter the shield?
#: Words that make a weapon's attack magic, for the morale check of "is attacked by magic".
MAGIC_WORDS = re.compile(r"\b(magic|magical|enchanted|runed?|arcane|wand|spell|sorcerous)\b", re.I)
LEADER_SPECIAL = re.compile(r"^\s*(leader|leads)\b", re.I)
LED_BY = re.compile(r"\bled\s+by\b", re.I)


def is_magic(weapon: Item) -> bool:
    return weapon is not UNARMED and MAGIC_WORDS.search(weapon.name) is not None


def leaders(game: Game, foes: list[Foe], text: str = "") -> list[Foe]:
    """The foes that lead the others: named after "led by" (in ``text`` or the entry), or whose
    Special begins "Leader"/"Leads". Never every foe: a group of one kind has no leader by name."""
    found = [f for f in foes if f.special and LEADER_SPECIAL.search(f.special)]
    for words in (text, "" if text else game.entry["text"]):
        split = LED_BY.split(words, maxsplit=1)
        if len(split) < 2:
            continue
        before, after = split[0].lower(), split[1].lower()[:80]
        found += [f for f in foes if (f.creature or f.name).lower() in after
                  and (f.creature or f.name).lower() not in before]
    chosen = list({id(f): f for f in found}.values())
    return chosen if len(chosen) < len(foes) else []


@dataclass(frozen=True, slots=True)
class Search:
    """A weapon being dug out of the backpack, and the rounds it still takes (seed, "Encumbrance")."""

    weapon: Item
    rounds: int


@dataclass(slots=True)
class Morale:
    """The morale checks a fight has made (each situation once)."""

    size: int
    leaders: list[Foe] = field(default_factory=list)
    made: set[str] = field(default_factory=set)


def stat(game: Game, foe: Foe, key: str) -> int:
    block = game.block(foe.creature)
    if block is None:
        return DEFAULTS[key]
    stats = block["stats"]
    found = _STATS.get((id(stats), key))
    if found is not None and found[0] is stats and found[1] == len(stats):
        return found[2]
    value = _block_stat(tuple(stats.items()), key)
    if len(_STATS) >= 4096:
        _STATS.clear()
    _STATS[(id(stats), key)] = (stats, len(stats), value)
    return value


#: A block's stat per (its stats dict, key), the dict kept so its id is not reused while remembered
#: (a compiled graph is not changed while it is played).
_STATS: dict[tuple[int, str], tuple[dict[str, int], int, int]] = {}


@lru_cache(maxsize=4096)
def _block_stat(items: tuple[tuple[str, object], ...], key: str) -> int:
    """A stat block's number for ``key`` (its aliases), or the default: once per block's stats."""
    stats = {k.lower(): v for k, v in items}
    aliases = {"armor": ("armor", "armour"), "ab": ("ab", "attack bonus", "attack")}.get(key, (key,))
    return next((int(stats[a]) for a in aliases if a in stats), DEFAULTS[key])  # type: ignore[call-overload]


def expected_damage(ab: int, armor: int, mode: str, *, heavy: bool = False, unarmed: bool = False) -> Fraction:
    return _expected_damage(ab, armor, mode, heavy, unarmed)


@lru_cache(maxsize=4096)
def _expected_damage(ab: int, armor: int, mode: str, heavy: bool, unarmed: bool) -> Fraction:
    dist = mr.attack_distribution(ab, armor, mode, heavy=heavy, unarmed=unarmed)
    return sum((d * p for d, p in dist.items()), Fraction(0))


@lru_cache(maxsize=4096)
def _attack_odds(ab: int, their_armor: int, cls: str) -> tuple[Fraction, str]:
    """The chance to hit and the odds' words of an attack, once per (attack bonus, armour, weapon class)."""
    dist = mr.attack_distribution(ab, their_armor, heavy=cls == "heavy", unarmed=cls == "unarmed")
    p = 1 - dist.get(0, Fraction(0))
    mean = expected_damage(ab, their_armor, mr.PLAIN, heavy=cls == "heavy", unarmed=cls == "unarmed")
    per_hit = round(mean / p) if p else 0
    return p, (f"2d6{ab:+d} vs armour {their_armor}: hits {percent(p)}, your armour {{}}, "
               f"{per_hit} damage a hit on average")


def escape_chance(game: Game, foes: list[Foe]) -> Fraction:
    fastest = max((stat(game, f, "dex") for f in foes if f.active), default=0)
    return mr.p_opposed(game.pc.score("DEX"), fastest)


def escape(rules: MazeRats, game: Game, foes: list[Foe]) -> bool:
    fastest = max((stat(game, f, "dex") for f in foes if f.active), default=0)
    _, mine, _ = rules.roll(game, "DEX", mr.PLAIN)
    theirs = game.dice.total("2d6") + fastest
    ok = mine > theirs
    game.emit("escape", success=ok, total=mine, against=theirs)
    return ok


def fight(rules: MazeRats, game: Game, foes: list[Foe], *, surprised: bool = False, ambush: bool = False,
          text: str = "") -> str:
    if not game.skip("fight"):
        game.emit("fight", foes=[f.brief() for f in foes], surprised=surprised)
    for creature, special in dict.fromkeys((f.creature, f.special) for f in foes if f.special):
        game.emit("special", creature=creature, text=special)
    game.clock("combat")
    morale = Morale(len(foes), leaders(game, foes, text))
    held: Item | None = None
    drawn: set[int] = set()  # id() of the weapons taken out of the backpack this fight
    finding: Search | None = None  # while digging in the backpack
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
            if not game.skip("round"):
                game.emit("round", round=rnd, initiative=mine, rolls=[[mine]], enemy_initiative=theirs)
        their_mode = mr.ADVANTAGE if rnd == 1 and surprised else mr.PLAIN
        searching = finding is not None
        weapon, target = (None, None) if searching else _choose(game, foes, ranged_ok=rnd == 1 and pc_first,
                                                                drawn=drawn)
        if weapon is not None and _in_pack(game, weapon) and id(weapon) not in drawn:
            rounds = game.dice.die(6)
            game.emit("effect", creature="you", text=f"You dig in your backpack for the {weapon.name} "
                                                     f"({rounds} round{'s' if rounds > 1 else ''}).")
            finding = Search(weapon, rounds)
            searching, weapon = True, None
        if weapon is not None:
            held = weapon
        if not pc_first:
            _creatures_act(rules, game, foes, their_mode, held)
        if finding is not None:
            finding = _search(game, finding, drawn)
        elif weapon is None:
            if escape(rules, game, foes):
                game.emit("fight_end", result="fled")
                return FLED
        else:
            _attack(rules, game, weapon, target, foes, _ambush_mode(game, rnd == 1 and ambush))
            if is_magic(weapon):
                _check(game, foes, morale, "magic", "attacked by magic")
        _morale(game, foes, morale)
        if pc_first and any(f.active for f in foes):
            _creatures_act(rules, game, foes, their_mode, held)
    game.emit("fight_end", result="won")
    return WON


def _in_pack(game: Game, weapon: Item) -> bool:
    from dtc.systems.maze_rats.play import location

    return weapon is not UNARMED and location(game.pc, weapon) == "backpack"


def _search(game: Game, finding: Search, drawn: set[int]) -> Search | None:
    """A round spent digging in the backpack; the weapon is in hand when the rounds run out."""
    if finding.rounds > 1:
        return Search(finding.weapon, finding.rounds - 1)
    drawn.add(id(finding.weapon))
    game.emit("effect", creature="you", text=f"You find the {finding.weapon.name} in your backpack.")
    return None


def _ambush_mode(game: Game, ambushing: bool) -> str:
    """Advantage on the ambush round's attack, but never in heavy armour (seed, "Combat")."""
    from dtc.systems.maze_rats.play import heavy_armour

    if not ambushing:
        return mr.PLAIN
    if heavy_armour(game.pc):
        game.emit("manual", text="Heavy armour: no advantage on your ambush attack.")
        return mr.PLAIN
    return mr.ADVANTAGE


def _choose(game: Game, foes: list[Foe], *, ranged_ok: bool,
            drawn: set[int] | None = None) -> tuple[Item | None, Foe | None]:
    from dtc.systems.maze_rats.play import armor as pc_armor
    from dtc.systems.maze_rats.play import weapon_class

    pc = game.pc
    active = [f for f in foes if f.active]
    weapons = [i for i in pc.items if i.kind == "weapon" and i.quantity > 0
               and (ranged_ok or weapon_class(i) != "ranged")] or [UNARMED]
    picked = game.pick(COMBAT, len(weapons) + 1)  # a way per weapon, then the escape
    if picked is not None:
        if picked == len(weapons):
            return None, None
        weapon = weapons[picked]
    else:
        ab = pc.stats.get("AB", 0)
        opts = []
        their_armor = min(stat(game, f, "armor") for f in active)
        for n, w in enumerate(weapons):
            cls = "unarmed" if w is UNARMED else weapon_class(w)
            p, words = _attack_odds(ab, their_armor, cls)
            detail = words.format(pc_armor(pc, w))
            where = ""
            if _in_pack(game, w) and id(w) not in (drawn or set()):
                where = ", in your backpack: 1d6 rounds to find"
            opts.append(_attack_option(n, w.name, cls, where, detail, p))
        opts.append(_escape_option(escape_chance(game, foes)))
        q = Question(COMBAT, "Your move", tuple(opts), {"foes": [f.brief() for f in active], "hp": pc.hp})
        key = game.ask(q).key
        if key == "escape":
            return None, None
        weapon = weapons[int(key.split(":")[1])]
    target = pick_target(game, active)
    return weapon, target


@lru_cache(maxsize=4096)
def _attack_option(n: int, name: str, cls: str, where: str, detail: str, p: Fraction) -> Option:
    """An attack's option, once per what it shows (options are immutable)."""
    return Option(f"attack:{n}", f"Attack with {name} ({cls}{where})", detail, chance=p)


@lru_cache(maxsize=256)
def _escape_option(p: Fraction) -> Option:
    return Option("escape", "Try to flee", f"opposed DEX {percent(p)}", tags=frozenset({"escape"}))


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
    if not game.skip("attack"):
        game.emit("attack", attacker="you", target=target.name, weapon=weapon.name, rolls=[list(roll.dice)],
                  total=total, needed=their_armor, hit=damage > 0, damage=damage, critical=crit)
    if damage <= 0:
        return
    target.hp -= damage
    if target.hp <= 0:
        game.emit("defeated", name=target.name)


def _check(game: Game, foes: list[Foe], morale: Morale, situation: str, why: str) -> None:
    """A morale check for ``situation`` (once a fight) by every creature still standing."""
    standing = [f for f in foes if f.active]
    if standing and situation not in morale.made:
        morale.made.add(situation)
        _rout(game, foes, standing, why)


def _rout(game: Game, foes: list[Foe], who: list[Foe], why: str) -> None:
    wil = max(stat(game, f, "wil") for f in who)
    roll = game.dice.roll("2d6")
    holds = roll.total + wil >= mr.TARGET
    game.emit("morale", name=", ".join(f.name for f in who), rolls=list(roll.dice), total=roll.total + wil,
              morale=mr.TARGET, flees=not holds, why=why)
    if not holds:
        for f in who:
            f.fled = True


def _morale(game: Game, foes: list[Foe], morale: Morale) -> None:
    """Morale after the adventurer's blow: half the group lost, the leader lost, half health alone."""
    standing = [f for f in foes if f.active]
    if not standing:
        return
    if morale.size > 1 and len(standing) * 2 <= morale.size:
        _check(game, foes, morale, "half", "lost half their number")
    if morale.leaders and not any(f.active for f in morale.leaders):
        _check(game, foes, morale, "leader", "lost their leader")
    standing = [f for f in foes if f.active]
    if len(standing) == 1:
        lone = standing[0]
        if lone.hp * 2 <= lone.max_hp and not lone.halved:
            lone.halved = True
            _rout(game, foes, [lone], "lost half its health")


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
        if not game.skip("attack"):
            game.emit("attack", attacker=foe.name, target="you", weapon=name, rolls=[list(roll.dice)],
                      total=total, needed=mine, hit=damage > 0, damage=damage, critical=a == b == 6)
        if (damage and pc.find("Shield") is not None and (held is None or weapon_class(held) == "light")
                and _shatter(rules, game, foe, damage)):
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
