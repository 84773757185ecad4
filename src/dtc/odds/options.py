"""What a reader can do at each entry, read from the compiled graph: the options and their branches.

An entry's *options* are what the policy picks among:

* each choice that parses: success with the check's chance, failure otherwise (a D0 choice
  always succeeds); a check without a failure entry (lint DT102) fails into "no failure entry";
* each prose exit (``go to 17``), taken for sure, except one guarded by a condition
  (``If you previously ..., skip to 17``) when the entry offers anything else: the chain keeps no
  memory, so it cannot tell whether the condition holds;
* each random branch (``roll 2d6, 2-6 S40, 7-12 S41``): each branch with the exact chance of its
  range of totals (a total no branch covers leads to "missing"); a choice's condition
  (``if stone key``) is not evaluated: the chain keeps no memory of what the reader holds, so
  every gated choice counts as open;
* the entry's "return to your most recent entry" exits, together one option that leads to each
  of its return targets with equal chance (the chain keeps no memory of where the reader came
  from).

Fights are assumed won (their prose exit is followed); damage is not modelled (see
``dtc simulate`` for that). Targets that name no entry lead to "missing"; a choice with a difficulty
the ruleset does not have leads to "broken" (``dtc play`` cannot go on there either).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from dtc.compiled.graphjson import CompiledGraph, Entry, Target
from dtc.lint.analysis import Analysis

if TYPE_CHECKING:
    from dtc.systems import Ruleset

#: Branch kinds: which chance a branch is taken with once its option is picked.
SURE, PASS, FAIL = 0, 1, 2


class CheckKey(NamedTuple):
    """What a choice's chance depends on: the ability (None: the reader's best), the difficulty,
    and the features whose words its label holds (Maze Rats' Paths: an adventurer with one rolls
    with advantage; empty under other rules, :meth:`~dtc.systems.Ruleset.favoured_by`)."""

    ability: str | None
    difficulty: int
    favoured: tuple[str, ...] = ()


class Branch(NamedTuple):
    exit: int | None  # index in the entry's exits (None: a check that names no failure entry)
    target: int | str  # an entry number, or "missing:<as written>"
    kind: int  # SURE, PASS (the check's chance) or FAIL (one minus it)
    share: float = 1.0  # for a return option: 1 / number of return targets


@dataclass(slots=True)
class Option:
    kind: str  # choice | random | prose | return
    label: str
    check: CheckKey | None  # (ability, difficulty, favoured) for a choice with D >= 1
    choice: int | None
    branches: list[Branch] = field(default_factory=list)


@dataclass(slots=True)
class Book:
    """The entries of a compiled graph as the chain sees them."""

    title: str
    rules: str
    start: int | None
    numbers: list[int]  # entry numbers in file order (duplicates dropped: the first counts)
    entries: dict[int, Entry]
    endings: set[int]  # from ``facts``, the graph facts lint and ``dtc graph`` report too
    options: dict[int, list[Option]]
    skipped: dict[int, list[str]]  # what the chain ignored per entry, as notes
    facts: Analysis
    #: What the reader holds before the first entry, of the names the book reads: the kit's rope
    #: for a Death & Treasure book that asks ``if rope`` (:func:`dtc.systems.kit_holdings_of`).
    held: dict[str, int] = field(default_factory=dict)
    #: ``Limits:``: the most of each name a reader holds (a gain past it is lost).
    limits: dict[str, int] = field(default_factory=dict)
    #: ``Containers:``: each container's possessions (a limit on a container counts them all).
    containers: dict[str, list[str]] = field(default_factory=dict)
    #: ``Limits: backpack 8 (choose)``: the containers past whose limit the reader drops what they choose.
    drop_by_choice: frozenset[str] = frozenset()
    #: A container of ``drop_by_choice`` that what the reader starts with fills past its limit
    #: (play asks what to drop on the first page; the odds do not follow it yet), or None.
    dropped_at_start: str | None = None

    @property
    def checks(self) -> list[CheckKey]:
        """Every distinct check key (ability, difficulty, favoured) of the book's choices, in a stable order."""
        seen: dict[CheckKey, None] = {}
        for opts in self.options.values():
            for o in opts:
                if o.check is not None:
                    seen.setdefault(o.check)
        return list(seen)


def _target(raw: Target | None, entries: Mapping[int, object]) -> int | str:
    return raw if isinstance(raw, int) and raw in entries else f"missing:{raw}"


def _choice_options(entry: Entry, entries: Mapping[int, object], notes: list[str],
                    rules: Ruleset | None = None) -> list[Option]:
    success: dict[int, int] = {}
    failure: dict[int, int] = {}
    for i, x in enumerate(entry["exits"]):
        kind, ci = x["kind"], x.get("choice")
        if isinstance(ci, int):
            if kind == "success":
                success[ci] = i
            elif kind == "failure":
                failure[ci] = i
    out = []
    random_exits: dict[tuple[int, int], int] = {}
    for i, x in enumerate(entry["exits"]):
        owner = x["choice"]
        if x["kind"] == "random" and owner is not None:
            random_exits[(owner, len([k for k in random_exits if k[0] == owner]))] = i
    for ci, c in enumerate(entry["choices"]):
        d = c.get("difficulty")
        roll = c.get("roll")
        if roll is not None and not c.get("error"):
            if not (1 <= roll["count"] <= 100 and 1 <= roll["sides"] <= 1000):
                notes.append(f"random branch {c.get('text', '?')!r} rolls dice too many or too large to count, "
                             "and is left out")
                continue
            chances = totals(roll["count"], roll["sides"])
            opt = Option("random", c.get("label") or c.get("text", ""), None, ci)
            covered = 0.0
            for bi, b in enumerate(roll["branches"]):
                p = sum(chances.get(t, 0.0) for t in range(b["low"], b["high"] + 1))
                covered += p
                if p > 0:
                    opt.branches.append(Branch(random_exits.get((ci, bi)), _target(b["target"], entries), SURE, p))
            if covered < 1 - 1e-12:
                opt.branches.append(Branch(None, "missing:no branch for the roll", SURE, 1 - covered))
            out.append(opt)
            continue
        if c.get("error") or d is None or c.get("success") is None:
            notes.append(f"choice {c.get('text', '?')!r} does not parse and is left out")
            continue
        ability = c.get("ability")
        if rules is not None and ability is not None and rules.canonical_ability(ability) is None:
            ability = None  # not an ability of the rules: dtc play asks which, and the reader takes the best
        if rules is not None and d not in rules.difficulties:  # dtc play stops there: the book is broken
            out.append(Option("choice", c.get("label") or c.get("text", ""), None, ci, [
                Branch(None, f"broken:D{d} is not a {rules.title} difficulty", SURE)]))
        elif d > 0:
            fail_to = c.get("failure")
            label = c.get("label") or c.get("text", "")
            # The words dtc play reads for a Path are the label's (the engine's ``c["label"]``).
            key = CheckKey(ability, d, rules.favoured_by(c.get("label") or "") if rules is not None else ())
            out.append(Option("choice", label, key, ci, [
                Branch(success.get(ci), _target(c["success"], entries), PASS),
                Branch(None, "missing:no failure entry", FAIL) if fail_to is None
                else Branch(failure.get(ci), _target(fail_to, entries), FAIL)]))
        else:
            out.append(Option("choice", c.get("label") or c.get("text", ""), None, ci,
                              [Branch(success.get(ci), _target(c["success"], entries), SURE)]))
    return out


def totals(count: int, sides: int) -> dict[int, float]:
    """The chance of each total of ``count`` dice of ``sides`` faces (exact sums of powers)."""
    dist = {0: 1.0}
    for _ in range(count):
        nxt: dict[int, float] = {}
        for total, p in dist.items():
            for face in range(1, sides + 1):
                nxt[total + face] = nxt.get(total + face, 0.0) + p / sides
        dist = nxt
    return dist if sides > 0 else {}


def entry_options(entry: Entry, entries: Mapping[int, object],
                  rules: Ruleset | None = None) -> tuple[list[Option], list[str]]:
    """The options of one compiled entry, and notes on anything left out.

    ``rules``: the book's ruleset. A choice asking for a difficulty it does not have leads to a
    "broken" outcome, as ``dtc play`` stops there; a check of an ability it does not have is the
    reader's best ability, as ``dtc play`` asks which.
    """
    notes: list[str] = []
    options = _choice_options(entry, entries, notes, rules)
    guarded = {f.get("target") for f in entry.get("effects", []) if f.get("kind") == "condition"}
    prose = [(i, x) for i, x in enumerate(entry["exits"]) if x["kind"] == "prose"]
    returns = [(i, x) for i, x in enumerate(entry["exits"]) if x["kind"] == "return"]
    kept = [(i, x) for i, x in prose if x["target"] not in guarded]
    if options or kept or returns:
        for _, x in prose:
            if x["target"] in guarded:
                notes.append(f"the conditional exit to {x['target']} is left out (the chain has no memory)")
    else:
        kept = prose
    for i, x in kept:
        opt = Option("prose", f"go to {x['target']}", None, None)
        opt.branches.append(Branch(i, _target(x["target"], entries), SURE))
        options.append(opt)
    if returns:
        opt = Option("return", "return to the most recent entry", None, None)
        share = 1.0 / len(returns)
        opt.branches.extend(Branch(i, _target(x["target"], entries), SURE, share) for i, x in returns)
        options.append(opt)
    return options, notes


def read_book(graph: CompiledGraph, rules: Ruleset | None = None) -> Book:
    """The chain's view of a compiled graph (a dict satisfying ``adventure.schema.json``).

    ``rules``: the book's ruleset (see :func:`entry_options`).
    """
    entries: dict[int, Entry] = {}
    for e in graph["entries"]:
        entries.setdefault(int(e["number"]), e)
    options: dict[int, list[Option]] = {}
    skipped: dict[int, list[str]] = {}
    for n, e in entries.items():
        options[n], notes = entry_options(e, entries, rules)
        if notes:
            skipped[n] = notes
    facts = Analysis.of_graph(graph)
    from dtc.runtime.inventory import read_names
    from dtc.systems import kit_holdings_of

    limits = dict(graph.get("limits") or {})
    containers = {box: list(members) for box, members in (graph.get("containers") or {}).items()}
    boxed = {m: box for box, members in containers.items() if box in limits for m in members}
    dropped: str | None = None
    held = kit_holdings_of(graph.get("rules"), read_names(graph) | set(boxed))  # (a container counts the kit's)
    for item in graph.get("start_with", ()):  # ``Start with:`` and ``--with`` (docs/format.md)
        name = item["name"]
        held[name] = min(held.get(name, 0) + item["amount"], limits.get(name, held.get(name, 0) + item["amount"]))
        box = boxed.get(name)
        if box is not None:  # past a container's limit, what the gain brought is lost (as play's first page)
            over = sum(held.get(m, 0) for m in containers[box]) - limits[box]
            if over > 0:
                held[name] -= min(held[name], over)
                dropped = dropped or (box if box in (graph.get("drop_by_choice") or ()) else None)
    return Book(
        title=str(graph.get("title") or "Untitled adventure"),
        rules=str(graph.get("rules") or ""),
        start=facts.start,
        numbers=list(entries),
        entries=entries,
        endings=facts.endings,
        options=options,
        skipped=skipped,
        facts=facts,
        held=held,
        limits=limits,
        containers=containers,
        drop_by_choice=frozenset(graph.get("drop_by_choice") or ()),
        dropped_at_start=dropped,
    )
