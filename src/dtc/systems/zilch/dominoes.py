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
from functools import lru_cache
from math import lcm

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


def _stance_pips(tile: Domino, stance: str) -> tuple[int, int]:
    high, low = tile
    return {RECKLESS: (high + low, 0), BOLD: (high, low), CAUTIOUS: (low, high), GUARDED: (0, high + low)}[stance]


#: Every tile of the set in every stance, worked out once (the odds look pips up thousands of times).
_PIPS: dict[tuple[Domino, str], tuple[int, int]] = {(t, s): _stance_pips(t, s) for t in SET for s in STANCES}


def pips(tile: Domino | None, stance: str) -> tuple[int, int]:
    """(offensive, defensive) pips of a tile in a stance; no tile (surprised): (0, 0)."""
    if tile is None:
        return 0, 0
    known = _PIPS.get((tile, stance))
    return known if known is not None else _stance_pips(tile, stance)


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


#: Pip pairs of one attack and their weights: ``((offensive pips, defensive pips, weight), ...)``.
Joint = tuple[tuple[int, int, int], ...]


def _tiles(remaining: Sequence[Domino]) -> tuple[Domino, ...]:
    """The multiset of unseen tiles as a cache key (their order does not matter to the odds)."""
    return tuple(sorted(remaining))


@lru_cache(maxsize=8192)
def _joint(a_stance: str, a_tile: Domino | None, a_known: bool, d_stance: str, d_tile: Domino | None,
           d_known: bool, remaining: tuple[Domino, ...]) -> tuple[Joint, int]:
    """:func:`_pairs` summed by (attacker's offensive pips, defender's defensive pips): the same
    weights and total, worked out once per distinct question (stances, known tiles and the multiset
    of unseen tiles) from the pips' counts rather than from every pair of tiles."""
    counts = Counter(remaining)
    whole = len(remaining)
    a_draw = not a_known and whole > 0
    left = whole - 1 if a_draw else whole
    d_draw = not d_known and left > 0
    fixed_d = d_tile if d_known else None
    ways: dict[tuple[int, int], int] = {}
    if a_draw and d_draw:
        # Ordered pairs of different draws: every (a, d) pair of counts, less a tile drawn twice.
        offence: dict[int, int] = {}
        defence: dict[int, int] = {}
        for t, n in counts.items():
            x, y = pips(t, a_stance)[0], pips(t, d_stance)[1]
            offence[x] = offence.get(x, 0) + n
            defence[y] = defence.get(y, 0) + n
            ways[x, y] = ways.get((x, y), 0) - n
        for x, nx in offence.items():
            for y, ny in defence.items():
                ways[x, y] = ways.get((x, y), 0) + nx * ny
    elif a_draw:
        y = pips(fixed_d, d_stance)[1]
        for t, n in counts.items():
            x = pips(t, a_stance)[0]
            ways[x, y] = ways.get((x, y), 0) + n
    elif d_draw:
        x = pips(a_tile, a_stance)[0]
        for t, n in counts.items():
            y = pips(t, d_stance)[1]
            ways[x, y] = ways.get((x, y), 0) + n
    else:
        ways[pips(a_tile, a_stance)[0], pips(fixed_d, d_stance)[1]] = 1
    total = (whole if a_draw else 1) * (left if d_draw else 1)
    return tuple((x, y, w) for (x, y), w in ways.items() if w), total


def _joint_of(attacker: Side, defender: Side, tiles: tuple[Domino, ...]) -> tuple[Joint, int]:
    return _joint(attacker.stance, attacker.tile, attacker.known, defender.stance, defender.tile, defender.known,
                  tiles)


def blow_distribution(attacker: Side, defender: Side, weapon: int,
                      remaining: Sequence[Domino] = SET) -> dict[int, Fraction]:
    """P(damage = d) of one attack, exactly, over the tiles not yet known (drawn without replacement
    from ``remaining``, attacker's first). d = 0: a miss or a blow the armour stops."""
    return dict(_distribution(attacker, defender, weapon, _tiles(remaining)))


@lru_cache(maxsize=8192)
def _distribution(attacker: Side, defender: Side, weapon: int, tiles: tuple[Domino, ...]) -> dict[int, Fraction]:
    pairs, total = _joint_of(attacker, defender, tiles)
    ways: dict[int, int] = {}
    attack0, defence0 = attacker.suit + attacker.extra, defender.suit + defender.extra
    for x, y, w in pairs:
        d = blow(attack0 + x, defence0 + y, weapon, defender.resistance, attacker.scale)
        ways[d] = ways.get(d, 0) + w
    return {d: Fraction(w, total) for d, w in sorted(ways.items())}


def hit_chance(attacker: Side, defender: Side, remaining: Sequence[Domino] = SET) -> Fraction:
    """P(attack >= defence) — whether or not armour then stops the damage."""
    return _hit(attacker, defender, _tiles(remaining))


@lru_cache(maxsize=8192)
def _hit(attacker: Side, defender: Side, tiles: tuple[Domino, ...]) -> Fraction:
    pairs, total = _joint_of(attacker, defender, tiles)
    attack0, defence0 = attacker.suit + attacker.extra, defender.suit + defender.extra
    hits = 0
    for x, y, w in pairs:
        if attack0 + x >= defence0 + y:
            hits += w
    return Fraction(hits, total)


def mean(dist: dict[int, Fraction]) -> Fraction:
    """The expected value, exactly: summed over one common denominator (one Fraction, not one a term)."""
    common = 1
    for p in dist.values():
        common = lcm(common, p.denominator)
    return Fraction(sum(d * p.numerator * (common // p.denominator) for d, p in dist.items()), common)
