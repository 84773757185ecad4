"""The best and the worst reader, and which checks decide the book.

A reader who picks among an entry's options is a *decision process* (a Markov decision process,
as probabilistic model checkers call it): each option leads on by the check's chance, and the
reader picks. :func:`optimal` finds, for one adventurer, the largest (or smallest) chance of
reaching the book's goal from every state and an option that achieves it, exactly:

* the states are taken component by component (strongly connected components of the chain with
  every option present), downstream first, so each component sees its successors' values final;
* a component of one state without a loop is one maximum; a larger one is solved by policy
  iteration: a policy's values are the solution of a linear system (a state that cannot leave its
  component under the policy never reaches the goal: 0), and a state switches option only when
  another is better by more than rounding; this ends, as policy iteration does, with the optimum.

The *goal* is a victory ending where the book has any (``THE END (victory)``); otherwise leaving
the dungeon by the entrance or an ending that is not a death.

:func:`sensitivity` tells, for each check of the book, how much the chance of the goal moves
when that one check becomes one difficulty easier or harder (exactly, by solving the chain
again), and the derivative of the chance with respect to the check's pass chance (the expected
visits of its states times the difference the outcome makes).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from dtc.odds.options import FAIL, PASS, SURE
from dtc.odds.small import PlainShape, _components

#: A switch of option must gain at least this much (rounding is not an improvement).
_GAIN = 1e-12
#: Rounds of policy iteration before the last policy is taken (never reached on real books).
_ROUNDS = 200


@dataclass(slots=True)
class Decision:
    """One adventurer's optimum: the value (chance of the goal) and chosen option per state."""

    value: list[float]
    choice: list[int]  # option index (into the shape's options), -1 for a state without options


def _layout(shape: PlainShape) -> tuple[list[int], list[int]]:
    """Per option its first branch; per state its first option (-1: none), as flat lists."""
    n_opt = len(shape.opt_state)
    first_br = [0] * (n_opt + 1)
    for o in shape.br_opt:
        first_br[o + 1] += 1
    for o in range(n_opt):
        first_br[o + 1] += first_br[o]
    first_opt = [-1] * (len(shape.states) + 1)
    for g, s in zip(shape.group_start, shape.group_state, strict=True):
        first_opt[s] = g
    return first_br, first_opt


def _options_of(shape: PlainShape, first_opt: list[int], s: int) -> range:
    g = first_opt[s]
    if g < 0:
        return range(0)
    end = g + 1
    n_opt = len(shape.opt_state)
    while end < n_opt and shape.opt_state[end] == s:
        end += 1
    return range(g, end)


def branch_probability(shape: PlainShape, p: Sequence[float], b: int) -> float:
    kind = shape.br_kind[b]
    if kind == PASS:  # (a share below 1: an outcome a rolled amount splits)
        return p[shape.opt_check[shape.br_opt[b]]] * float(shape.br_share[b])
    if kind == FAIL:
        return (1.0 - p[shape.opt_check[shape.br_opt[b]]]) * float(shape.br_share[b])
    return float(shape.br_share[b])


def optimal(shape: PlainShape, p: Sequence[float], goal: Sequence[bool], maximize: bool) -> Decision:
    """The best (``maximize``) or worst chance of reaching a ``goal`` state, and how."""
    n = len(shape.states)
    first_br, first_opt = _layout(shape)
    opts = [_options_of(shape, first_opt, s) for s in range(n)]
    moves: list[list[tuple[int, float]]] = []  # per option: (target, chance)
    for o in range(len(shape.opt_state)):
        moves.append([(shape.br_target[b], branch_probability(shape, p, b))
                      for b in range(first_br[o], first_br[o + 1])])
    value = [1.0 if goal[s] else 0.0 for s in range(n)]
    choice = [-1] * n
    succ = [[t for o in opts[s] for t, q in moves[o] if q > 0] for s in range(n)]
    def better(a: float, b: float) -> bool:
        return a > b + _GAIN if maximize else a < b - _GAIN

    for comp in _components(n, succ):  # downstream first
        if len(comp) == 1:
            s = comp[0]
            if not opts[s]:
                continue
            best_v, best_o = None, -1
            for o in opts[s]:
                stay = sum(q for t, q in moves[o] if t == s)
                out = sum(q * value[t] for t, q in moves[o] if t != s)
                v = out / (1.0 - stay) if stay < 1.0 - 1e-15 else 0.0
                if best_v is None or better(v, best_v):
                    best_v, best_o = v, o
            value[s], choice[s] = float(best_v or 0.0), best_o
            continue
        _component(comp, opts, moves, value, choice, better)
    return Decision(value, choice)


def _component(comp: list[int], opts: list[range], moves: list[list[tuple[int, float]]], value: list[float],
               choice: list[int], better: Callable[[float, float], bool]) -> None:
    """Policy iteration over one strongly connected component (values downstream are final)."""
    inside = {s: i for i, s in enumerate(comp)}
    policy = _first_policy(comp, inside, opts, moves, value, better(1.0, 0.0))
    for _ in range(_ROUNDS):
        v = _evaluate(comp, inside, policy, moves, value)
        for i, s in enumerate(comp):
            value[s] = v[i]
        changed = False
        for i, s in enumerate(comp):
            cur = sum(q * value[t] for t, q in moves[policy[i]])
            for o in opts[s]:
                if o != policy[i] and better(sum(q * value[t] for t, q in moves[o]), cur):
                    policy[i] = o
                    cur = sum(q * value[t] for t, q in moves[o])
                    changed = True
        if not changed:
            break
    for i, s in enumerate(comp):
        choice[s] = policy[i]


def _first_policy(comp: list[int], inside: dict[int, int], opts: list[range], moves: list[list[tuple[int, float]]],
                  value: list[float], maximize: bool) -> list[int]:
    """A policy to start from. Maximising: each state takes an option that leads toward a way out
    of the component with a positive value, by the fewest steps (policy iteration from a policy that
    loops forever in a part worth nothing would gain only one state a round). Minimising: the
    option worth least by what leaves the component at once, staying inside on a tie."""
    k = len(comp)
    if not maximize:
        return [min(opts[s], key=lambda o: (sum(q * value[t] for t, q in moves[o] if t not in inside),
                                            -sum(q for t, q in moves[o] if t in inside))) for s in comp]
    dist = [-1] * k
    order: list[int] = []
    for i, s in enumerate(comp):
        if any(any(t not in inside and q > 0 and value[t] > 0 for t, q in moves[o]) for o in opts[s]):
            dist[i] = 0
            order.append(i)
    preds: list[list[tuple[int, int]]] = [[] for _ in range(k)]
    for i, s in enumerate(comp):
        for o in opts[s]:
            for t, q in moves[o]:
                j = inside.get(t)
                if j is not None and q > 0:
                    preds[j].append((i, o))
    at = 0
    while at < len(order):
        j = order[at]
        at += 1
        for i, _ in preds[j]:
            if dist[i] < 0:
                dist[i] = dist[j] + 1
                order.append(i)
    policy = []
    for i, s in enumerate(comp):
        def score(o: int, i: int = i) -> tuple[int, float]:
            near = min((dist[inside[t]] for t, q in moves[o] if t in inside and q > 0 and dist[inside[t]] >= 0),
                       default=-1)
            out = sum(q * value[t] for t, q in moves[o] if t not in inside)
            if dist[i] == 0:
                return (0, -out)
            return (near if near >= 0 else k + 1, -out)
        policy.append(min(opts[s], key=score))
    return policy


def _evaluate(comp: list[int], inside: dict[int, int], policy: list[int], moves: list[list[tuple[int, float]]],
              value: list[float]) -> list[float]:
    """The values of one policy over a component: x = Q x + c, where c is what flows out."""
    k = len(comp)
    rows: list[list[tuple[int, float]]] = [[] for _ in range(k)]
    rhs = [0.0] * k
    for i in range(k):
        for t, q in moves[policy[i]]:
            j = inside.get(t)
            if j is None:
                rhs[i] += q * value[t]
            elif q > 0:
                rows[i].append((j, q))
    # states that never leave the component under this policy never reach the goal
    leaves = [any(inside.get(t) is None and q > 0 for t, q in moves[policy[i]]) for i in range(k)]
    back: list[list[int]] = [[] for _ in range(k)]
    for i in range(k):
        for j, _ in rows[i]:
            back[j].append(i)
    alive = list(leaves)
    work = [i for i in range(k) if alive[i]]
    while work:
        j = work.pop()
        for i in back[j]:
            if not alive[i]:
                alive[i] = True
                work.append(i)
    idx = [i for i in range(k) if alive[i]]
    if not idx:
        return [0.0] * k
    at = {i: m for m, i in enumerate(idx)}
    m = len(idx)
    out = [0.0] * k
    if m <= 300:
        a = [[0.0] * m for _ in range(m)]
        b = [rhs[i] for i in idx]
        for r, i in enumerate(idx):
            a[r][r] += 1.0
            for j, q in rows[i]:
                c = at.get(j)
                if c is not None:
                    a[r][c] -= q
        x = _gauss(a, b)
    else:
        import numpy as np
        import scipy.sparse as sp  # type: ignore[import-untyped]
        import scipy.sparse.linalg as spla  # type: ignore[import-untyped]

        ri, ci, vals = [], [], []
        for r, i in enumerate(idx):
            for j, q in rows[i]:
                c = at.get(j)
                if c is not None:
                    ri.append(r)
                    ci.append(c)
                    vals.append(q)
        qm = sp.csr_matrix((vals, (ri, ci)), shape=(m, m))
        x = list(spla.spsolve((sp.identity(m, format="csc") - qm).tocsc(), np.asarray([rhs[i] for i in idx])))
    for r, i in enumerate(idx):
        out[i] = min(1.0, max(0.0, float(x[r])))
    return out


def _gauss(a: list[list[float]], b: list[float]) -> list[float]:
    """Solve a x = b (Gaussian elimination with partial pivoting, small dense systems)."""
    k = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(k):
        pivot = max(range(col, k), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        d = m[col][col]
        if d == 0.0:
            continue
        row = m[col]
        for r in range(col + 1, k):
            f = m[r][col] / d
            if f != 0.0:
                other = m[r]
                for j in range(col, k + 1):
                    other[j] -= f * row[j]
    x = [0.0] * k
    for i in range(k - 1, -1, -1):
        d = m[i][i]
        x[i] = 0.0 if d == 0.0 else (m[i][k] - math.fsum(m[i][j] * x[j] for j in range(i + 1, k))) / d
    return x


def least(shape: PlainShape, p: Sequence[float], goal: Sequence[bool]) -> Decision:
    """:func:`optimal`, minimising, with the states from which the goal can be avoided for sure
    (a way to stay clear of it forever: an end component without the goal, or a way into one)
    first made to end there, worth 0. Policy iteration from a policy worth more may otherwise stop
    at a fixed point above the least chance (staying in a loop improves nothing one switch at a
    time); without such states the fixed point is one, and the minimum sound as a lower bound."""
    n = len(shape.states)
    first_br, first_opt = _layout(shape)
    opts = [_options_of(shape, first_opt, s) for s in range(n)]
    succ = [[shape.br_target[b] for b in range(first_br[o], first_br[o + 1]) if branch_probability(shape, p, b) > 0]
            for o in range(len(shape.opt_state))]
    avoid = [not goal[s] for s in range(n)]  # the greatest such set: remove what must leave it
    bad = [sum(1 for t in succ[o] if not avoid[t]) for o in range(len(succ))]
    good = [sum(1 for o in opts[s] if bad[o] == 0) for s in range(n)]
    preds: list[list[int]] = [[] for _ in range(n)]
    for o, ts in enumerate(succ):
        for t in ts:
            preds[t].append(o)
    work = [s for s in range(n) if avoid[s] and opts[s] and good[s] == 0]
    for s in work:
        avoid[s] = False
    while work:
        t = work.pop()
        for o in preds[t]:
            bad[o] += 1
            if bad[o] == 1:
                s = shape.opt_state[o]
                good[s] -= 1
                if avoid[s] and good[s] == 0:
                    avoid[s] = False
                    work.append(s)
    kept = [o for o in range(len(shape.opt_state)) if not avoid[shape.opt_state[o]]]
    if len(kept) == len(shape.opt_state):
        return optimal(shape, p, goal, False)
    new = {o: i for i, o in enumerate(kept)}
    opt_state = [shape.opt_state[o] for o in kept]
    group_start = [i for i in range(len(opt_state)) if i == 0 or opt_state[i] != opt_state[i - 1]]
    branches = [b for b in range(len(shape.br_opt)) if shape.br_opt[b] in new]
    trimmed = replace(shape, opt_state=opt_state, opt_check=[shape.opt_check[o] for o in kept],
                      group_start=group_start, group_state=[opt_state[i] for i in group_start],
                      br_opt=[new[shape.br_opt[b]] for b in branches],
                      br_target=[shape.br_target[b] for b in branches], br_kind=[shape.br_kind[b] for b in branches],
                      br_share=[shape.br_share[b] for b in branches], br_exit=[])
    return optimal(trimmed, p, goal, False)


def menu_shape(shape: PlainShape, p: Sequence[float], menus: Mapping[int, Sequence[Sequence[int]]],
               uniform: bool) -> PlainShape:
    """``shape`` for one adventurer (per-check chances ``p``) with each listed state's options
    replaced by its ``menus``: each menu one option, a set of the shape's options of which the
    reader takes one, each as likely (its branches: the uniform mixture of theirs); an empty menu
    leads nowhere (the reader is stuck there). A state not listed keeps its options each as one
    (a reader who decides) or, ``uniform``, as one menu of them all (the random reader: nothing
    to decide there). Every branch is sure, with its chance as its share, so :func:`optimal`
    decides among the menus."""
    first_br, first_opt = _layout(shape)
    opt_state: list[int] = []
    group_start: list[int] = []
    group_state: list[int] = []
    br_opt: list[int] = []
    br_target: list[int] = []
    br_share: list[float] = []
    for s in range(len(shape.states)):
        own = _options_of(shape, first_opt, s)
        if not own:
            continue
        listed = menus.get(s)
        chosen: Sequence[Sequence[int]] = listed if listed is not None else [tuple(own)] if uniform else [
            (o,) for o in own]
        group_start.append(len(opt_state))
        group_state.append(s)
        for menu in chosen:
            m = len(opt_state)
            opt_state.append(s)
            for o in menu:
                for b in range(first_br[o], first_br[o + 1]):
                    br_opt.append(m)
                    br_target.append(shape.br_target[b])
                    br_share.append(branch_probability(shape, p, b) / len(menu))
    return replace(shape, opt_state=opt_state, opt_check=[-1] * len(opt_state), group_start=group_start,
                   group_state=group_state, br_opt=br_opt, br_target=br_target, br_kind=[SURE] * len(br_opt),
                   br_share=br_share, br_exit=[])


def reached_under(shape: PlainShape, p: Sequence[float], choice: Sequence[int]) -> list[int]:
    """The states a reader who takes ``choice`` everywhere can reach, breadth first from the start."""
    first_br, _ = _layout(shape)
    seen = {shape.start}
    order = [shape.start]
    i = 0
    while i < len(order):
        s = order[i]
        i += 1
        o = choice[s] if s < len(choice) else -1
        if o < 0:
            continue
        for b in range(first_br[o], first_br[o + 1]):
            t = shape.br_target[b]
            if t not in seen and branch_probability(shape, p, b) > 0:
                seen.add(t)
                order.append(t)
    return order


def chosen_branches(shape: PlainShape, p: Sequence[float], choice: Sequence[int]) -> list[float]:
    """Each branch's chance for a reader who takes ``choice`` at every state."""
    out = []
    for b in range(len(shape.br_opt)):
        o = shape.br_opt[b]
        out.append(branch_probability(shape, p, b) if choice[shape.opt_state[o]] == o else 0.0)
    return out


def option_choices(shape: PlainShape) -> list[tuple[int, int] | None]:
    """Per option of a chain over entries (:func:`dtc.odds.small.plain_shape`): the (entry, choice
    index) it is, None for prose exits, returns and leaving."""
    book = shape.book
    out: list[tuple[int, int] | None] = []
    for n in book.numbers:
        if n in book.endings:
            continue
        out.extend((n, o.choice) if o.choice is not None else None for o in book.options[n])
    assert book.start is not None
    start_opts = [] if book.start in book.endings else book.options[book.start]
    if start_opts:
        out.extend((book.start, o.choice) if o.choice is not None else None for o in start_opts)
        out.append(None)  # leave
    return out[:len(shape.opt_state)]
