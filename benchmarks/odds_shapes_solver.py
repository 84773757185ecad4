"""Time the odds' sparse solver (``dtc.odds.linsolve``) on chains of hard shapes, matrices alone.

    python benchmarks/odds_shapes_solver.py                         # every shape at 10,000 and 100,000
    python benchmarks/odds_shapes_solver.py --sizes 10000 --shapes grid,hub
    python benchmarks/odds_shapes_solver.py --linsolve old.py --timeout 120   # another version

No book is generated or compiled: each case builds Q (the transient-to-transient transitions,
rows summing to less than one, the rest going to absorbing states) directly, with b the start
entry's row, and times ``plan`` + ``solve_visits`` + ``diag_inverse`` as ``dtc odds`` calls them
for one reader. The shapes:

* ``wander``: every entry leads to 2-4 entries drawn uniformly from the whole book, and nothing
  ends but the way out (a small chance of leaving at the start entry): very long walks;
* ``random``: the same cross-links, with 4 endings;
* ``hub``: one entry leads to every other and every other back to it (plus a neighbour), 0.5%
  of entries are endings;
* ``grid``: every room leads to its four neighbours, 4 rooms are endings;
* ``corridor``: a long corridor (on, twice as likely as back, and one entry in 200 with a link
  up to 300 entries back), leaving at its far end.

Each case runs in a child process (``--timeout`` seconds at most, reported as ``>T``); the table
gives CPU seconds per step, the expected length of the walk (the sum of the visits), the
normwise backward error of the visits, the entries whose reach was not computed, the child's
peak memory (matrices included), and what the solver reported (its ``plan.stats``).
``--linsolve FILE`` times another version of the module (``git show REV:src/dtc/odds/linsolve.py
> FILE``) against the same matrices.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))

SHAPES = ("wander", "random", "hub", "grid", "corridor")


def build(shape: str, n: int, seed: int = 1) -> tuple[Any, Any]:
    """Q (n x n, scipy CSR) and b (the start entry's row) for one shape."""
    import numpy as np
    import scipy.sparse as sp  # type: ignore[import-untyped]

    rng = np.random.default_rng([seed, n, SHAPES.index(shape)])
    rows: list[Any] = []
    cols: list[Any] = []
    leave = np.zeros(n)  # per row: the weight of ways out of the transient part (as extra options)
    ends = np.zeros(n, dtype=bool)
    if shape in ("wander", "random"):
        degree = rng.integers(2, 5, n)
        rows.append(np.repeat(np.arange(n), degree))
        cols.append(rng.integers(0, n, int(degree.sum())))
        if shape == "wander":
            leave[0] = 0.2
        else:
            ends[rng.choice(np.arange(1, n), 4, replace=False)] = True
    elif shape == "hub":
        others = np.arange(1, n)
        rows += [np.zeros(n - 1, dtype=np.int64), others, others]
        cols += [others, np.zeros(n - 1, dtype=np.int64), np.where(others + 1 < n, others + 1, 1)]
        ends[rng.choice(others, max(1, n // 200), replace=False)] = True
    elif shape == "grid":
        side = round(n ** 0.5)
        n = side * side
        cell = np.arange(n).reshape(side, side)
        for one, other in ((cell[:, :-1], cell[:, 1:]), (cell[:-1, :], cell[1:, :])):
            rows += [one.ravel(), other.ravel()]
            cols += [other.ravel(), one.ravel()]
        leave = np.zeros(n)
        ends = np.zeros(n, dtype=bool)
        ends[rng.choice(np.arange(1, n), 4, replace=False)] = True
    elif shape == "corridor":
        here = np.arange(n - 1)
        back = np.arange(1, n)
        far = np.flatnonzero(rng.random(n) < 0.005)
        far = far[far > 1]
        rows += [here, here, back, far]  # on counts twice: a drift forward
        cols += [here + 1, here + 1, back - 1, rng.integers(np.maximum(0, far - 300), far)]
        leave[n - 1] = 1.0
    else:
        raise ValueError(shape)
    src, dst = np.concatenate(rows), np.concatenate(cols)
    count = np.bincount(src, minlength=n) + leave
    weight = 1.0 / count[src]
    keep = ~ends[src] & ~ends[dst]  # an ending is absorbing: not a transient state
    q = sp.csr_matrix((weight[keep], (src[keep], dst[keep])), shape=(n, n))
    live = np.flatnonzero(~ends)
    q = q[live][:, live].tocsr()
    b = np.zeros(len(live))
    b[0] = 1.0
    return q, b


def load(path: str | None) -> ModuleType:
    if not path:
        from dtc.odds import linsolve

        return linsolve
    spec = importlib.util.spec_from_file_location("linsolve_under_test", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def one(shape: str, n: int, seed: int, path: str | None) -> dict[str, Any]:
    """Build, solve and time one case (in this process)."""
    import numpy as np
    import scipy.sparse as sp

    linsolve = load(path)
    q, b = build(shape, n, seed)
    t = q.shape[0]
    times = {}
    c = time.process_time()
    how = linsolve.plan(q)
    times["plan"] = time.process_time() - c
    c = time.process_time()
    x = linsolve.solve_visits(q, b, how)
    times["visits"] = time.process_time() - c
    c = time.process_time()
    diag, unknown = linsolve.diag_inverse(q, how)
    times["reach"] = time.process_time() - c
    a = (sp.identity(t, format="csr") - q.T).tocsr()
    err = float(linsolve.backward_error(a, x, b))
    big = max((len(c.members), c.band) for c in how.components) if how.components else (1, 0)
    bad = int((~np.isfinite(diag)).sum()) - int(unknown)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"t": t, "times": times, "walk": float(x.sum()), "error": err, "unknown": int(unknown),
            "nonfinite": bad, "largest": big, "stats": dict(how.stats), "peak": peak}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Time dtc.odds.linsolve on chains of hard shapes.")
    ap.add_argument("--sizes", default="10000,100000", help="comma-separated state counts")
    ap.add_argument("--shapes", default=",".join(SHAPES), help=f"comma-separated, of {', '.join(SHAPES)}")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds per case (default 600)")
    ap.add_argument("--linsolve", help="time this file instead of dtc.odds.linsolve")
    ap.add_argument("--one", help=argparse.SUPPRESS)  # shape:n, run in the child process
    args = ap.parse_args(argv)
    if args.one:
        shape, n = args.one.split(":")
        print(json.dumps(one(shape, int(n), args.seed, args.linsolve)))
        return 0
    env = dict(os.environ)
    for name in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):  # as `dtc odds` asks
        env.setdefault(name, "1")
    print(f"solver: {args.linsolve or 'dtc.odds.linsolve'}; CPU seconds; timeout {args.timeout:g} s\n")
    print("| shape | states | largest component (k, band) | plan | visits | reach | total | walk | backward error"
          " | no reach | peak MiB | solver |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for n in (int(s.replace("_", "")) for s in args.sizes.split(",") if s.strip()):
        for shape in (s.strip() for s in args.shapes.split(",") if s.strip()):
            cmd = [sys.executable, __file__, "--one", f"{shape}:{n}", "--seed", str(args.seed)]
            if args.linsolve:
                cmd += ["--linsolve", args.linsolve]
            try:
                done = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout, env=env, check=True)
            except subprocess.TimeoutExpired:
                print(f"| {shape} | {n:,} | | | | | >{args.timeout:g} | | | | | |", flush=True)
                continue
            except subprocess.CalledProcessError as e:
                print(f"| {shape} | {n:,} | failed: {e.stderr.strip().splitlines()[-1:]} |", flush=True)
                continue
            r = json.loads(done.stdout.strip().splitlines()[-1])
            tm = r["times"]
            stats = ", ".join(f"{k} {v}" for k, v in r["stats"].items() if v and k != "components")
            if r["nonfinite"]:  # a reach that should have been computed and is not a number
                stats += f"; {r['nonfinite']:,} reach not finite"
            k, band = r["largest"]
            print(f"| {shape} | {r['t']:,} | {k:,}, {band} | {tm['plan']:.2f} | {tm['visits']:.2f} | {tm['reach']:.2f}"
                  f" | {sum(tm.values()):.2f} | {r['walk']:,.0f} | {r['error']:.1e} | {r['unknown']:,}"
                  f" | {r['peak']:,.0f} | {stats} |",
                  flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
