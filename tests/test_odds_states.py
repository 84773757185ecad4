"""`dtc odds` over what the reader holds: exact against hand-worked and independent answers, the
best and the worst reader, which checks decide a book, and bounds past the budget."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest
from click.testing import CliRunner

from dtc.cli import main
from dtc.compiler.api import compile_text
from dtc.odds import compute_odds
from dtc.odds import states as states_module

CHARM = """Title: Charm

1
The crossroads. **Left** (D0, S2) or **Right** (D0, S3).

2
A shrine. You take the charm. [+charm] **Go on** (D0, S4).

3
An empty hall. **Go on** (D0, S4).

4
A warded door. **The Door** (D0, S5, if charm) or **The Pit** (D0, S6) or **The Stair** (D0, S7).

5
Treasure! THE END (victory)

6
You fall. THE END (death)

7
A long stair down. **Down** (D0, S6).
"""


def graph(text: str) -> Any:
    return compile_text(text, "book.txt").graph()


def test_a_charm_from_one_branch_opens_a_warded_door() -> None:
    """The true chance is 1/2 (the charm) x 1/3 (the door among three ways) = 1/6; ignoring the
    gate, a reader without the charm would have a door too (1/3 x 1/2 + 1/2 x 1/3 = 1/3)."""
    odds = compute_odds(graph(CHARM))
    assert odds.by_kind()["victory"] == pytest.approx(1 / 6, abs=1e-12)
    assert odds.outcomes["ending:6"] == pytest.approx(5 / 6, abs=1e-12)
    assert odds.reach[7] == pytest.approx(1 / 2 * 1 / 3 + 1 / 2 * 1 / 2, abs=1e-12)
    assert odds.play is not None
    assert odds.play.random == pytest.approx(1 / 6, abs=1e-12)
    assert odds.play.best == pytest.approx(1.0) and odds.play.worst == pytest.approx(0.0)
    assert odds.states is not None and odds.unexplored == 0.0
    gated = [c for c in odds.choices if c.condition]
    assert [(c.entry, c.condition) for c in gated] == [(4, "charm")]


def test_the_best_and_worst_policies_give_their_outcomes() -> None:
    best = compute_odds(graph(CHARM), policy="best")
    assert best.outcomes["ending:5"] == pytest.approx(1.0)
    worst = compute_odds(graph(CHARM), policy="worst")
    assert worst.by_kind()["victory"] == pytest.approx(0.0)


LOOP = """Title: Loop

1
A hall. **North** (D0, S2) or **South** (D0, S3).

2
A key on a hook. [+brass key] **Back** (D0, S1).

3
A locked gate. **Unlock** (D0, S4, if brass key) or **Back** (D0, S1).

4
Out. THE END (victory)
"""


def test_a_key_found_in_a_loop() -> None:
    """Worked by hand: from the entrance without the key the reader reaches the key first or the
    gate first; with the key each visit to 3 opens the gate with chance 1/2. Leaving is one more
    option at the entrance once back (1/3 each then)."""
    odds = compute_odds(graph(LOOP))
    # Without the key: a = P(victory | at 1, first time), b = P(victory | back at 1, no key),
    # c = P(victory | back at 1 with key), g = P(victory | at 3 with key).
    # g = 1/2 + 1/2 c; c = 1/3 c + 1/3 g (north: key again, back to 1) ... solved exactly:
    c = Fraction(1, 2)  # c = (c + g)/3, g = (1 + c)/2 -> 6c = 2c + 1 + c -> c = 1/3? (see below)
    # Solve properly: c = (1/3)c + (1/3)g + 0 (leave); g = 1/2 + c/2.
    # c = c/3 + (1/2 + c/2)/3 = c/3 + 1/6 + c/6 -> c (1 - 1/2) = 1/6 -> c = 1/3; g = 2/3.
    c = Fraction(1, 3)
    g = Fraction(1, 2) + c / 2
    # b: back at 1 without the key: north (key, then c), south (gate shut: back, b), leave (0).
    # b = (1/3) c + (1/3) b -> b = c / 2; a = (1/2) c + (1/2) b (first time, no leave).
    b = c / 2
    a = c / 2 + b / 2
    assert odds.by_kind()["victory"] == pytest.approx(float(a), abs=1e-12)
    assert g == Fraction(2, 3)


def independent(text: str) -> Fraction:
    """An independent exact solver for an acyclic book with D0 choices, gates and random branches:
    a recursion over (entry, what is held) in fractions, uniform over open options."""
    g = graph(text)
    entries = {e["number"]: e for e in g["entries"]}

    def holds(c: Any, held: dict[str, int]) -> bool:
        if "has" in c:
            return held.get(c["has"], 0) >= c["count"]
        if "not" in c:
            return not holds(c["not"], held)
        if "all" in c:
            return all(holds(x, held) for x in c["all"])
        return any(holds(x, held) for x in c["any"])

    def value(n: int, held: dict[str, int]) -> Fraction:
        e = entries[n]
        held = dict(held)
        for ch in e.get("changes", []):
            held[ch["name"]] = max(0, held.get(ch["name"], 0) + ch["amount"])
        if e["ending"]:
            return Fraction(1 if e.get("ending_kind") == "victory" else 0)
        opts = [c for c in e["choices"] if c.get("condition") is None or holds(c["condition"], held)]
        total = Fraction(0)
        for c in opts:
            if "roll" in c:
                sides, branches = c["roll"]["sides"], c["roll"]["branches"]
                total += sum(Fraction(b["high"] - b["low"] + 1, sides) * value(b["target"], held) for b in branches)
            else:
                total += value(c["success"], held)
        return total / len(opts)

    return value(g["start"], {})


ROLLS = """Title: Rolls

1
A gambling den. **Play** (roll d6, 1-2 S2, 3-6 S3) or **Walk on** (D0, S4).

2
You win a purse. [+10 coins, +lucky] **Go on** (D0, S4).

3
You lose. [-5 coins] **Go on** (D0, S4).

4
A toll bridge. **Pay** (D0, S5, if 10 coins) or **Swim** (roll d6, 1 S6, 2-6 S5) or
**Charm the keeper** (D0, S5, if lucky and not 20 coins).

5
Across. THE END (victory)

6
Drowned. THE END (death)
"""


def test_random_branches_counts_and_gates_agree_with_an_independent_solver() -> None:
    odds = compute_odds(graph(ROLLS))
    assert odds.by_kind()["victory"] == pytest.approx(float(independent(ROLLS)), abs=1e-12)


def test_past_the_budget_the_odds_are_bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    exact = compute_odds(graph(LOOP)).by_kind()["victory"]
    monkeypatch.setattr(states_module, "BUDGET", 4)
    odds = compute_odds(graph(LOOP))
    assert odds.unexplored > 0
    low = odds.by_kind()["victory"]
    assert low - 1e-12 <= exact <= low + odds.unexplored + 1e-12
    out = CliRunner().invoke(main, ["odds", "-"], input=LOOP).stdout
    assert "Outcomes:" in out


def test_which_checks_decide_the_book() -> None:
    text = """Title: Two checks

1
**Climb** (DEX D1, S2, F3) or **Wait** (D0, S3).

2
The top. THE END (victory)

3
**Leap** (STR D2, S2, F4).

4
Fallen. THE END (death)
"""
    odds = compute_odds(graph(text), abilities={"STR": 10, "DEX": 10, "WIL": 10, "CHA": 10, "INT": 10,
                                                   "CON": 10})
    assert odds.play is not None and odds.play.checks
    by = {(d.entry, d.choice): d for d in odds.play.checks}
    climb, leap = by[(1, 0)], by[(3, 0)]
    p = {c.entry: float(c.chance) for c in odds.choices if c.difficulty}
    # victory = 1/2 p1 + (1/2 (1 - p1) + 1/2) p3: linear in each check's chance
    assert climb.derivative == pytest.approx(0.5 - 0.5 * p[3], abs=1e-9)
    assert leap.derivative == pytest.approx(0.5 * (1 - p[1]) + 0.5, abs=1e-9)
    assert climb.goal == pytest.approx(0.5 * p[1] + (1 - 0.5 * p[1]) * p[3], abs=1e-12)


def test_json_carries_the_play_and_the_decisive_checks() -> None:
    out = CliRunner().invoke(main, ["odds", "-", "--format", "json", "--explain"], input=CHARM).stdout
    data = json.loads(out)
    assert data["play"]["goal"] == "victory"
    assert data["play"]["best"] == pytest.approx(1.0)
    assert data["states"] >= 7
    text = CliRunner().invoke(main, ["odds", "-", "--explain"], input=CHARM).stdout
    assert "Victory: random reader 16.7%, best play 100%, worst play 0%" in text
    assert "The best reader's moves" in text and "charm" in text


def test_returns_go_back_where_the_reader_came_from() -> None:
    """At 4, "return to your most recent entry" goes back to 2 or 3, whichever the reader came
    from, as dtc play does; from 2 the only other way is the victory, from 3 the death."""
    text = """Title: Returns

1
**Left** (D0, S2) or **Right** (D0, S3).

2
**On** (D0, S4) or **Win** (D0, S5).

3
**On** (D0, S4) or **Lose** (D0, S6).

4
A mirror room. Return to your most recent entry.

5
THE END (victory)

6
THE END (death)
"""
    odds = compute_odds(graph(text))
    assert odds.by_kind()["victory"] == pytest.approx(0.5, abs=1e-12)


def test_a_characters_path_counts_in_the_odds() -> None:
    """`dtc odds --character` passes the adventurer's Path: a check whose label holds one of the
    Path's words rolls with advantage, as in play (docs/rulesets/maze-rats.md, "Paths")."""
    from dtc.systems.maze_rats.paths import PATHS

    path, words = next(iter(PATHS.items()))
    text = f"""Title: Path
Rules: maze-rats

1
**{words[0].capitalize()} the wall** (DEX D2, S2, F3).

2
THE END (victory)

3
THE END (death)
"""
    scores = {"STR": 0, "DEX": 0, "WIL": 0}
    plain = compute_odds(graph(text), abilities=scores)
    favoured = compute_odds(graph(text), abilities=scores, feature=path)
    assert favoured.by_kind()["victory"] > plain.by_kind()["victory"]
    assert favoured.choices[0].check > plain.choices[0].check


@pytest.mark.parametrize("seed", range(8))
def test_best_and_worst_agree_with_value_iteration(seed: int) -> None:
    """Random books with loops (D0 moves and d6 branches, never back to the entrance): the exact
    decision process against plain value iteration run to a fixpoint."""
    import random

    rng = random.Random(seed)
    n = 14
    kinds = {n - 1: "victory", n: "death"}
    arcs: dict[int, list[tuple[str, list[int]]]] = {}
    for e in range(1, n - 1):
        ways: list[tuple[str, list[int]]] = []
        for _ in range(rng.randint(1, 3)):
            if rng.random() < 0.4:
                a, b = rng.randint(2, n), rng.randint(2, n)
                ways.append(("roll", [a, b]))
            else:
                t = rng.randint(2, n)
                ways.append(("go", [t]))
        arcs[e] = ways
    lines = ["Title: Random", ""]
    for e in range(1, n - 1):
        parts = []
        for k, (kind, ts) in enumerate(arcs[e]):
            if kind == "roll":
                parts.append(f"**Dice {k}** (roll d6, 1-2 S{ts[0]}, 3-6 S{ts[1]})")
            else:
                parts.append(f"**Way {k}** (D0, S{ts[0]})")
        lines += [str(e), " or ".join(parts) + ".", ""]
    for e, kind in kinds.items():
        lines += [str(e), f"THE END ({kind})", ""]
    text = "\n".join(lines)
    odds = compute_odds(graph(text))
    assert odds.play is not None and odds.play.best is not None and odds.play.worst is not None

    def vi(pick: Any) -> float:
        v = {e: 0.0 for e in range(1, n + 1)}
        v[n - 1] = 1.0
        for _ in range(20000):
            for e in range(1, n - 1):
                v[e] = pick((1 / 3 * v[ts[0]] + 2 / 3 * v[ts[1]]) if kind == "roll" else v[ts[0]]
                            for kind, ts in arcs[e])
        return v[1]

    assert odds.play.best == pytest.approx(vi(max), abs=1e-9)
    assert odds.play.worst == pytest.approx(vi(min), abs=1e-9)
