"""One exploration of what a reader can hold where, shared by lint and odds.

A *state* is the entry the reader is at, what they hold there after the entry's effects, and —
only at an entry that says "return to your most recent entry" — the entry they came from. The
exploration goes breadth first from the start entry, over every way on that is open in that
state, and is used twice:

* :mod:`dtc.lint.state` proves gates, soft locks and unpaid losses over it (``exact=False``: a
  possession that can be lost is kept up to the largest amount anything reads and as "more"
  above that, which over-approximates; findings about *some* route are replayed exactly);
* :mod:`dtc.odds.states` solves the Markov chain (and the best and worst reader's decision
  process) over it (``exact=True``: every count is exact, so every state is a real one).

Two reductions keep a typical book small, both exact (they merge only states that nothing
later can tell apart), as probabilistic model checkers do:

* **forget what nothing reads any more** ("reset"): after an entry's effects, a possession that
  no condition (and, for lint, no loss) can read from there on is set to zero. What is read
  from an entry is worked out once, over the entries as a graph with every gate open;
* **stop counting where more changes nothing**: a possession that nothing takes away is kept up
  to the largest amount any condition asks for (``if 10 coins``: 10 and "10 or more" are the
  same from then on).

States are packed into one integer each (the counts as bit fields, then the entry the reader
came from, then the entry), so millions fit in memory. Past ``budget`` states the exploration
stops: the states it did not expand are *frontier* states, and the callers say so (lint names
what it could not prove; odds gives bounds that hold whatever happens beyond the frontier).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

#: The widest count kept exactly (a count that grows past it, in a loop that gains without end,
#: makes its state a frontier state).
EXACT_BITS = 20

Test = Callable[[int], bool]

#: How a change other than a plain count applies (the published-gamebook forms, docs/format.md):
#: (``maybe``: it may apply or not — ``[may +rope]``, and in lint ``[+once stone key]``;
#: ``mode``: ``"plain"``, ``"all"`` (the count becomes 0) or ``"held"`` (a loss of what is held:
#: never unpaid); ``amounts``: every amount it may be, in the slot's units, signed — several for
#: ``[+1d10*3 coins]``); ``flag``: a slot (-1: none) set once the change has applied, which keeps it
#: from applying again (``[+once stone key]``, exactly: the slot is a flag of its own); ``chances``:
#: each amount's chance, for the exact layout (a rolled amount; empty where lint needs none).
#: ``maybe`` and several amounts without chances are for the over-approximation (``exact=False``).
Kind = tuple[bool, str, tuple[int, ...], int, tuple[float, ...]]
#: The modes of ``[-1 item of choice]`` in the exact layout (``dtc odds``): ``amounts`` lists the
#: slots it picks from, each with the slot of what of it the adventurer's kit holds (-1: none), as
#: :func:`_compiled` places them (an offset and a mask each); one held beyond the kit's loses one,
#: each as likely (``"pick"``) or the first (``"first"``).
PICKS = ("pick", "first")
#: ``"clamp"``: ``amounts`` names a second slot that is kept at most this change's slot's count (what
#: of a possession the adventurer's kit still holds, after a loss: the book's own possession goes first).
#: The modes of a container's limit (``Limits: backpack 8`` with ``Containers:``), in the exact layout:
#: ``amounts`` lists the container's slots (sorted by name), each with the slot of what of it the
#: adventurer's kit holds (-1: none), and the change's amount is the limit; past it, ``"fit"`` takes
#: what is over from this change's slot (the gain that brought it there), and ``"fitpick"`` and
#: ``"fitfirst"`` (``(choose)``) drop one of the slots held at a time (the book's first, then the
#: kit's), each as likely or the first, until the container is within its limit.
FITS = ("fit", "fitpick", "fitfirst")
PLACED = (*PICKS, "clamp", *FITS)


@dataclass(slots=True)
class Way:
    """A way on from an entry: a choice (gated or not), a prose exit, a random branch.

    ``targets`` are room indices, or negative numbers for outcomes the caller names (a missing
    entry, a broken check): ``-1 - k`` is the caller's sink ``k``. ``tag`` is the caller's own.
    """

    tag: object
    targets: tuple[int, ...]
    test: Test | None = None
    #: What taking it does before the reader arrives (a choice's effects, ``(D0, S37, -3 coins)``):
    #: as :attr:`Room.changes`, each with its :data:`Kind` (None: plain) in ``kinds``; a loss
    #: here is never reported unpaid.
    changes: tuple[tuple[int, int], ...] = ()
    kinds: tuple[Kind | None, ...] = ()


@dataclass(slots=True)
class Room:
    """What the exploration needs of one entry."""

    number: int
    #: (slot, amount in the slot's units) in text order; untracked possessions are left out.
    changes: tuple[tuple[int, int], ...]
    ways: list[Way]
    ending: bool = False
    #: "Return to your most recent entry": where it may lead (room indices); empty when the
    #: entry has no such exit.
    return_targets: tuple[int, ...] = ()
    #: Slots the entry's own conditions read.
    cond_reads: int = 0
    #: Slots the entry's losses read (lint counts a loss as a read: it checks it can be paid).
    loss_reads: int = 0
    #: Per change, its :data:`Kind`, or None for a plain count (empty: every change is plain).
    kinds: tuple[Kind | None, ...] = ()

    @property
    def returns(self) -> bool:
        return bool(self.return_targets)


@dataclass(slots=True)
class Layout:
    """Where each slot's count sits in a packed value, and how it is kept."""

    off: list[int]
    width: list[int]
    #: The largest value kept (a count of a gain-only slot stops there; a lost slot in the
    #: over-approximation keeps ``top`` as "more than top - 1").
    top: list[int]
    lost: list[bool]
    exact: bool

    @classmethod
    def of(cls, tops: Sequence[int], lost: Sequence[bool], exact: bool,
           ceilings: Sequence[int] | None = None) -> Layout:
        """``tops``: the largest amount kept per slot; in the exact layout a slot that can be lost
        is kept exactly up to its ``ceilings`` entry (default: :data:`EXACT_BITS` bits), and a
        count past it makes a frontier state."""
        off, width, top = [], [], []
        at = 0
        for i, (t, gone) in enumerate(zip(tops, lost, strict=True)):
            if exact and gone:
                ceiling = ceilings[i] if ceilings is not None else (1 << EXACT_BITS) - 1
                w = max(1, int(ceiling).bit_length())
                t = ceiling
            else:
                w = max(1, int(t).bit_length())
            off.append(at)
            width.append(w)
            top.append(int(t))
            at += w
        return cls(off, width, top, list(lost), exact)

    @property
    def bits(self) -> int:
        return (self.off[-1] + self.width[-1]) if self.off else 0

    def get(self, values: int, slot: int) -> int:
        return (values >> self.off[slot]) & ((1 << self.width[slot]) - 1)

    def pack(self, counts: Sequence[int]) -> int:
        """Per-slot counts (in the slot's units) as one packed value, each kept up to its ``top``."""
        values = 0
        for i, c in enumerate(counts):
            values |= min(max(0, int(c)), self.top[i]) << self.off[i]
        return values

    def unpack(self, values: int) -> list[int]:
        return [self.get(values, i) for i in range(len(self.off))]


@dataclass(slots=True)
class Exploration:
    """What the exploration found. Nodes are packed integers; :meth:`decode` takes one apart."""

    rooms: list[Room]
    layout: Layout
    start: int  # room index
    #: Every node found, in the order found (breadth first); ``index`` is its inverse.
    nodes: list[int] = field(default_factory=list)
    index: dict[int, int] = field(default_factory=dict)
    #: Node index -> (parent node index, way, outcome) of the first route found; the start's is None.
    parent: list[tuple[int, Way | None, int] | None] = field(default_factory=list)
    #: Per expanded node (only when asked for): (way index, the target node indices or sinks
    #: (negative), and None, or where a rolled amount splits an outcome, per target the way's
    #: outcome it belongs to and its chance within that outcome) for each open way.
    edges: list[list[tuple[int, list[int], list[tuple[int, float]] | None]]] | None = None
    #: How many nodes were expanded; the rest (``nodes[expanded:]``) is the frontier.
    expanded: int = 0
    complete: bool = True
    #: (room, change index) -> (node before, way, outcome) of the first arrival that could not pay it.
    unpaid: dict[tuple[int, int], tuple[int, Way | None, int]] = field(default_factory=dict)
    #: (room, way index) -> [first node where it opened, first node where it was closed].
    gates: dict[tuple[int, int], list[int | None]] = field(default_factory=dict)
    #: Room -> the first node where every way was closed.
    locked: dict[int, int] = field(default_factory=dict)
    #: Node indices where a count grew past what is kept exactly (frontier states, odds only).
    overflow: set[int] = field(default_factory=set)
    _eshift: int = 0

    def decode(self, node: int) -> tuple[int, int, int | None]:
        """(room, values, the room the reader came from or None)."""
        e = self._eshift
        room = node & ((1 << e) - 1)
        prev = (node >> e) & ((1 << e) - 1)
        return room, node >> (2 * e), (prev - 1 if prev else None)

    def room_of(self, i: int) -> int:
        return self.nodes[i] & ((1 << self._eshift) - 1)

    def values_of(self, i: int) -> int:
        return self.nodes[i] >> (2 * self._eshift)


def live_masks(rooms: list[Room]) -> list[int]:
    """Per room: the slots something can read after its effects (its own conditions, and what
    any room reachable from it reads), every gate taken as open: a fixpoint over the graph."""
    n = len(rooms)
    succ: list[set[int]] = [set() for _ in range(n)]
    for r, room in enumerate(rooms):
        if room.ending:
            continue
        for w in room.ways:
            succ[r].update(t for t in w.targets if t >= 0)
        succ[r].update(room.return_targets)
    preds: list[list[int]] = [[] for _ in range(n)]
    for r in range(n):
        for s in succ[r]:
            preds[s].append(r)
    keep = [room.cond_reads for room in rooms]
    live_in = [room.loss_reads | keep[r] for r, room in enumerate(rooms)]
    work = deque(r for r in range(n) if live_in[r])
    queued = [bool(live_in[r]) for r in range(n)]
    while work:
        s = work.popleft()
        queued[s] = False
        got = live_in[s]
        for p in preds[s]:
            if got & ~keep[p]:
                keep[p] |= got
                new = keep[p] | rooms[p].loss_reads
                if new != live_in[p]:
                    live_in[p] = new
                    if not queued[p]:
                        queued[p] = True
                        work.append(p)
    return keep


def explore(rooms: list[Room], start: int, layout: Layout, *, budget: int, edges: bool = False,
            gated_facts: bool = False, held: int = 0) -> Exploration:
    """Breadth first from ``start``, the reader holding ``held`` (packed values, :meth:`Layout.pack`:
    what the adventurer carries in, the kit's rope; nothing by default) before the start entry's
    effects; see the module's documentation."""
    n = len(rooms)
    cap = min(budget, ARRIVAL_CAP)  # the most holdings one arrival may leave (see _apply)
    eshift = max(1, (n + 1).bit_length())
    ex = Exploration(rooms, layout, start, _eshift=eshift)
    if edges:
        ex.edges = []
    keep = live_masks(rooms) if layout.off else [0] * n
    nodes, index, parent = ex.nodes, ex.index, ex.parent
    off, width, exact = layout.off, layout.width, layout.exact
    emask = (1 << eshift) - 1
    vshift = 2 * eshift
    # Per room, a compiled arrival: the changes with their fields, and what to forget after them.
    plans: list[tuple[tuple[Compiled, ...], int]] = []
    full = (1 << layout.bits) - 1
    for r, room in enumerate(rooms):
        forget = 0
        for i in range(len(off)):
            if not (keep[r] >> i) & 1:
                forget |= ((1 << width[i]) - 1) << off[i]
        plans.append((_compiled(room.changes, room.kinds, layout), full & ~forget))
    #: A way's changes, compiled once (by the way's id).
    way_plans: dict[int, tuple[Compiled, ...]] = {}

    def arrive(r: int, values: int, chances: list[float] | None = None) -> list[tuple[int, tuple[int, ...]]]:
        """The values after room r's effects (several in the over-approximation, when an amount
        above the cap is spent; several with their ``chances``, filled in, for an amount rolled),
        each with the changes that could not be paid in full; an empty list when a count
        overflows what is kept exactly."""
        changes, kept = plans[r]
        if not changes:
            if chances is not None:
                chances.append(1.0)
            return [(values & kept, ())]
        results = _apply(changes, values, exact, chances, cap)
        return [(v & kept, u) for v, u in results]

    def add(node: int, link: tuple[int, Way | None, int] | None) -> int:
        i = index.get(node)
        if i is None:
            i = index[node] = len(nodes)
            nodes.append(node)
            parent.append(link)
        return i

    def step(q: int, r: int, values: int, way: Way, o: int, t: int, targets: list[int],
             parts: list[tuple[int, float]]) -> None:
        """Arrive at room t from node q (room r) by outcome o of a way: add the nodes found (an
        overflow node where a count grew past what is kept exactly) to ``targets``, and each
        with the outcome and its chance within it to ``parts``."""
        chances: list[float] = []
        if way.changes:  # the way's own effects first (their losses are never reported unpaid)
            compiled = way_plans.get(id(way))
            if compiled is None:
                compiled = way_plans[id(way)] = _compiled(way.changes, way.kinds, layout)
            before_chances: list[float] = []
            before = _apply(compiled, values, exact, before_chances, cap)
            got = []
            for (v, _), w in zip(before, before_chances, strict=True):
                then: list[float] = []
                got += arrive(t, v, then)
                chances += [w * x for x in then]
        else:
            got = arrive(t, values, chances)
        if not got:
            j = add((1 << (vshift + layout.bits + 1)) | t, (q, way, o))
            ex.overflow.add(j)
            targets.append(j)
            parts.append((o, 1.0))
            return
        pc = (r + 1) << eshift if rooms[t].return_targets else 0
        for (v2, unpaid), w in zip(got, chances, strict=True):
            targets.append(add((v2 << vshift) | pc | t, (q, way, o)))
            parts.append((o, w))
            for k in unpaid:
                ex.unpaid.setdefault((t, k), (q, way, o))

    arrived = arrive(start, held)
    if not arrived:
        ex.complete = False
        return ex
    for values, unpaid in arrived:
        i = add((values << vshift) | start, None)
        for k in unpaid:
            ex.unpaid.setdefault((start, k), (-1, None, -1))
    gates = ex.gates
    q = 0
    while q < len(nodes):
        if q >= budget:
            ex.complete = False
            break
        if q in ex.overflow:  # a count past what is kept exactly: a frontier state, not expanded
            if ex.edges is not None:
                ex.edges.append([])
            q += 1
            continue
        node = nodes[q]
        r = node & emask
        prevc = (node >> eshift) & emask
        values = node >> vshift
        room = rooms[r]
        out: list[tuple[int, list[int], list[tuple[int, float]] | None]] | None = [] if edges else None
        if not room.ending:
            any_open = False
            ways = room.ways
            for wi, way in enumerate(ways):
                test = way.test
                if test is not None:
                    if gated_facts:
                        facts = gates.get((r, wi))
                        if facts is None:
                            facts = gates[(r, wi)] = [None, None]
                        slot = 0 if test(values) else 1
                        if facts[slot] is None:
                            facts[slot] = q
                        if slot:
                            continue
                    elif not test(values):
                        continue
                any_open = True
                targets: list[int] = []
                parts: list[tuple[int, float]] = []
                for o, t in enumerate(way.targets):
                    if t < 0:
                        targets.append(t)
                        parts.append((o, 1.0))
                    else:
                        step(q, r, values, way, o, t, targets, parts)
                if out is not None:
                    out.append((wi, targets, None if len(parts) == len(way.targets) else parts))
            if room.return_targets:
                prev = prevc - 1 if prevc else None
                # as dtc play offers it: back where the reader came from when that entry leads
                # here, else each entry that does, as a way of its own
                back = (prev,) if prev in room.return_targets else room.return_targets
                way = Way("return", back)
                for o, t in enumerate(back):
                    targets = []
                    parts = []
                    step(q, r, values, way, o, t, targets, parts)
                    if out is not None:
                        out.append((len(ways), targets, None if len(parts) == 1 else [(0, w) for _, w in parts]))
                any_open = True
            if not any_open and ways and r not in ex.locked:
                ex.locked[r] = q
        if ex.edges is not None and out is not None:
            ex.edges.append(out)
        q += 1
    ex.expanded = q
    if ex.overflow:
        ex.complete = False
    return ex


#: A change compiled for :func:`_apply`: (index, offset, mask, top, amount, lost, kind).
Compiled = tuple[int, int, int, int, int, bool, "Kind | None"]


def _compiled(changes: Sequence[tuple[int, int]], kinds: Sequence[Kind | None], layout: Layout) -> tuple[Compiled, ...]:
    off, width, top, lost = layout.off, layout.width, layout.top, layout.lost

    def placed(kind: Kind | None) -> Kind | None:  # the flag's slot as its offset in the values
        if kind is not None and kind[1] in PLACED:  # the slots read: (offset, mask) of each (-1: none, 0 and 0)
            kind = (kind[0], kind[1], tuple(x for s in kind[2] for x in ((off[s], (1 << width[s]) - 1) if s >= 0
                                                                          else (0, 0))), kind[3], kind[4])
        return kind if kind is None or kind[3] < 0 else (kind[0], kind[1], kind[2], off[kind[3]], kind[4])

    return tuple((k, off[s], (1 << width[s]) - 1, top[s], a, lost[s], placed(kinds[k] if k < len(kinds) else None))
                 for k, (s, a) in enumerate(changes))


#: The most holdings one page's effects may leave a reader in (sixteen ``[may ...]`` a condition
#: reads are 65,536): past it that arrival is not built, and the exploration treats it as an
#: overflow (lint's coarse approximation; the odds' bounds) instead of taking gigabytes.
ARRIVAL_CAP = 100_000


def _apply(changes: tuple[Compiled, ...], values: int, exact: bool,
           chances: list[float] | None = None, cap: int | None = None) -> list[tuple[int, tuple[int, ...]]]:
    """The values after ``changes`` (several in the over-approximation: an amount above the cap
    spent, a change that may or may not apply, an amount rolled), each with the changes that could
    not be paid in full; an empty list when a count overflows what is kept exactly, or when there
    would be more than ``cap`` of them (twenty ``[may ...]`` on one page are a million: past the
    exploration's budget, treated as it treats an overflow, never built). ``chances``, when given,
    is filled with each result's chance (an amount rolled, with its chances)."""
    results: list[tuple[int, tuple[int, ...]]] = [(values, ())]
    weights = [1.0]
    for k, o, m, t, a, gone, kind in changes:
        nxt: list[tuple[int, tuple[int, ...]]] = []
        if kind is None:  # a plain count, the common case
            for v, unpaid in results:
                cur = (v >> o) & m
                base = v & ~(m << o)
                if a > 0:
                    new = cur + a
                    if new > t:
                        if exact and gone:
                            return []
                        new = t
                    nxt.append((base | (new << o), unpaid))
                elif not exact and gone and cur == t:  # "more than t - 1": anything from t + a up
                    for x in range(max(0, t + a), t + 1):
                        nxt.append((base | (x << o), unpaid))
                else:
                    new = cur + a
                    nxt.append((base | (max(0, new) << o), (*unpaid, k) if new < 0 else unpaid))
            if len(nxt) != len(results):
                weights = [1.0] * len(nxt)  # (the over-approximation: no chances)
            results = nxt
            if cap is not None and len(results) > cap:
                return []
            continue
        maybe, mode, amounts, flag, odds = kind
        split = odds or (1.0,) * len(amounts)
        nw: list[float] = []
        for (v, unpaid), w in zip(results, weights, strict=True):
            if flag >= 0:
                if (v >> flag) & 1:  # applied once already
                    nxt.append((v, unpaid))
                    nw.append(w)
                    continue
                v |= 1 << flag
            if maybe:
                nxt.append((v, unpaid))
                nw.append(w)
            if mode == "clamp":  # a second slot (what the kit still holds) at most this slot's count
                ko, km = amounts
                nxt.append(((v & ~(km << ko)) | (min((v >> ko) & km, (v >> o) & m) << ko), unpaid))
                nw.append(w)
                continue
            if mode in FITS:  # a container past its limit (``a``): the gain's excess lost, or dropped by choice
                quads = [amounts[i:i + 4] for i in range(0, len(amounts), 4)]
                over = sum((v >> q[0]) & q[1] for q in quads) - a
                if over <= 0:
                    nxt.append((v, unpaid))
                    nw.append(w)
                elif mode == "fit":
                    cur = (v >> o) & m
                    nxt.append(((v & ~(m << o)) | ((cur - min(cur, over)) << o), unpaid))
                    nw.append(w)
                else:
                    dropped = {v: w}
                    for _ in range(over):
                        after: dict[int, float] = {}
                        for x, wx in dropped.items():
                            held = [q for q in quads if (x >> q[0]) & q[1]]
                            if mode == "fitfirst":
                                held = held[:1]
                            for po, pm, ko, km in held:
                                left = ((x >> po) & pm) - 1  # (the book's first, then the kit's: play's give_up)
                                y = (x & ~(pm << po)) | (left << po)
                                y = (y & ~(km << ko)) | (min((y >> ko) & km, left) << ko)
                                after[y] = after.get(y, 0.0) + wx / len(held)
                        dropped = after
                    for x, wx in dropped.items():
                        nxt.append((x, unpaid))
                        nw.append(wx)
                continue
            if mode in PICKS:  # one of the slots held loses one: each as likely, or the first
                slots = list(zip(amounts[::2], amounts[1::2], strict=True))
                # (offset, mask) pairs two by two: a count, and what of it the kit holds (never offered)
                held = [(po, pm) for (po, pm), (ko, km) in zip(slots[::2], slots[1::2], strict=True)
                        if ((v >> po) & pm) > ((v >> ko) & km)]
                if not held:
                    nxt.append((v, unpaid))
                    nw.append(w)
                    continue
                if mode == "first":
                    held = held[:1]
                for po, pm in held:
                    nxt.append(((v & ~(pm << po)) | ((((v >> po) & pm) - 1) << po), unpaid))
                    nw.append(w / len(held))
                continue
            cur = (v >> o) & m
            base = v & ~(m << o)
            if mode == "all":
                nxt.append((base, unpaid))
                nw.append(w)
                continue
            for amount, p in zip(amounts, split, strict=True):
                if amount > 0:
                    new = cur + amount
                    if new > t:
                        if exact and gone:
                            return []
                        new = t
                    nxt.append((base | (new << o), unpaid))
                    nw.append(w * p)
                elif not exact and gone and cur == t:  # "more than t - 1": anything from t + a up
                    for x in range(max(0, t + amount), t + 1):
                        nxt.append((base | (x << o), unpaid))
                        nw.append(w * p)
                else:
                    new = cur + amount
                    short = new < 0 and mode != "held"
                    nxt.append((base | (max(0, new) << o), (*unpaid, k) if short else unpaid))
                    nw.append(w * p)
        merged: dict[tuple[int, tuple[int, ...]], float] = {}
        for key, w in zip(nxt, nw, strict=True):  # the same values by two ways: one result, chances added
            merged[key] = merged.get(key, 0.0) + w
        results, weights = list(merged), list(merged.values())
        if cap is not None and len(results) > cap:
            return []
    if chances is not None:
        chances += weights
    return results
