"""The state-aware lint: findings, witnesses, the budget fallback, and soundness against real walks."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dtc.lint.state
from dtc.compiler.api import compile_text
from dtc.lint.engine import lint_compilation
from dtc.lint.reporters import render_json, render_sarif, render_text
from dtc.lint.state import evaluate
from helpers import assert_diagnostics, lint_text

HEAD = "Test Book\n\nAdventure Entries\n\n"


def book(*entries: str) -> str:
    return HEAD + "\n\n".join(entries) + "\n"


KEY_BEHIND_DOOR = book(
    "1 A hall. The **Stone Door** (D0, S3, if stone key); the stair down (D0, S2).",
    "2 The crypt: a stone key hangs on a hook. [+stone key] The stair ends here. THE END",
    "3 Behind the door. THE END",
)


def test_key_behind_its_door() -> None:
    found = [d for d in assert_diagnostics(KEY_BEHIND_DOOR, "gate-never-opens@5:39", "gated-off-entry@9:1")
             if d.rule == "gate-never-opens"]
    assert found[0].witness is not None and [s.entry for s in found[0].witness] == [1]


def test_key_before_its_door_is_clean() -> None:
    src = KEY_BEHIND_DOOR.replace("The stair ends here. THE END", "Back up (D0, S1).")
    assert_diagnostics(src)


def test_existing_rules_see_no_dead_end_where_a_gate_opens() -> None:
    src = book("1 A fork: left (D0, S2) or right (D0, S3).", "2 A key. [+key] On (D0, S3).",
               "3 A gate (D0, S4, if key). A side door (D0, S2, if not key).", "4 Out. THE END")
    assert_diagnostics(src)


def test_soft_lock_route_and_what_is_held() -> None:
    src = book("1 A fork. Left (D0, S2) or right (D0, S3).", "2 A key on the path. [+key] On (D0, S3).",
               "3 A locked gate (D0, S4, if key).", "4 Free. THE END")
    found = [d for d in assert_diagnostics(src, "soft-lock@9:1") if d.rule == "soft-lock"]
    assert "holding nothing" in found[0].message
    assert found[0].route() == "1 -[right]-> 3"


def test_check_outcomes_both_count() -> None:
    src = book("1 A wall (DEX D2, S2, F3).", "2 A key on top. [+key] Down (D0, S3).",
               "3 A gate (D0, S4, if key). Back (D0, S1, if not key).", "4 Out. THE END")
    assert_diagnostics(src)
    src = src.replace("Back (D0, S1, if not key).", "")
    found = [d for d in assert_diagnostics(src, "soft-lock") if d.rule == "soft-lock"]
    assert found[0].route() == "1 -[wall: failure]-> 3"


def test_unpaid_loss_with_witness() -> None:
    src = book("1 A ferry. Board at once (D0, S2) or search the bank (D0, S3).",
               "2 The fee. [-10 coins] Across. THE END", "3 A purse! [+10 coins] Board (D0, S2).")
    found = [d for d in assert_diagnostics(src, "unpaid-loss@7:13") if d.rule == "unpaid-loss"]
    assert "10 coins" in found[0].message and found[0].route() == "1 -[Board at once]-> 2"
    assert_diagnostics(src.replace("Board at once (D0, S2) or ", ""))
    gated = src.replace("Board at once (D0, S2)", "Board at once (D0, S2, if 10 coins)")
    assert_diagnostics(gated, "gate-never-opens")  # true: the coins are found only on the other way


def test_counts_above_the_cap_are_not_spent_twice() -> None:
    """50 coins, a 10-coin toll twice on a loop: never short (the cap is 10, kept as 'more than')."""
    src = book("1 Start. [+50 coins] On (D0, S2).", "2 A toll. [-10 coins] Again (D0, S3) or home (D0, S4).",
               "3 Another toll. [-10 coins] Home (D0, S4).", "4 Home. THE END")
    assert_diagnostics(src)


def test_return_to_most_recent_entry_goes_back_where_the_route_came_from() -> None:
    src = book("1 Hall. A shrine (D0, S3). A cellar (D0, S2).",
               "2 Cellar. [+key] Up (D0, S1). The shrine (D0, S3).",
               "3 The shrine. Return to your most recent entry. A hatch (D0, S4, if key).",
               "4 Out. THE END (victory)")
    assert_diagnostics(src)


def test_random_branches_are_exits() -> None:
    src = book("1 The bridge (roll d6, 1-2 S2, 3-6 S3).", "2 Fall. THE END (death)", "3 Across. THE END (victory)")
    assert_diagnostics(src)
    graph = compile_text(src, "b.txt").graph()
    assert [x["kind"] for x in graph["entries"][0]["exits"]] == ["random", "random"]


def test_no_victory() -> None:
    src = book("1 A door (D0, S2, if key). A pit (D0, S3).", "2 Won. THE END (victory)", "3 Dead. THE END (death)")
    assert_diagnostics(src, "unknown-possession", "gated-off-entry", "no-victory")


def test_reports_carry_the_witness() -> None:
    diags = lint_compilation(compile_text(KEY_BEHIND_DOOR, "b.txt"))
    text = render_text(diags, 1)
    assert "    route: 1\n" in text
    data = json.loads(render_json(diags, 1))
    assert data["diagnostics"][0]["witness"] == [{"entry": 1, "taken": "", "line": 5, "column": 1}]
    sarif = json.loads(render_sarif(diags, 1))
    flows = sarif["runs"][0]["results"][0]["codeFlows"]
    assert flows[0]["threadFlows"][0]["locations"][0]["location"]["message"]["text"] == "entry 1"


def test_past_the_budget_the_coarse_approximation_reports_only_what_it_proves(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dtc.lint.state, "BUDGET", 2)
    src = book("1 A fork. Left (D0, S2) or right (D0, S3). Door (D0, S5, if gem).",
               "2 A key. [+key] On (D0, S3).", "3 A gate (D0, S4, if key).", "4 Free. THE END",
               "5 A vault. THE END")
    comp = compile_text(src, "b.txt")
    from dtc.lint.rules import Context

    ctx = Context(comp.doc, comp.resolved)
    found = lint_compilation(comp, context=ctx)
    assert {d.rule for d in found if d.severity > 1} == {"unknown-possession", "gated-off-entry"}
    assert ctx.notes and "coarser approximation" in ctx.notes[0]


def test_a_page_of_many_mays_past_the_budget_is_never_built(monkeypatch: pytest.MonkeyPatch) -> None:
    """Twenty-two ``[may ...]`` on the first page are four million holdings: past the budget the
    exploration stops there, as at an overflow, and the coarse approximation speaks (an imported
    gamebook's start page offered twenty items carried from before, and lint took 9 GB)."""
    monkeypatch.setattr(dtc.lint.state, "BUDGET", 5000)
    names = [f"charm {chr(97 + i)}" for i in range(22)]
    src = book("1 A chest of trinkets. " + " ".join(f"[may +{n}]" for n in names) + " On (D0, S2).",
               "2 A door of many locks. " + " ".join(f"Try it (D0, S3, if {n})." for n in names)
               + " Home (D0, S4).", "3 Free. THE END", "4 Home. THE END")
    comp = compile_text(src, "b.txt")
    from dtc.lint.rules import Context

    ctx = Context(comp.doc, comp.resolved)
    lint_compilation(comp, context=ctx)
    assert ctx.notes and "passed 5,000 states" in ctx.notes[0]
    from dtc.odds import compute_odds

    odds = compute_odds(comp.graph(), policy="random")  # the odds' own budget: bounds, never a guess
    assert odds.unexplored == 1.0


# --- soundness: nothing a real walk sees is contradicted ---------------------------------------

NAMES = ["key", "coins", "flag"]


@st.composite
def state_books(draw: st.DrawFn) -> str:
    n = draw(st.integers(2, 8))
    entries = []
    for number in range(1, n + 1):
        parts = [f"{number} Room {number}."]
        if draw(st.booleans()):
            name = draw(st.sampled_from(NAMES))
            amount = draw(st.sampled_from(["", "2 ", "5 "]))
            parts.append(f"[{draw(st.sampled_from('+-'))}{amount}{name}]")
        for _ in range(draw(st.integers(0, 3))):
            t = draw(st.integers(1, n))
            cond = draw(st.sampled_from(["", ", if key", ", if not key", ", if 2 coins", ", if flag and not key",
                                         ", if key or 5 coins"]))
            kind = draw(st.sampled_from(["d0", "check", "roll", "prose", "return"]))
            u = draw(st.integers(1, n))
            parts.append({
                "d0": f"Go (D0, S{t}{cond}).",
                "check": f"Leap (DEX D2, S{t}, F{u}{cond}).",
                "roll": f"Dice (roll d6, 1-3 S{t}, 4-6 S{u}{cond}).",
                "prose": f"Go to {t}.",
                "return": "Return to your most recent entry.",
            }[kind])
        if draw(st.integers(0, 3)) == 0:
            parts.append("THE END")
        entries.append(" ".join(parts))
    return book(*entries)


def _walks(src: str, seed: int, count: int = 60, length: int = 25) -> tuple[set[int], set[tuple[int, int, bool]]]:
    """Random real walks with exact counts: entries seen, and (entry, choice, condition held) seen."""
    comp = compile_text(src, "b.txt")
    res, doc = comp.resolved, comp.doc
    seen: set[int] = set()
    gates: set[tuple[int, int, bool]] = set()
    rnd = random.Random(seed)
    start = res.start
    if start is None or start not in res.by_number:
        return seen, gates
    for _ in range(count):
        held: dict[str, int] = {}
        here, prev = start, None
        for _ in range(length):
            seen.add(here)
            entry = doc.entries[res.by_number[here]]
            for ch in entry.changes:
                held[ch.name] = max(0, held.get(ch.name, 0) + ch.amount)
            if entry.ending:
                break
            options: list[int] = []
            for ci, c in enumerate(entry.choices):
                if c.error is not None:
                    continue
                if c.condition is not None:
                    ok = evaluate(c.condition, held)
                    gates.add((here, ci, ok))
                    if not ok:
                        continue
                targets = [b.target for b in c.roll.branches] if c.roll else [c.success, c.failure]
                options += [t for t in targets if isinstance(t, int) and t in res.by_number]
            options += [p.target for p in entry.prose_exits if isinstance(p.target, int) and p.target in res.by_number]
            if entry.returns:  # as dtc play offers it: back where it came from, else any way in
                back = [x.target for x in res.exits[res.by_number[here]] if x.kind == "return"]
                options += [prev] if prev in back else [t for t in back if isinstance(t, int)]
            if not options:
                break
            here, prev = rnd.choice(options), here
    return seen, gates


@settings(max_examples=200, deadline=None)
@given(state_books(), st.integers(0, 1000))
def test_state_findings_are_never_contradicted_by_a_real_walk(src: str, seed: int) -> None:
    found = lint_text(src)
    seen, gates = _walks(src, seed)
    comp = compile_text(src, "b.txt")
    for d in found:
        if d.rule == "gated-off-entry":
            assert d.entry not in seen, d.message
        if d.rule in ("gate-never-opens", "gate-always-open"):
            assert d.entry is not None
            choices = comp.doc.entries[comp.resolved.by_number[d.entry]].choices
            index = next(i for i, c in enumerate(choices) if c.condition_span is not None
                         and c.condition_span.line == d.span.line and c.condition_span.column == d.span.column)
            assert (d.entry, index, d.rule == "gate-never-opens") not in gates, d.message
        if d.rule == "no-victory":
            assert "none is a victory" in d.message or not any(
                comp.doc.entries[comp.resolved.by_number[n]].ending_kind == "victory" for n in seen)


def test_graph_labels_conditions_chances_and_ending_kinds() -> None:
    from dtc.render.model import build_book
    from helpers.runtime import compiled

    graph = compiled(book("1 Door (D0, S2, if key). Bridge (roll d6, 1-2 S2, 3-6 S3).", "2 Dead. THE END (death)",
                          "3 Won. [+key] THE END (victory)"))
    b = build_book(graph)
    assert [e.check for e in b.edges] == ["if key", "d6 1-2: 33%", "d6 3-6: 67%"]
    assert b.nodes[2].tags() == ["THE END (death)"] and b.nodes[3].tags() == ["THE END (victory)"]
