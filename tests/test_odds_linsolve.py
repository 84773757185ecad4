"""The chain's solvers (dtc.odds.linsolve) against exact rational answers and against each other.

Random substochastic matrices Q of every shape a book takes: flowing forward (a DAG with
self-loops), one component linking everything, many small components, self-loops, and entries
whose only ways on leave the transient part (traps for the reader, absorbing for the chain).
Small ones are checked against Gaussian elimination on Fractions; medium ones method against
method.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from fractions import Fraction

import numpy as np
import numpy.typing as npt
import pytest
import scipy.sparse as sp  # type: ignore[import-untyped]

from dtc.odds import linsolve
from dtc.odds import small as plain

Floats = npt.NDArray[np.float64]
SHAPES = ("forward", "one_scc", "small_sccs", "self_loops", "traps", "mixed")
Edges = dict[tuple[int, int], Fraction]


def _edges(shape: str, t: int, rng: random.Random) -> Edges:
    """Transient-to-transient transitions; each row keeps some chance of leaving (absorption)."""
    out: Edges = {}
    for i in range(t):
        if shape == "traps" and rng.random() < 0.3:
            continue  # every way on leaves the transient part
        if shape == "forward":
            targets = [j for j in range(i + 1, min(t, i + 6)) if rng.random() < 0.6]
            if rng.random() < 0.3:
                targets.append(i)
        elif shape == "one_scc":
            targets = [(i + 1) % t] + [rng.randrange(t) for _ in range(rng.randint(0, 3))]
        elif shape == "small_sccs":
            block = i // 4 * 4
            targets = [block + (i + 1 - block) % min(4, t - block)]
            if rng.random() < 0.5 and block + 4 < t:
                targets.append(rng.randrange(block + 4, t))
        elif shape == "self_loops":
            targets = [i, *([i + 1] if i + 1 < t else [])]
        else:  # mixed: forward links, some long jumps back, some self-loops
            targets = [j for j in range(i + 1, min(t, i + 4)) if rng.random() < 0.5]
            if rng.random() < 0.2:
                targets.append(rng.randrange(t))
            if rng.random() < 0.2:
                targets.append(i)
        if not targets:
            continue
        # weights summing to less than one: the rest goes to absorbing states
        den = len(targets) + rng.randint(1, 4)
        for j in targets:
            out[(i, j)] = out.get((i, j), Fraction(0)) + Fraction(1, den)
    return out


def _matrix(edges: Edges, t: int) -> sp.csr_matrix:
    if not edges:
        return sp.csr_matrix((t, t))
    rows, cols = zip(*edges, strict=True)
    return sp.csr_matrix(([float(v) for v in edges.values()], (rows, cols)), shape=(t, t))


def _exact_inverse(edges: Edges, t: int) -> list[list[Fraction]]:
    """(I - Q)^-1 by Gauss-Jordan elimination on Fractions."""
    a = [[Fraction(int(i == j)) - edges.get((i, j), Fraction(0)) for j in range(t)] + [Fraction(int(i == j))
                                                                                         for j in range(t)]
         for i in range(t)]
    for c in range(t):
        p = next(r for r in range(c, t) if a[r][c] != 0)
        a[c], a[p] = a[p], a[c]
        pivot = a[c][c]
        a[c] = [v / pivot for v in a[c]]
        for r in range(t):
            if r != c and a[r][c] != 0:
                f = a[r][c]
                a[r] = [x - f * y for x, y in zip(a[r], a[c], strict=True)]
    return [row[t:] for row in a]


@pytest.fixture(params=["default", "krylov", "banded"])
def method(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Force every component of more than one entry through one solver."""
    if request.param == "krylov":
        monkeypatch.setattr(linsolve, "SMALL", 1)
        monkeypatch.setattr(linsolve, "BAND_WORK", 0.0)
        monkeypatch.setattr(linsolve, "DENSE_WORK", 1e12)
    elif request.param == "banded":
        monkeypatch.setattr(linsolve, "SMALL", 1)
        monkeypatch.setattr(linsolve, "BAND_WORK", 1e18)
        monkeypatch.setattr(linsolve, "MIN_BLOCK", 1)  # blocks of the bandwidth itself: many sweep steps
    yield str(request.param)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("seed", range(6))
def test_small_chains_match_exact_rationals(shape: str, seed: int, method: str) -> None:
    rng = random.Random(f"{shape}:{seed}")
    t = rng.randint(1, 24)
    edges = _edges(shape, t, rng)
    q = _matrix(edges, t)
    start = rng.randrange(t)
    b = np.zeros(t)
    b[start] = 1.0
    inverse = _exact_inverse(edges, t)
    how = linsolve.plan(q)
    if method == "krylov":
        assert all(c.method == "krylov" for c in how.components)
    x = linsolve.solve_visits(q, b, how)
    diag, unknown = linsolve.diag_inverse(q, how)
    assert unknown == 0
    for j in range(t):
        # x_j = N_start,j (visits from start); N_jj for reach
        assert x[j] == pytest.approx(float(inverse[start][j]), rel=1e-11, abs=1e-12)
        assert diag[j] == pytest.approx(float(inverse[j][j]), rel=1e-11)


def _medium(shape: str, seed: int, t: int) -> sp.csr_matrix:
    rng = random.Random(f"medium:{shape}:{seed}")
    return _matrix(_edges(shape, t, rng), t)


@pytest.mark.parametrize("shape", SHAPES)
def test_medium_chains_agree_across_methods(shape: str, monkeypatch: pytest.MonkeyPatch) -> None:
    t = 1200
    q = _medium(shape, 1, t)
    b = np.zeros(t)
    b[0] = 1.0
    b[t // 2] = 0.5
    results = {}
    for name, small, band in (("direct", 10**9, 1e18), ("krylov", 1, 0.0), ("banded", 1, 1e18)):
        monkeypatch.setattr(linsolve, "SMALL", small)
        monkeypatch.setattr(linsolve, "BAND_WORK", band)
        monkeypatch.setattr(linsolve, "MIN_BLOCK", 1 if name == "banded" else 64)
        monkeypatch.setattr(linsolve, "DENSE_WORK", 4e10 if name == "direct" else 0.0)
        how = linsolve.plan(q)
        x = linsolve.solve_visits(q, b, how)
        a = (sp.identity(t, format="csr") - q.T).tocsr()
        assert linsolve.backward_error(a, x, b) <= linsolve.TIGHT
        diag, unknown = linsolve.diag_inverse(q, how)
        results[name] = (x, diag, unknown)
    x0, d0, _ = results["direct"]
    for name in ("krylov", "banded"):
        np.testing.assert_allclose(results[name][0], x0, rtol=1e-9, atol=1e-12)
    # the banded method finds every reach (its bandwidth limit is lifted here)
    assert results["banded"][2] == 0
    np.testing.assert_allclose(results["banded"][1], d0, rtol=1e-9)


def test_cross_linked_component_goes_to_krylov_and_banded_to_direct() -> None:
    rng = random.Random(5)
    t = 6000
    chain: Edges = {(i, (i + 1) % t): Fraction(1, 2) for i in range(t)}
    for i in range(t):
        chain[(i, rng.randrange(t))] = chain.get((i, rng.randrange(t)), Fraction(0)) + Fraction(1, 3)
    cross = linsolve.plan(_matrix(chain, t))
    assert [c.method for c in cross.components] == ["krylov"]
    band: Edges = {(i, j): Fraction(1, 4) for i in range(t) for j in (i - 1, i + 1) if 0 <= j < t}
    banded = linsolve.plan(_matrix(band, t))
    assert [c.method for c in banded.components] == ["direct"]
    assert banded.components[0].band <= 2


def test_a_loose_solution_is_refined(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Krylov answer that stops short of the residual bound is refined until it is tight."""
    t = 3000
    q = _medium("one_scc", 2, t)
    monkeypatch.setattr(linsolve, "SMALL", 1)
    monkeypatch.setattr(linsolve, "BAND_WORK", 0.0)
    monkeypatch.setattr(linsolve, "MAXITER", 1)
    b = np.ones(t)
    how = linsolve.plan(q)
    x = linsolve.solve_visits(q, b, how)
    a = (sp.identity(t, format="csr") - q.T).tocsr()
    assert linsolve.backward_error(a, x, b) <= linsolve.TIGHT


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("seed", range(6))
def test_small_chains_in_plain_python_match_exact_rationals(shape: str, seed: int) -> None:
    """dtc.odds.small, which solves small books without numpy, component by component."""
    rng = random.Random(f"{shape}:{seed}")
    t = rng.randint(1, 24)
    edges = _edges(shape, t, rng)
    start = rng.randrange(t)
    inverse = _exact_inverse(edges, t)
    solved = plain.solve_matrix(t, {k: float(v) for k, v in edges.items()}, start)
    assert solved is not None
    x, diag = solved
    for j in range(t):
        assert x[j] == pytest.approx(float(inverse[start][j]), rel=1e-12, abs=1e-13)
        assert diag[j] == pytest.approx(float(inverse[j][j]), rel=1e-12)
        if inverse[start][j] == 0:
            assert x[j] == 0.0  # what the start cannot reach is exactly 0, not rounding


def test_plain_python_agrees_with_the_numeric_solvers_on_medium_chains() -> None:
    for shape in SHAPES:
        rng = random.Random(f"plain:{shape}")
        t = 60
        edges = _edges(shape, t, rng)
        q = {k: float(v) for k, v in edges.items()}
        solved = plain.solve_matrix(t, q, 0)
        assert solved is not None
        m = _matrix(edges, t)
        b = np.zeros(t)
        b[0] = 1.0
        x = linsolve.solve_visits(m, b)
        diag, _ = linsolve.diag_inverse(m)
        assert solved[0] == pytest.approx(list(x), rel=1e-10, abs=1e-12)
        assert solved[1] == pytest.approx(list(diag), rel=1e-10)


# Shapes a reader wanders in for long, where the visits are large and the matrix far from the
# identity: a random book whose only way out is one rare exit, a hub linked to and from every
# entry, a grid of rooms linked to their four neighbours, and a long corridor walked on and back
# (with a few links far back) and left at its far end.
HARD = ("long_walk", "hub", "grid", "corridor")


def _hard_edges(shape: str, t: int, rng: random.Random, rare: int) -> tuple[Edges, int]:
    """Transitions of a hard shape (t may be rounded, for the grid), and its size. Every entry can
    reach a way out; where ``rare`` matters, the way out is taken once in ``rare`` times."""
    targets: dict[int, list[int]] = {i: [] for i in range(t)}
    leak: dict[int, Fraction] = {}
    if shape == "long_walk":
        for i in range(t):
            targets[i] = [(i + 1) % t] + [rng.randrange(t) for _ in range(rng.randint(1, 3))]
        leak[rng.randrange(t)] = Fraction(1, rare)
    elif shape == "hub":
        targets[0] = list(range(1, t))
        for i in range(1, t):
            targets[i] = [0, i % (t - 1) + 1]
        for i in rng.sample(range(t), max(1, t // 100)):
            leak[i] = Fraction(1, 20)
    elif shape == "grid":
        side = max(2, int(t ** 0.5))
        t = side * side
        targets = {i: [] for i in range(t)}
        for i in range(t):
            r, c = divmod(i, side)
            targets[i] = [(r + dr) * side + c + dc for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
                          if 0 <= r + dr < side and 0 <= c + dc < side]
        for i in rng.sample(range(t), 1 + t // 500):
            leak[i] = Fraction(1, rare)
    else:  # corridor: on is twice as likely as back; one entry in ten also links far back
        for i in range(t):
            targets[i] = [i + 1, i + 1] if i + 1 < t else []
            if i:
                targets[i].append(i - 1)
            if i > 1 and rng.random() < 0.1:
                targets[i].append(rng.randrange(max(0, i - 40), i - 1))
        leak[t - 1] = Fraction(1, 2)
    out: Edges = {}
    for i, ts in targets.items():
        for j in ts:
            out[(i, j)] = out.get((i, j), Fraction(0)) + (1 - leak.get(i, Fraction(0))) / len(ts)
    return out, t


def _condition(a: Floats) -> float:
    return float(np.linalg.norm(a, np.inf) * np.linalg.norm(np.linalg.inv(a), np.inf))


@pytest.mark.parametrize("shape", HARD)
@pytest.mark.parametrize("seed", range(4))
def test_hard_small_chains_match_exact_rationals(shape: str, seed: int, method: str) -> None:
    """Long walks (an exit taken once in 10,000 steps), hubs, grids, corridors: exact answers."""
    rng = random.Random(f"hard:{shape}:{seed}")
    edges, t = _hard_edges(shape, rng.randint(4, 25), rng, rare=10_000)
    q = _matrix(edges, t)
    start = rng.randrange(t)
    b = np.zeros(t)
    b[start] = 1.0
    inverse = _exact_inverse(edges, t)
    how = linsolve.plan(q)
    x = linsolve.solve_visits(q, b, how)
    diag, unknown = linsolve.diag_inverse(q, how)
    assert unknown == 0
    a = np.eye(t) - q.toarray().T
    assert linsolve.backward_error(sp.csr_matrix(a), x, b) <= linsolve.TIGHT
    exact_x = np.array([float(inverse[start][j]) for j in range(t)])
    exact_d = np.array([float(inverse[j][j]) for j in range(t)])
    # what the backward error bound promises, normwise (twice kappa times TIGHT), and far tighter
    # in practice: no method may be further off than that
    kappa = _condition(a)
    assert np.abs(x - exact_x).max() <= 2 * kappa * linsolve.TIGHT * np.abs(exact_x).max()
    np.testing.assert_allclose(diag, exact_d, rtol=max(1e-11, 100 * kappa * 2.0**-52))


def _hard_medium(shape: str, seed: int, t: int = 700) -> tuple[sp.csr_matrix, Floats]:
    rng = random.Random(f"hard-medium:{shape}:{seed}")
    edges, t = _hard_edges(shape, t, rng, rare=1000)
    b = np.zeros(t)
    b[rng.randrange(t)] = 1.0
    return _matrix(edges, t), b


METHODS = {  # constants that send every component of more than one entry one way
    "default": {},
    "direct": {"SMALL": 10**9, "BAND_WORK": 1e18},
    "krylov": {"SMALL": 1, "BAND_WORK": 0.0, "DENSE_WORK": 0.0},
    "banded": {"SMALL": 1, "BAND_WORK": 1e18, "MIN_BLOCK": 1, "DENSE_WORK": 0.0},
}


@pytest.mark.parametrize("shape", HARD)
@pytest.mark.parametrize("name", METHODS)
def test_hard_medium_chains_match_dense_numpy(shape: str, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in METHODS[name].items():
        monkeypatch.setattr(linsolve, key, value)
    q, b = _hard_medium(shape, 1)
    t = q.shape[0]
    a = np.eye(t) - q.toarray().T
    how = linsolve.plan(q)
    x = linsolve.solve_visits(q, b, how)
    assert linsolve.backward_error(sp.csr_matrix(a), x, b) <= linsolve.TIGHT
    if shape in ("long_walk", "hub"):  # cross-linked: what the plan sends to GMRES (which stalls on a grid
        # or a corridor, narrow shapes that go to SuperLU): an answer within the bound ends the search
        assert not {"preconditioned", "fallback"} & set(how.stats)
    inverse = np.linalg.inv(a)
    kappa = float(np.linalg.norm(a, np.inf) * np.linalg.norm(inverse, np.inf))
    exact = inverse @ b
    assert np.abs(x - exact).max() <= 2 * kappa * linsolve.TIGHT * np.abs(exact).max()
    diag, unknown = linsolve.diag_inverse(q, how)
    if name == "krylov":  # too wide for any sweep, and no dense budget: left unknown
        assert unknown == t - len(how.single)
        assert np.isnan(diag).sum() == unknown
        return
    assert unknown == 0
    np.testing.assert_allclose(diag, np.diag(inverse), rtol=max(1e-10, 100 * kappa * 2.0**-52))


def test_long_walks_stop_where_the_backward_error_is_met() -> None:
    """A walk of 1.6 million steps (|x| / |b| about 2,500): GMRES alone, in a few restarts.

    A relative residual of TIGHT / 10 lies below what rounding lets GMRES reach here; asked for
    it, the solver went on to an incomplete LU, LGMRES and SuperLU, each slower than the last.
    """
    q, b = _hard_medium("long_walk", 2, t=3000)
    how = linsolve.plan(q)
    assert [c.method for c in how.components] == ["krylov"]
    x = linsolve.solve_visits(q, b, how)
    assert x.sum() > 1e5
    assert set(how.stats) == {"components", "direct", "krylov", "cycles"}
    assert how.stats["cycles"] <= 10


def test_a_grid_of_316_by_316_rooms_is_solved_directly_and_swept_for_reach() -> None:
    """The grid's bandwidth (316 at 100,000 rooms) is within the bounds: an exact reach for
    every room, where GMRES took 1,596 iterations and the reach was left unknown (planned here,
    not solved: the sweep takes seconds; benchmarks/odds_shapes_solver.py times it)."""
    side = 316
    cell = np.arange(side * side).reshape(side, side)
    rows = np.concatenate([cell[:, :-1].ravel(), cell[:, 1:].ravel(), cell[:-1, :].ravel(), cell[1:, :].ravel()])
    cols = np.concatenate([cell[:, 1:].ravel(), cell[:, :-1].ravel(), cell[1:, :].ravel(), cell[:-1, :].ravel()])
    degree = np.bincount(rows, minlength=side * side).astype(float)
    degree[[7, 40_000]] += 1.0  # two rooms with a way out
    q = sp.csr_matrix((1.0 / degree[rows], (rows, cols)), shape=(side * side, side * side))
    how = linsolve.plan(q)
    [c] = how.components
    assert (c.method, c.band) == ("direct", side)
    dense, swept, unknown = linsolve._reach_plan(q, how)
    assert (dense, swept, unknown) == ({}, [c], [])


def test_a_hub_is_set_aside_and_the_rest_swept(monkeypatch: pytest.MonkeyPatch) -> None:
    """One entry linked to and from every other: too wide to sweep, narrow without it."""
    q, _ = _hard_medium("hub", 3, t=1500)
    for key, value in {"SMALL": 1, "DENSE_WORK": 0.0, "BAND_WORK": 1e8}.items():
        monkeypatch.setattr(linsolve, key, value)
    how = linsolve.plan(q)
    [c] = how.components
    assert c.band > 700 and not linsolve._narrow(len(c.members), c.band)
    diag, unknown = linsolve.diag_inverse(q, how)
    assert unknown == 0 and c.hubs is not None and list(c.members[c.hubs]) == [0]
    a = np.eye(q.shape[0]) - q.toarray()
    inverse = np.linalg.inv(a)
    kappa = float(np.linalg.norm(a, np.inf) * np.linalg.norm(inverse, np.inf))  # about 4,000
    np.testing.assert_allclose(diag, np.diag(inverse), rtol=100 * kappa * 2.0**-52)


@pytest.mark.parametrize("seed", range(8))
def test_the_bordered_diagonal_matches_exact_rationals(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Any entries set aside as hubs (not only real ones), the rest in any order: exact."""
    monkeypatch.setattr(linsolve, "MIN_BLOCK", 1)
    rng = random.Random(f"bordered:{seed}")
    shape = rng.choice([*SHAPES, *HARD])
    t = rng.randint(4, 20)
    if shape in HARD:
        edges, t = _hard_edges(shape, t, rng, 1000)
    else:
        edges = _edges(shape, t, rng)
    hubs = np.asarray(sorted(rng.sample(range(t), rng.randint(1, min(4, t - 1)))), dtype=np.int64)
    rest = np.asarray([i for i in range(t) if i not in set(hubs.tolist())], dtype=np.int64)
    rng.shuffle(rest)  # type: ignore[arg-type]
    a = (sp.identity(t, format="csr") - _matrix(edges, t)).tocsr()
    band = int(np.abs(np.subtract.outer(np.arange(len(rest)), np.arange(len(rest))))[
        a[rest][:, rest].toarray() != 0].max(initial=0))
    inverse = _exact_inverse(edges, t)
    got = linsolve._bordered_diag(a, hubs, rest, band)
    np.testing.assert_allclose(got, [float(inverse[j][j]) for j in range(t)], rtol=1e-10)


def test_an_unknown_reach_is_described_by_its_shape(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bounds lowered to what a test affords: a random book, and a grid too wide for them."""
    monkeypatch.setattr(linsolve, "DENSE_WORK", 0.0)
    monkeypatch.setattr(linsolve, "BAND_WORK", 1e6)
    q, _ = _hard_medium("long_walk", 1, t=2500)
    how = linsolve.plan(q)
    _, unknown = linsolve.diag_inverse(q, how)
    assert unknown == 2500 and "linked across the whole group" in linsolve.describe(how.unreached[0])
    q, _ = _hard_medium("grid", 1, t=2500)
    how = linsolve.plan(q)
    _, unknown = linsolve.diag_inverse(q, how)
    assert unknown == 2500 and "too wide to solve exactly (links span 50 places" in linsolve.describe(
        how.unreached[0])
