"""Dice: expressions (``2d6+1``), a seeded roller whose state can be saved, and exact odds.

Every random number of a run comes from one :class:`Dice`, so a seed (and a saved state) fixes
the whole run. The probability helpers enumerate outcomes exactly (as :class:`~fractions.Fraction`)
so the odds shown to a player, and the statistical tests, are exact rather than estimated.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from typing import Any

from dtc.numbers import DICE, MODIFIER, SIDES, bounded

_EXPR = re.compile(r"\s*([0-9]*)\s*[dD]\s*([0-9]+)\s*(?:([+-])\s*([0-9]+))?\s*|\s*([+-]?[0-9]+)\s*")
MAX_DICE = DICE
MAX_SIDES = SIDES


def _short(text: str) -> str:
    """``text`` quoted, cut to 40 characters (a dice expression may be thousands of digits)."""
    return repr(text if len(text) <= 40 else text[:37] + "...")


class DiceError(ValueError):
    """A dice expression that cannot be rolled."""


@dataclass(frozen=True, slots=True)
class DiceExpr:
    """``count`` dice of ``sides`` sides plus ``modifier`` (``sides == 0``: a plain number)."""

    count: int
    sides: int
    modifier: int = 0

    def __str__(self) -> str:
        if self.sides == 0:
            return str(self.modifier)
        mod = f"{self.modifier:+d}" if self.modifier else ""
        return f"{self.count}d{self.sides}{mod}"

    @property
    def low(self) -> int:
        return self.count + self.modifier if self.sides else self.modifier

    @property
    def high(self) -> int:
        return self.count * self.sides + self.modifier if self.sides else self.modifier

    @property
    def mean(self) -> Fraction:
        return Fraction(self.count * (self.sides + 1), 2) + self.modifier if self.sides else Fraction(self.modifier)


@cache
def parse_dice(text: str) -> DiceExpr:
    """``d6`` -> 1d6, ``2d4+1``, ``3`` (a fixed number). Raises :class:`DiceError`."""
    m = _EXPR.fullmatch(text)
    if not m:
        raise DiceError(f"not a dice expression: {_short(text)}")
    if m.group(5) is not None:
        number = m.group(5)
        sign = -1 if number.startswith("-") else 1
        value = bounded(number.lstrip("+-"), MODIFIER)
        if value > MODIFIER:
            raise DiceError(f"number out of range: {_short(text)}")
        return DiceExpr(0, 0, sign * value)
    count = bounded(m.group(1) or "1", MAX_DICE)
    sides = bounded(m.group(2), MAX_SIDES)
    mod = bounded(m.group(4) or "0", MODIFIER)
    if not (1 <= count <= MAX_DICE and 1 <= sides <= MAX_SIDES and mod <= MODIFIER):
        raise DiceError(f"dice out of range: {_short(text)}")
    mod *= -1 if m.group(3) == "-" else 1
    return DiceExpr(count, sides, mod)


@dataclass(frozen=True, slots=True)
class Roll:
    """One roll: the dice that came up, the modifier, the total."""

    expr: str
    dice: tuple[int, ...]
    modifier: int
    total: int

    def to_dict(self) -> dict[str, Any]:
        return {"dice": self.expr, "rolls": list(self.dice), "total": self.total}


@lru_cache(maxsize=1024)
def _text(expr: DiceExpr) -> str:
    return str(expr)


@cache
def _parsed(text: str) -> tuple[DiceExpr, str]:
    """A dice expression as written and its canonical text, once per text (a string's hash is
    kept by the string: no dataclass hashed per roll)."""
    e = parse_dice(text)
    return e, str(e)


#: Per dice expression as written: (count, sides, modifier, the bits a die's draw takes).
_SPECS: dict[str, tuple[int, int, int, int]] = {}


def _spec(text: str) -> tuple[int, int, int, int]:
    """The numbers :meth:`Dice.total` reads of an expression, kept per text (raises DiceError)."""
    e = _parsed(text)[0]
    found = _SPECS[text] = (e.count, e.sides, e.modifier, e.sides.bit_length())
    if len(_SPECS) > 4096:
        _SPECS.clear()
    return found


_STANDARD_BELOW = getattr(random.Random, "_randbelow_with_getrandbits", None)


def _same_draws() -> bool:
    """Whether drawing ``getrandbits(n.bit_length())`` until it is below ``n`` gives what the
    standard ``_randbelow`` gives (it does in the Pythons dtc supports; checked, not assumed)."""
    if _STANDARD_BELOW is None or random.Random._randbelow is not _STANDARD_BELOW:  # type: ignore[attr-defined]
        return False
    mine, theirs = random.Random(20261201), random.Random(20261201)
    for n in (*range(1, 70), 100, 1000, 2**31):
        for _ in range(8):
            k = n.bit_length()
            r = mine.getrandbits(k)
            while r >= n:
                r = mine.getrandbits(k)
            if r != theirs._randbelow(n):  # type: ignore[attr-defined]
                return False
    return True


_SAME_DRAWS = _same_draws()


class Dice:
    """The run's random source: a seeded :class:`random.Random` with a JSON-able state."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    @property
    def _rng(self) -> random.Random:
        return self._source

    @_rng.setter
    def _rng(self, rng: random.Random) -> None:
        """The generator (a test may put a scripted one in its place)."""
        self._source = rng
        # ``randint(low, high)`` and ``randrange(n)`` draw ``low + _randbelow(high - low + 1)`` and
        # ``_randbelow(n)``: calling it directly draws the very same numbers without their argument
        # checks. Only a ``random.Random`` whose ``randint`` and ``randrange`` are its own is known
        # to work that way; anything else (a scripted die) is asked through them.
        kind = type(rng)
        plain = (isinstance(rng, random.Random) and kind.randint is random.Random.randint
                 and kind.randrange is random.Random.randrange)
        self._below: Callable[[int], int] | None = getattr(rng, "_randbelow", None) if plain else None
        # Where ``_randbelow`` is the standard one, which draws ``getrandbits(n.bit_length())`` until
        # it is below ``n`` (checked against it once: :data:`_SAME_DRAWS`), the hottest draws (a die,
        # an index) take the bits themselves, the same numbers without a call to it.
        self._bits: Callable[[int], int] | None = (
            rng.getrandbits if plain and _SAME_DRAWS and getattr(kind, "_randbelow", None) is _STANDARD_BELOW else None)

    def die(self, sides: int) -> int:
        bits = self._bits
        if bits is not None and sides > 0:
            k = sides.bit_length()
            r = bits(k)
            while r >= sides:
                r = bits(k)
            return 1 + r
        below = self._below
        if below is not None and sides > 0:
            return 1 + below(sides)
        return self._rng.randint(1, sides)

    def between(self, low: int, high: int) -> int:
        below = self._below
        if below is not None and high >= low:
            return low + below(high - low + 1)
        return self._rng.randint(low, high)

    def roll(self, expr: str | DiceExpr) -> Roll:
        if isinstance(expr, str):
            e, text = _parsed(expr)
        else:
            e, text = expr, _text(expr)
        sides = e.sides
        below = self._below
        if below is not None and sides > 0:
            if e.count == 1:  # one die (d6, d20): no list to build
                face = 1 + below(sides)
                return Roll(text, (face,), e.modifier, face + e.modifier)
            dice = tuple([1 + below(sides) for _ in range(e.count)])
        else:
            dice = tuple(self._rng.randint(1, sides) for _ in range(e.count)) if sides else ()
        return Roll(text, dice, e.modifier, sum(dice) + e.modifier)

    def total(self, expr: str | DiceExpr) -> int:
        """``roll(expr).total``: the same numbers drawn, in the same order, without building the roll."""
        bits = self._bits
        if bits is not None:
            if expr.__class__ is str:
                spec = _SPECS.get(expr)
                count, sides, modifier, k = spec if spec is not None else _spec(expr)
            else:
                e = _parsed(expr)[0] if isinstance(expr, str) else expr
                count, sides, modifier, k = e.count, e.sides, e.modifier, e.sides.bit_length()
            if count == 1 and sides > 0:  # one die: no loop
                r = bits(k)
                while r >= sides:
                    r = bits(k)
                return r + 1 + modifier
            if sides > 0:
                total = modifier + count
                for _ in range(count):
                    r = bits(k)
                    while r >= sides:
                        r = bits(k)
                    total += r
                return total
        e = _parsed(expr)[0] if isinstance(expr, str) else expr
        sides = e.sides
        below = self._below
        if below is not None and sides > 0:
            total = e.modifier
            for _ in range(e.count):
                total += 1 + below(sides)
            return total
        return self.roll(e).total

    def in_six(self, chance: int) -> tuple[int, bool]:
        """Roll a d6: true on 1..chance (``1-in-6`` is chance 1)."""
        r = self.die(6)
        return r, r <= chance

    def pick(self, n: int) -> int:
        """A uniform index below ``n`` (for auto players)."""
        bits = self._bits
        if bits is not None and n > 0:
            k = n.bit_length()
            r = bits(k)
            while r >= n:
                r = bits(k)
            return r
        below = self._below
        if below is not None and n > 0:
            return below(n)
        return self._rng.randrange(n)

    def random(self) -> float:
        return self._rng.random()

    # --- state -----------------------------------------------------------------------------

    def get_state(self) -> dict[str, Any]:
        version, internal, gauss = self._rng.getstate()
        return {"seed": self.seed, "version": version, "state": list(internal), "gauss": gauss}

    @classmethod
    def from_state(cls, data: dict[str, Any]) -> Dice:
        """The dice a saved state describes; ValueError (one line) for a state that has the
        right shape but no meaning: words out of range, an index past the end, or the one
        state the Mersenne Twister can never leave (every word zero: it would draw zeros
        forever, and a rule that rolls until the dice differ would never end)."""
        seed, version, words, gauss = data["seed"], data["version"], data["state"], data["gauss"]
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError("the seed is not a whole number")
        if version != 3:
            raise ValueError(f"version {version!r} is not the generator's (3)")
        if not isinstance(words, list) or len(words) != _MT_WORDS + 1 or not all(
                isinstance(w, int) and not isinstance(w, bool) for w in words):
            raise ValueError(f"the state is not {_MT_WORDS + 1} whole numbers")
        if not all(0 <= w < 2**32 for w in words[:_MT_WORDS]):
            raise ValueError("a state word is not a 32-bit number")
        if not 0 <= words[_MT_WORDS] <= _MT_WORDS:
            raise ValueError(f"the position {words[_MT_WORDS]} is not one of 0 to {_MT_WORDS}")
        if not words[0] & 0x80000000 and not any(words[1:_MT_WORDS]):
            raise ValueError("every word is zero: a generator in this state cannot advance (it draws zeros "
                             "forever)")
        if gauss is not None and not (isinstance(gauss, float) and math.isfinite(gauss)):
            raise ValueError("the cached deviate is not a finite number")
        dice = cls(seed)
        dice._rng.setstate((version, tuple(words), gauss))
        return dice


#: The words of the Mersenne Twister's state (a saved state has one more: the position in them).
_MT_WORDS = 624


# --- exact probabilities ---------------------------------------------------------------------


@cache
def distribution(expr: DiceExpr) -> dict[int, Fraction]:
    """Exact distribution of a dice expression: total -> probability."""
    if expr.sides == 0:
        return {expr.modifier: Fraction(1)}
    counts: dict[int, int] = {0: 1}
    for _ in range(expr.count):
        nxt: dict[int, int] = {}
        for total, ways in counts.items():
            for face in range(1, expr.sides + 1):
                nxt[total + face] = nxt.get(total + face, 0) + ways
        counts = nxt
    whole = expr.sides**expr.count
    return {t + expr.modifier: Fraction(w, whole) for t, w in sorted(counts.items())}


def prob_at_most(expr: str | DiceExpr, target: int) -> Fraction:
    """P(roll <= target): the chance of a roll-under check."""
    if isinstance(expr, str):
        return _at_most_text(expr, target)
    return _at_most(expr, target)


@cache
def _at_most_text(expr: str, target: int) -> Fraction:
    """:func:`_at_most` of an expression as written, once per text and target (no dataclass hashed)."""
    return _at_most(parse_dice(expr), target)


@cache
def _at_most(expr: DiceExpr, target: int) -> Fraction:
    return sum((p for t, p in distribution(expr).items() if t <= target), Fraction(0))


def prob_between(expr: str | DiceExpr, low: int, high: int) -> Fraction:
    e = parse_dice(expr) if isinstance(expr, str) else expr
    return sum((p for t, p in distribution(e).items() if low <= t <= high), Fraction(0))


def percent(p: Fraction) -> str:
    """``Fraction(91, 100)`` -> ``'91.0%'`` (one decimal, exact value rounded)."""
    return f"{float(p) * 100:.1f}%"
