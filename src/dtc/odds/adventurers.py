"""Who reads the book: one given adventurer, or every freshly rolled one with its exact weight.

The chain's branch chances depend on the adventurer only through the scores the book's checks
use, so a fresh adventurer is enumerated over just those: each named ability the book checks,
plus (when a check names no ability, so the reader uses their best score) the best of the
others. Adventurers that give every check the same chance are merged, and each remaining one is
solved exactly and weighted by its probability. When that would take more than
:data:`MAX_ADVENTURERS` distinct adventurers (or more work than
:data:`MAX_WORK`: adventurers times entries cubed), the chain
falls back to the *average adventurer*: each check passes with its exact fresh-adventurer chance,
as if separate checks were independent (for one adventurer they are not), and the report says so.

A feature that favours some choices by their words (Maze Rats' Paths) splits the mixture: each
adventurer is taken with each feature they may be made with (:meth:`Ruleset.fresh_features`,
drawn apart from the scores), the features that favour the same of the book's checks together,
so every reader's chance of every check is exact.

A gate on a score (``if STR >= 12``) splits it too: given ``gates``, each reader's chances end
with one more per gate, 1 where the gate is open for that adventurer and 0 where it is closed,
so adventurers the gates tell apart are never merged (:func:`dtc.odds.analyze.compute_odds`
solves the chain once per group of them).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from itertools import product

from dtc.odds.checks import (
    approach_probability,
    best_distribution,
    dealt_together,
    feature_groups,
    fold_projection,
    fresh_check_probability,
    joint_characters,
    key_probability,
    score_distribution,
)
from dtc.odds.options import CheckKey
from dtc.systems import Ruleset

Check = CheckKey
#: A gate on a score: (the ability, as the ruleset spells it; the comparison; the number).
Gate = tuple[str, str, int]
MAX_COMBINATIONS = 65536
MAX_ADVENTURERS = 4096
MAX_WORK = 2_000_000_000  # distinct adventurers x states cubed (dense solves)


@dataclass(frozen=True, slots=True)
class Reader:
    """An adventurer as the chain needs them: a weight and the chance of each check (book.checks order)."""

    weight: Fraction
    chances: tuple[Fraction, ...]


@dataclass(slots=True)
class Readers:
    method: str  # character | mixture | average
    readers: list[Reader]
    description: str


def check_chance(ruleset: Ruleset, abilities: Mapping[str, int], check: Check, approach: str, *,
                 encumbered: bool = False, feature: str | None = None) -> Fraction:
    p = key_probability(ruleset, abilities, check, feature=feature, encumbered=encumbered)
    return approach_probability(ruleset, approach, check.difficulty, p)


def for_character(ruleset: Ruleset, abilities: Mapping[str, int], checks: list[Check], approach: str, *,
                  encumbered: bool = False, feature: str | None = None) -> Readers:
    """One adventurer: their scores and ``feature`` (Maze Rats: their Path, or None)."""
    chances = tuple(check_chance(ruleset, abilities, c, approach, encumbered=encumbered, feature=feature)
                    for c in checks)
    scores = ", ".join(f"{k} {v}" for k, v in abilities.items())
    typical = [n for n in ruleset.ability_names if n not in abilities]
    rest = (f"; {', '.join(typical)} {ruleset.typical_score} (the ruleset's typical score)" if typical and scores
            else f"every ability at {ruleset.typical_score} (the ruleset's typical score)" if typical else "")
    has = f" and the feature {feature}" if feature is not None else ""
    return Readers("character", [Reader(Fraction(1), chances)], f"the adventurer with {scores}{rest}{has}")


def _gate_bits(gates: tuple[Gate, ...], scores: Mapping[str, int]) -> tuple[Fraction, ...]:
    """1 for each gate open to an adventurer with ``scores``, 0 for each closed."""
    from dtc.runtime.conditions import compared

    return tuple(Fraction(int(compared(op, scores.get(a, -1), count))) for a, op, count in gates)


def _relevant(ruleset: Ruleset, checks: list[Check], gates: tuple[Gate, ...] = ()) -> tuple[list[str], bool, list[str]]:
    names = ruleset.ability_names
    used = {c.ability for c in checks if c.ability is not None} | {a for a, _, _ in gates}
    named = sorted({a for a in used if a in names}, key=names.index)
    best = any(c.ability is None for c in checks)
    others = [n for n in names if n not in named]
    return named, best, others


def _merge(vectors: list[tuple[tuple[Fraction, ...], Fraction]], states: int) -> list[Reader] | None:
    merged: dict[tuple[Fraction, ...], Fraction] = {}
    for vector, weight in vectors:
        merged[vector] = merged.get(vector, Fraction(0)) + weight
    if len(merged) > MAX_ADVENTURERS or len(merged) * max(states, 1) ** 3 > MAX_WORK:
        return None
    return [Reader(w, v) for v, w in merged.items()]


def fresh(ruleset: Ruleset, checks: list[Check], approach: str, states: int, *,
          encumbered: bool = False, gates: tuple[Gate, ...] = ()) -> Readers:
    """Every freshly made adventurer (exact mixture), or the average one when that is too many;
    with ``gates``, each reader's chances followed by the gates' bits (see the module)."""
    groups = feature_groups(ruleset, checks)
    readers: list[Reader] | None = []
    for share, feature in groups:
        part = _fresh(ruleset, checks, approach, states, encumbered, feature, gates)
        if part is None or readers is None:
            readers = None
            break
        readers.extend(Reader(share * r.weight, r.chances) for r in part)
    if readers is not None and len(groups) > 1:
        readers = _merge([(r.chances, r.weight) for r in readers], states)
    if readers is None:
        return average(ruleset, checks, approach, encumbered=encumbered)
    return Readers("mixture", readers, f"every freshly made adventurer ({len(readers)} distinct for this "
                   "book's checks, each weighted by its exact chance)")


def _fresh(ruleset: Ruleset, checks: list[Check], approach: str, states: int, encumbered: bool,
           feature: str | None, gates: tuple[Gate, ...] = ()) -> list[Reader] | None:
    """The mixture of fresh adventurers who all have ``feature`` (weights summing to 1)."""
    joint = joint_characters(ruleset)
    if joint is not None and len(joint) <= MAX_COMBINATIONS:
        return _merge([(tuple(check_chance(ruleset, a, c, approach, encumbered=encumbered, feature=feature)
                              for c in checks) + _gate_bits(gates, a), w) for w, a in joint], states)
    if joint is None and dealt_together(ruleset):
        return _projected(ruleset, checks, approach, states, encumbered, feature, gates)
    if joint is None:
        return _independent(ruleset, checks, approach, states, encumbered, feature, gates)
    return None


def _independent(ruleset: Ruleset, checks: list[Check], approach: str, states: int,
                 encumbered: bool, feature: str | None, gates: tuple[Gate, ...] = ()) -> list[Reader] | None:
    """The mixture when each ability is drawn independently: enumerate only what the checks
    (and the score gates) use."""
    named, best, others = _relevant(ruleset, checks, gates)
    axes: list[dict[int, Fraction]] = [score_distribution(ruleset, name) for name in named]
    if best and others:
        axes.append(best_distribution(ruleset, others))
    combos = 1
    for axis in axes:
        combos *= len(axis)
    if combos > MAX_COMBINATIONS:
        return None
    # Exact weights as integers over one denominator per axis (Fractions are slow to multiply and hash).
    int_axes: list[list[tuple[int, int]]] = []
    denominator = 1
    for axis in axes:
        den = math.lcm(*(p.denominator for p in axis.values()))
        int_axes.append([(s, int(p * den)) for s, p in axis.items()])
        denominator *= den
    values: dict[Fraction, int] = {}
    table: dict[tuple[int, int], int] = {}  # (check index, deciding score) -> index into values

    def chance(ci: int, scores: dict[str, int]) -> int:
        ability = checks[ci][0]
        # -1: an ability the ruleset does not know (its chance is fixed)
        score = max(scores.values(), default=-1) if ability is None else scores.get(ability, -1)
        key = (ci, score)
        if key not in table:
            p = check_chance(ruleset, scores, checks[ci], approach, encumbered=encumbered, feature=feature)
            table[key] = values.setdefault(p, len(values))
        return table[key]

    merged: dict[tuple[int, ...], int] = {}
    for picks in product(*int_axes):
        scores = {name: s for name, (s, _) in zip(named, picks, strict=False)}
        rest = picks[len(named)][0] if len(picks) > len(named) else ruleset.typical_score
        scores.update({name: rest for name in others})
        weight = 1
        for _, w in picks:
            weight *= w
        vector = tuple(chance(ci, scores) for ci in range(len(checks)))
        if gates:
            vector += tuple(values.setdefault(b, len(values)) for b in _gate_bits(gates, scores))
        merged[vector] = merged.get(vector, 0) + weight
    if len(merged) > MAX_ADVENTURERS or len(merged) * max(states, 1) ** 3 > MAX_WORK:
        return None
    by_index = list(values)
    return [Reader(Fraction(w, denominator), tuple(by_index[i] for i in v)) for v, w in merged.items()]


def _projected(ruleset: Ruleset, checks: list[Check], approach: str, states: int,
               encumbered: bool, feature: str | None, gates: tuple[Gate, ...] = ()) -> list[Reader] | None:
    """The mixture when scores are dealt together (:func:`~dtc.odds.checks.fold_projection`): each
    check's chance is worked out once per score that decides it (for a check naming no ability,
    once per combination of the parts' best scores)."""
    named, best, _ = _relevant(ruleset, checks, gates)
    folded = fold_projection(ruleset, named, best, limit=MAX_COMBINATIONS)
    if folded is None:
        return None
    deals, denominator = folded
    groups = ruleset.ability_groups()
    values: dict[Fraction, int] = {}
    table: dict[tuple[int, tuple[int, ...]], int] = {}
    merged: dict[tuple[int, ...], int] = {}
    for weight, scores in deals:
        vector = []
        for ci, check in enumerate(checks):
            ability = check[0]
            if ability is None:
                key = tuple(max((scores[a] for a in g if a in scores), default=-1) for g in groups)
            else:
                key = (scores.get(ability, -1),)
            at = table.get((ci, key))
            if at is None:
                p = check_chance(ruleset, scores, check, approach, encumbered=encumbered, feature=feature)
                at = table[(ci, key)] = values.setdefault(p, len(values))
            vector.append(at)
        vector.extend(values.setdefault(b, len(values)) for b in _gate_bits(gates, scores))
        merged[tuple(vector)] = merged.get(tuple(vector), 0) + weight
    if len(merged) > MAX_ADVENTURERS or len(merged) * max(states, 1) ** 3 > MAX_WORK:
        return None
    by_index = list(values)
    return [Reader(Fraction(w, denominator), tuple(by_index[i] for i in v)) for v, w in merged.items()]


def average(ruleset: Ruleset, checks: list[Check], approach: str, *, encumbered: bool = False) -> Readers:
    """Each check at its exact chance for a fresh adventurer, separate checks taken as independent."""
    groups = feature_groups(ruleset, checks)
    chances = []
    for check in checks:
        ability, difficulty, favoured = check
        chances.append(sum((share * approach_probability(ruleset, approach, difficulty, fresh_check_probability(
            ruleset, ability, difficulty, encumbered=encumbered, favoured=feature is not None and feature in favoured))
            for share, feature in groups), Fraction(0)))
    return Readers("average", [Reader(Fraction(1), tuple(chances))],
                   "the average fresh adventurer (each check at its exact fresh chance; separate checks "
                   "treated as independent, too many distinct adventurers to enumerate)")
