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
that is used instead (scores dealt together are not independent).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

from dtc.systems import Ruleset
from dtc.systems.distributions import sum_distribution


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


def parts_of(ruleset: Ruleset) -> tuple[Ruleset, ...]:
    """The rulesets a combination is made of (base first); a plain ruleset is its own one part."""
    parts: tuple[Ruleset, ...] = getattr(ruleset, "parts", ())
    return parts or (ruleset,)


def combined_mixture(ruleset: Ruleset, named: list[str], best: bool) -> list[tuple[Fraction, dict[str, int]]] | None:
    """Every fresh adventurer of a base ruleset with an overlay, as far as checks on ``named`` (and, when
    ``best``, on no ability: each part's best score) can tell them apart: ``(weight, scores)``.

    Each part's abilities are drawn the part's way — the base's dealt together when it gives a joint
    distribution (``fresh_characters()``), else each on its own — and the parts independently. A check
    naming no ability uses each part's best score (:meth:`Combined.check_probability`), so the other
    abilities of a part are set to the best of them: never one part's score on another part's ability.
    None when that is more than :data:`MAX_MIXTURE` adventurers.
    """
    owner = getattr(ruleset, "owner", None)
    axes: list[list[tuple[Fraction, dict[str, int]]]] = []
    for n, part in enumerate(parts_of(ruleset)):
        mine = [a for a in ruleset.ability_names if owner is None or owner(a) is part]
        part_named = [a for a in named if a in mine]
        part_others = [a for a in mine if a not in named] if best else []
        joint = part.fresh_characters() if n == 0 else None
        if joint is not None:
            projected: dict[tuple[int, ...], Fraction] = {}
            for w, scores in joint:
                key = tuple(scores[a] for a in part_named)
                if part_others:
                    key += (max(scores[a] for a in part_others),)
                projected[key] = projected.get(key, Fraction(0)) + Fraction(w)
            axes.append([(w, {**dict(zip(part_named, key, strict=False)),
                              **dict.fromkeys(part_others, key[-1] if part_others else 0)})
                         for key, w in projected.items()])
            continue
        for a in part_named:
            axes.append([(w, {a: s}) for s, w in score_distribution(ruleset, a).items()])
        if part_others:
            tops = best_distribution(ruleset, part_others)
            axes.append([(w, dict.fromkeys(part_others, s)) for s, w in tops.items()])
    size = 1
    for axis in axes:
        size *= len(axis)
    if size > MAX_MIXTURE:
        return None
    out: list[tuple[Fraction, dict[str, int]]] = [(Fraction(1), {})]
    for axis in axes:
        out = [(w * v, {**scores, **more}) for w, scores in out for v, more in axis]
    return out


#: The most adventurers :func:`combined_mixture` enumerates.
MAX_MIXTURE = 65536


def uniform_character(ruleset: Ruleset, score: int) -> dict[str, int]:
    return {name: score for name in ruleset.ability_names}


def describe_scores(ruleset: Ruleset) -> str:
    if joint_characters(ruleset) is not None:
        return "as the ruleset deals them (its exact joint distribution)"
    three = sum_distribution(3)
    if all(score_distribution(ruleset, a) == three for a in ruleset.ability_names):
        return "3d6 for each ability, independently"
    return "each ability drawn independently from the ruleset's starting scores"


def fresh_check_probability(ruleset: Ruleset, ability: str | None, difficulty: int, *,
                            encumbered: bool = False) -> Fraction:
    """The exact chance that a freshly made adventurer passes the check.

    A named ability is one score's distribution; no ability means the reader uses their best
    score (the Ruleset contract), so the mixture is over the best of all the abilities.
    """
    joint = joint_characters(ruleset)
    if joint is not None:
        return sum((w * ruleset.check_probability(a, ability, difficulty, encumbered=encumbered) for w, a in joint),
                   Fraction(0))
    if len(parts_of(ruleset)) > 1:
        canonical = ruleset.canonical_ability(ability) if ability is not None else None
        mixture = combined_mixture(ruleset, [canonical or ability] if ability is not None else [], ability is None)
        if mixture is not None:
            return sum((w * ruleset.check_probability(a, ability, difficulty, encumbered=encumbered)
                        for w, a in mixture), Fraction(0))
    canonical = ruleset.canonical_ability(ability) if ability is not None else None
    dist = best_distribution(ruleset) if ability is None else score_distribution(ruleset, canonical or ability)
    total = Fraction(0)
    for score, weight in dist.items():
        total += weight * ruleset.check_probability(uniform_character(ruleset, score), ability, difficulty,
                                                    encumbered=encumbered)
    return total


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


def approach_probability(ruleset: Ruleset, approach: str, difficulty: int, p_check: Fraction) -> Fraction:
    """The chance a choice succeeds when the reader meets it by ``approach``."""
    if difficulty <= 0:
        return Fraction(1)
    if approach == "check":
        return p_check
    return best_mix(option_mixes(ruleset, difficulty, p_check), gear=approach == "gear").success
