"""`dtc odds` as a function: every choice's chances and the whole book's absorbing-chain answer."""

from __future__ import annotations

import gc
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from dtc.compiled.graphjson import CompiledGraph, Effect
from dtc.odds import POLICIES, POLICY_ALIASES
from dtc.odds.adventurers import Readers, fresh
from dtc.odds.adventurers import for_character as character_readers
from dtc.odds.checks import (
    APPROACHES,
    Mix,
    approach_probability,
    best_mix,
    describe_scores,
    fresh_check_probability,
    option_mixes,
)
from dtc.odds.options import Book, read_book
from dtc.odds.small import PlainSolution, plain_shape
from dtc.odds.small import solve as solve_small
from dtc.systems import Ruleset, get_ruleset

if TYPE_CHECKING:
    from dtc.odds.chain import Solution

HAZARD_KINDS = ("damage", "fight")


@dataclass(slots=True)
class ChoiceOdds:
    entry: int
    choice: int
    label: str
    text: str
    ability: str | None
    difficulty: int
    dice: str
    check: Fraction  # the check passes (for the adventurer, or a fresh one)
    chance: Fraction  # the choice succeeds the way the chain assumes (--approach)
    mixes: list[Mix]
    best: Mix  # without gear
    best_gear: Mix  # with appropriate gear


@dataclass(slots=True)
class Hazard:
    entry: int
    reach: float | None
    what: str  # "fight", "d10 damage on a failed check"...


@dataclass(slots=True)
class Odds:
    title: str
    ruleset: Ruleset
    reader: str
    method: str  # character | mixture | average
    policy: str
    approach: str
    start: int
    choices: list[ChoiceOdds]
    outcomes: dict[str, float]
    loops: dict[str, list[int]]
    visits: dict[int, float]  # expected visits (inf: the reader may wander in a closed loop)
    reach: dict[int, float | None]  # probability of at least one visit (None: not computed)
    edges: dict[tuple[int, int], float]  # (entry, exit index) -> P(take that exit | at the entry)
    hazards: list[Hazard]
    notes: list[str] = field(default_factory=list)
    assumptions: list[str] = field(default_factory=list)
    #: Entry number -> the kind its ending states (``death``, ``victory``), for books that say.
    ending_kinds: dict[int, str] = field(default_factory=dict)

    def by_kind(self) -> dict[str, float]:
        """The chance of each kind of ending (``victory``, ``death``, ``unstated``); empty when no
        ending of the book states its kind."""
        if not self.ending_kinds:
            return {}
        out = {"victory": 0.0, "death": 0.0, "unstated": 0.0}
        for key, p in self.outcomes.items():
            kind, _, where = key.partition(":")
            if kind == "ending" and where.isdigit():
                out[self.ending_kinds.get(int(where), "unstated")] += p
        return out

    @property
    def stalls(self) -> list[tuple[str, float]]:
        """Where readers get stuck (dead ends, closed loops, missing targets), most likely first."""
        stuck = [(k, v) for k, v in self.outcomes.items() if not k.startswith(("escaped", "ending:")) and v > 0]
        return sorted(stuck, key=lambda kv: (-kv[1], kv[0]))

    def graph_overlay(self) -> dict[str, Any]:
        """What ``dtc graph --odds`` draws: exit percentages and per-entry visit probabilities."""
        shade = {n: (r if r is not None else min(1.0, self.visits.get(n, 0.0))) for n, r in self.reach.items()}
        return {"edges": dict(self.edges), "entries": shade, "policy": self.policy, "reader": self.reader}


def _hazard_text(effect: Effect) -> str:
    if effect["kind"] == "fight":
        return "fight"
    dice = str(effect.get("dice", "?"))
    when = effect.get("when")
    return f"{dice} damage" + (f" on {when['outcome']}" if when else "")


def _choices(book: Book, ruleset: Ruleset, abilities: Mapping[str, int] | None, approach: str,
             encumbered: bool) -> list[ChoiceOdds]:
    out = []
    cache: dict[tuple[str | None, int], tuple[Fraction, Fraction, list[Mix], Mix, Mix, str]] = {}
    for n in book.numbers:
        for opt in book.options[n]:
            if opt.kind != "choice" or opt.choice is None:
                continue
            c = book.entries[n]["choices"][opt.choice]
            # The ability as the chain reads it (one the rules lack: the reader's best).
            ability, d = (opt.check[0] if opt.check else c["ability"]), int(c["difficulty"] or 0)
            key = (ability, d)
            if key not in cache:
                if abilities is not None:
                    p = ruleset.check_probability(abilities, ability, d, encumbered=encumbered)
                else:
                    p = fresh_check_probability(ruleset, ability, d, encumbered=encumbered)
                mixes = option_mixes(ruleset, d, p)
                cache[key] = (p, approach_probability(ruleset, approach, d, p), mixes, best_mix(mixes, gear=False),
                              best_mix(mixes, gear=True), ruleset.check_dice(d))
            p, chance, mixes, best, best_gear, dice = cache[key]
            out.append(ChoiceOdds(n, opt.choice, opt.label, c.get("text", ""), ability, d, dice, p, chance, mixes,
                                  best, best_gear))
    return out


def drop_words(graph: CompiledGraph) -> None:
    """Free, in place, the words the odds never read: each entry's text where its ways on are
    written as choices or exits, the spans of its exits, and the text of its effects.

    For a one-shot command that reads a large compiled graph only to compute its odds: at
    100,000 entries these are nearly a third of the parsed graph (about 260 MiB of 840), freed
    before the chain is built. An entry with neither choices nor exits keeps its text, where
    "return to your most recent entry" is looked for (:meth:`dtc.lint.analysis.Analysis.of_graph`).
    :func:`compute_odds` gives the same answer either way (``tests/test_odds_memory.py``).
    """
    for entry in graph["entries"]:
        if entry["choices"] or entry["exits"]:
            entry["text"] = ""
        for x in entry["exits"]:
            x["span"] = None
        for effect in entry["effects"]:
            effect["text"] = ""


def compute_odds(graph: CompiledGraph, *, abilities: Mapping[str, int] | None = None, policy: str = "random",
                 approach: str = "check", encumbered: bool = False) -> Odds:
    """The odds of every choice and path of a compiled graph.

    Raises :class:`dtc.systems.UnknownRuleset` for a ruleset dtc does not know and
    :class:`ValueError` for a book without a start entry, an unknown policy or approach.
    """
    # The work allocates millions of small objects that all stay alive until it ends: the cyclic
    # garbage collector would rescan the whole (large) graph again and again for nothing.
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _compute(graph, abilities, policy, approach, encumbered)
    finally:
        if enabled:
            gc.enable()


def _compute(graph: CompiledGraph, abilities: Mapping[str, int] | None, policy: str, approach: str,
             encumbered: bool) -> Odds:
    policy = POLICY_ALIASES.get(policy, policy)
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r} ({', '.join(POLICIES)})")
    if approach not in APPROACHES:
        raise ValueError(f"unknown approach {approach!r} ({', '.join(APPROACHES)})")
    ruleset = get_ruleset(graph.get("rules"))
    book = read_book(graph, ruleset)
    shape = plain_shape(book)
    checks = book.checks
    readers: Readers
    if abilities is not None:
        readers = character_readers(ruleset, abilities, checks, approach, encumbered=encumbered)
    else:
        readers = fresh(ruleset, checks, approach, len(shape.states), encumbered=encumbered)
    weights = [float(r.weight) for r in readers.readers]
    chances = [[float(c) for c in r.chances] for r in readers.readers]
    # A small book in plain Python (numpy and scipy cost more to load than its whole answer).
    sol: PlainSolution | Solution | None = solve_small(shape, chances, weights, policy)
    if sol is None:
        import numpy as np

        from dtc.odds.chain import build_shape, solve

        sol = solve(build_shape(shape), np.asarray(chances, dtype=np.float64).reshape(len(weights), len(checks)),
                    np.asarray(weights, dtype=np.float64), policy)
    outcomes, loops, visits, reach, branch = sol.outcomes, sol.loops, sol.visits, sol.reach, sol.branch
    notes = list(dict.fromkeys(sol.notes))
    edges: dict[tuple[int, int], float] = {}
    for b, where in enumerate(shape.br_exit):
        if where is not None:
            edges[where] = edges.get(where, 0.0) + float(branch[b])
    numbers = book.numbers
    reach_out = {n: (None if math.isnan(reach[i]) else float(reach[i])) for i, n in enumerate(numbers)}
    hazards = []
    for n in numbers:
        found = [_hazard_text(f) for f in book.entries[n].get("effects", []) if f.get("kind") in HAZARD_KINDS]
        if found:
            hazards.append(Hazard(n, reach_out[n], ", ".join(dict.fromkeys(found))))
    hazards.sort(key=lambda h: (-(h.reach if h.reach is not None else min(1.0, float(visits[shape.index[h.entry]]))),
                                h.entry))
    for n, msgs in book.skipped.items():
        notes.extend(f"entry {n}: {m}" for m in msgs)
    assert book.start is not None  # build_shape refused a book without one
    return Odds(
        title=book.title, ruleset=ruleset, reader=readers.description, method=readers.method, policy=policy,
        approach=approach, start=book.start,
        choices=_choices(book, ruleset, abilities, approach, encumbered),
        outcomes={k: v for k, v in sorted(outcomes.items(), key=lambda kv: (-kv[1], kv[0]))},
        loops=loops, visits={n: float(visits[i]) for i, n in enumerate(numbers)}, reach=reach_out, edges=edges,
        hazards=hazards, notes=notes, assumptions=_assumptions(ruleset, policy, approach, abilities is None),
        ending_kinds={n: e["ending_kind"] for n, e in book.entries.items() if e.get("ending_kind")},
    )


def _assumptions(ruleset: Ruleset, policy: str, approach: str, fresh_reader: bool) -> list[str]:
    out = [
        f"policy {policy}: {POLICIES[policy]}",
        f"approach {approach}: {APPROACHES[approach]}",
        "back at the start entry after going in, the reader may also leave the dungeon (escaped), one option "
        "more among the entry's own, as dtc play offers it (docs/outcomes.md)",
        "'return to your most recent entry' leads to each entry that leads in, with equal chance",
        "fights are won and damage, encounters and light are not modelled (dtc simulate plays them)",
        "a prose exit guarded by a condition ('if you previously ...') is left out when the entry offers more",
    ]
    if fresh_reader:
        out.append(f"a fresh adventurer's scores: {describe_scores(ruleset)}")
    return out
