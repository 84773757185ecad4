"""The absorbing chain of `dtc odds`: hand-solved books, cycles, traps, and agreement with brute force."""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dtc.compiler.api import compile_text
from dtc.odds import chain as chain_module
from dtc.odds import compute_odds, small

ADVENTURES = Path(__file__).resolve().parents[1] / "adventures"
CHARACTER = {"STR": 10, "DEX": 10, "CON": 10, "WIS": 10, "INT": 10, "CHA": 10}
P2 = {1: 33 / 36, 2: 108 / 216}  # DEX 10: P(2d6 <= 10), P(3d6 <= 10)

Spec = dict[int, dict[str, Any]]


def make_graph(spec: Spec, start: int = 1) -> dict[str, Any]:
    """A compiled graph from ``{n: {"end": bool, "choices": [(ability, D, S, F)], "prose": [..], "returns": [..]}}``."""
    entries = []
    for n, e in spec.items():
        choices, exits = [], []
        for ci, (ability, d, s, f) in enumerate(e.get("choices", [])):
            choices.append({"label": f"c{ci}", "text": "(...)", "ability": ability, "difficulty": d, "success": s,
                            "failure": f, "error": None, "span": None})
            exits.append({"target": s, "kind": "success", "choice": ci, "span": None})
            if f is not None:
                exits.append({"target": f, "kind": "failure", "choice": ci, "span": None})
        exits += [{"target": t, "kind": "prose", "choice": None, "span": None} for t in e.get("prose", [])]
        exits += [{"target": t, "kind": "return", "choice": None, "span": None} for t in e.get("returns", [])]
        entries.append({"number": n, "label": None, "line": n, "end_line": n, "text": "", "ending": e.get("end", False),
                        "choices": choices, "exits": exits, "creatures": [], "effects": e.get("effects", [])})
    return {"format": "dtc-adventure", "format_version": 1, "dtc_version": "0", "source": {"path": "t", "sha256": ""},
            "title": "T", "author": None, "rules": "death-and-treasure", "start": start, "creatures": [],
            "encounters": [], "entries": entries}


def nz(outcomes: dict[str, float]) -> dict[str, float]:
    """Outcomes that can happen (the chain also lists those it found impossible, at 0)."""
    return {k: v for k, v in outcomes.items() if v > 1e-15}


def odds(spec: Spec, **kw: Any) -> Any:
    return compute_odds(make_graph(spec), abilities=kw.pop("abilities", CHARACTER), **kw)


def test_branch_odds_and_escape() -> None:
    o = odds({1: {"choices": [("DEX", 1, 2, 3)]}, 2: {"end": True}, 3: {"choices": [(None, 0, 1, None)]}})
    p = P2[1]
    q = 1 - p
    # Back at the entrance (from 3) the reader tries again or leaves, half and half: leaving
    # from there is 1 / (2 - q), and the reader gets there with q.
    assert nz(o.outcomes) == pytest.approx({"ending:2": 1 - q / (2 - q), "escaped": q / (2 - q)})
    assert o.visits[1] == pytest.approx(1 + 2 * q / (2 - q))  # the start, and each return to it
    assert o.reach[3] == pytest.approx(q)
    assert o.edges[(1, 0)] == pytest.approx(p) and o.edges[(1, 1)] == pytest.approx(1 - p)


def test_a_retry_loop_ends_for_sure_with_geometric_visits() -> None:
    # 2: try again on failure (a self loop); the reader always gets through eventually.
    o = odds({1: {"choices": [(None, 0, 2, None)]}, 2: {"choices": [("DEX", 2, 3, 2)]}, 3: {"end": True}})
    p = P2[2]
    assert nz(o.outcomes) == pytest.approx({"ending:3": 1.0})
    assert o.visits[2] == pytest.approx(1 / p)
    assert o.reach[2] == pytest.approx(1.0)


def test_a_closed_loop_traps_forever() -> None:
    o = odds({1: {"choices": [(None, 0, 2, None), (None, 0, 4, None)]}, 2: {"prose": [3]}, 3: {"prose": [2]},
              4: {"end": True}})
    assert nz(o.outcomes) == pytest.approx({"loop:2": 0.5, "ending:4": 0.5})
    assert o.loops["loop:2"] == [2, 3]
    assert math.isinf(o.visits[2]) and math.isinf(o.visits[3])
    assert o.reach[2] == pytest.approx(0.5) and o.reach[3] == pytest.approx(0.5)
    assert [k for k, _ in o.stalls] == ["loop:2"]


def test_dead_ends_and_missing_targets() -> None:
    o = odds({1: {"choices": [(None, 0, 2, None), (None, 0, 99, None), ("DEX", 1, 2, None)]}, 2: {}})
    assert o.outcomes["dead_end:2"] == pytest.approx(2 / 3 - (1 - P2[1]) / 3)
    assert o.outcomes["missing:99"] == pytest.approx(1 / 3)
    assert o.outcomes["missing:no failure entry"] == pytest.approx((1 - P2[1]) / 3)


def test_return_to_most_recent_entry_is_uniform_over_its_targets() -> None:
    spec: Spec = {1: {"choices": [(None, 0, 2, None), (None, 0, 3, None)]}, 2: {"prose": [4]}, 3: {"prose": [4]},
                  4: {"returns": [2, 3], "choices": [(None, 0, 5, None)]}, 5: {"end": True}}
    o = odds(spec)
    # At 4: the return (one option) or the way on, each 1/2; the return goes to 2 or 3, each 1/4.
    assert o.edges[(4, 1)] == pytest.approx(0.25) and o.edges[(4, 2)] == pytest.approx(0.25)
    assert nz(o.outcomes) == pytest.approx({"ending:5": 1.0})
    assert o.visits[4] == pytest.approx(2.0)


def test_conditional_prose_exit_is_left_out_when_there_is_more() -> None:
    spec: Spec = {1: {"choices": [(None, 0, 2, None)], "prose": [3],
                      "effects": [{"kind": "condition", "target": 3}]}, 2: {"end": True}, 3: {"end": True}}
    o = odds(spec)
    assert nz(o.outcomes) == pytest.approx({"ending:2": 1.0})
    assert any("conditional exit to 3" in n for n in o.notes)


def test_likeliest_takes_the_surest_options() -> None:
    spec: Spec = {1: {"choices": [("DEX", 2, 2, 3), ("DEX", 1, 3, 2), (None, 0, 4, None)]},
                  2: {"end": True}, 3: {"end": True}, 4: {"end": True}}
    assert nz(odds(spec, policy="likeliest").outcomes) == pytest.approx({"ending:4": 1.0})
    uniform = odds(spec).outcomes
    assert uniform["ending:4"] == pytest.approx(1 / 3)


def test_start_that_is_an_ending_or_a_dead_end() -> None:
    assert nz(odds({1: {"end": True}}).outcomes) == {"ending:1": 1.0}
    assert nz(odds({1: {}}).outcomes) == {"dead_end:1": 1.0}


def test_no_start_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="no start"):
        compute_odds(make_graph({1: {"end": True}}, start=7))


def test_the_fresh_mixture_keeps_one_adventurer_for_the_whole_path() -> None:
    # Two DEX checks in a row: a fresh adventurer passes both with E[p(DEX)^2], not E[p(DEX)]^2.
    spec: Spec = {1: {"choices": [("DEX", 2, 2, 4)]}, 2: {"choices": [("DEX", 2, 3, 4)]}, 3: {"end": True},
                  4: {"end": True}}
    o = compute_odds(make_graph(spec))
    assert o.method == "mixture"
    from fractions import Fraction

    from dtc.odds.checks import score_distribution
    from dtc.systems import get_ruleset

    rules = get_ruleset("death-and-treasure")
    both = sum((w * rules.check_probability({"DEX": s}, "DEX", 2) ** 2 for s, w in score_distribution(rules).items()),
               Fraction(0))
    assert o.outcomes["ending:3"] == pytest.approx(float(both), abs=1e-12)
    single = float(o.choices[0].check)
    assert abs(o.outcomes["ending:3"] - single**2) > 1e-3  # the average adventurer would be wrong here


# --- agreement with brute force ----------------------------------------------------------


def brute_force(spec: Spec, policy_p: dict[tuple[str | None, int], float], start: int = 1,
                steps: int = 50_000) -> tuple[dict[str, float], dict[int, float], dict[int, float]]:
    """Outcomes, expected visits and reach by pushing probability mass step by step, until less than
    1e-13 of it is still moving (a reader who may leave by the entrance can wander a long time
    first) or ``steps`` have passed (mass in a closed loop never settles)."""
    numbers = list(spec)

    @functools.cache
    def moves(n: int) -> list[tuple[float, int | str]]:
        # Arriving at the start again is "back at the entrance" (0): its options and leaving.
        e = spec[start if n == 0 else n]
        options: list[list[tuple[float, int | str]]] = []
        for ability, d, s, f in e.get("choices", []):
            p = 1.0 if d == 0 else policy_p[(ability, d)]
            opt: list[tuple[float, int | str]] = [(p, s if s in spec else f"missing:{s}")]
            if d > 0:
                opt.append((1 - p, f if f in spec else f"missing:{f}"))
            options.append(opt)
        options += [[(1.0, t if t in spec else f"missing:{t}")] for t in e.get("prose", [])]
        if e.get("returns"):
            options.append([(1 / len(e["returns"]), t) for t in e["returns"]])
        if n == 0:
            options.append([(1.0, "escaped")])
        return [(w / len(options), 0 if t == start else t) for opt in options for w, t in opt]

    def absorbing(n: int | str) -> str | None:
        if isinstance(n, str):
            return n
        if n == 0:
            return None
        if spec[n].get("end"):
            return f"ending:{n}"
        return None if moves(n) else f"dead_end:{n}"

    def run(stop_at: int | None) -> tuple[dict[str, float], dict[int, float], float]:
        mass: dict[int, float] = {m: w for w, m in [(0.0, 0)]} if False else {}
        out: dict[str, float] = {}
        visits = {n: 0.0 for n in numbers}
        hit = 0.0
        for w, t in moves(start):
            mass[t] = mass.get(t, 0.0) + w  # type: ignore[index]
        for _ in range(steps):
            nxt: dict[int, float] = {}
            for n, w in mass.items():
                if stop_at is not None and n == stop_at:
                    hit += w
                    continue
                a = absorbing(n)
                visits[n] = visits.get(n, 0.0) + w if a is None else visits.get(n, 0.0)
                if a is not None:
                    out[a] = out.get(a, 0.0) + w
                    continue
                for p, t in moves(n):
                    nxt[t] = nxt.get(t, 0.0) + w * p  # type: ignore[index]
            mass = nxt
            if sum(mass.values()) < 1e-13:
                break
        visits[start] += visits.pop(0, 0.0)  # each return to the entrance (the first visit is not counted)
        return out, visits, hit

    outcomes, visits, _ = run(None)
    reach = {}
    for n in numbers:
        if n != start and absorbing(n) is None:
            reach[n] = run(n)[2]
    return outcomes, visits, reach


@st.composite
def books(draw: st.DrawFn) -> Spec:
    size = draw(st.integers(2, 7))
    targets = st.integers(1, size + 1)  # size + 1 names no entry
    spec: Spec = {}
    for n in range(1, size + 1):
        if n > 1 and draw(st.integers(0, 4)) == 0:
            spec[n] = {"end": True}
            continue
        choices = []
        for _ in range(draw(st.integers(0 if n > 1 else 1, 3))):
            d = draw(st.sampled_from([0, 1, 2]))
            choices.append((draw(st.sampled_from(["DEX", "CHA"])), d, draw(targets), draw(targets) if d else None))
        spec[n] = {"choices": choices, "prose": draw(st.lists(targets, max_size=1))}
    return spec


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(books())
def test_chain_agrees_with_brute_force(spec: Spec) -> None:
    abilities = {**CHARACTER, "DEX": 9, "CHA": 12}
    o = odds(spec, abilities=abilities)
    from dtc.systems import get_ruleset

    rules = get_ruleset("death-and-treasure")
    chances = {(a, d): float(rules.check_probability(abilities, a, d)) for a in ("DEX", "CHA") for d in (1, 2)}
    outcomes, visits, reach = brute_force(spec, chances)
    assert sum(o.outcomes.values()) == pytest.approx(1.0)
    for key, p in o.outcomes.items():
        if key.startswith("loop:"):
            continue  # brute force leaves that mass wandering
        assert p == pytest.approx(outcomes.get(key, 0.0), abs=1e-6), key
    loops = sum(p for k, p in o.outcomes.items() if k.startswith("loop:"))
    assert loops == pytest.approx(1 - sum(outcomes.values()), abs=1e-6)
    for n, r in reach.items():
        if o.reach[n] is not None and not math.isinf(o.visits[n]):
            assert o.reach[n] == pytest.approx(r, abs=1e-6), n
            assert o.visits[n] == pytest.approx(visits[n], abs=1e-5), n


@pytest.fixture
def sparse_always(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(chain_module, "DENSE_LIMIT", 0)
    monkeypatch.setattr(small, "WORK", -1)  # past the plain-Python path of small books
    yield


def numeric(spec: Spec, **kw: Any) -> Any:
    """The odds through numpy and scipy (dtc.odds.chain), as a book too large for dtc.odds.small."""
    with mock.patch.object(small, "WORK", -1):
        return odds(spec, **kw)


def assert_same(plain: Any, num: Any) -> None:
    assert plain.outcomes.keys() == num.outcomes.keys()
    for key, p in plain.outcomes.items():
        assert p == pytest.approx(num.outcomes[key], rel=1e-10, abs=1e-13), key
    assert plain.loops == num.loops
    for n, v in plain.visits.items():
        assert v == pytest.approx(num.visits[n], rel=1e-10, abs=1e-13), n
        r, s = plain.reach[n], num.reach[n]
        assert r == pytest.approx(s, rel=1e-10, abs=1e-13) if r is not None and s is not None else r == s, n
    assert plain.edges == pytest.approx(num.edges, rel=1e-12)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(books(), st.sampled_from(["random", "likeliest"]))
def test_plain_python_and_numeric_paths_agree(spec: Spec, policy: str) -> None:
    plain = odds(spec, abilities={**CHARACTER, "DEX": 9, "CHA": 12}, policy=policy)
    assert_same(plain, numeric(spec, abilities={**CHARACTER, "DEX": 9, "CHA": 12}, policy=policy))


@pytest.mark.parametrize("book", sorted(ADVENTURES.glob("*.txt")), ids=lambda p: p.stem)
@pytest.mark.parametrize("policy", ["random", "likeliest"])
def test_bundled_books_agree_on_both_paths(book: Path, policy: str) -> None:
    """The bundled books (fresh adventurers), solved in plain Python where small enough and with numpy."""
    graph = compile_text(book.read_text(encoding="utf-8"), str(book)).graph()
    plain = compute_odds(graph, policy=policy)
    with mock.patch.object(small, "WORK", -1):
        num = compute_odds(graph, policy=policy)
    assert_same(plain, num)


def test_sparse_and_dense_solvers_agree(sparse_always: None) -> None:
    rng = np.random.default_rng(7)
    spec: Spec = {}
    for n in range(1, 60):
        if n > 1 and rng.random() < 0.1:
            spec[n] = {"end": True}
            continue
        spec[n] = {"choices": [("DEX", int(rng.integers(0, 3)), int(rng.integers(1, 61)), int(rng.integers(1, 61)))
                               for _ in range(int(rng.integers(1, 4)))]}
    sparse = odds(spec, policy="likeliest")
    chain_module.DENSE_LIMIT = 10_000
    dense = odds(spec, policy="likeliest")
    assert sparse.outcomes == pytest.approx(dense.outcomes, abs=1e-9)
    for n in spec:
        if not math.isinf(dense.visits[n]):
            assert sparse.visits[n] == pytest.approx(dense.visits[n], abs=1e-9)
            assert sparse.reach[n] == pytest.approx(dense.reach[n], abs=1e-9)
