"""The adventure as an absorbing Markov chain over entries, solved with sparse linear algebra.

States are entries (plus one per missing target). A reader starts at the start entry and moves
by the policy's pick among the entry's options, then by the check's chance. Absorbing:

* ``escaped``: leaving the dungeon by the entrance. Back at the start entry after going in (the
  state :data:`BACK`), the reader has the start entry's options and one more, *leave*, as
  ``dtc play`` offers it (:mod:`dtc.outcomes` defines every outcome);
* ``ending:N``: an entry that says THE END;
* ``dead_end:N``: an entry with no way on;
* ``missing:T``: an exit to a target that names no entry;
* ``loop:N``: a closed set of entries with no way out (a bottom strongly connected component of
  the chain, named by its lowest entry): once in it the reader wanders forever.

With Q the transient-to-transient block and R the transient-to-absorbing block, the expected
visits x solve (I - Q)^T x = b (b: the start entry's row), and the absorption probabilities are
b_A + R^T x. The probability of at least one visit to a transient entry j is x_j / N_jj, where
N_jj = [(I - Q)^-1]_jj depends only on j's strongly connected component. Small books never get
here: :mod:`dtc.odds.small` solves them in plain Python, without loading numpy or scipy. Other
small chains are solved densely, all readers at once; larger ones by :mod:`dtc.odds.linsolve`, component by component
with a solver chosen for each (where the reach of a component cannot be found in reasonable
time it is left unknown; the expected visits, an upper bound on it, stay exact).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp  # type: ignore[import-untyped]
import scipy.sparse.csgraph as csgraph  # type: ignore[import-untyped]

from dtc.odds import POLICIES, POLICY_ALIASES
from dtc.odds.options import FAIL, PASS, Book
from dtc.odds.small import BACK, ESCAPED, PlainShape, plain_shape

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]

#: Transient sets up to this size are solved with dense linear algebra (faster when small).
DENSE_LIMIT = 400
_TIE = 1e-12
#: Dense batches hold at most this many matrix cells (readers x entries x entries).
CHUNK = 4_000_000
#: The state "back at the entrance" (BACK): the start entry again, after going in, where the reader
#: may also leave; and the absorbing state leaving leads to (ESCAPED): both from :mod:`dtc.odds.small`.
__all__ = ["BACK", "ESCAPED", "Shape", "Solution", "build_shape", "solve"]


@dataclass(slots=True)
class Shape:
    """The book's chain structure, independent of the adventurer: numpy arrays over options and branches."""

    book: Book
    states: list[int | str]  # entry numbers, then the missing targets
    index: dict[int | str, int]
    start: int  # state index of the start entry
    absorbing: npt.NDArray[np.bool_]  # endings, dead ends, missing targets (the start is handled apart)
    opt_state: Ints  # per option: the state it belongs to (options sorted by state)
    opt_check: Ints  # per option: index into book.checks, -1 for a sure option
    group_start: Ints  # first option of each state that has options
    group_state: Ints  # the state of each group
    br_opt: Ints
    br_target: Ints
    br_kind: Ints
    br_share: Floats
    br_exit: list[tuple[int, int] | None]  # (entry number, exit index) of each branch


def build_shape(book: Book | PlainShape) -> Shape:
    """The chain's structure as arrays (from :func:`dtc.odds.small.plain_shape`, the same lists)."""
    plain = book if isinstance(book, PlainShape) else plain_shape(book)
    ostate = np.asarray(plain.opt_state, dtype=np.int64)
    first = np.asarray(plain.group_start, dtype=np.int64)
    return Shape(plain.book, plain.states, plain.index, plain.start, np.asarray(plain.absorbing, dtype=bool), ostate,
                 np.asarray(plain.opt_check, np.int64), first, np.asarray(plain.group_state, np.int64),
                 np.asarray(plain.br_opt, np.int64), np.asarray(plain.br_target, np.int64),
                 np.asarray(plain.br_kind, np.int64), np.asarray(plain.br_share, np.float64), plain.br_exit)


def _per_option(shape: Shape, values: Floats) -> Floats:
    """Spread per-group values (readers x groups) over each group's options (readers x options)."""
    sizes = np.diff(np.r_[shape.group_start, len(shape.opt_state)])
    return np.asarray(np.repeat(values, sizes, axis=1), dtype=np.float64)


def branch_probabilities(shape: Shape, p: Floats, policy: str) -> Floats:
    """P(take each branch | at its entry) for each reader: ``p`` is readers x checks (book.checks order)."""
    policy = POLICY_ALIASES.get(policy, policy)
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}")
    readers = p.shape[0]
    if len(shape.opt_state) == 0:
        return np.zeros((readers, 0))
    checked = shape.opt_check >= 0
    success = np.ones((readers, len(shape.opt_state)))
    if checked.any():
        success[:, checked] = p[:, shape.opt_check[checked]]
    ones = np.ones_like(success)
    if policy == "likeliest":
        best = np.maximum.reduceat(success, shape.group_start, axis=1)
        ones = (success >= _per_option(shape, best) - _TIE).astype(np.float64)
    weight = ones / _per_option(shape, np.add.reduceat(ones, shape.group_start, axis=1))
    opt = shape.br_opt
    chance = np.ones((readers, len(opt)))
    for kind, flip in ((PASS, False), (FAIL, True)):
        sel = shape.br_kind == kind
        if sel.any():
            pc = p[:, shape.opt_check[opt[sel]]]
            chance[:, sel] = 1.0 - pc if flip else pc
    return np.asarray(weight[:, opt] * shape.br_share * chance, dtype=np.float64)


@dataclass(slots=True)
class Solution:
    """The chain solved for one adventurer."""

    outcomes: dict[str, float]  # absorbing class -> probability
    loops: dict[str, list[int]]  # loop:N -> its entries
    absorbed_at: dict[str, int | str]  # outcome -> the state it is (for per-entry attribution)
    visits: Floats  # expected visits per state (inf inside a loop the reader may reach)
    reach: Floats  # P(at least one visit) per state; nan where unknown
    branch: Floats  # P(branch | at its entry)
    notes: list[str] = field(default_factory=list)


@dataclass(slots=True)
class _Classes:
    transient: Ints
    absorbing: Ints  # absorbing state indexes (missing, endings, dead ends, escaped, loops' members)
    column: Ints  # per state: column of its absorbing class, -1 when transient
    names: list[str]
    loops: dict[str, list[int]]
    scc: Ints  # per state: SCC label in the transient subgraph


def _classify(shape: Shape, src: Ints, dst: Ints) -> _Classes:
    """Split states into transient ones and absorbing classes (given the edges that can happen)."""
    n = len(shape.states)
    fixed = shape.absorbing.copy()
    live = ~fixed[src]
    g = sp.csr_matrix((np.ones(int(live.sum())), (src[live], dst[live])), shape=(n, n))
    _, labels = csgraph.connected_components(g, directed=True, connection="strong")
    labels = np.asarray(labels, dtype=np.int64)
    leaves = np.ones(int(labels.max()) + 1 if n else 0, dtype=bool)
    out = live & ((labels[src] != labels[dst]) | fixed[dst])
    leaves[labels[src[out]]] = False
    leaves[labels[fixed]] = False
    bottom = leaves[labels] & ~fixed
    column = np.full(n, -1, dtype=np.int64)
    names: list[str] = []

    def add(name: str, members: Ints) -> None:
        column[members] = len(names)
        names.append(name)

    loops: dict[str, list[int]] = {}
    for s in np.flatnonzero(fixed):
        state = shape.states[s]
        if isinstance(state, str):
            add(state, np.asarray([s]))
        elif state in shape.book.endings:
            add(f"ending:{state}", np.asarray([s]))
        else:
            add(f"dead_end:{state}", np.asarray([s]))
    if bottom.any():
        idx = np.flatnonzero(bottom)
        order = idx[np.argsort(labels[idx], kind="stable")]
        cuts = np.flatnonzero(np.diff(labels[order])) + 1
        for members in np.split(order, cuts):
            entries = sorted({int(shape.states[shape.start if shape.states[m] == BACK else m]) for m in members})
            name = f"loop:{entries[0]}"
            loops[name] = entries
            add(name, members)
    transient = np.flatnonzero(column < 0).astype(np.int64)
    return _Classes(transient, np.flatnonzero(column >= 0).astype(np.int64), column, names, loops, labels)


def _dense(rows: Ints, cols: Ints, weights: Floats, height: int, width: int) -> Floats:
    """Edge weights (readers x edges) added into dense matrices (readers x height x width)."""
    readers = weights.shape[0]
    out = np.zeros((readers, height * width))
    np.add.at(out, (np.arange(readers)[:, None], (rows * width + cols)[None, :]), weights)
    return out.reshape(readers, height, width)


def _solve_dense(t: int, k: int, q: tuple[Ints, Ints, Floats], r: tuple[Ints, Ints, Floats], b_t: Floats,
                 b_a: Floats) -> tuple[Floats, Floats, Floats]:
    """Batched over readers: expected visits, N_jj and absorption probabilities."""
    qm = _dense(q[0], q[1], q[2], t, t)
    rm = _dense(r[0], r[1], r[2], t, k)
    inverse = np.linalg.inv(np.eye(t)[None, :, :] - qm)
    x = np.einsum("rij,ri->rj", inverse, b_t)
    diag = np.diagonal(inverse, axis1=1, axis2=2)
    return x, diag, b_a + np.einsum("rik,ri->rk", rm, x)


def _solve_sparse(t: int, k: int, q: tuple[Ints, Ints, Floats], r: tuple[Ints, Ints, Floats], b_t: Floats,
                  b_a: Floats, notes: list[str], reach: bool = True) -> tuple[Floats, Floats, Floats]:
    """Per reader, component by component (:mod:`dtc.odds.linsolve`); the plan is made once."""
    from dtc.odds import linsolve  # here: a small book, solved densely, never loads scipy's solvers

    xs, diags, absorbed = [], [], []
    how = None
    for i in range(b_t.shape[0]):
        qm = sp.csr_matrix((q[2][i], (q[0], q[1])), shape=(t, t))
        rm = sp.csr_matrix((r[2][i], (r[0], r[1])), shape=(t, k))
        if how is None:
            how = linsolve.plan(qm)
        x = linsolve.solve_visits(qm, b_t[i], how)
        if not reach:  # the caller needs no reach (N_jj): nan, as for one not computed
            diag, unknown = np.full(t, np.nan), 0
        else:
            diag, unknown = linsolve.diag_inverse(qm, how)
        if unknown:
            notes.append(f"the probability of reaching {unknown:,} entries is not computed, their expected visits "
                         f"are exact ({'; '.join(map(linsolve.describe, how.unreached))})")
        xs.append(x)
        diags.append(diag)
        absorbed.append(b_a[i] + rm.T @ x)
    return np.asarray(xs), np.asarray(diags), np.asarray(absorbed)


def solve(shape: Shape, p: Floats, weights: Floats, policy: str, branch: Floats | None = None,
          reach: bool = True) -> Solution:
    """Solve the chain for each reader (rows of ``p``: per-check chances) and average by ``weights``
    (``branch``: each reader's branch chances, for a policy not in :data:`dtc.odds.POLICIES`;
    ``reach``: False when the caller needs no probability of reaching a state, only its visits)."""
    p = np.atleast_2d(np.asarray(p, dtype=np.float64)).reshape(len(weights), -1)
    if branch is None:
        branch = branch_probabilities(shape, p, policy)
    n = len(shape.states)
    avg_branch = np.asarray(weights @ branch, dtype=np.float64)
    if shape.absorbing[shape.start]:  # the start is an ending or has no way on: nothing to solve
        number = shape.states[shape.start]
        name = f"ending:{number}" if number in shape.book.endings else f"dead_end:{number}"
        visits = np.zeros(n)
        visits[shape.start] = 1.0
        return Solution({name: 1.0}, {}, {name: number}, visits, visits.copy(), avg_branch)
    happens = branch > 0
    groups: dict[bytes, list[int]] = {}
    for i in range(len(weights)):
        groups.setdefault(np.packbits(happens[i]).tobytes(), []).append(i)
    total = Solution({}, {}, {}, np.zeros(n), np.zeros(n), avg_branch)
    for rows in groups.values():
        t_guess = max(1, int((~shape.absorbing).sum()))
        step = max(1, CHUNK // (t_guess * t_guess))
        for at in range(0, len(rows), step):
            part = rows[at:at + step]
            _solve_group(shape, branch[part], weights[part], happens[rows[0]], total, reach)
    return total


def _solve_group(shape: Shape, branch: Floats, weights: Floats, happens: npt.NDArray[np.bool_],
                 total: Solution, reach_wanted: bool = True) -> None:
    """Readers whose chains have the same edges: classify once, solve together, add into ``total``."""
    n = len(shape.states)
    src, dst, w = shape.opt_state[shape.br_opt][happens], shape.br_target[happens], branch[:, happens]
    classes = _classify(shape, src, dst)
    t_of = np.full(n, -1, dtype=np.int64)
    t_of[classes.transient] = np.arange(len(classes.transient))
    t, k = len(classes.transient), len(classes.names)
    to_t = t_of[dst]
    readers = len(weights)
    b_t, b_a = np.zeros((readers, t)), np.zeros((readers, k))
    b_t[:, t_of[shape.start]] = 1.0  # every reader starts at the start entry (nothing else leads to it)
    inner = (t_of[src] >= 0) & (to_t >= 0)
    leave = (t_of[src] >= 0) & (to_t < 0)
    q = (t_of[src[inner]], to_t[inner], w[:, inner])
    r = (t_of[src[leave]], classes.column[dst[leave]], w[:, leave])
    if t == 0:
        x, diag, absorbed = np.zeros((readers, 0)), np.ones((readers, 0)), b_a
    elif t <= DENSE_LIMIT:
        x, diag, absorbed = _solve_dense(t, k, q, r, b_t, b_a)
    else:
        x, diag, absorbed = _solve_sparse(t, k, q, r, b_t, b_a, total.notes, reach_wanted)
    # What the reader cannot reach is exactly 0, not the solvers' rounding (which a report would
    # show as "<0.1%"); dtc.odds.small, solving component by component, finds the same zeros.
    seen = np.zeros(n, dtype=bool)
    seen[np.asarray(csgraph.breadth_first_order(sp.csr_matrix((np.ones(len(src)), (src, dst)), shape=(n, n)),
                                                shape.start, return_predecessors=False), dtype=np.int64)] = True
    if not seen[classes.transient].all():
        x[:, ~seen[classes.transient]] = 0.0
        unseen = np.ones(k, dtype=bool)
        unseen[classes.column[classes.absorbing[seen[classes.absorbing]]]] = False
        absorbed[:, unseen] = 0.0
    visits, reach = np.zeros((readers, n)), np.zeros((readers, n))
    visits[:, classes.transient] = x
    with np.errstate(invalid="ignore", divide="ignore"):
        reach[:, classes.transient] = np.minimum(1.0, x / diag)
    cols = classes.column[classes.absorbing]
    reach[:, classes.absorbing] = absorbed[:, cols]
    visits[:, classes.absorbing] = absorbed[:, cols]
    mean_absorbed = weights @ absorbed
    for i, name in enumerate(classes.names):
        total.outcomes[name] = total.outcomes.get(name, 0.0) + float(mean_absorbed[i])
    for name, entries in classes.loops.items():
        total.loops[name] = entries
        if mean_absorbed[classes.names.index(name)] > 0:
            visits[:, [shape.index[e] for e in entries]] = np.inf
    back = shape.index.get(BACK)
    if back is not None:  # the start entry's visits: the first, and each return to the entrance
        visits[:, shape.start] += visits[:, back]
    reach[:, shape.start] = 1.0
    with np.errstate(invalid="ignore"):
        total.visits += weights @ visits
        total.reach += weights @ reach
    for s in classes.absorbing:
        name = classes.names[classes.column[s]]
        if not name.startswith("loop:"):
            total.absorbed_at[name] = shape.states[s]
