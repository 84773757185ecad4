"""`dtc odds` and `dtc simulate` mean the same by every outcome (docs/outcomes.md).

On every bundled book, reduced to what both model (the choices, checks and exits: no damage,
fights, finds, encounters or hazards), the chain's exact probability of each outcome — escaped,
each THE END, each dead end, trapped, a missing target — must bracket what the runtime does over
a few thousand seeded runs with a player that chooses as the chain's uniform policy does.
"""

from __future__ import annotations

import copy
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from dtc.compiler.api import compile_file
from dtc.odds import compute_odds
from dtc.outcomes import chain_kind
from dtc.runtime.core import GEAR, GEAR_OK, MENU, PLAN, Question, RunEnded
from dtc.runtime.dice import Dice
from dtc.runtime.engine import Engine
from dtc.runtime.equipment import OIL
from dtc.simulate.runner import Job, play_one
from dtc.simulate.stats import wilson
from dtc.systems import play_rules as get_rules

ROOT = Path(__file__).resolve().parent.parent
#: Every bundled book, gated choices and returns included: the chain runs over what the reader
#: holds and where they came from, as play does (docs/odds.md, "State").
BOOKS = sorted((ROOT / "adventures").glob("*.txt"))
RUNS = 2000
#: Each outcome's runs must lie within this Wilson interval of the chain's probability (about
#: twenty comparisons in all: one false alarm in thousands of suite runs).
CONFIDENCE = 0.99999


def reduced(graph: dict[str, Any]) -> dict[str, Any]:
    """What both model: entries, choices and exits (the 'only if' conditions kept for the menus)."""
    g = copy.deepcopy(graph)
    g["encounters"], g["creatures"] = [], []
    if "hazards" in g:
        g["hazards"] = []
    for e in g["entries"]:
        e["effects"] = [f for f in e["effects"] if f["kind"] == "condition"]
        e["creatures"] = []
        if "hazards" in e:
            e["hazards"] = []
    return g


class ChainPlayer:
    """Chooses as the chain's uniform policy: uniformly among an entry's open options, leaving out
    conditional exits when there is anything else; rolls every check; stops in a dead end or where
    every way on is closed."""

    name = "chain"
    careful = True

    def __init__(self, returns: dict[int, set[int]], trapped: set[int]) -> None:
        self.returns = returns
        self.trapped = trapped  # the entries of the chain's closed loops: once in one, never out

    def text(self, prompt: str, game: Engine) -> str:
        return ""

    def decide(self, question: Question, game: Engine) -> int:
        opts = question.options
        if question.kind == PLAN:  # the check, and the fewest other needs (a turn: no encounters here)
            return min((n for n, o in enumerate(opts) if "check" in o.key), key=lambda n: (len(opts[n].key), n))
        if question.kind == GEAR:
            return 0
        if question.kind == GEAR_OK:
            return question.index("yes") or 0
        if question.kind != MENU:
            return max(range(len(opts)), key=lambda n: (opts[n].chance or 0, -n))  # the best ability
        if game.state.entry in self.trapped:
            raise RunEnded("stopped", "trapped")
        ways = [n for n, o in enumerate(opts) if "command" not in o.tags and not o.detail.startswith("malformed")
                and "dead-end" not in o.tags and not o.detail.startswith("closed")]
        plain = [n for n in ways if "conditional" not in opts[n].tags]
        ways = plain or ways
        back = self.returns.get(game.state.entry, set())
        grouped = [n for n in ways if opts[n].key.startswith("exit:") and int(opts[n].key[5:]) in back]
        picks: list[list[int]] = [[n] for n in ways if n not in grouped] + ([grouped] if grouped else [])
        leave = question.index("leave")
        if leave is not None:
            picks.append([leave])
        if not picks:
            return question.index("quit") or 0  # a dead end: the chain ends here
        group = picks[game.dice.pick(len(picks))]
        return group[game.dice.pick(len(group))] if len(group) > 1 else group[0]


def character(rules_name: str, seed: int) -> tuple[dict[str, Any], dict[str, int]]:
    """An adventurer for the book's rules (oil for a long walk; no Maze Rats Path, which the odds do
    not know), and the scores the odds read from it."""
    rules = get_rules(rules_name)
    dice = Dice(seed)
    pc = rules.new_character(dice)
    rules.finish_character(pc, dice)
    pc.notes = [n for n in pc.notes if not n.startswith("path:")]
    for item in pc.items:
        if item.name == OIL and item.standard:
            item.quantity = 10_000
    scores = {**pc.stats, **pc.abilities}
    if pc.dt:
        scores["AGI"] = pc.abilities["DEX"]
    return pc.to_dict(), scores


def runtime_key(outcome: str, entry: int | None, reason: str) -> str:
    """The chain's outcome for what a run did (dead ends and loops by the chain's own names)."""
    if outcome == "escaped":
        return "escaped"
    if outcome == "ended":
        return f"ending:{entry}"
    if outcome == "stopped" and reason == "quit by the player":
        return f"dead_end:{entry}"
    if outcome == "stopped":
        return "trapped" if reason == "trapped" else f"stopped: {reason}"
    if outcome == "cannot-continue":
        return "broken"
    return outcome


def chain_key(key: str) -> str:
    if key.startswith("loop:"):
        return "trapped"
    if key.startswith("locked:"):  # every way on closed: the player stops there as in a dead end
        return "dead_end:" + key.partition(":")[2]
    if key.startswith(("missing:", "broken:")):
        return "broken"
    return key


@pytest.mark.parametrize("book", BOOKS, ids=lambda p: p.stem)
def test_odds_and_simulate_agree_on_every_outcome(book: Path) -> None:
    graph = reduced(compile_file(str(book)).graph())
    pc, scores = character(graph.get("rules") or "death-and-treasure", 11)
    exact: Counter[str] = Counter()
    odds = compute_odds(graph, abilities=scores, policy="uniform", approach="check")
    for key, p in odds.outcomes.items():
        exact[chain_key(key)] += p
    trapped = {n for members in odds.loops.values() for n in members}
    # a loop that gains without end is cut where counts grow large: the chain's figures are then
    # lower bounds, each at most the unexplored chance below the truth
    assert odds.unexplored < 1e-3
    played, returns = graph, {}
    job = Job(played, "random", 20261201, 1000, pc)
    rules = get_rules(graph.get("rules"))
    counts: Counter[str] = Counter()
    for i in range(RUNS):
        run = play_one(job, rules, i, make_player=lambda: ChainPlayer(returns, trapped))
        counts[runtime_key(run.outcome, run.entry, run.reason)] += 1
    assert set(counts) <= set(exact), f"runs ended where the chain never does: {set(counts) - set(exact)}"
    assert any(chain_kind(k) == "escaped" for k in exact)
    for key in exact:
        low, high = wilson(counts[key], RUNS, CONFIDENCE)
        assert low - 1e-9 <= exact[key] + odds.unexplored and exact[key] <= high + 1e-9, (
            f"{book.stem}: {key}: the chain says {exact[key]:.4f}, {counts[key]} of {RUNS} runs "
            f"({low:.4f}-{high:.4f})")


def test_the_outcomes_page_tells_each_definition() -> None:
    from dtc.outcomes import KINDS

    page = " ".join((ROOT / "docs" / "outcomes.md").read_text(encoding="utf-8").split())
    for kind in KINDS.values():
        assert kind.meaning in page, kind.key
    for doc in ("odds.md", "play.md"):
        assert "(outcomes.md)" in (ROOT / "docs" / doc).read_text(encoding="utf-8")


def test_a_book_without_endings_says_nothing_of_the_end() -> None:
    from click.testing import CliRunner

    from dtc.cli import main

    out = CliRunner().invoke(main, ["odds", str(ROOT / "adventures" / "the-chime-pits.txt")]).stdout
    line = next(x for x in out.splitlines() if x.startswith("Outcomes:"))
    assert line == "Outcomes: escaped 100%, stuck 0%"
    out = CliRunner().invoke(main, ["odds", str(ROOT / "adventures" / "the-drowned-chapel.txt")]).stdout
    assert "THE END" in next(x for x in out.splitlines() if x.startswith("Outcomes:"))
