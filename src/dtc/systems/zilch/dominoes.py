"""Zilch's dominoes: the set, the pile a fight draws from, stances, and exact odds of a blow.

Seed: ``zilch.txt``, "Stances" and "Attack". Every round each combatant announces a stance and
draws a domino face down; the stance says which ends are offensive and which defensive pips:

* Reckless — both ends offensive; no defensive pips (Defenseless).
* Bold — the greater end offensive, the lesser defensive.
* Cautious — the lesser end offensive, the greater defensive.
* Guarded — both ends defensive; the only action is to Defend (no attack). A shield adds its DR
  to the defensive pips.

An attack hits when Clubs + offensive pips equal or exceed the target's Spades + defensive pips,
and deals the weapon's damage, +1 for every 5 points of margin, less the target's damage
resistance. The set is a double-six set with the blank-ended tiles removed (21 tiles), as the
full Zilch rules prepare it; a fight shuffles the set once and draws from it, reshuffling every
tile when the pile runs out. Odds are exact for the tiles still in the pile.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from dtc.runtime.dice import Dice

Domino = tuple[int, int]  # (greater end, lesser end)

SET: tuple[Domino, ...] = tuple((a, b) for a in range(1, 7) for b in range(1, a + 1))
RECKLESS, BOLD, CAUTIOUS, GUARDED = "reckless", "bold", "cautious", "guarded"
STANCES = (RECKLESS, BOLD, CAUTIOUS, GUARDED)
STANCE_TEXT = {
    RECKLESS: "Reckless: both ends offensive, no defence",
    BOLD: "Bold: greater end offensive, lesser defensive",
    CAUTIOUS: "Cautious: lesser end offensive, greater defensive",
    GUARDED: "Guarded: both ends defensive (and your shield); no attack",
}
MARGIN_STEP = 5


def pips(tile: Domino | None, stance: str) -> tuple[int, int]:
    """(offensive, defensive) pips of a tile in a stance; no tile (surprised): (0, 0)."""
    if tile is None:
        return 0, 0
    high, low = tile
    return {RECKLESS: (high + low, 0), BOLD: (high, low), CAUTIOUS: (low, high), GUARDED: (0, high + low)}[stance]


def blow(attack: int, defence: int, weapon: int, resistance: int, scale: Fraction | int = 1) -> int:
    """Damage of an attack total against a defence total (0: a miss or all absorbed). ``scale``: the
    attacker's size modifier, on the total before armour, rounded half up (seed, *Size*)."""
    if attack < defence:
        return 0
    total = weapon + (attack - defence) // MARGIN_STEP
    if scale != 1:
        total = math.floor(total * Fraction(scale) + Fraction(1, 2))
    return max(0, total - resistance)


@dataclass(slots=True)
class Pile:
    """The tiles a fight draws from, in the order they will come."""

    tiles: list[Domino] = field(default_factory=list)

    @classmethod
    def shuffled(cls, dice: Dice) -> Pile:
        pile = cls()
        pile.reshuffle(dice)
        return pile

    def reshuffle(self, dice: Dice) -> None:
        tiles = list(SET)
        for i in range(len(tiles) - 1, 0, -1):  # Fisher–Yates with the run's dice
            j = dice.pick(i + 1)
            tiles[i], tiles[j] = tiles[j], tiles[i]
        self.tiles = tiles

    def ensure(self, count: int, dice: Dice) -> None:
        """Reshuffle the whole set when fewer than ``count`` tiles are left for a round."""
        if len(self.tiles) < count:
            self.reshuffle(dice)

    def draw(self, dice: Dice) -> Domino:
        if not self.tiles:
            self.reshuffle(dice)
        return self.tiles.pop()

    def counts(self) -> Counter[Domino]:
        return Counter(self.tiles)


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a blow: the suit it adds, its stance, its tile if known, extra pips, resistance."""

    suit: int
    stance: str
    tile: Domino | None = None
    known: bool = True
    extra: int = 0
    resistance: int = 0
    scale: Fraction = Fraction(1)  # the attacker's size modifier on its damage


Pairs = tuple[list[tuple[Domino | None, Domino | None, int]], int]


def _pairs(attacker: Side, defender: Side, remaining: Sequence[Domino]) -> Pairs:
    """Every (attacker's tile, defender's tile, weight), and the weights' total: known tiles as they
    are, unknown ones drawn without replacement from ``remaining`` (the attacker's first). Integer
    weights keep the exact arithmetic fast; the caller divides once."""
    counts = Counter(remaining)
    whole = len(remaining)
    a_draw = not attacker.known and whole > 0
    a_options = [(t, n) for t, n in counts.items()] if a_draw else [(attacker.tile, 1)]
    left = whole - 1 if a_draw else whole
    d_draw = not defender.known and left > 0
    out: list[tuple[Domino | None, Domino | None, int]] = []
    for a_tile, na in a_options:
        if not d_draw:
            out.append((a_tile, defender.tile if defender.known else None, na))
            continue
        for d_tile, nd in counts.items():
            if a_draw and d_tile == a_tile:
                nd -= 1
            if nd > 0:
                out.append((a_tile, d_tile, na * nd))
    total = (whole if a_draw else 1) * (left if d_draw else 1)
    return out, total


def blow_distribution(attacker: Side, defender: Side, weapon: int,
                      remaining: Sequence[Domino] = SET) -> dict[int, Fraction]:
    """P(damage = d) of one attack, exactly, over the tiles not yet known (drawn without replacement
    from ``remaining``, attacker's first). d = 0: a miss or a blow the armour stops."""
    pairs, total = _pairs(attacker, defender, remaining)
    ways: dict[int, int] = {}
    for a_tile, d_tile, w in pairs:
        attack = attacker.suit + pips(a_tile, attacker.stance)[0] + attacker.extra
        defence = defender.suit + pips(d_tile, defender.stance)[1] + defender.extra
        d = blow(attack, defence, weapon, defender.resistance, attacker.scale)
        ways[d] = ways.get(d, 0) + w
    return {d: Fraction(w, total) for d, w in sorted(ways.items())}


def hit_chance(attacker: Side, defender: Side, remaining: Sequence[Domino] = SET) -> Fraction:
    """P(attack >= defence) — whether or not armour then stops the damage."""
    pairs, total = _pairs(attacker, defender, remaining)
    hits = 0
    for a_tile, d_tile, w in pairs:
        attack = attacker.suit + pips(a_tile, attacker.stance)[0] + attacker.extra
        defence = defender.suit + pips(d_tile, defender.stance)[1] + defender.extra
        if attack >= defence:
            hits += w
    return Fraction(hits, total)


def mean(dist: dict[int, Fraction]) -> Fraction:
    return sum((d * p for d, p in dist.items()), Fraction(0))
