"""`dtc odds` as a function: every choice's chances and the whole book's absorbing-chain answer."""

from __future__ import annotations

import gc
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from dtc.compiled.graphjson import CompiledGraph, Effect
from dtc.lint.state import held_text
from dtc.odds import POLICIES, POLICY_ALIASES
from dtc.odds.adventurers import Gate, Reader, Readers, fresh
from dtc.odds.adventurers import for_character as character_readers
from dtc.odds.checks import (
    APPROACHES,
    Mix,
    approach_probability,
    approach_words,
    best_mix,
    describe_scores,
    fresh_key_probability,
    key_probability,
    option_mixes,
)
from dtc.odds.decide import chosen_branches, least, menu_shape, optimal, option_choices, reached_under
from dtc.odds.options import Book, CheckKey, read_book
from dtc.odds.small import BACK, ESCAPED, PlainShape, PlainSolution, plain_shape
from dtc.odds.small import solve as solve_small
from dtc.odds.states import (
    UNEXPLORED,
    StateChain,
    cyclic_entries,
    entry_view,
    needs_states,
    outcome_name,
    state_note,
)
from dtc.odds.states import build as build_states
from dtc.runtime.conditions import words
from dtc.systems import Ruleset, get_ruleset

if TYPE_CHECKING:
    from dtc.odds.chain import Solution
    from dtc.odds.sensitivity import GoalFunction

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
    condition: str = ""  # a gated choice's condition, as notation writes it


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
    #: (entry, possessions) states the chain ran over; None when it runs over entries alone.
    states: int | None = None
    #: The chance of reaching a state the exploration did not expand (past its budget): every
    #: outcome's probability is then a lower bound, and adding this gives an upper bound.
    unexplored: float = 0.0
    #: The chance of the goal for the random, best and worst reader, and which checks decide it.
    play: Play | None = None

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
             encumbered: bool, feature: str | None = None) -> list[ChoiceOdds]:
    out = []
    cache: dict[Any, tuple[Fraction, Fraction, list[Mix], Mix, Mix, str]] = {}
    for n in book.numbers:
        for opt in book.options[n]:
            if opt.kind != "choice" or opt.choice is None:
                continue
            c = book.entries[n]["choices"][opt.choice]
            # The ability as the chain reads it (one the rules lack: the reader's best).
            ability, d = (opt.check[0] if opt.check else c["ability"]), int(c["difficulty"] or 0)
            key = opt.check if opt.check is not None else CheckKey(ability, d)
            if key not in cache:
                if abilities is not None:
                    p = key_probability(ruleset, abilities, key, encumbered=encumbered, feature=feature)
                else:
                    p = fresh_key_probability(ruleset, key, encumbered=encumbered)
                mixes = option_mixes(ruleset, d, p)
                cache[key] = (p, approach_probability(ruleset, approach, d, p), mixes, best_mix(mixes, gear=False),
                              best_mix(mixes, gear=True), ruleset.check_dice(d))
            p, chance, mixes, best, best_gear, dice = cache[key]
            cond = c.get("condition")
            out.append(ChoiceOdds(n, opt.choice, opt.label, c.get("text", ""), ability, d, dice, p, chance, mixes,
                                  best, best_gear, words(cond) if cond is not None else ""))
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
                 approach: str = "check", encumbered: bool = False, explain: bool = False,
                 decisive: bool = True, feature: str | None = None) -> Odds:
    """The odds of every choice and path of a compiled graph.

    Raises :class:`dtc.systems.UnknownRuleset` for a ruleset dtc does not know and
    :class:`ValueError` for a book without a start entry, an unknown policy or approach.
    """
    # The work allocates millions of small objects that all stay alive until it ends: the cyclic
    # garbage collector would rescan the whole (large) graph again and again for nothing.
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _compute(graph, abilities, policy, approach, encumbered, explain, decisive, feature)
    finally:
        if enabled:
            gc.enable()


def _compute(graph: CompiledGraph, abilities: Mapping[str, int] | None, policy: str, approach: str,
             encumbered: bool, explain: bool = False, decisive: bool = True, feature: str | None = None,
             group: tuple[Readers, dict[str, int]] | None = None) -> Odds:
    policy = POLICY_ALIASES.get(policy, policy)
    if policy not in POLICIES and policy not in DECIDED:
        raise ValueError(f"unknown policy {policy!r} ({', '.join(POLICIES)})")
    if approach not in APPROACHES:
        raise ValueError(f"unknown approach {approach!r} ({', '.join(APPROACHES)})")
    ruleset = get_ruleset(graph.get("rules"))
    book = read_book(graph, ruleset)
    shape = plain_shape(book)
    checks = book.checks
    readers: Readers
    if abilities is not None:
        readers = character_readers(ruleset, abilities, checks, approach, encumbered=encumbered, feature=feature)
    elif group is not None:
        readers = group[0]
    else:
        gates = score_gates(book)
        if gates and needs_states(book):
            return _by_gates(graph, book, ruleset, gates, policy, approach, encumbered, explain,
                             len(shape.states))
        readers = fresh(ruleset, checks, approach, len(shape.states), encumbered=encumbered)
    weights = [float(r.weight) for r in readers.readers]
    chances = [[float(c) for c in r.chances] for r in readers.readers]
    stateful = needs_states(book)
    chain: StateChain | None = None
    if stateful:
        known = group[1] if group is not None else None if abilities is None else {
            a: abilities.get(a, ruleset.typical_score) for a in ruleset.ability_names}  # a score gate's reader
        take = 0.5 if policy == "random" else 1.0 if policy == "likeliest" else None  # as play's readers do
        pick = "random" if policy == "random" else "first" if policy == "likeliest" else None
        chain = build_states(book, scores=known, take=take, pick=pick)
        plain = chain.shape
    else:
        plain = shape
    entry_of = _entry_of(plain, chain)
    goal, goal_words = goal_states(plain, entry_of, book)
    play = Play(goal_words)
    branches: list[list[float]] | None = None
    choosing = chain is not None and policy not in DECIDED and _reader_decides(book)
    dchain: StateChain | None = None
    if policy in DECIDED or explain or len(plain.states) * len(weights) <= DECIDE_WORK:
        if choosing:  # the best and worst readers decide a [may ...] and what they give up: their own chain
            try:
                dchain = build_states(book, scores=known, take=None, pick=None,
                                      budget=None if explain else DECIDE_WORK // max(1, len(weights)) + 1)
            except ValueError as exc:
                play.note = f"the best and worst reader are not computed: {exc}"
            else:
                if not explain and len(dchain.shape.states) * len(weights) > DECIDE_WORK:
                    # (their own chain, with a room after each decision, may be far larger)
                    play.note = (f"the best and worst reader are not computed for a chain of "
                                 f"{len(dchain.shape.states):,} states and {len(weights)} kinds of adventurer "
                                 "(ask for --policy best or worst)")
                    dchain = None
            if play.note is None and dchain is not None:
                d_entry_of = _entry_of(dchain.shape, dchain)
                _decide(dchain.shape, chances, weights, goal_states(dchain.shape, d_entry_of, book)[0], play,
                        d_entry_of, dchain, explain)
        else:
            decided = _decide(plain, chances, weights, goal, play, entry_of, chain, explain)
            if policy in DECIDED:
                branches = decided[policy]
    else:
        play.note = (f"the best and worst reader are not computed for a chain of {len(plain.states):,} states and "
                     f"{len(weights)} kinds of adventurer (ask for --policy best or worst)")
    # a state chain's reach per entry comes from the visits (docs/odds.md): no N_jj needed
    sol = _solve(plain, chances, weights, "random" if policy in DECIDED else policy, branches, len(checks),
                 reach=chain is None)
    outcomes, loops, visits, reach, branch = sol.outcomes, sol.loops, sol.visits, sol.reach, sol.branch
    notes = list(dict.fromkeys(sol.notes))
    numbers = book.numbers
    unexplored = 0.0
    if chain is not None:
        view = entry_view(chain, outcomes, loops, visits, reach, branch)
        outcomes, loops, edges = view.outcomes, view.loops, view.edges
        visits_out, reach_out = view.visits, view.reach
        assert book.start is not None
        reach_out[book.start] = 1.0
        unexplored = view.unexplored
        notes.insert(0, state_note(chain))
    else:
        edges = {}
        for b, where in enumerate(shape.br_exit):
            if where is not None:
                edges[where] = edges.get(where, 0.0) + float(branch[b])
        reach_out = {n: (None if math.isnan(reach[i]) else float(reach[i])) for i, n in enumerate(numbers)}
        visits_out = {n: float(visits[i]) for i, n in enumerate(numbers)}
    play.chosen = sum(p for k, p in outcomes.items() if _is_goal(k, book, goal_words))
    if chain is not None and chain.hp_ways:
        _hp_gates(book, chain, plain, goal, policy, known, chances, weights, play, dchain if choosing else None,
                  explain)
    if policy != "random" and play.random is None and len(plain.states) * len(weights) <= DECIDE_WORK:
        r_plain, r_chain = plain, chain
        if policy == "likeliest" and choosing:  # the random reader takes a [may ...] half the time, picks at random
            try:
                r_chain = build_states(book, scores=known, take=0.5, pick="random")
            except ValueError:
                r_chain = None  # (a may on the first page: not worked out for the random reader)
            r_plain = r_chain.shape if r_chain is not None else plain
        if r_chain is not None or chain is None:
            rnd = _solve(r_plain, chances, weights, "random", None, len(checks), reach=False)
            play.random = sum(p for k, p in _named(rnd.outcomes, r_chain).items() if _is_goal(k, book, goal_words))
    elif policy == "random":
        play.random = play.chosen
    checked = sum(1 for c in plain.opt_check if c >= 0)
    if decisive and policy in POLICIES and checked * len(plain.states) > DECISIVE_WORK:
        notes.append(f"which checks decide the book is not worked out: {checked:,} checked options over "
                     f"{len(plain.states):,} states is past {DECISIVE_WORK:,} (options x states)")
    elif decisive and policy in POLICIES and len(plain.states) <= DECISIVE_STATES:
        mixed = readers if abilities is None and readers.method == "mixture" and group is None and (
            len(readers.readers) * checked * len(plain.states) <= DECISIVE_WORK) else None
        play.checks = _sensitivity(book, ruleset, plain, chain, abilities, approach, encumbered, policy, goal_words,
                                   feature, mixed)
        play.checks_reader = (f"{policy} reader, {readers.description}" if abilities is not None or mixed else
                              f"{policy} reader, a freshly made adventurer: each check at its chance over all of them")
    if explain and not play.explain_reader:
        play.explain_reader = readers.description
    if play.explain and chain is not None and chain.hp_ways:  # (the route a perfect reader takes, gates open)
        play.explain_reader += "; every gate on HP counted open"
    hazards = []
    for n in numbers:
        found = [_hazard_text(f) for f in book.entries[n].get("effects", []) if f.get("kind") in HAZARD_KINDS]
        if found:
            hazards.append(Hazard(n, reach_out[n], ", ".join(dict.fromkeys(found))))
    hazards.sort(key=lambda h: (-(h.reach if h.reach is not None else min(1.0, visits_out[h.entry])), h.entry))
    for n, msgs in book.skipped.items():
        notes.extend(f"entry {n}: {m}" for m in msgs)
    assert book.start is not None  # build_shape refused a book without one
    return Odds(
        title=book.title, ruleset=ruleset, reader=readers.description, method=readers.method, policy=policy,
        approach=approach, start=book.start,
        choices=_choices(book, ruleset, abilities, approach, encumbered, feature),
        outcomes={k: v for k, v in sorted(outcomes.items(), key=lambda kv: (-kv[1], kv[0]))},
        loops=loops, visits=visits_out, reach=reach_out, edges=edges,
        hazards=hazards, notes=notes,
        assumptions=_assumptions(ruleset, policy, approach, abilities is None, chain, book.held),
        states=chain.states if chain is not None else None, unexplored=unexplored, play=play,
        ending_kinds={n: e["ending_kind"] for n, e in book.entries.items() if e.get("ending_kind")},
    )


def score_gates(book: Book) -> tuple[Gate, ...]:
    """Every gate on an ability score the book's offered choices read (``if STR >= 12``), once
    each, in book order; HP is not one (the odds do not follow it through a run)."""
    found: dict[Gate, None] = {}

    def walk(cond: Mapping[str, Any]) -> None:
        if "score" in cond:
            if cond["score"] != "HP":
                found.setdefault((str(cond["score"]), str(cond.get("op", ">=")), int(cond["count"])))
        elif "not" in cond:
            walk(cond["not"])
        elif "all" in cond or "any" in cond:
            for c in cond["all" if "all" in cond else "any"]:
                walk(c)

    for n in book.numbers:
        for opt in book.options[n]:
            cond = book.entries[n]["choices"][opt.choice].get("condition") if opt.choice is not None else None
            if cond is not None:
                walk(cond)
    return tuple(found)


def _representative(gates: tuple[Gate, ...], bits: tuple[Fraction, ...]) -> dict[str, int]:
    """A score per gated ability that opens exactly the gates ``bits`` says are open (one
    adventurer of the group has such scores, so one exists among the gates' numbers and next to them)."""
    from dtc.runtime.conditions import compared

    out: dict[str, int] = {}
    for ability in dict.fromkeys(a for a, _, _ in gates):
        mine = [(op, count, bool(b)) for (a, op, count), b in zip(gates, bits, strict=True) if a == ability]
        candidates = sorted({c + d for _, c, _ in mine for d in (-1, 0, 1)})
        out[ability] = next(v for v in candidates if all(compared(op, v, c) == b for op, c, b in mine))
    return out


def _by_gates(graph: CompiledGraph, book: Book, ruleset: Ruleset, gates: tuple[Gate, ...], policy: str,
              approach: str, encumbered: bool, explain: bool, states: int) -> Odds:
    """Every fresh adventurer, in a book whose choices read ability scores: the adventurers are
    grouped by which gates are open to them (:func:`dtc.odds.adventurers.fresh` with ``gates``),
    the state chain solved once per group with that group's readers, and the answers weighted by
    each group's exact chance."""
    checks = book.checks
    readers = fresh(ruleset, checks, approach, states, encumbered=encumbered, gates=gates)
    if readers.method != "mixture":
        raise ValueError("a condition reads the adventurer's score and there are too many distinct fresh "
                         "adventurers to tell apart: give one (--abilities or --character); dtc simulate plays it")
    grouped: dict[tuple[Fraction, ...], list[Reader]] = {}
    for r in readers.readers:
        grouped.setdefault(r.chances[len(checks):], []).append(r)
    parts: list[tuple[float, Odds]] = []
    for bits, members in sorted(grouped.items(), key=lambda kv: kv[0], reverse=True):
        share = sum((r.weight for r in members), Fraction(0))
        mine = Readers("mixture", [Reader(r.weight / share, r.chances[: len(checks)]) for r in members],
                       readers.description)
        parts.append((float(share), _compute(graph, None, policy, approach, encumbered, explain, False,
                                             group=(mine, _representative(gates, bits)))))
    first = parts[0][1]
    outcomes: dict[str, float] = {}
    visits: dict[int, float] = {}
    reach: dict[int, float | None] = {}
    edges: dict[tuple[int, int], float] = {}
    loops: dict[str, list[int]] = {}
    notes: list[str] = []
    hazard_reach: dict[int, float | None] = {}
    for w, o in parts:
        for k, p in o.outcomes.items():
            outcomes[k] = outcomes.get(k, 0.0) + w * p
        for n, v in o.visits.items():
            visits[n] = visits.get(n, 0.0) + w * v
        for n, got in o.reach.items():
            before = reach.get(n, 0.0)
            reach[n] = None if got is None or before is None else before + w * got
        for e, p in o.edges.items():
            edges[e] = edges.get(e, 0.0) + w * p
        for k, entries in o.loops.items():
            loops[k] = sorted(set(loops.get(k, [])) | set(entries))
        notes.extend(n for n in o.notes if not n.startswith("the chain runs over "))
        for h in o.hazards:
            before = hazard_reach.get(h.entry, 0.0)
            hazard_reach[h.entry] = None if h.reach is None or before is None else before + w * h.reach
    hazards = [replace(h, reach=hazard_reach[h.entry]) for h in first.hazards]
    play = Play(first.play.goal if first.play else "")
    for name in ("random", "chosen", "best", "worst"):
        values = [getattr(o.play, name) if o.play else None for _, o in parts]
        if all(v is not None for v in values):
            setattr(play, name, sum(w * float(v) for (w, _), v in zip(parts, values, strict=True) if v is not None))
    play.note = next((o.play.note for _, o in parts if o.play and o.play.note), None)
    play.hp_note = next((o.play.hp_note for _, o in parts if o.play and o.play.hp_note), None)
    for name in ("random", "best", "worst"):  # (each group's bounds hold its share: so does their sum)
        held = [(w, o.play.hp_bounds[name]) for w, o in parts if o.play and name in o.play.hp_bounds]
        if held and len(held) == len(parts):
            play.hp_bounds[name] = (sum(w * b[0] for w, b in held), sum(w * b[1] for w, b in held))
    if first.play is not None:
        play.explain, play.explain_reader = first.play.explain, first.play.explain_reader
    told = ", ".join(f"{a} {op} {c}" for a, op, c in gates)
    gate_words = (f"{len(parts)} groups of adventurers the score gates ({told}) tell apart, the chain solved for "
                  "each and weighted by its exact chance")
    notes.insert(0, f"the chain runs over {sum(o.states or 0 for _, o in parts):,} (entry, possessions) states in "
                    f"all, one chain per group of adventurers")
    notes.append(f"score gates: {gate_words}; which checks decide the book is not worked out across them")
    return replace(
        first, reader=f"{readers.description}; {gate_words}", method="mixture", outcomes=dict(
            sorted(outcomes.items(), key=lambda kv: (-kv[1], kv[0]))),
        loops=loops, visits=visits, reach=reach, edges=edges, hazards=hazards, notes=list(dict.fromkeys(notes)),
        states=sum(o.states or 0 for _, o in parts), unexplored=sum(w * o.unexplored for w, o in parts), play=play)


def _reader_decides(book: Book) -> bool:
    """Whether the book asks the reader something the policies answer their own way: a
    ``[may ...]``, a ``[-1 item of choice]`` or what to drop past a container's limit (``Limits:
    backpack 8 (choose)``) (the best and worst readers decide it)."""
    return bool(book.drop_by_choice) or any(ch.get("may") or ch.get("pick") for n in book.numbers
                                            for ch in book.entries[n].get("changes", ()))


def _assumptions(ruleset: Ruleset, policy: str, approach: str, fresh_reader: bool,
                 chain: StateChain | None, kit: dict[str, int] | None = None) -> list[str]:
    out = [
        f"policy {policy}: {POLICIES.get(policy) or DECIDED[policy]}",
        f"approach {approach}: {approach_words(ruleset, approach)}",
        "back at the start entry after going in, the reader may also leave the dungeon (escaped), one option "
        "more among the entry's own, as dtc play offers it (docs/outcomes.md)",
    ]
    if chain is not None:
        read = [n for n in chain.names if not n.startswith(("once:", "kit:"))]  # (a once find's own flag)
        held = ", ".join(read) if read else "nothing"
        out += [
            "what the reader holds is modelled exactly: a choice whose condition is false is closed, as in dtc "
            f"play; the chain runs over (entry, possessions) states (possessions read by a condition: {held})",
            "'return to your most recent entry' goes back where the reader came from, as in dtc play",
        ]
        carried = {n: k for n, k in (kit or {}).items() if n in chain.names}
        if carried:
            out.append("the reader starts holding what every fresh adventurer's kit holds of those: "
                       + ", ".join(n if k == 1 else f"{k} {n}" for n, k in sorted(carried.items()))
                       + " (one inventory, as dtc play counts it: docs/format.md, \"How names match\")")
    else:
        out += [
            "no choice is gated on what the reader holds, so the chain runs over entries alone",
            "'return to your most recent entry' leads to each entry that leads in, with equal chance",
        ]
    out += [
        "fights are won and damage, encounters and light are not modelled (dtc simulate plays them)",
        "a prose exit guarded by a condition ('if you previously ...') is left out when the entry offers more",
    ]
    if chain is not None and chain.hp_ways:
        out.append("a choice gated on HP (if HP >= 10) is counted open wherever some HP opens it, as HP is not "
                   "followed through a run; the goal's bounds hold whether it is open or closed at each visit")
    if fresh_reader:
        out.append(f"a fresh adventurer's scores: {describe_scores(ruleset)}")
    return out


#: The readers ``--policy`` may name besides :data:`dtc.odds.POLICIES`: the optimum and the minimum.
DECIDED = {
    "best": "the reader plays for the goal perfectly (knowing every chance: the optimum, dtc.odds.decide)",
    "worst": "the reader plays against the goal perfectly (the minimum)",
}
#: The best and worst reader are computed with every report while states x kinds of adventurer
#: stay within this (beyond it, only when ``--policy best`` or ``worst`` asks).
DECIDE_WORK = 50_000
#: Which checks decide the book is worked out for chains of up to this many states.
DECISIVE_STATES = 20_000
#: ... and while checked options x states stay within this (each option's answers are a low-rank
#: update of one factorisation, :mod:`dtc.odds.sensitivity`; past it the table would cost minutes).
DECISIVE_WORK = 2_000_000


@dataclass(slots=True)
class Decisive:
    """One check's weight in the book: the chance of the goal now, one difficulty easier and harder,
    and the derivative of that chance with respect to the check's pass chance."""

    entry: int
    choice: int
    label: str
    ability: str | None
    difficulty: int
    goal: float
    easier: float | None
    harder: float | None
    derivative: float

    @property
    def swing(self) -> float:
        return max(abs((self.easier if self.easier is not None else self.goal) - self.goal),
                   abs((self.harder if self.harder is not None else self.goal) - self.goal))


@dataclass(slots=True)
class Play:
    """The chance of the book's goal for the random, the chosen, the best and the worst reader."""

    goal: str  # what the goal is, in words
    random: float | None = None
    chosen: float | None = None
    best: float | None = None
    worst: float | None = None
    note: str | None = None
    #: The best reader's route: (entry, what is held, the option taken) at each state it reaches.
    explain: list[tuple[int, str, str]] = field(default_factory=list)
    explain_reader: str = ""
    #: Which checks decide the book, largest swing first (for one reader: see ``checks_reader``).
    checks: list[Decisive] = field(default_factory=list)
    checks_reader: str = ""
    #: In a book with a gate on HP (which the odds do not follow through a run): sound bounds on
    #: the goal's chance, (lowest, highest), for the ``random``, ``best`` and ``worst`` reader, as
    #: far as they are computed; the figures above count every such gate open.
    hp_bounds: dict[str, tuple[float, float]] = field(default_factory=dict)
    #: What the bounds are, or why they (or some of them) are not computed.
    hp_note: str | None = None


def _entry_of(plain: PlainShape, chain: StateChain | None) -> Callable[[int], int | None]:
    if chain is not None:
        ex, numbers = chain.exploration, chain.numbers
        nodes = len(ex.nodes)
        return lambda s: numbers[ex.room_of(s)] if s < nodes else None
    start = plain.start

    def of(s: int) -> int | None:
        st = plain.states[s]
        return st if isinstance(st, int) else (int(plain.states[start]) if st == BACK else None)
    return of


def goal_states(plain: PlainShape, entry_of: Callable[[int], int | None], book: Book) -> tuple[list[bool], str]:
    """Which states are the goal: a victory ending where the book has one, else leaving by the
    entrance or an ending that is not a death."""
    kinds = {n: e.get("ending_kind") for n, e in book.entries.items()}
    victory = any(k == "victory" for k in kinds.values())
    goal = [False] * len(plain.states)
    for s, absorbing in enumerate(plain.absorbing):
        if not absorbing:
            continue
        n = entry_of(s)
        if n is not None and n in book.endings:
            goal[s] = kinds.get(n) == "victory" if victory else kinds.get(n) != "death"
        elif plain.states[s] == ESCAPED and not victory:
            goal[s] = True
    return goal, ("victory" if victory else "escaping alive")


def _is_goal(key: str, book: Book, words: str) -> bool:
    kind, _, where = key.partition(":")
    if kind == "ending" and where.isdigit():
        k = book.entries.get(int(where), {}).get("ending_kind")  # type: ignore[call-overload]
        return bool(k == "victory") if words == "victory" else k != "death"
    return key == "escaped" and words != "victory"


def _named(outcomes: Mapping[str, float], chain: StateChain | None) -> dict[str, float]:
    if chain is None:
        return dict(outcomes)
    out: dict[str, float] = {}
    for k, p in outcomes.items():
        name = outcome_name(chain, k)
        out[name] = out.get(name, 0.0) + p
    return out


def _solve(plain: PlainShape, chances: list[list[float]], weights: list[float], policy: str,
           branches: list[list[float]] | None, checks: int, reach: bool = True) -> PlainSolution | Solution:
    # A small book in plain Python (numpy and scipy cost more to load than its whole answer).
    sol: PlainSolution | Solution | None = solve_small(plain, chances, weights, policy, branches)
    if sol is None:
        import numpy as np

        from dtc.odds.chain import build_shape, solve

        sol = solve(build_shape(plain), np.asarray(chances, dtype=np.float64).reshape(len(weights), checks),
                    np.asarray(weights, dtype=np.float64), policy,
                    None if branches is None else np.asarray(branches, dtype=np.float64), reach)
    return sol


def _held(chain: StateChain | None, s: int) -> str:
    if chain is None:
        return ""
    ex = chain.exploration
    values = ex.layout.unpack(ex.values_of(s))
    held = {name: v * chain.units[i] for i, (name, v) in enumerate(zip(chain.names, values, strict=True))
            if v and not name.startswith(("once:", "kit:"))}  # (what of it is the kit's: within its count)
    return held_text(held)


def _label(plain: PlainShape, chain: StateChain | None, s: int, o: int) -> str:
    k = o - next(g for g, st in zip(plain.group_start, plain.group_state, strict=True) if st == s)
    if chain is not None:
        ex = chain.exploration
        assert ex.edges is not None
        wi = ex.edges[s][k][0]
        room = ex.room_of(s)
        opts = chain.options[room]
        return "return to your most recent entry" if wi >= len(opts) else (opts[wi].label or opts[wi].kind)
    st = plain.states[s]
    n = int(plain.states[plain.start]) if st == BACK else int(st)
    opts = plain.book.options[n]
    return "leave the dungeon" if k >= len(opts) else (opts[k].label or opts[k].kind)


def _decide(plain: PlainShape, chances: list[list[float]], weights: list[float], goal: list[bool], play: Play,
            entry_of: Callable[[int], int | None], chain: StateChain | None,
            explain: bool) -> dict[str, list[list[float]]]:
    """The best and the worst reader (each adventurer plays its own optimum), into ``play``; the
    branch chances each would follow."""
    out: dict[str, list[list[float]]] = {"best": [], "worst": []}
    total = sum(weights)
    for name, maximize in (("best", True), ("worst", False)):
        value = 0.0
        for row, w in zip(chances, weights, strict=True):
            d = optimal(plain, row, goal, maximize)
            value += w * d.value[plain.start]
            out[name].append(chosen_branches(plain, row, d.choice))
            if explain and maximize and not play.explain:
                for s in reached_under(plain, row, d.choice):
                    n = entry_of(s)
                    if n is None or d.choice[s] < 0:
                        continue
                    play.explain.append((n, _held(chain, s), _label(plain, chain, s, d.choice[s])))
        setattr(play, name, value / total if total else 0.0)
    if explain and len(chances) > 1:
        play.explain_reader = "the first of the adventurers the mixture weighs (each plays its own best)"
    return out


HP_WORDS = "a gate on HP is not followed through a run"


def _goal_high(plain: PlainShape, chain: StateChain, goal: list[bool]) -> list[bool]:
    """The goal, and every state the exploration did not expand (what lies past it may be the goal)."""
    ex = chain.exploration
    high = list(goal)
    for s, st in enumerate(plain.states):
        if st == UNEXPLORED or (isinstance(st, int) and (st >= ex.expanded or st in ex.overflow)):
            high[s] = True
    return high


def _hp_gates(book: Book, chain: StateChain, plain: PlainShape, goal: list[bool], policy: str,
              known: Mapping[str, int] | None, chances: list[list[float]], weights: list[float], play: Play,
              dchain: StateChain | None, explain: bool) -> None:
    """Sound bounds on the goal's chance in a book with a gate on HP, into ``play.hp_bounds``.

    The chain counts a gate on HP open wherever some HP opens it; in a run it is open or closed
    at each visit, as the adventurer's HP then is. Each such state's options open together at one
    HP make a *menu* (:meth:`StateChain.hp_menus`); which menu a visit meets is left to "nature",
    and the random reader takes one option of it, each as likely. The lowest and highest chance
    of the goal over nature's choices (:func:`dtc.odds.decide.optimal` over the menus,
    :func:`dtc.odds.decide.menu_shape`) hold the run's chance between them, whatever its HP does.

    The best reader: at least what it gets taking only the options open at every HP (stuck where
    there is none) and at least the random reader; at most its best with every gate open. The
    worst reader: at least its least with every gate open (stuck where every option may be
    closed); at most what it gets taking only options open at every HP (where each state has one)
    and at most the random reader. Past :data:`DECIDE_WORK`, not computed (a note says so)."""
    play.best = play.worst = None  # (with every gate open they are not bounds: hp_bounds holds them)
    rchain: StateChain | None = chain
    if policy != "random":  # the random reader's own chain ([may ...] taken half the time)
        try:
            rchain = build_states(book, scores=known, take=0.5, pick="random")
        except ValueError as exc:
            play.hp_note = f"{HP_WORDS}, and the random reader's bounds are not computed: {exc}"
            return
    assert rchain is not None
    rplain = rchain.shape
    if not explain and len(rplain.states) * len(weights) > DECIDE_WORK:
        play.hp_note = (f"{HP_WORDS}, and its bounds are not computed for a chain of {len(rplain.states):,} states "
                        f"and {len(weights)} kinds of adventurer: the figures count every gate on HP open")
        return
    rgoal = goal if rchain is chain else goal_states(rplain, _entry_of(rplain, rchain), book)[0]
    rhigh = _goal_high(rplain, rchain, rgoal)
    menus = rchain.hp_menus()
    total = sum(weights) or 1.0
    low: list[float] = []
    high: list[float] = []
    for row in chances:
        shape = menu_shape(rplain, row, menus, True)
        low.append(least(shape, [], rgoal).value[rplain.start])
        high.append(optimal(shape, [], rhigh, True).value[rplain.start])
    play.hp_bounds["random"] = (sum(w * v for w, v in zip(weights, low, strict=True)) / total,
                                sum(w * v for w, v in zip(weights, high, strict=True)) / total)

    play.hp_note = (f"{HP_WORDS}: each such choice may be open or closed at each visit, and the bounds hold "
                    "whichever it is; the other figures count it open")
    decided = dchain if dchain is not None else chain if policy in DECIDED or not _reader_decides(book) else None
    if decided is None or play.note is not None:
        return
    dplain = decided.shape
    dgoal = goal_states(dplain, _entry_of(dplain, decided), book)[0]
    dhigh = _goal_high(dplain, decided, dgoal)
    dmenus = decided.hp_menus()
    certain: dict[int, list[tuple[int, ...]]] = {}
    either: dict[int, list[tuple[int, ...]]] = {}
    for q, ms in dmenus.items():
        sure = set(ms[0]).intersection(*ms[1:])
        may = sorted(set().union(*ms))
        certain[q] = [(o,) for o in sorted(sure)] or [()]
        either[q] = [(o,) for o in may] + ([()] if () in ms else [])
    stuck = any(m == [()] for m in certain.values())
    bounds: dict[str, list[float]] = {"best_low": [], "best_high": [], "worst_low": [], "worst_high": []}
    for row, lo, hi in zip(chances, low, high, strict=True):
        sure_shape = menu_shape(dplain, row, certain, False)
        bounds["best_low"].append(max(lo, optimal(sure_shape, [], dgoal, True).value[dplain.start]))
        bounds["best_high"].append(optimal(dplain, row, dhigh, True).value[dplain.start])
        either_shape = menu_shape(dplain, row, either, False)
        bounds["worst_low"].append(least(either_shape, [], dgoal).value[dplain.start])
        bounds["worst_high"].append(hi if stuck else min(hi, optimal(sure_shape, [], dhigh, False).value[dplain.start]))

    def mean(values: list[float]) -> float:
        return sum(w * v for w, v in zip(weights, values, strict=True)) / total

    for name in ("best", "worst"):
        play.hp_bounds[name] = (mean(bounds[f"{name}_low"]), mean(bounds[f"{name}_high"]))


def _checked_choices(book: Book, plain: PlainShape,
                     chain: StateChain | None) -> tuple[dict[tuple[int, int], list[int]], set[int]]:
    """The options of each checked choice ((entry, choice index) -> the shape's options: one per
    state it is offered in), and the entries on a cycle, for "which checks decide the book"."""
    codes = [chain.choices[c] if c >= 0 else None for c in chain.opt_choice_code] if chain is not None \
        else option_choices(plain)
    by_choice: dict[tuple[int, int], list[int]] = {}
    for o, code in enumerate(codes):
        if code is not None and plain.opt_check[o] >= 0:
            by_choice.setdefault(code, []).append(o)
    return by_choice, chain.cyclic if chain is not None else cyclic_entries(book)


def _mixed_sensitivity(book: Book, ruleset: Ruleset, plain: PlainShape, chain: StateChain | None, approach: str,
                       encumbered: bool, policy: str, words: str, mixed: Readers) -> list[Decisive]:
    """:func:`_sensitivity` over every fresh adventurer: one solve of the mixture per answer."""
    keys = book.checks
    weights = [float(r.weight) for r in mixed.readers]
    base = [[float(c) for c in r.chances] for r in mixed.readers]
    by_choice, cyclic = _checked_choices(book, plain, chain)

    def goal(options: list[int], chances: list[list[float]], w: list[float]) -> float:
        check = list(plain.opt_check)
        for o in options:
            check[o] = len(keys)
        sol = _solve(replace(plain, opt_check=check), chances, w, policy, None, len(keys) + 1, reach=False)
        return sum(q for k, q in _named(sol.outcomes, chain).items() if _is_goal(k, book, words))

    def at(options: list[int], key: CheckKey) -> float:
        """The goal with ``options`` rolled as ``key`` by each adventurer (its own chance of it)."""
        more = fresh(ruleset, [*keys, key], approach, len(plain.states), encumbered=encumbered)
        if more.method != "mixture":  # (as many adventurers as the book's own: never past the limits)
            raise ValueError("the mixture with one more check is too large")
        return goal(options, [[float(c) for c in r.chances] for r in more.readers],
                    [float(r.weight) for r in more.readers])

    def shifted(options: list[int], i: int, by: float | None) -> float:
        """The goal with each adventurer's chance of check ``i`` moved ``by`` (None: 1 and 0 apart)."""
        if by is None:
            return goal(options, [[*c, 1.0] for c in base], weights) - goal(options, [[*c, 0.0] for c in base],
                                                                             weights)
        return goal(options, [[*c, min(1.0, max(0.0, c[i] + by))] for c in base], weights)

    now = goal([], [[*c, 0.0] for c in base], weights)
    out = []
    try:
        for (n, ci), options in sorted(by_choice.items()):
            i = plain.opt_check[options[0]]
            key = keys[i]
            c = book.entries[n]["choices"][ci]
            d = key.difficulty
            easier = at(options, key._replace(difficulty=d - 1)) if (d - 1) in ruleset.difficulties else None
            harder = at(options, key._replace(difficulty=d + 1)) if (d + 1) in ruleset.difficulties else None
            if n in cyclic:
                h = 1e-6
                derivative = (shifted(options, i, h) - shifted(options, i, -h)) / (2 * h)
            else:  # visited once at most: the chance of the goal is linear in each adventurer's chance
                derivative = shifted(options, i, None)
            out.append(Decisive(n, ci, c.get("label") or c.get("text", ""), key.ability, d, now, easier, harder,
                                derivative))
    except ValueError:
        return _sensitivity(book, ruleset, plain, chain, None, approach, encumbered, policy, words)
    out.sort(key=lambda x: (-round(x.swing, 12), -round(abs(x.derivative), 9), x.entry, x.choice))
    return out


#: Chains of up to this many states answer "which checks decide the book" by solving again (numpy
#: and scipy cost more to load than the answers); larger ones by :mod:`dtc.odds.sensitivity`.
SMALL_SENSITIVITY = 200


def _sensitivity(book: Book, ruleset: Ruleset, plain: PlainShape, chain: StateChain | None,
                 abilities: Mapping[str, int] | None, approach: str, encumbered: bool, policy: str,
                 words: str, feature: str | None = None, mixed: Readers | None = None) -> list[Decisive]:
    """Which checks decide the book: each check one difficulty easier and harder, solved again.

    With ``mixed`` (every fresh adventurer, few enough), over that exact mixture: each adventurer
    with their own chance of the check made easier or harder (the mixture of the book's checks and
    that one more, :func:`fresh`), so "now" is the report's chance of victory. Otherwise for one
    reader: the given adventurer, or each check at its chance over every fresh one."""
    keys = book.checks
    if not keys:
        return []
    if mixed is not None:
        return _mixed_sensitivity(book, ruleset, plain, chain, approach, encumbered, policy, words, mixed)

    known: dict[Any, float] = {}

    def chance(key: Any) -> float:
        if key not in known:
            known[key] = exact_chance(key)
        return known[key]

    def exact_chance(key: Any) -> float:
        if key.difficulty == 0:
            return 1.0
        if abilities is not None:
            return float(approach_probability(ruleset, approach, key.difficulty, key_probability(
                ruleset, abilities, key, encumbered=encumbered, feature=feature)))
        return float(approach_probability(ruleset, approach, key.difficulty, fresh_key_probability(
            ruleset, key, encumbered=encumbered)))

    base = [chance(k) for k in keys]
    by_choice, cyclic = _checked_choices(book, plain, chain)

    def goal_with(options: list[int], p: float) -> float:
        if fast is not None:
            quick = fast.value(options, p)
            if quick is not None:
                return quick
        check = list(plain.opt_check)
        for o in options:
            check[o] = len(keys)
        shape = replace(plain, opt_check=check)
        sol = _solve(shape, [[*base, p]], [1.0], policy, None, len(keys) + 1, reach=False)
        return sum(q for k, q in _named(sol.outcomes, chain).items() if _is_goal(k, book, words))

    sol = _solve(plain, [base], [1.0], policy, None, len(keys), reach=False)
    now = sum(q for k, q in _named(sol.outcomes, chain).items() if _is_goal(k, book, words))
    # each answer below as a low-rank update of one factorisation (dtc.odds.sensitivity), where it
    # agrees with the full solve on the book as it is; else every answer is solved in full
    fast: GoalFunction | None = None
    if by_choice and len(plain.states) > SMALL_SENSITIVITY:
        from dtc.odds.sensitivity import GoalFunction

        fast = GoalFunction(plain, base, policy, goal_states(plain, _entry_of(plain, chain), book)[0])
        if not fast.ok or abs(fast.now - now) > 1e-9:
            fast = None
    out = []
    for (n, ci), options in sorted(by_choice.items()):
        key = keys[plain.opt_check[options[0]]]
        c = book.entries[n]["choices"][ci]
        d = key.difficulty
        easier = goal_with(options, chance(key._replace(difficulty=d - 1))) if (d - 1) in ruleset.difficulties \
            else None
        harder = goal_with(options, chance(key._replace(difficulty=d + 1))) if (d + 1) in ruleset.difficulties \
            else None
        if n in cyclic:
            h = 1e-6
            p0 = base[plain.opt_check[options[0]]]
            lo, hi = max(0.0, p0 - h), min(1.0, p0 + h)
            derivative = (goal_with(options, hi) - goal_with(options, lo)) / (hi - lo)
        else:  # visited once at most: the chance of the goal is linear in the check's
            derivative = goal_with(options, 1.0) - goal_with(options, 0.0)
        out.append(Decisive(n, ci, c.get("label") or c.get("text", ""), key.ability, d, now, easier, harder,
                            derivative))
    # swings and derivatives equal to rounding are ties, ordered by entry (the same on every machine)
    out.sort(key=lambda x: (-round(x.swing, 12), -round(abs(x.derivative), 9), x.entry, x.choice))
    return out
