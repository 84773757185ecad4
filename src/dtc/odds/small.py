"""The chain of a small book, solved in plain Python: ``dtc odds`` of such a book never loads numpy.

Importing numpy and scipy costs more CPU than the whole answer for a book of a few dozen entries,
so :func:`solve` works the chain out here first, and gives up (returns ``None``, and
:mod:`dtc.odds.chain` solves it with numpy and scipy) when the work would exceed :data:`WORK`
or a strongly connected component of the chain has more than :data:`SCC_LIMIT` entries.

It is the same chain as :mod:`dtc.odds.chain` (the states, options and branches come from
:func:`plain_shape`, which :func:`dtc.odds.chain.build_shape` uses too) and the same algebra,
taken per strongly connected component in topological order (upstream first): the expected
visits ``x`` of a component solve ``(I - Q_CC)^T x_C = b_C + inflow``, and the reach of entry j
is ``x_j / N_jj`` with ``N_jj`` the diagonal of ``(I - Q_CC)^-1`` (the inverse of a block
triangular matrix has the inverses of its diagonal blocks on its diagonal). A component of one
entry is one division; a larger one is inverted by Gauss-Jordan elimination with partial
pivoting. The answers agree with the numpy path up to rounding (a few units in the last place),
far below the printed precision.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from dtc.odds import POLICIES, POLICY_ALIASES
from dtc.odds.options import FAIL, PASS, SURE, Book, Branch, Option

#: The largest strongly connected component solved here (Gauss-Jordan costs k**3 in Python).
SCC_LIMIT = 64
#: Work allowed here in all, about 0.2 s of CPU (what importing numpy and scipy and solving there
#: costs; beyond it the numpy path is faster). Per adventurer: 32 per branch and entry, and k**3
#: per component of k entries (units of about 0.05 microseconds, measured on the bundled books).
WORK = 4_000_000
_TIE = 1e-12
#: The state "back at the entrance" (see :mod:`dtc.odds.chain`) and the absorbing state of leaving.
BACK = "back at the entrance"
ESCAPED = "escaped"


@dataclass(slots=True)
class PlainShape:
    """The book's chain structure as lists (:class:`dtc.odds.chain.Shape` holds the same as arrays)."""

    book: Book
    states: list[int | str]  # entry numbers, then the missing targets
    index: dict[int | str, int]
    start: int
    absorbing: list[bool]
    opt_state: Sequence[int]
    opt_check: Sequence[int]
    group_start: Sequence[int]
    group_state: Sequence[int]
    br_opt: Sequence[int]
    br_target: Sequence[int]
    br_kind: Sequence[int]
    br_share: Sequence[float]
    br_exit: list[tuple[int, int] | None]


def plain_shape(book: Book) -> PlainShape:
    if book.start is None:
        raise ValueError("the adventure has no start entry")
    states: list[int | str] = list(book.numbers)
    index: dict[int | str, int] = {n: i for i, n in enumerate(states)}
    start_opts = [] if book.start in book.endings else book.options[book.start]
    if start_opts:  # arriving at the entrance again leads to BACK, where leaving is one more option
        for name in (BACK, ESCAPED):
            index[name] = len(states)
            states.append(name)
    keys = {k: i for i, k in enumerate(book.checks)}
    opt_state: list[int] = []
    opt_check: list[int] = []
    br_opt: list[int] = []
    br_target: list[int] = []
    br_kind: list[int] = []
    br_share: list[float] = []
    br_exit: list[tuple[int, int] | None] = []

    def add_options(at: int | str, opts: list[Option], exit_of: int | None) -> None:
        for opt in opts:
            o = len(opt_state)
            opt_state.append(index[at])
            opt_check.append(keys[opt.check] if opt.check is not None else -1)
            for b in opt.branches:
                target: int | str = BACK if b.target == book.start and start_opts else b.target
                if target not in index:
                    index[target] = len(states)
                    states.append(target)
                br_opt.append(o)
                br_target.append(index[target])
                br_kind.append(b.kind)
                br_share.append(b.share)
                br_exit.append((exit_of, b.exit) if exit_of is not None and b.exit is not None else None)

    for n in book.numbers:
        if n in book.endings:
            continue
        add_options(n, book.options[n], n)
    if start_opts:
        # The exits' own chances (drawn on the graph) are those of the first visit: BACK's are not added.
        leave = Option("leave", "leave the dungeon", None, None, [Branch(None, ESCAPED, SURE)])
        add_options(BACK, [*start_opts, leave], None)
    has_options = [False] * len(states)
    for s in opt_state:
        has_options[s] = True
    absorbing = [not h for h in has_options]  # endings, dead ends, missing targets and leaving
    first = [o for o in range(len(opt_state)) if o == 0 or opt_state[o] != opt_state[o - 1]]
    return PlainShape(book, states, index, index[book.start], absorbing, opt_state, opt_check, first,
                      [opt_state[o] for o in first], br_opt, br_target, br_kind, br_share, br_exit)


@dataclass(slots=True)
class PlainSolution:
    """The chain solved (the fields of :class:`dtc.odds.chain.Solution`, as lists)."""

    outcomes: dict[str, float]
    loops: dict[str, list[int]]
    absorbed_at: dict[str, int | str]
    visits: list[float]
    reach: list[float]
    branch: list[float]
    notes: list[str] = field(default_factory=list)


class _TooLarge(Exception):
    """The chain is better solved with numpy."""


def branch_chances(shape: PlainShape, p: list[float], policy: str) -> list[float]:
    """P(take each branch | at its entry) for one reader (``p``: per-check chances)."""
    policy = POLICY_ALIASES.get(policy, policy)
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}")
    success = [p[c] if c >= 0 else 1.0 for c in shape.opt_check]
    ones = [1.0] * len(success)
    ends = [*shape.group_start[1:], len(success)] if shape.group_start else []
    weight = [0.0] * len(success)
    for g0, g1 in zip(shape.group_start, ends, strict=True):
        if policy == "likeliest":
            best = max(success[g0:g1])
            for o in range(g0, g1):
                ones[o] = 1.0 if success[o] >= best - _TIE else 0.0
        total = sum(ones[g0:g1])
        for o in range(g0, g1):
            weight[o] = ones[o] / total
    out = []
    for o, kind, share in zip(shape.br_opt, shape.br_kind, shape.br_share, strict=True):
        chance = p[shape.opt_check[o]] if kind == PASS else 1.0 - p[shape.opt_check[o]] if kind == FAIL else 1.0
        out.append(weight[o] * share * chance)
    return out


def _components(n: int, succ: list[list[int]]) -> list[list[int]]:
    """Strongly connected components (Tarjan, iterative), downstream first."""
    order = [-1] * n
    low = [0] * n
    on_stack = [False] * n
    stack: list[int] = []
    out: list[list[int]] = []
    counter = 0
    for root in range(n):
        if order[root] >= 0:
            continue
        work = [(root, 0)]
        order[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = True
        while work:
            v, i = work[-1]
            if i < len(succ[v]):
                work[-1] = (v, i + 1)
                w = succ[v][i]
                if order[w] < 0:
                    order[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack[w] = True
                    work.append((w, 0))
                elif on_stack[w]:
                    low[v] = min(low[v], order[w])
                continue
            work.pop()
            if work:
                u = work[-1][0]
                low[u] = min(low[u], low[v])
            if low[v] == order[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack[w] = False
                    comp.append(w)
                    if w == v:
                        break
                out.append(sorted(comp))
    return out


def _invert(a: list[list[float]]) -> list[list[float]]:
    """The inverse of a small square matrix (Gauss-Jordan, partial pivoting)."""
    k = len(a)
    m = [[*row, *(1.0 if i == j else 0.0 for j in range(k))] for i, row in enumerate(a)]
    for col in range(k):
        pivot = max(range(col, k), key=lambda r: abs(m[r][col]))
        if m[pivot][col] == 0.0:
            raise _TooLarge  # numerically singular: let LAPACK say what it says
        m[col], m[pivot] = m[pivot], m[col]
        row = m[col]
        d = row[col]
        for j in range(2 * k):
            row[j] /= d
        for r in range(k):
            if r != col:
                f = m[r][col]
                if f != 0.0:
                    other = m[r]
                    for j in range(col, 2 * k):
                        other[j] -= f * row[j]
    return [row[k:] for row in m]


def _solve_components(n: int, upstream: list[list[int]], inflow: list[list[tuple[int, float]]],
                      start: int) -> tuple[list[float], list[float]]:
    """x with (I - Q)^T x = e_start and N_jj = [(I - Q)^-1]_jj over the given components.

    ``upstream``: the strongly connected components (of Q's graph) in topological order, upstream
    first; ``inflow[j]``: the (i, Q_ij) leading into j. States in no component get x = 0, N = 1.
    """
    x = [0.0] * n
    diag = [1.0] * n
    for members in upstream:
        size = len(members)
        inside = {s: i for i, s in enumerate(members)}
        rhs = [1.0 if s == start else 0.0 for s in members]
        a = [[1.0 if i == j else 0.0 for j in range(size)] for i in range(size)]
        for i, d in enumerate(members):
            for s, q in inflow[d]:
                at = inside.get(s)
                if at is None:
                    rhs[i] += q * x[s]  # what flows in from the components already solved
                else:
                    a[i][at] -= q  # row d of (I - Q_CC)^T
        if size == 1:
            x[members[0]] = rhs[0] / a[0][0]
            diag[members[0]] = 1.0 / a[0][0]
            continue
        inv = _invert(a)
        for i, s in enumerate(members):
            x[s] = math.fsum(inv[i][j] * rhs[j] for j in range(size))
            diag[s] = inv[i][i]
    return x, diag


def solve_matrix(t: int, q: dict[tuple[int, int], float], start: int) -> tuple[list[float], list[float]] | None:
    """For a t x t substochastic Q (``{(i, j): Q_ij}``): the expected visits x with
    ``(I - Q)^T x = e_start`` and the diagonal of ``(I - Q)^-1``, component by component;
    ``None`` when a component is numerically singular."""
    succ: list[list[int]] = [[] for _ in range(t)]
    inflow: list[list[tuple[int, float]]] = [[] for _ in range(t)]
    for (i, j), v in q.items():
        succ[i].append(j)
        inflow[j].append((i, v))
    try:
        return _solve_components(t, _components(t, succ)[::-1], inflow, start)
    except _TooLarge:
        return None


def solve(shape: PlainShape, p: list[list[float]], weights: list[float], policy: str,
          branch: list[list[float]] | None = None) -> PlainSolution | None:
    """Solve the chain for each reader and average by ``weights``; ``None`` when numpy would do better.

    ``branch``: each reader's chance of each branch, where the policy is not one of
    :data:`dtc.odds.POLICIES` (the best or worst reader's, :mod:`dtc.odds.decide`)."""
    if branch is None:
        branch = [branch_chances(shape, row, policy) for row in p]
    n = len(shape.states)
    avg_branch = [sum(w * b[i] for w, b in zip(weights, branch, strict=True)) for i in range(len(shape.br_opt))]
    if shape.absorbing[shape.start]:  # the start is an ending or has no way on: nothing to solve
        number = shape.states[shape.start]
        name = f"ending:{number}" if number in shape.book.endings else f"dead_end:{number}"
        visits = [0.0] * n
        visits[shape.start] = 1.0
        return PlainSolution({name: 1.0}, {}, {name: number}, visits, list(visits), avg_branch)
    groups: dict[tuple[bool, ...], list[int]] = {}
    for i, row in enumerate(branch):
        groups.setdefault(tuple(b > 0 for b in row), []).append(i)
    total = PlainSolution({}, {}, {}, [0.0] * n, [0.0] * n, avg_branch)
    budget = [WORK]
    try:
        for happens, rows in groups.items():
            _solve_group(shape, [branch[r] for r in rows], [weights[r] for r in rows], happens, total, budget)
    except _TooLarge:
        return None
    return total


def _solve_group(shape: PlainShape, branch: list[list[float]], weights: list[float], happens: tuple[bool, ...],
                 total: PlainSolution, budget: list[int]) -> None:
    n = len(shape.states)
    fixed = shape.absorbing
    edges = [(shape.opt_state[shape.br_opt[b]], shape.br_target[b], b) for b in range(len(happens)) if happens[b]]
    succ: list[list[int]] = [[] for _ in range(n)]
    for s, d, _ in edges:
        if not fixed[s]:
            succ[s].append(d)
    comps = _components(n, succ)
    label = [0] * n
    for c, members in enumerate(comps):
        for s in members:
            label[s] = c
    column = [-1] * n
    names: list[str] = []
    for s in range(n):
        if fixed[s]:
            state = shape.states[s]
            column[s] = len(names)
            names.append(state if isinstance(state, str) else
                         f"ending:{state}" if state in shape.book.endings else f"dead_end:{state}")
    loops: dict[str, list[int]] = {}
    inner: list[list[int]] = []  # transient components, downstream first
    for members in comps:
        if fixed[members[0]]:
            continue
        if any(label[d] != label[s] or fixed[d] for s in members for d in succ[s]):
            inner.append(members)
            continue
        entries = sorted({int(shape.states[shape.start if shape.states[m] == BACK else m]) for m in members})
        name = f"loop:{entries[0]}"
        loops[name] = entries
        for m in members:
            column[m] = len(names)
        names.append(name)
    largest = max((len(c) for c in inner), default=0)
    cost = 32 * (len(edges) + n) + sum(len(c) ** 3 for c in inner)
    budget[0] -= cost * len(weights)
    if largest > SCC_LIMIT or budget[0] < 0:
        raise _TooLarge
    transient = [s for s in range(n) if column[s] < 0]
    is_t = [c < 0 for c in column]
    k = len(names)
    inflow: list[list[tuple[int, int]]] = [[] for _ in range(n)]  # per state: (source, branch) in branch order
    leave: list[tuple[int, int, int]] = []  # (source, column, branch)
    for s, d, b in edges:
        if is_t[s] and is_t[d]:
            inflow[d].append((s, b))
        elif is_t[s]:
            leave.append((s, column[d], b))
    visits_all: list[list[float]] = []
    reach_all: list[list[float]] = []
    absorbed_all: list[list[float]] = []
    upstream = inner[::-1]
    for w in branch:
        x, diag = _solve_components(n, upstream, [[(s, w[b]) for s, b in into] for into in inflow], shape.start)
        absorbed = [0.0] * k
        for s, c, b in leave:
            absorbed[c] += w[b] * x[s]
        visits = [0.0] * n
        reach = [0.0] * n
        for s in transient:
            visits[s] = x[s]
            reach[s] = min(1.0, x[s] / diag[s])
        for s in range(n):
            if column[s] >= 0:
                reach[s] = visits[s] = absorbed[column[s]]
        visits_all.append(visits)
        reach_all.append(reach)
        absorbed_all.append(absorbed)
    mean_absorbed = [sum(wt * a[c] for wt, a in zip(weights, absorbed_all, strict=True)) for c in range(k)]
    for c, name in enumerate(names):
        total.outcomes[name] = total.outcomes.get(name, 0.0) + mean_absorbed[c]
    for name, entries in loops.items():
        total.loops[name] = entries
        if mean_absorbed[names.index(name)] > 0:
            for visits in visits_all:
                for e in entries:
                    visits[shape.index[e]] = math.inf
    back = shape.index.get(BACK)
    for visits, reach in zip(visits_all, reach_all, strict=True):
        if back is not None:  # the start entry's visits: the first, and each return to the entrance
            visits[shape.start] += visits[back]
        reach[shape.start] = 1.0
    for s in range(n):
        total.visits[s] += sum(wt * v[s] for wt, v in zip(weights, visits_all, strict=True))
        total.reach[s] += sum(wt * r[s] for wt, r in zip(weights, reach_all, strict=True))
    for s in range(n):
        if column[s] >= 0 and not names[column[s]].startswith("loop:"):
            total.absorbed_at[names[column[s]]] = shape.states[s]
