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
import struct
from collections import Counter
from collections.abc import Callable, Sequence
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
        if type(scale) is int:
            total *= scale
        elif type(scale) is Fraction:  # floor(total × n/d + 1/2) in integers
            total = (2 * total * scale.numerator + scale.denominator) // (2 * scale.denominator)
        else:
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
        pick = dice.pick
        for i in range(len(tiles) - 1, 0, -1):  # Fisher–Yates with the run's dice
            j = pick(i + 1)
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


#: Counts of the ways a blow falls, by margin: ``(lowest margin, number of margins, counts, total,
#: bits)``: the counts packed in one integer, ``bits`` each, the lowest margin's first; count n is the
#: number of ways (of ``total``) in which the attacker's offensive pips less the defender's defensive
#: pips are ``lowest margin + n``. Everything else about a blow (suits, extra pips, the weapon,
#: armour, size) only shifts that margin or reads it, so one count answers every such question.
Ways = tuple[int, int, int, int, int]

_BIT: dict[Domino, int] = {t: 1 << n for n, t in enumerate(SET)}
_TOP = 12  # the most pips one side of a tile can give in any stance (both ends of the double six)
_WIDTH = 2 * _TOP + 1  # margins of pips from -12 to +12
_SLOT = 16  # bits per count in a packed histogram: 21 tiles make 420 ordered pairs
_CHUNK = 7  # a set of tiles (one bit a tile of SET) is read 7 tiles at a time: 3 look-ups of 128
# Histograms as integers, one 16-bit slot a pip count: a tile's offensive pips x as 1 << 16x, its defensive
# pips y as 1 << 16(12 - y). The product of an attacker's and a defender's histogram then counts every
# (attacker's tile, defender's tile) pair in the slot of 12 + x - y, the sum of a tile's own pair
# (1 << 16(12 + x - y)) is the part of it where both drew the same tile, and one multiplication of
# Python integers does the whole convolution. Each histogram of any set of tiles is the sum of three
# table entries, one per 7 tiles of the set (:func:`_table`).
_OFFENCE = {s: tuple(1 << _SLOT * _PIPS[t, s][0] for t in SET) for s in STANCES}
_DEFENCE = {s: tuple(1 << _SLOT * (_TOP - _PIPS[t, s][1]) for t in SET) for s in STANCES}
_SAME = {(a, d): tuple(1 << _SLOT * (_TOP + _PIPS[t, a][0] - _PIPS[t, d][1]) for t in SET)
         for a in STANCES for d in STANCES}
Tables = tuple[tuple[int, ...], ...]
_TABLES: dict[object, Tables] = {}


def _table(key: object, values: tuple[int, ...]) -> Tables:
    """Per 7 tiles of the set, the sum of ``values`` (one a tile) over each of the 128 subsets of them:
    built on first use and kept under ``key``."""
    chunks = []
    for start in range(0, len(values), _CHUNK):
        sums = [0] * (1 << _CHUNK)
        for subset in range(1, 1 << _CHUNK):
            low = subset & -subset
            bit = start + low.bit_length() - 1
            sums[subset] = sums[subset ^ low] + (values[bit] if bit < len(values) else 0)
        chunks.append(tuple(sums))
    found = _TABLES[key] = tuple(chunks)
    return found


def _over(key: object, values: tuple[int, ...], tiles: int) -> int:
    """The sum of ``values`` over a set of tiles (bit n: ``SET[n]``), through the tables of ``key``."""
    tables = _TABLES.get(key)
    low, mid, high = tables if tables is not None else _table(key, values)
    return low[tiles & 127] + mid[(tiles >> 7) & 127] + high[tiles >> 14]


_ATTACKING = (RECKLESS, BOLD, CAUTIOUS)  # the stances that attack
BLOCK_BITS = _SLOT * _WIDTH  # the bits of one block of counts by margin (:meth:`Unseen.exchange_packed`)
#: The fields of :func:`_exchange_values`: (first slot, slots). 0: the adventurer's offensive pips in
#: each attacking stance, a block of 25 slots apart; 1: the target's defensive pips; 2: the tiles drawn
#: twice of those pairs, block by block; 3: the creature's offensive pips; 4: the adventurer's
#: defensive pips in each stance; 5: the tiles drawn twice of those pairs. A block's product with the
#: other histogram spans 25 slots, so the blocks of a product do not meet.
_EXCHANGE = ((0, 3 * _WIDTH), (3 * _WIDTH, _TOP + 1), (3 * _WIDTH + _TOP + 1, 3 * _WIDTH),
             (6 * _WIDTH + _TOP + 1, _TOP + 1), (6 * _WIDTH + 2 * _TOP + 2, 4 * _WIDTH),
             (10 * _WIDTH + 2 * _TOP + 2, 4 * _WIDTH))

#: :data:`_EXCHANGE` as (shift in bits, mask) pairs.
_EXCHANGE_MASKS = tuple((_SLOT * at, (1 << _SLOT * size) - 1) for at, size in _EXCHANGE)


def _exchange_values(them: str, foe: str) -> tuple[int, ...]:
    """Per tile of the set, its part of every histogram of :meth:`Unseen.exchange`, in one integer."""
    values = []
    for n in range(len(SET)):
        parts = (
            sum(_OFFENCE[s][n] << _SLOT * _WIDTH * k for k, s in enumerate(_ATTACKING)),
            _DEFENCE[them][n],
            sum(_SAME[s, them][n] << _SLOT * _WIDTH * k for k, s in enumerate(_ATTACKING)),
            _OFFENCE[foe][n],
            sum(_DEFENCE[s][n] << _SLOT * _WIDTH * k for k, s in enumerate(STANCES)),
            sum(_SAME[foe, s][n] << _SLOT * _WIDTH * k for k, s in enumerate(STANCES)),
        )
        values.append(sum(part << _SLOT * at for part, (at, _) in zip(parts, _EXCHANGE, strict=True)))
    return tuple(values)


class Unseen:
    """The tiles not yet seen at one moment of a fight (a multiset: their order does not matter), and
    the counted ways of every blow asked about it, worked out once each (:meth:`ways`).

    The counts equal :func:`_pairs` summed by margin of pips: the same pairs, weights and total, drawn
    without replacement (the attacker's tile first). Tiles of the set, each at most once, are counted
    through packed histograms (see ``_OFFENCE``); anything else (a tile not of the set, or one twice) by
    :func:`_joint`, the same way as before."""

    __slots__ = ("_memo", "_set", "tiles")

    def __init__(self, tiles: Sequence[Domino]) -> None:
        self.tiles = tiles
        try:
            bits = sum(map(_BIT.__getitem__, tiles))
        except (KeyError, TypeError):  # not a tile of the set
            bits = -1
        #: One bit per tile of SET, or -1: the tiles are not a set of SET's tiles.
        self._set = bits if bits >= 0 and bits.bit_count() == len(tiles) else -1
        self._memo: dict[tuple[str, Domino | None, bool, str, Domino | None, bool], Ways] = {}

    def ways(self, a_stance: str, a_tile: Domino | None, a_known: bool, d_stance: str, d_tile: Domino | None,
             d_known: bool) -> Ways:
        """The attacker's side (stance, its tile, whether the tile is known) and the defender's: an
        unknown tile is drawn from these (none left: no tile)."""
        key = (a_stance, a_tile, a_known, d_stance, d_tile, d_known)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = self._count(*key)
        return found

    def exchange(self, them: str, foe: str) -> dict[tuple[str, str], Ways]:
        """Count at once the blows of one round's exchange, both tiles unknown: the adventurer's attack
        in each stance that attacks against a creature in stance ``them``, and the attack of a creature
        in stance ``foe`` against the adventurer in each stance (:meth:`ways` then has them).

        The same counts as :meth:`ways`, from one reading of the unseen tiles: the histograms of all
        of them sit side by side in one integer (:func:`_exchange_values`), so three table look-ups
        read every one, and two multiplications make the seven counts. Returned by (attacker's stance,
        defender's stance) too; empty when these tiles are not a set of the set's tiles or fewer than 2."""
        read = self.exchange_packed(them, foe)
        if read is None:
            return {}
        mine, theirs, total = read
        block = (1 << _SLOT * _WIDTH) - 1
        memo = self._memo
        out: dict[tuple[str, str], Ways] = {}
        for n, stance in enumerate(_ATTACKING):
            out[stance, them] = memo[stance, None, False, them, None, False] = (
                -_TOP, _WIDTH, (mine >> _SLOT * _WIDTH * n) & block, total, _SLOT)
        for n, stance in enumerate(STANCES):
            out[foe, stance] = memo[foe, None, False, stance, None, False] = (
                -_TOP, _WIDTH, (theirs >> _SLOT * _WIDTH * n) & block, total, _SLOT)
        return out

    def exchange_packed(self, them: str, foe: str) -> tuple[int, int, int] | None:
        """:meth:`exchange`'s counts as read, before they are split by stance: ``(mine, theirs, total)``,
        ``mine`` the adventurer's attacks in each stance of ``_ATTACKING`` and ``theirs`` the creature's
        attack against each stance of ``STANCES``, one block of ``_WIDTH`` 16-bit slots a stance (margins
        from -12), blocks ``_WIDTH`` slots apart, in that order (:func:`group_odds` reads them at once).
        None when these tiles are not a set of the set's tiles or fewer than 2."""
        tiles = self._set
        whole = len(self.tiles)
        if tiles < 0 or whole < 2 or them not in _OFFENCE or foe not in _OFFENCE:
            return None
        low, mid, high = _TABLES.get(("exchange", them, foe)) or _table(("exchange", them, foe),
                                                                        _exchange_values(them, foe))
        packed = low[tiles & 127] + mid[(tiles >> 7) & 127] + high[tiles >> 14]
        (a0, a1), (b0, b1), (c0, c1), (d0, d1), (e0, e1), (f0, f1) = _EXCHANGE_MASKS
        mine = (packed >> a0 & a1) * (packed >> b0 & b1) - (packed >> c0 & c1)
        theirs = (packed >> d0 & d1) * (packed >> e0 & e1) - (packed >> f0 & f1)
        return mine, theirs, whole * (whole - 1)

    def _count(self, a_stance: str, a_tile: Domino | None, a_known: bool, d_stance: str, d_tile: Domino | None,
               d_known: bool) -> Ways:
        whole = len(self.tiles)
        a_draw = not a_known and whole > 0
        left = whole - 1 if a_draw else whole
        d_draw = not d_known and left > 0
        total = (whole if a_draw else 1) * (left if d_draw else 1)
        x = 0 if a_draw else pips(a_tile, a_stance)[0]
        y = 0 if d_draw else pips(d_tile if d_known else None, d_stance)[1]
        tiles = self._set
        if tiles < 0 or not (0 <= x <= _TOP and 0 <= y <= _TOP) or a_stance not in _OFFENCE \
                or d_stance not in _DEFENCE:
            joint, whole_total = _joint(a_stance, a_tile, a_known, d_stance, d_tile, d_known, _tiles(self.tiles))
            return _dense(joint, whole_total)
        offence = _over(a_stance, _OFFENCE[a_stance], tiles) if a_draw else 1 << _SLOT * x
        defence = _over(("d", d_stance), _DEFENCE[d_stance], tiles) if d_draw else 1 << _SLOT * (_TOP - y)
        packed = offence * defence
        if a_draw and d_draw:  # ordered pairs of different draws: less each tile drawn twice
            packed -= _over((a_stance, d_stance), _SAME[a_stance, d_stance], tiles)
        return -_TOP, _WIDTH, packed, total, _SLOT


def _dense(joint: Joint, total: int) -> Ways:
    """:func:`_joint`'s (offensive pips, defensive pips, weight) as counts by margin."""
    bits = max(_SLOT, total.bit_length() + 1)
    if not joint:
        return 0, 0, 0, total, bits
    margins = [x - y for x, y, _ in joint]
    low = min(margins)
    counts = [0] * (max(margins) - low + 1)
    for m, (_, _, w) in zip(margins, joint, strict=True):
        counts[m - low] += w
    return low, len(counts), sum(w << bits * n for n, w in enumerate(counts)), total, bits


def counts(ways: Ways) -> tuple[int, ...]:
    """The counts of :data:`Ways`, one a margin from the lowest."""
    _, width, packed, _, bits = ways
    if bits == _SLOT:
        return _unpack16(width)(packed.to_bytes(2 * width, "little"))
    full = (1 << bits) - 1
    return tuple((packed >> bits * n) & full for n in range(width))


@lru_cache(maxsize=64)
def _unpack16(width: int) -> Callable[[bytes], tuple[int, ...]]:
    return struct.Struct(f"<{width}H").unpack


HIT, HARM = "hit", "harm"  # the second count :func:`odds` gives: the ways that hit, or that deal damage


@lru_cache(maxsize=8192)
def _question(start: int, width: int, weapon: int, resistance: int, scale: Fraction | int, second: str,
              bits: int) -> tuple[int, int, int]:
    """A question about a blow as one number to multiply packed counts by, its blocks' distance in
    slots, and the greatest total the product is exact for.

    For margin n (from ``start``): its damage in slot ``width - 1 - n``, and 1 or 0 (it hits, or it
    deals damage) in slot ``gap + width - 1 - n``. In the product with the counts, slot ``width - 1``
    holds the damage summed over every way and slot ``gap + width - 1`` the ways that hit (or harm):
    each is the dot product of the counts with one column reversed, and the two blocks are too far
    apart to meet. Exact while no slot of the product reaches ``2**bits``, that is while the total
    times the greatest damage stays below it."""
    damage = [blow(m, 0, weapon, resistance, scale) for m in range(start, start + width)]
    gap = 2 * width - 1
    top = width - 1
    multiplier = 0
    for n, d in enumerate(damage):
        flag = start + n >= 0 if second == HIT else d > 0
        multiplier |= d << bits * (top - n) | int(flag) << bits * (gap + top - n)
    return multiplier, gap, ((1 << bits) - 1) // max([1, *damage])


def odds(ways: Ways, base: int, weapon: int, resistance: int, scale: Fraction | int = 1,
         second: str = HIT) -> tuple[int, int, int]:
    """One attack counted: ``(damage summed over the ways, ways that hit, total)`` — with ``second``
    :data:`HARM`, the ways that deal damage in place of those that hit. ``base``: the attacker's suit
    and extra pips less the defender's (the margin before the tiles). Divided by the total, the first
    is the damage to expect and the second a chance; all are exact integers, so a caller comparing
    questions over the same tiles needs no fractions."""
    low, width, packed, total, bits = ways
    start = base + low
    multiplier, gap, most = _question(start, width, weapon, resistance, scale, second, bits)
    if total > most:  # a slot of the product could overflow: count one margin at a time
        dealt = other = 0
        for n, w in enumerate(counts(ways)):
            d = blow(start + n, 0, weapon, resistance, scale)
            dealt += w * d
            other += w if (start + n >= 0 if second == HIT else d > 0) else 0
        return dealt, other, total
    product = packed * multiplier >> bits * (width - 1)
    full = (1 << bits) - 1
    return product & full, (product >> bits * gap) & full, total


@lru_cache(maxsize=8192)
def _group_question(start: int, weapon: int, resistance: int, scale: Fraction | int) -> tuple[int, int, int]:
    """:func:`_question` for blocks of counts side by side (``_WIDTH`` 16-bit slots each, ``_WIDTH``
    apart): two numbers to multiply them by, and the greatest total the products are exact for.

    The first has margin n's damage in slot ``_WIDTH - 1 - n``, so slot ``_WIDTH * k + _WIDTH - 1`` of
    its product holds block k's damage summed over every way; the second has 1 where margin n hits, so
    the same slot of its product holds block k's ways that hit. A slot of a product adds up the terms
    of two blocks at most (block k's and the tail of block k - 1's), so it is exact while twice the
    total times the greatest damage stays below ``2**16``."""
    top = _WIDTH - 1
    damage = [blow(m, 0, weapon, resistance, scale) for m in range(start, start + _WIDTH)]
    dealt = hits = 0
    for n, d in enumerate(damage):
        dealt |= d << _SLOT * (top - n)
        hits |= int(start + n >= 0) << _SLOT * (top - n)
    return dealt, hits, ((1 << _SLOT) - 1) // (2 * max([1, *damage]))


def group_odds(packed: int, blocks: int, total: int, base: int, weapon: int, resistance: int,
               scale: Fraction | int = 1) -> list[tuple[int, int]] | None:
    """:func:`odds` (with :data:`HIT`) of ``blocks`` blocks of counts at once, as
    :meth:`Unseen.exchange_packed` reads them (each from margin -12, ``_WIDTH`` 16-bit slots, ``_WIDTH``
    apart), all of one question: ``(damage summed, ways that hit)`` per block, each over ``total``; two
    multiplications for them all. None when a slot of a product could overflow (then ask :func:`odds`
    block by block)."""
    dealt, hits, most = _group_question(base - _TOP, weapon, resistance, scale)
    if total > most:
        return None
    damage = packed * dealt
    hit = packed * hits
    full = (1 << _SLOT) - 1
    return [(damage >> at & full, hit >> at & full) for at in _CENTRES[:blocks]]


#: The slot of block k's sums in a product of :func:`group_odds`, in bits.
_CENTRES = tuple(_SLOT * (_WIDTH * k + _WIDTH - 1) for k in range(4))


def blow_distribution(attacker: Side, defender: Side, weapon: int,
                      remaining: Sequence[Domino] = SET) -> dict[int, Fraction]:
    """P(damage = d) of one attack, exactly, over the tiles not yet known (drawn without replacement
    from ``remaining``, attacker's first). d = 0: a miss or a blow the armour stops."""
    found = Unseen(remaining).ways(attacker.stance, attacker.tile, attacker.known, defender.stance, defender.tile,
                                   defender.known)
    start = attacker.suit + attacker.extra - defender.suit - defender.extra + found[0]
    total = found[3]
    ways: dict[int, int] = {}
    for m, n in enumerate(counts(found), start):
        if n:
            d = blow(m, 0, weapon, defender.resistance, attacker.scale)
            ways[d] = ways.get(d, 0) + n
    return {d: Fraction(w, total) for d, w in sorted(ways.items())}


def hit_chance(attacker: Side, defender: Side, remaining: Sequence[Domino] = SET) -> Fraction:
    """P(attack >= defence) — whether or not armour then stops the damage."""
    ways = Unseen(remaining).ways(attacker.stance, attacker.tile, attacker.known, defender.stance, defender.tile,
                                  defender.known)
    _, hits, total = odds(ways, attacker.suit + attacker.extra - defender.suit - defender.extra, 0, 0)
    return Fraction(hits, total)


def mean(dist: dict[int, Fraction]) -> Fraction:
    """The expected value, exactly: summed over one common denominator (one Fraction, not one a term)."""
    common = 1
    for p in dist.values():
        common = lcm(common, p.denominator)
    return Fraction(sum(d * p.numerator * (common // p.denominator) for d, p in dist.items()), common)
