from __future__ import annotations

from collections import deque
from collections.abc import Iterator

from dtc.compiler.compile import Exit
from dtc.diagnostics import Diagnostic, Severity, Span, Step
from dtc.lint.rules.base import Context, Rule, rule


@rule("DT308", "repeatable-find", Severity.INFO)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """A find a reader can make again and again, by walking a loop: it may want `once`.

    ## What it finds
    A gain — `[+stone key]`, `[+20 coins]` — in an entry a reader can reach from the start and
    come back to, on a route no condition can close: every step a move with no condition (a D0
    move, either outcome of a check, a branch of a random branch, a prose exit). Each reading
    gives the find again, so its count grows with every lap. The witness is the route there,
    then the loop back. A find that is already `once`, a choice's effect and a `[may ...]` are
    not reported, nor a loop through a gate or a "return to your most recent entry".

    ## Why it matters
    A printed gamebook says "you find a key" once; dtc applies an effect on every reading (see
    "State" in `docs/format.md`). A reader who walks the loop holds two keys, then three.

    ## Example
    ```
    1 A hall. The alcove (D0, S2); the door (D0, S3).
    2 A stone key on a hook. [+stone key] Back to the hall (D0, S1).
    3 Out. THE END
    ```

    ## Fix
    Write `[+once stone key]` (or `[+stone key once]`): it gives the key on the first reading of
    the entry only. Leave it if the find is meant to repeat (a spring of fresh water).
    """
    doc, res = ctx.doc, ctx.res
    start = res.start
    if start is None or start not in res.by_number or not any(ch.amount > 0 for e in doc.entries
                                                                for ch in e.changes):
        return  # (no start: missing-start speaks of it)
    edges = _sure_edges(ctx)
    before = _routes(edges, {start: None})
    for number in sorted(before):
        entry = doc.entries[res.by_number[number]]
        gains = [ch for ch in entry.changes if ch.amount > 0 and (ch.change is None or not (
            ch.change.once or ch.change.may))]
        if not gains or entry.ending:
            continue
        loop = _routes(edges, {t: (number, step) for t, step in reversed(edges.get(number, []))})
        if number not in loop:
            continue
        witness = (*_path(before, number, None), *_path(loop, number, number), Step(number, "", entry.span))
        for ch in gains:
            yield self.diag(ctx, f"entry {number} gives {ch.name} on every reading, and a reader can come back to "
                                 "it: write `once` to give it on the first reading only", ch.span, number,
                            witness=witness)


Edge = tuple[int, Step]


def _sure_edges(ctx: Context) -> dict[int, list[Edge]]:
    """Entry number -> (target, the step that takes it) for every way on no condition can close."""
    doc, res = ctx.doc, ctx.res
    out: dict[int, list[Edge]] = {}
    for number, i in res.by_number.items():
        entry = doc.entries[i]
        if entry.ending:
            continue
        found: list[Edge] = []
        for x in res.exits[i]:
            target = res.target_number(x.target)
            if target is None or x.kind == "return":
                continue
            taken = _taken(ctx, i, x)
            if taken is not None:
                found.append((target, Step(number, *taken)))
        out[number] = found
    return out


def _taken(ctx: Context, i: int, x: Exit) -> tuple[str, Span] | None:
    """How a step takes exit ``x`` of entry ``i`` in words, and where; None when a condition may close it."""
    entry = ctx.doc.entries[i]
    span = ctx.res.exit_span(i, x) or entry.span
    if x.choice is None:
        return f"go to {x.target}", span
    c = entry.choices[x.choice]
    if c.condition is not None or c.error is not None:
        return None
    label = c.label or c.text
    if x.kind == "random":
        return f"{label}: rolled", span
    return (f"{label}: {x.kind}" if c.difficulty else label), span


Link = tuple[int, Step] | None


def _routes(edges: dict[int, list[Edge]], first: dict[int, Link]) -> dict[int, Link]:
    """Breadth first over the sure edges from ``first`` (entry -> how it was reached): entry ->
    (the entry before it, the step taken there) on a shortest route."""
    seen = dict(first)
    queue = deque(seen)
    while queue:
        n = queue.popleft()
        for t, step in edges.get(n, ()):
            if t not in seen:
                seen[t] = (n, step)
                queue.append(t)
    return seen


def _path(seen: dict[int, Link], number: int, root: int | None) -> list[Step]:
    """The steps taken on the route :func:`_routes` found to ``number``, from its root (the start,
    or for a loop ``number`` itself)."""
    steps: list[Step] = []
    link = seen.get(number)
    while link is not None:
        prev, step = link
        steps.append(step)
        if prev == root or len(steps) > len(seen):
            break
        link = seen.get(prev)
    steps.reverse()
    return steps
