"""The chain's linear algebra: expected visits and reach, solved per strongly connected component.

With Q the transient-to-transient block of the chain, the expected visits x solve
``(I - Q)^T x = b`` and the reach of entry j needs ``N_jj = [(I - Q)^-1]_jj``. One sparse LU of
the whole matrix is fast when the book flows forward (its matrix, reordered by reverse
Cuthill-McKee, is nearly banded, and the LU's fill stays small) but very slow when entries link
back and forth across the whole book: one component of 9,999 entries took SuperLU 17.5 s, where
restarted GMRES needs a few hundredths of a second. So the system is cut along its strongly
connected components, taken in topological order (upstream first: the visits of a component
depend only on its own and on those above it), and each is solved its own way:

* components of at most :data:`SMALL` entries, and larger narrow ones (after reverse
  Cuthill-McKee their bandwidth w is below ``k / CROSS``, ``k * w**2`` within :data:`BAND_WORK`
  and ``k * w`` within :data:`BAND_CELLS`: a book that flows forward, a corridor, a grid of
  rooms) are solved together with SuperLU, consecutive ones in one call (``direct``);
* larger, cross-linked components with GMRES(50), then GMRES preconditioned by an incomplete LU,
  then LGMRES with it, and last SuperLU (``krylov``).

An answer is judged by its normwise backward error ``|r|_inf / (|A|_inf |x|_inf + |b|_inf)``,
which must be at most :data:`TIGHT`. A Krylov method measures it after every restart, each
restart asked for the residual that bound allows at the current x (:func:`_cycles`), and the
next method is tried only while no answer meets it; a SuperLU answer is refined with the same
factors (up to :data:`REFINE` rounds).

``N_jj`` comes per component: a single entry directly; components of equal size in batches of
dense inverses while their work (``k**3``) stays within :data:`DENSE_WORK`; a large narrow
component by the recursive Green's function method on its block-tridiagonal form
(``O(k * w**2)``, exact up to rounding); one that is narrow once a few hubs are set aside by the
same sweep without them and a Schur complement on the hubs. What remains (large components
linked across the whole of them, whose exact diagonal would cost ``O(k**3)``, or too wide for
the bounds) is left unknown (nan), counted, and listed in ``Plan.unreached`` (:func:`describe`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
import scipy.linalg as sla  # type: ignore[import-untyped]
import scipy.sparse as sp  # type: ignore[import-untyped]
import scipy.sparse.csgraph as csgraph  # type: ignore[import-untyped]
import scipy.sparse.linalg as spla  # type: ignore[import-untyped]

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]

#: Components up to this size always go to SuperLU.
SMALL = 2000
#: A larger component goes to SuperLU when k * bandwidth**2 (after RCM) is at most this (a grid of
#: 316 x 316 rooms: 1e10), unless it is cross-linked (CROSS); the same bound lets its reach be found
#: from its block-tridiagonal form (about 2 s of CPU for that grid) ...
BAND_WORK = 1.5e10
#: ... when the blocks that sweep keeps, k * bandwidth of 8 bytes, are at most this many (320 MB).
BAND_CELLS = 4e7
#: The sweep's blocks have at least this many rows (fewer steps of Python where the band is narrow).
MIN_BLOCK = 64
#: A component too wide for that may be narrow once up to HUBS entries with many links (at least
#: HUB_DEGREE, and eight times the median) are set aside, and its reach found around them.
HUBS = 64
HUB_DEGREE = 32
#: A component whose bandwidth after RCM is at least 1/CROSS of its size is linked across the whole
#: of it: GMRES converges fast there, SuperLU's fill grows with its square.
CROSS = 4
#: Normwise backward error a solution must reach (a few hundred units of rounding).
TIGHT = 1e-13
#: Rounds of iterative refinement before a last direct solve.
REFINE = 3
#: Dense inverses (for reach) while the sum of their sizes cubed stays within this.
DENSE_WORK = 2e10
#: GMRES restart length and iteration cap (restarts x RESTART matrix products).
RESTART = 50
MAXITER = 40
#: A Krylov method is given up after this many restarts in a row that do not halve the error.
STALL = 8


@dataclass(slots=True)
class Component:
    members: Ints  # transient indexes
    method: str  # "direct" or "krylov"
    band: int  # bandwidth after RCM (-1: not measured)
    order: Ints | None = None  # RCM order of members (when measured)
    hubs: Ints | None = None  # for the reach: positions in members of hubs set aside (empty: none found)
    rest: Ints | None = None  # the other positions, in RCM order
    rest_band: int = -1  # their bandwidth


@dataclass(slots=True)
class Plan:
    """How one chain's pattern is solved: runs of components in topological order."""

    size: int
    runs: list[tuple[str, Ints]]  # (method, transient indexes), upstream first
    components: list[Component]  # every component of more than one entry
    single: Ints  # transient indexes that are components of their own
    stats: dict[str, int] = field(default_factory=dict)
    unreached: list[Component] = field(default_factory=list)  # left without N_jj by diag_inverse


def _topological(labels: Ints, src: Ints, dst: Ints, count: int) -> Ints:
    """Component labels, upstream first."""
    cross = labels[src] != labels[dst]
    a, b = labels[src[cross]], labels[dst[cross]]
    if not len(a) or bool((a > b).all()):  # scipy numbers components downstream first
        return np.arange(count - 1, -1, -1, dtype=np.int64)
    if bool((a < b).all()):
        return np.arange(count, dtype=np.int64)
    # Kahn's algorithm on the condensation (not needed with today's scipy, kept for safety).
    pairs = np.unique(np.stack([a, b], axis=1), axis=0) if len(a) else np.zeros((0, 2), np.int64)
    indeg = np.bincount(pairs[:, 1], minlength=count)
    succ: list[list[int]] = [[] for _ in range(count)]
    for u, v in pairs.tolist():
        succ[u].append(v)
    todo = [int(c) for c in np.flatnonzero(indeg == 0)]
    out: list[int] = []
    while todo:
        u = todo.pop()
        out.append(u)
        for v in succ[u]:
            indeg[v] -= 1
            if indeg[v] == 0:
                todo.append(v)
    return np.asarray(out, dtype=np.int64)


def bandwidth(block: sp.csr_matrix) -> tuple[int, Ints]:
    """The bandwidth of a square sparse block after reverse Cuthill-McKee, and that order."""
    pattern = (abs(block) + abs(block.T)).tocsr()
    order = np.asarray(csgraph.reverse_cuthill_mckee(pattern, symmetric_mode=True), dtype=np.int64)
    where = np.empty_like(order)
    where[order] = np.arange(len(order))
    coo = block.tocoo()
    band = int(np.abs(where[coo.row] - where[coo.col]).max()) if coo.nnz else 0
    return band, order


def plan(q: sp.csr_matrix) -> Plan:
    """Cut the chain (Q's pattern, t x t) into components and choose how to solve each."""
    t = q.shape[0]
    coo = q.tocoo()
    src, dst = coo.row.astype(np.int64), coo.col.astype(np.int64)
    count, labels = csgraph.connected_components(q, directed=True, connection="strong")
    labels = np.asarray(labels, dtype=np.int64)
    rank = np.empty(count, dtype=np.int64)
    rank[_topological(labels, src, dst, count)] = np.arange(count)
    order = np.argsort(rank[labels], kind="stable").astype(np.int64)
    sizes = np.bincount(labels, minlength=count)
    cuts = np.flatnonzero(np.diff(rank[labels[order]])) + 1
    starts = np.r_[0, cuts].astype(np.int64)
    ends = np.r_[cuts, t].astype(np.int64)
    comp_size = sizes[labels[order[starts]]] if t else np.zeros(0, np.int64)
    single = order[starts[comp_size == 1]] if t else np.zeros(0, np.int64)
    components: list[Component] = []
    runs: list[tuple[str, Ints]] = []
    run_from = 0
    stats = {"components": int(count), "direct": 0, "krylov": 0}
    at = q.tocsr()
    for i in np.flatnonzero(comp_size > 1):
        members = order[starts[i]:ends[i]]
        k = len(members)
        method, band, rcm = "direct", -1, None
        if k > SMALL:
            band, rcm = bandwidth(at[members][:, members])
            if CROSS * band >= k or not _narrow(k, band, 1):
                method = "krylov"
        components.append(Component(members, method, band, rcm))
        stats[method] += 1
        if method == "krylov":
            if starts[i] > run_from:
                runs.append(("direct", order[run_from:starts[i]]))
            runs.append(("krylov", members))
            run_from = int(ends[i])
    if run_from < t:
        runs.append(("direct", order[run_from:]))
    return Plan(t, runs, components, single, stats)


def _norm_inf(a: sp.csr_matrix) -> float:
    return float(abs(a).sum(axis=1).max()) if a.shape[0] else 0.0


def backward_error(a: sp.csr_matrix, x: Floats, b: Floats, norm_a: float | None = None) -> float:
    """Normwise backward error of x as a solution of a x = b (0 when exact)."""
    r = b - a @ x
    scale = (norm_a if norm_a is not None else _norm_inf(a)) * float(np.abs(x).max(initial=0.0)) + float(
        np.abs(b).max(initial=0.0))
    num = float(np.abs(r).max(initial=0.0))
    return 0.0 if num == 0.0 else (num / scale if scale > 0 else np.inf)


def _factor(a: sp.csr_matrix) -> Callable[[Floats], Floats]:
    """SuperLU's factors of a, as a solve (kept for the refinement rounds)."""
    lu = spla.splu(a.tocsc())
    return lambda v: np.asarray(lu.solve(v), dtype=np.float64).reshape(-1)


def _refined(a: sp.csr_matrix, b: Floats, solve: Callable[[Floats], Floats], norm_a: float,
             stats: dict[str, int]) -> tuple[Floats, float]:
    """A direct solve and up to :data:`REFINE` rounds of iterative refinement with the same factors."""
    x = solve(b)
    err = backward_error(a, x, b, norm_a)
    rounds = 0
    while err > TIGHT and rounds < REFINE and np.isfinite(err):
        y = x + solve(b - a @ x)
        rounds += 1
        stats["refined"] = stats.get("refined", 0) + 1
        e = backward_error(a, y, b, norm_a)
        if not e < err:
            break
        x, err = y, e
    return x, err


def _cycles(a: sp.csr_matrix, b: Floats, x: Floats, norm_a: float, cycle: Callable[[Floats, float], Floats],
            limit: int, stats: dict[str, int]) -> tuple[Floats, float]:
    """A restarted Krylov method, a cycle at a time from x, until x's backward error is within TIGHT.

    Each cycle is asked for the residual the backward-error target allows at the current x,
    ``TIGHT * (|A|_inf |x|_inf + |b|_inf)`` (in the 2-norm, which bounds the inf-norm), and the
    true backward error is measured after it. A relative residual fixed in advance can lie below
    what rounding lets the residual reach when the visits are large (``|x| / |b|`` in the
    thousands), and the method then never stops. It gives up after :data:`STALL` cycles in a row
    that do not halve the best error so far, and returns the best x with its error.
    """
    bmax = float(np.abs(b).max(initial=0.0))
    best, best_err = x, backward_error(a, x, b, norm_a)
    since = 0
    for _ in range(limit):
        if best_err <= TIGHT or since >= STALL:
            break
        stats["cycles"] = stats.get("cycles", 0) + 1
        x = cycle(x, TIGHT * (norm_a * float(np.abs(x).max(initial=0.0)) + bmax))
        err = backward_error(a, x, b, norm_a)
        if not np.isfinite(err):
            break
        since = 0 if err <= best_err / 2 else since + 1
        if err < best_err:
            best, best_err = x, err
    return best, best_err


def _krylov(a: sp.csr_matrix, b: Floats, norm_a: float, stats: dict[str, int]) -> Floats:
    """GMRES, then with an incomplete-LU preconditioner, then LGMRES, then SuperLU: each from the
    best answer so far, and only while none is within :data:`TIGHT`."""
    if not b.any():
        return np.zeros_like(b)

    def gmres(m: spla.LinearOperator | None) -> Callable[[Floats, float], Floats]:
        return lambda x, goal: np.asarray(spla.gmres(a, b, x0=x, rtol=0.0, atol=goal, restart=RESTART, maxiter=1,
                                                     M=m)[0], dtype=np.float64)

    x, err = _cycles(a, b, np.zeros_like(b), norm_a, gmres(None), MAXITER, stats)
    if err <= TIGHT:
        return x
    stats["preconditioned"] = stats.get("preconditioned", 0) + 1
    try:
        ilu = spla.spilu(a.tocsc(), drop_tol=1e-5, fill_factor=10)
        m = spla.LinearOperator(a.shape, ilu.solve)
        x, err = _cycles(a, b, x, norm_a, gmres(m), MAXITER, stats)
        if err <= TIGHT:
            return x
        outer: list[tuple[Floats, Floats | None]] = []  # LGMRES's augmentation vectors, kept across cycles
        x, err = _cycles(a, b, x, norm_a, lambda y, goal: np.asarray(spla.lgmres(
            a, b, x0=y, rtol=0.0, atol=goal, maxiter=1, M=m, outer_v=outer)[0], dtype=np.float64),
            4 * MAXITER, stats)
        if err <= TIGHT:
            return x
    except RuntimeError:  # the incomplete factorisation broke down
        pass
    stats["fallback"] = stats.get("fallback", 0) + 1
    y, e = _refined(a, b, _factor(a), norm_a, stats)
    return y if e < err else x


def _solve_checked(a: sp.csr_matrix, b: Floats, method: str, stats: dict[str, int]) -> Floats:
    """Solve until the normwise backward error is within TIGHT (or as close as the methods get)."""
    norm_a = _norm_inf(a)
    if method == "krylov":
        return _krylov(a, b, norm_a, stats)
    return _refined(a, b, _factor(a), norm_a, stats)[0]


def solve_visits(q: sp.csr_matrix, b: Floats, how: Plan | None = None) -> Floats:
    """x with (I - Q)^T x = b, component by component in topological order."""
    how = how or plan(q)
    t = q.shape[0]
    qt = q.T.tocsr()
    if len(how.runs) == 1:  # one direct run: the whole system in one SuperLU call
        a = (sp.identity(t, format="csr") - qt).tocsr()
        return _solve_checked(a, np.asarray(b, dtype=np.float64), how.runs[0][0], how.stats)
    x = np.zeros(t)
    for method, members in how.runs:
        rows = qt[members]
        rhs = b[members] + rows @ x  # what flows in from the components already solved
        a = (sp.identity(len(members), format="csr") - rows[:, members]).tocsr()
        x[members] = _solve_checked(a, rhs, method, how.stats)
    return x


def _dense_blocks(q: sp.csr_matrix, groups: list[Ints]) -> Floats:
    """The blocks I - Q[g, g] for equal-sized groups, as one (m, k, k) array."""
    k = len(groups[0])
    members = np.concatenate(groups)
    local = np.zeros(q.shape[0], dtype=np.int64)
    which = np.zeros(q.shape[0], dtype=np.int64)
    for i, g in enumerate(groups):
        local[g] = np.arange(k)
        which[g] = i
    inside = np.zeros(q.shape[0], dtype=bool)
    inside[members] = True
    coo = q[members].tocoo()
    rows = members[coo.row]
    keep = inside[coo.col] & (which[rows] == which[coo.col])
    blocks = np.zeros((len(groups), k, k))
    blocks[:, np.arange(k), np.arange(k)] = 1.0
    np.add.at(blocks, (which[rows[keep]], local[rows[keep]], local[coo.col[keep]]), -coo.data[keep])
    return blocks


def _banded_diag(a: sp.csr_matrix, band: int) -> Floats:
    """diag(a^-1) of a matrix with the given bandwidth, by the recursive Green's function method.

    With blocks of ``band`` rows (at least :data:`MIN_BLOCK`) the matrix is block tridiagonal:
    diagonal blocks D_i, and the sparse couplings U_i = A_i,i+1 and L_i = A_i+1,i. A forward
    sweep gives the left-connected inverses g_i = (D_i - L_i-1 g_i-1 U_i-1)^-1, and a backward
    sweep the diagonal blocks of the inverse, G_ii = g_i + g_i U_i G_i+1 L_i g_i, of which only
    the rows and columns the couplings touch are carried on. Work about 6 k size**2 (in BLAS),
    memory 8 k size bytes (the g_i).
    """
    n = a.shape[0]
    size = max(band, MIN_BLOCK)
    nb = -(-n // size)
    coo = a.tocoo()
    row, col, val = coo.row.astype(np.int64), coo.col.astype(np.int64), np.asarray(coo.data, dtype=np.float64)
    key = 3 * (row // size) + (col // size - row // size) + 1  # per block row: lower, diagonal, upper
    by = np.argsort(key, kind="stable")
    row, col, val, key = row[by], col[by], val[by], key[by]
    cut = np.searchsorted(key, np.arange(3 * nb + 1))

    def part(i: int, kind: int) -> tuple[Ints, Ints, Floats]:
        where = slice(cut[3 * i + kind], cut[3 * i + kind + 1])
        return row[where], col[where], val[where]

    g: list[Floats] = []
    couple: list[tuple[Ints, sp.csr_matrix, Ints, sp.csr_matrix]] = []  # (C_i, U_i[:, C_i], R_i, L_i[R_i])
    for i in range(nb):
        r0, r1 = i * size, min(n, (i + 1) * size)
        w = r1 - r0
        rr, cc, vv = part(i, 1)
        m = np.bincount((rr - r0) * w + (cc - r0), weights=vv, minlength=w * w).reshape(w, w)
        if i:
            p0 = r0 - size
            ur, uc, uv = part(i - 1, 2)  # U_i-1: rows in block i-1, columns in block i
            lr, lc, lv = part(i, 0)  # L_i-1: rows in block i, columns in block i-1
            cols, uc = np.unique(uc - r0, return_inverse=True)
            rows, lr = np.unique(lr - r0, return_inverse=True)
            u = sp.csr_matrix((uv, (ur - p0, uc)), shape=(size, len(cols)))
            low = sp.csr_matrix((lv, (lr, lc - p0)), shape=(len(rows), size))
            couple.append((cols, u, rows, low))
            if len(cols) and len(rows):
                m[np.ix_(rows, cols)] -= (u.T @ (low @ g[-1]).T).T
        g.append(np.asarray(sla.inv(m, overwrite_a=True, check_finite=False), dtype=np.float64))
    out = np.empty(n)
    big = g.pop()  # G_i+1,i+1 (only its rows C_i and columns R_i are read)
    out[(nb - 1) * size:] = np.diag(big)
    for i in range(nb - 2, -1, -1):
        gi = g.pop()
        cols, u, rows, low = couple[i]
        left = (u.T @ gi.T).T  # g_i U_i, its nonzero columns
        right = low @ gi  # L_i g_i, its nonzero rows
        big = gi + (left @ big[np.ix_(cols, rows)]) @ right
        out[i * size:(i + 1) * size] = np.diag(big)
    return out


def _narrow(k: int, band: int, block: int | None = None) -> bool:
    """Whether a component of k entries with this bandwidth is within the bounds (for the sweep,
    with its blocks of at least :data:`MIN_BLOCK` rows; for SuperLU, ``block=1``)."""
    w = float(max(band, MIN_BLOCK if block is None else block))
    return k * w * w <= BAND_WORK and k * w <= BAND_CELLS


def _with_hubs(block: sp.csr_matrix) -> tuple[Ints, Ints, int] | None:
    """Hubs whose removal leaves a narrow matrix: (hubs, the rest in RCM order, its bandwidth).

    A hub is an entry with far more links than the component's usual entry (at least
    :data:`HUB_DEGREE` and eight times the median), the few that :data:`HUBS` allows.
    """
    k = block.shape[0]
    pattern = block.copy()
    pattern.setdiag(0)
    pattern.eliminate_zeros()
    degree = np.diff(pattern.indptr) + np.bincount(pattern.indices, minlength=k)
    hubs = np.flatnonzero(degree >= max(HUB_DEGREE, 8 * float(np.median(degree))))
    if not len(hubs) or len(hubs) > HUBS:
        return None
    rest = np.setdiff1d(np.arange(k), hubs)
    band, order = bandwidth(block[rest][:, rest])
    if not _narrow(len(rest), band):
        return None
    return hubs.astype(np.int64), rest[order], band


def _bordered_diag(a: sp.csr_matrix, hubs: Ints, rest: Ints, band: int) -> Floats:
    """diag(a^-1) for a matrix that is narrow once a few hub rows and columns are set aside.

    With B the rest and H the hubs, the Schur complement S = A_HH - A_HB A_BB^-1 A_BH gives
    (A^-1)_HH = S^-1 and (A^-1)_BB = A_BB^-1 + X S^-1 Y, X = A_BB^-1 A_BH, Y = A_HB A_BB^-1: the
    sweep for diag(A_BB^-1), and 2 |H| solves with A_BB's sparse LU for the rest (for the
    chain's M-matrices the correction adds only nonnegative terms).
    """
    a = a.tocsr()
    abb = a[rest][:, rest].tocsr()
    rows_h = a[hubs]
    lu = spla.splu(abb.tocsc())
    x = np.asarray(lu.solve(a[rest][:, hubs].toarray()), dtype=np.float64)  # X
    yt = np.asarray(lu.solve(rows_h[:, rest].T.toarray(), trans="T"), dtype=np.float64)  # Y^T
    schur = rows_h[:, hubs].toarray() - rows_h[:, rest] @ x
    inv = np.asarray(sla.inv(schur, check_finite=False), dtype=np.float64)
    out = np.empty(a.shape[0])
    out[rest] = _banded_diag(abb, band) + np.einsum("ij,ij->i", x @ inv, yt)
    out[hubs] = np.diag(inv)
    return out


def _reach_plan(q: sp.csr_matrix, how: Plan) -> tuple[dict[int, list[Ints]], list[Component], list[Component]]:
    """How each component's N_jj is found: dense inverses (grouped by size), a sweep (banded or
    bordered by hubs), or not at all; measures bandwidths and hubs where they decide."""
    by_size: dict[int, list[Ints]] = {}
    swept: list[Component] = []
    unknown: list[Component] = []
    work = 0.0
    for c in sorted(how.components, key=lambda c: len(c.members)):
        k = len(c.members)
        dense = work + float(k) ** 3 <= DENSE_WORK
        if k <= SMALL and dense:
            work += float(k) ** 3
            by_size.setdefault(k, []).append(c.members)
            continue
        if c.band < 0:
            c.band, c.order = bandwidth(q[c.members][:, c.members])
        if _narrow(k, c.band):
            swept.append(c)
        elif dense:
            work += float(k) ** 3
            by_size.setdefault(k, []).append(c.members)
        else:
            if c.hubs is None:
                found = _with_hubs(q[c.members][:, c.members].tocsr())
                c.hubs, c.rest, c.rest_band = found or (np.zeros(0, np.int64), None, -1)
            (swept if len(c.hubs) else unknown).append(c)
    return by_size, swept, unknown


def describe(c: Component) -> str:
    """What kind of component c is, for a note on a reach left unknown."""
    k = len(c.members)
    if CROSS * c.band >= k:
        return f"{k:,} entries that all lead to one another, linked across the whole group"
    return (f"{k:,} entries that all lead to one another, too wide to solve exactly (links span {c.band:,} places "
            "in the best order found)")


def diag_inverse(q: sp.csr_matrix, how: Plan | None = None) -> tuple[Floats, int]:
    """N_jj = [(I - Q)^-1]_jj per transient entry (nan where not computed), and how many are nan.

    The components left out are listed in ``how.unreached`` (see :func:`describe`).
    """
    how = how or plan(q)
    t = q.shape[0]
    diag = np.full(t, np.nan)
    s = how.single
    if len(s):
        diag[s] = 1.0 / (1.0 - q.diagonal()[s])
    by_size, swept, how.unreached = _reach_plan(q, how)
    for k, groups in by_size.items():
        step = max(1, 2_000_000 // (k * k))  # at most about 16 MB of blocks at a time
        for at in range(0, len(groups), step):
            part = groups[at:at + step]
            inv = np.linalg.inv(_dense_blocks(q, part))
            diag[np.concatenate(part)] = np.diagonal(inv, axis1=1, axis2=2).reshape(-1)
    for c in swept:
        block = (sp.identity(len(c.members), format="csr") - q[c.members][:, c.members]).tocsr()
        if c.hubs is not None and c.rest is not None and len(c.hubs):
            diag[c.members] = _bordered_diag(block, c.hubs, c.rest, c.rest_band)
        else:
            assert c.order is not None
            diag[c.members[c.order]] = _banded_diag(block[c.order][:, c.order], c.band)
    return diag, sum(len(c.members) for c in how.unreached)
