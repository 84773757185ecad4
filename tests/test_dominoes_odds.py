"""Zilch's domino odds: the cached, counted form equals the enumeration of every pair of tiles.

:func:`dtc.systems.zilch.dominoes._pairs` lists every (attacker's tile, defender's tile, weight)
as the rules read; the odds the game uses are summed by pips and cached per distinct question.
Both must give the very same fractions for any stances, known or hidden tiles, and any multiset
of unseen tiles (including an empty one and tiles seen twice).
"""

from __future__ import annotations

import random
from fractions import Fraction

import dtc.systems.zilch.dominoes as dom


def reference(attacker: dom.Side, defender: dom.Side, weapon: int,
              remaining: list[dom.Domino]) -> tuple[dict[int, Fraction], Fraction]:
    pairs, total = dom._pairs(attacker, defender, remaining)
    ways: dict[int, int] = {}
    hits = 0
    for a_tile, d_tile, w in pairs:
        attack = attacker.suit + dom.pips(a_tile, attacker.stance)[0] + attacker.extra
        defence = defender.suit + dom.pips(d_tile, defender.stance)[1] + defender.extra
        d = dom.blow(attack, defence, weapon, defender.resistance)
        ways[d] = ways.get(d, 0) + w
        hits += w if attack >= defence else 0
    return {d: Fraction(w, total) for d, w in sorted(ways.items())}, Fraction(hits, total)


def side(rng: random.Random) -> dom.Side:
    known = rng.random() < 0.3
    tile = rng.choice([*dom.SET, None]) if known or rng.random() < 0.2 else None
    return dom.Side(rng.randint(3, 12), rng.choice(dom.STANCES), tile, known=known,
                    extra=rng.choice((0, 0, 1, 2)), resistance=rng.choice((0, 1, 2, 3)))


def test_counted_odds_equal_the_enumeration_of_every_pair() -> None:
    rng = random.Random(21)
    for _ in range(1500):
        size = rng.choice((0, 1, 2, 3, 8, 15, 21))
        remaining = rng.sample(dom.SET, size) if rng.random() < 0.8 else [rng.choice(dom.SET) for _ in range(size)]
        attacker, defender, weapon = side(rng), side(rng), rng.randint(1, 4)
        dist, hit = reference(attacker, defender, weapon, remaining)
        assert dom.blow_distribution(attacker, defender, weapon, remaining) == dist
        assert list(dom.blow_distribution(attacker, defender, weapon, remaining)) == list(dist)
        assert dom.hit_chance(attacker, defender, remaining) == hit
        assert dom.mean(dist) == sum((d * p for d, p in dist.items()), Fraction(0))


def test_a_cached_answer_is_a_copy_the_caller_may_change() -> None:
    me, them = dom.Side(8, dom.BOLD, known=False), dom.Side(7, dom.CAUTIOUS, known=False)
    first = dom.blow_distribution(me, them, 3)
    first.clear()
    assert dom.blow_distribution(me, them, 3)
