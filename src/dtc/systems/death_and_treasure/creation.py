"""Making an adventurer: 3d6 in order, one optional swap, gear by weight, HP and Defense.

The steps follow the seed's "Making an Adventurer". Decisions come from a :class:`Chooser`: the
terminal asks a person; :class:`RandomChooser` picks a sensible kit with the run's dice.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

from dtc.runtime.character import ABILITIES, Character, high_low
from dtc.runtime.core import Chooser
from dtc.runtime.dice import Dice, parse_dice
from dtc.runtime.equipment import ARMOUR, GEAR, HAND, RANGED, WEAPONS, Offer, standard_gear, weight_text

LARGE_SACK = "Sack (large)"
_SYLLABLES = ("bran", "mor", "ela", "tik", "ros", "vel", "dun", "ka", "lis", "orm", "gar", "wen", "tha", "rik")


def roll_abilities(dice: Dice) -> list[int]:
    total = dice.total
    return [total("3d6") for _ in ABILITIES]


_3D6 = parse_dice("3d6")


def hit_points(dice: Dice, con: int) -> int:
    """d8, +1 if CON is above 13 (and -1 below 8, as the ability table says), at least 1."""
    return max(1, dice.die(8) + high_low(con))


def random_name(dice: Dice) -> str:
    parts = [_SYLLABLES[dice.pick(len(_SYLLABLES))] for _ in range(2)]
    return "".join(parts).capitalize()


def make_character(dice: Dice, chooser: Chooser) -> Character:
    rolled = roll_abilities(dice)
    scores = dict(zip(ABILITIES, rolled, strict=True))
    chooser.show("Rolled 3d6 in order: " + "  ".join(f"{a} {scores[a]}" for a in ABILITIES))
    swap = chooser.swap(dict(scores))
    if swap is not None:
        a, b = swap
        scores[a], scores[b] = scores[b], scores[a]
        chooser.show(f"Swapped {a} and {b}: " + "  ".join(f"{x} {scores[x]}" for x in ABILITIES))
    pc = Character(name="", abilities=scores, max_hp=1, hp=1, items=standard_gear(), rolled=rolled, swap=swap)
    _shop(pc, chooser, "weapon", WEAPONS)
    _shop(pc, chooser, "armour", ARMOUR)
    _shop(pc, chooser, "gear", GEAR)
    pc.max_hp = pc.hp = hit_points(dice, scores["CON"])
    if scores["INT"] > 13:
        pc.languages = dice.die(4)
    pc.name = chooser.name(random_name(dice)).strip() or random_name(dice)
    return pc


def _shop(pc: Character, chooser: Chooser, what: str, offers: tuple[Offer, ...]) -> None:
    shown = getattr(chooser, "reads_labels", True)  # the lines and prompt are written only to be read
    while True:
        room = pc.abilities["STR"] - pc.load if shown else 0
        labels = []
        allowed: list[Offer] = []
        slots = {i.slot for i in pc.items}
        held = {i.name.lower() for i in pc.items if i.quantity > 0}  # what pc.find finds
        for offer in offers:
            item = offer.item
            if item.slot and item.slot in slots:
                continue  # one body armour, one shield, one helmet
            if item.kind == "weapon" and item.key in held:
                continue
            allowed.append(offer)
            if shown:
                heavy = offer.load > room
                labels.append(offer.label + ("  (over your limit: every roll twice)" if heavy else ""))
        if not allowed:
            return
        prompt = (f"Choose {what} (load {weight_text(pc.load)} of STR {pc.abilities['STR']}; Enter when done)"
                  if shown else "")
        pick = chooser.pick(what, pc, allowed, labels, prompt)
        if pick is None:
            return
        pc.add(allowed[pick].take())


class RandomChooser:
    """A sensible random kit: a weapon for the better of STR and DEX, armour and gear that fit."""

    def __init__(self, dice: Dice) -> None:
        self.dice = dice
        self.mode = HAND
        self.lines: list[str] = []

    def show(self, text: str) -> None:
        self.lines.append(text)

    def swap(self, scores: dict[str, int]) -> tuple[str, str] | None:
        """No swap: the scores stay as rolled, in order, so the adventurers ``dtc simulate`` and
        ``dtc play --auto`` make are the ones ``dtc odds`` counts (3d6 for each ability, exactly).
        The better of STR and DEX decides how it fights (hand-to-hand or ranged)."""
        self.mode = HAND if scores["STR"] >= scores["DEX"] else RANGED
        return None

    def name(self, suggestion: str) -> str:
        return suggestion

    def choose(self, prompt: str, options: list[str]) -> int:
        return self.dice.pick(len(options))

    #: The picks below never read the shop's lines or its prompt: the shop need not write them.
    reads_labels = False

    def pick(self, stage: str, pc: Character, offers: list[Offer], labels: list[str], prompt: str) -> int | None:
        limit = Fraction(pc.abilities["STR"])
        room = limit - pc.load
        # o.load <= room, compared as integers (denominators are positive): the shop asks it of every offer
        top, bottom = room.numerator, room.denominator
        fits = [n for n, o in enumerate(offers) if o.load.numerator * bottom <= top * o.load.denominator]
        bought = [i for i in pc.items if not i.standard and i.kind == stage]
        if stage == "weapon":
            wanted = [n for n in fits if self.mode in offers[n].item.ranges]
            if bought or not wanted:
                return None
            light = [n for n in wanted if offers[n].item.weight <= max(Fraction(1), limit / 3)]
            pool = light or wanted
        elif stage == "armour":
            if len(bought) >= 2 or pc.load >= limit * Fraction(3, 4):
                return None
            pool = fits
        else:
            if bought or self.dice.random() < 0.5:
                return None
            pool = [n for n in fits if pc.find(offers[n].item.name) is None]
        return pool[self.dice.pick(len(pool))] if pool else None


def _quarters(offers: tuple[Offer, ...]) -> tuple[int, ...]:
    """Each offer's load in quarters of a weight unit (every load on the lists is a whole number of them)."""
    out = []
    for o in offers:
        q = o.load * 4
        assert q.denominator == 1, o.label
        out.append(int(q))
    return tuple(out)


_WEAPON_Q, _ARMOUR_Q, _GEAR_Q = _quarters(WEAPONS), _quarters(ARMOUR), _quarters(GEAR)
#: The least whole number at or above three times each weapon's weight: for a whole number ``m``,
#: ``3 * weight <= m`` exactly when ``m`` reaches it (no fractions multiplied per adventurer).
_WEAPON_LIGHT_AT = tuple(math.ceil(3 * o.item.weight) for o in WEAPONS)
#: What the standard kit holds (``pc.find`` finds it: a shop's gear of the same name is not bought).
_KIT = frozenset(i.name.lower() for i in standard_gear() if i.quantity > 0)


#: Each gear offer's name, lower-cased (what ``found`` holds).
_GEAR_NAMES = tuple(o.item.key for o in GEAR)


@lru_cache(maxsize=64)
def _weapon_pool(strength: int, mode: str) -> tuple[int, ...]:
    """The weapons an adventurer of this STR who fights this way picks among: those that fit and
    suit the mode, the light ones when there are any."""
    limit = 4 * strength
    wanted = [n for n, o in enumerate(WEAPONS) if _WEAPON_Q[n] <= limit and mode in o.item.ranges]
    light = [n for n in wanted if _WEAPON_LIGHT_AT[n] <= max(3, strength)]
    return tuple(light or wanted)


def _random_character(dice: Dice) -> Character:
    """:func:`make_character` with a :class:`RandomChooser`: the same dice drawn in the same order and
    the same adventurer made (the chooser's lines, which nobody reads, are not written). The shops
    are walked in whole quarters of weight instead of fractions (a test holds this to the step by
    step creation over many seeds)."""
    rolled = roll_abilities(dice)
    scores = dict(zip(ABILITIES, rolled, strict=True))
    chooser = RandomChooser(dice)
    swap = chooser.swap(dict(scores))
    if swap is not None:
        a, b = swap
        scores[a], scores[b] = scores[b], scores[a]
    pc = Character(name="", abilities=scores, max_hp=1, hp=1, items=standard_gear(), rolled=rolled, swap=swap)
    strength = scores["STR"]
    limit = 4 * strength
    # Weapons: one, among those that fit and suit the fighting mode (the light ones first).
    pool: tuple[int, ...] | list[int] = _weapon_pool(strength, chooser.mode)
    load = 0
    found = set(_KIT)
    if pool:
        n = pool[dice.pick(len(pool))]
        load += _WEAPON_Q[n]
        found.add(WEAPONS[n].item.key)
        pc.items.append(WEAPONS[n].take())  # a new sheet holds nothing it would merge with
    # Armour: up to two pieces (one a slot), while the load is under three quarters of STR.
    slots: set[str | None] = set()
    bought = 0
    while True:
        allowed = [n for n, o in enumerate(ARMOUR) if not (o.item.slot and o.item.slot in slots)]
        if not allowed or bought >= 2 or load >= 3 * strength:
            break
        pool = [n for n in allowed if _ARMOUR_Q[n] <= limit - load]
        if not pool:
            break
        n = pool[dice.pick(len(pool))]
        load += _ARMOUR_Q[n]
        slots.add(ARMOUR[n].item.slot)
        found.add(ARMOUR[n].item.key)
        bought += 1
        pc.items.append(ARMOUR[n].take())  # a slot of its own: nothing to merge with
    # Gear: on a coin toss, one piece that fits and is not in the kit already.
    if dice.random() >= 0.5:
        pool = [n for n in range(len(GEAR)) if _GEAR_Q[n] <= limit - load and _GEAR_NAMES[n] not in found]
        if pool:
            pc.items.append(GEAR[pool[dice.pick(len(pool))]].take())  # not in the kit: nothing to merge with
    pc.max_hp = pc.hp = hit_points(dice, scores["CON"])
    if scores["INT"] > 13:
        pc.languages = dice.die(4)
    pc.name = random_name(dice).strip() or random_name(dice)
    return pc


def random_character(dice: Dice) -> Character:
    """A random adventurer; it also carries a large sack (weight 0: treasure is carried in sacks)."""
    pc = _random_character(dice)
    if pc.find(LARGE_SACK) is None:
        pc.add(_LARGE_SACK_OFFER.take())
    return pc


_LARGE_SACK_OFFER = next(o for o in GEAR if o.item.name == LARGE_SACK)
