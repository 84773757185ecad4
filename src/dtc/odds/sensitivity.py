"""The chance of the goal as one check's pass chance changes, without solving the chain again.

"Which checks decide the book" (:func:`dtc.odds.analyze._sensitivity`) asks, for every choice with
a check, what the chance of the goal would be with that choice's pass chance ``p`` changed (one
difficulty easier, one harder, and around ``p`` for the derivative). Solving the whole chain for
each of those answers made ``dtc odds`` cost hundreds of solves on a book with hundreds of checks
(50 s on a 400-entry generated book). A choice's pass chance changes only the rows of the states
where the choice is offered, so the new answer is the old one corrected by a low-rank update
(Woodbury's identity), exactly:

with ``Q`` the transitions among the transient states, ``r`` the one-step chance of the goal,
``N = (I - Q)^-1``, ``a = N^T e_start`` (expected visits) and ``h = N r`` (the chance of the goal
from each state), a change ``Q' = Q + U V`` (``U``: the changed states' unit columns, ``V``: their
rows' change) and ``r' = r + U dr`` gives

    G' = a.r + a_S.dr + a_S (I - V N U)^-1 (V h + V N U dr)

— one factorisation of ``I - Q`` for the book, and per choice one solve for each state where it is
offered. States the reader can never leave for an ending or an exit (a loop) are taken as
absorbing, and a change that touches one of them, a near-singular update or an answer outside
[0, 1] is left to the full solve (:meth:`GoalFunction.value` returns None).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dtc.odds.small import PlainShape

#: Past this many changed states per choice the update costs more than it saves.
MAX_RANK = 400


class GoalFunction:
    """The chance of the goal from the start with some options' check at another pass chance."""

    def __init__(self, plain: PlainShape, base: Sequence[float], policy: str, goal: Sequence[bool]) -> None:
        import numpy as np
        import scipy.sparse as sp  # type: ignore[import-untyped]
        from scipy.sparse.linalg import splu  # type: ignore[import-untyped]

        from dtc.odds.chain import branch_probabilities, build_shape

        self._np = np
        self._branch_probabilities = branch_probabilities
        self.policy = policy
        self.shape = build_shape(plain)
        shape = self.shape
        self.extra = len(base)
        self.p0 = np.asarray([[*base, 0.0]], dtype=np.float64)
        self.bp = branch_probabilities(shape, self.p0, policy)[0]
        n = len(plain.states)
        absorbing = np.asarray(shape.absorbing, dtype=bool)
        self.br_state = np.asarray(shape.opt_state[shape.br_opt], dtype=np.int64)
        tgt = np.asarray(shape.br_target, dtype=np.int64)
        self.br_target = tgt
        goal_arr = np.asarray(goal, dtype=bool)
        self.goal = goal_arr
        live = self.bp > 0
        # the states from which an absorbing state can be reached: the rest loop for ever
        reaches = absorbing.copy()
        preds: list[list[int]] = [[] for _ in range(n)]
        for s, t in zip(self.br_state[live].tolist(), tgt[live].tolist(), strict=True):
            preds[t].append(s)
        stack = [int(i) for i in np.flatnonzero(absorbing)]
        while stack:
            t = stack.pop()
            for s in preds[t]:
                if not reaches[s]:
                    reaches[s] = True
                    stack.append(s)
        self.transient = (~absorbing) & reaches
        self.index = np.full(n, -1, dtype=np.int64)
        tr = np.flatnonzero(self.transient)
        self.index[tr] = np.arange(len(tr))
        self.size = len(tr)
        start = plain.start
        self.ok = bool(self.transient[start])
        if not self.ok:
            return
        rows, cols, vals, r = self._rows(self.bp, np.ones(len(self.bp), dtype=bool))
        q = sp.csc_matrix((vals, (rows, cols)), shape=(self.size, self.size))
        self.r = r
        try:
            self.lu = splu((sp.identity(self.size, format="csc") - q).tocsc())
        except RuntimeError:  # singular: leave every answer to the full solve
            self.ok = False
            return
        e = np.zeros(self.size)
        e[self.index[start]] = 1.0
        self.a = self.lu.solve(e, trans="T")
        self.h = self.lu.solve(r)
        self.now = float(self.h[self.index[start]])

    def _rows(self, bp: Any, sel: Any) -> tuple[Any, Any, Any, Any]:
        """Transient-to-transient entries (rows, cols, values) and the one-step goal chance per
        transient state, over the branches ``sel`` with chances ``bp``."""
        np = self._np
        s = self.br_state[sel]
        t = self.br_target[sel]
        p = bp[sel]
        keep = self.transient[s]
        s, t, p = s[keep], t[keep], p[keep]
        into = self.transient[t]
        r = np.zeros(self.size)
        to_goal = (~into) & self.goal[t]
        np.add.at(r, self.index[s[to_goal]], p[to_goal])
        return self.index[s[into]], self.index[t[into]], p[into], r

    def value(self, options: Sequence[int], p: float) -> float | None:
        """The chance of the goal with ``options`` (indices into the shape's options) at pass
        chance ``p``; None where the update cannot answer exactly (the full solve must)."""
        if not self.ok:
            return None
        np = self._np
        shape = self.shape
        check = shape.opt_check.copy()
        check[list(options)] = self.extra
        probs = self.p0.copy()
        probs[0, self.extra] = p
        bp = self._branch_probabilities(replace(shape, opt_check=check), probs, self.policy)[0]
        changed_states = np.unique(shape.opt_state[list(options)])
        if not self.transient[changed_states].all():
            return None
        if len(changed_states) > MAX_RANK:
            return None
        sel = np.isin(self.br_state, changed_states)
        delta = bp[sel] - self.bp[sel]
        s_sel = self.br_state[sel]
        t_sel = self.br_target[sel]
        # a branch that becomes possible into a state that loops for ever is not in the model
        if (~self.transient[t_sel] & (bp[sel] > 0) & ~np.asarray(shape.absorbing, dtype=bool)[t_sel]).any():
            return None
        m = len(changed_states)
        col = {int(s): k for k, s in enumerate(changed_states.tolist())}
        v = np.zeros((m, self.size))
        dr = np.zeros(m)
        for s, t, d in zip(s_sel.tolist(), t_sel.tolist(), delta.tolist(), strict=True):
            if d == 0.0:
                continue
            if self.transient[t]:
                v[col[s], self.index[t]] += d
            elif self.goal[t]:
                dr[col[s]] += d
        u = np.zeros((self.size, m))
        idx = self.index[changed_states]
        u[idx, np.arange(m)] = 1.0
        nu = self.lu.solve(u)
        vnu = v @ nu
        small = np.eye(m) - vnu
        try:
            if np.linalg.cond(small) > 1e10:
                return None
            corr = np.linalg.solve(small, v @ self.h + vnu @ dr)
        except np.linalg.LinAlgError:
            return None
        a_s = self.a[idx]
        g = self.now + float(a_s @ dr) + float(a_s @ corr)
        if not (-1e-9 <= g <= 1 + 1e-9) or not np.isfinite(g):
            return None
        return min(1.0, max(0.0, g))
