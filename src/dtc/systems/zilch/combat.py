"""Zilch combat: initiative, stances and dominoes, attacks against defence, chips, fleeing.

Seed: ``zilch.txt``, "Combat", "Stances", "Attack", the class chips and "Contests". Initiative is
Spades + 1d6 for the adventurer against the creatures' best Spades + one 1d6 for them all, once
per fight. Each round the creatures announce their stances (Bold; Cautious once below half HP),
everyone draws a domino face down, and the adventurer picks a stance knowing the exact odds for
the tiles still unseen. On its turn a combatant reveals its tile and attacks (Guarded: it only
defends). A Fighter may spend ♣ chips as offensive pips on one attack (to hit, or for the next +1
damage), a Rogue ♠ chips as defensive pips against one blow (to be missed, or for 1 damage less).
On your turn: an attack; two-weapon fighting (the offensive pips split between two attacks);
a Disarm (a Special Attack: no damage, defended with the better of ♠ and ♣; the creature fights
on with bare hands); or, when Cautious, a readied attack that strikes just before the creature
you wait for attacks. A creature's ``Size`` (its long dimension in feet) multiplies its damage
before armour, and its HP when the block gives Hearts; unarmed blows are temporary damage.
In a surprise round the adventurer has no tile and no defensive pips.
Fleeing is a ♠ contest against the fastest creature, which the adventurer initiates (and so
wins a successful draw); failing costs the adventurer's turn. Creatures fight until they drop
(the seed has no morale rule). A fight takes one turn. An adventurer knocked to 0 HP falls
unconscious: the creatures still to act this round strike the Defenseless body (every point
drains ♥), then leave it for dead (the fight ends with ``OVER``: they are still there).

Weapons deal a fixed amount by class (the seed's table is missing): tiny 1 (dagger, knife,
unarmed), light 2 (short sword, hand axe, club, sling, shortbow), heavy 3 (longsword, sword,
mace, spear, battleaxe, staff, longbow, crossbow), great 4 (greatsword, greataxe). Damage
resistance: light armour 1, medium (chain) 2, heavy (plate) 3, a shield 1. A creature's suits
come from its stat block (``Clubs 8 | Spades 6``, missing ones 7), with ``DR`` and ``Damage``
fields; without a Damage field its attack dice are rolled.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING

import dtc.systems.zilch.dominoes as dom
import dtc.systems.zilch.ruleset as z
from dtc.runtime.core import COMBAT, TARGET, Option, Question
from dtc.runtime.dice import DiceError, parse_dice, percent
from dtc.runtime.equipment import Item
from dtc.runtime.foes import MAX_ROUNDS, Foe
from dtc.runtime.ruleset import FLED, OVER, WON, careful

if TYPE_CHECKING:
    from dtc.runtime.game import Game
    from dtc.systems.zilch.play import Zilch

WEAPON_DAMAGE = {
    "dagger": 1, "knife": 1, "bare hands": 1,
    "short sword": 2, "hand axe": 2, "handaxe": 2, "club": 2, "sling": 2, "shortbow": 2,
    "longsword": 3, "sword": 3, "mace": 3, "spear": 3, "battleaxe": 3, "axe": 3, "staff": 3, "longbow": 3,
    "crossbow": 3, "greatsword": 4, "greataxe": 4,
}
UNARMED = Item("Bare hands", "weapon")
STANCE, CHIPS, SPLIT = "stance", "chips", "split"  # question kinds
AVERAGE_SUIT = 7
TINY, LIGHT, HEAVY = 1, 2, 3  # weapon classes by their damage
#: Weapons that take both hands (seed, *Weapons*: bows, two-handed weapons, a staff or polearm).
TWO_HANDED = frozenset({"greatsword", "greataxe", "longbow", "shortbow", "crossbow", "staff", "polearm",
                        "halberd", "pike", "bow"})
#: Two attacks from one two-handed weapon (seed, *Two-Weapon Fighting*, *Weapons*): a staff's two ends
#: as two light weapons, a shortbow (light) fired twice.
DOUBLE = {"staff": "both ends of the staff", "shortbow": "the shortbow fired twice"}
#: A bash with a shield is a tiny weapon, a spiked shield a light one; a buckler or bracers cannot bash.
NO_BASH = ("buckler", "bracers")
#: Attack names that are unarmed blows: temporary damage (seed, *Temporary damage*).
UNARMED_WORDS = ("fist", "punch", "kick", "unarmed", "bare hand", "headbutt", "brawl")
#: Attack names that are a weapon held in a hand, so a Disarm can make the creature drop it.
HELD_WORDS = (*WEAPON_DAMAGE, "blade", "cudgel", "hammer", "hook", "pick", "whip", "flail", "halberd", "pike",
              "trident", "scimitar", "rapier", "cleaver", "bow", "sword", "axe", "sabre", "saber", "scythe",
              "sickle", "maul", "glaive", "lance", "javelin", "shears")
DISARMED = "bare hands (disarmed)"
#: Size categories (seed, *Combat Modifiers*, *Size*): the long dimension in feet each reaches up to
#: (not included), and the damage modifier. ``Size N`` in a stat block is that long dimension in feet.
SIZES: tuple[tuple[str, Fraction | None, Fraction], ...] = (
    ("Tiny", Fraction(3, 2), Fraction(1, 4)), ("Small", Fraction(4), Fraction(1, 2)),
    ("Medium", Fraction(8), Fraction(1)), ("Large", Fraction(16), Fraction(2)),
    ("Huge", Fraction(32), Fraction(4)), ("Tremendous", None, Fraction(8)),
)


def weapon_damage(item: Item) -> int:
    return WEAPON_DAMAGE.get(item.key, 2)


def half_up(x: Fraction) -> int:
    """Round normally, 0.5 up (seed, *Size*)."""
    return math.floor(x + Fraction(1, 2))


def size_of(game: Game, foe: Foe) -> tuple[str, Fraction]:
    """A creature's size category and damage modifier from its ``Size`` (feet); Medium without one."""
    feet = foe_stat(game, foe, "size", default=-1)
    if feet < 0:
        return "Medium", Fraction(1)
    for name, below, modifier in SIZES:
        if below is None or feet < below:
            return name, modifier
    return "Medium", Fraction(1)  # pragma: no cover - the last row has no bound


def size_up(game: Game, foes: list[Foe]) -> None:
    """Creatures whose block gives Hearts get HP = Hearts × their size modifier, rounded normally and at
    least 1 (seed, *Size*: "multiply their HP total by their dmg modifier"); a block's HP as written is
    kept when it gives no Hearts. Done once: a creature already hurt or already sized is left alone."""
    for foe in foes:
        block = game.block(foe.creature)
        if block is None or not _names(game, foe, "hearts", "heart"):
            continue
        if foe.hp != foe.max_hp or foe.max_hp != block["hp"]:
            continue
        foe.hp = foe.max_hp = max(1, half_up(suit(game, foe, "hearts") * size_of(game, foe)[1]))


def _names(game: Game, foe: Foe, *names: str) -> bool:
    block = game.block(foe.creature)
    return block is not None and any(k.lower() in names for k in block["stats"])


@lru_cache(maxsize=4096)
def _says(name: str, words: tuple[str, ...]) -> bool:
    """Whether an attack's name says one of ``words`` (whole words; a plural too: ``Fists``)."""
    text = " " + re.sub(r"[^a-z]+", " ", name.lower()) + " "
    return any(f" {w} " in text or f" {w}s " in text or f" {w}es " in text for w in words)


def unarmed_attack(name: str) -> bool:
    found = _UNARMED.get(name)
    if found is None:
        if len(_UNARMED) >= _NAMES_MOST:
            _UNARMED.clear()
        found = _UNARMED[name] = name == DISARMED or _says(name, UNARMED_WORDS)
    return found


def holds_weapon(foe: Foe) -> bool:
    """A creature whose attack names a weapon it holds (``Sword d6``, ``Boat Hook or Cudgel d6``)."""
    if not foe.attacks or foe.attacks[0][0] == DISARMED:
        return False
    name = foe.attacks[0][0]
    found = _HOLDS.get(name)
    if found is None:
        if len(_HOLDS) >= _NAMES_MOST:
            _HOLDS.clear()
        found = _HOLDS[name] = _says(name, HELD_WORDS) and not unarmed_attack(name)
    return found


#: :func:`unarmed_attack` and :func:`holds_weapon` by attack name, worked out once a name (the words
#: tuples are long to hash on every blow).
_UNARMED: dict[str, bool] = {}
_HOLDS: dict[str, bool] = {}
_NAMES_MOST = 4096


def hand_weapons(pc_items: list[Item]) -> list[tuple[str, int]]:
    """The one-handed weapons the adventurer carries (two of a kind count twice) and a shield's bash."""
    out: list[tuple[str, int]] = []
    for item in pc_items:
        if item.quantity <= 0:
            continue
        lowered = item.key
        if item.kind == "weapon" and lowered not in TWO_HANDED and weapon_damage(item) <= HEAVY:
            out.extend([(item.name, weapon_damage(item))] * min(item.quantity, 2))
        elif item.kind == "armour" and item.slot == "shield" and not any(w in lowered for w in NO_BASH):
            out.append((f"{item.name} bash", LIGHT if "spike" in lowered else TINY))
    return out


def two_weapon_pairs(pc_items: list[Item]) -> list[tuple[tuple[str, int], tuple[str, int]]]:
    """Every way to fight with two weapons (seed, *Two-Weapon Fighting*): two light weapons or a heavy and a
    tiny one — dtc also allows any lighter pair (a light and a tiny, two tiny) — or a staff's two ends or a
    shortbow fired twice (two light attacks). The heavier weapon first."""
    hands = sorted(hand_weapons(pc_items), key=lambda w: -w[1])
    pairs: list[tuple[tuple[str, int], tuple[str, int]]] = []
    for i, first in enumerate(hands):
        for second in hands[i + 1:]:
            fits = first[1] + second[1] <= 2 * LIGHT or (first[1], second[1]) == (HEAVY, TINY)
            if fits and (first, second) not in pairs:
                pairs.append((first, second))
    for item in pc_items:
        if item.kind == "weapon" and item.quantity > 0 and item.key in DOUBLE:
            pairs.append(((item.name, LIGHT), (item.name, LIGHT)))
    return pairs


def resistance(game: Game) -> int:
    """Body armour's and a shield's damage resistance (the best of each; one pass over the kit)."""
    body: int | None = None
    guard: int | None = None
    for i in game.pc.items:
        if i.kind == "armour":
            if i.slot == "body":
                body = i.defense if body is None else max(body, i.defense)
            elif i.slot == "shield":
                guard = i.defense if guard is None else max(guard, i.defense)
    return (body or 0) + (guard or 0)


def shield(game: Game) -> int:
    return max((i.defense for i in game.pc.items if i.kind == "armour" and i.slot == "shield"), default=0)


def foe_stat(game: Game, foe: Foe, *names: str, default: int = AVERAGE_SUIT) -> int:
    """The first of ``names`` a creature's stat block gives (any case), else ``default``."""
    block = game.block(foe.creature)
    if block is None:
        return default
    stats = block["stats"]
    # Read once per stat block and question: a fight asks the same few every round. The entry holds
    # the stats themselves, so the id it is filed under stays theirs while it is kept.
    memo = _STAT_MEMO.get(id(stats))
    if memo is None or memo[0] is not stats:
        if len(_STAT_MEMO) >= _STAT_MEMO_MOST:
            _STAT_MEMO.clear()
        memo = _STAT_MEMO[id(stats)] = (stats, {})
    key = (names, default)
    found = memo[1].get(key)
    if found is None:
        lowered = {k.lower(): v for k, v in stats.items()}
        found = memo[1][key] = next((int(lowered[n]) for n in names if n in lowered), default)
    return found


#: :func:`foe_stat`'s answers per stat block (its ``stats``, by id): the block and {(names, default): value}.
_STAT_MEMO: dict[int, tuple[object, dict[tuple[tuple[str, ...], int], int]]] = {}
_STAT_MEMO_MOST = 4096


def suit(game: Game, foe: Foe, name: str) -> int:
    return foe_stat(game, foe, name, name[:-1], z.SUIT_NAMES.get(name, name).lower())


def _fixed_damage(game: Game, foe: Foe) -> int | None:
    """A creature's weapon damage when no die decides it: disarmed (bare hands), or a Damage field."""
    if foe.attacks and foe.attacks[0][0] == DISARMED:
        return TINY
    fixed = foe_stat(game, foe, "damage", "dmg", default=-1)
    return fixed if fixed >= 0 else None


def foe_damage(game: Game, foe: Foe) -> int:
    fixed = _fixed_damage(game, foe)
    return fixed if fixed is not None else _roll_attack(game, foe)


def _damage_roll(game: Game, profile: _Profile, foe: Foe) -> int:
    """:func:`foe_damage` with the stat block already read."""
    if foe.attacks and foe.attacks[0][0] == DISARMED:
        return TINY
    return profile.damage if profile.damage is not None else _roll_attack(game, foe)


def _roll_attack(game: Game, foe: Foe) -> int:
    for _, dice in foe.attacks:
        try:
            return max(0, game.dice.total(dice))
        except DiceError:
            continue
    return 2


def foe_mean_damage(game: Game, foe: Foe) -> int:
    fixed = _fixed_damage(game, foe)
    return fixed if fixed is not None else _mean_of(tuple(dice for _, dice in foe.attacks))


def _mean_damage(profile: _Profile, foe: Foe) -> int:
    """:func:`foe_mean_damage` with the stat block already read."""
    if foe.attacks and foe.attacks[0][0] == DISARMED:
        return TINY
    if profile.damage is not None:
        return profile.damage
    return _mean_of(tuple(dice for _, dice in foe.attacks))


@lru_cache(maxsize=1024)
def _mean_of(dice: tuple[str, ...]) -> int:
    """The rounded mean of the first of a creature's attack dice that reads; 2 when none does."""
    for text in dice:
        try:
            return round(parse_dice(text).mean)
        except DiceError:
            continue
    return 2


def escape_chance(game: Game, foes: list[Foe]) -> Fraction:
    fastest = max((suit(game, f, "spades") for f in foes if f.active), default=0)
    return _escape_odds(game.pc.score("♠"), fastest)


@lru_cache(maxsize=1024)
def _escape_odds(mine: int, fastest: int) -> Fraction:
    """The chance of winning the ♠ contest, worked out once per (your ♠, the fastest creature's ♠): the
    ways of both rolls counted in integers (each roll's chance is its ways over 216), then one fraction."""
    ways = _TEST_WAYS
    won = sum(na * nb for ra, na in ways for rb, nb in ways if ra <= mine and (rb > fastest or ra <= rb))
    return Fraction(won, _TEST_WHOLE * _TEST_WHOLE)


#: A suit test's rolls and their ways of 216 (``z.test_distribution`` in integers).
_TEST_WHOLE = 216
_TEST_WAYS = tuple((roll, int(p * _TEST_WHOLE)) for roll, p in z.test_distribution().items())


def escape(rules: Zilch, game: Game, foes: list[Foe]) -> bool:
    fastest = max((suit(game, f, "spades") for f in foes if f.active), default=0)
    degree, mine = rules.test(game, "♠", 2, "flee")
    theirs = sum([0 if d == 6 else d for d in game.dice.roll("3d6").dice])  # z.die_value: a 6 counts 0
    ok = degree in (z.CS, z.S) and (theirs > fastest or mine <= theirs)
    if not game.skip("escape"):
        game.emit("escape", success=ok, total=mine, against=theirs)
    return ok


@dataclass(frozen=True, slots=True)
class _Profile:
    """What a creature's stat block says for a fight, read once: its ♠ and ♣, its defence against a
    Special Attack (the better of them), damage resistance, size modifier, and a Damage field."""

    spades: int
    clubs: int
    special: int
    dr: int
    scale: Fraction | int
    damage: int | None

    @classmethod
    def read(cls, game: Game, foe: Foe) -> _Profile:
        """The profile of a creature's stat block: everything in it comes from the block's stats alone
        (:func:`foe_stat`), so it is worked out once per block and kept while the block is."""
        block = game.block(foe.creature)
        stats = None if block is None else block["stats"]
        found = _PROFILES.get(id(stats))
        if found is not None and found[0] is stats:
            return found[1]
        profile = cls.reading(game, foe)
        if len(_PROFILES) >= _STAT_MEMO_MOST:
            _PROFILES.clear()
        _PROFILES[id(stats)] = (stats, profile)
        return profile

    @classmethod
    def reading(cls, game: Game, foe: Foe) -> _Profile:
        """:meth:`read`, from the block itself."""
        spades, clubs = suit(game, foe, "spades"), suit(game, foe, "clubs")
        scale = size_of(game, foe)[1]
        fixed = foe_stat(game, foe, "damage", "dmg", default=-1)
        return cls(spades, clubs, max(spades, clubs), foe_stat(game, foe, "dr", "armor", "armour", default=0),
                   scale.numerator if scale.denominator == 1 else scale, fixed if fixed >= 0 else None)


#: :meth:`_Profile.read` per stat block (its ``stats``, by id; None: no block): the stats and the profile.
_PROFILES: dict[int, tuple[object, _Profile]] = {}


@dataclass(frozen=True, slots=True)
class _Kit:
    """What the adventurer brings to a fight, read once when it starts: nothing in a fight changes the
    adventurer's items, class or temperament (blows change HP, ♥ and chips, which are read live).
    ``weapons``: those to attack with (else bare hands); ``best``: the heaviest of them (a readied attack,
    a Disarm); ``stance_weapon``: the damage the stance question counts; ``pairs``: the two-weapon pairs
    a Fighter or Rogue may use; ``armour`` and ``guard``: :func:`resistance` and :func:`shield`;
    ``weight``: the halves of the damage taken the stance question weighs (:func:`careful`)."""

    klass: str
    weapons: tuple[Item, ...]
    best: Item
    stance_weapon: int
    pairs: tuple[tuple[tuple[str, int], tuple[str, int]], ...]
    armour: int
    guard: int
    weight: int

    @classmethod
    def read(cls, game: Game) -> _Kit:
        """:meth:`reading`, once per what it reads: each item's name, kind, quantity, slot and defense, the
        notes (the class) and the temperament."""
        pc = game.pc
        key = (tuple([(i.name, i.kind, i.quantity, i.slot, i.defense) for i in pc.items]), tuple(pc.notes),
               careful(game))
        found = _KITS.get(key)
        if found is None:
            if len(_KITS) >= _KITS_MOST:
                _KITS.clear()
            found = _KITS[key] = cls.reading(game)
        return found

    @classmethod
    def reading(cls, game: Game) -> _Kit:
        """The kit from the adventurer's items. A weapon is kept by its name alone (a blow reads nothing
        else of it), so a kit is the same for every adventurer who carries the same."""
        from dtc.systems.zilch.play import class_of

        pc = game.pc
        klass = class_of(pc)
        weapons = [Item(i.name, "weapon") for i in pc.items if i.kind == "weapon" and i.quantity > 0] or [UNARMED]
        stance_weapon = max((weapon_damage(i) for i in pc.items if i.kind == "weapon" and i.quantity), default=1)
        pairs = two_weapon_pairs(pc.items) if klass in ("Fighter", "Rogue") else []
        return cls(klass, tuple(weapons), max(weapons, key=weapon_damage), stance_weapon, tuple(pairs),
                   resistance(game), shield(game), 3 if careful(game) else 1)


#: :meth:`_Kit.read`'s kits by what they read.
_KITS: dict[tuple[object, ...], _Kit] = {}
_KITS_MOST = 1024


class _Round:
    """What is known in a round: each foe's stance and tile, which tiles are still unseen, and an
    attack the adventurer readied (seed, *Ready*): the foe it waits for, its total, the weapon.
    ``profiles``: the creatures' stat blocks as read so far this fight, shared by its rounds; ``kit``:
    the adventurer's, read once a fight (:meth:`kit_of`)."""

    def __init__(self, pile: dom.Pile, profiles: dict[str | None, _Profile] | None = None,
                 kit: _Kit | None = None) -> None:
        self.pile = pile
        self.stance: dict[int, str] = {}
        self.tile: dict[int, dom.Domino | None] = {}
        self.shown: set[int] = set()
        self.ready: tuple[int, int, Item] | None = None
        self.profiles: dict[str | None, _Profile] = {} if profiles is None else profiles
        self.kit = kit

    def kit_of(self, game: Game) -> _Kit:
        """The adventurer's kit for this fight (read now when the fight did not pass it)."""
        kit = self.kit
        if kit is None:
            kit = self.kit = _Kit.read(game)
        return kit

    def profile(self, game: Game, foe: Foe) -> _Profile:
        found = self.profiles.get(foe.creature)
        if found is None:
            found = self.profiles[foe.creature] = _Profile.read(game, foe)
        return found

    def unseen(self) -> list[dom.Domino]:
        hidden = [t for k, t in self.tile.items() if k not in self.shown and t is not None]
        return self.pile.tiles + hidden


def fight(rules: Zilch, game: Game, foes: list[Foe], *, surprised: bool = False) -> str:
    if not game.skip("fight"):
        game.emit("fight", foes=[f.brief() for f in foes], surprised=surprised)
    for text in dict.fromkeys((f.creature, f.special) for f in foes if f.special):
        game.emit("special", creature=text[0], text=text[1])
    game.clock("combat")
    size_up(game, foes)
    pile = dom.Pile.shuffled(game.dice)
    pc = game.pc
    profiles: dict[str | None, _Profile] = {}
    kit = _Kit.read(game)
    mine = pc.score("♠") + game.dice.die(6)
    best = max(_Round(pile, profiles).profile(game, f).spades for f in foes)
    theirs = best + game.dice.die(6)
    pc_first = mine > theirs or (mine == theirs and pc.score("♠") >= best)
    rnd = 0
    readied: tuple[int, int, Item] | None = None  # an attack readied last round, still waiting
    while any(f.active for f in foes):
        rnd += 1
        if rnd > MAX_ROUNDS:
            game.emit("fight_end", result="stalemate")
            return FLED
        active = [f for f in foes if f.active]
        pile.ensure(len(active) + 1, game.dice)
        known = _Round(pile, profiles, kit)
        known.ready = readied
        for n, f in enumerate(foes):
            if f.active:
                known.stance[n] = dom.CAUTIOUS if f.hp * 2 <= f.max_hp else dom.BOLD
                known.tile[n] = pile.draw(game.dice)
        if rnd == 1 and surprised:
            game.emit("round", round=rnd, surprised=True)
            _foes_act(rules, game, foes, known, None, dom.RECKLESS)
            if _out_cold(game):
                return OVER
            continue
        stance = _stance(game, foes, known)
        tile = pile.draw(game.dice)
        if not game.skip("round"):
            game.emit("round", round=rnd, initiative=mine, rolls=[], enemy_initiative=theirs, stance=stance,
                      domino=list(tile))
        if not pc_first:
            _foes_act(rules, game, foes, known, tile, stance)
            if _out_cold(game):
                return OVER
            if not any(f.active for f in foes):
                break
        known.ready = None  # a readied attack lasts until your next turn
        if stance != dom.GUARDED:
            result = _your_turn(rules, game, foes, known, tile, stance)
            if result == FLED:
                game.emit("fight_end", result="fled")
                return FLED
        if pc_first and any(f.active for f in foes):
            _foes_act(rules, game, foes, known, tile, stance)
            if _out_cold(game):
                return OVER
        readied = known.ready
    game.emit("fight_end", result="won")
    return WON


def _out_cold(game: Game) -> bool:
    """The adventurer fell this round: the creatures leave the body for dead."""
    if not game.state.rules.get("unconscious"):
        return False
    game.emit("manual", text="The creatures leave you for dead.")
    game.emit("fight_end", result="left for dead")
    return True


def left_for_dead(rules: Zilch, game: Game, foes: list[Foe], text: str) -> str:
    """Creatures find the adventurer unconscious: one round of blows on the Defenseless body."""
    game.emit("fight", foes=[f.brief() for f in foes], surprised=True)
    game.emit("manual", text=f"{text} find you unconscious.")
    size_up(game, foes)
    pile = dom.Pile.shuffled(game.dice)
    known = _Round(pile)
    for n in range(len(foes)):
        known.stance[n] = dom.BOLD
        known.tile[n] = pile.draw(game.dice)
    game.emit("round", round=1, surprised=True)
    rules_state = game.state.rules
    rules_state["fighting"] = True
    try:
        _foes_act(rules, game, foes, known, None, dom.RECKLESS)
    finally:
        rules_state["fighting"] = False
    game.emit("manual", text="They leave you for dead.")
    game.emit("fight_end", result="left for dead")
    return OVER


def _rounded(part: int, whole: int) -> int:
    """``round(Fraction(part, whole))`` for a positive ``whole``: to the nearest, a half to the even."""
    low, rest = divmod(part, whole)
    twice = 2 * rest
    return low + (1 if twice > whole or (twice == whole and low % 2) else 0)


def _share(part: int, total: int) -> str:
    """``percent(Fraction(part, total))`` without the fraction: ``float`` of a fraction is the quotient
    of its terms correctly rounded, which ``part / total`` is too."""
    return f"{part / total * 100:.1f}%"


def _stance(game: Game, foes: list[Foe], known: _Round) -> str:
    """Ask for the adventurer's stance, the options best first: expected damage dealt less (careful)
    1½ or (bold) ½ times the damage expected from every creature, exactly. Every count is over the
    same unseen tiles with both tiles drawn, so over one total: its numerators are compared as they are."""
    pc = game.pc
    active = [n for n, f in enumerate(foes) if f.active]
    target = min(active, key=lambda n: (foes[n].hp, n))
    unseen = dom.Unseen(known.unseen())
    kit = known.kit_of(game)
    # What no stance changes, read once: the suits, the armour, each creature's attack.
    spades = pc.score("♠")
    aim = foes[target]
    them_stance = known.stance[target]
    profile = known.profile
    them = profile(game, aim)
    # Creatures alike (the same block, stance and attack) strike alike: each kind is counted once.
    attackers: Attackers = {}
    stances = known.stance
    for n in active:
        foe = foes[n]
        block = profile(game, foe)
        kind = (block.clubs, stances[n], block.scale, _mean_damage(block, foe))
        attackers[kind] = attackers.get(kind, 0) + 1
    numbers = _stance_numbers(unseen, them_stance, pc.score("♣") - them.spades, kit.stance_weapon, them.dr,
                              spades, kit.guard, kit.armour, attackers)
    weight = kit.weight  # halves
    # A player that answers from the number of options alone (the random policy, when no one
    # reads the decision) picks a place in the order: the scores give it, the words are not made.
    picked = game.pick(STANCE, len(numbers))
    if picked is not None:
        order = sorted((weight * taken - 2 * dealt, n) for n, (dealt, _, taken, _, _) in enumerate(numbers))
        return dom.STANCES[order[picked][1]]
    name = aim.name
    rows = []
    for n, (dealt, hits, taken, worst, total) in enumerate(numbers):
        # _share's words for hits and worst: the float of the quotient, as percent(Fraction) writes it
        detail = (f"you hit {name} {hits / total * 100:.1f}%, {dealt / total:.1f} damage expected; "
                  f"hit on you {worst / total * 100:.1f}%, {taken / total:.1f} damage expected")
        rows.append((weight * taken - 2 * dealt, n, detail))
    rows.sort()  # the greatest score first, then the order of dom.STANCES (the sort is stable on n)
    q = Question(STANCE, "Your stance this round (the creatures: " + ", ".join(
        [f"{foes[n].name} {stances[n]}" for n in active]) + ")",
        tuple([Option(_STANCE_KEYS[n], _STANCE_LABELS[n], detail) for _, n, detail in rows]))
    return _STANCE_OF_KEY[game.ask(q).key]


_STANCE_KEYS = tuple(f"stance:{s}" for s in dom.STANCES)
_STANCE_LABELS = tuple(dom.STANCE_TEXT[s] for s in dom.STANCES)
_STANCE_OF_KEY = {f"stance:{s}": s for s in dom.STANCES}


#: The creatures that attack this round, by kind: (♣, stance, size modifier, mean damage) -> how many.
Attackers = dict[tuple[int, str, Fraction | int, int], int]
#: Per stance (in ``dom.STANCES`` order): (your damage summed, your ways that hit, their damage summed, the
#: most ways one kind of them hits, the total the sums are over).
StanceNumbers = list[tuple[int, int, int, int, int]]


def _stance_numbers(unseen: dom.Unseen, them_stance: str, base: int, weapon: int, dr: int, spades: int,
                    guard: int, armour: int, attackers: Attackers) -> StanceNumbers:
    """The counts behind the stance question: your attack on the target (``base``: your ♣ less its ♠)
    in each stance, and every kind of attacker's blow on you. One reading of the unseen tiles per stance
    the attackers stand in, and one multiplication per question for all the stances
    (:func:`dom.group_odds`); when a product could overflow (or the tiles are not a set of the set's),
    :func:`_stance_numbers_by_one`, the same counts."""
    kinds = list(attackers.items())
    read = unseen.exchange_packed(them_stance, kinds[0][0][1])
    if read is None:
        return _stance_numbers_by_one(unseen, them_stance, base, weapon, dr, spades, guard, armour, attackers)
    mine, theirs, total = read
    yours = dom.group_odds(mine, 3, total, base, weapon, dr)
    if yours is None:
        return _stance_numbers_by_one(unseen, them_stance, base, weapon, dr, spades, guard, armour, attackers)
    blocks = {kinds[0][0][1]: theirs}  # the creatures' blows on you, by their stance
    taken = [0, 0, 0, 0]
    worst = [0, 0, 0, 0]
    for (foe_clubs, foe_stance, scale, damage), alike in kinds:
        theirs = blocks.get(foe_stance, -1)
        if theirs < 0:
            other = unseen.exchange_packed(them_stance, foe_stance)
            if other is None:
                return _stance_numbers_by_one(unseen, them_stance, base, weapon, dr, spades, guard, armour,
                                              attackers)
            theirs = blocks[foe_stance] = other[1]
        blows = dom.group_odds(theirs, 4, total, foe_clubs - spades, damage, armour, scale)
        if guard and blows is not None:
            guarded = dom.group_odds(theirs >> dom.BLOCK_BITS * 3, 1, total, foe_clubs - spades - guard, damage,
                                     armour, scale)
            blows = None if guarded is None else [*blows[:3], guarded[0]]
        if blows is None:
            return _stance_numbers_by_one(unseen, them_stance, base, weapon, dr, spades, guard, armour, attackers)
        for n, (d, h) in enumerate(blows):
            taken[n] += d * alike
            if h > worst[n]:
                worst[n] = h
    return [(*yours[n], taken[n], worst[n], total) if n < 3 else (0, 0, taken[n], worst[n], total)
            for n in range(4)]


def _stance_numbers_by_one(unseen: dom.Unseen, them_stance: str, base: int, weapon: int, dr: int, spades: int,
                           guard: int, armour: int, attackers: Attackers) -> StanceNumbers:
    """:func:`_stance_numbers` one blow at a time, each counted by :meth:`dom.Unseen.ways`."""
    counted = unseen.exchange(them_stance, next(iter(attackers))[1])  # every count of the round at once
    out = []
    for stance in dom.STANCES:
        dealt = hits = 0
        total = 1
        if stance != dom.GUARDED:
            ways = counted.get((stance, them_stance)) or unseen.ways(stance, None, False, them_stance, None, False)
            dealt, hits, total = dom.odds(ways, base, weapon, dr)
        defence = spades + (guard if stance == dom.GUARDED else 0)
        taken = worst = 0
        for (foe_clubs, foe_stance, scale, damage), alike in attackers.items():
            ways = counted.get((foe_stance, stance)) or unseen.ways(foe_stance, None, False, stance, None, False)
            d, h, total = dom.odds(ways, foe_clubs - defence, damage, armour, scale)
            taken += d * alike
            worst = max(worst, h)
        out.append((dealt, hits, taken, worst, total))
    return out


def _their_defence(profile: _Profile, tile: dom.Domino | None, stance: str, *, special: bool = False) -> int:
    """A creature's defence: ♠ + defensive pips; against a Special Attack, ♣ instead when that is
    higher (seed, *Special Attack*)."""
    return (profile.special if special else profile.spades) + dom.pips(tile, stance)[1]


_ESCAPE_TAGS = frozenset({"escape"})
_NO_TILE: dom.Domino = (0, 0)  # a tile of no pips: one whose pips are already counted


def _your_turn(rules: Zilch, game: Game, foes: list[Foe], known: _Round, tile: dom.Domino, stance: str) -> str:
    pc = game.pc
    active = [n for n, f in enumerate(foes) if f.active]
    kit = known.kit_of(game)
    weapons = kit.weapons
    offensive = dom.pips(tile, stance)[0]
    offence = pc.score("♣") + offensive
    counted = dom.Unseen(known.unseen())
    target = min(active, key=lambda n: (foes[n].hp, n))
    profile = known.profile(game, foes[target])
    clubs = pc.score("♣")
    base = offence - profile.spades  # the margin before the target's tile
    # Your tile is face up and its pips are in ``offence``: a known tile of no pips.
    ways = counted.ways(dom.BOLD, _NO_TILE, True, known.stance[target], known.tile[target], target in known.shown)
    pairs = kit.pairs if offensive >= 2 else ()
    held = [n for n in active if holds_weapon(foes[n])]
    # A player that answers from the number of options alone (the random policy, when no one
    # reads the decision) picks one of their keys, in order, without the options being made. The
    # keys are those of the options below, in their order (tests/test_simulate_caches.py plays
    # seeded runs both ways and tests/test_zilch_counted_odds.py rebuilds the options by hand).
    picked = game.pick(COMBAT, len(weapons) + len(pairs) + bool(held) + (stance == dom.CAUTIOUS) + 1)
    if picked is not None:
        keys = [f"attack:{n}" for n in range(len(weapons))] + [f"two:{n}" for n in range(len(pairs))]
        keys += ["disarm"] if held else []
        keys += ["ready"] if stance == dom.CAUTIOUS else []
        key = (*keys, "escape")[picked]
    else:
        opts = [_attack_option(n, w.name, weapon_damage(w), clubs, offensive, base, profile.dr, ways)
                for n, w in enumerate(weapons)]
        for n, (first, second) in enumerate(pairs):
            opts.append(_pair_option(n, first, second, clubs, offensive, profile.spades, profile.dr, ways))
        if held:
            aim = min(held, key=lambda n: (foes[n].hp, n))
            guard = known.profile(game, foes[aim])
            opts.append(_disarm_option(foes[aim].name, foes[aim].attacks[0][0], offence - guard.special,
                                       counted.ways(dom.BOLD, _NO_TILE, True, known.stance[aim], known.tile[aim],
                                                    aim in known.shown)))
        if stance == dom.CAUTIOUS:
            opts.append(_ready_option(pc.score("♣"), offensive))
        fastest = max((known.profile(game, f).spades for f in foes if f.active), default=0)
        opts.append(_escape_option(pc.score("♠"), fastest))
        key = game.ask(Question(COMBAT, "Your move", tuple(opts),
                                {"foes": [foes[n].brief() for n in active], "hp": pc.hp})).key
    if key == "escape":
        return FLED if escape(rules, game, foes) else ""
    best = kit.best
    if key == "ready":
        known.ready = (_pick(game, foes, active, "Wait for which creature's attack?"), offence, best)
        return ""
    if key == "disarm":
        _strike(game, foes, known, _pick(game, foes, held, "Disarm which?"), offence, best, special=True)
        return ""
    if key.startswith("two:"):
        first, second = pairs[int(key.split(":")[1])]
        split = _split_by_ways(clubs, offensive, first[1], second[1], profile.spades, profile.dr, ways)[0]
        if offensive > 2:
            split = int(game.ask(Question(SPLIT, f"Split your {offensive} offensive pips: how many for "
                                                 f"{first[0]}?", _split_options(offensive, split, first, second)))
                        .key.split(":")[1])
        for (name, damage), share in ((first, split), (second, offensive - split)):
            alive = [n for n, f in enumerate(foes) if f.active]
            if not alive:
                break
            _strike(game, foes, known, _pick(game, foes, alive, "Attack which?"), pc.score("♣") + share,
                    _weapon_named(name), damage=damage)
        return ""
    weapon = weapons[int(key.split(":")[1])]
    _strike(game, foes, known, _pick(game, foes, active, "Attack which?"), offence, weapon)
    return ""


@lru_cache(maxsize=256)
def _weapon_named(name: str) -> Item:
    """A weapon by its name alone, as a blow of two-weapon fighting names it (:func:`_strike` reads only
    its name); made once per name."""
    return Item(name, "weapon")


#: ``Fraction(part, whole)``, made once per pair (the chance of an attack option).
_fraction = lru_cache(maxsize=8192)(Fraction)


@lru_cache(maxsize=8192)
def _attack_option(n: int, name: str, damage: int, clubs: int, offensive: int, base: int, dr: int,
                   ways: dom.Ways) -> Option:
    """The option to attack with a weapon, made once per question: ``base`` is your ♣ and offensive pips
    less the target's ♠, ``ways`` the counts of its defensive pips (:meth:`dom.Unseen.ways`)."""
    dealt, damaging, total = dom.odds(ways, base, damage, dr, second=dom.HARM)
    per_hit = _rounded(dealt, damaging) if damaging else 0  # the mean over the chance
    detail = (f"♣ {clubs} + {offensive} pips = {clubs + offensive}: damages {_share(damaging, total)}, "
              f"{per_hit} damage a hit on average")
    return Option(f"attack:{n}", f"Attack with {name}", detail, chance=_fraction(damaging, total))


@lru_cache(maxsize=8192)
def _pair_option(n: int, first: tuple[str, int], second: tuple[str, int], clubs: int, offensive: int, spades: int,
                 dr: int, ways: dom.Ways) -> Option:
    """The option to fight with two weapons, made once per question (the best split's odds)."""
    split, harm, dealt, whole = _split_by_ways(clubs, offensive, first[1], second[1], spades, dr, ways)
    per_hit = _rounded(dealt, harm) if harm else 0  # round(mean / chance): the damage over the ways that harm
    label = (f"Two weapons: {DOUBLE[first[0].lower()]}" if first[0] == second[0] and first[0].lower() in DOUBLE
             else f"Two weapons: {first[0]} and {second[0]}")
    detail = (f"{offensive} pips split {split}+{offensive - split}: damages {_share(harm, whole)}, "
              f"{per_hit} damage a hit on average")
    return Option(f"two:{n}", label, detail, chance=_fraction(harm, whole))


@lru_cache(maxsize=4096)
def _disarm_option(name: str, weapon: str, base: int, ways: dom.Ways) -> Option:
    """The option to disarm a creature, made once per question: ``base`` is your ♣ and offensive pips
    less its better of ♠ and ♣, ``ways`` the counts of its defensive pips."""
    _, hits, total = dom.odds(ways, base, 0, 0)
    return Option("disarm", f"Disarm {name}: no damage; it drops its {weapon}",
                  f"against its better of ♠ and ♣: succeeds {percent(Fraction(hits, total))}")


@lru_cache(maxsize=1024)
def _ready_option(clubs: int, offensive: int) -> Option:
    return Option("ready", "Ready an attack: strike just before a creature attacks you",
                  f"♣ {clubs} + {offensive} pips = {clubs + offensive}, once its tile is face up")


@lru_cache(maxsize=1024)
def _escape_option(mine: int, fastest: int) -> Option:
    return Option("escape", "Flee", f"♠ contest {percent(_escape_odds(mine, fastest))}", tags=_ESCAPE_TAGS)


def _pick(game: Game, foes: list[Foe], choices: list[int], prompt: str) -> int:
    """The creature a blow is aimed at: asked when there is more than one (else the only one)."""
    if len(choices) == 1:
        return choices[0]
    picked = game.pick(TARGET, len(choices))  # (a player that answers from their number alone)
    if picked is not None:
        return choices[picked]
    tq = Question(TARGET, prompt, tuple(
        Option(f"foe:{n}", foes[n].name, f"{foes[n].hp}/{foes[n].max_hp} HP") for n in choices))
    return int(game.ask(tq).key.split(":")[1])


def _best_split(clubs: int, pips: int, first: int, second: int, them: dom.Side,
                guards: dom.Ways) -> tuple[int, Fraction, Fraction]:
    """The split of offensive pips (at least 1 each) with the most damage to expect against one target:
    (pips for the first weapon, P(at least one blow damages), expected damage), exactly over the target's
    tile (known, or one of the unseen: the same tile meets both blows). ``guards``: the ways of a blow
    of no pips against its tile, which count its defensive pips (margin -y: y pips)."""
    split, harm, dealt, whole = _split_by_ways(clubs, pips, first, second, them.suit + them.extra, them.resistance,
                                               guards)
    return split, Fraction(harm, whole), Fraction(dealt, whole)


@lru_cache(maxsize=8192)
def _split_by_ways(clubs: int, pips: int, first: int, second: int, base: int, armour: int,
                   guards: dom.Ways) -> tuple[int, int, int, int]:
    """:func:`_best_split` once per question (``base``: the target's ♠ and extra pips), counted:
    (pips for the first weapon, tiles where a blow harms, damage summed over the tiles, tiles)."""
    low = guards[0]
    return _split_counts(clubs, pips, first, second, base, armour,
                         tuple((-(low + n), count) for n, count in enumerate(dom.counts(guards)) if count))


def _split_for(clubs: int, pips: int, first: int, second: int, base: int, armour: int,
               guards: tuple[tuple[int, int], ...]) -> tuple[int, Fraction, Fraction]:
    """:func:`_best_split` over the target's defensive pips and how many of its possible tiles give each."""
    split, harm, dealt, whole = _split_counts(clubs, pips, first, second, base, armour, guards)
    return split, Fraction(harm, whole), Fraction(dealt, whole)


@lru_cache(maxsize=4096)
def _split_counts(clubs: int, pips: int, first: int, second: int, base: int, armour: int,
                  guards: tuple[tuple[int, int], ...]) -> tuple[int, int, int, int]:
    """:func:`_split_for` in integers: (pips for the first weapon, tiles where a blow harms, damage summed
    over the tiles, tiles)."""
    whole = sum(n for _, n in guards)
    step = dom.MARGIN_STEP
    best: tuple[int, int, int] | None = None  # (damage summed over the tiles, share, tiles where a blow harms)
    for share in range(1, pips):
        dealt = any_hit = 0
        one, two = clubs + share, clubs + pips - share
        for guard, count in guards:
            defence = base + guard
            # dom.blow at size 1: a miss 0, else the weapon + 1 a 5 of margin, less armour
            a = max(0, first + (one - defence) // step - armour) if one >= defence else 0
            b = max(0, second + (two - defence) // step - armour) if two >= defence else 0
            dealt += (a + b) * count
            any_hit += count if a or b else 0
        if best is None or dealt > best[0]:  # one denominator: the greater sum, the greater mean
            best = (dealt, share, any_hit)
    assert best is not None
    return best[1], best[2], best[0], whole


@lru_cache(maxsize=1024)
def _split_options(pips: int, best: int, first: tuple[str, int], second: tuple[str, int]) -> tuple[Option, ...]:
    """The ways to split offensive pips between two weapons, the best first (made once per question)."""
    order = [best, *[k for k in range(1, pips) if k != best]]
    return tuple(Option(f"split:{k}", f"{k} for {first[0]}, {pips - k} for {second[0]}",
                        "the most damage to expect" if k == best else "") for k in order)


def _strike(game: Game, foes: list[Foe], known: _Round, target: int, offence: int, weapon: Item, *,
            damage: int | None = None, special: bool = False, why: str = "") -> None:
    """One attack of the adventurer's: the target turns its tile up, a Fighter may spend ♣ chips, and a
    hit deals damage — or, for a Special Attack (a Disarm), none: the creature drops its weapon."""
    foe = foes[target]
    known.shown.add(target)
    profile = known.profile(game, foe)
    defence = _their_defence(profile, known.tile[target], known.stance[target], special=special)
    dr = 0 if special else profile.dr
    weapon_dmg = weapon_damage(weapon) if damage is None else damage
    spent = _fighter_chips(game, foe, offence, defence, weapon_dmg, dr, special=special,
                           klass=known.kit_of(game).klass)
    total = offence + spent
    hit = total >= defence
    dealt = 0 if special else dom.blow(total, defence, weapon_dmg, dr)
    if special:
        dropped = foe.attacks[0][0]
        game.emit("attack", attacker="you", target=foe.name, weapon=f"Disarm ({weapon.name})" + why, rolls=[],
                  total=total, needed=defence, hit=hit, damage=0, chips=spent, special="disarm", dropped=dropped)
        if hit:  # it fights on with bare hands: 1 damage, temporary
            foe.attacks = [(DISARMED, "1"), *foe.attacks[1:]]
        return
    if not game.skip("attack"):
        game.emit("attack", attacker="you", target=foe.name, weapon=weapon.name + why, rolls=[], total=total,
                  needed=defence, hit=hit, damage=dealt, chips=spent)
    if dealt:
        foe.hp -= dealt
        if foe.hp <= 0:
            game.emit("defeated", name=foe.name)


def _fighter_chips(game: Game, foe: Foe, attack: int, defence: int, weapon: int, dr: int, *,
                   special: bool = False, klass: str | None = None) -> int:
    """A Fighter spends ♣ chips to add offensive pips to one attack (seed, *Clubs*): enough to hit, or to
    reach a further +1 damage (every 5 points of margin). Offered once both tiles are face up; the first
    option is the cheapest that fells the creature, else the cheapest hit, else keeping the chips.
    ``klass``: the adventurer's class when the caller knows it."""
    pc = game.pc
    chips = pc.stats.get("chips", 0)
    if chips <= 0:
        return 0
    if klass is None:
        from dtc.systems.zilch.play import class_of

        klass = class_of(pc)
    if klass != "Fighter":
        return 0
    now = 0 if attack < defence or special else dom.blow(attack, defence, weapon, dr)
    offers: list[tuple[int, int, str]] = []  # (cost, damage, label)
    if attack < defence and defence - attack <= chips:
        d = 0 if special else dom.blow(defence, defence, weapon, dr)
        offers.append((defence - attack, d, "disarm" if special else f"hit {foe.name} for {d}"))
    if not special:
        step = defence
        while step - attack <= chips:
            cost = step - attack
            d = dom.blow(step, defence, weapon, dr)
            if cost > 0 and d > max([now, *(o[1] for o in offers)]):
                offers.append((cost, d, f"hit {foe.name} for {d}"))
            step += dom.MARGIN_STEP
    if not offers:
        return 0
    fells = [o for o in offers if o[1] >= foe.hp > now and not special]
    first = fells[0] if fells else offers[0] if attack < defence else None
    options = [Option(f"spend:{c}", f"Spend {c} ♣ chip{'s' if c != 1 else ''} to {why}") for c, _, why in offers]
    keep = Option("keep", "Keep your chips")
    if first is None:
        ordered = [keep, *options]
    else:
        chosen = options[offers.index(first)]
        ordered = [chosen, keep, *(o for o in options if o is not chosen)]
    return _spend(game, tuple(ordered), "♣")


def _rogue_chips(game: Game, foe: Foe, attack: int, defence: int, damage: int, blow: Callable[[int], int],
                 name: str, klass: str | None = None) -> int:
    """A Rogue spends ♠ chips to add defensive pips against one attack (seed, *Spades*): enough to be
    missed, or to bring the margin under a 5-point step (1 damage less). The first option is the dodge,
    else the cheapest blow that leaves you standing, else keeping the chips. ``klass``: the adventurer's
    class when the caller knows it."""
    pc = game.pc
    chips = pc.stats.get("chips", 0)
    if attack < defence or damage <= 0 or chips <= 0:
        return 0
    if klass is None:
        from dtc.systems.zilch.play import class_of

        klass = class_of(pc)
    if klass != "Rogue":
        return 0
    offers: list[tuple[int, int, str]] = []
    dodge = attack - defence + 1
    if dodge <= chips:
        offers.append((dodge, 0, f"dodge {foe.name}'s {name}"))
    margin = attack - defence
    for steps in range(margin // dom.MARGIN_STEP - 1, -1, -1):
        cost = margin - (dom.MARGIN_STEP * (steps + 1) - 1)
        d = blow(defence + cost)
        if 0 < cost <= chips and d < damage and cost < dodge:
            offers.append((cost, d, f"take {d} instead of {damage} from {foe.name}'s {name}"))
    if not offers:
        return 0
    offers.sort()
    options = [Option(f"spend:{c}", f"Spend {c} ♠ chip{'s' if c != 1 else ''} to {why}") for c, _, why in offers]
    keep = Option("keep", "Keep your chips")
    standing = [n for n, o in enumerate(offers) if o[1] < pc.hp]
    if offers[-1][1] == 0:  # the dodge, the dearest
        first: int | None = len(offers) - 1
    else:
        first = standing[0] if standing and damage >= pc.hp else None
    if first is None:
        return _spend(game, (keep, *options), "♠")
    return _spend(game, (options[first], keep, *(o for n, o in enumerate(options) if n != first)), "♠")


def _spend(game: Game, options: tuple[Option, ...], suit_symbol: str) -> int:
    key = game.ask(Question(CHIPS, f"Spend {suit_symbol} chips? ({game.pc.stats.get('chips', 0)} left)",
                            options)).key
    if not key.startswith("spend:"):
        return 0
    cost = int(key.split(":")[1])
    game.pc.stats["chips"] = game.pc.stats.get("chips", 0) - cost
    return cost


def _foes_act(rules: Zilch, game: Game, foes: list[Foe], known: _Round, tile: dom.Domino | None,
              stance: str) -> None:
    pc = game.pc
    kit = known.kit_of(game)
    armour = kit.armour
    for n, foe in enumerate(foes):
        if not foe.active:
            continue
        known.shown.add(n)
        ready = known.ready is not None and known.ready[0] == n and not game.state.rules.get("unconscious")
        if ready and known.ready is not None:  # seed, *Ready*: just before its attack
            _, offence, weapon = known.ready
            known.ready = None
            _strike(game, foes, known, n, offence, weapon, why=" (readied)")
            if foe.hp <= 0:  # felled before it could strike
                continue
        name = foe.attacks[0][0] if foe.attacks else "attack"
        profile = known.profile(game, foe)
        attack = profile.clubs + dom.pips(known.tile[n], known.stance[n])[0]
        out = game.state.rules.get("unconscious")  # Defenseless: no domino, no shield
        defence = (pc.score("♠") + dom.pips(tile, stance)[1] + (kit.guard if stance == dom.GUARDED else 0)
                   if tile is not None and not out else pc.score("♠"))
        scale = profile.scale
        spent = damage = 0
        if attack >= defence:  # dice only for a blow that lands
            base = _damage_roll(game, profile, foe)
            damage = dom.blow(attack, defence, base, armour, scale)
            if damage > 0 and not out and kit.klass == "Rogue" and pc.stats.get("chips", 0) > 0:

                def strike(against: int, base: int = base, scale: Fraction | int = scale, attack: int = attack) -> int:
                    return dom.blow(attack, against, base, armour, scale) if attack >= against else 0

                spent = _rogue_chips(game, foe, attack, defence, damage, strike, name, kit.klass)
                defence += spent
                damage = strike(defence)
        if not game.skip("attack"):
            game.emit("attack", attacker=foe.name, target="you", weapon=name, rolls=[], total=attack,
                      needed=defence, hit=attack >= defence, damage=damage, chips=spent)
        if damage:
            rules.hurt(game, damage, f"{foe.name}'s {name}", temporary=unarmed_attack(name))
