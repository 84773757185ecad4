"""Zilch Lite — suit tests: 3d6 with sixes counted as zero, rolled under the suit.

Seed: ``zilch.txt``, "Suits" and "Skills". The four suits are the abilities, written ``♣``,
``Clubs`` or ``CLUBS`` (and so on; the white suit symbols ``♧ ♤ ♢ ♡`` too). A test rolls three
dice with sixes as 0 (0–15, a 50% chance of 7 or less) and succeeds at or under the skill, as
modified. Degrees of success: a critical success at or under skill − 5, a critical failure above
skill + 5; three sixes (0) are a critical success unless the skill is 2 or less, three fives (15)
a critical failure unless the skill is 14 or more.

How the notation maps (the seed's recommended modifiers, ``docs/rulesets/zilch.md``):
``D0`` no test, ``D1`` easy (+2), ``D2`` normal (±0), ``D3`` hard (−2), ``D4`` very hard (−5).
A +5 task "probably needs no roll": that is ``D0``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import product

from dtc.systems.base import Ruleset

MODIFIERS = {1: 2, 2: 0, 3: -2, 4: -5}
CS, S, F, CF = "critical success", "success", "failure", "critical failure"
DEGREES = (CS, S, F, CF)
#: Character generation: one card from each suit's pile of 5 to 10; redraw a hand of 25 or less.
CARD_LOW, CARD_HIGH, REDRAW_AT_MOST = 5, 10, 25

_SUITS = {
    "♣": ("CLUBS", "CLUB", "♧"),
    "♠": ("SPADES", "SPADE", "♤"),
    "♦": ("DIAMONDS", "DIAMOND", "♢"),
    "♥": ("HEARTS", "HEART", "♡"),
}
SUIT_NAMES = {"♣": "Clubs", "♠": "Spades", "♦": "Diamonds", "♥": "Hearts"}
SUIT_ORDER = ("♣", "♠", "♦", "♥")


def die_value(face: int) -> int:
    """A die of a suit test: 6 counts as 0."""
    return 0 if face == 6 else face


@cache
def test_distribution() -> dict[int, Fraction]:
    """P(three dice with sixes as zero sum to t), t = 0..15."""
    counts: dict[int, int] = {}
    for dice in product(range(1, 7), repeat=3):
        t = sum(die_value(d) for d in dice)
        counts[t] = counts.get(t, 0) + 1
    return {t: Fraction(c, 216) for t, c in sorted(counts.items())}


def degree(roll: int, skill: int) -> str:
    """The degree of success of a test ``roll`` (0–15) against a modified ``skill``."""
    if roll == 0 and skill > 2:
        return CS
    if roll == 15 and skill < 14:
        return CF
    if roll <= skill - 5:
        return CS
    if roll <= skill:
        return S
    if roll > skill + 5:
        return CF
    return F


@cache
def degree_probabilities(skill: int) -> dict[str, Fraction]:
    """Exact chance of each degree for a test against ``skill`` (already modified)."""
    out = dict.fromkeys(DEGREES, Fraction(0))
    for roll, p in test_distribution().items():
        out[degree(roll, skill)] += p
    return out


@cache
def p_success(skill: int) -> Fraction:
    d = degree_probabilities(skill)
    return d[CS] + d[S]


def contest(a_skill: int, b_skill: int) -> dict[str, Fraction]:
    """A non-combat contest: both test; one success wins; both succeed, the lower roll wins;
    both fail, or equal successful rolls: a draw. Returns P(a wins), P(b wins), P(draw)."""
    dist = test_distribution()
    out = {"a": Fraction(0), "b": Fraction(0), "draw": Fraction(0)}
    for ra, pa in dist.items():
        for rb, pb in dist.items():
            a_ok, b_ok = ra <= a_skill, rb <= b_skill
            if a_ok and (not b_ok or ra < rb):
                out["a"] += pa * pb
            elif b_ok and (not a_ok or rb < ra):
                out["b"] += pa * pb
            else:
                out["draw"] += pa * pb
    return out


@cache
def card_distribution() -> dict[int, Fraction]:
    """P(one suit's card = v) for a hand drawn as the seed says: 5–10 from each pile, and a hand
    totalling 25 or less discarded and drawn again (once; the second hand is kept)."""
    values = range(CARD_LOW, CARD_HIGH + 1)
    hands = list(product(values, repeat=4))
    whole = len(hands)
    redraw = Fraction(sum(1 for h in hands if sum(h) <= REDRAW_AT_MOST), whole)
    kept: dict[int, int] = {}
    for h in hands:
        if sum(h) > REDRAW_AT_MOST:
            kept[h[0]] = kept.get(h[0], 0) + 1
    uniform = Fraction(1, len(values))
    return {v: Fraction(kept.get(v, 0), whole) + redraw * uniform for v in values}


@cache
def hand_distribution() -> dict[tuple[int, int, int, int], Fraction]:
    """P(a fresh adventurer's hand = (♣, ♠, ♦, ♥)): each of the 6⁴ hands has 1/1296 as a first draw, kept
    when it totals more than 25; a hand of 25 or less is drawn again once (the second hand is kept)."""
    values = range(CARD_LOW, CARD_HIGH + 1)
    hands = list(product(values, values, values, values))
    whole = len(hands)
    redraw = Fraction(sum(1 for h in hands if sum(h) <= REDRAW_AT_MOST), whole)
    again = redraw / whole
    return {h: (Fraction(1, whole) if sum(h) > REDRAW_AT_MOST else Fraction(0)) + again for h in hands}


@dataclass(frozen=True)
class Zilch(Ruleset):
    """Suit tests: 3d6 (6 = 0) at or under the suit + the difficulty's modifier."""

    def check_dice(self, difficulty: int) -> str:
        if difficulty <= 0:
            return "none"
        mod = MODIFIERS.get(difficulty, 0)
        return f"3d6 (6s count 0) ≤ suit{f' {mod:+d}' if mod else ''}"

    def check_probability(
        self, abilities: Mapping[str, int], ability: str | None, difficulty: int, *, encumbered: bool = False
    ) -> Fraction:
        """Encumbrance in Zilch is a condition (Hampered), not a change to tests: it is ignored."""
        if difficulty <= 0:
            return Fraction(1)
        return p_success(self.score_of(abilities, ability) + MODIFIERS.get(difficulty, 0))

    def check_outcomes(self, abilities: Mapping[str, int], ability: str | None, difficulty: int) -> dict[str, Fraction]:
        if difficulty <= 0:
            return {CS: Fraction(0), S: Fraction(1), F: Fraction(0), CF: Fraction(0)}
        return dict(degree_probabilities(self.score_of(abilities, ability) + MODIFIERS.get(difficulty, 0)))

    def score_distribution(self, ability: str | None = None) -> dict[int, Fraction]:
        return dict(card_distribution())

    def fresh_characters(self) -> list[tuple[Fraction, dict[str, int]]]:
        """Every hand of four cards with its exact chance (:func:`hand_distribution`): the suits are
        not independent, since a hand of 25 or less is drawn again (a low ♣ makes the others higher)."""
        return [(p, dict(zip(SUIT_ORDER, hand, strict=True))) for hand, p in hand_distribution().items()]


ZILCH = Zilch(
    name="zilch",
    title="Zilch",
    abilities={alias: name for name, aliases in _SUITS.items() for alias in (name, *aliases)},
    difficulties=(0, 1, 2, 3, 4),
    source="zilch.txt: Suits, Skills (Suit Test, Criticals, recommended modifiers)",
    difficulty_notes={
        0: "no test (a +5 task needs no roll)",
        1: "easy: 3d6 (6 = 0) ≤ suit + 2",
        2: "normal: 3d6 (6 = 0) ≤ suit",
        3: "hard: 3d6 (6 = 0) ≤ suit − 2",
        4: "very hard: 3d6 (6 = 0) ≤ suit − 5",
    },
    typical_score=7,
    score_range=(2, 14),
    doc="docs/rulesets/zilch.md",
    sections=(
        ("Suits", ("♣ Clubs: strength, athletics, combat (Fighter)", "♠ Spades: dexterity, stealth, defence, "
                   "speed (Rogue)", "♦ Diamonds: knowledge, magic (Spellcaster)",
                   "♥ Hearts: health and will; Heart chips are hit points")),
        ("Degrees", ("critical success: roll ≤ skill − 5, or 0 (three sixes) unless skill ≤ 2",
                     "critical failure: roll > skill + 5, or 15 (three fives) unless skill ≥ 14",
                     "contests: one success wins; both succeed, the lower roll wins; else a draw")),
        ("Character", ("one card from each suit's pile of 5–10; a hand of 25 or less may be redrawn",
                       "class: Fighter (♣ chips add offensive pips) or Rogue (♠ chips add defensive pips); "
                       "chips up to the card's value; HP = ♥")),
        ("Combat", ("initiative: ♠ + 1d6 each side", "each round a stance and a domino from a shuffled "
                    "set (blank ends removed): Reckless both ends offensive (defenceless), Bold greater "
                    "offensive, Cautious lesser offensive, Guarded both defensive (no attack)",
                    "attack hits when ♣ + offensive pips ≥ ♠ + defensive pips; damage = the weapon's, +1 "
                    "per 5 points of margin, minus the target's damage resistance (armour, shield)",
                    "chips: a Fighter's ♣ add offensive pips to one attack, a Rogue's ♠ defensive pips "
                    "against one blow",
                    "two-weapon fighting (two light, or a heavy and a tiny weapon): the offensive pips split "
                    "between two attacks, at least 1 each",
                    "Disarm (a Special Attack): no damage, defended with the better of ♠ and ♣; Ready "
                    "(Cautious): strike just before a creature attacks",
                    "size (Size N: long dimension in feet): Tiny ×¼, Small ×½, Large ×2, Huge ×4, "
                    "Tremendous ×8 on a creature's damage, and on its HP from Hearts")),
        ("Recovery", ("rally (2 minutes): class chips back, −1 per rally marker",
                      "rest (an hour, 50% interrupted in a dungeon): chips back, a rally marker off, "
                      "♦ First Aid: CS +2, S +1, F 0, CF −1 HP",
                      "sleep (8 hours, once in 24): all markers off, chips back, up to 2 HP, up to 2 drain off",
                      "temporary damage (unarmed blows): rally gives 1 HP of it back, rest and sleep all",
                      "0 HP: unconscious; damage beyond drains ♥; ♥ drained to 0 is death")),
    ),
)
