from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator

from dtc.compiler.compile import Exit
from dtc.compiler.model import StateChange
from dtc.diagnostics import Diagnostic, Severity, Step
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
    # the entries as parsed (list.__iter__, list.__getitem__): their effects are read, not their
    # places, so the language server is not asked to move every entry after an edit; a
    # finding's entry is taken at its place (doc.entries[i])
    if start is None or start not in res.by_number or not any(ch.amount > 0 for e in list.__iter__(doc.entries)
                                                                for ch in e.changes):
        return  # (no start: missing-start speaks of it)
    finds: dict[int, list[int]] = {}
    for number, i in res.by_number.items():
        entry = list.__getitem__(doc.entries, i)
        gains = [k for k, ch in enumerate(entry.changes) if ch.amount > 0 and (ch.change is None or not (
            ch.change.once or ch.change.may))]
        if gains and not entry.ending:
            finds[number] = gains
    if not finds:
        return
    edges = _sure_edges(ctx)
    before = _routes(edges, {start: None})
    looped = [n for n in sorted(finds) if n in before]
    if not looped:
        return
    component = _components(edges, before)
    cycles = _cycles(edges, component)
    for number in looped:
        loop = cycles(number)
        if loop is None:
            continue
        entry = doc.entries[res.by_number[number]]
        witness = (*(_step(ctx, link) for link in (*_path(before, number), *loop)), Step(number, "", entry.span))
        for k in finds[number]:
            ch: StateChange = entry.changes[k]
            yield self.diag(ctx, f"entry {number} gives {ch.name} on every reading, and a reader can come back to "
                                 "it: write `once` to give it on the first reading only", ch.span, number,
                            witness=witness)


#: A way on no condition can close: (from, to, the entry's index, the exit).
Link = tuple[int, int, int, Exit]


def _sure_edges(ctx: Context) -> dict[int, list[Link]]:
    """Entry number -> the ways on from it that no condition can close (its words are read only
    for a witness: reading a label costs)."""
    doc, res = ctx.doc, ctx.res
    out: dict[int, list[Link]] = {}
    for number, i in res.by_number.items():
        entry = doc.entries[i]
        if entry.ending:
            continue
        found: list[Link] = []
        for x in res.exits[i]:
            if x.kind == "return":
                continue
            if x.choice is not None:
                c = entry.choices[x.choice]
                if c.condition is not None or c.error is not None:
                    continue
            target = res.target_number(x.target)
            if target is not None:
                found.append((number, target, i, x))
        out[number] = found
    return out


def _step(ctx: Context, link: Link) -> Step:
    """How a witness takes a way on, in words, and where."""
    number, _, i, x = link
    entry = ctx.doc.entries[i]
    span = ctx.res.exit_span(i, x) or entry.span
    if x.choice is None:
        return Step(number, f"go to {x.target}", span)
    c = entry.choices[x.choice]
    label = c.label or c.text
    if x.kind == "random":
        return Step(number, f"{label}: rolled", span)
    return Step(number, f"{label}: {x.kind}" if c.difficulty else label, span)


def _routes(edges: dict[int, list[Link]], first: dict[int, Link | None]) -> dict[int, Link | None]:
    """Breadth first over the sure edges from ``first``: entry -> the link that reached it first."""
    seen = dict(first)
    queue = deque(seen)
    while queue:
        n = queue.popleft()
        for link in edges.get(n, ()):
            if link[1] not in seen:
                seen[link[1]] = link
                queue.append(link[1])
    return seen


def _path(seen: dict[int, Link | None], number: int) -> list[Link]:
    """The links of the route :func:`_routes` found to ``number``, from its start."""
    links: list[Link] = []
    link = seen.get(number)
    while link is not None and len(links) <= len(seen):
        links.append(link)
        link = seen.get(link[0])
    links.reverse()
    return links


def _components(edges: dict[int, list[Link]], nodes: Iterable[int]) -> dict[int, int]:
    """The strongly connected component of each of ``nodes`` over the sure edges (Tarjan's, without
    recursion): entry -> the component's root."""
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    on: set[int] = set()
    stack: list[int] = []
    root: dict[int, int] = {}
    counter = 0
    for v in nodes:
        if v in index:
            continue
        work = [(v, 0)]
        while work:
            n, k = work.pop()
            if k == 0:
                index[n] = low[n] = counter
                counter += 1
                stack.append(n)
                on.add(n)
            out = edges.get(n, [])
            if k < len(out):
                work.append((n, k + 1))
                t = out[k][1]
                if t not in index:
                    work.append((t, 0))
                elif t in on:
                    low[n] = min(low[n], index[t])
                continue
            if low[n] == index[n]:
                while True:
                    m = stack.pop()
                    on.discard(m)
                    root[m] = n
                    if m == n:
                        break
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[n])
    return root


#: How many entries the shortest loops' searches may visit in all; past it, a loop through the
#: component's root is given (as true, not always the shortest), so a huge book stays linear.
LOOP_BUDGET = 200_000


def _cycles(edges: dict[int, list[Link]], component: dict[int, int]) -> Callable[[int], list[Link] | None]:
    """A cycle through an entry over the sure edges, or None: the shortest, by a breadth-first
    search within its component, while :data:`LOOP_BUDGET` lasts; then the way from it to the
    component's root and back (two searches per component, made when first asked for)."""
    trees: dict[int, tuple[dict[int, Link | None], dict[int, Link]]] = {}
    members: dict[int, list[int]] = {}
    for n, r in component.items():
        members.setdefault(r, []).append(n)
    budget = [LOOP_BUDGET]

    def within(n: int) -> list[Link]:
        return [link for link in edges.get(n, []) if component.get(link[1]) == component[n]]

    def cycle(number: int) -> list[Link] | None:
        r = component.get(number)
        if r is None:
            return None
        inner = within(number)
        if not inner:
            return None  # alone in its component, with no edge to itself
        if budget[0] >= len(members[r]):  # the shortest loop: a search from its ways on, back to it
            budget[0] -= len(members[r])
            seen: dict[int, Link | None] = {}
            queue: deque[int] = deque()
            for link in inner:
                if link[1] not in seen:
                    seen[link[1]] = link
                    queue.append(link[1])
            while queue and number not in seen:
                n = queue.popleft()
                for link in within(n):
                    if link[1] not in seen:
                        seen[link[1]] = link
                        queue.append(link[1])
            links: list[Link] = []
            at: Link | None = seen.get(number)
            while at is not None and len(links) <= len(seen):
                links.append(at)
                at = None if at[0] == number else seen.get(at[0])
            links.reverse()
            return links
        if r not in trees:
            forward = _routes({n: within(n) for n in members[r]}, {r: None})
            back: dict[int, Link] = {}  # toward the root: n -> the link taken from n
            incoming: dict[int, list[Link]] = {}
            for n in forward:
                for link in within(n):
                    incoming.setdefault(link[1], []).append(link)
            queue = deque([r])
            while queue:
                t = queue.popleft()
                for link in incoming.get(t, []):
                    if link[0] not in back and link[0] != r:
                        back[link[0]] = link
                        queue.append(link[0])
            trees[r] = (forward, back)
        forward, back = trees[r]
        if number == r:
            last = next((link for link in inner if link[1] == r), None) or next(
                (link for n in forward for link in within(n) if link[1] == r), None)
            if last is None:
                return None
            return [*_path(forward, last[0]), last] if last[0] != r else [last]
        to_root: list[Link] = []
        n = number
        while n != r and n in back and len(to_root) <= len(back):
            to_root.append(back[n])
            n = back[n][1]
        return [*to_root, *_path(forward, number)] if n == r else None

    return cycle
