"""The odds of one choice: its check, for one adventurer or a freshly rolled one, and its option mixes.

Everything here is exact (:class:`~fractions.Fraction`). The check itself comes from the
adventure's ruleset (:meth:`dtc.systems.Ruleset.check_probability`). What the Ruleset
interface does not say is kept behind a small function keyed by ruleset name, with a generic
fallback:

* which ways of meeting a difficulty there are (:func:`option_mixes`; Death & Treasure's
  "Taking Action": difficulty n needs n of {spend a turn, use appropriate gear, pass the
  check}, and spending a turn risks a 1-in-6 encounter; fallback: the check alone).

A fresh adventurer's scores come from :meth:`Ruleset.score_distribution` (Death & Treasure: 3d6
for each ability), each ability independently, unless the ruleset's
``fresh_characters()`` gives an exact joint distribution (a list of ``(weight, abilities)``): then
that is used instead (scores dealt together are not independent). A feature that favours some
choices (Maze Rats' Paths, :meth:`Ruleset.fresh_features`) is drawn apart from the scores: a
choice's chance for a fresh adventurer mixes over them (:func:`fresh_key_probability`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from typing import TYPE_CHECKING

from dtc.systems import Ruleset
from dtc.systems.distributions import sum_distribution

if TYPE_CHECKING:
    from dtc.odds.options import CheckKey


def base_name(ruleset: Ruleset) -> str:
    """The base ruleset's registry name (``death-and-treasure`` for ``death-and-treasure + x``)."""
    return ruleset.name.split(" + ")[0].strip()


def score_distribution(ruleset: Ruleset, ability: str | None = None) -> dict[int, Fraction]:
    """P(one freshly made adventurer's score in ``ability`` = s), as the ruleset says."""
    return {int(s): Fraction(p) for s, p in ruleset.score_distribution(ability).items() if p}


def max_of(dists: list[Mapping[int, Fraction]]) -> dict[int, Fraction]:
    """P(the best of independent scores, one drawn from each of ``dists``, = s)."""
    support = sorted(set().union(*dists)) if dists else []
    cdfs = [dict.fromkeys(support, Fraction(0)) for _ in dists]
    for cdf, dist in zip(cdfs, dists, strict=True):
        total = Fraction(0)
        for s in support:
            total += dist.get(s, Fraction(0))
            cdf[s] = total
    out: dict[int, Fraction] = {}
    below = Fraction(0)
    for s in support:
        at_most = Fraction(1)
        for cdf in cdfs:
            at_most *= cdf[s]
        if at_most != below:
            out[s] = at_most - below
        below = at_most
    return out


def best_distribution(ruleset: Ruleset, abilities: list[str] | None = None) -> dict[int, Fraction]:
    """P(the best of ``abilities`` (default: all) of a fresh adventurer = s), independently drawn."""
    names = ruleset.ability_names if abilities is None else abilities
    return max_of([score_distribution(ruleset, a) for a in names] or [score_distribution(ruleset)])


def joint_characters(ruleset: Ruleset) -> list[tuple[Fraction, dict[str, int]]] | None:
    """The ruleset's exact joint distribution of fresh adventurers, when it offers one."""
    deals = ruleset.fresh_characters()
    if deals is None:
        return None
    return [(Fraction(w), {str(k): int(v) for k, v in abilities.items()}) for w, abilities in deals]


def dealt_together(ruleset: Ruleset) -> bool:
    """Whether the plain ways (each ability independent, or :meth:`Ruleset.fresh_characters` listed
    whole) miss how a fresh adventurer is made: a combination whose parts each take their own best
    score, or whose overlay copies a base score (Dungeon Rules' AGI is Death & Treasure's DEX)."""
    if ruleset.fresh_characters() is not None:
        return False
    return len(ruleset.ability_groups()) > 1 or any(len(names) > 1 for names, _ in ruleset.fresh_blocks())


NONE = -(10**9)  # no score dealt yet (below any score)


def fresh_projection(ruleset: Ruleset, named: list[str], best: bool, *,
                     limit: int | None = None) -> list[tuple[Fraction, dict[str, int]]] | None:
    """The exact distribution of fresh adventurers, cut down to what checks of ``named`` abilities
    (and, when ``best``, a check naming none) can tell apart.

    The ruleset's independent blocks (:meth:`Ruleset.fresh_blocks`) are folded one by one, each
    kept only as the ``named`` scores it deals and, per part (:meth:`Ruleset.ability_groups`), the
    best of that part's other scores; equal keys merge. Each resulting adventurer has the
    ``named`` scores and, when ``best``, every other ability of a part at that part's best, so
    :meth:`Ruleset.check_probability` gives every such check its exact chance. None when more
    than ``limit`` adventurers would remain.
    """
    folded = fold_projection(ruleset, named, best, limit=limit)
    if folded is None:
        return None
    deals, denominator = folded
    return [(Fraction(w, denominator), scores) for w, scores in deals]


def fold_projection(ruleset: Ruleset, named: list[str], best: bool, *,
                    limit: int | None = None) -> tuple[list[tuple[int, dict[str, int]]], int] | None:
    """:func:`fresh_projection` with integer weights over one denominator (returned with them)."""
    groups = ruleset.ability_groups() if best else []
    slot = {name: i for i, name in enumerate(named)}
    group_of = {a: g for g, names in enumerate(groups) for a in names}
    width = len(named) + len(groups)
    empty = (NONE,) * width
    state: dict[tuple[int, ...], int] = {empty: 1}
    denominator = 1
    for names, deals in ruleset.fresh_blocks():
        den = math.lcm(*(Fraction(w).denominator for w, _ in deals)) if deals else 1
        part: dict[tuple[int, ...], int] = {}
        for weight, values in deals:
            key = [NONE] * width
            for name, value in zip(names, values, strict=True):
                at = slot.get(name)
                if at is None and name in group_of:
                    at = len(named) + group_of[name]
                if at is not None:
                    key[at] = max(key[at], value)  # a named score is dealt once; a part keeps its best
            k = tuple(key)
            part[k] = part.get(k, 0) + int(Fraction(weight) * den)
        if all(k == empty for k in part):
            continue  # a block no check reads
        denominator *= den
        folded: dict[tuple[int, ...], int] = {}
        for a, wa in state.items():
            for b, wb in part.items():
                k = tuple(map(max, a, b))
                folded[k] = folded.get(k, 0) + wa * wb
        if limit is not None and len(folded) > limit:
            return None
        state = folded
    out: list[tuple[int, dict[str, int]]] = []
    for dealt, ways in state.items():
        scores = {name: dealt[i] for name, i in slot.items() if dealt[i] != NONE}
        for g, members in enumerate(groups):
            top = dealt[len(named) + g]
            if top != NONE:
                scores.update({a: top for a in members if a not in slot})
        out.append((ways, scores))
    return out, denominator


def uniform_character(ruleset: Ruleset, score: int) -> dict[str, int]:
    return {name: score for name in ruleset.ability_names}


def describe_scores(ruleset: Ruleset) -> str:
    if dealt_together(ruleset):
        return "as the rules make them, each part's own way (its exact joint distribution)"
    if joint_characters(ruleset) is not None:
        return "as the ruleset deals them (its exact joint distribution)"
    three = sum_distribution(3)
    if all(score_distribution(ruleset, a) == three for a in ruleset.ability_names):
        return "3d6 for each ability, independently"
    return "each ability drawn independently from the ruleset's starting scores"


def fresh_check_probability(ruleset: Ruleset, ability: str | None, difficulty: int, *,
                            encumbered: bool = False, favoured: bool = False) -> Fraction:
    """The exact chance that a freshly made adventurer passes the check.

    A named ability is one score's distribution; no ability means the reader uses their best
    score (the Ruleset contract), so the mixture is over the best of all the abilities.
    ``favoured``: every such adventurer has a feature that favours the choice
    (:meth:`Ruleset.favoured_probability`); :func:`fresh_key_probability` mixes over features.
    """
    ask = ruleset.favoured_probability if favoured else ruleset.check_probability
    joint = joint_characters(ruleset)
    if joint is None and dealt_together(ruleset):
        canonical = ruleset.canonical_ability(ability) if ability is not None else None
        named = [canonical] if canonical in ruleset.ability_names else []
        joint = fresh_projection(ruleset, named, ability is None)
    if joint is not None:
        return sum((w * ask(a, ability, difficulty, encumbered=encumbered) for w, a in joint), Fraction(0))
    canonical = ruleset.canonical_ability(ability) if ability is not None else None
    dist = best_distribution(ruleset) if ability is None else score_distribution(ruleset, canonical or ability)
    total = Fraction(0)
    for score, weight in dist.items():
        total += weight * ask(uniform_character(ruleset, score), ability, difficulty, encumbered=encumbered)
    return total


def key_probability(ruleset: Ruleset, abilities: Mapping[str, int], check: CheckKey, *, feature: str | None = None,
                    encumbered: bool = False) -> Fraction:
    """The exact chance that one adventurer (its scores and its ``feature``, Maze Rats' Path or
    None) passes a choice's check (:class:`~dtc.odds.options.CheckKey`)."""
    ability, difficulty, favoured = check
    if feature is not None and feature in favoured:
        return ruleset.favoured_probability(abilities, ability, difficulty, encumbered=encumbered)
    return ruleset.check_probability(abilities, ability, difficulty, encumbered=encumbered)


def fresh_key_probability(ruleset: Ruleset, check: CheckKey, *, encumbered: bool = False) -> Fraction:
    """The exact chance that a freshly made adventurer passes a choice's check: the mixture over
    the features they may be made with (:meth:`Ruleset.fresh_features`, drawn apart from the
    scores), each favoured one rolling as :meth:`Ruleset.favoured_probability` says."""
    ability, difficulty, favoured = check
    total = Fraction(0)
    for share, feature in feature_groups(ruleset, [check]):
        total += share * fresh_check_probability(ruleset, ability, difficulty, encumbered=encumbered,
                                                 favoured=feature is not None and feature in favoured)
    return total


def feature_groups(ruleset: Ruleset, checks: list[CheckKey]) -> list[tuple[Fraction, str | None]]:
    """A fresh adventurer's features, those that favour the same of ``checks`` taken together:
    ``(chance, one feature of the group)``. One group, ``(1, None)``, when no check is favoured
    by any (every other ruleset, and most Maze Rats books' checks)."""
    groups: dict[tuple[int, ...], tuple[Fraction, str | None]] = {}
    for share, feature in ruleset.fresh_features():
        helps = tuple(i for i, c in enumerate(checks) if feature is not None and feature in c[2])
        before, first = groups.get(helps, (Fraction(0), feature if helps else None))
        groups[helps] = (before + share, first)
    return list(groups.values())


# --- option mixes -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Mix:
    """One way of meeting a difficulty: which options it uses, its odds and its encounter risk."""

    parts: tuple[str, ...]  # of "turn", "gear", "check"; empty for D0
    success: Fraction
    encounter: Fraction  # chance that meeting it this way triggers an encounter
    needs_gear: bool

    @property
    def name(self) -> str:
        return " + ".join(self.parts) if self.parts else "nothing needed"

    def to_dict(self) -> dict[str, object]:
        return {"parts": list(self.parts), "success": float(self.success), "success_exact": str(self.success),
                "encounter": float(self.encounter), "needs_gear": self.needs_gear}


#: Mix makers: (difficulty, chance the check passes) -> every way to meet it.
MixMaker = Callable[[int, Fraction], list[Mix]]
ENCOUNTER_PER_TURN = Fraction(1, 6)  # Death & Treasure, "Encounters": 1-in-6 per turn spent


def _death_and_treasure_mixes(difficulty: int, p_check: Fraction) -> list[Mix]:
    if difficulty <= 0:
        return [Mix((), Fraction(1), Fraction(0), False)]
    need = min(difficulty, 3)
    mixes = []
    for parts in combinations(("turn", "gear", "check"), need):
        mixes.append(Mix(parts, p_check if "check" in parts else Fraction(1),
                         ENCOUNTER_PER_TURN if "turn" in parts else Fraction(0), "gear" in parts))
    return mixes


def _check_alone(difficulty: int, p_check: Fraction) -> list[Mix]:
    if difficulty <= 0:
        return [Mix((), Fraction(1), Fraction(0), False)]
    return [Mix(("check",), p_check, Fraction(0), False)]


MIXES: dict[str, MixMaker] = {"death-and-treasure": _death_and_treasure_mixes}


def option_mixes(ruleset: Ruleset, difficulty: int, p_check: Fraction) -> list[Mix]:
    """Every way to meet ``difficulty`` under ``ruleset`` (generic fallback: the check alone)."""
    return MIXES.get(base_name(ruleset), _check_alone)(difficulty, p_check)


IMPOSSIBLE = Mix(("impossible",), Fraction(0), Fraction(0), False)


def best_mix(mixes: list[Mix], *, gear: bool) -> Mix:
    """The surest mix (ties: the one least likely to bring an encounter); gear only if ``gear``.

    When no mix is open (Death & Treasure D3 without gear) the result is :data:`IMPOSSIBLE`.
    """
    open_ = [m for m in mixes if gear or not m.needs_gear]
    if not open_:
        return IMPOSSIBLE
    return max(open_, key=lambda m: (m.success, -m.encounter, -len(m.parts)))


#: ``--approach`` values: how a reader meets a choice's difficulty in the chain.
APPROACHES = {
    "check": "every check is rolled with the dice of its difficulty (any other need, such as gear, met)",
    "best": "each choice is met the surest way without gear (ties: least encounter risk)",
    "gear": "each choice is met the surest way, with appropriate gear always at hand",
}


def other_ways(ruleset: Ruleset) -> bool:
    """Whether the system meets a difficulty other ways than the check (Death & Treasure's turn
    and gear); for the others the check is all, and the odds say nothing of gear."""
    return base_name(ruleset) in MIXES


def approach_words(ruleset: Ruleset, approach: str) -> str:
    """``APPROACHES[approach]`` in the system's terms: where the check is the only way, no gear."""
    if other_ways(ruleset):
        return APPROACHES[approach]
    return f"every check is rolled with the dice of its difficulty ({ruleset.title} meets a difficulty no other way)"


def approach_probability(ruleset: Ruleset, approach: str, difficulty: int, p_check: Fraction) -> Fraction:
    """The chance a choice succeeds when the reader meets it by ``approach``."""
    if difficulty <= 0:
        return Fraction(1)
    if approach == "check":
        return p_check
    return best_mix(option_mixes(ruleset, difficulty, p_check), gear=approach == "gear").success
