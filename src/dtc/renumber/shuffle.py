"""Spread entry numbers so that the two outcomes of a check are never close together.

A printed gamebook shows neighbouring entries on the same page, so a reader who can see entry
24 while deciding on ``(DEX D3, S24, F25)`` learns the outcome before rolling. :func:`spread`
finds an assignment of numbers to entries in which every success/failure pair is at least
``gap`` apart. It is a randomized local search (min-conflicts with random restarts): start
from a random permutation, then repeatedly take an entry in a violated pair and swap its number
with the one of a sampled entry (or a spare number) that removes the most violations.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import TypeVar

K = TypeVar("K", bound=Hashable)

#: How many swap candidates are looked at per repair step.
SAMPLE = 32
#: Probability of taking a random candidate instead of the best one (escapes plateaus).
NOISE = 0.08
#: Repair steps per restart at most: a feasible book is spread long before this; an
#: impossible request gives up within seconds.
MAX_STEPS = 20_000


class Infeasible(ValueError):
    """No assignment was found (or none exists); the message says why in one line."""


def spread(
    keys: Sequence[K],
    pool: Sequence[int],
    fixed: Mapping[K, int],
    pairs: Sequence[tuple[K, K]],
    gap: int,
    rng: random.Random,
    *,
    restarts: int = 3,
) -> dict[K, int]:
    """Give each of ``keys`` a distinct number from ``pool`` so every pair is ``gap`` apart.

    ``fixed`` holds keys whose numbers may not move (they are not in ``keys`` and their
    numbers are not in ``pool``). Pairs between two fixed keys are ignored: the caller reports
    them. Raises :class:`Infeasible` when no assignment is found.
    """
    if len(pool) < len(keys):
        raise Infeasible(f"{len(keys)} entries but only {len(pool)} free numbers")
    free = set(keys)
    neighbours: dict[K, list[K]] = defaultdict(list)
    edges: list[tuple[K, K]] = []
    for a, b in pairs:
        if a == b or (a not in free and b not in free):
            continue
        if (a not in free and a not in fixed) or (b not in free and b not in fixed):
            continue
        edges.append((a, b))
        neighbours[a].append(b)
        neighbours[b].append(a)
    _check_possible(keys, pool, fixed, edges, gap)
    if not edges:
        order = list(pool)
        rng.shuffle(order)
        return dict(zip(keys, order, strict=False))
    steps = min(400 * len(edges) + 20 * len(keys) + 2000, MAX_STEPS)
    for _ in range(restarts):
        found = _search(list(keys), list(pool), fixed, edges, neighbours, gap, rng, steps)
        if found is not None:
            return found
    raise Infeasible(
        f"no numbering found that keeps every check's S and F at least {gap} apart "
        f"(searched {restarts} times)"
    )


def _check_possible(
    keys: Sequence[K], pool: Sequence[int], fixed: Mapping[K, int], edges: list[tuple[K, K]], gap: int
) -> None:
    """Fail early where a pair cannot be placed at all (a tiny book, or a huge gap)."""
    values = list(pool) + list(fixed.values())
    if not edges or not values:
        return
    width = max(values) - min(values)
    if width < gap:
        raise Infeasible(
            f"numbers {min(values)}–{max(values)} cannot hold two outcomes {gap} apart; use a smaller --gap"
        )
    free = set(keys)
    for a, b in edges:
        pinned = b if a in free else a
        if pinned in free:
            continue
        n = fixed[pinned]
        if not any(abs(v - n) >= gap for v in pool):
            raise Infeasible(f"no free number is {gap} or more away from kept entry {n}; use a smaller --gap")


def _search(
    keys: list[K],
    pool: list[int],
    fixed: Mapping[K, int],
    edges: list[tuple[K, K]],
    neighbours: Mapping[K, list[K]],
    gap: int,
    rng: random.Random,
    steps: int,
) -> dict[K, int] | None:
    rng.shuffle(pool)
    value: dict[K, int] = dict(fixed)
    value.update(zip(keys, pool, strict=False))
    holder: dict[int, K | None] = {n: None for n in pool[len(keys) :]}
    holder.update({value[k]: k for k in keys})
    free = set(keys)
    numbers = list(holder)

    def bad(a: K, b: K) -> bool:
        return abs(value[a] - value[b]) < gap

    violated = _IndexSet(i for i, (a, b) in enumerate(edges) if bad(a, b))
    edge_ids: dict[K, list[int]] = defaultdict(list)
    for i, (a, b) in enumerate(edges):
        edge_ids[a].append(i)
        edge_ids[b].append(i)

    def conflicts(k: K, at: int, other: K | None, other_at: int) -> int:
        """Violations around ``k`` if it held ``at`` while ``other`` held ``other_at``."""
        count = 0
        for n in neighbours.get(k, ()):
            v = other_at if n == other else value[n]
            if abs(at - v) < gap:
                count += 1
        return count

    for _ in range(steps):
        if not violated:
            return {k: value[k] for k in keys}
        a, b = edges[violated.pick(rng)]
        x = a if a in free and (b not in free or rng.random() < 0.5) else b
        vx = value[x]
        best: list[tuple[int, K | None]] = []
        best_delta = 1 << 30
        here = conflicts(x, vx, None, 0)
        for n in rng.sample(numbers, min(SAMPLE, len(numbers))):
            if n == vx:
                continue
            z = holder[n]
            before = here + (conflicts(z, n, None, 0) if z is not None else 0)
            after = conflicts(x, n, z, vx) + (conflicts(z, vx, x, n) if z is not None else 0)
            delta = after - before
            if delta < best_delta:
                best, best_delta = [(n, z)], delta
            elif delta == best_delta:
                best.append((n, z))
        if not best:
            continue
        if rng.random() < NOISE:
            n = rng.choice(numbers)
            if n == vx:
                continue
            z = holder[n]
        else:
            n, z = rng.choice(best)
        value[x], holder[n], holder[vx] = n, x, z
        if z is not None:
            value[z] = vx
        for k in (x, z):
            if k is None:
                continue
            for i in edge_ids.get(k, ()):
                if bad(*edges[i]):
                    violated.add(i)
                else:
                    violated.discard(i)
    return None


class _IndexSet:
    """A set of edge numbers with O(1) add, discard and random pick."""

    def __init__(self, items: Iterable[int]) -> None:
        self.items: list[int] = []
        self.where: dict[int, int] = {}
        for i in items:
            self.add(i)

    def __bool__(self) -> bool:
        return bool(self.items)

    def add(self, i: int) -> None:
        if i not in self.where:
            self.where[i] = len(self.items)
            self.items.append(i)

    def discard(self, i: int) -> None:
        at = self.where.pop(i, None)
        if at is None:
            return
        last = self.items.pop()
        if last != i:
            self.items[at] = last
            self.where[last] = at

    def pick(self, rng: random.Random) -> int:
        return self.items[rng.randrange(len(self.items))]
